/*
 * gen_chakra.h - `vimana-et generate chakra`: the microbenchmark ETs of
 * Chakra's chakra_generator, byte for byte. For each NPU of N, in this
 * order: one METADATA node with one attribute of every value kind, one
 * remote-memory load, one store, one compute node, two independent and two
 * dependent compute nodes, one ALL_REDUCE, ALL_TO_ALL, ALL_GATHER,
 * REDUCE_SCATTER, BROADCAST and BARRIER, one COMM_SEND and one COMM_RECV
 * (without peers, as the reference writes them): DIR/NAME.RANK.et, node
 * ids counted across every file in that order.
 */
#ifndef VIMANA_ETCMD_GEN_CHAKRA_H
#define VIMANA_ETCMD_GEN_CHAKRA_H

#include <stdint.h>

struct gen_chakra_options {
    uint64_t npus;
    uint64_t runtime_us;     /* compute nodes' duration_micros (default 5) */
    uint64_t tensor_size;    /* memory and send/recv nodes' tensor_size (default 1024) */
    uint64_t comm_size;      /* collectives' comm_size, BARRIER's 0 (default 65536) */
    const char *dir;
};

/* Writes every file. Returns 0, or -1 after printing one line. */
int gen_chakra_write(const char *prog, const struct gen_chakra_options *o);

#endif
