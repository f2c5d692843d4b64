/*
 * str_list.h - a growable array of strings the array owns (a list of file
 * paths, of group names): adds a copy of a string at its end.
 */
#ifndef VIMANA_TOOLS_STR_LIST_H
#define VIMANA_TOOLS_STR_LIST_H

#include <stddef.h>

/* Adds a copy of `s` after the *n strings of *items and counts it (*n + 1).
 * Returns 0, or -1 when memory runs out: *n is then unchanged and the
 * strings already there stay (the caller frees them as before). */
int str_list_append(char ***items, size_t *n, const char *s);

#endif
