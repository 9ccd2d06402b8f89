/* runs_writer.c - sweep rows out as runs.csv: the header and one row per measured run,
 * with the accounting columns the probe rows share (runs_writer.h). */
#include "tables/runs_writer.h"

#include <limits.h>
#include <math.h>

#include "model/data_source.h"
#include "tables/csv_out.h"
#include "tables/rows_file.h"

static const char runs_header[] =
    "target,codec,engine,threads,rep,order,seed,layout,input_target,block_size,sync,"
    "input_bytes,output_bytes,seconds,pipeline_s,flush_s,bytes_per_s,cpu_user_s,cpu_sys_s,max_rss_bytes,"
    "mem_estimate_bytes,"
    "reader_busy_s,reader_wait_s,compress_busy_s,compress_wait_s,writer_busy_s,writer_wait_s,"
    "throttle_s,fs_type,ram,emulated,rate_cap_bps,emulation,cpu_user_share,cpu_sys_share,"
    "cpu_iowait_share,cpu_idle_share,device,dev_written_bytes,dev_busy_share,"
    "dirty_background_bytes,dirty_bytes,dirty_expire_s,dirty_writeback_s,online_cpus,op,"
    "read_cap_bps,dir,cpu_wait_s,io_wait_s,io_read_wait_s,io_wait_source,dirty_pause_s,psi_io_some_s,psi_io_full_s,psi_cpu_some_s,target_order,"
    "path_compute_s,path_core_wait_s,path_io_cpu_s,path_read_blocked_s,path_write_blocked_s,"
    "cache_dropped,source,valid,error\n";

int runs_csv_header(FILE *out, cp_err_t *err)
{
    if (fputs(runs_header, out) == EOF || fflush(out) != 0)
        return cp_err_set(err, CP_EIO, "cannot write the runs CSV header");
    return CP_OK;
}

void runs_csv_accounting(FILE *out, const run_account_t *a, double psi_io_some_s,
                         double psi_io_full_s, double psi_cpu_some_s)
{
    /* Without delay accounting, the machine's I/O pressure stands in for blocked on I/O,
     * labelled as machine-wide. */
    bool delayacct = !isnan(a->io_wait_s);
    bool psi = !delayacct && !isnan(psi_io_some_s);
    csv_out_num(out, 4, a->cpu_wait_s);
    fputc(',', out);
    csv_out_num(out, 4, delayacct ? a->io_wait_s : psi_io_some_s);
    fputc(',', out);
    csv_out_num(out, 4, delayacct ? a->io_read_wait_s : NAN);
    fputc(',', out);
    csv_out_text(out, delayacct ? "delayacct" : psi ? "psi-system" : NULL);
    fputc(',', out);
    csv_out_num(out, 4, a->dirty_pause_s);
    fputc(',', out);
    csv_out_num(out, 4, psi_io_some_s);
    fputc(',', out);
    csv_out_num(out, 4, psi_io_full_s);
    fputc(',', out);
    csv_out_num(out, 4, psi_cpu_some_s);
}

/* The critical path's five columns and their commas; empty for NULL (path_split.h). */
static void write_path(FILE *out, const path_split_t *s)
{
    double nan = NAN;
    double parts[] = {s ? s->compute_s : nan, s ? s->core_wait_s : nan, s ? s->io_cpu_s : nan,
                      s ? s->read_blocked_s : nan, s ? s->write_blocked_s : nan};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        csv_out_num(out, 4, parts[i]);
        fputc(',', out);
    }
}

int runs_csv_row(FILE *out, const sweep_row_t *row, cp_err_t *err)
{
    const compress_record_t *r = &row->record;
    const pipeline_result_t *run = &r->run;
    const telemetry_sample_t *tel = &row->telemetry;
    bool measured = row->valid;
    double nan = NAN;

    csv_out_text(out, row->target->name);
    fputc(',', out);
    csv_out_text(out, row->codec);
    fprintf(out, ",%s,%d,%d,%u,%llu,%s,", pipeline_engine_name(r->engine), row->threads,
            row->rep, row->order, (unsigned long long)row->seed, sweep_layout_name(row->layout));
    csv_out_text(out, row->input_target);
    fprintf(out, ",%zu,%s,", run->block_size, sync_mode_name(r->sync));
    if (measured) {
        fprintf(out, "%llu,%llu,%.6f,%.6f,%.6f,%.0f,%.4f,%.4f,%llu,",
                (unsigned long long)run->input_bytes, (unsigned long long)run->output_bytes,
                run->seconds, run->pipeline_s, run->flush_s, r->bytes_per_s, r->cpu_user_s, r->cpu_sys_s,
                (unsigned long long)r->max_rss_bytes);
        if (r->command) /* a command has no stages of chokepoint's, nor its estimate */
            fprintf(out, ",,,,,,,%.4f,", r->throttle_s);
        else
            fprintf(out, "%llu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,",
                    (unsigned long long)r->mem_estimate_bytes, run->reader.busy_s,
                    run->reader.wait_s, run->compress.busy_s, run->compress.wait_s,
                    run->writer.busy_s, run->writer.wait_s, r->throttle_s);
    } else {
        fputs(",,,,,,,,,,,,,,,,,", out);
    }
    const target_ops_t *ops = target_ops_for(row->target);
    const char *fs = ops->cpu_ceiling     ? CP_MEM_TARGET_NAME
                     : row->volume != NULL ? row->volume->fs_type
                                           : NULL;
    csv_out_text(out, fs);
    double write_cap = row->write_cap_bps, read_cap = row->read_cap_bps;
    bool paced = write_cap > 0 || read_cap > 0, disk_emulated = row->disk_cap_bps > 0;
    fprintf(out, ",%d,%d,", ops->in_ram || (row->volume && row->volume->is_ram),
            paced || disk_emulated);
    csv_out_num(out, 0, write_cap > 0 ? write_cap : disk_emulated ? row->disk_cap_bps : nan);
    fputc(',', out);
    csv_out_text(out, emulation_name(write_cap > 0, disk_emulated));
    fputc(',', out);
    bool cpu = measured && tel->have_cpu;
    csv_out_num(out, 4, cpu ? tel->cpu_user_share : nan);
    fputc(',', out);
    csv_out_num(out, 4, cpu ? tel->cpu_sys_share : nan);
    fputc(',', out);
    csv_out_num(out, 4, cpu ? tel->cpu_iowait_share : nan);
    fputc(',', out);
    csv_out_num(out, 4, cpu ? tel->cpu_idle_share : nan);
    fputc(',', out);
    /* A device's counters mean nothing for RAM or chokepoint's own pacing: report them
     * unknown. An emulated disk is a device (its loop device): they count. */
    bool disk = measured && tel->have_disk && !paced;
    csv_out_text(out, disk ? tel->device : NULL);
    fputc(',', out);
    csv_out_num(out, 0, disk ? (double)tel->dev_written_bytes : nan);
    fputc(',', out);
    csv_out_num(out, 4, disk ? tel->dev_busy_share : nan);
    fputc(',', out);
    /* The kernel's write-back thresholds when the run started (unknown for mem). */
    bool wb = measured && ops->has_volume && row->writeback.known;
    csv_out_num(out, 0, wb ? (double)row->writeback.dirty_background_bytes : nan);
    fputc(',', out);
    csv_out_num(out, 0, wb ? (double)row->writeback.dirty_bytes : nan);
    fputc(',', out);
    csv_out_num(out, 2, wb ? row->writeback.dirty_expire_s : nan);
    fputc(',', out);
    csv_out_num(out, 2, wb ? row->writeback.dirty_writeback_s : nan);
    fputc(',', out);
    csv_out_num(out, 0, measured && tel->online_cpus > 0 ? (double)tel->online_cpus : nan);
    fprintf(out, ",%s,", row->record.decompress ? "decompress" : "compress");
    csv_out_num(out, 0, read_cap > 0 ? read_cap : nan);
    fputc(',', out);
    /* The target's identity (its directory resolved), as probe.csv records it, so the two
     * match when they name the target differently. */
    char dir[PATH_MAX];
    ops->identity(row->target, dir, sizeof dir);
    csv_out_text(out, dir[0] != '\0' ? dir : NULL);
    fputc(',', out);
    run_account_t account = {nan, nan, nan, nan};
    if (measured)
        account = (run_account_t){run->cpu_wait_s, run->io_wait_s, run->io_read_wait_s,
                                  run->dirty_pause_s};
    runs_csv_accounting(out, &account, measured ? tel->psi_io_some_s : nan,
                        measured ? tel->psi_io_full_s : nan,
                        measured ? tel->psi_cpu_some_s : nan);
    fprintf(out, ",%zu,", row->target_order);
    write_path(out, measured && run->path_known ? &run->path : NULL);
    if (measured) /* the input's (or archive's) page cache gone before the run, checked */
        fputc(run->cache_dropped ? '1' : '0', out);
    fprintf(out, "," DATA_SOURCE_CHOKEPOINT_NAME ",%d,", row->valid ? 1 : 0);
    csv_out_text(out, row->valid ? NULL : row->error);
    fputc('\n', out);
    if (ferror(out) || fflush(out) != 0)
        return cp_err_set(err, CP_EIO, "cannot write a runs CSV row");
    return CP_OK;
}

const char *runs_csv_header_text(void) { return runs_header; }

const char *emulation_name(bool write_capped, bool disk_emulated)
{
    return disk_emulated ? "disk" : write_capped ? "pacing" : NULL;
}

int runs_csv_open(runs_csv_file_t *f, const char *path, rows_file_placement_t placement,
                  bool force, cp_err_t *err)
{
    f->rows = 0;
    f->file = rows_file_open(path, placement, force, runs_header, err);
    return f->file != NULL ? CP_OK : cp_err_code(err, CP_EIO);
}

int runs_csv_write(const sweep_row_t *row, void *ctx, cp_err_t *err)
{
    runs_csv_file_t *f = ctx;
    int rc = runs_csv_row(rows_file_stream(f->file), row, err);
    if (rc == CP_OK)
        rc = rows_file_commit_row(f->file, err);
    if (rc == CP_OK)
        f->rows++;
    return rc;
}

int runs_csv_close(runs_csv_file_t *f, cp_err_t *err)
{
    int rc = rows_file_close(f->file, err);
    f->file = NULL;
    return rc;
}
