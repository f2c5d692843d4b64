/*
 * device_name.h - the name of a device of the link statistics, as --report
 * writes it and `vimana backend-check` checks it: the backend's
 * device_name() (ABI 1.2) when it has one, validated, else the host's
 * default ("npuK" below the NPU count, "switchJ" with J = K - NPU count).
 */
#ifndef VIMANA_HOST_DEVICE_NAME_H
#define VIMANA_HOST_DEVICE_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "vimana/network_api.h"

/* Room for any name the host accepts or makes, with its NUL. */
#define DEVICE_NAME_SIZE (VIMANA_DEVICE_NAME_MAX + 1)

/* The host's name for `device` when the backend gives none. */
void device_name_default(uint32_t device, uint32_t npus, char out[DEVICE_NAME_SIZE]);

/* Writes device's name into out. Returns 0, or -1 with why (one line, e.g.
 * "device_name(5) returned NULL") when the backend's answer is not a name
 * the host accepts: NULL, empty, longer than VIMANA_DEVICE_NAME_MAX bytes,
 * or holding a byte outside printable ASCII. */
int device_name_get(const vimana_backend *be, void *ctx, uint32_t npus, uint32_t device,
                    char out[DEVICE_NAME_SIZE], char *why, size_t why_len);

#endif
