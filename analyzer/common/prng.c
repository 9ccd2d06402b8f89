/* prng.c - the deterministic generators (prng.h): splitmix64 and the fresh seed. */
#include "common/prng.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

prng_t prng_make(uint64_t seed)
{
    prng_t g = {seed};
    return g;
}

uint64_t prng_next(prng_t *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

prng_xoshiro_t prng_xoshiro_make(uint64_t seed)
{
    prng_t g = prng_make(seed);
    prng_xoshiro_t x;
    for (int i = 0; i < 4; i++)
        x.s[i] = prng_next(&g);
    return x;
}

void prng_xoshiro_fill(prng_xoshiro_t *x, void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len >= 32) {
        prng_store_le64(p, prng_xoshiro_next(x));
        prng_store_le64(p + 8, prng_xoshiro_next(x));
        prng_store_le64(p + 16, prng_xoshiro_next(x));
        prng_store_le64(p + 24, prng_xoshiro_next(x));
        p += 32;
        len -= 32;
    }
    while (len >= 8) {
        prng_store_le64(p, prng_xoshiro_next(x));
        p += 8;
        len -= 8;
    }
    if (len > 0) {
        unsigned char last[8];
        prng_store_le64(last, prng_xoshiro_next(x));
        memcpy(p, last, len);
    }
}

uint64_t prng_below(prng_t *g, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = prng_next(g);
    while (x >= limit);
    return x % bound;
}

void prng_shuffle(prng_t *g, void *base, size_t n, size_t elem_size)
{
    unsigned char *a = base;
    for (size_t i = n; i > 1; i--) {
        unsigned char *x = a + (i - 1) * elem_size;
        unsigned char *y = a + (size_t)prng_below(g, i) * elem_size;
        for (size_t k = 0; k < elem_size && x != y; k++) {
            unsigned char t = x[k];
            x[k] = y[k];
            y[k] = t;
        }
    }
}

uint64_t prng_fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    prng_t g = prng_make((uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^
                         ((uint64_t)getpid() << 32));
    return prng_next(&g) % 1000000000ull; /* short enough to type back in */
}
