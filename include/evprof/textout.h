/* Text output helpers shared by the report writers. */
#ifndef EVPROF_TEXTOUT_H
#define EVPROF_TEXTOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Length (1 to 4) of the valid UTF-8 sequence at s[0..n), with its code
 * point in *cp when cp is not NULL; 0 when s[0] does not start one
 * (overlong forms, surrogates, code points above U+10FFFF, sequences cut
 * short). The one UTF-8 check of the project. */
EVPROF_API size_t tx_utf8_next(const unsigned char *s, size_t n, uint32_t *cp);

/* `len` bytes as a JSON string literal with quotes. Always valid JSON:
 * control characters (C0, DEL, C1) are escaped, bytes that are not valid
 * UTF-8 become U+FFFD. */
EVPROF_API void tx_json_str(FILE *out, const char *s, size_t len);

/* `len` bytes as a CSV field (RFC 4180) in their visible form (below):
 * quoted, with quotes doubled, when it holds a comma or a quote. Line
 * breaks are escaped, so a record is always one line. */
EVPROF_API void tx_csv_str(FILE *out, const char *s, size_t len);

/* ---- log strings for people ----------------------------------------
 * Bytes taken from a log (labels, modules, band and ticky names, program
 * arguments, file names) are shown in one visible form in every
 * human-readable output, so that they can neither drive a terminal nor
 * break a line or a table:
 *   - printable UTF-8 as is (a backslash too: GHC names such as `\\` stay
 *     as GHC prints them);
 *   - '\n', '\r', '\t' as the two characters `\n`, `\r`, `\t`;
 *   - any other C0 control byte, DEL and the C1 controls (U+0080..U+009F)
 *     as `\xNN`, NN the code in two lowercase hex digits (`\x1b`, `\x07`);
 *   - a byte that does not start a valid UTF-8 sequence as U+FFFD.
 * The width of the visible form is counted in code points, as GHC's
 * .prof layout pads: each escape counts its characters, U+FFFD one. */

/* The visible form of s[0..len) into buf, as snprintf does: at most
 * size - 1 bytes and a NUL (when size > 0); returns the full length. */
EVPROF_API size_t tx_vis(char *buf, size_t size, const char *s, size_t len);

/* Writes the visible form of s[0..len). */
EVPROF_API void tx_put(FILE *out, const char *s, size_t len);

/* ---- text in messages ------------------------------------------------
 * A label, a pattern or a file's bytes quoted in a message (stderr, an
 * ev_error) is its visible form shortened: at most TX_SHORT_WIDTH code
 * points, the last of them U+2026 (an ellipsis) when it was cut, the cut
 * never inside a UTF-8 sequence or an escape. A 30 KB mark label takes
 * one line of a message, not 30 KB. */
#define TX_SHORT_WIDTH 72
#define TX_SHORT_BYTES (4 * TX_SHORT_WIDTH + 4)    /* the most it takes, NUL included */

/* The shortened visible form of s[0..len) (at most `width` code points)
 * into buf, as snprintf does; returns its full length in bytes. */
EVPROF_API size_t tx_vis_short(char *buf, size_t size, const char *s, size_t len, size_t width);

/* Writes the shortened visible form of s[0..len) (TX_SHORT_WIDTH). */
EVPROF_API void tx_put_short(FILE *out, const char *s, size_t len);

/* Width in code points of the visible form of s[0..len). */
EVPROF_API size_t tx_vis_width(const char *s, size_t len);

/* Width in code points of the visible form of the string s. */
EVPROF_API size_t tx_width(const char *s);

/* Writes the visible form of s, then spaces up to `width` code points. */
EVPROF_API void tx_pad(FILE *out, const char *s, size_t width);

/* GHC's time_str(): "%a %b %e %H:%M %Y" in local time. */
EVPROF_API void tx_date(char *buf, size_t size, long long epoch_sec);

#ifdef __cplusplus
}
#endif
#endif
