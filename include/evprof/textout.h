/* Text output helpers shared by the report writers. */
#ifndef EVPROF_TEXTOUT_H
#define EVPROF_TEXTOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Length (1 to 4) of the valid UTF-8 sequence at s[0..n), with its code
 * point in *cp when cp is not NULL; 0 when s[0] does not start one
 * (overlong forms, surrogates, code points above U+10FFFF, sequences cut
 * short). The one UTF-8 check of the project. */
size_t tx_utf8_next(const unsigned char *s, size_t n, uint32_t *cp);

/* `len` bytes as a JSON string literal with quotes. Always valid JSON:
 * control characters are escaped, bytes that are not valid UTF-8 become
 * U+FFFD. */
void tx_json_str(FILE *out, const char *s, size_t len);

/* `len` bytes as a CSV field (RFC 4180): quoted, with quotes doubled,
 * when it holds a comma, a quote or a line break; verbatim otherwise. */
void tx_csv_str(FILE *out, const char *s, size_t len);

/* Width of a string in code points, counted as GHC's report does (every
 * byte that is not a UTF-8 continuation byte is one). */
size_t tx_width(const char *s);

/* Writes s, then spaces up to `width` code points. */
void tx_pad(FILE *out, const char *s, size_t width);

/* GHC's time_str(): "%a %b %e %H:%M %Y" in local time. */
void tx_date(char *buf, size_t size, long long epoch_sec);

#ifdef __cplusplus
}
#endif
#endif
