/* Live sources of the driver: a file still being written (--follow), a
 * FIFO or standard input as the data comes, and the eventlog-socket
 * stream (--connect). One read loop: read(2) what is there, feed the
 * decoder, hand out every complete event, call on_tick on wall time, and
 * look at the interrupt flag between events and while waiting.
 * See "Live sources" in include/evprof/driver.h. */
#define _DEFAULT_SOURCE
#include "evprof/driver.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "driver/internal.h"

#define LIVE_BUF_SIZE (1u << 20)
#define POLL_MS 50              /* the wait without inotify, and for a missing file */
#define MAX_WAIT_MS 100         /* the longest wait without looking at the flag */
#define CLOCK_EVERY 4096        /* events between two looks at the clock */

typedef struct live {
    ev_driver *d;
    const ev_driver_opts *o;
    ev_stream *s;
    el_decoder *dec;
    int fd;                     /* -1 while a followed file is missing */
    int own_fd;
    int follow_file;            /* a regular file followed: its end means wait */
    const char *path;           /* to open (follow: it may not exist yet) */
    int inotify;                /* -1 when none */
    uint64_t start_ns, next_tick_ns, tick_ns, last_growth_ns;
    uint64_t offset;            /* bytes read */
    unsigned since_clock;
} live;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int interrupted(const live *l)
{
    return l->o->interrupt && *l->o->interrupt;
}

/* Calls on_tick when its time has come. */
static void tick(live *l, uint64_t now)
{
    l->s->wall_ns = now - l->start_ns;
    if (now < l->next_tick_ns)
        return;
    if (l->o->on_tick) {
        l->s->read.bytes = l->offset;
        if (!l->s->decoder && l->dec && el_decoder_header_done(l->dec))
            l->s->decoder = l->dec;     /* the header's types before any event */
        l->o->on_tick(l->o->tick_ctx, l->s);
    }
    l->next_tick_ns += l->tick_ns;
    if (l->next_tick_ns <= now)     /* a slow tick: skip, do not catch up */
        l->next_tick_ns = now + l->tick_ns;
}

static void set_io_error(live *l, const char *what, int err)
{
    el_read_result *r = &l->s->read;
    r->status = r->error.status = EL_ERR_IO;
    r->error.offset = l->offset;
    r->error.type = -1;
    if (err)
        snprintf(r->error.msg, sizeof r->error.msg, "%s: %s", what, strerror(err));
    else
        snprintf(r->error.msg, sizeof r->error.msg, "%s", what);
}

/* --idle-timeout: nothing came for that long */
static int idle_over(const live *l, uint64_t now)
{
    return l->o->idle_timeout > 0 &&
           now - l->last_growth_ns >= (uint64_t)(l->o->idle_timeout * 1e9);
}

/* A followed file whose name now leads elsewhere (another file renamed
 * over it) or nowhere (renamed or removed): what is read is no longer
 * FILE. Returns the message, or NULL while the name is the file read. */
static const char *replaced(const live *l)
{
    struct stat by_name, open_file;
    if (!l->path || fstat(l->fd, &open_file) != 0)
        return NULL;
    if (stat(l->path, &by_name) != 0)
        return errno == ENOENT ? "the followed file was renamed or removed" : NULL;
    if (by_name.st_dev != open_file.st_dev || by_name.st_ino != open_file.st_ino)
        return "the followed file was replaced (another file has its name now)";
    return NULL;
}

/* Every complete event of what was fed. Returns EL_NEED_INPUT, EL_END,
 * an error, or EL_OK when the read is to stop (an analysis stopped it, or
 * the interrupt). */
static el_status drain(live *l)
{
    el_event_fn on_event = ev_driver_event_fn();
    el_event ev;
    el_status st;

    while ((st = el_decoder_next(l->dec, &ev)) == EL_OK) {
        if (on_event(l->d, &ev, l->dec))
            return EL_OK;
        if (++l->since_clock >= CLOCK_EVERY) {
            l->since_clock = 0;
            if (interrupted(l))
                return EL_OK;
            tick(l, now_ns());
        }
    }
    return st;
}

/* Waits up to ms for data (or, following a file, for it to change).
 * Returns 0, or -1 with errno on a failure. EINTR is not a failure. */
static int wait_data(live *l, int ms)
{
    if (ms > MAX_WAIT_MS)
        ms = MAX_WAIT_MS;
    if (ms < 1)
        ms = 1;
    struct pollfd p = { .fd = -1, .events = POLLIN };
    if (l->fd >= 0 && !l->follow_file)
        p.fd = l->fd;
    else if (l->fd >= 0 && l->inotify >= 0)
        p.fd = l->inotify;
    else if (ms > POLL_MS)
        ms = POLL_MS;
    int rc = poll(&p, p.fd >= 0 ? 1 : 0, ms);
    if (rc < 0 && errno != EINTR)
        return -1;
    if (rc > 0 && p.fd == l->inotify && l->inotify >= 0) {
        char buf[4096];
        while (read(l->inotify, buf, sizeof buf) > 0)
            ;
    }
    return 0;
}

/* A followed path: opens it once it exists. Returns 1 opened, 0 not yet,
 * -1 on an error (set). */
static int open_followed(live *l)
{
    int fd = open(l->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        set_io_error(l, "cannot open", errno);
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        set_io_error(l, "cannot stat", errno);
        close(fd);
        return -1;
    }
    /* the read end of a FIFO was opened without waiting for a writer;
     * poll tells when one writes or closes */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    l->fd = fd;
    l->own_fd = 1;
    l->follow_file = S_ISREG(sb.st_mode) && l->o->follow;
    if (S_ISREG(sb.st_mode))
        l->s->total_bytes = (uint64_t)sb.st_size;
#ifdef __linux__
    if (l->follow_file) {
        l->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (l->inotify >= 0 &&
            inotify_add_watch(l->inotify, l->path, IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB |
                              IN_MOVE_SELF | IN_DELETE_SELF) < 0) {
            close(l->inotify);
            l->inotify = -1;        /* polling still works */
        }
    }
#endif
    return 1;
}

/* The read loop. The stream's read result is set when it returns. */
static void read_live(live *l)
{
    uint8_t *buf = malloc(LIVE_BUF_SIZE);
    el_status st = EL_NEED_INPUT;
    el_read_result *r = &l->s->read;
    int failed = 0;

    if (!buf) {
        r->status = r->error.status = EL_ERR_NOMEM;
        r->error.type = -1;
        snprintf(r->error.msg, sizeof r->error.msg, "out of memory");
        return;
    }
    for (;;) {
        uint64_t now = now_ns();
        tick(l, now);
        if (interrupted(l)) {
            l->s->interrupted = 1;
            break;
        }
        int wait_ms = (int)((l->next_tick_ns - now) / 1000000u);
        if (l->fd < 0) {
            int rc = open_followed(l);
            if (rc < 0) {
                failed = 1;
                break;
            }
            if (rc == 0) {
                if (idle_over(l, now)) {
                    /* not a cut log: there was never a file */
                    l->s->idle_timed_out = 1;
                    set_io_error(l, "the file did not appear within the idle timeout", ENOENT);
                    failed = 1;
                    break;
                }
                wait_data(l, wait_ms);
                continue;
            }
        }
        if (!l->follow_file) {
            /* a pipe, socket or terminal: read only what is there, so
             * that ticks and the flag are looked at while it is quiet */
            struct pollfd p = { .fd = l->fd, .events = POLLIN };
            int rc = poll(&p, 1, wait_ms < 1 ? 1 : wait_ms > MAX_WAIT_MS ? MAX_WAIT_MS : wait_ms);
            if (rc < 0 && errno != EINTR) {
                set_io_error(l, "poll failed", errno);
                failed = 1;
                break;
            }
            if (rc <= 0) {
                /* quiet: a FIFO without a writer, a stalled writer or socket */
                if (idle_over(l, now_ns())) {
                    l->s->idle_timed_out = 1;
                    if (l->offset == 0) {
                        /* not a cut log: nothing came at all */
                        set_io_error(l, "nothing was written within the idle timeout", 0);
                        failed = 1;
                    }
                    break;
                }
                continue;
            }
        }
        ssize_t n = read(l->fd, buf, LIVE_BUF_SIZE);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            set_io_error(l, "read failed", errno);
            failed = 1;
            break;
        }
        if (n == 0) {
            if (!l->follow_file)
                break;                  /* the writer closed: the end */
            struct stat sb;
            if (fstat(l->fd, &sb) == 0 && (uint64_t)sb.st_size < l->offset) {
                errno = ESPIPE;
                set_io_error(l, "the followed file shrank (truncated or replaced)", ESPIPE);
                failed = 1;
                break;
            }
            /* at its end: is the name still this file? (docs/LIVE.md:
             * replacing a followed file is an error, as shrinking is) */
            const char *gone = replaced(l);
            if (gone) {
                set_io_error(l, gone, 0);
                failed = 1;
                break;
            }
            if (idle_over(l, now)) {
                l->s->idle_timed_out = 1;
                break;
            }
            if (wait_data(l, wait_ms) != 0) {
                set_io_error(l, "waiting for the file failed", errno);
                failed = 1;
                break;
            }
            continue;
        }
        l->last_growth_ns = now_ns();
        if (l->o->on_bytes)
            l->o->on_bytes(l->o->bytes_ctx, buf, (size_t)n);
        l->offset += (uint64_t)n;
        if (l->follow_file && l->offset > l->s->total_bytes)
            l->s->total_bytes = l->offset;
        r->bytes = l->offset;
        el_decoder_feed(l->dec, buf, (size_t)n);
        st = drain(l);
        el_decoder_feed(l->dec, NULL, 0);
        if (st == EL_OK) {              /* stopped: by an analysis or the flag */
            if (!l->s->stopped)
                l->s->interrupted = 1;
            break;
        }
        if (st != EL_NEED_INPUT)
            break;                      /* the end marker, or an error */
    }
    free(buf);
    r->bytes = l->offset;
    if (failed)
        return;
    if (st == EL_NEED_INPUT || st == EL_OK)
        st = el_decoder_finish(l->dec);
    r->has_time_span = el_decoder_time_span(l->dec, &r->first_time, &r->last_time);
    el_decoder_caps(l->dec, &r->caps);
    r->damage = *el_decoder_damage(l->dec);
    r->status = st;
    r->missing_end = el_decoder_missing_end(l->dec);
    if (st != EL_OK && st != EL_END)
        r->error = *el_decoder_error(l->dec);
}

static const ev_stream *run_live(ev_driver *d, const char *name, int fd, const char *path)
{
    el_read_opts ro;
    uint16_t *types;
    live l;

    memset(&l, 0, sizeof l);
    if (ev_driver_begin(d, name, &ro, &types) != 0) {
        if (fd >= 0 && path)
            close(fd);
        return ev_driver_stream(d);
    }
    ev_driver_spool_stream(d, &ro);
    l.d = d;
    l.o = ev_driver_get_opts(d);
    l.s = ev_driver_stream_mut(d);
    l.fd = fd;
    l.own_fd = fd >= 0 && path != NULL;
    l.path = path;
    l.inotify = -1;
    l.tick_ns = l.o->tick_interval > 0 ? (uint64_t)(l.o->tick_interval * 1e9) : 1000000000u;
    l.start_ns = l.last_growth_ns = now_ns();
    l.next_tick_ns = l.start_ns + l.tick_ns;

    el_decoder *dec = el_decoder_create();
    if (dec) {
        if (ro.fields)
            el_decoder_only_fields(dec, ro.fields, ro.num_fields);
        el_decoder_only_selected(dec, ro.only_selected);
        el_decoder_set_resync(dec, !ro.no_resync);
        el_decoder_count_types(dec, ro.count_types);    /* before the header: no memory */
    }
    free(types);
    *ev_driver_decoder_slot(d) = dec;
    l.dec = dec;
    if (!dec) {
        l.s->read.status = l.s->read.error.status = EL_ERR_NOMEM;
        l.s->read.error.type = -1;
        snprintf(l.s->read.error.msg, sizeof l.s->read.error.msg, "out of memory");
    } else {
        if (fd >= 0) {
            struct stat sb;
            if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
                l.follow_file = l.o->follow;
                l.s->total_bytes = (uint64_t)sb.st_size;
            }
        }
        read_live(&l);
    }
    if (l.inotify >= 0)
        close(l.inotify);
    if (l.own_fd && l.fd >= 0)
        close(l.fd);
    l.s->wall_ns = now_ns() - l.start_ns;
    const ev_stream *s = ev_driver_end(d);
    if (l.o->on_tick)
        l.o->on_tick(l.o->tick_ctx, s);
    return s;
}

const ev_stream *ev_driver_run_live_path(ev_driver *d, const char *path)
{
    if (strcmp(path, "-") == 0)
        return run_live(d, path, STDIN_FILENO, NULL);
    return run_live(d, path, -1, path);
}

const ev_stream *ev_driver_run_fd(ev_driver *d, int fd, const char *name)
{
    return run_live(d, name, fd, NULL);
}

/* ---- eventlog-socket ----------------------------------------------------- */

int ev_connect_addr_valid(const char *addr)
{
    if (strncmp(addr, "unix:", 5) == 0)
        return addr[5] != '\0' && strlen(addr + 5) < sizeof(((struct sockaddr_un *)0)->sun_path);
    if (strncmp(addr, "tcp:", 4) == 0) {
        const char *colon = strrchr(addr + 4, ':');
        return colon && colon > addr + 4 && colon[1] != '\0';
    }
    return 0;
}

/* Connects; returns the fd, or -1 with errno (EINVAL: a bad address). */
static int connect_addr(const char *addr)
{
    if (!ev_connect_addr_valid(addr)) {
        errno = EINVAL;
        return -1;
    }
    if (strncmp(addr, "unix:", 5) == 0) {
        struct sockaddr_un sa;
        memset(&sa, 0, sizeof sa);
        sa.sun_family = AF_UNIX;
        strcpy(sa.sun_path, addr + 5);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return -1;
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        return fd;
    }
    /* tcp:HOST:PORT, HOST maybe [v6] */
    char host[256];
    const char *h = addr + 4, *colon = strrchr(h, ':');
    size_t hl = (size_t)(colon - h);
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
        h++;
        hl -= 2;
    }
    if (hl >= sizeof host) {
        errno = EINVAL;
        return -1;
    }
    memcpy(host, h, hl);
    host[hl] = '\0';
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        errno = rc == EAI_SYSTEM ? errno : EHOSTUNREACH;
        return -1;
    }
    int fd = -1, e = ECONNREFUSED;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        e = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0)
        errno = e;
    return fd;
}

const ev_stream *ev_driver_run_connect(ev_driver *d, const char *addr)
{
    const ev_driver_opts *o = ev_driver_get_opts(d);
    uint64_t start = now_ns();
    int fd, waited = 0, said = 0;

    /* with follow, a program that is not listening yet (its socket file
     * not made yet, or nothing accepting) is waited for, as a followed
     * file that does not exist yet: until idle_timeout, or the interrupt */
    while ((fd = connect_addr(addr)) < 0 && o->follow &&
           (errno == ECONNREFUSED || errno == ENOENT) &&
           !(o->interrupt && *o->interrupt) &&
           !(o->idle_timeout > 0 && now_ns() - start >= (uint64_t)(o->idle_timeout * 1e9))) {
        if (o->on_wait && !said && now_ns() - start >= 1000000000u) {
            o->on_wait(o->wait_ctx, addr);
            said = 1;
        }
        waited = 1;
        poll(NULL, 0, POLL_MS);
    }
    if (fd < 0) {
        int e = errno;
        el_read_opts ro;
        uint16_t *types;
        if (ev_driver_begin(d, addr, &ro, &types) == 0) {
            free(types);
            ev_stream *s = ev_driver_stream_mut(d);
            s->read.status = s->read.error.status = EL_ERR_IO;
            s->read.error.type = -1;
            snprintf(s->read.error.msg, sizeof s->read.error.msg, "cannot connect: %s%s",
                     e == EINVAL ? "not unix:PATH or tcp:HOST:PORT" : strerror(e),
                     waited && !(o->interrupt && *o->interrupt)
                         ? " (nothing accepted within --idle-timeout)" : "");
            s->idle_timed_out = waited && !(o->interrupt && *o->interrupt);
            s->interrupted = o->interrupt && *o->interrupt;
            return ev_driver_end(d);
        }
        return ev_driver_stream(d);
    }
    const ev_stream *s = run_live(d, addr, fd, NULL);
    close(fd);
    return s;
}
