#include "etcmd/cmd_io.h"

#include <stdio.h>

#include "common/cli.h"
#include "util/input_file.h"

int cmd_io_in_out(const char *prog, const char *usage, const char *what, const char *note, int argc, char **argv,
                  const char **input, const char **output)
{
    *input = *output = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if (cli_help(argv[i], usage))
            return 0;
        if ((rc = cli_option(prog, argc, argv, &i, "-o|--output", &v)) != 0) {
            if (rc < 0)
                return 2;
            *output = v;
        } else if (cli_positional(prog, argv[i], what, note, input) != 0) {
            return 2;
        }
    }
    return CMD_IO_RUN;
}

int cmd_io_file_args(const char *prog, const char *usage, const char *one_input_note, int argc, char **argv,
                     const char **input, const char **output)
{
    int rc = cmd_io_in_out(prog, usage, "input file", one_input_note, argc, argv, input, output);
    if (rc != CMD_IO_RUN)
        return rc;
    if (!*input) {
        cli_error(prog, "missing the input file (see --help)");
        return 2;
    }
    return CMD_IO_RUN;
}

int cmd_io_prefix_files(const char *prog, const char *usage, int argc, char **argv, const char **arg,
                        et_files *files)
{
    *arg = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return 0;
        if (cli_positional(prog, argv[i], "PREFIX_OR_FILE", "", arg) != 0)
            return 2;
    }
    if (!*arg) {
        cli_error(prog, "missing PREFIX_OR_FILE (see --help)");
        return 2;
    }
    return et_files_resolve(prog, *arg, files) == 0 ? CMD_IO_RUN : 1;
}

int cmd_io_check_input(const char *prog, const char *path)
{
    char why[128];
    if (input_file_check(path, why, sizeof why) == 0)
        return 0;
    cli_error(prog, "error: %s: %s", path, why);
    return -1;
}

int cmd_io_open_reader(const char *prog, const char *input, vet_reader **r)
{
    vet_error err;
    *r = NULL;
    if (cmd_io_check_input(prog, input) != 0)
        return -1;
    *r = vet_reader_open(input, &err);
    if (!*r) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    vet_reader_accept_unknown_types(*r, true);
    return 0;
}

int cmd_io_open(const char *prog, const char *input, const char *output, vet_reader **r, sink **s)
{
    *s = NULL;
    if (cmd_io_open_reader(prog, input, r) != 0)
        return -1;
    *s = sink_open(prog, output);
    if (!*s) {
        vet_reader_close(*r);
        *r = NULL;
        return -1;
    }
    return 0;
}
