/* bounds.h - the named limits every command and module shares, so one option has one
 * range everywhere. */
#ifndef CP_COMMON_BOUNDS_H
#define CP_COMMON_BOUNDS_H

#include <stdint.h>

#define CP_MAX_THREADS 1024                    /* thread counts: 1 .. this */
#define CP_NAME_MAX 128                        /* target and codec names, NUL included */
#define CP_MAX_REPS 1000                       /* --reps: 1 .. this */
/* --seed of every command (fixture, probe, sweep, run): 0 .. this. It fits an int, a JSON
 * number and a spreadsheet cell exactly, and holds every seed chokepoint picks itself. */
#define CP_SEED_MAX 2147483647L
/* Numbers read from a file (a table, an import, meta.json) are refused past these: a time
 * a run took is at least a microsecond (below it a rate is noise or an overflow), and no
 * size, rate or count reaches 2^63 (what an int64 holds; past it a value is absurd, and
 * converting it to an integer would be undefined). */
#define CP_SECONDS_MIN 1e-6
#define CP_QUANTITY_MAX 9223372036854775808.0
#define CP_BLOCK_MIN ((uint64_t)4 << 10)       /* block and chunk sizes: 4K .. 1G */
#define CP_BLOCK_MAX ((uint64_t)1 << 30)

#endif
