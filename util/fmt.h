/* Text written by hand (private to the library): numbers as printf
 * prints them, and one output buffer, for the writers whose rows are
 * millions (the .prof tree, folded stacks, -pj and speedscope JSON).
 *
 * The tx_put_* functions write at d, which must have room (the most each
 * writes is said), and return the end; nothing is NUL-terminated.
 *
 * tx_obuf gathers a writer's text in one large buffer and hands it to
 * the FILE with one fwrite when it fills: a writer asks for room for its
 * next row (tx_obuf_room), writes it, and says where it ended
 * (tx_obuf_done). The buffer grows (doubling) only for a row larger than
 * itself, so memory is the buffer, never the output. A short fwrite or
 * no memory makes it failed (sticky): room is then NULL, and
 * tx_obuf_close says -1.
 *
 *     tx_obuf o;
 *     if (tx_obuf_open(&o, out, TX_OBUF_SIZE) != 0) return -1;
 *     for (each row) {
 *         char *d = tx_obuf_room(&o, most_bytes_of_the_row);
 *         if (!d) break;
 *         d = tx_put_u64(d, ticks);
 *         *d++ = '\n';
 *         tx_obuf_done(&o, d);
 *     }
 *     return tx_obuf_close(&o);
 */
#ifndef EVPROF_UTIL_FMT_H
#define EVPROF_UTIL_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* "00" "01" ... "99" */
extern const char tx_digit_pairs[200];

/* The decimal digits of v (1 to 20). */
static inline unsigned tx_u64_digits(uint64_t v)
{
    unsigned n = 1;
    for (;;) {
        if (v < 10)
            return n;
        if (v < 100)
            return n + 1;
        if (v < 1000)
            return n + 2;
        if (v < 10000)
            return n + 3;
        v /= 10000;
        n += 4;
    }
}

/* v in decimal, as "%" PRIu64 prints it (at most 20 bytes). */
static inline char *tx_put_u64(char *d, uint64_t v)
{
    char *end = d + tx_u64_digits(v), *p = end;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, tx_digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, tx_digit_pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    return end;
}

/* n spaces (any n). */
char *tx_put_spaces(char *d, size_t n);

/* v right-aligned in `width` columns, as "%*" PRIu64 prints it (at most
 * max(width, 20) bytes). */
static inline char *tx_put_u64_right(char *d, uint64_t v, int width)
{
    int n = (int)tx_u64_digits(v);
    if (n < width)
        d = tx_put_spaces(d, (size_t)(width - n));
    return tx_put_u64(d, v);
}

/* "%5.1f" of v, byte for byte as printf prints it (printf rounds the
 * exact binary value, ties to even), for |v| < 1e25 or not a number: at
 * most 32 bytes, 5 for 0 <= v < 999.95. tests/test_fmt.c compares it with snprintf on every
 * percentage of ticks up to 3000 and around every tie. */
char *tx_put_pct(char *d, double v);

/* s[0..len) as a JSON string literal with its quotes, byte for byte what
 * tx_json_str (evprof/textout.h) writes: at most 6 * len + 2 bytes. */
char *tx_put_json_str(char *d, const char *s, size_t len);

/* ---- the output buffer ------------------------------------------------ */

#define TX_OBUF_SIZE (256u << 10)

typedef struct tx_obuf {
    FILE *out;
    char *buf;
    size_t len, cap;
    int failed;             /* a short write or no memory (sticky) */
} tx_obuf;

/* A buffer of cap bytes for out; 0, or -1 without memory. */
int tx_obuf_open(tx_obuf *o, FILE *out, size_t cap);

/* Flushes, or grows the buffer for n bytes; where to write, or NULL. */
char *tx_obuf_make_room(tx_obuf *o, size_t n);

/* Where to write the next n bytes at most, or NULL when failed. */
static inline char *tx_obuf_room(tx_obuf *o, size_t n)
{
    if (o->len + n <= o->cap)
        return o->buf + o->len;
    return tx_obuf_make_room(o, n);
}

/* The bytes up to end (from the last room) are written. */
static inline void tx_obuf_done(tx_obuf *o, char *end)
{
    o->len = (size_t)(end - o->buf);
}

/* s[0..n) (any n). */
void tx_obuf_put(tx_obuf *o, const char *s, size_t n);

/* Writes what is gathered to the FILE; 0, or -1 when failed. */
int tx_obuf_flush(tx_obuf *o);

/* Flushes and frees the buffer (the FILE stays open and unflushed):
 * 0, or -1 when anything failed. Accepts a buffer that did not open. */
int tx_obuf_close(tx_obuf *o);

#endif
