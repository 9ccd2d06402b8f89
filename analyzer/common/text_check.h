/* text_check.h - the one rule for a string read from a file (a table's name cell, a field
 * of meta.json, a string of an imported JSON file) before it may reach a report, a plot,
 * the terminal, a path or a command line: no control character (a byte below 0x20, 0x7f,
 * or U+0080..U+009F spelt in UTF-8, which a terminal may take as an escape) and fewer
 * bytes than a bound. Readers check once, where they read, and name the file and the field
 * when a string breaks it; text_visible is for the sinks that must stay safe whatever
 * reaches them (diagnostics on a terminal). */
#ifndef CP_COMMON_TEXT_CHECK_H
#define CP_COMMON_TEXT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The bound of a free text read from a file that is no name (a path, a CPU model, a
 * time): fewer bytes than this. Names (targets, codecs, hosts) have CP_NAME_MAX. */
#define CP_TEXT_MAX 4096

/* Why a string cannot be taken as it is. */
typedef enum text_fault {
    TEXT_OK,      /* it can */
    TEXT_EMPTY,   /* no bytes (a fault only where a value is required) */
    TEXT_LONG,    /* cap bytes or more, the NUL not counted */
    TEXT_CONTROL, /* a control character */
} text_fault_t;

/* Checks text (NUL-terminated, NULL reads as empty) against the rule with a bound of cap
 * bytes, the NUL included (strlen(text) < cap). */
text_fault_t text_check(const char *text, size_t cap);

/* Checks text[0..len) (which may hold NUL bytes: a NUL is a control character). When
 * it finds a control character, *at (when not NULL) is its offset. */
text_fault_t text_check_bytes(const char *text, size_t len, size_t cap, size_t *at);

/* What a fault means, for a message ("is empty", "is 4096 bytes or longer", "holds a
 * control character"); cap is the bound checked against. Static text or buf (cap_buf
 * bytes). */
const char *text_fault_says(text_fault_t fault, size_t cap, char *buf, size_t buf_cap);

/* The byte length of the control character at text[0..len), 0 when there is none there
 * (1 for a byte below 0x20 or 0x7f, 2 for U+0080..U+009F in UTF-8). */
size_t text_control_at(const char *text, size_t len);

/* Writes text[0..len) to out with every control character shown as "\xNN" (each of its
 * bytes), so nothing written can move a terminal's cursor, set its title or end a line;
 * keep_newlines writes '\n' as it is (a diagnostic's own line end). */
void text_visible(FILE *out, const char *text, size_t len, bool keep_newlines);

#endif
