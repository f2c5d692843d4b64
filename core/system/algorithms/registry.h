/*
 * registry.h - the collective algorithms a run knows: the built-ins
 * (registry.c's const table) and any registered into the run's registry
 * before the system configuration is read (tests, extensions). Every name
 * and id lookup goes through here and is bounds-checked.
 *
 * The registry is a plain value held by the simulation context; a zeroed
 * one holds the built-ins only. It names no system-layer type, so that the
 * context can embed it.
 */
#ifndef VIMANA_SYSTEM_ALGORITHMS_REGISTRY_H
#define VIMANA_SYSTEM_ALGORITHMS_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "config/system_config.h"

struct algorithm;

/* The first built-in: what a communicator group smaller than the system
 * runs when the implementation list does not give one algorithm. */
#define ALGO_RING 0
/* Algorithms a registry takes beyond the built-ins. */
#define ALGO_MAX_EXTRA 16

typedef struct algo_registry {
    const struct algorithm *extra[ALGO_MAX_EXTRA];
    uint32_t n_extra;
} algo_registry;

/* Adds an algorithm (kept by pointer: it must outlive the registry).
 * Returns -1 when the registry is full, the descriptor lacks a name, start
 * or step (or parse_param for a param), or one of its names is taken. */
int algo_registry_add(algo_registry *r, const struct algorithm *a);
/* The algorithm with this id, or NULL when there is none. */
const struct algorithm *algo_registry_get(const algo_registry *r, uint32_t id);
/* Resolves a name of the system JSON ("direct8", "oneRing"): 0 with *out
 * filled, or -1 when no algorithm takes it. */
int algo_registry_resolve(const algo_registry *r, const char *name, algo_spec *out);
/* Every accepted spelling, "ring, oneRing, direct, directN, ... or X". */
void algo_registry_expected(const algo_registry *r, char *buf, size_t len);
/* The name a spec was given by, normalised ("oneDirect8"); "?" for an
 * unknown id. Writes into buf. */
const char *algo_registry_spec_name(const algo_registry *r, const algo_spec *a, char *buf, size_t len);
/* The lookup sys_config_load takes; r must outlive the call. */
sys_algo_names algo_registry_names(const algo_registry *r);
/* The same for the built-ins alone, for readers of a system JSON outside
 * a run (tests, fuzzers). A NULL registry reads as the built-ins too. */
const sys_algo_names *algo_registry_builtin_names(void);

#endif
