/* `vimana-et generate`: microbenchmark ETs, byte-identical to the files the
 * reference generators write (ASTRA-sim's collective scripts, the HOTI'24
 * tutorial's three-node example, and the golden point-to-point cases). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/gen_chakra.h"
#include "inference/cmd_inference.h"
#include "transformer/cmd_transformer.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define PROG "vimana-et generate"
#define MIB (1024u * 1024u)

static const char usage[] =
    "Usage: vimana-et generate KIND --npus N [--size BYTES] --out PREFIX [options]\n"
    "Write PREFIX.0.et ... PREFIX.(N-1).et (the directory of PREFIX is created),\n"
    "or with --single-file only PREFIX.et, the trace every rank runs.\n"
    "KIND:\n"
    "  all-reduce, all-gather, reduce-scatter, all-to-all\n"
    "      one COMM_COLL node per rank (id = rank), as ASTRA-sim's microbenchmark\n"
    "      generators write it; named <coll>_<N>npus_<S>MB for whole MiB sizes,\n"
    "      <coll>_<N>npus_<K>KB for whole KiB, else <coll>_<N>npus_<B>B\n"
    "  three-nodes\n"
    "      the HOTI'24 tutorial graph on every rank: 1 MiB all-reduce (id 1), then a\n"
    "      2 MiB all-gather (id 2) and a 50 us compute node (id 3), both depending on 1\n"
    "  send-recv\n"
    "      rank SRC sends BYTES to rank DST; DST posts the matching receive; every\n"
    "      other rank runs one 0 us compute node\n"
    "  chakra\n"
    "      Chakra's chakra_generator microbenchmarks, byte for byte: --out is a folder\n"
    "      of NAME.RANK.et for one_metadata_node_all_types, one_remote_mem_load_node,\n"
    "      one_remote_mem_store_node, one_comp_node, two_comp_nodes_independent,\n"
    "      two_comp_nodes_dependent, ALL_REDUCE, ALL_TO_ALL, ALL_GATHER,\n"
    "      REDUCE_SCATTER, BROADCAST, BARRIER, one_comm_send_node, one_comm_recv_node\n"
    "      (node ids counted across the files, as the reference does)\n"
    "  transformer\n"
    "      one training iteration of a GPT-style model with TP x PP x DP ranks\n"
    "      (its own options: vimana-et generate transformer --help)\n"
    "Options:\n"
    "  --npus N        number of ranks (alias --num-npus, --npus-count)\n"
    "  --size BYTES    message or collective size, e.g. 1048576, 64KiB, 1MiB, 1MB\n"
    "                  (MB = 10^6); default 1MiB; not used by three-nodes\n"
    "  --out PREFIX    output prefix (alias -o, --output)\n"
    "  --src RANK      send-recv: the sender (default 0)\n"
    "  --dst RANK      send-recv: the receiver (default 1)\n"
    "  --tag TAG       send-recv: the message tag (default 0)\n"
    "  --runtime US    chakra: compute nodes' duration in us (default 5; alias\n"
    "                  --default_runtime)\n"
    "  --tensor-size BYTES  chakra: memory and send/recv nodes' tensor_size (default\n"
    "                  1024; alias --default_tensor_size)\n"
    "  --comm-size BYTES    chakra: collectives' comm_size (default 65536, BARRIER 0;\n"
    "                  alias --default_comm_size)\n"
    "  --single-file   write only PREFIX.et, the same bytes as PREFIX.0.et: vimana\n"
    "                  runs it on every NPU when PREFIX.0.et does not exist (not for\n"
    "                  send-recv, whose ranks differ)\n";

enum kind { K_COLL, K_THREE_NODES, K_SEND_RECV, K_CHAKRA };

struct options {
    enum kind kind;
    const char *coll_name;   /* "all_reduce", ... for K_COLL */
    int64_t comm_type;
    uint64_t npus, size, src, dst, tag;
    int size_given;
    bool single_file;        /* PREFIX.et only: rank 0's trace, run by every rank */
    struct gen_chakra_options chakra;   /* K_CHAKRA's sizes */
    int chakra_given;        /* one of --runtime, --tensor-size, --comm-size was given */
    const char *out;
};

static const struct {
    const char *kind;
    const char *alias;
    const char *name;
    int64_t type;
} collectives[] = {
    {"all-reduce", "all_reduce", "all_reduce", VET_ALL_REDUCE},
    {"all-gather", "all_gather", "all_gather", VET_ALL_GATHER},
    {"reduce-scatter", "reduce_scatter", "reduce_scatter", VET_REDUCE_SCATTER},
    {"all-to-all", "all_to_all", "all_to_all", VET_ALL_TO_ALL},
};

static int parse_kind(const char *text, struct options *o)
{
    for (size_t i = 0; i < sizeof collectives / sizeof collectives[0]; i++) {
        if (strcmp(text, collectives[i].kind) == 0 || strcmp(text, collectives[i].alias) == 0) {
            o->kind = K_COLL;
            o->coll_name = collectives[i].name;
            o->comm_type = collectives[i].type;
            return 0;
        }
    }
    if (strcmp(text, "three-nodes") == 0 || strcmp(text, "three_nodes") == 0) {
        o->kind = K_THREE_NODES;
        return 0;
    }
    if (strcmp(text, "send-recv") == 0 || strcmp(text, "send_recv") == 0) {
        o->kind = K_SEND_RECV;
        return 0;
    }
    if (strcmp(text, "chakra") == 0) {
        o->kind = K_CHAKRA;
        return 0;
    }
    if (strcmp(text, "transformer") == 0 || strcmp(text, "inference") == 0) {
        cli_error(PROG, "%s: the kind must come first (vimana-et generate %s --help)", text, text);
        return -1;
    }
    cli_error(PROG, "unknown kind '%s' (expected all-reduce, all-gather, reduce-scatter, all-to-all, "
                    "three-nodes, send-recv, chakra or transformer)", text);
    return -1;
}

/* Returns 0 to run, 1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, struct options *o)
{
    const char *kind = NULL, *npus = NULL;
    int src_given = 0, dst_given = 0, tag_given = 0;
    memset(o, 0, sizeof *o);
    o->size = MIB;
    o->dst = 1;
    o->chakra = (struct gen_chakra_options){.runtime_us = 5, .tensor_size = 1024, .comm_size = 65536};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if (cli_help(argv[i], usage))
            return 1;
        if (cli_flag(argv[i], "--single-file")) {
            o->single_file = true;
            continue;
        }
        if ((rc = cli_option(PROG, argc, argv, &i, "--npus|--num-npus|--num_npus|--npus-count", &v)) != 0) {
            if (rc < 0)
                return 2;
            npus = v;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--size", &v)) != 0) {
            if (rc < 0 || cli_size(PROG, "--size", v, &o->size) != 0)
                return 2;
            o->size_given = 1;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--out|-o|--output", &v)) != 0) {
            if (rc < 0)
                return 2;
            o->out = v;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--runtime|--default-runtime|--default_runtime", &v)) != 0) {
            if (rc < 0 || cli_u64(PROG, "--runtime", v, &o->chakra.runtime_us) != 0)
                return 2;
            o->chakra_given = 1;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--tensor-size|--default-tensor-size|--default_tensor_size",
                                    &v)) != 0) {
            if (rc < 0 || cli_size(PROG, "--tensor-size", v, &o->chakra.tensor_size) != 0)
                return 2;
            o->chakra_given = 1;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--comm-size|--default-comm-size|--default_comm_size", &v)) !=
                   0) {
            if (rc < 0 || cli_size(PROG, "--comm-size", v, &o->chakra.comm_size) != 0)
                return 2;
            o->chakra_given = 1;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--src", &v)) != 0) {
            if (rc < 0 || cli_u64(PROG, "--src", v, &o->src) != 0)
                return 2;
            src_given = 1;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--dst", &v)) != 0) {
            if (rc < 0 || cli_u64(PROG, "--dst", v, &o->dst) != 0)
                return 2;
            dst_given = 1;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--tag", &v)) != 0) {
            if (rc < 0 || cli_u64(PROG, "--tag", v, &o->tag) != 0)
                return 2;
            tag_given = 1;
        } else if (argv[i][0] == '-') {
            cli_error(PROG, "unknown option '%s' (see --help)", argv[i]);
            return 2;
        } else if (kind) {
            cli_error(PROG, "unexpected argument '%s' (the kind is already '%s')", argv[i], kind);
            return 2;
        } else {
            kind = argv[i];
        }
    }
    if (!kind) {
        cli_error(PROG, "missing KIND (see --help)");
        return 2;
    }
    if (parse_kind(kind, o) != 0)
        return 2;
    if (!npus) {
        cli_error(PROG, "missing --npus N");
        return 2;
    }
    if (cli_u64(PROG, "--npus", npus, &o->npus) != 0)
        return 2;
    /* a million files at most; one file may stand for any count of NPUs vimana takes */
    uint64_t max_npus = o->single_file ? UINT32_MAX : 1000000;
    if (o->npus == 0 || o->npus > max_npus) {
        cli_error(PROG, "--npus: expected 1 to %" PRIu64 " ranks, got %" PRIu64, max_npus, o->npus);
        return 2;
    }
    if (!o->out) {
        cli_error(PROG, "missing --out PREFIX");
        return 2;
    }
    if (o->kind == K_CHAKRA && (o->size_given || o->single_file)) {
        cli_error(PROG, "chakra: %s does not apply (its sizes are --runtime, --tensor-size and --comm-size)",
                  o->size_given ? "--size" : "--single-file");
        return 2;
    }
    if (o->kind != K_CHAKRA && o->chakra_given) {
        cli_error(PROG, "--runtime, --tensor-size and --comm-size apply to chakra only");
        return 2;
    }
    if (o->kind == K_CHAKRA && o->npus > 65536) {
        cli_error(PROG, "--npus: chakra writes 14 files a rank: expected 1 to 65536 ranks, got %" PRIu64, o->npus);
        return 2;
    }
    if (o->kind == K_CHAKRA && (o->chakra.comm_size > INT64_MAX || o->chakra.runtime_us > INT64_MAX)) {
        cli_error(PROG, "--%s: %" PRIu64 " does not fit its 64-bit signed field",
                  o->chakra.comm_size > INT64_MAX ? "comm-size" : "runtime",
                  o->chakra.comm_size > INT64_MAX ? o->chakra.comm_size : o->chakra.runtime_us);
        return 2;
    }
    if (o->kind != K_SEND_RECV && (src_given || dst_given || tag_given)) {
        cli_error(PROG, "--src, --dst and --tag apply to send-recv only");
        return 2;
    }
    if (o->kind == K_THREE_NODES && o->size_given) {
        cli_error(PROG, "--size does not apply to three-nodes (its sizes are fixed: 1 MiB and 2 MiB)");
        return 2;
    }
    if (o->kind == K_SEND_RECV && o->single_file) {
        cli_error(PROG, "--single-file: send-recv writes a different trace for the sender, the receiver and the "
                        "idle ranks");
        return 2;
    }
    if (o->kind == K_SEND_RECV) {
        if (o->npus < 2) {
            cli_error(PROG, "send-recv needs --npus 2 or more");
            return 2;
        }
        if (o->src >= o->npus || o->dst >= o->npus) {
            cli_error(PROG, "--src %" PRIu64 " / --dst %" PRIu64 ": ranks must be below --npus %" PRIu64,
                      o->src, o->dst, o->npus);
            return 2;
        }
        if (o->src == o->dst) {
            cli_error(PROG, "--src and --dst are both %" PRIu64 "; a rank cannot send to itself", o->src);
            return 2;
        }
        if (o->tag > INT32_MAX) {
            cli_error(PROG, "--tag: %" PRIu64 " does not fit the 32-bit comm_tag", o->tag);
            return 2;
        }
    }
    if (o->size > INT64_MAX) {
        cli_error(PROG, "--size: %" PRIu64 " does not fit the 64-bit signed comm_size", o->size);
        return 2;
    }
    return 0;
}

/* The reference scripts name sizes in MiB ("1MB" = 1048576 bytes); other
 * sizes keep that convention one unit down, or fall back to bytes. */
static void size_label(uint64_t size, char *buf, size_t cap)
{
    if (size > 0 && size % MIB == 0)
        snprintf(buf, cap, "%" PRIu64 "MB", size / MIB);
    else if (size > 0 && size % 1024 == 0)
        snprintf(buf, cap, "%" PRIu64 "KB", size / 1024);
    else
        snprintf(buf, cap, "%" PRIu64 "B", size);
}


static int put(vet_writer *w, vet_builder *b, vet_error *err)
{
    if (vet_builder_failed(b)) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", PROG);
        return -1;
    }
    return vet_writer_put_node(w, vet_builder_node(b), err);
}

static int collective_rank(const struct options *o, uint64_t rank, vet_writer *w, vet_builder *b, vet_error *err)
{
    char name[160], label[40];
    size_label(o->size, label, sizeof label);
    snprintf(name, sizeof name, "%s_%" PRIu64 "npus_%s", o->coll_name, o->npus, label);
    vet_builder_reset(b, rank, name, VET_COMM_COLL_NODE);
    vet_builder_attr_bool(b, "is_cpu_op", false);
    vet_builder_attr_int64(b, "comm_type", o->comm_type);
    vet_builder_attr_int64(b, "comm_size", (int64_t)o->size);
    return put(w, b, err);
}

/* The tutorial writes comm_size as uint64_val, unlike ASTRA-sim's scripts. */
static void tutorial_collective(vet_builder *b, uint64_t id, const char *name, int64_t type, uint64_t size)
{
    static const bool involved_dim[] = {true};
    vet_builder_reset(b, id, name, VET_COMM_COLL_NODE);
    vet_builder_attr_bool(b, "is_cpu_op", false);
    vet_builder_attr_int64(b, "comm_type", type);
    vet_builder_attr_uint64(b, "comm_size", size);
    vet_builder_attr_bool_list(b, "involved_dim", involved_dim, 1);
}

static int three_nodes_rank(vet_writer *w, vet_builder *b, vet_error *err)
{
    tutorial_collective(b, 1, "All-Reduce-1MB", VET_ALL_REDUCE, MIB);
    if (put(w, b, err) != 0)
        return -1;
    tutorial_collective(b, 2, "All-Gather-2MB", VET_ALL_GATHER, 2 * MIB);
    vet_builder_add_data_dep(b, 1);
    if (put(w, b, err) != 0)
        return -1;
    vet_builder_reset(b, 3, "Compute-50us", VET_COMP_NODE);
    vet_builder_set_duration(b, 50);
    vet_builder_attr_bool(b, "is_cpu_op", false);
    vet_builder_add_data_dep(b, 1);
    return put(w, b, err);
}

static void p2p_node(const struct options *o, vet_builder *b, const char *verb, enum vet_node_type type)
{
    char name[80];
    snprintf(name, sizeof name, "%s_%" PRIu64 "_%" PRIu64, verb, o->src, o->dst);
    vet_builder_reset(b, 0, name, type);
    vet_builder_attr_bool(b, "is_cpu_op", false);
    vet_builder_attr_int32(b, "comm_src", (int32_t)o->src);
    vet_builder_attr_int32(b, "comm_dst", (int32_t)o->dst);
    vet_builder_attr_int32(b, "comm_tag", (int32_t)o->tag);
    vet_builder_attr_uint64(b, "comm_size", o->size);
}

static int send_recv_rank(const struct options *o, uint64_t rank, vet_writer *w, vet_builder *b, vet_error *err)
{
    if (rank == o->src) {
        p2p_node(o, b, "send", VET_COMM_SEND_NODE);
    } else if (rank == o->dst) {
        p2p_node(o, b, "recv", VET_COMM_RECV_NODE);
    } else {
        /* An idle rank still needs one node: the simulator refuses an ET
         * with nothing to issue. */
        vet_builder_reset(b, 0, "idle_dummy", VET_COMP_NODE);
        vet_builder_attr_bool(b, "is_cpu_op", false);
    }
    return put(w, b, err);
}

/* Rank `rank`'s trace to PREFIX.rank.et, or (--single-file) rank 0's to
 * PREFIX.et: collective ids are the rank, so the single file is exactly
 * PREFIX.0.et. */
static int write_rank(const struct options *o, uint64_t rank, vet_builder *b)
{
    char path[4200];
    vet_error err;
    if (o->single_file)
        snprintf(path, sizeof path, "%s.et", o->out);
    else
        snprintf(path, sizeof path, "%s.%" PRIu64 ".et", o->out, rank);
    vet_writer *w = vet_writer_open(path, &err);
    if (!w) {
        fprintf(stderr, "%s: %s\n", PROG, err.msg);
        return -1;
    }
    vet_metadata md = {.version = "0.0.4"};
    int rc = vet_writer_put_metadata(w, &md, &err);
    if (rc == 0) {
        switch (o->kind) {
        case K_COLL: rc = collective_rank(o, rank, w, b, &err); break;
        case K_THREE_NODES: rc = three_nodes_rank(w, b, &err); break;
        case K_SEND_RECV: rc = send_recv_rank(o, rank, w, b, &err); break;
        case K_CHAKRA: break;   /* written by gen_chakra_write */
        }
    }
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err.msg);
        vet_writer_close(w, &err);
        return -1;
    }
    if (vet_writer_close(w, &err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err.msg);
        return -1;
    }
    return 0;
}

int cmd_generate(int argc, char **argv)
{
    struct options o;
    if (argc > 1 && strcmp(argv[1], "transformer") == 0)
        return generate_transformer(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "inference") == 0)
        return generate_inference(argc - 1, argv + 1);
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (o.kind == K_CHAKRA) {
        /* --out is the folder of the files: make it and its parents */
        char inside[4200];
        snprintf(inside, sizeof inside, "%s/x", o.out);
        if (strlen(o.out) > 4000 || cli_make_parent_dirs(PROG, inside) != 0)
            return 1;
        o.chakra.npus = o.npus;
        o.chakra.dir = o.out;
        return gen_chakra_write(PROG, &o.chakra) == 0 ? 0 : 1;
    }
    if (cli_make_parent_dirs(PROG, o.out) != 0)
        return 1;
    vet_builder *b = vet_builder_new();
    if (!b) {
        cli_error(PROG, "out of memory");
        return 1;
    }
    uint64_t files = o.single_file ? 1 : o.npus;
    for (uint64_t rank = 0; rank < files && rc == 0; rank++)
        rc = write_rank(&o, rank, b);
    vet_builder_free(b);
    return rc == 0 ? 0 : 1;
}
