/*
 * gen_models.c - the models the generators' unit tests share
 * (gen_models.h).
 */
#include "gen_models.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "transformer/tf_device.h"

struct tf_config tf_small(uint64_t tp, uint64_t pp, uint64_t dp, uint64_t global_batch)
{
    struct tf_config c = {
        .layers = 4, .hidden = 96, .heads = 6, .ffn = 288, .seq = 32, .vocab = 120,
        .micro_batch = 2, .global_batch = global_batch, .tp = tp, .pp = pp, .dp = dp,
        .elem_bytes = 2, .efficiency = 0.5, .dp_buckets = 1, .virtual_stages = 1,
    };
    assert_int_equal(tf_device_lookup("h100", &c.device), 0);
    return c;
}

void tf_rejects(struct tf_config c, const char *want)
{
    char msg[256];
    assert_int_equal(tf_config_check(&c, msg, sizeof msg), -1);
    assert_string_equal(msg, want);
}

struct inf_config llama7b(void)
{
    struct inf_config c = {
        .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 32, .ffn = 11008, .vocab = 32000,
        .tp = 2, .pp = 1, .batch = 8, .prompt_len = 512, .output_len = 16, .prefill_chunk = 512,
        .elem_bytes = 2,
    };
    assert_int_equal(tf_device_lookup("h100", &c.device), 0);
    return c;
}
