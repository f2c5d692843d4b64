/* cmd_inference.h - `vimana-et generate inference` (called by
 * `vimana-et generate` when KIND is "inference"). */
#ifndef VIMANA_TOOLS_CMD_INFERENCE_H
#define VIMANA_TOOLS_CMD_INFERENCE_H

#include "inference/inf_model.h"

/* argv[0] is "inference". Returns the exit status: 0, 1 (a write failed
 * or a rank is beyond --memory-capacity) or 2 (a usage error). */
int generate_inference(int argc, char **argv);

/* Matches one of the fixed-batch options at argv[*i] (the model, TP/PP,
 * --batch ..., --device, --precision, --mlp, --memory-capacity, --out,
 * --max-batch: sets *max_batch): 1 when used (bit k of *given set for the
 * k-th numeric flag, in the order --layers --hidden --heads --ffn --vocab
 * --tp --pp --batch --prompt-len --output-len --kv-heads --prefill-chunk),
 * 0 when not one of them, -1 after an error line. The serving form
 * (cmd_serving.c) shares it. */
int inf_cli_option(int argc, char **argv, int *i, struct inf_config *c, unsigned *given, const char **out,
                   int *max_batch);

#endif
