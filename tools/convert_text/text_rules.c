/*
 * Mode rules that the column syntax cannot express: HYBRID_DLRM's last
 * bottom layer, and what the header's layer count means. Inputs on which the
 * reference converter crashes are refused here with the line to fix; inputs
 * it converts oddly are converted the same way, with a warning.
 */
#include <inttypes.h>

#include "text_workload.h"

static bool header_places_ig_gap(enum text_mode mode)
{
    return mode == TEXT_MODE_MODEL || mode == TEXT_MODE_HYBRID_DATA_MODEL || mode == TEXT_MODE_HYBRID_MODEL_DATA;
}

int64_t text_skipped_ig_position(const struct text_workload *w)
{
    int64_t layers = (int64_t)w->n_layers;
    if (header_places_ig_gap(w->mode))
        /* The reference skips the input-gradient collective at backward
         * position header_count - 1, which is the first layer only when
         * the header is right. */
        return w->header_count >= 1 && w->header_count <= layers ? w->header_count - 1 : -1;
    if (w->mode == TEXT_MODE_HYBRID_CUSTOMIZED)
        return layers - 1; /* ASTRA-sim 1.0: never for layer 0 */
    return -1;
}

static bool is_dlrm(enum text_mode mode)
{
    return mode == TEXT_MODE_HYBRID_DLRM || mode == TEXT_MODE_HYBRID_DLRM_ENHANCED;
}

/* HYBRID_DLRM: layer b (the last bottom-MLP layer) waits for the first
 * layer's forward all-to-all, and layer b + 1's input-gradient step sends
 * the first layer's input-gradient all-to-all. */
static int check_dlrm(const struct text_workload *w, FILE *warnings, struct text_error *err)
{
    int64_t b = w->last_bottom_layer;
    int64_t layers = (int64_t)w->n_layers;
    const char *mode = text_mode_get(w->mode)->keyword;
    if (layers == 0)
        return 0;
    if (b == 0 || b == -1)
        /* b = 0 waits for an all-to-all not sent yet; b = -1 puts the
         * input-gradient all-to-all after the first layer, which has no
         * input-gradient step. The reference crashes on both. */
        return text_fail(err, w->path, 1,
                         "expected the index of the last bottom-MLP layer in column 2 to be at least 1 (%s: "
                         "it waits for the first layer's forward all-to-all), got '%" PRId64 "'",
                         mode, b);
    const struct text_layer *first = &w->layers[0];
    if (b >= 1 && b < layers && first->comm[TEXT_FWD].kind != TEXT_COMM_ALLTOALL)
        return text_fail(err, w->path, first->line,
                         "expected ALLTOALL as the first layer's forward comm type in column 4 (%s: the last "
                         "bottom-MLP layer, %" PRId64 ", waits for it), got '%s'",
                         mode, b, first->comm[TEXT_FWD].token);
    if (!warnings)
        return 0;
    if (b < -1 || b >= layers)
        fprintf(warnings,
                "%s:1: warning: the last bottom-MLP layer %" PRId64 " is not a layer index (0 to %" PRId64
                "): no layer waits for the first layer's forward all-to-all and no input-gradient "
                "all-to-all is written\n",
                w->path, b, layers - 1);
    else if (b == layers - 1)
        fprintf(warnings,
                "%s:1: warning: the last bottom-MLP layer %" PRId64 " is the last layer: no input-gradient "
                "all-to-all is written (it follows the layer after it)\n",
                w->path, b);
    return 0;
}

static void warn_header_count(const struct text_workload *w, FILE *warnings)
{
    if (!warnings || w->header_count == (int64_t)w->n_layers)
        return;
    fprintf(warnings, "%s:2: warning: the header declares %" PRId64 " layers but %zu layer lines follow; ",
            w->path, w->header_count, w->n_layers);
    if (!header_places_ig_gap(w->mode)) {
        fprintf(warnings, "all %zu are converted\n", w->n_layers);
        return;
    }
    int64_t pos = text_skipped_ig_position(w);
    if (pos < 0) {
        fprintf(warnings, "as in the reference, every layer, the first included, gets an input-gradient "
                          "comm node\n");
        return;
    }
    const struct text_layer *gap = &w->layers[w->n_layers - 1 - (size_t)pos];
    fprintf(warnings,
            "as in the reference, layer '%s' (line %lu) gets no input-gradient comm node instead of the "
            "first layer, and the layer before it does not depend on one (the reference crashes there)\n",
            gap->name, gap->line);
}

int text_workload_check(struct text_workload *w, FILE *warnings, struct text_error *err)
{
    if (w->mode == TEXT_MODE_HYBRID_TRANSFORMER_FWD_IN_BCKWD && text_checkpoints_mark(w, err) != 0)
        return -1;
    if (is_dlrm(w->mode) && check_dlrm(w, warnings, err) != 0)
        return -1;
    warn_header_count(w, warnings);
    return 0;
}
