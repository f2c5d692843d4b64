#include "util/or_die.h"

#include <stdio.h>
#include <stdlib.h>

void *or_die(void *p)
{
    if (!p) {
        fputs("vimana: error: out of memory\n", stderr);
        exit(2);
    }
    return p;
}
