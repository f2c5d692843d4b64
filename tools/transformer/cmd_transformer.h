/* cmd_transformer.h - `vimana-et generate transformer` (called by
 * `vimana-et generate` when KIND is "transformer"). */
#ifndef VIMANA_TOOLS_CMD_TRANSFORMER_H
#define VIMANA_TOOLS_CMD_TRANSFORMER_H

/* argv[0] is "transformer". Returns the exit status: 0, 1 (a write
 * failed) or 2 (a usage error). */
int generate_transformer(int argc, char **argv);

#endif
