/* `vimana-et convert text|pytorch ...`: picks the converter by input kind.
 * The reference spells the kinds "Text" and "PyTorch"; both spellings work,
 * and so does the older single-command form of its tutorials,
 * `convert --input_type Text|PyTorch --input_filename ... --output_filename ...`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cli.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et convert"

static int run_kind(const char *kind, int argc, char **argv)
{
    if (strcasecmp(kind, "text") == 0)
        return cmd_convert_text(argc, argv);
    if (strcasecmp(kind, "pytorch") == 0)
        return cmd_convert_pytorch(argc, argv);
    cli_error(PROG, "unknown input kind '%s' (expected text or pytorch)", kind);
    return 2;
}

/* The text-only options of the old form, which a PyTorch conversion does
 * not take: dropped with a note instead of refused. Returns as cli_option. */
static int text_only_option(char **argv, int *i, int argc)
{
    const char *value;
    return cli_option(PROG, argc, argv, i, "--num_npus|--num-npus|--num_passes|--num-passes|--num_dims|--num-dims",
                      &value);
}

/* The old form: finds --input_type, then runs that converter on the other
 * arguments (argv[0] of the new vector is the kind, as for `convert KIND`). */
static int run_old_form(int argc, char **argv)
{
    const char *kind = NULL;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) {
        cli_error(PROG, "out of memory");
        return 1;
    }
    int n = 1;
    for (int i = 1; i < argc; i++) {
        const char *value;
        int r = cli_option(PROG, argc, argv, &i, "--input_type|--input-type", &value);
        if (r < 0) {
            free(rest);
            return 2;
        }
        if (r > 0)
            kind = value;
        else
            rest[n++] = argv[i];
    }
    int rc;
    if (!kind) {
        cli_error(PROG, "expected `convert text ...`, `convert pytorch ...` or `convert --input_type Text|PyTorch "
                        "...` (run `vimana-et convert --help`)");
        rc = 2;
    } else {
        rest[0] = (char *)kind;
        if (strcasecmp(kind, "pytorch") == 0) {
            int kept = 1, r = 0;
            for (int i = 1; r >= 0 && i < n; i++) {
                int at = i;
                if ((r = text_only_option(rest, &i, n)) > 0)
                    fprintf(stderr, "%s: note: %s is ignored for PyTorch input\n", PROG, rest[at]);
                else if (r == 0)
                    rest[kept++] = rest[i];
            }
            n = r < 0 ? -1 : kept;
        }
        rc = n < 0 ? 2 : run_kind(kind, n, rest);
    }
    free(rest);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    if (argc < 2 || strcasecmp(argv[1], "--help") == 0 || strcasecmp(argv[1], "-h") == 0) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out,
                "Usage: vimana-et convert text --input FILE --output PREFIX --num-npus N [--num-passes P]\n"
                "       vimana-et convert pytorch --input ET_PLUS.json --output FILE.et [--simulate]\n"
                "       vimana-et convert --input_type Text|PyTorch --input_filename FILE\n"
                "                         --output_filename OUT [--num_npus N] [--num_passes P] [--num_dims D]\n"
                "The last form is the reference's older command line; --num_npus, --num_passes and\n"
                "--num_dims are for Text (PyTorch ignores them, with a note; Text ignores --num_dims).\n"
                "Run `vimana-et convert text --help` or `... pytorch --help` for details.\n");
        return argc < 2 ? 2 : 0;
    }
    if (strncmp(argv[1], "--", 2) == 0)
        return run_old_form(argc, argv);
    return run_kind(argv[1], argc - 1, argv + 1);
}
