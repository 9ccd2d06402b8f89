/* cmd_compress.c - `chokepoint compress`: one timed compression run. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "codecs/codec.h"
#include "common/log.h"
#include "common/units.h"
#include "measure/codec_job.h"
#include "measure/memest.h"
#include "tables/record_json.h"

static const char compress_head[] =
    "usage: chokepoint compress -i INPUT -o OUTPUT [options]\n"
    "\n"
    "Compresses INPUT into OUTPUT once and reports how long it took, from opening the input\n"
    "to the output's fsync and close. OUTPUT is written to a temporary file in the same\n"
    "directory and renamed into place on success; '-o /dev/null' counts the output and\n"
    "discards it (the pure CPU ceiling; --verify, --force and --sync are refused there).\n"
    "\n"
    "options:\n";

static const char compress_tail[] =
    "\n"
    "Sizes: K M G T are powers of 1024, KB MB GB TB powers of 1000.\n"
    "Exit status: 0 success, 1 runtime failure (I/O, no space, verification mismatch),\n"
    "2 usage error, 130 interrupted.\n";

/* -c's help: the codecs of the registry (codecs/codec.h). */
static void codec_help(char *buf, size_t size)
{
    char codecs[160];
    codec_list_text(codecs, sizeof codecs, "add 'e' for extreme: ");
    snprintf(buf, size, "%s\n(default zstd:3)", codecs);
}

static const opt_use_t compress_uses[] = {
    {.id = OPT_INPUT},
    {.id = OPT_OUTPUT, .help = "where the compressed file goes (required)"},
    {.id = OPT_CODEC, .arg = "SPEC", .help_fn = codec_help},
    {.id = OPT_THREADS, .arg = "N", .help = "compressor threads, 1..1024 (default 1)"},
    {.id = OPT_ENGINE,
     .help = "blocks: T threads each compress independent blocks, one\n"
             "frame per block (default); native: the codec's own workers\n"
             "(ZSTD_c_nbWorkers, lzma_stream_encoder_mt)"},
    {.id = OPT_BLOCK_SIZE,
     .help = "block size for the blocks engine (read size for native);\n"
             "default: zstd 4 x window, xz 3 x dictionary, copy 4M"},
    {.id = OPT_SYNC,
     .help = "fsync: buffered writes, fsync before close (default);\n"
             "direct: O_DIRECT (falls back to fsync where refused);\n"
             "none: no fsync, measures the page cache"},
    {.id = OPT_WARM},
    {.id = OPT_VERIFY},
    {.id = OPT_FORCE,
     .help = "replace an existing OUTPUT (removed after the clock stops,\n"
             "timed as 'replaced')"},
    {.id = OPT_JSON},
    {.id = OPT_MAX_MEMORY,
     .help = "refuse (exit 2) a run whose memory estimate is above SIZE\n"
             "(default: the memory available, MemAvailable)"},
    {.id = OPT_QUIET},
    {.id = OPT_HELP},
    {.id = OPT_NONE},
};
static const opt_command_t compress_command = {compress_uses, 25, true};

static void print_summary(const compress_record_t *r)
{
    const pipeline_result_t *run = &r->run;
    /* Output over input, as every report gives a job's ratio. */
    double ratio = run->input_bytes > 0 ? (double)run->output_bytes / (double)run->input_bytes : 0;
    char block_text[32];
    printf("%s, %s engine, %d thread%s, %s blocks\n", r->codec,
           pipeline_engine_name(r->engine), r->threads, r->threads == 1 ? "" : "s",
           units_format_bytes_echo(block_text, sizeof block_text, run->block_size));
    printf("  input    %.1f MB -> output %.1f MB%s (ratio %.3f, output / input)\n",
           (double)run->input_bytes / 1e6,
           (double)run->output_bytes / 1e6, r->discarded ? " (discarded)" : "", ratio);
    printf("  time     %.3f s, one run, from opening the input to %s; input cache %s\n",
           run->seconds,
           r->discarded             ? "the last byte counted in memory"
           : r->sync == SYNC_NONE   ? "close (no fsync: page cache)"
           : r->sync == SYNC_DIRECT ? "O_DIRECT writes + fsync + close"
                                    : "fsync + close",
           r->warm ? "kept warm" : run->cache_dropped ? "dropped first" : "not dropped (the kernel kept it)");
    if (!r->discarded)
        printf("  phases   %.3f s compressing and handing the output to the kernel, then "
               "%.3f s %s\n",
               run->pipeline_s, run->flush_s,
               r->sync == SYNC_NONE ? "closing" : "flushing it to the disk (fsync + close)");
    if (r->replaced_s > 0)
        printf("  replaced %.3f s after the clock stopped, removing the old output (its page "
               "cache and blocks); not in the time\n", r->replaced_s);
    printf("  rate     %.1f MB/s of input\n", r->bytes_per_s / 1e6);
    if (r->rate_cap_bps > 0)
        printf("  cap      emulated %.1f MB/s write cap (%.2f s spent waiting in it)\n",
               r->rate_cap_bps / 1e6, r->throttle_s);
    printf("  CPU      %.2f s user, %.2f s system; peak RSS %.1f MB\n", r->cpu_user_s, r->cpu_sys_s,
           (double)r->max_rss_bytes / 1e6);
    if (!isnan(run->cpu_wait_s))
        printf("  waiting  %.2f s for a core (the run-queue delay of its threads, summed; "
               "schedstat)\n", run->cpu_wait_s);
    if (!isnan(run->io_wait_s)) {
        printf("  blocked  %.2f s on I/O (the block-I/O delay of its threads, summed; delay "
               "accounting)", run->io_wait_s);
        if (!isnan(run->io_read_wait_s))
            printf(": %.2f s reading the input, %.2f s writing", run->io_read_wait_s,
                   run->io_wait_s - run->io_read_wait_s);
        if (!isnan(run->dirty_pause_s))
            printf(", of it %.2f s paused by write-back throttling", run->dirty_pause_s);
        printf("\n");
    }
    if (run->path_known) {
        const path_split_t *s = &run->path;
        printf("  path     the job waited %.2f s for the codec, %.2f s for a core, %.2f s for "
               "the reader or writer on a core, %.2f s for reads, %.2f s for writes (the disk), "
               "%.2f s for none (its critical path, each moment once)\n",
               s->compute_s, s->core_wait_s, s->io_cpu_s, s->read_blocked_s,
               s->write_blocked_s, fmax(0.0, run->seconds - path_split_total(s)));
    }
    printf("  stages   reader busy %.2f s, waited %.2f s; compressors busy %.2f s, waited %.2f s "
           "(summed); writer busy %.2f s, waited %.2f s\n",
           run->reader.busy_s, run->reader.wait_s, run->compress.busy_s, run->compress.wait_s,
           run->writer.busy_s, run->writer.wait_s);
    if (r->verified >= 0)
        printf("  verified %s (XXH3-64 of the input vs the decompressed output)\n",
               r->verified ? "yes" : "NO");
}

int cmd_compress(int argc, char **argv)
{
    codec_job_t job = codec_job_defaults();
    bool json = false;
    cp_err_t err = {0};
    int rc = CP_OK;
    long threads = 1;
    uint64_t max_memory = 0;
    bool sync_given = false, codec_given = false;

    options_begin();
    int c;
    while (rc == CP_OK &&
           (c = options_next(&compress_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_INPUT: job.pipeline.input_path = optarg; break;
        case OPT_OUTPUT: job.output_path = optarg; break;
        case OPT_CODEC:
            rc = codec_given ? cp_err_set(&err, CP_EUSAGE, "--codec is given twice: compress "
                                          "writes one codec's output")
                             : codec_parse(optarg, &job.pipeline.codec, &err);
            codec_given = true;
            break;
        case OPT_THREADS:
            rc = parse_positive_int(optarg, "thread count", CP_MAX_THREADS, &threads, &err);
            break;
        case OPT_ENGINE: rc = pipeline_engine_parse(optarg, &job.pipeline.engine, &err); break;
        case OPT_BLOCK_SIZE:
            rc = parse_block_size(optarg, "block size", &job.pipeline.block_size, &err);
            break;
        case OPT_SYNC:
            rc = sync_mode_parse(optarg, &job.sync, &err);
            sync_given = true;
            break;
        case OPT_WARM: job.pipeline.warm = true; break;
        case OPT_VERIFY: job.verify = true; break;
        case OPT_FORCE: job.force = true; break;
        case OPT_JSON: json = true; break;
        case OPT_MAX_MEMORY: rc = options_max_memory(optarg, &max_memory, &err); break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP:
            options_help(stdout, &compress_command, compress_head, compress_tail);
            return 0;
        default: return options_error("compress", c, argv);
        }
    }
    if (rc != CP_OK) {
        cp_log_error("%s", err.msg);
        return cp_exit_status(rc);
    }
    if (optind < argc) {
        cp_log_error("unexpected argument '%s'; see 'chokepoint compress --help'", argv[optind]);
        return 2;
    }
    if (job.pipeline.input_path == NULL || job.output_path == NULL) {
        cp_log_error("compress needs -i INPUT and -o OUTPUT; see 'chokepoint compress --help'");
        return 2;
    }
    job.pipeline.threads = (int)threads;
    if (strcmp(job.output_path, "/dev/null") == 0) {
        job.discard = true;
        /* No option is silently ignored: the output is counted, never written. */
        const char *moot = job.verify  ? "--verify"
                           : job.force ? "--force"
                           : sync_given ? "--sync"
                                        : NULL;
        if (moot != NULL) {
            cp_log_error("%s has no effect with -o /dev/null (the output is counted and "
                         "discarded, never written); drop it or give a file", moot);
            return 2;
        }
    }

    int t = job.pipeline.threads;
    series_spec_t one = series_of_codec(&job.pipeline.codec);
    rc = memest_check(&one, 1, job.pipeline.engine, &t, 1,
                      job.pipeline.block_size, false, max_memory, &err);
    if (rc != CP_OK) {
        cp_log_error("%s", err.msg);
        return cp_exit_status(rc);
    }
    compress_record_t rec;
    rc = codec_job_run(&job, &rec, &err);
    if (rc != CP_OK) {
        cp_log_error("%s", err.msg);
        return cp_exit_status(rc);
    }
    if (json) {
        json_t *obj = record_to_json(&rec);
        if (obj == NULL || json_dumpf(obj, stdout, JSON_COMPACT) != 0) {
            json_decref(obj);
            cp_log_error("cannot write the JSON record");
            return 1;
        }
        fputc('\n', stdout);
        json_decref(obj);
    } else {
        print_summary(&rec);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
