/* storage_class.h - typical sustained write and read speeds of kinds of storage, from
 * published tests, for `chokepoint predict --class NAME`.
 *
 * Each figure is a conservative typical value for one large sequential stream after every
 * short-lived buffer (page cache, drive DRAM, SLC cache) has filled: what a multi-GB output
 * meets. docs/method.md ("Storage classes") gives the reasoning behind each figure. The
 * table is static data: nothing here allocates or fails. */
#ifndef CP_MODEL_STORAGE_CLASS_H
#define CP_MODEL_STORAGE_CLASS_H

#include <stddef.h>

/* Every output that uses a class carries this label. */
#define STORAGE_CLASS_LABEL "typical, from published tests"

typedef struct storage_class {
    const char *name;        /* "usb3-hdd-outer", ... */
    const char *description; /* for people, short enough for one table line */
    double write_bps;        /* sustained write, bytes per second (decimal MB/s x 1e6) */
    double read_bps;         /* sustained read, bytes per second */
    const char *sources;     /* the publications, "; "-separated (review articles, data
                                sheets, standards; docs/method.md cites each with its title
                                and address), and the arithmetic where a figure is derived */
} storage_class_t;

/* The number of classes, and class i (0 <= i < count) in the table's order (slowest kinds
 * of device first). Static storage. */
size_t storage_class_count(void);
const storage_class_t *storage_class_at(size_t i);

/* The class of that exact name; NULL when there is none. */
const storage_class_t *storage_class_find(const char *name);

#endif
