/* prng.h - deterministic pseudo-random generators: the same seed gives the same sequence
 * on every machine and compiler (integer arithmetic only). Not for cryptography.
 * - prng_t: splitmix64, for run orders, shuffles and seeds;
 * - prng_xoshiro_t: xoshiro256** seeded by splitmix64, the fast bulk generator behind
 *   fixtures and probe data. */
#ifndef CP_PRNG_H
#define CP_PRNG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* xoshiro256** (Blackman and Vigna). */
typedef struct prng_xoshiro {
    uint64_t s[4];
} prng_xoshiro_t;

/* A xoshiro256** state from four splitmix64 outputs started at seed. */
prng_xoshiro_t prng_xoshiro_make(uint64_t seed);

/* The next 64 bits of a xoshiro256** stream (inline: generators call it per word). */
static inline uint64_t prng_xoshiro_next(prng_xoshiro_t *x)
{
    uint64_t *s = x->s;
    uint64_t r = s[1] * 5;
    uint64_t result = ((r << 7) | (r >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Fills len bytes of buf with the next outputs of x, each stored little-endian, so the
 * bytes are the same on every machine. A last partial word takes the low bytes of one
 * more output and drops the rest: callers that stream across calls keep len a multiple
 * of 8 until the end. The one random-byte filler behind fixtures and probe data. */
void prng_xoshiro_fill(prng_xoshiro_t *x, void *buf, size_t len);

/* A seed for when the user gave none: from the clock and process id, to be recorded. */
uint64_t prng_fresh_seed(void);

/* Stores v at p as 8 little-endian bytes, whatever the machine's byte order (so generated
 * data is the same everywhere). */
static inline void prng_store_le64(unsigned char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 8);
#else
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
#endif
}

#endif
