/* text_check.h - the one rule for a string read from a file (a table's name cell, a field
 * of meta.json, a string of an imported JSON file) before it may reach a report, a plot,
 * the terminal, a path or a command line: no control character (a byte below 0x20, 0x7f,
 * or U+0080..U+009F spelt in UTF-8, which a terminal may take as an escape), nothing that
 * is not UTF-8 (a bare 0x9B is CSI to an 8-bit terminal) and fewer bytes than a bound. Readers check once, where they read, and name the file and the field
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
    TEXT_ENCODING, /* a byte that is no part of valid UTF-8 */
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

/* The character at text[0..len), text at a character's start: its byte length (1 to 4;
 * 1 for a byte that starts no valid UTF-8 sequence; 0 when len is 0), and in *fault (when
 * not NULL) whether it may be written as it is: TEXT_OK, TEXT_CONTROL (a byte below 0x20,
 * 0x7f, U+0080..U+009F) or TEXT_ENCODING (a byte outside UTF-8). A loop over a text steps
 * by the length, so that a continuation byte is never read as a character of its own. */
size_t text_char_at(const char *text, size_t len, text_fault_t *fault);

/* Writes text[0..len) to out with every control character and every byte outside UTF-8
 * shown as "\xNN" (each of its bytes), so nothing written can move a terminal's cursor,
 * set its title or end a line; keep_newlines writes '\n' as it is (a diagnostic's own
 * line end). */
void text_visible(FILE *out, const char *text, size_t len, bool keep_newlines);

#endif
