/*
 * fuzz_sim_run.h - a whole simulation for the fuzz targets that drive one
 * (fuzz_sim, fuzz_network_faults): the command line they build, parsed and
 * run as `vimana` would.
 */
#ifndef VIMANA_TESTS_FUZZ_SIM_RUN_H
#define VIMANA_TESTS_FUZZ_SIM_RUN_H

/* Parses argv (argv[0] the program, NULL-terminated) as vimana's options
 * and runs the simulation, its output thrown away (VIMANA_FUZZ_VERBOSE=1:
 * on stderr, to see what a saved input does). Aborts, naming target, when
 * the options are refused: the target built them, so that is its bug, not
 * a finding. */
void fuzz_sim_run(const char *target, char **argv);

/* Loads the backend the target runs once and keeps it mapped: libFuzzer
 * keeps pointers to the coverage counters of every instrumented module it
 * saw, so the simulator's unloading must not unmap it. Aborts, naming
 * target, when it cannot be loaded: every run would then stop at the load
 * and the target would exercise nothing. */
void fuzz_pin_backend(const char *target, const char *path);

#endif
