/*
 * inf_arrivals.h - the arrivals file of `vimana-et generate inference
 * --arrivals FILE` (docs/inference.md, "Serving"): one request a line,
 * "ARRIVAL PROMPT OUTPUT" separated by blanks or commas, '#' starting a
 * comment. ARRIVAL is a time from the start of the run, in microseconds
 * unless it ends in ns, us, ms or s (decimals allowed down to 1 ns);
 * PROMPT is the prompt's tokens, OUTPUT the tokens generated (the first
 * one, from the prefill, included). Arrivals must not decrease.
 * Pure parsing: the scheduler (inf_serving.h) decides what runs when.
 */
#ifndef VIMANA_TOOLS_INF_ARRIVALS_H
#define VIMANA_TOOLS_INF_ARRIVALS_H

#include <stddef.h>
#include <stdint.h>

/* Limits of one line, checked with a message naming FILE:LINE. */
#define INF_ARRIVAL_MAX_NS 86400000000000ull  /* one day */
#define INF_PROMPT_MAX (1ull << 24)            /* as --prompt-len */
#define INF_OUTPUT_MAX (1ull << 20)            /* as --output-len */
#define INF_REQUESTS_MAX (1ull << 20)

struct inf_request {
    uint64_t arrival_ns;
    uint64_t prompt, output;  /* tokens: the prompt's, and those generated (>= 1) */
    uint32_t line;            /* in the file, for messages */
};

struct inf_arrivals {
    struct inf_request *req;  /* in file order = arrival order */
    size_t n;
};

/* Parses `len` bytes of `text` (need not end in NUL) read from `name`.
 * 0, or -1 with one line "NAME:LINE: what is wrong" (or "NAME: ...") in
 * msg and nothing allocated. */
int inf_arrivals_parse(const char *name, const char *text, size_t len, struct inf_arrivals *a, char *msg,
                       size_t msglen);
/* Reads and parses the file at `path`; as inf_arrivals_parse. */
int inf_arrivals_load(const char *path, struct inf_arrivals *a, char *msg, size_t msglen);
void inf_arrivals_free(struct inf_arrivals *a);

#endif
