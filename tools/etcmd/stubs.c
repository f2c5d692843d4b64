/* Placeholder entry points until this command family lands. */
#include <stdio.h>

#include "vimana-et/commands.h"

int cmd_generate(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "vimana-et %s: not built yet\n", argv[0]);
    return 2;
}

int cmd_json(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "vimana-et %s: not built yet\n", argv[0]);
    return 2;
}

int cmd_from_json(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "vimana-et %s: not built yet\n", argv[0]);
    return 2;
}

int cmd_validate(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "vimana-et %s: not built yet\n", argv[0]);
    return 2;
}

int cmd_dot(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "vimana-et %s: not built yet\n", argv[0]);
    return 2;
}

int cmd_stats(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "vimana-et %s: not built yet\n", argv[0]);
    return 2;
}

