/*
 * cmd_io.h - what the ET commands share at their two ends: reading their
 * arguments (FILE [-o OUT], or one PREFIX_OR_FILE) with the same messages,
 * and opening the input ET together with the text output.
 */
#ifndef VIMANA_ETCMD_CMD_IO_H
#define VIMANA_ETCMD_CMD_IO_H

#include "etcmd/et_files.h"
#include "etcmd/sink.h"
#include "vimana/et.h"

/* What the argument readers below return when the command is to run; any
 * other value is the exit status to return at once: 0 after -h/--help
 * (`usage` printed), 2 on a usage error, 1 when the input is not there
 * (the message printed). */
#define CMD_IO_RUN (-1)

/* Reads one positional argument (`what`, e.g. "input file") and
 * -o/--output OUT, in any order; a second positional argument is refused
 * with `note` appended to the message. Either may be missing (the caller
 * says which it requires): *input and *output are NULL then. */
int cmd_io_in_out(const char *prog, const char *usage, const char *what, const char *note, int argc, char **argv,
                  const char **input, const char **output);

/* Reads "FILE [-o OUT]". A second input file is refused with
 * `one_input_note` appended to the message. */
int cmd_io_file_args(const char *prog, const char *usage, const char *one_input_note, int argc, char **argv,
                     const char **input, const char **output);

/* Reads "PREFIX_OR_FILE" and finds its files (et_files_resolve). */
int cmd_io_prefix_files(const char *prog, const char *usage, int argc, char **argv, const char **arg,
                        et_files *files);

/* Refuses an input path that exists but is not a regular file (a
 * directory; a device such as /dev/zero, which would be read for ever).
 * Returns 0, or -1 after printing "PROG: error: PATH: why". */
int cmd_io_check_input(const char *prog, const char *path);

/* Opens the ET `input` (unknown node types accepted). Returns 0, or -1
 * after printing why. */
int cmd_io_open_reader(const char *prog, const char *input, vet_reader **r);

/* Opens the ET `input` (unknown node types accepted) and the text output
 * `output` (stdout for NULL or "-"). Returns 0, or -1 after printing why
 * (nothing is left open). */
int cmd_io_open(const char *prog, const char *input, const char *output, vet_reader **r, sink **s);

#endif
