/* probe_writer.c - probe rows out as probe.csv (its header and one row per measurement), and
 * those rows read back as a probe table through the same CSV text (probe_writer.h). */
#include "tables/probe_writer.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "measure/sink.h"
#include "model/data_source.h"
#include "tables/csv_out.h"
#include "tables/probe_csv.h"
#include "tables/runs_writer.h"

static const char csv_header[] =
    "target,op,size_bytes,rep,seconds,bytes_per_s,sync,fs_type,emulated,rate_cap_bps,emulation,ram,"
    "rotational,device,cache_dropped,seed,flush_s,drain_bps,io_cpu_s,dir,cpu_wait_s,io_wait_s,"
    "io_read_wait_s,io_wait_source,dirty_pause_s,psi_io_some_s,psi_io_full_s,psi_cpu_some_s,"
    "thread_sys_s,block_size,source\n";

const char *probe_csv_header_text(void) { return csv_header; }

int probe_csv_header(FILE *out, cp_err_t *err)
{
    if (fputs(csv_header, out) == EOF)
        return cp_err_set(err, CP_EIO, "cannot write the probe CSV header");
    return CP_OK;
}

int probe_csv_row(FILE *out, const probe_row_t *r, cp_err_t *err)
{
    csv_out_text(out, r->target);
    fprintf(out, ",%s,%" PRIu64 ",%d,%.6f,%.0f,%s,", probe_op_name(r->op), r->size_bytes,
            r->rep, r->seconds, r->bytes_per_s, sync_mode_name(r->sync));
    csv_out_text(out, r->fs_type);
    fprintf(out, ",%d,", r->rate_cap_bps > 0 ? 1 : 0);
    if (r->rate_cap_bps > 0)
        fprintf(out, "%.0f", r->rate_cap_bps);
    fputc(',', out);
    csv_out_text(out, emulation_name(r->rate_cap_bps > 0, r->disk_emulated));
    fprintf(out, ",%d,", r->is_ram ? 1 : 0);
    if (r->rotational >= 0)
        fprintf(out, "%d", r->rotational);
    fprintf(out, ",%u:%u,", r->dev_major, r->dev_minor);
    if (r->cache_dropped >= 0)
        fprintf(out, "%d", r->cache_dropped);
    fprintf(out, ",%" PRIu64 ",", r->seed);
    csv_out_num(out, 6, r->flush_s);
    fputc(',', out);
    csv_out_num(out, 0, r->drain_bps);
    fputc(',', out);
    csv_out_num(out, 4, r->io_cpu_s);
    fputc(',', out);
    csv_out_text(out, r->dir);
    fputc(',', out);
    runs_csv_accounting(out, &r->account, r->psi_io_some_s, r->psi_io_full_s,
                        r->psi_cpu_some_s);
    fputc(',', out);
    csv_out_num(out, 4, r->thread_sys_s);
    fputc(',', out);
    csv_out_num(out, 0, r->block_bytes > 0 ? (double)r->block_bytes : NAN);
    fputs("," DATA_SOURCE_CHOKEPOINT_NAME "\n", out);
    if (ferror(out))
        return cp_err_set(err, CP_EIO, "cannot write a probe CSV row");
    return CP_OK;
}

int probe_rows_table(const char *name, const probe_row_t *rows, size_t n, probe_table_t **out,
                     cp_err_t *err)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *csv = open_memstream(&text, &len);
    if (csv == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory keeping the probe's rows");
    int rc = probe_csv_header(csv, err);
    for (size_t i = 0; rc == CP_OK && i < n; i++)
        rc = probe_csv_row(csv, &rows[i], err);
    if (fclose(csv) != 0 && rc == CP_OK)
        rc = cp_err_set(err, CP_ENOMEM, "out of memory keeping the probe's rows");
    if (rc == CP_OK)
        rc = probe_table_load_buffer(name, text, len, out, err);
    free(text);
    return rc;
}
