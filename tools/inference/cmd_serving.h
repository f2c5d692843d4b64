/* cmd_serving.h - `vimana-et generate inference --arrivals FILE`: the
 * serving form of the inference generator (docs/inference.md, "Serving"). */
#ifndef VIMANA_TOOLS_CMD_SERVING_H
#define VIMANA_TOOLS_CMD_SERVING_H

/* Whether argv asks for the serving form (it names --arrivals). */
int inf_cli_serving(int argc, char **argv);
/* As generate_inference (cmd_inference.h): 0, 1 or 2. */
int generate_serving(int argc, char **argv);

#endif
