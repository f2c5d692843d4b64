/* vimana-et: generate, inspect, validate and convert Chakra execution traces. */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "vimana-et/commands.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"generate", cmd_generate, "write microbenchmark ETs (collectives, send-recv, three-nodes)"},
    {"json", cmd_json, "print an ET as lossless JSON"},
    {"from-json", cmd_from_json, "write an ET from the JSON form of `json`"},
    {"validate", cmd_validate, "check one ET or a whole prefix for structural errors"},
    {"dot", cmd_dot, "draw one rank's dependency graph: DOT, GraphML, SVG, PDF or PNG"},
    {"stats", cmd_stats, "count nodes, collective bytes and compute time"},
    {"convert", cmd_convert, "convert ASTRA-sim 1.0 text or PyTorch ET+ into Chakra ETs"},
    {"link", cmd_link, "link a PyTorch host ET with its Kineto trace into ET+"},
    {"timeline", cmd_timeline, "turn a simulator log or report into a Chrome/Perfetto timeline"},
    {"linkmap", cmd_linkmap, "draw the busiest links of a report as an SVG heat map"},
    {"obfuscate", cmd_obfuscate, "rewrite ETs for sharing: neutral names, only what the simulator reads"},
    {"synth", cmd_synth, "learn a model of ET sets, draw new ETs from it, compare sets (synth fit/sample/compare)"},
    {"calibrate-compute", cmd_calibrate_compute, "fit the transformer generator's GEMM model to measured GEMMs"},
    {"merge", cmd_merge, "write a distributed ET set as one master trace (lossless)"},
    {"split", cmd_split, "write the rank files of a master trace back"},
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: vimana-et COMMAND [OPTIONS]\n\nCommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-17s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun `vimana-et COMMAND --help` for the options of one command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("vimana-et %s\n", cli_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "vimana-et: unknown command '%s' (run `vimana-et --help`)\n", argv[1]);
    return 2;
}
