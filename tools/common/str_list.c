/* A growable array of owned strings (str_list.h). */
#include "common/str_list.h"

#include <stdlib.h>
#include <string.h>

int str_list_append(char ***items, size_t *n, const char *s)
{
    char **grown = realloc(*items, (*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *items = grown;
    if (!(grown[*n] = strdup(s)))
        return -1;
    (*n)++;
    return 0;
}
