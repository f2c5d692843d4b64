/* Placeholder entry points until this command family lands. */
#include <stdio.h>

#include "vimana-et/commands.h"

int cmd_convert_pytorch(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "vimana-et %s: not built yet\n", argv[0]);
    return 2;
}
