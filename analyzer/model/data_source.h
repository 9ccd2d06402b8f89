/* data_source.h - which program measured a figure: chokepoint itself, or the fio and
 * hyperfine runs `chokepoint import` turned into its tables (the `source` column of
 * probe.csv and runs.csv). */
#ifndef CP_MODEL_DATA_SOURCE_H
#define CP_MODEL_DATA_SOURCE_H

typedef enum data_source {
    DATA_SOURCE_UNKNOWN,    /* no source column, or a word not below: a table from elsewhere */
    DATA_SOURCE_CHOKEPOINT,
    DATA_SOURCE_FIO,
    DATA_SOURCE_HYPERFINE,
} data_source_t;

/* The column's words, as the writers spell them. */
#define DATA_SOURCE_CHOKEPOINT_NAME "chokepoint"
#define DATA_SOURCE_FIO_NAME "fio"
#define DATA_SOURCE_HYPERFINE_NAME "hyperfine"

/* The source a column's text names (any case); DATA_SOURCE_UNKNOWN for NULL, "" or
 * another word. */
data_source_t data_source_parse(const char *text);

/* The word for a source, static; NULL for DATA_SOURCE_UNKNOWN. */
const char *data_source_name(data_source_t source);

#endif
