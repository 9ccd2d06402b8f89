/* units.c - sizes written for people in decimal or binary units (units.h). */
#include "common/units.h"

#include <inttypes.h>
#include <stdio.h>

static const char *scaled(char *out, size_t cap, uint64_t bytes, double base,
                          const char *const units[5])
{
    double v = (double)bytes;
    int u = 0;
    while (v >= base && u < 4) {
        v /= base;
        u++;
    }
    if (u == 0)
        snprintf(out, cap, "%" PRIu64 " B", bytes);
    else
        snprintf(out, cap, "%.4g %s", v, units[u]);
    return out;
}

const char *units_format_bytes(char *out, size_t cap, uint64_t bytes)
{
    static const char *const decimal[5] = {"B", "kB", "MB", "GB", "TB"};
    return scaled(out, cap, bytes, 1000.0, decimal);
}

const char *units_format_bytes_echo(char *out, size_t cap, uint64_t bytes)
{
    static const char *const binary[5] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (bytes > 0 && bytes % 1024 == 0 && bytes % 1000 != 0)
        return scaled(out, cap, bytes, 1024.0, binary);
    return units_format_bytes(out, cap, bytes);
}
