/* One small JSON writer for every JSON output of evprof.
 *
 * The writer keeps the nesting, so that commas, colons and closing
 * brackets are always where they belong; strings go through tx_json_str
 * (evprof/textout.h: control characters escaped, bad UTF-8 as U+FFFD);
 * numbers are finite or null. What it cannot write validly (a value
 * without its key in an object, a key in an array, a close with nothing
 * open, a second top-level value, nesting deeper than TX_JSON_MAX_DEPTH)
 * marks the writer failed: from then on every call does nothing, and
 * tx_json_finish reports it, as it reports a write error of the FILE.
 *
 * Layout, so that each output keeps its own bytes:
 *   - a container is TX_JSON_INLINE, its items on one line separated by
 *     ", " (compact writer: ","), or TX_JSON_BLOCK, each item on a line of
 *     its own indented by `indent` spaces per level, the closing bracket on
 *     a line of its own (an empty block container is "[]" or "{}");
 *   - a key is followed by ": " (compact writer: ":");
 *   - a container is TX_JSON_FLAT: as TX_JSON_BLOCK, but its items stand at
 *     the container's own indentation (GHC's one key a line, unindented,
 *     around arrays whose items are indented);
 *   - tx_json_space writes whitespace as is, for the rest (a newline before
 *     the first item of an inline array, the newline at the end).
 *
 * For JSON inside an HTML <script> element, tx_json_set_html_safe makes
 * every string and key also escape '<', '>' and '&' as \u003c \u003e
 * \u0026 and U+2028, U+2029 as \u2028 \u2029: the text then holds no
 * "</script" nor "<!--", and reads the same as JavaScript.
 *
 * The writer gathers small items and writes them to the FILE in pieces:
 * between tx_json_init and tx_json_finish (or tx_json_flush) the document
 * is written only through the writer, and only finish says that it all
 * reached the FILE.
 *
 *     tx_json j;
 *     tx_json_init(&j, out, 2, 0);
 *     tx_json_object(&j, TX_JSON_BLOCK);
 *     tx_json_key(&j, "name"); tx_json_cstr(&j, name);
 *     tx_json_key(&j, "ticks"); tx_json_uint(&j, ticks);
 *     tx_json_end(&j);
 *     tx_json_space(&j, "\n");
 *     if (tx_json_finish(&j) != 0) ...
 */
#ifndef EVPROF_JSON_H
#define EVPROF_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deep enough for the time profile's tree: 255 stack frames, two levels
 * each, and the document around them. */
#define TX_JSON_MAX_DEPTH 1024

enum { TX_JSON_INLINE = 0, TX_JSON_BLOCK = 1, TX_JSON_FLAT = 2 };

/* The fields are the writer's own: use the functions. */
typedef struct tx_json {
    FILE *out;
    unsigned indent;        /* spaces per level in block containers */
    int compact;            /* no space after ',' and ':' */
    int html_safe;          /* strings escape < > & U+2028 U+2029 */
    int failed;             /* misuse (sticky); write errors are the FILE's */
    int done;               /* the top-level value is complete */
    unsigned depth;
    unsigned flat;          /* open TX_JSON_FLAT containers */
    unsigned char level[TX_JSON_MAX_DEPTH];
    size_t len;             /* bytes in buf */
    char buf[1024];         /* small items gathered before they are written */
} tx_json;

EVPROF_API void tx_json_init(tx_json *j, FILE *out, unsigned indent, int compact);

/* Off (0) by default; on (1): see above. Set it before the first string. */
EVPROF_API void tx_json_set_html_safe(tx_json *j, int on);

/* Open a container (layout: TX_JSON_INLINE, TX_JSON_BLOCK or TX_JSON_FLAT) as the next
 * value; tx_json_end closes the innermost one. */
EVPROF_API void tx_json_object(tx_json *j, int layout);
EVPROF_API void tx_json_array(tx_json *j, int layout);
EVPROF_API void tx_json_end(tx_json *j);

/* The key of the next value of an object (NUL-terminated, escaped). */
EVPROF_API void tx_json_key(tx_json *j, const char *key);

/* Values. */
EVPROF_API void tx_json_string(tx_json *j, const char *s, size_t len);
EVPROF_API void tx_json_cstr(tx_json *j, const char *s);           /* NULL: null */
EVPROF_API void tx_json_uint(tx_json *j, uint64_t v);
EVPROF_API void tx_json_int(tx_json *j, int64_t v);
EVPROF_API void tx_json_bool(tx_json *j, int v);
EVPROF_API void tx_json_null(tx_json *j);
/* printf's "%.*g" with `digits` significant digits; NaN and infinities as
 * null. */
EVPROF_API void tx_json_double(tx_json *j, double v, int digits);
/* printf's "%*.*f": `decimals` digits after the point, padded with leading
 * spaces to `width` characters (whitespace before a value is valid JSON);
 * NaN and infinities as null. */
EVPROF_API void tx_json_fixed(tx_json *j, double v, int width, int decimals);
/* The exact decimal units / 10^decimals with `decimals` digits after the
 * point (decimals at most 19), e.g. nanoseconds as seconds:
 * tx_json_decimal(j, 1500000000, 9) writes 1.500000000. */
EVPROF_API void tx_json_decimal(tx_json *j, uint64_t units, unsigned decimals);

/* A key and its value in one call, for the objects of every writer:
 * tx_json_kv_uint(j, "ticks", n) is tx_json_key(j, "ticks") then
 * tx_json_uint(j, n). */
static inline void tx_json_kv_uint(tx_json *j, const char *key, uint64_t v)
{
    tx_json_key(j, key);
    tx_json_uint(j, v);
}

static inline void tx_json_kv_int(tx_json *j, const char *key, int64_t v)
{
    tx_json_key(j, key);
    tx_json_int(j, v);
}

static inline void tx_json_kv_cstr(tx_json *j, const char *key, const char *s)
{
    tx_json_key(j, key);
    tx_json_cstr(j, s);
}

static inline void tx_json_kv_string(tx_json *j, const char *key, const char *s, size_t len)
{
    tx_json_key(j, key);
    tx_json_string(j, s, len);
}

static inline void tx_json_kv_bool(tx_json *j, const char *key, int v)
{
    tx_json_key(j, key);
    tx_json_bool(j, v);
}

static inline void tx_json_kv_null(tx_json *j, const char *key)
{
    tx_json_key(j, key);
    tx_json_null(j);
}

static inline void tx_json_kv_double(tx_json *j, const char *key, double v, int digits)
{
    tx_json_key(j, key);
    tx_json_double(j, v, digits);
}

/* Whitespace (' ', '\n', '\t', '\r' only; anything else fails the writer)
 * written as is, where it stands. */
EVPROF_API void tx_json_space(tx_json *j, const char *ws);

/* A value the caller writes itself, as JSON text, straight into the FILE
 * that tx_json_raw_begin returns (the separator before the value is
 * written and the writer's buffer flushed); tx_json_raw_end says it is
 * complete. For a large value of a fixed shape (the time profile's tree)
 * written faster than item by item; the text is the caller's to make
 * valid. NULL (and nothing written) where no value may come. */
EVPROF_API FILE *tx_json_raw_begin(tx_json *j);
EVPROF_API void tx_json_raw_end(tx_json *j);

/* Writes what the writer holds to the FILE (see below). */
EVPROF_API void tx_json_flush(tx_json *j);

/* Writes what the writer holds, then: 0 when one complete value was
 * written (every container closed), nothing was misused and the FILE had
 * no write error; -1 otherwise. The FILE stays open, the caller's. */
EVPROF_API int tx_json_finish(tx_json *j);

#ifdef __cplusplus
}
#endif
#endif
