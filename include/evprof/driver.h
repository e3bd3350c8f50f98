/* evprof: one read of a log, every analysis fed from it.
 *
 * An analysis is a small object behind one ops table: events in
 * (`event`), the log's end (`end`), its current result out at any moment
 * (`snapshot`, which never changes the aggregate, so reading goes on
 * after it). The driver reads a source once (a file, standard input, a
 * buffer) and hands each attached analysis the events of the types it
 * asked for. It owns what every command needs once: which types to
 * decode, the time-ordered merge of the per-capability blocks for the
 * analyses that need time order, progress, and the facts about damage
 * (ev_stream) that every command reports the same way.
 *
 *     ev_driver *d = ev_driver_create(NULL);
 *     prof_profile *p = prof_create(NULL);
 *     gc_summary *g = gc_create(NULL);
 *     ev_driver_attach(d, &prof_analysis_ops, p);
 *     ev_driver_attach(d, &gc_analysis_ops, g);
 *     const ev_stream *s = ev_driver_run_path(d, "prog.eventlog");
 *     prof_result *r = prof_snapshot(p);      // the typed snapshot
 *     ...
 *     prof_result_destroy(r);
 *     ev_driver_destroy(d);                   // analyses are the caller's
 *
 * The pipeline of every read:
 *
 *     source ─► decoder ─► order stage ─► selection stage ─► analyses
 *
 * The source (a mapped file, a pipe, a followed file, a socket, memory)
 * hands out bytes; one read loop feeds them to the decoder, looks at
 * ticks, the interrupt and the idle timeout of a live read; the order
 * stage notes, for the analyses that need time order (EV_ORDERED), where
 * their events are, and replays them in time order after the read; the
 * selection stage marks each event.
 *
 * The selection stage (opts.select, include/evprof/select.h): every event
 * handed to an analysis carries its marks in el_event.outside (EL_OUT_TIME:
 * outside the time windows; EL_OUT_CAP: its capability, a sample's own
 * else its block's, is not the selected one; 0: inside). An analysis with
 * the flag EV_SELECTED gets only the events inside. The others get every
 * event of their types, marked, because what they keep is not a sum of
 * events: the time profile counts the samples left out; a heap census
 * or a ticky batch is in the selection when the event that opens it is;
 * the GC summary's state machines run across a window's edges (a thread
 * runs, a collection goes on) and it measures spans of time and counters
 * inside the windows through the same selection (ev_stream.select:
 * ev_select_overlap, ev_select_slot). So no analysis tests a time window
 * itself, and every one takes several windows.
 *
 * The parallel read (opts.jobs > 1, a regular file): the same pipeline,
 * N times, over ranges of whole blocks, each feeding partials of the
 * analyses (ops fork), merged in file order (ops merge). It is used when
 * every attached analysis merges and none needs time order; otherwise,
 * and whenever the log is irregular (damage, a cut, bytes outside
 * blocks), the read is the sequential one, so results and messages never
 * depend on jobs.
 */
#ifndef EVPROF_DRIVER_H
#define EVPROF_DRIVER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/budget.h"
#include "evprof/eventlog.h"
#include "evprof/export.h"
#include "evprof/select.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the driver knows about the stream, for analyses and front ends.
 * `read` holds the status (EV_END: clean end; EV_OK: no end marker, a
 * warning; an error: the first one, every event before it delivered),
 * bytes and events read, damage skipped and the time span of every event
 * read, delivered or not. */
typedef struct ev_stream {
    const char *path;           /* as given; "-" is standard input; NULL for memory */
    el_read_result read;
    uint64_t total_bytes;       /* the source's size when known, else 0 */
    int stopped;                /* the read was stopped before the end: */
    const char *stopped_by;     /* by this analysis (its name; it knows why), */
    uint64_t stop_offset;       /* at the event of this byte offset (stopped_by), */
    const char *driver_stop;    /* or by the driver itself: why (out of memory) */
    const el_decoder *decoder;  /* the header's event types; NULL before the header */
    /* With an analysis of flag EV_COUNTS, when the read is over (`done`):
     * per type of `decoder` (header order, el_decoder_type_at), the
     * events read and their bytes, every event counted whether an
     * analysis asked for its type or not; the sum of the ranges in a
     * parallel read. NULL otherwise, without a header, and during the
     * read (there el_decoder_tally(decoder) has the counts so far). Valid
     * until the driver is destroyed. */
    const el_type_tally *tally;
    /* With the tally: the capabilities named by the PROF_SAMPLE_COST_CENTRE
     * events (el_decoder_sample_caps: every sample, whether an analysis
     * asked for them or not; the ranges' union in a parallel read). NULL
     * when tally is. */
    const uint8_t *sample_caps;
    /* live sources (eventlog/source.h) */
    int done;                   /* the read is over (set before the analyses' end) */
    int interrupted;            /* the interrupt flag stopped the read: results so far */
    int idle_timed_out;         /* nothing came for idle_timeout (a file that never
                                   appeared, or a source that gave nothing: then
                                   an EV_ERR_IO read) */
    uint64_t wall_ns;           /* wall time since the run started (live runs) */
    uint64_t last_time;         /* the latest event time read so far (ns) */
    /* the parallel read (opts.jobs > 1): the ranges the mergeable analyses
     * were read in, 0 when they were read sequentially (one thread, or a
     * fallback: see parallel_note) */
    unsigned parallel_ranges;
    const char *parallel_note;  /* why the read was not parallel, or NULL */
    /* The read's memory budget (ev_driver_opts.budget; NULL: none).
     * Analyses charge it where their aggregate grows (budget.h); a charge
     * that fails makes their `event` return non-zero, which stops the read. */
    ev_budget *budget;
    /* The read's selection (ev_driver_opts.select; NULL: everything): what
     * the selection stage marks events by, for the analyses that measure
     * spans of time inside it. */
    const ev_select *select;
    /* A live read that stopped at the end marker: the bytes that came after
     * it in the same chunk (the start of another eventlog on a FIFO that
     * programs write one after the other: ev_driver_opts.prefix of the
     * next run). Valid until the driver is destroyed; NULL, 0: none. */
    const uint8_t *after_end;
    size_t after_end_len;
} ev_stream;

/* Flags of an analysis. */
enum {
    EV_ORDERED = 1u << 0,       /* wants events in time order across capabilities
                                   (ties in file order), after the read: the file
                                   is read again by offset, a pipe spooled (in
                                   memory up to 32 MiB, then an unlinked file in
                                   $TMPDIR); memory about 256 KiB per capability
                                   (docs/ARCHITECTURE.md) */
    EV_ALL_EVENTS = 1u << 1,    /* is handed every event; `types` only says which
                                   ones it reads typed fields of */
    EV_COUNTS = 1u << 2,        /* reads the stream's tally (every event counted by
                                   type, without a call per event): the decoder
                                   counts, two additions per event */
    EV_SELECTED = 1u << 3,      /* gets only the events inside the selection (time
                                   and capability); without it every event of its
                                   types, marked (el_event.outside) */
};

typedef struct ev_analysis_ops {
    const char *name;           /* "prof", "gc", ...: for messages */
    const uint16_t *types;      /* the event types it reads (typed fields);
                                   NULL: every event, every field */
    size_t num_types;
    unsigned flags;             /* EV_ORDERED */
    /* One event (a borrowed view, valid during the call). Returns 0, or
     * non-zero to stop the whole read (out of memory, a limit reached):
     * the stream then says stopped and by whom. */
    int (*event)(void *self, const el_event *ev, const ev_stream *s);
    /* The read is over (cleanly or not); may be NULL. */
    void (*end)(void *self, const ev_stream *s);
    /* The current result as a new object (the module's own result type),
     * or NULL when out of memory; the aggregate is unchanged and may take
     * more events. Released with `release`. Both may be NULL. */
    void *(*snapshot)(void *self);
    void (*release)(void *snapshot);
    /* A mergeable analysis (the parallel read, opts.jobs > 1) has all three;
     * one without them is read by the ordinary sequential pass.
     * `fork`: a new, empty partial aggregate with self's options (filter,
     * windows), or NULL. The driver calls it once before the read as a
     * probe (NULL there: this analysis is read sequentially in this run),
     * then on the worker threads, so it may only read self (NULL there:
     * the read is sequential). It feeds each partial the events of one
     * range of whole blocks, in file order, on a worker thread; `event`
     * must touch nothing but the partial (no shared state).
     * `merge`: folds `part` into `self` as if self had read part's events
     * after its own. The driver calls it on the coordinating thread, in
     * file order: range 1's partial into range 0's, then range 2's, ...,
     * and last the sum into the attached analysis (which has read nothing
     * in a parallel read). Returns 0, or non-zero (out of memory, a limit
     * on the whole read passed): while partials are merged the attempt is
     * then dropped and the read is sequential; for the last merge the read
     * says stopped by this analysis. A partial whose `event` returned
     * non-zero is never merged (the read is sequential then).
     * `drop`: destroys a partial (merged or not); the driver calls it for
     * every partial it forked. */
    void *(*fork)(void *self);
    int (*merge)(void *self, void *part);
    void (*drop)(void *part);
    /* How it describes itself in a message (the memory limit's): what its
     * aggregate holds, as one phrase ("the time profile holds 12 cost
     * centres, ..."), written into buf (NUL-terminated, cut to size).
     * Returns 1, or 0 when it holds nothing worth a word (no samples, no
     * bands). May be NULL: it says nothing. */
    int (*holds)(const void *self, char *buf, size_t size);
    /* What bounds its memory besides the limit, for the same message
     * ("report --max-depth N bounds the tree ..."), or NULL. */
    const char *bounded_by;
} ev_analysis_ops;

typedef struct ev_driver ev_driver;

/* Called as the read goes on: about every 4 MiB of input and at the end. */
typedef void (*ev_progress_fn)(void *ctx, const ev_stream *s);

/* Raw bytes as they are read (a copy of the stream, e.g. top --save). */
typedef void (*ev_bytes_fn)(void *ctx, const void *buf, size_t len);

typedef struct ev_driver_opts {
    int no_resync;              /* stop at the first damage instead of skipping its block */
    ev_progress_fn progress;    /* may be NULL */
    void *progress_ctx;

    /* Live sources (see "Live sources" below). */
    int follow;                 /* a regular file: at its end wait for more data,
                                   until the end marker (also waits for a missing
                                   or empty file to appear and fill) */
    double idle_timeout;        /* seconds; > 0: a live source from which nothing
                                   has come for this long (a followed file that has
                                   not grown, a FIFO without data or writer, a
                                   quiet socket) ends the read (as a cut log; an
                                   EV_ERR_IO read when nothing came at all) */
    double tick_interval;       /* seconds between on_tick calls; 0: 1 second */
    ev_progress_fn on_tick;     /* live runs: called every tick_interval of wall
                                   time, between events or while waiting, and once
                                   when the read is over; may be NULL */
    void *tick_ctx;
    /* When *interrupt becomes non-zero (a SIGINT handler sets it), a live
     * read stops between two events or while waiting: the stream says
     * `interrupted`, every event before it was delivered. May be NULL. */
    const volatile sig_atomic_t *interrupt;
    ev_bytes_fn on_bytes;       /* may be NULL */
    void *bytes_ctx;
    /* Bytes to read before the source's, as if it had given them first
     * (another run's ev_stream.after_end); borrowed for the run. */
    const void *prefix;
    size_t prefix_len;
    /* ev_driver_run_connect with `follow` on an address nothing accepts on
     * yet (a Unix socket not made yet, a port nobody listens on) waits, as
     * for a followed file that does not exist yet, until idle_timeout or
     * the interrupt (the CLI's --connect always follows); after a second
     * of it, this is called once with the address. May be NULL. */
    void (*on_wait)(void *ctx, const char *addr);
    void *wait_ctx;

    /* The parallel read (driver/parallel.c, docs/ARCHITECTURE.md): with
     * jobs > 1 a regular file (not live, no on_bytes) is indexed by its
     * block markers and read as ranges of whole blocks on up to `jobs`
     * threads, each range through its own pipeline into partials of the
     * analyses, merged in file order. Only when every analysis merges
     * (fork/merge/drop) and none reads in time order; anything irregular
     * (damage, a cut or missing end, bytes outside blocks) and the read
     * is the sequential one, so results, messages and the stream's facts
     * never depend on jobs. 0 or 1: one thread. */
    unsigned jobs;
    /* The selection the selection stage marks events by (borrowed: it
     * must outlive the run; NULL: everything). */
    const ev_select *select;
    /* The memory budget the analyses charge (borrowed; NULL: no limit):
     * handed to them in ev_stream.budget. */
    ev_budget *budget;
} ev_driver_opts;

EVPROF_API void ev_driver_opts_init(ev_driver_opts *o);

/* NULL opts: the defaults. NULL when out of memory. */
EVPROF_API ev_driver *ev_driver_create(const ev_driver_opts *opts);
EVPROF_API void ev_driver_destroy(ev_driver *d);   /* accepts NULL; never destroys analyses */

#define EV_MAX_ANALYSES 32
/* Attaches an analysis (borrowed: it must outlive the run). Returns 0, or
 * -1 when EV_MAX_ANALYSES are attached already or a run has started. */
EVPROF_API int ev_driver_attach(ev_driver *d, const ev_analysis_ops *ops, void *self);
/* The i-th attached analysis (in the order attached): 0 with *ops and
 * *self set, or -1 when i is not below the number attached. */
EVPROF_API int ev_driver_analysis(const ev_driver *d, unsigned i, const ev_analysis_ops **ops,
                                  void **self);

/* Reads the whole source once and feeds every attached analysis; returns
 * the stream's facts (owned by the driver, valid until it is destroyed).
 * A driver runs once. */
EVPROF_API const ev_stream *ev_driver_run_path(ev_driver *d, const char *path);
EVPROF_API const ev_stream *ev_driver_run_mem(ev_driver *d, const void *buf, size_t len);

/* ---- Live sources ----------------------------------------------------------
 * A live run reads with read(2) as the data comes, delivers each event as
 * soon as its record is complete, calls on_tick on wall time and checks
 * the interrupt flag between events and while waiting (never more than
 * 100 ms without a look). Events are delivered in stream order: per
 * capability block, not in time order across capabilities; an EV_ORDERED
 * analysis is still fed after the read.
 *
 * ev_driver_run_path with opts.follow (or opts.on_tick / opts.interrupt)
 * set reads live: a regular file is followed to its end marker (inotify
 * on Linux, a 50 ms poll elsewhere), a FIFO or a terminal until the
 * writer closes it. */

/* A file descriptor read live until end of file (a pipe, a socket,
 * standard input) or, for a regular file with opts.follow, as above.
 * `name` names it in the stream. The fd stays open. */
EVPROF_API const ev_stream *ev_driver_run_fd(ev_driver *d, int fd, const char *name);

/* Connects to the eventlog stream of a program using the eventlog-socket
 * library (it listens; each client gets the log from a fresh header) and
 * reads it live until the program closes it. `addr` is "unix:PATH" or
 * "tcp:HOST:PORT". Nothing is ever sent. A failed connection is an
 * EV_ERR_IO read status with the reason. */
EVPROF_API const ev_stream *ev_driver_run_connect(ev_driver *d, const char *addr);

/* 1 when `addr` has the form ev_driver_run_connect takes. */
EVPROF_API int ev_connect_addr_valid(const char *addr);

/* Every event read so far, of every type, as `info` counts them: the
 * decoder's tally when an EV_COUNTS analysis is attached (during the read
 * and after it), else the events handed out to the analyses. */
EVPROF_API uint64_t ev_stream_events_read(const ev_stream *s);

/* The facts so far (also during a run, from an analysis or progress). */
EVPROF_API const ev_stream *ev_driver_stream(const ev_driver *d);

/* 1 when the stream is damaged in any way a user must be told of:
 * an error, skipped blocks, or a stop. A missing end marker alone is
 * not damage (a warning). */
EVPROF_API int ev_stream_damaged(const ev_stream *s);

/* ---- what a read found wrong --------------------------------------------- */

/* The facts every output states the same way (driver/facts.c). */
typedef struct ev_facts {
    int damaged;            /* stretches skipped or the read stopped: exit 1 */
    uint64_t blocks, bytes; /* damaged stretches skipped, and their bytes */
    double from_s, to_s;    /* time span of the skipped stretches */
    int stopped;            /* the read stopped at an error ... */
    ev_status stop_status;  /* ... of this status ... */
    uint64_t stop_offset;   /* ... at this byte (TRUNCATED: where the cut event starts) */
    int missing_end;        /* clean end without an end marker (a warning) */
    int end_in_damage;      /* the end marker was the last record of the damaged
                               last block (GHC 9.2+): not missing */
    uint64_t end_offset;    /* how far the log goes: the bytes read */
    int has_time;           /* last_s is valid */
    double last_s;          /* the last event's time (s after the RTS started) */
    uint64_t ipe_len_off;   /* IPE records declared more than a byte off: a note
                               (el_decoder_ipe_len_off), never damage */
} ev_facts;
EVPROF_API void ev_facts_of(const el_read_result *r, ev_facts *f);
/* "complete", "missing_end", "damaged", "truncated", "read_error", ... */
EVPROF_API const char *ev_facts_key(const ev_facts *f);
/* info's line "status:        ..." */
EVPROF_API void ev_facts_status(FILE *out, const ev_facts *f);
/* "skipped N bytes in M damaged blocks (events from A s to B s)" */
EVPROF_API void ev_facts_skipped(FILE *out, const ev_facts *f);
/* A log without its end marker, said the same way by every command and
 * info's status line, from facts that are the same whatever the command
 * reads (bytes and time, never a count of the events it chose):
 * "no end marker: the log stops at byte N, T s after the RTS started (the
 * program did not close its eventlog: ...); every event up to there was
 * read" */
EVPROF_API void ev_facts_missing_end(FILE *out, const ev_facts *f);
/* The note on IPE records declared more than a byte off, said once with
 * their count by every command and `info`: "N IPE event(s) (169) declare
 * ...; no event after them was lost" */
EVPROF_API void ev_facts_ipe_note(FILE *out, const ev_facts *f);

#ifdef __cplusplus
}
#endif
#endif
