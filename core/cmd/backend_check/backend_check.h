/*
 * backend_check.h - `vimana backend-check PLUGIN`: a conformance run of a
 * network backend against a mock host (cmd/backend_check/mock_host.h), with no workload
 * and no system layer. Every violation is one line on `err`
 * ("vimana backend-check: FAIL: <check>: <what happened>"), the summary one
 * line on `out`. docs/backend-check.md explains each check.
 */
#ifndef VIMANA_CMD_BACKEND_CHECK_BACKEND_CHECK_H
#define VIMANA_CMD_BACKEND_CHECK_BACKEND_CHECK_H

#include <stdio.h>

/* argv[0] is "backend-check". Returns the exit status: 0 when every check
 * passed, 1 when one failed, 2 for bad usage. */
int backend_check_main(int argc, char **argv, FILE *out, FILE *err);

#endif
