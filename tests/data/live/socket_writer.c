/* An eventlog writer that serves the log on a socket, for evprof's test of
 * `--connect` on a real GHC program (tests/cli/live_socket_ghc.sh). It plays
 * the part of well-typed's eventlog-socket (GHC 9.2 and later) with the RTS
 * interface GHC 9.0 already has (rts/EventLogWriter.h), in the library's
 * "C main, wait for a client" mode: main() gives the RTS this writer in its
 * RtsConfig; with +RTS -l the RTS starts it during hs_init, and its init
 * listens on $EVSOCK_UNIX (a Unix socket path) or on 127.0.0.1 port
 * $EVSOCK_TCP and waits for one client. Then the RTS writes the header, its
 * init events, every buffer that fills, and at exit the rest and the end
 * marker: the client gets the whole log. $EVSOCK_COPY, when set, names a
 * file that gets every byte sent as well (the test compares it with what
 * evprof read). $EVSOCK_TIMES, when set, names a file that gets a line per
 * write, "SECONDS BYTES": the CLOCK_MONOTONIC time of the write and the bytes
 * sent so far with it (bench/live_measure.py ghc-delay). Nothing is read
 * from the client.
 *
 * Why not startEventLogging when a client connects, as eventlog-socket does
 * on 9.2+: on GHC 9.0.2 a log started after the RTS has run is not a valid
 * log. After endEventLogging (of the -l file writer) the RTS's global buffer
 * keeps a block marker, so the stream starts with 24 bytes before "hdrb";
 * started without -l's writer, the init events posted meanwhile come before
 * the header; and neither repeats the cost-centre definitions, the RTS
 * identifier or the program's arguments.
 *
 * Link with a Haskell program: ghc -prof -threaded -no-hs-main Main.hs
 * socket_writer.c; run it with +RTS -l. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "Rts.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int client = -1;
static FILE *copy, *times;
static unsigned long long sent;

static bool write_all(void *buf, size_t size)
{
    const char *p = buf;
    bool ok = true;

    pthread_mutex_lock(&lock);
    if (times) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sent += size;
        fprintf(times, "%lld.%09ld %llu\n", (long long)ts.tv_sec, ts.tv_nsec, sent);
        fflush(times);
    }
    while (ok && size > 0) {
        ssize_t n = send(client, p, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ok = false;         /* the client went away: the RTS drops the rest */
            break;
        }
        /* the copy gets what was sent, flushed at once: if the program
           dies, it still holds every byte the client got */
        if (copy && (fwrite(p, 1, (size_t)n, copy) != (size_t)n || fflush(copy) != 0))
            ok = false;
        p += n;
        size -= (size_t)n;
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

static void flush_copy(void)
{
    pthread_mutex_lock(&lock);
    if (copy)
        fflush(copy);
    pthread_mutex_unlock(&lock);
}

static void stop(void)
{
    pthread_mutex_lock(&lock);
    if (copy)
        fclose(copy);
    if (times)
        fclose(times);
    copy = times = NULL;
    if (client >= 0)
        close(client);
    client = -1;
    pthread_mutex_unlock(&lock);
}

static void serve(void);

static const EventLogWriter socket_writer = {
    .initEventLogWriter = serve,
    .writeEventLog = write_all,
    .flushEventLog = flush_copy,
    .stopEventLogWriter = stop,
};

/* A listening socket from the environment, or -1 (said on stderr). */
static int listen_env(void)
{
    const char *path = getenv("EVSOCK_UNIX"), *port = getenv("EVSOCK_TCP");
    int fd;

    if (path) {
        struct sockaddr_un sa;
        memset(&sa, 0, sizeof sa);
        sa.sun_family = AF_UNIX;
        if (strlen(path) >= sizeof sa.sun_path) {
            fprintf(stderr, "evsock: %s: path too long\n", path);
            return -1;
        }
        strcpy(sa.sun_path, path);
        unlink(path);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1) != 0) {
            fprintf(stderr, "evsock: %s: %s\n", path, strerror(errno));
            return -1;
        }
        return fd;
    }
    if (port) {
        struct sockaddr_in sa;
        int one = 1;
        memset(&sa, 0, sizeof sa);
        sa.sin_family = AF_INET;
        sa.sin_port = htons((unsigned short)atoi(port));
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0)
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1) != 0) {
            fprintf(stderr, "evsock: 127.0.0.1:%s: %s\n", port, strerror(errno));
            return -1;
        }
        return fd;
    }
    fprintf(stderr, "evsock: set EVSOCK_UNIX or EVSOCK_TCP\n");
    return -1;
}

/* The writer's init: waits for a client. Without one the program stops. */
static void serve(void)
{
    int lfd = listen_env();
    if (lfd < 0)
        exit(3);
    int fd;
    while ((fd = accept(lfd, NULL, NULL)) < 0 && errno == EINTR)
        ;
    int e = errno;
    close(lfd);
    if (getenv("EVSOCK_UNIX"))
        unlink(getenv("EVSOCK_UNIX"));
    if (fd < 0) {
        fprintf(stderr, "evsock: accept: %s\n", strerror(e));
        exit(3);
    }
    const char *copy_path = getenv("EVSOCK_COPY");
    if (copy_path && !(copy = fopen(copy_path, "wb"))) {
        fprintf(stderr, "evsock: %s: %s\n", copy_path, strerror(errno));
        exit(3);
    }
    const char *times_path = getenv("EVSOCK_TIMES");
    if (times_path && !(times = fopen(times_path, "w"))) {
        fprintf(stderr, "evsock: %s: %s\n", times_path, strerror(errno));
        exit(3);
    }
    client = fd;
}

extern StgClosure ZCMain_main_closure;

int main(int argc, char *argv[])
{
    RtsConfig conf = defaultRtsConfig;
    conf.rts_opts_enabled = RtsOptsAll;
    conf.eventlog_writer = &socket_writer;
    return hs_main(argc, argv, &ZCMain_main_closure, conf);
}
