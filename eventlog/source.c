/* Drives a decoder over a file, a file descriptor ("-" is stdin) or a
 * memory buffer. Fixed buffers per call; nothing per event. */
/* MAP_POPULATE is Linux (glibc: __USE_MISC); elsewhere the mapping is
 * simply faulted in. */
#define _DEFAULT_SOURCE
#include "evprof/eventlog.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_BUF_SIZE (1u << 20)
#ifdef MAP_POPULATE
#define MAP_POPULATE_IF_ANY MAP_POPULATE
#else
#define MAP_POPULATE_IF_ANY 0
#endif

/* A mapped file that shrinks while it is read: touching a page past its
 * new end raises SIGBUS. The handler puts zero pages over the rest of the
 * window (so the access that faulted completes) and raises `shrunk`; no
 * event read from those zeros is handed out, and the read ends with an
 * I/O error. Per thread: the signal goes to the thread that faulted. */
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

/* Pulls every event out of what has been fed. Returns EL_NEED_INPUT when
 * the chunk is used up, EL_STOPPED when the callback asked to stop, or the
 * decoder's final status. */
static el_status drain(el_decoder *d, el_event_fn on_event, void *ctx, el_read_result *r)
{
    el_event ev;
    el_status st;

    while ((st = el_decoder_next(d, &ev)) == EL_OK) {
        if (window.shrunk)
            return EL_ERR_IO;   /* the event may hold zeros: not handed out */
        r->events++;
        if (on_event && on_event(ctx, &ev, d))
            return EL_STOPPED;
    }
    return st;
}

static void finish(el_decoder *d, el_status st, el_read_result *r, el_decoder **keep)
{
    if (st == EL_NEED_INPUT || st == EL_END)
        st = el_decoder_finish(d);
    r->has_time_span = el_decoder_time_span(d, &r->first_time, &r->last_time);
    el_decoder_caps(d, &r->caps);
    r->damage = *el_decoder_damage(d);
    r->status = st;
    r->missing_end = st != EL_STOPPED && el_decoder_missing_end(d);
    if (st != EL_OK && st != EL_END && st != EL_STOPPED)
        r->error = *el_decoder_error(d);
    if (keep)
        *keep = d;
    else
        el_decoder_destroy(d);
}

static el_read_result io_error(el_read_result r, const char *what, el_decoder *d,
                               el_decoder **keep)
{
    r.status = r.error.status = EL_ERR_IO;
    r.error.offset = r.bytes;
    r.error.type = -1;
    snprintf(r.error.msg, sizeof r.error.msg, "%s: %s", what, strerror(errno));
    if (keep)
        *keep = d;
    else
        el_decoder_destroy(d);
    return r;
}

static el_decoder *new_decoder(const el_read_opts *opts)
{
    el_decoder *d = el_decoder_create();
    if (d && opts && opts->fields)
        el_decoder_only_fields(d, opts->fields, opts->num_fields);
    if (d && opts)
        el_decoder_only_selected(d, opts->only_selected);
    if (d)
        el_decoder_set_resync(d, !(opts && opts->no_resync));
    if (d && opts && el_decoder_count_types(d, opts->count_types) != 0) {
        el_decoder_destroy(d);
        d = NULL;
    }
    return d;
}

static el_read_result nomem(el_decoder **keep)
{
    el_read_result r = { 0 };

    r.status = r.error.status = EL_ERR_NOMEM;
    r.error.type = -1;
    snprintf(r.error.msg, sizeof r.error.msg, "out of memory");
    if (keep)
        *keep = NULL;
    return r;
}

static el_read_result read_fd(int fd, const el_read_opts *opts, el_event_fn on_event,
                              void *ctx, el_decoder **keep)
{
    el_read_result r = { 0 };
    el_decoder *d = new_decoder(opts);
    uint8_t *buf = malloc(READ_BUF_SIZE);
    el_status st = EL_NEED_INPUT;

    if (!d || !buf) {
        el_decoder_destroy(d);
        free(buf);
        return nomem(keep);
    }
    for (;;) {
        ssize_t n = read(fd, buf, READ_BUF_SIZE);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            free(buf);
            return io_error(r, "read failed", d, keep);   /* decoded events stand */
        }
        if (n == 0)
            break;
        r.bytes += (uint64_t)n;
        el_decoder_feed(d, buf, (size_t)n);
        st = drain(d, on_event, ctx, &r);
        /* after END the rest is still read: a block after it is damage */
        if (st != EL_NEED_INPUT && st != EL_END)
            break;
    }
    free(buf);
    finish(d, st, &r, keep);
    return r;
}

/* A regular file through a sliding mapping: each window is fed whole and
 * unmapped before the next, so at most one window is resident. A record
 * split by a window edge goes through the decoder's carry buffer. */
static el_read_result shrank(el_read_result r, uint64_t at, int fd, el_decoder *d,
                             el_decoder **keep)
{
    struct stat sb;
    long long now = fstat(fd, &sb) == 0 ? (long long)sb.st_size : -1;

    r.bytes = at;
    finish(d, EL_ERR_IO, &r, keep);
    r.status = r.error.status = EL_ERR_IO;
    r.error.offset = at;
    r.error.type = -1;
    snprintf(r.error.msg, sizeof r.error.msg,
             "the file shrank to %lld bytes while it was read (at byte %llu): "
             "only the events before are counted", now, (unsigned long long)at);
    return r;
}

static el_read_result read_mapped(int fd, uint64_t size, const el_read_opts *opts,
                                  el_event_fn on_event, void *ctx, el_decoder **keep)
{
    el_read_result r = { 0 };
    el_decoder *d = new_decoder(opts);
    el_status st = EL_NEED_INPUT;
    struct sigaction sa, old;

    if (!d)
        return nomem(keep);
    if (!page_size)
        page_size = sysconf(_SC_PAGESIZE);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &old);
    window.shrunk = 0;
    for (uint64_t off = 0; off < size && (st == EL_NEED_INPUT || st == EL_END);) {
        /* a file that shrank since the last window: map only what is left */
        struct stat sb;
        if (fstat(fd, &sb) == 0 && (uint64_t)sb.st_size < size) {
            sigaction(SIGBUS, &old, NULL);
            return shrank(r, off, fd, d, keep);
        }
        size_t len = size - off < EL_READ_WINDOW ? (size_t)(size - off) : EL_READ_WINDOW;
        void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE_IF_ANY, fd, (off_t)off);
        if (map == MAP_FAILED) {
            sigaction(SIGBUS, &old, NULL);
            return io_error(r, "cannot map the file", d, keep);
        }
        (void)posix_madvise(map, len, POSIX_MADV_SEQUENTIAL);
        window.base = map;
        window.len = len;
        el_decoder_feed(d, map, len);
        st = drain(d, on_event, ctx, &r);
        /* the decoder has copied any split record: the window can go */
        el_decoder_feed(d, NULL, 0);
        window.base = NULL;
        munmap(map, len);
        if (window.shrunk) {
            sigaction(SIGBUS, &old, NULL);
            return shrank(r, el_decoder_offset(d), fd, d, keep);
        }
        off += len;
        r.bytes = off;
    }
    sigaction(SIGBUS, &old, NULL);
    finish(d, st, &r, keep);
    return r;
}

el_read_result el_read_fd_opts(int fd, const el_read_opts *opts, el_event_fn on_event,
                               void *ctx, el_decoder **keep)
{
    return read_fd(fd, opts, on_event, ctx, keep);
}

el_read_result el_read_fd(int fd, el_event_fn on_event, void *ctx, el_decoder **keep)
{
    return read_fd(fd, NULL, on_event, ctx, keep);
}

el_read_result el_read_path_opts(const char *path, const el_read_opts *opts,
                                 el_event_fn on_event, void *ctx, el_decoder **keep)
{
    if (strcmp(path, "-") == 0)
        return read_fd(STDIN_FILENO, opts, on_event, ctx, keep);

    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        el_read_result r = { 0 };
        r.status = r.error.status = EL_ERR_IO;
        r.error.type = -1;
        snprintf(r.error.msg, sizeof r.error.msg, "cannot open: %s", strerror(errno));
        if (keep)
            *keep = NULL;
        return r;
    }
    struct stat sb;
    el_read_result r;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
        r = read_mapped(fd, (uint64_t)sb.st_size, opts, on_event, ctx, keep);
    } else {
#ifdef POSIX_FADV_SEQUENTIAL
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
        r = read_fd(fd, opts, on_event, ctx, keep);
    }
    close(fd);
    return r;
}

el_read_result el_read_path(const char *path, el_event_fn on_event, void *ctx,
                            el_decoder **keep)
{
    return el_read_path_opts(path, NULL, on_event, ctx, keep);
}

el_read_result el_read_mem(const void *buf, size_t len, el_event_fn on_event, void *ctx,
                           el_decoder **keep)
{
    return el_read_mem_opts(buf, len, NULL, on_event, ctx, keep);
}

el_read_result el_read_mem_opts(const void *buf, size_t len, const el_read_opts *opts,
                                el_event_fn on_event, void *ctx, el_decoder **keep)
{
    el_read_result r = { 0 };
    el_decoder *d = new_decoder(opts);

    if (!d)
        return nomem(keep);
    r.bytes = len;
    el_decoder_feed(d, buf, len);
    finish(d, drain(d, on_event, ctx, &r), &r, keep);
    return r;
}
