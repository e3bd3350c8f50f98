/* evprof: eventlog writer, for tests and the benchmark generator.
 *
 * Writes GHC's eventlog format (see eventlog.h and the encodings spec):
 * a header declaring event types, then events, optionally grouped in
 * block markers, then the data-end marker. It can write what GHC 9.0
 * cannot (ticky events 210-212, old layouts) and, through the unchecked
 * calls, deliberately broken logs.
 *
 *     el_writer *w = el_writer_create_mem();
 *     el_writer_declare_ghc(w, EL_GHC_9_0);
 *     el_writer_begin_block(w, 0, 1000);
 *     el_writer_run_thread(w, 1100, 1);
 *     el_writer_end_block(w, 2000);
 *     if (el_writer_finish(w) == EV_OK) {
 *         size_t len;
 *         const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
 *         ...
 *     }
 *     el_writer_destroy(w);
 *
 * Errors are sticky: the first one is recorded (el_writer_error(),
 * el_writer_error_msg()) and every later call returns it without writing.
 * So a caller may check only the result of el_writer_finish().
 *
 * The header is written by the first call that writes data (an event, a
 * block, raw bytes after a declaration, or finish); declaring a type after
 * that is a usage error.
 */
#ifndef EVPROF_WRITER_H
#define EVPROF_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/eventlog.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- payload builder -------------------------------------------------- */

/* A growable byte buffer with big-endian puts. Zero-initialise it (or
 * el_payload_init), put fields, hand data/len to el_writer_event, free.
 * An allocation failure sets `failed` and makes later puts no-ops;
 * el_writer_event_payload() reports it as EV_ERR_NOMEM. */
typedef struct el_payload {
    uint8_t *data;               /* owned; NULL while empty */
    size_t len;
    size_t cap;
    int failed;                  /* an allocation failed */
} el_payload;

EVPROF_API void el_payload_init(el_payload *p);
EVPROF_API void el_payload_free(el_payload *p);      /* back to the empty state */
EVPROF_API void el_payload_reset(el_payload *p);     /* len = 0, keeps the memory */
EVPROF_API void el_payload_u8(el_payload *p, uint8_t v);
EVPROF_API void el_payload_u16(el_payload *p, uint16_t v);
EVPROF_API void el_payload_u32(el_payload *p, uint32_t v);
EVPROF_API void el_payload_u64(el_payload *p, uint64_t v);
EVPROF_API void el_payload_bytes(el_payload *p, const void *bytes, size_t len);
/* The string's bytes followed by a NUL (GHC's "String" fields). */
EVPROF_API void el_payload_str(el_payload *p, const char *s);
/* The string's bytes without a NUL (RTS identifier, user messages). */
EVPROF_API void el_payload_text(el_payload *p, const char *s);

/* ---- writer ----------------------------------------------------------- */

/* Every writing function returns an ev_status (status.h): EV_OK,
 * EV_ERR_USAGE (a bad call: an undeclared type, a wrong size, ...),
 * EV_ERR_NOMEM, EV_ERR_WRITE (writing the FILE failed). The first error
 * sticks: every later call returns it (el_writer_error, with its message
 * el_writer_error_msg). */

typedef struct el_writer el_writer;

/* Bytes collect in memory, read them with el_writer_borrow_bytes(). */
EVPROF_API el_writer *el_writer_create_mem(void);
/* Bytes go to `out`, which stays the caller's: the writer never closes it.
 * Output is buffered (about 1 MiB, plus any open block) and flushed by
 * el_writer_finish() / el_writer_flush(). */
EVPROF_API el_writer *el_writer_create_file(FILE *out);
EVPROF_API void el_writer_destroy(el_writer *w);     /* accepts NULL; writes nothing */

/* The first error (EV_OK if none) and its message ("" if none). */
EVPROF_API ev_status el_writer_error(const el_writer *w);
EVPROF_API const char *el_writer_error_msg(const el_writer *w);

/* Bytes written so far, including bytes still buffered: the stream offset
 * at which the next record will start. */
EVPROF_API uint64_t el_writer_offset(const el_writer *w);

/* Memory writer: the whole stream so far (an open block included, with
 * its size not yet patched). Valid until the next call on `w`. Returns
 * NULL with *len = 0 for a FILE writer. */
EVPROF_API const uint8_t *el_writer_borrow_bytes(const el_writer *w, size_t *len);

/* ---- header ----------------------------------------------------------- */

#define EL_WRITER_VARIABLE (-1)  /* size of variable-size event types */

/* Declare event type `id` (0..0xfffe) with payload `size` bytes (0..32767)
 * or EL_WRITER_VARIABLE. Declaring an id twice is a usage error. */
EVPROF_API ev_status el_writer_declare_type(el_writer *w, uint16_t id, int32_t size,
                                                   const char *desc);

/* GHC's own header sets: ids, sizes and descriptions as the RTS writes
 * them (taken from real logs in the shared corpus). */
typedef enum el_ghc_types {
    EL_GHC_9_0,      /* GHC 9.0.2: no 90/91/169/208, no ticky; 207 size 13 */
    EL_GHC_9_2,      /* GHC 9.2: adds 90, 91, 169 (IPE), 210-212 (ticky) */
    EL_GHC_9_12,     /* GHC 9.12: adds 42, 208; 207 size 14; newer descriptions */
} el_ghc_types;

/* Declare every type of the set that is not declared yet: declare a
 * nonstandard size first (say GC_STATS size 50) and this fills in the rest. */
EVPROF_API ev_status el_writer_declare_ghc(el_writer *w, el_ghc_types set);

/* Write the header now (otherwise the first data call does). */
EVPROF_API ev_status el_writer_begin_data(el_writer *w);

/* ---- events ----------------------------------------------------------- */

/* One event of declared type `type`: id, time, [u16 length if variable],
 * payload. A fixed-size type needs len == its declared size; a variable
 * one len <= 65535. Anything else is EV_ERR_USAGE. */
EVPROF_API ev_status el_writer_event(el_writer *w, uint16_t type, uint64_t time,
                                            const void *payload, size_t len);
EVPROF_API ev_status el_writer_event_payload(el_writer *w, uint16_t type, uint64_t time,
                                                    const el_payload *p);

/* The same framing without checks, for corrupt logs: the type need not be
 * declared (then it is framed as fixed-size), a fixed type may get any
 * payload length, and a variable type's length field is `len` cut to 16 bits. */
EVPROF_API ev_status el_writer_event_unchecked(el_writer *w, uint16_t type, uint64_t time,
                                                      const void *payload, size_t len);

/* Bytes appended verbatim where the next record would go (inside an open
 * block they count towards its size). Once a type is declared the header
 * is written first, as for an event; with no type declared nothing else
 * is written, so a test can write a whole log by hand. */
EVPROF_API ev_status el_writer_raw(el_writer *w, const void *bytes, size_t len);

/* Block markers. begin writes EVENT_BLOCK_MARKER (18) for capability `cap`
 * (EL_NO_CAP from eventlog.h for the global buffer) with time `time`;
 * end patches its size (marker included, up to the end of the last event,
 * as GHC does) and end time (GHC's is the clock when it closes the block:
 * no event of the block is later; the decoder takes one that is for
 * damage). Blocks do not nest; at most 64 MiB. Type 18
 * must be declared with a size of at least 14, unless the header was
 * written by hand (el_writer_raw), when the 14-byte layout is used. */
EVPROF_API ev_status el_writer_begin_block(el_writer *w, uint16_t cap, uint64_t time);
EVPROF_API ev_status el_writer_end_block(el_writer *w, uint64_t end_time);

/* Ends an open block (end time = the latest time in it, of its marker or
 * its events: a reader takes an event past its block's end time for
 * damage), writes the header if
 * none was written, the data-end marker 0xffff, and flushes. A FILE
 * writer also checks fflush/ferror; the caller still closes the FILE. */
EVPROF_API ev_status el_writer_finish(el_writer *w);
/* The same without the end marker: a log whose program never shut down. */
EVPROF_API ev_status el_writer_finish_no_end(el_writer *w);
/* FILE writer: write out the buffered bytes before any open block and
 * fflush. A memory writer has nothing to do. */
EVPROF_API ev_status el_writer_flush(el_writer *w);

/* An event read from another log (its type declared here with the same
 * size), written with the numbers of its run moved (el_event_numbers'
 * kinds): fn(ctx, kind, value) gives each one's new value. The record's
 * other bytes are copied, trailing ones a newer GHC appended included.
 * What `evprof merge` writes. */
typedef uint32_t (*el_move_fn)(void *ctx, el_num_kind kind, uint32_t value);
EVPROF_API ev_status el_writer_event_moved(el_writer *w, const el_event *ev, el_move_fn fn,
                                          void *ctx);

/* ---- typed events ------------------------------------------------------
 * Each builds the current GHC layout. For a fixed-size type the payload is
 * then fitted to the size the header declares: cut (older GHC: STOP_THREAD
 * 6 drops the blocker, GC_STATS 50 drops balanced-copied) or zero-padded
 * (newer GHC appended fields). The type must be declared. Strings are
 * NUL-terminated C strings; build a payload by hand for bytes that are not. */

EVPROF_API ev_status el_writer_create_thread(el_writer *w, uint64_t time, uint32_t thread);
EVPROF_API ev_status el_writer_run_thread(el_writer *w, uint64_t time, uint32_t thread);
EVPROF_API ev_status el_writer_stop_thread(el_writer *w, uint64_t time, uint32_t thread,
                                                  uint16_t status, uint32_t blocked_on);
EVPROF_API ev_status el_writer_thread_runnable(el_writer *w, uint64_t time, uint32_t thread);
EVPROF_API ev_status el_writer_gc_start(el_writer *w, uint64_t time);   /* 9 */
EVPROF_API ev_status el_writer_gc_end(el_writer *w, uint64_t time);     /* 10 */
/* Any event without payload (GC_IDLE, SPARK_RUN, TICKY_BEGIN_SAMPLE, ...). */
EVPROF_API ev_status el_writer_empty(el_writer *w, uint16_t type, uint64_t time);

EVPROF_API ev_status el_writer_log_msg(el_writer *w, uint64_t time,
                                              const char *msg);   /* 16 */
EVPROF_API ev_status el_writer_user_msg(el_writer *w, uint64_t time,
                                               const char *msg);  /* 19 */

EVPROF_API ev_status el_writer_capset_create(el_writer *w, uint64_t time, uint32_t capset,
                                                    uint16_t capset_type);             /* 25 */
EVPROF_API ev_status el_writer_capset_delete(el_writer *w, uint64_t time, uint32_t capset);
EVPROF_API ev_status el_writer_capset_assign_cap(el_writer *w, uint64_t time,
                                                        uint32_t capset,
                                                        uint16_t cap);                 /* 27 */
EVPROF_API ev_status el_writer_capset_remove_cap(el_writer *w, uint64_t time,
                                                        uint32_t capset,
                                                        uint16_t cap);                 /* 28 */
/* 29: capset, then the identifier bytes without a NUL (as GHC writes it). */
EVPROF_API ev_status el_writer_rts_identifier(el_writer *w, uint64_t time, uint32_t capset,
                                                     const char *ident);
/* 30: capset, then every argument NUL-terminated. */
EVPROF_API ev_status el_writer_program_args(el_writer *w, uint64_t time, uint32_t capset,
                                                   int argc, const char *const *argv);
EVPROF_API ev_status el_writer_os_pid(el_writer *w, uint64_t time, uint32_t capset,
                                             uint32_t pid);                            /* 32 */
EVPROF_API ev_status el_writer_os_ppid(el_writer *w, uint64_t time, uint32_t capset,
                                              uint32_t ppid);                          /* 33 */
EVPROF_API ev_status el_writer_wall_clock(el_writer *w, uint64_t time, uint32_t capset,
                                                 uint64_t sec, uint32_t nsec);         /* 43 */
EVPROF_API ev_status el_writer_cap_create(el_writer *w, uint64_t time,
                                                 uint16_t cap);  /* 45 */
EVPROF_API ev_status el_writer_cap_delete(el_writer *w, uint64_t time,
                                                 uint16_t cap);  /* 46 */

/* 34: created, dud, overflowed, converted, gcd, fizzled, remaining. */
EVPROF_API ev_status el_writer_spark_counters(el_writer *w, uint64_t time,
                                                     const uint64_t counters[7]);
EVPROF_API ev_status el_writer_heap_allocated(el_writer *w, uint64_t time, uint32_t capset,
                                                     uint64_t bytes);                  /* 49 */
EVPROF_API ev_status el_writer_heap_size(el_writer *w, uint64_t time, uint32_t capset,
                                                uint64_t bytes);                       /* 50 */
EVPROF_API ev_status el_writer_heap_live(el_writer *w, uint64_t time, uint32_t capset,
                                                uint64_t bytes);                       /* 51 */
EVPROF_API ev_status el_writer_heap_info(el_writer *w, uint64_t time, uint32_t capset,
                                                uint16_t gens, uint64_t max_heap_size,
                                                uint64_t alloc_area_size, uint64_t mblock_size,
                                                uint64_t block_size);                  /* 52 */

typedef struct el_gc_stats_fields {
    uint32_t capset;
    uint16_t gen;
    uint64_t copied, slop, frag;
    uint32_t par_n_threads;
    uint64_t par_max_copied, par_tot_copied, par_balanced_copied;
} el_gc_stats_fields;
EVPROF_API ev_status el_writer_gc_stats(el_writer *w, uint64_t time,
                                               const el_gc_stats_fields *s);          /* 53 */

/* 160: the seven filters (module, closure descr, type descr, cc, ccs,
 * retainer, bio) may be NULL for "all empty". */
EVPROF_API ev_status el_writer_heap_prof_begin(el_writer *w, uint64_t time, uint8_t profile,
                                                      uint64_t period_ns, uint32_t breakdown,
                                                      const char *const filters[7]);
/* 161: flags bit 0 = CAF. */
EVPROF_API ev_status el_writer_cost_centre(el_writer *w, uint64_t time, uint32_t id,
                                                  const char *label, const char *module,
                                                  const char *srcloc, uint8_t flags);
EVPROF_API ev_status el_writer_heap_sample_begin(el_writer *w, uint64_t time,
                                                        uint64_t era);                 /* 162 */
EVPROF_API ev_status el_writer_heap_sample_end(el_writer *w, uint64_t time,
                                                      uint64_t era);                   /* 165 */
/* 163: stack innermost first, `depth` entries. */
EVPROF_API ev_status el_writer_heap_sample_cc(el_writer *w, uint64_t time, uint8_t profile,
                                                     uint64_t residency, uint8_t depth,
                                                     const uint32_t *stack);
EVPROF_API ev_status el_writer_heap_sample_string(el_writer *w, uint64_t time,
                                                         uint8_t profile, uint64_t residency,
                                                         const char *label);           /* 164 */
EVPROF_API ev_status el_writer_bio_sample_begin(el_writer *w, uint64_t time, uint64_t era,
                                                       uint64_t sample_time);          /* 166 */
/* 167: stack innermost first, `depth` entries. */
EVPROF_API ev_status el_writer_prof_sample(el_writer *w, uint64_t time, uint32_t cap,
                                                  uint64_t ticks, uint8_t depth,
                                                  const uint32_t *stack);
EVPROF_API ev_status el_writer_prof_begin(el_writer *w, uint64_t time,
                                                 uint64_t interval_ns);                /* 168 */

/* 169: an IPE entry, the info word and six NUL-terminated strings (NULL
 * writes ""). GHC declares a payload length that is not what it writes
 * (GHC #24287): `declared_delta` is added to the true length in the
 * record's length field: +1 as GHC 9.6.6 writes it, -1 as some earlier
 * releases, 0 right. A length that would leave 0..65535 is
 * EV_ERR_USAGE. */
typedef struct el_ipe_fields {
    uint64_t info;
    const char *table_name, *closure_desc, *ty_desc, *label, *module, *srcloc;
} el_ipe_fields;
EVPROF_API ev_status el_writer_ipe(el_writer *w, uint64_t time, const el_ipe_fields *f,
                                          int declared_delta);

/* 210 comes in three layouts, as GHC versions wrote it. */
typedef enum el_ticky_def_layout {
    EL_TICKY_DEF_BASIC,          /* id, arity, kinds, name */
    EL_TICKY_DEF_INFO_TBL,       /* ... then u64 info table address */
    EL_TICKY_DEF_JSON,           /* ... then the JSON string */
} el_ticky_def_layout;
EVPROF_API ev_status el_writer_ticky_def(el_writer *w, uint64_t time,
                                                el_ticky_def_layout layout,
                                                uint64_t id, uint16_t arity, const char *kinds,
                                                const char *name, uint64_t info_tbl,
                                                const char *json);
EVPROF_API ev_status el_writer_ticky_sample(el_writer *w, uint64_t time, uint64_t id,
                                                   uint64_t entries, uint64_t allocs,
                                                   uint64_t allocd);                   /* 211 */
EVPROF_API ev_status el_writer_ticky_begin(el_writer *w, uint64_t time);        /* 212 */

#ifdef __cplusplus
}
#endif
#endif
