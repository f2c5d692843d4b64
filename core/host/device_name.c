/* Device names for the link records (host/device_name.h). */
#include "host/device_name.h"

#include <stdio.h>
#include <string.h>

#include "host/backend_loader.h"

void device_name_default(uint32_t device, uint32_t npus, char out[DEVICE_NAME_SIZE])
{
    if (device < npus)
        snprintf(out, DEVICE_NAME_SIZE, "npu%u", device);
    else
        snprintf(out, DEVICE_NAME_SIZE, "switch%u", device - npus);
}

/* Printable ASCII only: the name goes into JSON strings, CSV fields, SVG
 * text and one-line messages, and none of them has to guess an encoding. */
static int check_name(const char *name, uint32_t device, char *why, size_t why_len)
{
    size_t len = strnlen(name, VIMANA_DEVICE_NAME_MAX + 1);
    if (len == 0) {
        snprintf(why, why_len, "device_name(%u) returned an empty name", device);
        return -1;
    }
    if (len > VIMANA_DEVICE_NAME_MAX) {
        snprintf(why, why_len, "device_name(%u) returned a name longer than %d bytes", device,
                 VIMANA_DEVICE_NAME_MAX);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c > 0x7e) {
            snprintf(why, why_len, "device_name(%u) returned a name with byte 0x%02x at offset %zu (names are "
                     "printable ASCII)", device, c, i);
            return -1;
        }
    }
    return 0;
}

int device_name_get(const vimana_backend *be, void *ctx, uint32_t npus, uint32_t device,
                    char out[DEVICE_NAME_SIZE], char *why, size_t why_len)
{
    vimana_device_name_fn fn = backend_device_name_fn(be);
    if (!fn) {
        device_name_default(device, npus, out);
        return 0;
    }
    /* The backend fills a buffer of ours or returns its own string;
     * either way `out` is written only once the name has been checked. */
    char buf[DEVICE_NAME_SIZE];
    buf[0] = '\0';
    const char *name = fn(ctx, device, buf, sizeof buf);
    if (!name) {
        snprintf(why, why_len, "device_name(%u) returned NULL", device);
        return -1;
    }
    if (check_name(name, device, why, why_len) != 0)
        return -1;
    snprintf(out, DEVICE_NAME_SIZE, "%s", name);
    return 0;
}
