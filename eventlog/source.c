/* Drives a decoder over a file descriptor, a path ("-" is stdin) or a
 * memory buffer. One fixed buffer per call; nothing per event. */
#include "evprof/eventlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_BUF_SIZE (1u << 20)

/* Pulls every event out of what has been fed. Returns EL_NEED_INPUT when
 * the chunk is used up, EL_OK when the callback asked to stop, or the
 * decoder's final status. */
static el_status drain(el_decoder *d, el_event_fn on_event, void *ctx, el_read_result *r)
{
    el_event ev;
    el_status st;

    while ((st = el_decoder_next(d, &ev)) == EL_OK) {
        r->events++;
        if (on_event && on_event(ctx, &ev, d))
            return EL_OK;
    }
    return st;
}

static void finish(el_decoder *d, el_status st, el_read_result *r, el_decoder **keep)
{
    if (st == EL_NEED_INPUT)
        st = el_decoder_finish(d);
    r->status = st;
    r->missing_end = el_decoder_missing_end(d);
    if (st != EL_OK && st != EL_END)
        r->error = *el_decoder_error(d);
    if (keep)
        *keep = d;
    else
        el_decoder_destroy(d);
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

el_read_result el_read_fd(int fd, el_event_fn on_event, void *ctx, el_decoder **keep)
{
    el_read_result r = { 0 };
    el_decoder *d = el_decoder_create();
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
            /* keep what was decoded; report the read error */
            r.status = EL_ERR_IO;
            r.error.status = EL_ERR_IO;
            r.error.offset = r.bytes;
            r.error.type = -1;
            snprintf(r.error.msg, sizeof r.error.msg, "read failed: %s", strerror(errno));
            free(buf);
            if (keep)
                *keep = d;
            else
                el_decoder_destroy(d);
            return r;
        }
        if (n == 0)
            break;
        r.bytes += (uint64_t)n;
        el_decoder_feed(d, buf, (size_t)n);
        st = drain(d, on_event, ctx, &r);
        if (st != EL_NEED_INPUT)
            break;
    }
    free(buf);
    finish(d, st, &r, keep);
    return r;
}

el_read_result el_read_path(const char *path, el_event_fn on_event, void *ctx,
                            el_decoder **keep)
{
    if (strcmp(path, "-") == 0)
        return el_read_fd(STDIN_FILENO, on_event, ctx, keep);

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
#ifdef POSIX_FADV_SEQUENTIAL
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    el_read_result r = el_read_fd(fd, on_event, ctx, keep);
    close(fd);
    return r;
}

el_read_result el_read_mem(const void *buf, size_t len, el_event_fn on_event, void *ctx,
                           el_decoder **keep)
{
    el_read_result r = { 0 };
    el_decoder *d = el_decoder_create();

    if (!d)
        return nomem(keep);
    r.bytes = len;
    el_decoder_feed(d, buf, len);
    finish(d, drain(d, on_event, ctx, &r), &r, keep);
    return r;
}
