/*
 * commands.h - the subcommands of vimana-et. Each takes the arguments after
 * its own name (argv[0] is the command name) and returns the exit status.
 */
#ifndef VIMANA_TOOLS_COMMANDS_H
#define VIMANA_TOOLS_COMMANDS_H

int cmd_generate(int argc, char **argv);
int cmd_json(int argc, char **argv);
int cmd_from_json(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_dot(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_convert(int argc, char **argv);   /* dispatches to the two below */
int cmd_convert_text(int argc, char **argv);
int cmd_convert_pytorch(int argc, char **argv);
int cmd_link(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_linkmap(int argc, char **argv);
int cmd_obfuscate(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_calibrate_compute(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_split(int argc, char **argv);

#endif
