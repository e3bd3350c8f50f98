/* minwalk.h: the least work reading an eventlog takes, shared by the
 * benchmark's yardsticks walk.c and naive_hash.c (docs/BENCH.md).
 *
 * read() into one buffer, parse the header for the per-type sizes, then
 * per event read its type, timestamp and (variable types) length and skip
 * the payload. Nothing is decoded; mw_next hands out the event's bytes.
 */
#ifndef EVPROF_BENCH_MINWALK_H
#define EVPROF_BENCH_MINWALK_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../eventlog/bytes.h"

#define MW_UNDECLARED INT32_MIN

typedef struct mw_reader {
    int fd;
    uint8_t *buf;
    size_t cap;
    size_t pos, end;             /* unread bytes are buf[pos, end) */
    uint64_t base;               /* stream offset of buf[0] */
    int eof;
    int32_t size_of[0x10000];    /* per event type; MW_UNDECLARED, -1 variable */
    const char *error;           /* after a failed call */
} mw_reader;

/* Make at least n bytes available at buf + pos. 0: done, 1: the input
 * ends first, -1: read error or no memory (errno set). */
static int mw_need(mw_reader *r, size_t n)
{
    if (r->end - r->pos >= n)
        return 0;
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->end - r->pos);
        r->base += r->pos;
        r->end -= r->pos;
        r->pos = 0;
    }
    if (n > r->cap) {
        uint8_t *b = realloc(r->buf, n);
        if (b == NULL)
            return -1;
        r->buf = b;
        r->cap = n;
    }
    while (r->end < n && !r->eof) {
        ssize_t got = read(r->fd, r->buf + r->end, r->cap - r->end);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got == 0)
            r->eof = 1;
        r->end += (size_t)got;
    }
    return r->end >= n ? 0 : 1;
}

static uint64_t mw_offset(const mw_reader *r)
{
    return r->base + r->pos;
}

/* A reader of fd with a buffer of buf_size bytes; NULL when out of memory. */
static mw_reader *mw_open(int fd, size_t buf_size)
{
    mw_reader *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->fd = fd;
    r->cap = buf_size;
    if ((r->buf = malloc(buf_size)) == NULL) {
        free(r);
        return NULL;
    }
    for (size_t i = 0; i < 0x10000; i++)
        r->size_of[i] = MW_UNDECLARED;
    return r;
}

static void mw_close(mw_reader *r)
{
    if (r)
        free(r->buf);
    free(r);
}

static int mw_fail(mw_reader *r, const char *what)
{
    r->error = what;
    return -1;
}

/* Expect a 4-byte marker. */
static int mw_expect(mw_reader *r, uint32_t marker)
{
    if (mw_need(r, 4) != 0 || be32(r->buf + r->pos) != marker)
        return -1;
    r->pos += 4;
    return 0;
}

/* The header: hdrb hetb (etb id size desc extra ete)* hete hdre datb.
 * 0 or -1 (r->error says why). */
static int mw_header(mw_reader *r)
{
    if (mw_expect(r, 0x68647262u) || mw_expect(r, 0x68657462u))
        return mw_fail(r, "not an eventlog (bad header magic)");
    for (;;) {
        if (mw_need(r, 4) != 0)
            return mw_fail(r, "truncated header");
        uint32_t m = be32(r->buf + r->pos);
        if (m == 0x68657465u) {
            r->pos += 4;
            break;
        }
        if (m != 0x65746200u || mw_need(r, 12) != 0)
            return mw_fail(r, "bad event type in header");
        uint16_t id = be16(r->buf + r->pos + 4);
        int16_t size = (int16_t)be16(r->buf + r->pos + 6);
        uint32_t desc_len = be32(r->buf + r->pos + 8);
        r->pos += 12;
        if (mw_need(r, (size_t)desc_len + 4) != 0)
            return mw_fail(r, "truncated header");
        uint32_t extra_len = be32(r->buf + r->pos + desc_len);
        r->pos += (size_t)desc_len + 4;
        if (mw_need(r, (size_t)extra_len + 4) != 0)
            return mw_fail(r, "truncated header");
        r->pos += extra_len;
        if (mw_expect(r, 0x65746500u))
            return mw_fail(r, "bad event type in header");
        r->size_of[id] = size < 0 ? -1 : size;
    }
    if (mw_expect(r, 0x68647265u) || mw_expect(r, 0x64617462u))
        return mw_fail(r, "bad header end");
    return 0;
}

/* The next event: u16 type, u64 time, [u16 length], payload. 0: *ev
 * points at its rec bytes (valid until the next call), 1: the end
 * marker, -1: error (r->error). */
static inline int mw_next(mw_reader *r, const uint8_t **ev, size_t *rec_len)
{
    size_t avail = r->end - r->pos;
    if (avail < 12) {
        if (mw_need(r, 12) < 0)
            return mw_fail(r, strerror(errno));
        avail = r->end - r->pos;
        if (avail == 0)
            return mw_fail(r, "no end marker");
        if (avail < 2)
            return mw_fail(r, "truncated event");
    }
    const uint8_t *p = r->buf + r->pos;
    uint16_t type = be16(p);
    if (type == 0xffffu) {
        r->pos += 2;
        return 1;
    }
    if (avail < 10)
        return mw_fail(r, "truncated event");
    int32_t size = r->size_of[type];
    if (size == MW_UNDECLARED)
        return mw_fail(r, "event type not in the header");
    size_t rec;
    if (size < 0) {
        if (avail < 12)
            return mw_fail(r, "truncated event");
        rec = 12 + (size_t)be16(p + 10);
    } else {
        rec = 10 + (size_t)size;
    }
    if (avail < rec) {
        int rc = mw_need(r, rec);
        if (rc < 0)
            return mw_fail(r, strerror(errno));
        if (rc > 0)
            return mw_fail(r, "truncated event");
        p = r->buf + r->pos;
    }
    r->pos += rec;
    *ev = p;
    *rec_len = rec;
    return 0;
}

#endif
