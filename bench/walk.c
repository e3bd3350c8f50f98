/* walk: the benchmark's baseline (docs/BENCH.md).
 *
 *     walk FILE [--buf KIB]
 *
 * The least work that reading an eventlog takes: read() into one buffer
 * (1 MiB by default, the size evprof's reader uses), parse the header for
 * the per-type sizes, then for each event read its type, timestamp and
 * (variable types) length and skip the payload. Nothing is decoded. Prints
 * bytes, events, seconds and MiB/s on one line. Exit 0 when the log ends
 * with its end marker, 1 on a bad, truncated or unreadable log, 2 on
 * usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../eventlog/bytes.h"

#define UNDECLARED INT32_MIN

typedef struct reader {
    int fd;
    uint8_t *buf;
    size_t cap;
    size_t pos, end;             /* unread bytes are buf[pos, end) */
    uint64_t base;               /* stream offset of buf[0] */
    int eof;
} reader;

/* Make at least n bytes available at buf + pos. 0: done, 1: the input
 * ends first, -1: read error or no memory (errno set). */
static int need(reader *r, size_t n)
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

static uint64_t offset_of(const reader *r)
{
    return r->base + r->pos;
}

static int fail(const char *path, const reader *r, const char *what)
{
    fprintf(stderr, "walk: %s: %s at offset %llu\n", path, what,
            (unsigned long long)offset_of(r));
    return 1;
}

/* Expect a 4-byte marker. */
static int expect(reader *r, uint32_t marker)
{
    if (need(r, 4) != 0 || be32(r->buf + r->pos) != marker)
        return -1;
    r->pos += 4;
    return 0;
}

static int walk(const char *path, reader *r, int32_t *size_of, uint64_t *events,
                uint64_t *last_time)
{
    /* Header: hdrb hetb (etb id size desc extra ete)* hete hdre datb. */
    if (expect(r, 0x68647262u) || expect(r, 0x68657462u))
        return fail(path, r, "not an eventlog (bad header magic)");
    for (;;) {
        if (need(r, 4) != 0)
            return fail(path, r, "truncated header");
        uint32_t m = be32(r->buf + r->pos);
        if (m == 0x68657465u) {
            r->pos += 4;
            break;
        }
        if (m != 0x65746200u || need(r, 12) != 0)
            return fail(path, r, "bad event type in header");
        uint16_t id = be16(r->buf + r->pos + 4);
        int16_t size = (int16_t)be16(r->buf + r->pos + 6);
        uint32_t desc_len = be32(r->buf + r->pos + 8);
        r->pos += 12;
        if (need(r, (size_t)desc_len + 4) != 0)
            return fail(path, r, "truncated header");
        uint32_t extra_len = be32(r->buf + r->pos + desc_len);
        r->pos += (size_t)desc_len + 4;
        if (need(r, (size_t)extra_len + 4) != 0)
            return fail(path, r, "truncated header");
        r->pos += extra_len;
        if (expect(r, 0x65746500u))
            return fail(path, r, "bad event type in header");
        size_of[id] = size < 0 ? -1 : size;
    }
    if (expect(r, 0x68647265u) || expect(r, 0x64617462u))
        return fail(path, r, "bad header end");

    /* Events: u16 type, u64 time, [u16 length], payload; u16 0xffff ends. */
    uint64_t n = 0, last = 0;
    for (;;) {
        size_t avail = r->end - r->pos;
        if (avail < 12) {
            if (need(r, 12) < 0)
                return fail(path, r, strerror(errno));
            avail = r->end - r->pos;
            if (avail == 0)
                return fail(path, r, "no end marker");
            if (avail < 2)
                return fail(path, r, "truncated event");
        }
        const uint8_t *p = r->buf + r->pos;
        uint16_t type = be16(p);
        if (type == 0xffffu)
            break;
        if (avail < 10)
            return fail(path, r, "truncated event");
        int32_t size = size_of[type];
        if (size == UNDECLARED)
            return fail(path, r, "event type not in the header");
        size_t rec;
        if (size < 0) {
            if (avail < 12)
                return fail(path, r, "truncated event");
            rec = 12 + (size_t)be16(p + 10);
        } else {
            rec = 10 + (size_t)size;
        }
        last = be64(p + 2);
        if (avail < rec) {
            int rc = need(r, rec);
            if (rc < 0)
                return fail(path, r, strerror(errno));
            if (rc > 0)
                return fail(path, r, "truncated event");
        }
        r->pos += rec;
        n++;
    }
    r->pos += 2;
    *events = n;
    *last_time = last;
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    size_t buf_size = (size_t)1 << 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--buf") == 0 && i + 1 < argc) {
            char *end;
            unsigned long kib = strtoul(argv[++i], &end, 10);
            if (*end != '\0' || kib == 0 || kib > (1ul << 20)) {
                fprintf(stderr, "walk: bad --buf value\n");
                return 2;
            }
            buf_size = (size_t)kib << 10;
        } else if (path == NULL && argv[i][0] != '-') {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (path == NULL) {
        fprintf(stderr, "usage: walk FILE [--buf KIB]\n");
        return 2;
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    reader r = { .fd = open(path, O_RDONLY), .cap = buf_size };
    if (r.fd < 0) {
        fprintf(stderr, "walk: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    r.buf = malloc(r.cap);
    int32_t *size_of = malloc(sizeof *size_of * 0x10000);
    int rc = 1;
    uint64_t events = 0, last_time = 0;
    if (r.buf == NULL || size_of == NULL) {
        fprintf(stderr, "walk: out of memory\n");
    } else {
        for (size_t i = 0; i < 0x10000; i++)
            size_of[i] = UNDECLARED;
        rc = walk(path, &r, size_of, &events, &last_time);
    }
    uint64_t bytes = offset_of(&r);
    close(r.fd);
    free(r.buf);
    free(size_of);
    if (rc != 0)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("bytes %llu events %llu last_time %llu seconds %.3f MiB/s %.1f\n",
           (unsigned long long)bytes, (unsigned long long)events,
           (unsigned long long)last_time, secs,
           secs > 0 ? (double)bytes / (1 << 20) / secs : 0.0);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "walk: cannot write the result\n");
        return 1;
    }
    return 0;
}
