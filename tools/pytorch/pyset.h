/*
 * pyset.h - the order in which CPython 3.11 iterates a set of integers.
 * The reference's --simulate loop releases the children of the nodes it
 * issued in one step by iterating a Python set, so when two issued nodes
 * release children in the same step, the order of the ready lists (and so
 * the simulated time) depends on CPython's hash-table layout. This module
 * reproduces that layout for small non-negative integers.
 */
#ifndef VIMANA_PYTORCH_PYSET_H
#define VIMANA_PYTORCH_PYSET_H

#include <stddef.h>
#include <stdint.h>

/* Reorders keys[0..n) (distinct) from insertion order into the order
 * `list(s)` yields for s = set(); s.add(keys[0]); ...; s.add(keys[n-1]).
 * Returns 0, or -1 when out of memory (keys are then left unchanged).
 * Sets of up to four keys need no allocation. */
int pt_pyset_order(uint64_t *keys, size_t n);

/* Python's hash() of a non-negative int. */
uint64_t pt_pyset_hash(uint64_t key);

#endif
