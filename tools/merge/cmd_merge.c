/* `vimana-et merge` and `vimana-et split`: a distributed ET set as one
 * master trace and back (merge/et_master.h). */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/cmd_io.h"
#include "etcmd/et_files.h"
#include "merge/et_master.h"
#include "vimana-et/commands.h"

static const char merge_usage[] =
    "Usage: vimana-et merge PREFIX -o MASTER.et\n"
    "Write the master trace of PREFIX.0.et, PREFIX.1.et, ... (PREFIX.k.et.gz where\n"
    "PREFIX.k.et is absent): one ET holding every rank's records as they are, each\n"
    "rank after a METADATA_NODE marker (vimana.rank: its rank, node count and\n"
    "metadata record). `vimana-et split` gives the files back byte for byte;\n"
    "validate and stats read the master as the prefix.\n"
    "  -o, --output FILE  the master trace (required)\n";

static const char split_usage[] =
    "Usage: vimana-et split MASTER.et -o PREFIX\n"
    "Write PREFIX.0.et ... PREFIX.(N-1).et from a master trace of `vimana-et merge`:\n"
    "each rank's metadata and node records as they were merged.\n"
    "  -o, --output PREFIX  the prefix of the rank files (required; its folder is\n"
    "                       created)\n";

/* One input and -o: 0 to run, 1 after --help, 2 on a usage error. */
static int parse(const char *prog, const char *usage, const char *what, int argc, char **argv, const char **in,
                 const char **out)
{
    int rc = cmd_io_in_out(prog, usage, what, "", argc, argv, in, out);
    if (rc != CMD_IO_RUN)
        return rc == 0 ? 1 : 2;
    if (!*in || !*out) {
        cli_error(prog, "missing %s (see --help)", !*in ? what : "-o");
        return 2;
    }
    return 0;
}

int cmd_merge(int argc, char **argv)
{
    const char *prog = "vimana-et merge", *in, *out;
    int rc = parse(prog, merge_usage, "PREFIX", argc, argv, &in, &out);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    et_files files;
    if (et_files_resolve_ranks(prog, in, &files) != 0)
        return 1;
    if (!files.is_prefix) {
        cli_error(prog, "%s: a single file; merge takes the PREFIX of PREFIX.0.et, PREFIX.1.et, ...", in);
        et_files_free(&files);
        return 2;
    }
    char msg[800];
    rc = cli_make_parent_dirs(prog, out) != 0 ? -1 : et_master_merge(files.paths, files.n, out, msg, sizeof msg);
    if (rc != 0 && msg[0])
        cli_error(prog, "%s", msg);
    if (rc == 0)
        printf("%s: %zu rank%s merged\n", out, files.n, files.n == 1 ? "" : "s");
    et_files_free(&files);
    return rc == 0 ? 0 : 1;
}

int cmd_split(int argc, char **argv)
{
    const char *prog = "vimana-et split", *in, *out;
    int rc = parse(prog, split_usage, "MASTER.et", argc, argv, &in, &out);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (!et_master_is(in)) {
        cli_error(prog, "%s: not a master trace of vimana-et merge (its metadata's version is not %s)", in,
                  ET_MASTER_VERSION);
        return 1;
    }
    if (cli_make_parent_dirs(prog, out) != 0)
        return 1;
    char msg[800];
    size_t n;
    if (et_master_split(in, out, &n, msg, sizeof msg) != 0) {
        cli_error(prog, "%s", msg);
        return 1;
    }
    printf("%s: %zu rank%s written\n", out, n, n == 1 ? "" : "s");
    return 0;
}
