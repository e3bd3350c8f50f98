/* The sources of a log's bytes: a mapped file, a file range, memory; the
 * live ones (streams, followed files, sockets) are in source_live.c.
 * See source.h. */
/* MAP_POPULATE is Linux (glibc: __USE_MISC); elsewhere the mapping is
 * simply faulted in. */
#define _DEFAULT_SOURCE
#include "eventlog/source.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eventlog/source_impl.h"

#ifdef MAP_POPULATE
#define MAP_POPULATE_IF_ANY MAP_POPULATE
#else
#define MAP_POPULATE_IF_ANY 0
#endif

void el_source_set_error(el_source *s, uint64_t at, int err, const char *fmt, ...)
{
    va_list ap;
    char *msg = s->error.msg;
    size_t cap = sizeof s->error.msg;

    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    size_t n = strlen(msg);
    if (err && n + 2 < cap)
        snprintf(msg + n, cap - n, ": %s", strerror(err));
    s->error.status = EV_ERR_IO;
    s->error.offset = at;
    s->error.type = -1;
}

void el_error_io(ev_error *e, ev_status st, int err, const char *what)
{
    memset(e, 0, sizeof *e);
    e->status = st;
    e->type = -1;
    if (err)
        snprintf(e->msg, sizeof e->msg, "%s: %s", what, strerror(err));
    else
        snprintf(e->msg, sizeof e->msg, "%s", what);
}

void el_source_close(el_source *s)
{
    if (s)
        s->ops->close(s);
}

/* ---- memory --------------------------------------------------------------- */

typedef struct mem_source {
    el_source s;
    const uint8_t *buf;
    size_t len;
    int given;
} mem_source;

static el_src_status mem_read(el_source *src, const uint8_t **buf, size_t *len)
{
    mem_source *m = (mem_source *)src;
    if (m->given)
        return EL_SRC_END;
    m->given = 1;
    *buf = m->buf;
    *len = m->len;
    m->s.offset = m->len;       /* the read's bytes, as a file's read counts them */
    return EL_SRC_DATA;
}

static void mem_close(el_source *src) { free(src); }

static const el_source_ops mem_ops = {
    .kind = "memory",
    .read = mem_read,
    .close = mem_close,
};

el_source *el_source_open_mem(const void *buf, size_t len, ev_error *err)
{
    mem_source *m = calloc(1, sizeof *m);
    if (!m) {
        el_error_io(err, EV_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    m->s.ops = &mem_ops;
    m->s.size = len;
    m->buf = buf;
    m->len = len;
    return &m->s;
}

/* ---- a regular file, mapped window by window ------------------------------- */

/* A mapped file that shrinks while it is read: touching a page past its
 * new end raises SIGBUS. The handler puts zero pages over the rest of the
 * window (so the access that faulted completes) and raises `shrunk`; no
 * event read from those zeros is handed out (el_pump looks at the flag),
 * and the read ends with an I/O error. Per thread: the signal goes to the
 * thread that faulted. */
static _Thread_local struct {
    const uint8_t *base;          /* the current window, or NULL */
    size_t len;
    volatile sig_atomic_t shrunk;
} window;
static long page_size;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
    const uint8_t *a = si->si_addr;
    (void)uctx;
    if (window.base && a >= window.base && a < window.base + window.len) {
        uintptr_t page = (uintptr_t)a & ~(uintptr_t)(page_size - 1);
        size_t rest = (size_t)(window.base + window.len - (const uint8_t *)page);
        if (mmap((void *)page, rest, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
                 0) != MAP_FAILED) {
            window.shrunk = 1;
            return;
        }
    }
    /* not a window of ours: the default action */
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct file_source {
    el_source s;
    int fd;
    void *map;                  /* the current window, or NULL */
    size_t map_len;
    struct sigaction old;       /* SIGBUS's action before the read */
} file_source;

static void unmap(file_source *f)
{
    if (f->map) {
        window.base = NULL;
        munmap(f->map, f->map_len);
        f->map = NULL;
    }
}

static void shrank(file_source *f, uint64_t at)
{
    struct stat sb;
    long long now = fstat(f->fd, &sb) == 0 ? (long long)sb.st_size : -1;
    el_source_set_error(&f->s, at, 0,
                        "the file shrank to %lld bytes while it was read (at byte %llu): "
                        "only the events before are counted", now, (unsigned long long)at);
    f->s.error_has_facts = 1;
}

static el_src_status file_read(el_source *src, const uint8_t **buf, size_t *len)
{
    file_source *f = (file_source *)src;
    uint64_t off = f->s.offset;

    /* the decoder has copied any record split by the last window's edge */
    unmap(f);
    if (off >= f->s.size)
        return EL_SRC_END;
    /* a file that shrank since the last window: map only what is left */
    struct stat sb;
    if (fstat(f->fd, &sb) == 0 && (uint64_t)sb.st_size < f->s.size) {
        shrank(f, off);
        return EL_SRC_ERROR;
    }
    size_t n = f->s.size - off < EL_READ_WINDOW ? (size_t)(f->s.size - off) : EL_READ_WINDOW;
    void *map = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE_IF_ANY, f->fd, (off_t)off);
    if (map == MAP_FAILED) {
        el_source_set_error(&f->s, off, errno, "cannot map the file");
        return EL_SRC_ERROR;
    }
    (void)posix_madvise(map, n, POSIX_MADV_SEQUENTIAL);
    f->map = map;
    f->map_len = n;
    window.base = map;
    window.len = n;
    f->s.offset = off + n;
    *buf = map;
    *len = n;
    return EL_SRC_DATA;
}

static void file_poison_error(el_source *src, uint64_t at)
{
    shrank((file_source *)src, at);
}

static void file_close(el_source *src)
{
    file_source *f = (file_source *)src;
    unmap(f);
    sigaction(SIGBUS, &f->old, NULL);
    window.shrunk = 0;
    close(f->fd);
    free(f);
}

static const el_source_ops file_ops = {
    .kind = "file",
    .read = file_read,
    .poison_error = file_poison_error,
    .close = file_close,
};

/* A regular file of `size` bytes (> 0), fd owned. */
static el_source *open_mapped(int fd, uint64_t size, ev_error *err)
{
    file_source *f = calloc(1, sizeof *f);
    struct sigaction sa;

    if (!f) {
        close(fd);
        el_error_io(err, EV_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    f->s.ops = &file_ops;
    f->s.size = size;
    f->s.poisoned = &window.shrunk;
    f->fd = fd;
    if (!page_size)
        page_size = sysconf(_SC_PAGESIZE);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &f->old);
    window.shrunk = 0;
    return &f->s;
}

/* ---- a range of a file, by pread ------------------------------------------- */

#define RANGE_BUF ((size_t)1 << 20)

typedef struct range_source {
    el_source s;
    int fd;
    uint64_t end;
    uint8_t buf[];
} range_source;

static el_src_status range_read(el_source *src, const uint8_t **buf, size_t *len)
{
    range_source *r = (range_source *)src;
    uint64_t off = r->s.offset;
    if (off >= r->end)
        return EL_SRC_END;
    size_t n = r->end - off < RANGE_BUF ? (size_t)(r->end - off) : RANGE_BUF;
    for (size_t got = 0; got < n;) {
        ssize_t k = pread(r->fd, r->buf + got, n - got, (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            el_source_set_error(&r->s, off + got, k < 0 ? errno : 0,
                                "the file could not be read again (did it shrink?)");
            return EL_SRC_ERROR;
        }
        got += (size_t)k;
    }
    r->s.offset = off + n;
    *buf = r->buf;
    *len = n;
    return EL_SRC_DATA;
}

static void range_close(el_source *src) { free(src); }

static const el_source_ops range_ops = {
    .kind = "range",
    .read = range_read,
    .close = range_close,
};

el_source *el_source_open_range(int fd, uint64_t start, uint64_t end, ev_error *err)
{
    range_source *r = malloc(sizeof *r + RANGE_BUF);
    if (!r) {
        el_error_io(err, EV_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    memset(r, 0, sizeof *r);
    r->s.ops = &range_ops;
    r->s.offset = start;
    r->s.size = end;
    r->fd = fd;
    r->end = end;
    return &r->s;
}

/* ---- by path ------------------------------------------------------------------ */

el_source *el_source_open_path(const char *path, const el_source_opts *o, ev_error *err)
{
    static const el_source_opts none;
    if (!o)
        o = &none;
    if (strcmp(path, "-") == 0)
        return el_source_stream_fd(STDIN_FILENO, 0, o, err);
    if (o->follow || o->live)
        return el_source_open_followed(path, o, err);   /* also a FIFO read live */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        el_error_io(err, EV_ERR_IO, errno, "cannot open");
        return NULL;
    }
    struct stat sb;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
        return open_mapped(fd, (uint64_t)sb.st_size, err);
#ifdef POSIX_FADV_SEQUENTIAL
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    el_source *s = el_source_stream_fd(fd, 1, o, err);
    if (s && S_ISREG(sb.st_mode))
        s->size = (uint64_t)sb.st_size;
    return s;
}
