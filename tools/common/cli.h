/*
 * cli.h - small helpers shared by the command-line tools: option matching
 * for "--name=value" / "--name value" spellings, numbers and sizes with clear
 * errors, and a uniform error printer.
 */
#ifndef VIMANA_TOOLS_CLI_H
#define VIMANA_TOOLS_CLI_H

#include <stdbool.h>
#include <stdint.h>

const char *cli_version(void);

/* Prints "PROG: message\n" to stderr. */
void cli_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Matches argv[*i] against any of the '|'-separated spellings in `names`
 * (e.g. "--num-npus|--num_npus"). On a match stores the value, taken from
 * "--name=value" or from the next argument (advancing *i), and returns 1.
 * Returns 0 when the argument is another option, -1 when the value is
 * missing (after printing an error). */
int cli_option(const char *prog, int argc, char **argv, int *i, const char *names, const char **value);
/* A command's options whose values it keeps as given (paths, names): a
 * table of them, ended by {NULL, NULL}, stands for a chain of cli_option
 * calls that each store their value. */
typedef struct cli_text_option {
    const char *names;    /* '|'-separated spellings, as for cli_option */
    const char **value;   /* where the value goes */
} cli_text_option;
/* cli_option for each option of `table` in turn: 1 when one matched (its
 * value stored), 0 when argv[*i] is none of them, -1 when the value is
 * missing (after printing an error). */
int cli_text_options(const char *prog, int argc, char **argv, int *i, const cli_text_option *table);
/* Matches a flag without value; returns 1 when argv[i] is one of `names`. */
bool cli_flag(const char *arg, const char *names);

/* The value of an option that takes one of a few words: its position
 * among the '|'-separated `words` ("bf16|fp16|fp8"), or -1 after printing
 * "PROG: OPTION: expected bf16, fp16 or fp8, got 'VALUE'". */
int cli_word(const char *prog, const char *option, const char *value, const char *words);

/* An option that takes one of a few words: 1 when argv[*i] is `name` and
 * its value is one of `words` (its position, as cli_word gives it, stored
 * in *word), 0 when it is another option, -1 after printing an error. */
int cli_word_option(const char *prog, int argc, char **argv, int *i, const char *name, const char *words, int *word);

/* Is `arg` -h or --help? Then the command's `usage` is printed to stdout
 * (the caller returns its status for help). */
bool cli_help(const char *arg, const char *usage);

/* Takes `arg` as the command's one positional argument, stored in *slot
 * and named `what` in messages ("PREFIX_OR_FILE"). Returns 0, or 2 (the
 * usage-error status) after printing "PROG: unknown option 'ARG' (see
 * --help)" for an option, or "PROG: more than one WHAT ('A' and 'B')NOTE"
 * for a second one. */
int cli_positional(const char *prog, const char *arg, const char *what, const char *note, const char **slot);

/* Prints the error for an argument the command does not take: "PROG:
 * unknown option 'ARG' (see HELP)" when it starts with '-', else "PROG:
 * unexpected argument 'ARG' (see HELP)"; HELP says where the usage is
 * ("generate transformer --help"). */
void cli_unexpected(const char *prog, const char *arg, const char *help);

/* Parse with range checks; print "PROG: OPTION: ..." and return -1 on error. */
int cli_u64(const char *prog, const char *option, const char *text, uint64_t *out);
int cli_size(const char *prog, const char *option, const char *text, uint64_t *out);
/* An option whose value is a size above 0, such as --memory-capacity
 * (`example` in the message: "expected a size above 0 (e.g. 80GiB)"): 1
 * when argv[*i] is `name` and its value is good, 0 when it is another
 * option, -1 after printing an error. */
int cli_size_option(const char *prog, int argc, char **argv, int *i, const char *name, const char *example,
                    uint64_t *out);

/* mkdir -p of the folder part of an output prefix ("out/run/w" makes out/
 * and out/run/); returns -1 after printing "PROG: DIR: cannot create
 * directory: REASON" (or "PROG: --out: path too long"). */
int cli_make_parent_dirs(const char *prog, const char *prefix);

#endif
