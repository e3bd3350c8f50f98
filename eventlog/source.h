/* Sources of a log's bytes behind one small interface, and the one read
 * loop that feeds a decoder from any of them (private to the library).
 *
 * A source hands out chunks of bytes (`read`), says when it has none yet
 * but may have more (a pipe, a followed file, a socket: `wait` then read
 * again), and is closed once. The sources:
 *
 *   file      a regular file, mapped through a sliding EL_READ_WINDOW
 *             window (no copy, one window resident); a file that shrinks
 *             while it is read poisons the window (SIGBUS handled) and the
 *             read ends with an I/O error naming the byte
 *   range     bytes [start, end) of a file by pread into a 1 MiB buffer
 *             (the parallel read's workers)
 *   stream    a pipe, FIFO, terminal, socket or standard input: read(2)
 *             into a 1 MiB buffer; live (the loop looks at ticks and the
 *             interrupt), it reads only what poll says is there
 *   followed  a regular file still being written (--follow): at its end it
 *             waits (inotify on Linux, a 50 ms poll elsewhere), for a file
 *             that does not exist yet too; shrinking, replacing or removing
 *             it is an error
 *   socket    the eventlog-socket stream of a running program (unix:PATH,
 *             tcp:HOST:PORT); with `wait_connect` a program not listening
 *             yet is waited for, as a followed file that does not exist
 *   memory    a caller's buffer, handed out whole
 *
 * el_pump is the one read loop: read a chunk, feed the decoder, hand each
 * complete event to the caller, and for a live read call the tick on
 * wall time, look at the interrupt flag between events and while waiting
 * (never more than 100 ms without a look) and end a read from which
 * nothing came for the idle timeout. Every reader of the library goes
 * through it: the el_read_* calls, the driver, the parallel read's
 * ranges. */
#ifndef EVPROF_EVENTLOG_SOURCE_H
#define EVPROF_EVENTLOG_SOURCE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "evprof/eventlog.h"

typedef enum el_src_status {
    EL_SRC_DATA,        /* *buf, *len: the next bytes, valid until the next read or close */
    EL_SRC_WAIT,        /* nothing now, more may come: wait, then read again */
    EL_SRC_END,         /* no more bytes */
    EL_SRC_ERROR,       /* s->error says why (an I/O error at s->error.offset) */
} el_src_status;

/* Why a live read gives up waiting (el_source_ops.give_up). */
typedef enum el_src_giveup {
    EL_SRC_IDLE,        /* nothing came for the idle timeout */
    EL_SRC_INTERRUPT,   /* the interrupt flag */
} el_src_giveup;

typedef struct el_source el_source;

typedef struct el_source_ops {
    const char *kind;   /* "file", "range", "stream", "followed file", "socket", "memory" */
    el_src_status (*read)(el_source *s, const uint8_t **buf, size_t *len);
    /* A live source: returns when more may be readable, after at most ms
     * milliseconds. 0, or -1 with the error set. NULL: never WAITs. */
    int (*wait)(el_source *s, int ms);
    /* A live read stops waiting: 0 to end it as a cut log (what came is
     * read), -1 with the error set when that is no log at all (nothing
     * was written, the file never appeared, nothing accepted the
     * connection). NULL: 0. */
    int (*give_up)(el_source *s, el_src_giveup why);
    /* After *poisoned: the error of a read whose last chunk cannot be
     * trusted, at byte `at` (the first event not handed out). */
    void (*poison_error)(el_source *s, uint64_t at);
    void (*close)(el_source *s);        /* frees it */
} el_source_ops;

struct el_source {
    const el_source_ops *ops;
    uint64_t offset;            /* bytes handed out so far */
    uint64_t size;              /* the size when known (a regular file), else 0;
                                   a followed file: the most seen so far */
    int live;                   /* read may WAIT */
    /* non-zero: the last chunk read holds bytes that are not the file's
     * (a mapped file shrank under the window); no event from it is
     * handed out. NULL: never. */
    const volatile sig_atomic_t *poisoned;
    ev_error error;             /* with EL_SRC_ERROR */
    int error_has_facts;        /* the decoder's facts so far stand beside it (a
                                   file that shrank between two windows) */
};

typedef struct el_source_opts {
    int follow;                 /* a regular file: wait at its end (and for it) */
    int live;                   /* streams: read only what poll says is there, so
                                   that the loop can look at ticks and the flag */
    int wait_connect;           /* a socket: wait for a program not listening yet */
    /* called once, after a second of waiting for a connection (may be NULL) */
    void (*on_wait)(void *ctx, const char *addr);
    void *wait_ctx;
} el_source_opts;

/* Each returns the source, or NULL with *err set (EV_ERR_IO or
 * EV_ERR_NOMEM). `path` "-" is standard input. A path that does not exist
 * yet is a followed file with opts->follow, an error otherwise. */
el_source *el_source_open_path(const char *path, const el_source_opts *o, ev_error *err);
/* An open descriptor (kept open by the source): a regular file with
 * follow is followed, anything else read as a stream. */
el_source *el_source_open_fd(int fd, const el_source_opts *o, ev_error *err);
/* "unix:PATH" or "tcp:HOST:PORT" (ev_connect_addr_valid's forms). */
el_source *el_source_open_connect(const char *addr, const el_source_opts *o, ev_error *err);
el_source *el_source_open_mem(const void *buf, size_t len, ev_error *err);
/* Bytes [start, end) of the open file fd (kept open), by pread. */
el_source *el_source_open_range(int fd, uint64_t start, uint64_t end, ev_error *err);
void el_source_close(el_source *s);     /* accepts NULL */

/* 1 when `addr` has a form el_source_open_connect takes. */
int el_source_addr_valid(const char *addr);

/* ---- the read loop ------------------------------------------------------ */

/* The per-event call of el_pump: the event is the loop's own, so a stage
 * may mark it (el_event.outside) before handing it on. Non-zero stops the read. */
typedef int (*el_pump_fn)(void *ctx, el_event *ev, const el_decoder *d);

typedef struct el_pump_opts {
    /* live reads (a source that may WAIT, or ticks or an interrupt asked) */
    double idle_timeout;        /* seconds; > 0: nothing new for this long ends it */
    uint64_t tick_ns;           /* between tick calls; 0: 1 s */
    void (*tick)(void *ctx, uint64_t bytes, uint64_t wall_ns);     /* may be NULL */
    void *tick_ctx;
    const volatile sig_atomic_t *interrupt;     /* may be NULL */
    /* every chunk as it is read (a copy of the stream); may be NULL */
    void (*on_bytes)(void *ctx, const void *buf, size_t len);
    void *bytes_ctx;
    /* bytes read before the source's (an earlier read's after_end), fed
     * first, as if the source had given them; may be NULL */
    const uint8_t *prefix;
    size_t prefix_len;
} el_pump_opts;

/* How a read ended, beyond its el_read_result. */
typedef struct el_pump_end {
    /* A live read that stopped at the end marker: the bytes that came
     * after it in the same chunk (another eventlog's start, on a FIFO that
     * several programs write one after the other), malloc'd, the caller's
     * to free; NULL, 0 when none. */
    uint8_t *after_end;
    size_t after_end_len;
    int stopped;                /* the callback asked to stop (status EV_STOPPED) */
    int interrupted;            /* the interrupt flag stopped it: results so far */
    int idle_timed_out;         /* nothing came for the idle timeout */
    uint64_t wall_ns;           /* wall time of the read */
} el_pump_end;

/* Reads `src` to its end through `dec`, handing every event to fn; fills
 * *r (status, error, bytes, events, damage, time span, capabilities) and
 * *end. The status is EV_END, EV_OK (no end marker: a warning), EV_STOPPED
 * (fn asked), or the first error; every event before an error has been
 * handed out. An interrupted read ends as one cut there (the decoder's
 * finish). opts may be NULL. */
void el_pump(el_source *src, el_decoder *dec, const el_pump_opts *opts, el_pump_fn fn,
             void *ctx, el_read_result *r, el_pump_end *end);

/* A decoder set up as the el_read_* options say; NULL when out of memory. */
el_decoder *el_decoder_create_opts(const el_read_opts *opts);

#endif
