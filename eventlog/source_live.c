/* The sources that may have more later: streams (pipes, FIFOs, terminals,
 * standard input, sockets), a followed file, and the eventlog-socket
 * stream of a running program. See source.h. */
#define _DEFAULT_SOURCE
#include "eventlog/source.h"

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

#include "eventlog/source_impl.h"

#define BUF_SIZE ((size_t)1 << 20)
#define POLL_MS 50              /* the wait without inotify, and for a missing file */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* poll() on fd (or just a sleep when fd < 0): 0, or -1 with errno (EINTR
 * is not a failure). */
static int poll_fd(int fd, int ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int rc = poll(&p, fd >= 0 ? 1 : 0, ms);
    return rc < 0 && errno != EINTR ? -1 : 0;
}

/* ---- a stream: read(2) what comes ------------------------------------------ */

typedef struct stream {
    int fd;
    int own;
    int live;                   /* read only what poll says is there */
    uint8_t *buf;
} stream;

/* One read of the stream into st->buf. */
static el_src_status stream_read(el_source *s, stream *st, const uint8_t **buf, size_t *len)
{
    if (st->live) {
        /* a pipe, socket or terminal: read only what is there, so that
         * ticks and the flag are looked at while it is quiet */
        struct pollfd p = { .fd = st->fd, .events = POLLIN };
        int rc = poll(&p, 1, 0);
        if (rc < 0 && errno != EINTR) {
            el_source_set_error(s, s->offset, errno, "poll failed");
            return EL_SRC_ERROR;
        }
        if (rc <= 0)
            return EL_SRC_WAIT;
    }
    for (;;) {
        ssize_t n = read(st->fd, st->buf, BUF_SIZE);
        if (n < 0) {
            if (errno == EINTR && !st->live)
                continue;
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                return EL_SRC_WAIT;
            el_source_set_error(s, s->offset, errno, "read failed");
            return EL_SRC_ERROR;
        }
        if (n == 0)
            return EL_SRC_END;      /* the writer closed: the end */
        s->offset += (uint64_t)n;
        *buf = st->buf;
        *len = (size_t)n;
        return EL_SRC_DATA;
    }
}

static void stream_free(stream *st)
{
    if (st->own && st->fd >= 0)
        close(st->fd);
    free(st->buf);
}

typedef struct stream_source {
    el_source s;
    stream st;
} stream_source;

static el_src_status stream_src_read(el_source *s, const uint8_t **buf, size_t *len)
{
    return stream_read(s, &((stream_source *)s)->st, buf, len);
}

static int stream_src_wait(el_source *s, int ms)
{
    if (poll_fd(((stream_source *)s)->st.fd, ms) != 0) {
        el_source_set_error(s, s->offset, errno, "poll failed");
        return -1;
    }
    return 0;
}

static int stream_give_up(el_source *s, el_src_giveup why)
{
    if (why == EL_SRC_IDLE && s->offset == 0) {
        /* not a cut log: nothing came at all */
        el_source_set_error(s, 0, 0, "nothing was written within the idle timeout");
        return -1;
    }
    return 0;
}

static void stream_src_close(el_source *s)
{
    stream_free(&((stream_source *)s)->st);
    free(s);
}

static const el_source_ops stream_ops = {
    .kind = "stream",
    .read = stream_src_read,
    .wait = stream_src_wait,
    .give_up = stream_give_up,
    .close = stream_src_close,
};

el_source *el_source_stream_fd(int fd, int own, const el_source_opts *o, ev_error *err)
{
    stream_source *ss = calloc(1, sizeof *ss);
    uint8_t *buf = malloc(BUF_SIZE);
    if (!ss || !buf) {
        free(ss);
        free(buf);
        if (own)
            close(fd);
        el_error_io(err, EV_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    ss->s.ops = &stream_ops;
    ss->s.live = o && o->live;
    ss->st = (stream){ fd, own, ss->s.live, buf };
    return &ss->s;
}

/* ---- a followed file ---------------------------------------------------------- */

typedef struct followed {
    el_source s;
    char *path;                 /* NULL: a descriptor given (never replaced) */
    stream st;                  /* fd -1 while the file is missing */
    int follow;                 /* wait at a regular file's end (else: its end) */
    int regular;                /* a regular file followed: its end means wait */
    int inotify;                /* -1 when none */
} followed;

/* Opens the followed path once it exists. 1 opened, 0 not yet, -1 error. */
static int open_followed(followed *f)
{
    int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        el_source_set_error(&f->s, 0, errno, "cannot open");
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        el_source_set_error(&f->s, 0, errno, "cannot stat");
        close(fd);
        return -1;
    }
    /* the read end of a FIFO was opened without waiting for a writer;
     * poll tells when one writes or closes */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    f->st.fd = fd;
    f->st.own = 1;
    f->regular = S_ISREG(sb.st_mode) && f->follow;
    f->st.live = !f->regular;
    if (f->regular)
        f->s.size = (uint64_t)sb.st_size;
#ifdef __linux__
    if (f->regular) {
        f->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (f->inotify >= 0 &&
            inotify_add_watch(f->inotify, f->path, IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB |
                              IN_MOVE_SELF | IN_DELETE_SELF) < 0) {
            close(f->inotify);
            f->inotify = -1;        /* polling still works */
        }
    }
#endif
    return 1;
}

/* A followed file whose name now leads elsewhere (another file renamed
 * over it) or nowhere (renamed or removed): what is read is no longer
 * FILE. Returns the message, or NULL while the name is the file read. */
static const char *replaced(const followed *f)
{
    struct stat by_name, open_file;
    if (!f->path || fstat(f->st.fd, &open_file) != 0)
        return NULL;
    if (stat(f->path, &by_name) != 0)
        return errno == ENOENT ? "the followed file was renamed or removed" : NULL;
    if (by_name.st_dev != open_file.st_dev || by_name.st_ino != open_file.st_ino)
        return "the followed file was replaced (another file has its name now)";
    return NULL;
}

static el_src_status followed_read(el_source *s, const uint8_t **buf, size_t *len)
{
    followed *f = (followed *)s;
    if (f->st.fd < 0) {
        int rc = open_followed(f);
        if (rc <= 0)
            return rc < 0 ? EL_SRC_ERROR : EL_SRC_WAIT;
    }
    if (!f->regular)
        return stream_read(s, &f->st, buf, len);    /* a FIFO: until the writer closes */
    el_src_status st = stream_read(s, &f->st, buf, len);
    if (st == EL_SRC_DATA) {
        if (s->offset > s->size)
            s->size = s->offset;
        return st;
    }
    if (st != EL_SRC_END)
        return st;
    /* at its end: wait for more, unless it is no longer the file read */
    struct stat sb;
    if (fstat(f->st.fd, &sb) == 0 && (uint64_t)sb.st_size < s->offset) {
        el_source_set_error(s, s->offset, ESPIPE,
                            "the followed file shrank (truncated or replaced)");
        return EL_SRC_ERROR;
    }
    /* is the name still this file? (docs/LIVE.md: replacing a followed
     * file is an error, as shrinking is) */
    const char *gone = replaced(f);
    if (gone) {
        el_source_set_error(s, s->offset, 0, "%s", gone);
        return EL_SRC_ERROR;
    }
    return EL_SRC_WAIT;
}

static int followed_wait(el_source *s, int ms)
{
    followed *f = (followed *)s;
    int fd = -1;
    if (f->st.fd >= 0 && !f->regular)
        fd = f->st.fd;
    else if (f->st.fd >= 0 && f->inotify >= 0)
        fd = f->inotify;
    else if (ms > POLL_MS)
        ms = POLL_MS;
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int rc = poll(&p, fd >= 0 ? 1 : 0, ms);
    if (rc < 0 && errno != EINTR) {
        el_source_set_error(s, s->offset, errno, "waiting for the file failed");
        return -1;
    }
    if (rc > 0 && fd == f->inotify && f->inotify >= 0) {
        char ev[4096];
        while (read(f->inotify, ev, sizeof ev) > 0)
            ;
    }
    return 0;
}

static int followed_give_up(el_source *s, el_src_giveup why)
{
    followed *f = (followed *)s;
    if (why == EL_SRC_IDLE && f->st.fd < 0 && f->follow) {
        /* not a cut log: there was never a file */
        el_source_set_error(s, 0, ENOENT, "the file did not appear within the idle timeout");
        return -1;
    }
    if (!f->regular)
        return stream_give_up(s, why);
    return 0;
}

static void followed_close(el_source *s)
{
    followed *f = (followed *)s;
    if (f->inotify >= 0)
        close(f->inotify);
    stream_free(&f->st);
    free(f->path);
    free(f);
}

static const el_source_ops followed_ops = {
    .kind = "followed file",
    .read = followed_read,
    .wait = followed_wait,
    .give_up = followed_give_up,
    .close = followed_close,
};

static followed *new_followed(ev_error *err)
{
    followed *f = calloc(1, sizeof *f);
    uint8_t *buf = malloc(BUF_SIZE);
    if (!f || !buf) {
        free(f);
        free(buf);
        el_error_io(err, EV_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    f->s.ops = &followed_ops;
    f->s.live = 1;
    f->st = (stream){ -1, 0, 0, buf };
    f->inotify = -1;
    return f;
}

el_source *el_source_open_followed(const char *path, const el_source_opts *o, ev_error *err)
{
    followed *f = new_followed(err);
    if (!f)
        return NULL;
    f->follow = o->follow;
    if (!(f->path = strdup(path))) {
        followed_close(&f->s);
        el_error_io(err, EV_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    int rc = open_followed(f);
    if (rc < 0 || (rc == 0 && !f->follow)) {
        if (rc == 0)
            el_source_set_error(&f->s, 0, ENOENT, "cannot open");
        *err = f->s.error;
        followed_close(&f->s);
        return NULL;
    }
    return &f->s;
}

el_source *el_source_open_fd(int fd, const el_source_opts *o, ev_error *err)
{
    struct stat sb;
    int regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    if (!(regular && o && o->follow)) {
        el_source *s = el_source_stream_fd(fd, 0, o, err);
        if (s && regular)
            s->size = (uint64_t)sb.st_size;
        return s;
    }
    followed *f = new_followed(err);
    if (!f)
        return NULL;
    f->st.fd = fd;
    f->follow = f->regular = 1;
    f->s.size = (uint64_t)sb.st_size;
    return &f->s;
}

/* ---- eventlog-socket ------------------------------------------------------------ */

int el_source_addr_valid(const char *addr)
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
    if (!el_source_addr_valid(addr)) {
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

typedef struct socket_source {
    el_source s;
    stream st;                  /* fd -1 until connected */
    char *addr;
    int wait_connect, waited, said, last_errno;
    uint64_t start_ns;
    void (*on_wait)(void *ctx, const char *addr);
    void *wait_ctx;
} socket_source;

static void connect_error(socket_source *k, int e, const char *suffix)
{
    el_source_set_error(&k->s, 0, 0, "cannot connect: %s%s",
                        e == EINVAL ? "not unix:PATH or tcp:HOST:PORT" : strerror(e), suffix);
}

static el_src_status socket_read(el_source *s, const uint8_t **buf, size_t *len)
{
    socket_source *k = (socket_source *)s;
    if (k->st.fd < 0) {
        int fd = connect_addr(k->addr);
        if (fd < 0) {
            int e = errno;
            if (!k->wait_connect || (e != ECONNREFUSED && e != ENOENT)) {
                connect_error(k, e, "");
                return EL_SRC_ERROR;
            }
            /* a program that is not listening yet (its socket file not
             * made yet, or nothing accepting) is waited for, as a
             * followed file that does not exist yet */
            k->last_errno = e;
            k->waited = 1;
            if (k->on_wait && !k->said && now_ns() - k->start_ns >= 1000000000u) {
                k->on_wait(k->wait_ctx, k->addr);
                k->said = 1;
            }
            return EL_SRC_WAIT;
        }
        k->st.fd = fd;
    }
    return stream_read(s, &k->st, buf, len);
}

static int socket_wait(el_source *s, int ms)
{
    socket_source *k = (socket_source *)s;
    if (k->st.fd < 0 && ms > POLL_MS)
        ms = POLL_MS;
    if (poll_fd(k->st.fd, ms) != 0) {
        el_source_set_error(s, s->offset, errno, "poll failed");
        return -1;
    }
    return 0;
}

static int socket_give_up(el_source *s, el_src_giveup why)
{
    socket_source *k = (socket_source *)s;
    if (k->st.fd < 0) {
        connect_error(k, k->last_errno ? k->last_errno : ECONNREFUSED,
                      why == EL_SRC_IDLE ? " (nothing accepted within --idle-timeout)" : "");
        return -1;
    }
    return stream_give_up(s, why);
}

static void socket_close(el_source *s)
{
    socket_source *k = (socket_source *)s;
    k->st.own = 1;
    stream_free(&k->st);
    free(k->addr);
    free(k);
}

static const el_source_ops socket_ops = {
    .kind = "socket",
    .read = socket_read,
    .wait = socket_wait,
    .give_up = socket_give_up,
    .close = socket_close,
};

el_source *el_source_open_connect(const char *addr, const el_source_opts *o, ev_error *err)
{
    socket_source *k = calloc(1, sizeof *k);
    uint8_t *buf = malloc(BUF_SIZE);
    char *copy = strdup(addr);
    if (!k || !buf || !copy) {
        free(k);
        free(buf);
        free(copy);
        el_error_io(err, EV_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    k->s.ops = &socket_ops;
    k->s.live = 1;
    k->st = (stream){ -1, 1, 1, buf };
    k->addr = copy;
    k->wait_connect = o && o->wait_connect;
    k->on_wait = o ? o->on_wait : NULL;
    k->wait_ctx = o ? o->wait_ctx : NULL;
    k->start_ns = now_ns();
    if (!k->wait_connect) {
        /* connect now: a failure is the read's error at once */
        int fd = connect_addr(addr);
        if (fd < 0) {
            connect_error(k, errno, "");
            *err = k->s.error;
            socket_close(&k->s);
            return NULL;
        }
        k->st.fd = fd;
    }
    return &k->s;
}
