/*
 * et_files.h - the files a PREFIX_OR_FILE argument names: the file itself
 * when it exists, else PREFIX.0.et, PREFIX.1.et, ... up to the first
 * missing rank (PREFIX.k.et.gz is used where PREFIX.k.et is absent), else
 * the traces of a compact workload's role map PREFIX.roles.json
 * (vimana/et_roles.h), one per role. A master trace (vimana-et merge) is
 * its ranks, split into a temporary folder.
 */
#ifndef VIMANA_ETCMD_ET_FILES_H
#define VIMANA_ETCMD_ET_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vimana/et_roles.h"

typedef struct et_files {
    char **paths;
    size_t n;
    bool is_prefix;   /* paths[k] is rank k's file */
    /* A compact workload (roles.n_roles > 0): paths[k] is role k's trace,
     * run by roles.n_ranks ranks in all. */
    vet_roles roles;
    /* A master trace (vimana-et merge): its ranks split into the folder
     * tmpdir (removed by et_files_free), shown[k] "MASTER (rank k)". */
    char *tmpdir;
    char **shown;
} et_files;

/* The name problems give paths[k]: itself, or a master's rank. */
const char *et_files_shown(const et_files *f, size_t k);

/* The number of ranks that run files->paths[k]: 1, or a role's ranks. */
size_t et_files_ranks_of(const et_files *f, size_t k);
/* Rank by rank: how many ranks there are (files, or a compact workload's
 * ranks), and rank x's trace with the shift its peers take (x - the rank
 * the trace was written for; 0 for a rank's own file). */
size_t et_files_n_ranks(const et_files *f);
const char *et_files_rank(const et_files *f, size_t x, int64_t *peer_shift);

/* Returns 0, or -1 after printing "PROG: ARG: ..." when nothing matches
 * (or "PROG: error: MAP: ..." for a role map it cannot read),
 * or "PROG: error: PATH: ..." when ARG or a rank's file exists but is not a
 * regular file (a directory, a device). */
int et_files_resolve(const char *prog, const char *arg, et_files *out);
/* The same for a command that needs every rank's own file: a compact
 * workload is refused with one line that says so. */
int et_files_resolve_ranks(const char *prog, const char *arg, et_files *out);
void et_files_free(et_files *f);

#endif
