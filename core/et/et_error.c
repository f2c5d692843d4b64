#include "et/et_error.h"

#include <stdarg.h>
#include <stdio.h>

void et_set_err(vet_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}
