/* cmd_inference.h - `vimana-et generate inference` (called by
 * `vimana-et generate` when KIND is "inference"). */
#ifndef VIMANA_TOOLS_CMD_INFERENCE_H
#define VIMANA_TOOLS_CMD_INFERENCE_H

/* argv[0] is "inference". Returns the exit status: 0, 1 (a write failed
 * or a rank is beyond --memory-capacity) or 2 (a usage error). */
int generate_inference(int argc, char **argv);

#endif
