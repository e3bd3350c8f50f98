/* The metrics endpoint: GET /metrics over HTTP/1.x, on a thread of its
 * own (see include/evprof/metrics.h).
 *
 * One poll() loop serves every connection: non-blocking sockets, a
 * bounded request buffer per connection, two deadlines per connection
 * (its request line and headers within head_timeout_ms of its accept,
 * its last byte within timeout_ms), at most max_conns open. When they
 * are all open, the oldest connection still waiting for its request (a
 * silent client, a slow one) is dropped to admit the next: only one that
 * has had a round of the loop to send it, so that a scraper's request,
 * there as soon as it connects, is always read. With none to drop, the
 * next connections wait in the kernel's backlog, and a burst of scrapers
 * is served in turn. The body is the latest exposition the
 * reading thread handed over; it is reference-counted, so publishing a
 * new one never waits for a response in progress, and a response never
 * sees a body change under it. The mutex guards only the current body's
 * pointer, the counts and the statistics: nothing blocks while it is
 * held. A pipe wakes the loop when it must stop; the thread is joined.
 *
 * Every connection closes after its response (Connection: close): the
 * response is written and the sending side shut down. When the client
 * sent more than its request's headers (a body), what it still sends is
 * read and dropped until it closes too (or 1 s), so that closing never
 * resets a response the client has not read yet; otherwise the socket is
 * closed at once. */
#include "evprof/metrics.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "live/internal.h"
#include "util/error.h"

#define DEFAULT_CONNS 64
#define DEFAULT_REQUEST 8192
#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_HEAD_TIMEOUT_MS 2000
#define DRAIN_MS 1000               /* reading what the client sends after the response */
#define ACCEPTS_PER_ROUND 64

void live_http_opts_init(live_http_opts *o)
{
    o->max_conns = DEFAULT_CONNS;
    o->max_request = DEFAULT_REQUEST;
    o->timeout_ms = DEFAULT_TIMEOUT_MS;
    o->head_timeout_ms = DEFAULT_HEAD_TIMEOUT_MS;
}

/* ---- the request --------------------------------------------------------- */

static int is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The end of the headers (just past the blank line), or 0. */
static size_t head_end(const char *buf, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (buf[i] != '\n')
            continue;
        if (buf[i + 1] == '\n')
            return i + 2;
        if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

/* The request line buf[0..len) (its line feed and CR excluded). */
static int request_line(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && is_tchar((unsigned char)buf[i]))
        i++;
    size_t mlen = i;
    if (mlen == 0 || i >= len || buf[i] != ' ')
        return 400;
    size_t t0 = ++i;
    while (i < len && buf[i] != ' ') {
        unsigned char c = (unsigned char)buf[i];
        if (c <= 0x20 || c == 0x7f)
            return 400;
        i++;
    }
    size_t tlen = i - t0;
    if (tlen == 0 || i >= len)
        return 400;
    const char *v = buf + i + 1;
    size_t vlen = len - i - 1;
    if (vlen != 8 || memcmp(v, "HTTP/", 5) != 0 || v[5] < '0' || v[5] > '9' || v[6] != '.' ||
        v[7] < '0' || v[7] > '9')
        return 400;
    /* another version first, whatever its target: HTTP/2's preface is
     * "PRI * HTTP/2.0" */
    if (v[5] != '1')
        return 505;
    if (buf[t0] != '/')
        return 400;
    size_t plen = 0;
    while (plen < tlen && buf[t0 + plen] != '?' && buf[t0 + plen] != '#')
        plen++;
    if (plen != 8 || memcmp(buf + t0, "/metrics", 8) != 0)
        return 404;
    if (mlen != 3 || memcmp(buf, "GET", 3) != 0)
        return 405;
    return 200;
}

int live_http_parse(const char *buf, size_t len, size_t max)
{
    if (len > max)
        len = max;
    /* garbage is answered at once, without waiting for a line or headers
     * that will never end: a method that is not a token (a TLS hello),
     * then the request line as soon as it is complete */
    size_t m = 0;
    while (m < len && is_tchar((unsigned char)buf[m]))
        m++;
    if (m < len && buf[m] != ' ')
        return 400;
    const char *nl = memchr(buf, '\n', len);
    if (!nl)
        return len >= max ? 431 : LIVE_HTTP_MORE;
    size_t ll = (size_t)(nl - buf);
    if (ll > 0 && buf[ll - 1] == '\r')
        ll--;
    if (memchr(buf, '\0', ll))
        return 400;
    int st = request_line(buf, ll);
    if (st != 200)
        return st;
    if (!head_end(buf, len))
        return len >= max ? 431 : LIVE_HTTP_MORE;
    return 200;
}

int live_http_parse_addr(const char *addr, char *host, size_t hsize, char *port, size_t psize)
{
    const char *h = "127.0.0.1", *p;
    size_t hl = strlen(h);
    if (!addr || !*addr)
        return -1;
    if (addr[0] == '[') {
        const char *e = strchr(addr, ']');
        if (!e || e[1] != ':')
            return -1;
        h = addr + 1;
        hl = (size_t)(e - h);
        p = e + 2;
        if (hl == 0)
            return -1;
    } else {
        const char *c = strrchr(addr, ':');
        if (c) {
            if (memchr(addr, ':', (size_t)(c - addr)))
                return -1;      /* an IPv6 address wants brackets */
            if (c > addr) {
                h = addr;
                hl = (size_t)(c - addr);
            }
            p = c + 1;
        } else {
            p = addr;
        }
    }
    size_t pl = strlen(p);
    if (pl == 0 || pl > 5 || strspn(p, "0123456789") != pl || atol(p) > 65535)
        return -1;
    if (hl + 1 > hsize || pl + 1 > psize)
        return -1;
    memcpy(host, h, hl);
    host[hl] = '\0';
    memcpy(port, p, pl + 1);
    return 0;
}

/* ---- the server ---------------------------------------------------------- */

typedef struct body {
    size_t refs;                /* the server's current pointer, and each response */
    size_t len;
    char *data;
} body;

typedef enum conn_state { C_READ, C_WRITE, C_DRAIN } conn_state;

typedef struct conn {
    int fd;
    conn_state state;
    uint64_t accepted_ms;
    uint64_t round;             /* the loop's round that accepted it */
    uint64_t deadline_ms;       /* C_READ: the head's; then the whole life's */
    size_t rlen;
    size_t req_head;            /* the request's bytes up to its blank line */
    char *req;                  /* max_request bytes */
    char head[512];
    size_t hlen, hoff;
    body *b;                    /* a 200's body, or NULL */
    const char *text;           /* another status's body */
    size_t blen, boff;
} conn;

struct live_http {
    live_http_opts o;
    int lfd;
    int wake[2];
    pthread_t thread;
    int started;
    char address[128];
    pthread_mutex_t mu;
    body *current;              /* under mu */
    live_http_stats st;         /* under mu */
    conn *conns;
    size_t n_conns;
    uint64_t round;             /* of the poll loop */
    struct pollfd *pfd;
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void body_unref(live_http *h, body *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&h->mu);
    int last = --b->refs == 0;
    pthread_mutex_unlock(&h->mu);
    if (last) {
        free(b->data);
        free(b);
    }
}

static const char *reason(int st)
{
    switch (st) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    default: return "HTTP Version Not Supported";
    }
}

static const char *error_text(int st)
{
    switch (st) {
    case 404: return "404 not found: evprof serves GET /metrics only\n";
    case 405: return "405 method not allowed: GET /metrics only\n";
    case 431: return "431 request too large\n";
    case 505: return "505 HTTP/1.x only\n";
    default: return "400 bad request\n";
    }
}

static void count_response(live_http *h, int st)
{
    static const int codes[6] = { 200, 400, 404, 405, 431, 505 };
    pthread_mutex_lock(&h->mu);
    for (int i = 0; i < 6; i++)
        if (codes[i] == st)
            h->st.responses[i]++;
    pthread_mutex_unlock(&h->mu);
}

/* The response to status st goes out next. */
static void respond(live_http *h, conn *c, int st)
{
    count_response(h, st);
    if (st == 200) {
        pthread_mutex_lock(&h->mu);
        c->b = h->current;
        c->b->refs++;
        pthread_mutex_unlock(&h->mu);
        c->blen = c->b->len;
        c->hlen = (size_t)snprintf(c->head, sizeof c->head,
                                   "HTTP/1.1 200 OK\r\nContent-Type: " LIVE_METRICS_CONTENT_TYPE
                                   "\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n"
                                   "Connection: close\r\n\r\n", c->blen);
    } else {
        c->text = error_text(st);
        c->blen = strlen(c->text);
        c->hlen = (size_t)snprintf(c->head, sizeof c->head,
                                   "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                   "Content-Length: %zu\r\n%sConnection: close\r\n\r\n",
                                   st, reason(st), c->blen, st == 405 ? "Allow: GET\r\n" : "");
    }
    c->hoff = c->boff = 0;
    c->state = C_WRITE;
    c->deadline_ms = c->accepted_ms + h->o.timeout_ms;     /* the head's is met */
}

static void close_conn(live_http *h, size_t i)
{
    conn *c = &h->conns[i];
    close(c->fd);
    body_unref(h, c->b);
    char *req = c->req;
    h->conns[i] = h->conns[--h->n_conns];
    h->conns[h->n_conns].req = req;     /* buffers stay with the slots */
}

/* Reads what is there. Returns 1 when the connection is done with. */
static int conn_read(live_http *h, conn *c)
{
    for (;;) {
        char drop[1024];
        char *dst = c->state == C_DRAIN ? drop : c->req + c->rlen;
        size_t room = c->state == C_DRAIN ? sizeof drop : h->o.max_request - c->rlen;
        if (room == 0)
            break;
        ssize_t k = recv(c->fd, dst, room, 0);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : 1;
        }
        if (k == 0)
            return 1;       /* the client is gone (or done, after our response) */
        if (c->state == C_READ) {
            c->rlen += (size_t)k;
            break;
        }
    }
    if (c->state == C_READ) {
        int st = live_http_parse(c->req, c->rlen, h->o.max_request);
        if (st != LIVE_HTTP_MORE) {
            c->req_head = head_end(c->req, c->rlen);
            respond(h, c, st);
        }
    }
    return 0;
}

/* Writes what the socket takes. Returns 1 when the connection is done with. */
static int conn_write(conn *c)
{
    for (;;) {
        const char *p;
        size_t n;
        if (c->hoff < c->hlen) {
            p = c->head + c->hoff;
            n = c->hlen - c->hoff;
        } else if (c->boff < c->blen) {
            p = (c->b ? c->b->data : c->text) + c->boff;
            n = c->blen - c->boff;
        } else {
            shutdown(c->fd, SHUT_WR);
            /* nothing read past the headers (a GET): nothing to drain */
            if (c->req_head && c->rlen == c->req_head)
                return 1;
            c->state = C_DRAIN;
            uint64_t drain = now_ms() + DRAIN_MS;
            if (drain < c->deadline_ms)
                c->deadline_ms = drain;
            return 0;
        }
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : 1;
        }
        if (c->hoff < c->hlen)
            c->hoff += (size_t)k;
        else
            c->boff += (size_t)k;
    }
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ? -1 : 0;
}

/* The slot of the oldest connection still waiting for its request that
 * has had a round of the loop to send it, or SIZE_MAX. */
static size_t oldest_idle(const live_http *h)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < h->n_conns; i++) {
        const conn *c = &h->conns[i];
        if (c->state == C_READ && c->round < h->round &&
            (best == SIZE_MAX || c->accepted_ms < h->conns[best].accepted_ms))
            best = i;
    }
    return best;
}

static void accept_some(live_http *h)
{
    for (int k = 0; k < ACCEPTS_PER_ROUND; k++) {
        size_t drop = SIZE_MAX;
        if (h->n_conns == h->o.max_conns && (drop = oldest_idle(h)) == SIZE_MAX)
            return;         /* every slot busy or new: the rest wait in the backlog */
        int fd = accept(h->lfd, NULL, NULL);
        if (fd < 0)
            return;         /* EAGAIN: no more; others (EMFILE...): next round */
        if (set_nonblock(fd) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
            close(fd);
            continue;
        }
        if (drop != SIZE_MAX)
            close_conn(h, drop);
        pthread_mutex_lock(&h->mu);
        h->st.accepted++;
        h->st.dropped += drop != SIZE_MAX;
        if (h->n_conns + 1 == h->o.max_conns && drop == SIZE_MAX)
            h->st.busy++;
        pthread_mutex_unlock(&h->mu);
        conn *c = &h->conns[h->n_conns++];
        char *req = c->req;
        memset(c, 0, sizeof *c);
        c->req = req;
        c->fd = fd;
        c->state = C_READ;
        c->round = h->round;
        c->accepted_ms = now_ms();
        c->deadline_ms = c->accepted_ms + h->o.head_timeout_ms;
    }
}

static void *serve(void *arg)
{
    live_http *h = arg;
    for (;;) {
        uint64_t now = now_ms();
        int timeout = -1;
        /* the deadlines first: a connection past its time is closed */
        for (size_t i = 0; i < h->n_conns;) {
            conn *c = &h->conns[i];
            if (c->deadline_ms <= now) {
                if (c->state != C_DRAIN) {
                    pthread_mutex_lock(&h->mu);
                    h->st.timed_out++;
                    pthread_mutex_unlock(&h->mu);
                }
                close_conn(h, i);
                continue;
            }
            uint64_t left = c->deadline_ms - now;
            if (timeout < 0 || left < (uint64_t)timeout)
                timeout = (int)left;
            i++;
        }
        h->pfd[0] = (struct pollfd){ h->wake[0], POLLIN, 0 };
        /* full with none to drop: the next connections wait in the backlog */
        h->round++;
        int admit = h->n_conns < h->o.max_conns || oldest_idle(h) != SIZE_MAX;
        h->pfd[1] = (struct pollfd){ admit ? h->lfd : -1, POLLIN, 0 };
        for (size_t i = 0; i < h->n_conns; i++)
            h->pfd[2 + i] = (struct pollfd){ h->conns[i].fd,
                                             h->conns[i].state == C_WRITE ? POLLOUT : POLLIN, 0 };
        size_t n = h->n_conns;
        int r = poll(h->pfd, 2 + n, timeout);
        if (r < 0 && errno != EINTR)
            break;
        if (r <= 0)
            continue;
        if (h->pfd[0].revents)
            break;
        /* from the last: close_conn moves the last connection into slot i */
        for (size_t i = n; i-- > 0;) {
            short ev = h->pfd[2 + i].revents;
            if (!ev)
                continue;
            conn *c = &h->conns[i];
            int done;
            if (c->state == C_WRITE)
                done = (ev & (POLLERR | POLLNVAL)) ? 1 : conn_write(c);
            else
                done = conn_read(h, c);
            if (!done && c->state == C_WRITE)
                done = conn_write(c);   /* a status answered at once, often whole */
            if (done)
                close_conn(h, i);
        }
        if (h->pfd[1].revents)
            accept_some(h);
    }
    return NULL;
}

static const char empty_exposition[] = "# evprof: no figures yet\n";

void live_http_stop(live_http *h)
{
    if (!h)
        return;
    if (h->started) {
        char x = 1;
        while (write(h->wake[1], &x, 1) < 0 && errno == EINTR)
            ;
        pthread_join(h->thread, NULL);
    }
    while (h->n_conns)
        close_conn(h, h->n_conns - 1);
    if (h->conns)
        for (size_t i = 0; i < h->o.max_conns; i++)
            free(h->conns[i].req);
    free(h->conns);
    free(h->pfd);
    if (h->lfd >= 0)
        close(h->lfd);
    if (h->wake[0] >= 0)
        close(h->wake[0]);
    if (h->wake[1] >= 0)
        close(h->wake[1]);
    body_unref(h, h->current);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

static ev_status listen_on(live_http *h, const char *addr, ev_error *err)
{
    char host[256], port[8];
    if (live_http_parse_addr(addr, host, sizeof host, port, sizeof port) != 0)
        return ev_error_set(err, EV_ERR_USAGE, "%s: not HOST:PORT, :PORT, PORT or [IPV6]:PORT",
                            addr);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int gai = getaddrinfo(host, port, &hints, &res);
    if (gai != 0)
        return ev_error_set(err, EV_ERR_NETWORK, "%s: %s", addr, gai_strerror(gai));
    int saved = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 128) != 0 ||
            set_nonblock(fd) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
            saved = errno;
            close(fd);
            continue;
        }
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        char nh[1025], ns[32];
        if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
            getnameinfo((struct sockaddr *)&ss, sl, nh, sizeof nh, ns, sizeof ns,
                        NI_NUMERICHOST | NI_NUMERICSERV) == 0)
            snprintf(h->address, sizeof h->address, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s",
                     nh, ns);
        else
            snprintf(h->address, sizeof h->address, "%s", addr);
        h->lfd = fd;
        freeaddrinfo(res);
        return EV_OK;
    }
    freeaddrinfo(res);
    return ev_error_set(err, EV_ERR_NETWORK, "%s: cannot listen: %s", addr,
                        strerror(saved ? saved : EADDRNOTAVAIL));
}

ev_status live_http_start(live_http **out, const char *addr, const live_http_opts *o,
                          ev_error *err)
{
    *out = NULL;
    ev_error_clear(err);
    live_http *h = calloc(1, sizeof *h);
    if (!h)
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    h->lfd = h->wake[0] = h->wake[1] = -1;
    live_http_opts_init(&h->o);
    if (o) {
        if (o->max_conns)
            h->o.max_conns = o->max_conns;
        if (o->max_request)
            h->o.max_request = o->max_request;
        if (o->timeout_ms)
            h->o.timeout_ms = o->timeout_ms;
        if (o->head_timeout_ms)
            h->o.head_timeout_ms = o->head_timeout_ms;
    }
    if (h->o.head_timeout_ms > h->o.timeout_ms)
        h->o.head_timeout_ms = h->o.timeout_ms;
    pthread_mutex_init(&h->mu, NULL);
    h->conns = calloc(h->o.max_conns, sizeof *h->conns);
    h->pfd = calloc((size_t)h->o.max_conns + 2, sizeof *h->pfd);
    h->current = calloc(1, sizeof *h->current);
    if (h->current)
        h->current->data = malloc(sizeof empty_exposition);
    int ok = h->conns && h->pfd && h->current && h->current->data;
    for (size_t i = 0; ok && i < h->o.max_conns; i++)
        ok = (h->conns[i].req = malloc(h->o.max_request)) != NULL;
    if (!ok) {
        if (h->current && !h->current->data) {
            free(h->current);
            h->current = NULL;
        }
        live_http_stop(h);
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    }
    memcpy(h->current->data, empty_exposition, sizeof empty_exposition - 1);
    h->current->len = sizeof empty_exposition - 1;
    h->current->refs = 1;
    ev_status st = listen_on(h, addr, err);
    if (st != EV_OK) {
        live_http_stop(h);
        return st;
    }
    if (pipe(h->wake) != 0 || set_nonblock(h->wake[1]) != 0 ||
        fcntl(h->wake[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(h->wake[1], F_SETFD, FD_CLOEXEC) != 0) {
        st = ev_error_set(err, EV_ERR_IO, "cannot make a pipe: %s", strerror(errno));
        live_http_stop(h);
        return st;
    }
    /* the thread takes no signal: Ctrl-C must interrupt the reading
     * thread's wait */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&h->thread, NULL, serve, h);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        st = ev_error_set(err, EV_ERR_NOMEM, "cannot start a thread: %s", strerror(rc));
        live_http_stop(h);
        return st;
    }
    h->started = 1;
    *out = h;
    return EV_OK;
}

const char *live_http_address(const live_http *h)
{
    return h->address;
}

int live_http_publish(live_http *h, char *buf, size_t len)
{
    body *b = malloc(sizeof *b);
    if (!b) {
        free(buf);
        return -1;
    }
    b->refs = 1;
    b->len = len;
    b->data = buf;
    pthread_mutex_lock(&h->mu);
    body *old = h->current;
    h->current = b;
    pthread_mutex_unlock(&h->mu);
    body_unref(h, old);
    return 0;
}

void live_http_get_stats(live_http *h, live_http_stats *st)
{
    pthread_mutex_lock(&h->mu);
    *st = h->st;
    pthread_mutex_unlock(&h->mu);
}
