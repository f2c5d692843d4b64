/*
 * A backend module that cannot be loaded: it needs
 * libvimana_test_missing.so, which no run path reaches. vimana must say
 * which library is missing, not "file not found".
 */
#include <stddef.h>

#include "vimana/network_api.h"

int vimana_test_missing_value(void);
const vimana_backend *vimana_backend_entry(void);

/* Calls into the missing library, so that the module really needs it. */
const vimana_backend *vimana_backend_entry(void)
{
    return vimana_test_missing_value() ? NULL : NULL;
}
