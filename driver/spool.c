/* The spool: bytes readable by offset (spool.h). */
#include "driver/spool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ev_spool_init_fd(ev_spool *s, int fd, int own)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    s->own_fd = own;
}

void ev_spool_init_mem(ev_spool *s, const void *mem, uint64_t size)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->mem = (uint8_t *)mem;
    s->size = s->cap = size;
}

void ev_spool_init_pipe(ev_spool *s, const char *what)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->own_mem = 1;
    s->what = what;
}

/* "cannot write the spool file for standard input (disk full?)" */
static void fail(ev_spool *s, const char *before, const char *after)
{
    snprintf(s->error_buf, sizeof s->error_buf, "%s%s%s", before,
             s->what ? s->what : "standard input", after);
    s->error = s->error_buf;
}

void ev_spool_free(ev_spool *s)
{
    if (s->own_fd && s->fd >= 0)
        close(s->fd);
    if (s->own_mem)
        free(s->mem);
    free(s->wbuf);
    s->wbuf = NULL;
    s->fd = -1;
    s->mem = NULL;
}

static int pwrite_all(int fd, const uint8_t *p, uint64_t len, uint64_t off)
{
    while (len > 0) {
        ssize_t n = pwrite(fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (uint64_t)n;
        off += (uint64_t)n;
    }
    return 0;
}

/* Past EV_SPOOL_MEM: the bytes so far go into an unlinked temporary file. */
static int spool_to_file(ev_spool *s)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];

    if (!dir || !*dir)
        dir = "/tmp";
    if ((size_t)snprintf(path, sizeof path, "%s/evprof-spool-XXXXXX", dir) >= sizeof path) {
        fail(s, "cannot create the spool file for ", " ($TMPDIR too long)");
        return -1;
    }
    int fd = mkstemp(path);
    if (fd < 0) {
        fail(s, "cannot create the spool file for ", " in $TMPDIR or /tmp");
        return -1;
    }
    unlink(path);
    if (pwrite_all(fd, s->mem, s->size, 0) != 0) {
        close(fd);
        fail(s, "cannot write the spool file for ", " (disk full?)");
        return -1;
    }
    free(s->mem);
    s->mem = NULL;
    s->own_mem = 0;
    s->cap = 0;
    s->fd = fd;
    s->own_fd = 1;
    return 0;
}

#define SPOOL_WBUF ((size_t)1 << 20)

int ev_spool_flush(ev_spool *s)
{
    if (s->fd >= 0 && s->wlen > 0) {
        if (pwrite_all(s->fd, s->wbuf, s->wlen, s->wbuf_off) != 0) {
            fail(s, "cannot write the spool file for ", " (disk full?)");
            return -1;
        }
        s->wlen = 0;
    }
    return 0;
}

int ev_spool_put(ev_spool *s, uint64_t off, const void *p, uint32_t len)
{
    uint64_t end = off + len;

    if (s->fd < 0 && end > EV_SPOOL_MEM && spool_to_file(s) != 0)
        return -1;
    if (s->fd >= 0) {
        /* records come in file order: gather them into large writes */
        if (!s->wbuf && !(s->wbuf = malloc(SPOOL_WBUF))) {
            fail(s, "out of memory spooling ", "");
            return -1;
        }
        if (s->wlen > 0 && (off != s->wbuf_off + s->wlen || s->wlen + len > SPOOL_WBUF) &&
            ev_spool_flush(s) != 0)
            return -1;
        if (len > SPOOL_WBUF) {
            if (pwrite_all(s->fd, p, len, off) != 0) {
                fail(s, "cannot write the spool file for ", " (disk full?)");
                return -1;
            }
        } else {
            if (s->wlen == 0)
                s->wbuf_off = off;
            memcpy(s->wbuf + s->wlen, p, len);
            s->wlen += len;
        }
        if (end > s->size)
            s->size = end;
        return 0;
    }
    if (end > s->cap) {
        uint64_t cap = s->cap ? s->cap : (1u << 20);
        while (cap < end)
            cap *= 2;
        uint8_t *m = realloc(s->mem, (size_t)cap);
        if (!m) {
            fail(s, "out of memory spooling ", "");
            return -1;
        }
        s->mem = m;
        s->cap = cap;
    }
    if (off > s->size)
        memset(s->mem + s->size, 0, (size_t)(off - s->size));   /* header, skipped damage */
    memcpy(s->mem + off, p, len);
    if (end > s->size)
        s->size = end;
    return 0;
}

int64_t ev_spool_pread(const ev_spool *s, void *buf, size_t len, uint64_t off)
{
    if (s->fd < 0) {
        uint64_t n = off < s->size ? s->size - off : 0;
        if (n > len)
            n = len;
        if (n)
            memcpy(buf, s->mem + off, (size_t)n);
        return (int64_t)n;
    }
    ssize_t n;
    do
        n = pread(s->fd, buf, len, (off_t)off);
    while (n < 0 && errno == EINTR);
    return n;
}

FILE *ev_spool_fopen(const ev_spool *s)
{
    if (s->fd < 0)
        return fmemopen(s->mem, (size_t)s->size, "rb");
    int fd = dup(s->fd);
    FILE *f = fd >= 0 && lseek(fd, 0, SEEK_SET) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f && fd >= 0) {
        int err = errno;
        close(fd);
        errno = err;
    }
    return f;
}
