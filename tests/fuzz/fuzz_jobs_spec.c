/* Fuzz target: `vimana --jobs JOBS.yaml` (core/cmd/jobs/jobs_spec.c): the jobs
 * file reader and the placement of its jobs on a network of 16 NPUs
 * (explicit ids, contiguous, strided, random). Nothing is run and no file
 * the jobs file names is read. */
#include <stdio.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "cmd/jobs/jobs_spec.h"

int fuzz_target_jobs_spec(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX], err[1024];
    fuzz_write("jobs.yaml", data, size, path);
    jobs_spec s;
    if (jobs_spec_load(path, &s, err, sizeof err) == 0)
        jobs_spec_place(&s, 16, err, sizeof err);
    jobs_spec_free(&s); /* what was read before any error, too */
    return 0;
}
