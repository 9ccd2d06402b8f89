/* bounds.h - the named limits every command and module shares, so one option has one
 * range everywhere. */
#ifndef CP_COMMON_BOUNDS_H
#define CP_COMMON_BOUNDS_H

#include <stdint.h>

#define CP_MAX_THREADS 1024                    /* thread counts: 1 .. this */
#define CP_BLOCK_MIN ((uint64_t)4 << 10)       /* block and chunk sizes: 4K .. 1G */
#define CP_BLOCK_MAX ((uint64_t)1 << 30)

#endif
