/* meta_md.h - a results directory's meta.json for people: the "How this was measured"
 * section that closes report.md. */
#ifndef CP_REPORT_META_MD_H
#define CP_REPORT_META_MD_H

#include <stdio.h>

#include <jansson.h>

/* Writes a "How this was measured" Markdown section from meta: host, input, targets
 * (filesystem, device, RAM, emulated write or read cap), repetitions, sync mode and seed. */
void meta_write_markdown(const json_t *meta, FILE *out);

#endif
