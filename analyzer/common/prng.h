/* prng.h - a small deterministic pseudo-random generator (splitmix64) for run orders and
 * seeds: the same seed gives the same sequence on every machine. Not for cryptography. */
#ifndef CP_PRNG_H
#define CP_PRNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct prng {
    uint64_t state;
} prng_t;

/* A generator started from seed. */
prng_t prng_make(uint64_t seed);

/* The next 64 pseudo-random bits. */
uint64_t prng_next(prng_t *g);

/* A value in [0, bound) without modulo bias; bound must be > 0. */
uint64_t prng_below(prng_t *g, uint64_t bound);

/* Shuffles n elements of elem_size bytes in place (Fisher-Yates). */
void prng_shuffle(prng_t *g, void *base, size_t n, size_t elem_size);

/* A seed for when the user gave none: from the clock and process id, to be recorded. */
uint64_t prng_fresh_seed(void);

#endif
