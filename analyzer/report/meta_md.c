/* meta_md.c - the "How this was measured" section of report.md, read from meta.json (as
 * tables/meta_json.c writes it): host, page cache, input, runs, probe and the targets'
 * table (meta_md.h); for an import's meta.json, where its figures came from. */
#include "report/meta_md.h"

#include <stdio.h>
#include <string.h>

#include "tables/meta_json.h"

static const char *str_or(const json_t *o, const char *key, const char *fallback)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v != NULL && v[0] != '\0' ? v : fallback;
}

/* text as one cell of a Markdown table: a backslash and '|' escaped, a control character
 * (which would end the row) written as a space. */
static void md_cell(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        if (*p == '\\' || *p == '|')
            fputc('\\', out);
        fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, out);
    }
}

/* The section for a meta.json `chokepoint import` wrote (tables/meta_json.h's
 * meta_create_import): who measured, where and when, and that nothing else is recorded. */
static void import_markdown(const json_t *meta, FILE *out)
{
    const json_t *import = json_object_get(meta, "import");
    fprintf(out, "\n## How this was measured\n\n");
    fprintf(out, "- Imported: %s from %s's `%s` by `chokepoint import` (docs/formats.md, "
            "\"meta.json of an import\").\n", str_or(import, "table", "?"),
            str_or(meta, "source", "?"), str_or(import, "file", "?"));
    fprintf(out, "- Host: %s%s; started %s (%s).\n",
            str_or(json_object_get(meta, "host"), "hostname", "unknown"),
            json_is_true(json_object_get(import, "host_given")) ? ""
                                                                : " (not named at the import)",
            str_or(meta, "started", "?"), str_or(meta, "started_from", "?"));
    fprintf(out, "- The machine, page cache, input and volumes were not recorded: the figures "
            "are the other program's, as it measured them.\n");
}

void meta_write_markdown(const json_t *meta, FILE *out)
{
    if (meta_import_table(meta) != NULL) {
        import_markdown(meta, out);
        return;
    }
    const json_t *host = json_object_get(meta, "host");
    fprintf(out, "\n## How this was measured\n\n");
    fprintf(out, "- Host: %s, %lld CPUs online (%lld usable), %.1f GiB memory, %s, kernel %s.\n",
            str_or(host, "cpu_model", "unknown CPU"),
            (long long)json_integer_value(json_object_get(host, "online_cpus")),
            (long long)json_integer_value(json_object_get(host, "usable_cpus")),
            /* Memory comes in powers of two: GiB, as the machine's own tools show it. */
            (double)json_integer_value(json_object_get(host, "mem_total_bytes")) / 1073741824.0,
            str_or(host, "os", "unknown OS"), str_or(host, "kernel", "?"));
    const json_t *wb = json_object_get(host, "writeback");
    if (wb != NULL)
        fprintf(out, "- Page cache: background write-back from %.2f GB dirty, writers throttled "
                     "from %.2f GB, pages written once %.0f s old (%.1f GiB of memory available); "
                     "an output below the first waits in memory until its fsync.\n",
                (double)json_integer_value(json_object_get(wb, "dirty_background_bytes")) / 1e9,
                (double)json_integer_value(json_object_get(wb, "dirty_bytes")) / 1e9,
                json_number_value(json_object_get(wb, "dirty_expire_centisecs")) / 100.0,
                (double)json_integer_value(json_object_get(wb, "mem_available_bytes")) / 1073741824.0);
    const json_t *input = json_object_get(meta, "input");
    if (input != NULL)
        fprintf(out, "- Input: %s, %.1f MB%s%s%s.\n", str_or(input, "path", "?"),
                (double)json_integer_value(json_object_get(input, "bytes")) / 1e6,
                json_is_true(json_object_get(input, "generated")) ? ", a generated '" : "",
                json_is_true(json_object_get(input, "generated")) ? str_or(input, "kind", "?")
                                                                  : "",
                json_is_true(json_object_get(input, "generated")) ? "' fixture" : "");
    char reps[96];
    if (json_is_string(json_object_get(meta, "reps")))
        snprintf(reps, sizeof reps, "3 to 10 measured repetitions per point (until the "
                 "median's 95%% interval was within +-3%%)");
    else
        snprintf(reps, sizeof reps, "%lld measured repetition(s) per point",
                 (long long)json_integer_value(json_object_get(meta, "reps")));
    const char *sync = str_or(meta, "sync", "fsync");
    const char *end = strcmp(sync, "none") == 0     ? "output's close (no fsync)"
                      : strcmp(sync, "direct") == 0 ? "output's fsync and close, written with O_DIRECT"
                                                    : "output's fsync and close";
    if (strcmp(str_or(meta, "operation", "compress"), "decompress") == 0)
        fprintf(out, "- Runs: decompression, engine %s (%s): the input compressed once per "
                     "target (not timed, restored once and checked byte for byte), then %s "
                     "after one discarded warm-up per target, in an order shuffled with seed "
                     "%lld; each timed from opening the archive, its page cache dropped first "
                     "(the mem target's is in RAM), to the %s. Points are medians; min and max "
                     "are kept.\n",
                str_or(meta, "engine", "blocks"),
                strcmp(str_or(meta, "engine", "blocks"), "native") == 0
                    ? "one stream, the library's own decoder threads"
                    : "independent frames restored in parallel",
                reps, (long long)json_integer_value(json_object_get(meta, "seed")),
                strcmp(str_or(meta, "layout", "split"), "same") == 0
                    ? end : "last byte restored to memory");
    else
        fprintf(out, "- Runs: engine %s, %s after one discarded "
                     "warm-up per target, in an order shuffled with seed %lld; each timed from "
                     "opening the input to the %s, input page cache dropped "
                     "first. Points are medians; min and max are kept.\n",
                str_or(meta, "engine", "?"), reps,
                (long long)json_integer_value(json_object_get(meta, "seed")), end);
    fprintf(out, "- Probe: incompressible data, each file written %s and read back "
                 "after its page cache was dropped; a volume's speed is the median at its "
                 "largest file size.\n\n",
            strcmp(sync, "direct") == 0 ? "with O_DIRECT, then fsync'd" : "through fsync");
    fprintf(out, "| target | directory | filesystem | device | kind |\n|---|---|---|---|---|\n");
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(meta, "targets"), i, t)
    {
        double cap = json_number_value(json_object_get(t, "emulated_cap_bytes_per_s"));
        double read_cap =
            json_number_value(json_object_get(t, "emulated_read_cap_bytes_per_s"));
        const char *under = json_is_true(json_object_get(t, "ram")) ? "RAM" : "this volume";
        char kind[320];
        if (json_is_true(json_object_get(t, "memory")))
            snprintf(kind, sizeof kind, "memory: output counted and discarded (CPU ceiling)");
        else if (cap > 0 && strcmp(str_or(t, "emulation", ""), "disk") == 0)
            snprintf(kind, sizeof kind, "emulated %.0f MB/s disk: ext4 on a loop device in "
                     "the directory, its writes capped by the kernel's block throttle, the "
                     "host's page cache and write-back%s%s", cap / 1e6,
                     read_cap > 0 ? "; reads paced per read at " : "",
                     read_cap > 0 ? "the read cap" : "");
        else if (cap > 0 && read_cap > 0)
            snprintf(kind, sizeof kind, "emulated %.0f MB/s write cap and %.0f MB/s read cap "
                     "on %s", cap / 1e6, read_cap / 1e6, under);
        else if (cap > 0 || read_cap > 0)
            snprintf(kind, sizeof kind, "emulated %.0f MB/s %s cap on %s%s",
                     (cap > 0 ? cap : read_cap) / 1e6, cap > 0 ? "write" : "read", under,
                     cap > 0 ? ", paced per write (like O_DIRECT)" : "");
        else if (json_is_true(json_object_get(t, "ram")))
            snprintf(kind, sizeof kind, "RAM (tmpfs): measures memory, not a disk");
        else if (json_is_true(json_object_get(t, "rotational")))
            snprintf(kind, sizeof kind, "disk (reported rotational)");
        else
            snprintf(kind, sizeof kind, "disk");
        /* The names come from the file: each cell escaped, so a row keeps its columns. */
        fputs("| ", out);
        md_cell(out, str_or(t, "name", "?"));
        fputs(" | ", out);
        md_cell(out, str_or(t, "dir", "-"));
        fputs(" | ", out);
        md_cell(out, str_or(t, "fs_type", "-"));
        fputs(" | ", out);
        md_cell(out, str_or(t, "mount_source", ""));
        fputc(' ', out);
        md_cell(out, str_or(t, "device", "-"));
        fprintf(out, " | %s |\n", kind);
    }
}
