/*
 * gen_models.h - the models the unit tests of the training and inference
 * generators (tools/transformer, tools/inference) share, and the check
 * that must refuse a training configuration.
 */
#ifndef VIMANA_TESTS_GEN_MODELS_H
#define VIMANA_TESTS_GEN_MODELS_H

#include <stdint.h>

#include "inference/inf_model.h"
#include "transformer/tf_model.h"

/* A small training model on H100s: 4 layers, h 96, 6 heads, F 288, s 32,
 * vocab 120, micro-batch 2, 2-byte elements, efficiency 0.5, one DP
 * bucket; tp x pp x dp ranks and a global batch of global_batch. */
struct tf_config tf_small(uint64_t tp, uint64_t pp, uint64_t dp, uint64_t global_batch);

/* tf_config_check refuses c with exactly want. */
void tf_rejects(struct tf_config c, const char *want);

/* Llama-2-7B-like on TP 2: 32 layers, h 4096, 32 heads, F 11008, vocab
 * 32000; batch 8, prompts of 512 tokens in one chunk, 16 output tokens,
 * on H100s. */
struct inf_config llama7b(void);

#endif
