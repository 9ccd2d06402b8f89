/* units.h - sizes written for people: decimal MB and GB by default, binary MiB and GiB
 * only where the size is one the user gave in binary units. */
#ifndef CP_COMMON_UNITS_H
#define CP_COMMON_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "512 B", "2 MB", "67.11 MB", "1.074 GB" (powers of 1000, four significant digits) into
 * out; returns out. */
const char *units_format_bytes(char *out, size_t cap, uint64_t bytes);

/* A size the user typed, echoed in the units it was most likely typed in: binary ("64 MiB",
 * "1.5 GiB", what 64M or 1.5G give) when bytes is a whole number of KiB and not of kB,
 * decimal (units_format_bytes) otherwise. Returns out. */
const char *units_format_bytes_echo(char *out, size_t cap, uint64_t bytes);

#endif
