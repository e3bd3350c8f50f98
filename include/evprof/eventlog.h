/* evprof: streaming reader for GHC eventlogs.
 *
 * The decoder never touches files. The caller feeds it byte chunks of any
 * size (one byte at a time works) and pulls decoded events:
 *
 *     el_decoder *d = el_decoder_create();
 *     while ((n = read(fd, buf, sizeof buf)) > 0) {
 *         el_decoder_feed(d, buf, n);
 *         el_event ev;
 *         ev_status st;
 *         while ((st = el_decoder_next(d, &ev)) == EV_OK)
 *             consume(&ev);
 *         if (st != EV_NEED_INPUT && st != EV_END)
 *             break;               // an error
 *     }
 *     el_decoder_finish(d);        // at end of input: END, or TRUNCATED
 *     el_decoder_destroy(d);
 *
 * Everything an event points to (strings, payload bytes, the stack array)
 * is borrowed: valid until the next el_decoder_feed() or el_decoder_next()
 * call on the same decoder. Copy what must outlive that.
 */
#ifndef EVPROF_EVENTLOG_H
#define EVPROF_EVENTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ----------------------------------------------------------- */

/* The reader's statuses are the library's one set (status.h): EV_OK (an
 * event was produced), EV_NEED_INPUT (all fed bytes consumed; feed more
 * or finish), EV_END (the data-end marker was read: the normal end),
 * EV_STOPPED (el_read_*: the callback asked to stop; every event before
 * was delivered), EV_ERR_TRUNCATED (the input ended inside the header or
 * an event), EV_ERR_FORMAT (the bytes are not a valid eventlog),
 * EV_ERR_NOMEM, EV_ERR_IO (reading the input failed). Their detail is an
 * ev_error (offset, event type, message). */

/* ---- event type ids --------------------------------------------------- */

enum {
    EL_CREATE_THREAD = 0,
    EL_RUN_THREAD = 1,
    EL_STOP_THREAD = 2,
    EL_THREAD_RUNNABLE = 3,
    EL_MIGRATE_THREAD = 4,
    EL_RUN_SPARK = 5,            /* old GHC */
    EL_STEAL_SPARK = 6,          /* old GHC */
    EL_SHUTDOWN = 7,             /* old GHC */
    EL_THREAD_WAKEUP = 8,
    EL_GC_START = 9,
    EL_GC_END = 10,
    EL_REQUEST_SEQ_GC = 11,
    EL_REQUEST_PAR_GC = 12,
    EL_CREATE_SPARK = 13,        /* old GHC */
    EL_SPARK_TO_THREAD = 14,     /* old GHC */
    EL_CREATE_SPARK_THREAD = 15,
    EL_LOG_MSG = 16,
    EL_STARTUP = 17,             /* old GHC */
    EL_BLOCK_MARKER = 18,
    EL_USER_MSG = 19,
    EL_GC_IDLE = 20,
    EL_GC_WORK = 21,
    EL_GC_DONE = 22,
    EL_VERSION = 23,             /* Eden/parallel RTS */
    EL_PROGRAM_INVOCATION = 24,  /* Eden/parallel RTS */
    EL_CAPSET_CREATE = 25,
    EL_CAPSET_DELETE = 26,
    EL_CAPSET_ASSIGN_CAP = 27,
    EL_CAPSET_REMOVE_CAP = 28,
    EL_RTS_IDENTIFIER = 29,
    EL_PROGRAM_ARGS = 30,
    EL_PROGRAM_ENV = 31,
    EL_OSPROCESS_PID = 32,
    EL_OSPROCESS_PPID = 33,
    EL_SPARK_COUNTERS = 34,
    EL_SPARK_CREATE = 35,
    EL_SPARK_DUD = 36,
    EL_SPARK_OVERFLOW = 37,
    EL_SPARK_RUN = 38,
    EL_SPARK_STEAL = 39,
    EL_SPARK_FIZZLE = 40,
    EL_SPARK_GC = 41,
    EL_INTERN_STRING = 42,
    EL_WALL_CLOCK_TIME = 43,
    EL_THREAD_LABEL = 44,
    EL_CAP_CREATE = 45,
    EL_CAP_DELETE = 46,
    EL_CAP_DISABLE = 47,
    EL_CAP_ENABLE = 48,
    EL_HEAP_ALLOCATED = 49,
    EL_HEAP_SIZE = 50,
    EL_HEAP_LIVE = 51,
    EL_HEAP_INFO_GHC = 52,
    EL_GC_STATS_GHC = 53,
    EL_GC_GLOBAL_SYNC = 54,
    EL_TASK_CREATE = 55,
    EL_TASK_MIGRATE = 56,
    EL_TASK_DELETE = 57,
    EL_USER_MARKER = 58,
    EL_HACK_BUG_T9003 = 59,
    EL_EDEN_START_RECEIVE = 60,
    EL_EDEN_END_RECEIVE = 61,
    EL_CREATE_PROCESS = 62,
    EL_KILL_PROCESS = 63,
    EL_ASSIGN_THREAD_TO_PROCESS = 64,
    EL_CREATE_MACHINE = 65,
    EL_KILL_MACHINE = 66,
    EL_SEND_MESSAGE = 67,
    EL_RECEIVE_MESSAGE = 68,
    EL_SEND_RECEIVE_LOCAL_MESSAGE = 69,
    EL_MEM_RETURN = 90,
    EL_BLOCKS_SIZE = 91,
    EL_MER_START_PAR_CONJUNCTION = 100,
    EL_MER_STOP_PAR_CONJUNCTION = 101,
    EL_MER_STOP_PAR_CONJUNCT = 102,
    EL_MER_CREATE_SPARK = 103,
    EL_MER_FUT_CREATE = 104,
    EL_MER_FUT_WAIT_NOSUSPEND = 105,
    EL_MER_FUT_WAIT_SUSPENDED = 106,
    EL_MER_FUT_SIGNAL = 107,
    EL_MER_LOOKING_FOR_GLOBAL_CONTEXT = 108,
    EL_MER_WORK_STEALING = 109,
    EL_MER_RELEASE_CONTEXT = 110,
    EL_MER_ENGINE_SLEEPING = 111,
    EL_MER_LOOKING_FOR_LOCAL_SPARK = 112,
    EL_MER_CALLING_MAIN = 113,
    EL_PERF_NAME = 140,
    EL_PERF_COUNTER = 141,
    EL_PERF_TRACEPOINT = 142,
    EL_HEAP_PROF_BEGIN = 160,
    EL_HEAP_PROF_COST_CENTRE = 161,
    EL_HEAP_PROF_SAMPLE_BEGIN = 162,
    EL_HEAP_PROF_SAMPLE_COST_CENTRE = 163,
    EL_HEAP_PROF_SAMPLE_STRING = 164,
    EL_HEAP_PROF_SAMPLE_END = 165,
    EL_HEAP_BIO_PROF_SAMPLE_BEGIN = 166,
    EL_PROF_SAMPLE_COST_CENTRE = 167,
    EL_PROF_BEGIN = 168,
    EL_IPE = 169,
    EL_USER_BINARY_MSG = 181,
    EL_CONC_MARK_BEGIN = 200,
    EL_CONC_MARK_END = 201,
    EL_CONC_SYNC_BEGIN = 202,
    EL_CONC_SYNC_END = 203,
    EL_CONC_SWEEP_BEGIN = 204,
    EL_CONC_SWEEP_END = 205,
    EL_CONC_UPD_REM_SET_FLUSH = 206,
    EL_NONMOVING_HEAP_CENSUS = 207,
    EL_NONMOVING_PRUNED_SEGMENTS = 208,
    EL_TICKY_COUNTER_DEF = 210,
    EL_TICKY_COUNTER_SAMPLE = 211,
    EL_TICKY_BEGIN_SAMPLE = 212,
    EL_NUM_TYPE_IDS = 213,       /* ids below this have a name in el_type_name */
};

#define EL_NO_CAP 0xffffu        /* event outside any capability block */
#define EL_VARIABLE_SIZE (-1)    /* el_event_type.size of variable events */
#define EL_MAX_STACK 255         /* stack depth is a u8 */

/* evprof's own short name of a type id ("PROF_SAMPLE_COST_CENTRE"), or
 * NULL when evprof does not know the id. */
EVPROF_API const char *el_type_name(uint16_t type);

/* ---- header ----------------------------------------------------------- */

typedef struct el_str {           /* bytes, not NUL-terminated, maybe not UTF-8 */
    const char *ptr;
    uint32_t len;
} el_str;

typedef struct el_event_type {
    uint16_t id;
    int32_t size;                 /* payload bytes, or EL_VARIABLE_SIZE */
    el_str desc;                  /* owned by the decoder; valid until destroy */
} el_event_type;

/* ---- decoded event ---------------------------------------------------- */

enum { EL_OUT_TIME = 1u, EL_OUT_CAP = 2u };

typedef struct el_event {
    uint16_t type;                /* type id as in the log */
    uint16_t cap;                 /* capability of the enclosing block, or EL_NO_CAP */
    uint64_t time;                /* timestamp, ns since the RTS started */
    uint64_t offset;              /* byte offset of the event in the stream */
    uint32_t size;                /* whole record: id, time, [length], payload */
    const el_event_type *et;      /* the header's descriptor for this type */
    const uint8_t *record;        /* the whole record as stored: size bytes */
    const uint8_t *payload;       /* raw payload (after the length field) */
    uint32_t payload_len;
    /* decoded: 1 when the typed fields below are valid for this type, 0
     * for a type evprof does not know (skipped by its size; consumers
     * ignore it). A known type whose payload is shorter than the oldest
     * layout evprof knows is not delivered: el_decoder_next() returns
     * EV_ERR_FORMAT naming its offset and type. Older, shorter layouts
     * that GHC really wrote (STOP_THREAD without the blocker, GC_STATS
     * without the balanced field, the 13-byte census, the first ticky
     * definition layout) decode, with has_* flags saying what was there. */
    uint8_t decoded;
    /* Where the event is outside the read's selection (the driver's
     * selection stage, driver.h): EL_OUT_TIME when its time is outside the
     * selected windows, EL_OUT_CAP when its capability is not the selected
     * one (a sample's own capability, else its block's). 0: inside; the
     * decoder sets 0 (without a selection everything is inside). */
    uint8_t outside;
    union {
        struct { uint32_t thread; } thread;           /* 0,1,3,5,15,CREATE_SPARK_THREAD */
        struct {
            uint32_t thread;
            uint16_t status;
            uint32_t blocker;                         /* 0 when the log has no field */
            uint8_t has_blocker;
        } stop_thread;                                /* 2 */
        struct { uint32_t thread; uint16_t cap; } thread_cap;  /* 4 migrate, 8 wakeup, 6 steal spark */
        struct { uint16_t n_caps; } startup;          /* 17 */
        struct { uint16_t cap; } cap;                 /* 39, 45-48, 206 */
        struct { uint32_t size; uint64_t end_time; uint16_t cap; } block;  /* 18 */
        struct {
            uint32_t capset;                          /* 0 for types without a capset */
            uint32_t thread;                          /* THREAD_LABEL only */
            el_str str;                               /* the text; for args/env the
                                                         NUL-separated list as stored */
        } text;  /* 16,19,23,24,29,30,31,44,58,181 (binary bytes), 42 */
        struct { uint32_t capset; uint16_t type; } capset_create; /* 25 */
        struct { uint32_t capset; uint16_t cap; } capset_cap;     /* 26 (cap=0), 27, 28 */
        struct { uint32_t capset; uint32_t pid; } pid;            /* 32, 33 */
        struct { uint32_t capset; uint64_t sec; uint32_t nsec; } wall_clock; /* 43 */
        struct {
            uint64_t created, dud, overflowed, converted, gcd, fizzled, remaining;
        } spark_counters;                                         /* 34 */
        struct { uint32_t capset; uint64_t bytes; } heap;         /* 49,50,51,91 */
        struct {
            uint32_t capset;
            uint16_t gens;
            uint64_t max_heap_size, alloc_area_size, mblock_size, block_size;
        } heap_info;                                              /* 52 */
        struct {
            uint32_t capset;
            uint16_t gen;
            uint64_t copied, slop, frag;
            uint32_t par_n_threads;
            uint64_t par_max_copied, par_tot_copied, par_balanced_copied;
            uint8_t has_balanced;
        } gc_stats;                                               /* 53 */
        struct { uint64_t task; uint16_t cap; uint16_t new_cap; uint64_t tid; } task; /* 55-57 */
        struct { uint32_t capset; uint32_t current, needed, returned; } mem_return; /* 90 */
        struct { uint32_t marked; } conc_mark_end;                /* 201 */
        struct {
            uint32_t blk_size;                                    /* bytes (decoded if log2) */
            uint8_t log_encoded;                                  /* 13-byte layout */
            uint32_t active_segs, filled_segs, live_blocks;
        } nonmoving_census;                                       /* 207 */
        struct { uint32_t pruned, free; } nonmoving_pruned;       /* 208 */
        struct {
            uint8_t id;
            uint64_t period;
            uint32_t breakdown;
            el_str filter[7];   /* module, closure descr, type descr, cc, ccs, retainer, bio */
        } heap_prof_begin;                                        /* 160 */
        struct {
            uint32_t id;
            el_str label, module, srcloc;
            uint8_t flags;                                        /* bit 0: CAF */
        } cost_centre;                                            /* 161 */
        struct { uint64_t era; uint64_t time; } heap_sample;      /* 162, 165, 166 (time) */
        struct {
            uint8_t id;
            uint64_t residency;
            el_str label;                                         /* 164 */
            uint8_t depth;                                        /* 163 */
            const uint32_t *stack;                                /* 163: innermost first */
        } heap_sample_data;                                       /* 163, 164 */
        struct {
            uint32_t cap;
            uint64_t ticks;
            uint8_t depth;
            const uint32_t *stack;                                /* innermost first, no MAIN */
        } prof_sample;                                            /* 167 */
        struct { uint64_t interval_ns; } prof_begin;              /* 168 */
        struct {
            uint64_t info;
            el_str table_name, closure_desc, ty_desc, label, module, srcloc;
        } ipe;                                                    /* 169 */
        struct {
            uint64_t id;
            uint16_t arity;
            el_str kinds, name, json;
            uint64_t info_tbl;
            uint8_t has_info_tbl, has_json;
        } ticky_def;                                              /* 210 */
        struct { uint64_t id, entries, allocs, allocd; } ticky_sample; /* 211 */
        struct { uint32_t perf_num; el_str name; uint64_t tid; uint64_t period; } perf; /* 140-142 */
        struct {
            uint32_t a32[6];          /* Eden/Mercury ids, in field order */
            uint64_t a64[2];
        } misc;                                                   /* 60-69, 100-113 */
    } u;
} el_event;

/* ---- decoder ---------------------------------------------------------- */

typedef struct el_decoder el_decoder;

EVPROF_API el_decoder *el_decoder_create(void);
EVPROF_API void el_decoder_destroy(el_decoder *d);   /* accepts NULL */

/* A decoder that already knows `src`'s header (its event types, copied)
 * and expects event records: for re-decoding records stored earlier, one
 * record per feed. Offsets restart at 0 and no block is open, so callers
 * restore ev->cap themselves. NULL if `src` has no header or no memory. */
EVPROF_API el_decoder *el_decoder_create_for_records(const el_decoder *src);

/* A decoder made by el_decoder_create_for_records reads records from the
 * middle of a stream: its first record starts at this stream offset (the
 * events' offsets and the blocks' ends count from it). Call it before the
 * first feed. The parallel read (driver/parallel.c) starts one at each
 * range of whole blocks. */
EVPROF_API void el_decoder_set_offset(el_decoder *d, uint64_t offset);

/* Fill typed fields only for these types (BLOCK_MARKER is always decoded:
 * the decoder needs it). Other events arrive with decoded = 0, their
 * framing and raw payload; they are still checked as fully (payload
 * length, string terminators, stack depth), so a damaged log is damaged
 * whatever a consumer reads. For streaming consumers that look at a few types: it spares a
 * type dispatch per event. Default: every type evprof knows. */
EVPROF_API void el_decoder_only_fields(el_decoder *d, const uint16_t *types, size_t n);

/* With on != 0, el_decoder_next() hands out only events of the types
 * selected with el_decoder_only_fields() (and block markers); the others
 * are still read, checked and counted in the time span, but never reach
 * the consumer. For consumers that need a few types out of a big log. */
EVPROF_API void el_decoder_only_selected(el_decoder *d, int on);

/* The first and last timestamps of every event read so far, handed out
 * or not. Returns 0 (and leaves the outputs) when no event was read. */
EVPROF_API int el_decoder_time_span(const el_decoder *d, uint64_t *first, uint64_t *last);

/* Hand the decoder the next chunk. The bytes are borrowed: they must stay
 * valid until el_decoder_next() returns EV_NEED_INPUT (the decoder copies
 * only the tail of an event that a chunk boundary splits). Feeding again
 * before NEED_INPUT is a program error. */
EVPROF_API void el_decoder_feed(el_decoder *d, const void *buf, size_t len);

/* Next event. EV_OK with *ev filled, EV_NEED_INPUT, EV_END, or an error.
 * After an error every further call returns the same status.
 *
 * EV_END: an end marker was read and the bytes fed after it hold no
 * further block. A reader with more input feeds it still: an end marker
 * followed by a block is not the end but damage (a run of 0xff bytes
 * reads as an end marker). With resync on, the bytes from the marker to
 * the block are counted in el_decoder_damage() and events go on; with it
 * off, EV_ERR_FORMAT. An end marker inside a block's stated bytes (other
 * than as its last record, where GHC 9.2+ writes it) is damage too. In a
 * log without blocks (no block marker read), further records after the
 * marker are that damage: a record of a declared type, not all zeros, in
 * time order and at most the log's time so far plus a second after the
 * last event, followed by an end marker or another such record head.
 * Bytes after the end marker that hold no block (or no such records) are
 * ignored. */
EVPROF_API ev_status el_decoder_next(el_decoder *d, el_event *ev);

/* No more input will come. Returns EV_END when the end marker was read
 * (and no block followed it),
 * EV_OK when the input stopped exactly between events without an end
 * marker (a warning: see el_decoder_missing_end), EV_ERR_TRUNCATED when
 * it stopped inside the header or an event, or the error already hit. */
EVPROF_API ev_status el_decoder_finish(el_decoder *d);

/* After finish: 1 when the log ended cleanly between events but had no
 * end marker (a program that did not shut down its eventlog). */
EVPROF_API int el_decoder_missing_end(const el_decoder *d);

/* 1 when an end marker was read, with its byte offset in *offset (may be
 * NULL; the two bytes after it are where the log ends). */
EVPROF_API int el_decoder_end_marker(const el_decoder *d, uint64_t *offset);
/* 1 when another eventlog's header ("hdrb") follows the end marker: the
 * bytes after the marker are that log's (read on, they are skipped, never
 * taken for damage). */
EVPROF_API int el_decoder_next_log(const el_decoder *d);

/* The header, once parsed (NULL before). Types are in header order. */
EVPROF_API size_t el_decoder_num_types(const el_decoder *d);
/* Counting the events of each type: off by default (two additions per
 * event). Once on, el_decoder_tally gives, per type in header order
 * (el_decoder_type_at's i), the events read whole since (set it before
 * the header to count them all), handed out or not (only_selected), and
 * their bytes; a decoder made for records (el_decoder_create_for_records)
 * counts when its source does; off drops the counts. Returns 0, or -1
 * out of memory (then off). el_decoder_tally is NULL when not counting
 * and before the header; valid until the counting is turned off or the
 * decoder destroyed. */
typedef struct el_type_tally {
    uint64_t events, bytes;
    uint64_t declared_off;        /* records whose declared payload length is one
                                     byte off what was written (IPE, 169: GHC
                                     #24287); read as written, never damage (more
                                     than a byte off: el_decoder_ipe_len_off) */
} el_type_tally;
EVPROF_API int el_decoder_count_types(el_decoder *d, int on);
EVPROF_API const el_type_tally *el_decoder_tally(const el_decoder *d);
/* While counting, also the capabilities the PROF_SAMPLE_COST_CENTRE
 * events counted name in their cap field (those below EL_NO_CAP), handed
 * out or not: bit c (byte c / 8, bit c % 8) for capability c, of
 * EL_SAMPLE_CAPS_BYTES bytes; NULL as el_decoder_tally is. */
#define EL_SAMPLE_CAPS_BYTES 8192u
EVPROF_API const uint8_t *el_decoder_sample_caps(const el_decoder *d);
EVPROF_API const el_event_type *el_decoder_type_at(const el_decoder *d, size_t i);
EVPROF_API const el_event_type *el_decoder_type(const el_decoder *d, uint16_t id);
EVPROF_API int el_decoder_header_done(const el_decoder *d);

/* The byte size of the record at p as the decoder reads it outside any
 * block, looking at no more than `avail` bytes: by its declared size, but
 * an IPE record (169) by its strings (GHC's declared length is off by
 * one, GHC #24287). 0 when the bytes do not hold a whole record of a
 * declared type. */
EVPROF_API size_t el_decoder_record_size(const el_decoder *d, const uint8_t *p, size_t avail);
/* The latest time an event of a block can have, from its marker's time
 * and end time: the end time, which GHC writes when it closes the block,
 * after its last event. UINT64_MAX (no bound) when the end time is 0 or
 * before the start: not filled in (GHC never writes either). */
static inline uint64_t el_block_limit(uint64_t time, uint64_t end_time)
{
    return end_time && end_time >= time ? end_time : UINT64_MAX;
}

/* The same for a record inside a block, `to_end` bytes before the
 * block's end (0: outside any block), whose marker gives `block_limit`
 * (el_block_limit) as its end time: an IPE record
 * declared more than a byte longer than its strings is as long as it
 * declares when that ends inside the block at the start of a further
 * record, as the decoder reads it. 0 also when `avail` does not reach the
 * head of that further record (or the block's end), whose bytes it looks
 * at: then *need (when need is not NULL; else 0) is how many it wants. */
EVPROF_API size_t el_decoder_record_size_in(const el_decoder *d, const uint8_t *p, size_t avail,
                                            uint64_t to_end, uint64_t block_limit,
                                            size_t *need);
/* The longest record the decoder reads (a header's 12 bytes, a 65535-byte
 * payload, slack): an IPE record's strings must end within it. */
#define EL_RECORD_MAX (16u + 65535u + 16u)

/* Bytes consumed so far (the offset of the next unread byte). */
EVPROF_API uint64_t el_decoder_offset(const el_decoder *d);

/* Details of the last error (an ev_error): a message without file name,
 * the byte offset where the bad record starts, and its event type (-1 if
 * none). For EV_ERR_TRUNCATED the offset is where the incomplete record
 * begins. */
EVPROF_API const ev_error *el_decoder_error(const el_decoder *d);

/* An error as one line, the way the CLI prints it:
 * "MESSAGE at byte N (event type T NAME)" (no "at byte" when the message
 * says where already; no type when there is none). Returns the length
 * (as snprintf; the text may be cut to size). Log bytes in the message
 * are as they came: show them with tx_vis where people read them. */
EVPROF_API size_t el_error_format(char *buf, size_t size, const ev_error *e);

/* ---- files that are not eventlogs ------------------------------------- */

/* What the first bytes of a file are, for a message better than "bad
 * magic": GHC writes its other profiles as text beside the eventlog, and
 * they are what people give evprof by mistake. Told by their first lines
 * (eventlog/sniff.c says which). */
typedef enum el_file_kind {
    EL_FILE_UNKNOWN = 0,
    EL_FILE_EVENTLOG,           /* "hdrb" */
    EL_FILE_PROF,               /* GHC's .prof report (+RTS -p, -P, -pa) */
    EL_FILE_PROF_JSON,          /* GHC's JSON profile (+RTS -pj) */
    EL_FILE_HP,                 /* a .hp heap profile (+RTS -h..., hp2ps's input) */
    EL_FILE_RTS_STATS,          /* +RTS -s, -S or -t --machine-readable text */
    EL_FILE_TICKY,              /* GHC's ticky-ticky report (+RTS -r) */
    EL_FILE_EVPROF_REPORT,      /* evprof report's own .prof-like text */
    EL_FILE_KINDS
} el_file_kind;

/* How many first bytes el_file_kind_of looks at (fewer are fine: the
 * decoder gives it what it has). */
#define EL_SNIFF_BYTES 4096u

EVPROF_API el_file_kind el_file_kind_of(const void *head, size_t len);
/* "GHC's .prof time-profile report (+RTS -p)", ...; NULL for UNKNOWN and
 * EVENTLOG. */
EVPROF_API const char *el_file_kind_name(el_file_kind k);
/* The decoder's message for a file without the eventlog magic: for a kind
 * it knows, what the file is and what evprof wants instead, naming the
 * program's eventlog when the file records the program's command line
 * ("... run the program with +RTS -p -l and give evprof nfib.eventlog");
 * otherwise the bare "not a GHC eventlog: bad magic 0x...". Returns
 * snprintf's length. */
EVPROF_API int el_not_eventlog_message(char *buf, size_t size, const void *head, size_t len);
/* The program's eventlog as the file names it ("nfib.eventlog", or the
 * -ol file of its recorded RTS options) into buf; *had_l: the recorded
 * run had +RTS -l already (so that eventlog exists). 0 when the file
 * records no command line. */
EVPROF_API int el_file_eventlog_name(const void *head, size_t len, char *buf, size_t size,
                                     int *had_l);

/* Damage that was skipped. With resync on, a record that is damaged
 * inside a capability block (an undeclared type id, a payload that does
 * not fit its type, a time past the block's end time as its marker gives
 * it: GHC writes the end time after the block's last event) does not stop
 * the log: the rest of that block is skipped by the byte size its marker
 * states, and reading goes on at the next block. Every event of a damaged
 * block before the damage has been handed out already. Outside any block,
 * an event more than a day past the latest time the log has shown (an
 * event's or a block's end time) is damage too: with resync on, that
 * record alone is skipped. A damaged record's time is never in the time
 * span (el_decoder_time_span). Off by default; the el_read_* calls turn
 * it on. */
typedef struct el_damage {
    uint64_t blocks;              /* damaged stretches skipped: a damaged block, the
                                     bytes from a false end marker to the next
                                     block (counted once when they go on from a
                                     damaged block), or a record outside any block
                                     with an impossible time */
    uint64_t bytes;               /* bytes skipped */
    uint64_t from_time, to_time;  /* from the first skipped block's marker time to
                                     the last one's end time (ns) */
    ev_error first;               /* the first damage (offset, type, message) */
    int end_in_skipped;           /* the log ends with a skipped block whose last two
                                     bytes are an end marker (GHC 9.2 and later count
                                     the marker into the last block): the end was
                                     there, so the log is not "missing its end" */
} el_damage;
EVPROF_API void el_decoder_set_resync(el_decoder *d, int on);
EVPROF_API const el_damage *el_decoder_damage(const el_decoder *d);

/* IPE records (169) whose declared payload length is more than one byte
 * off the end of their strings (GHC's own slip is one byte: GHC #24287):
 * each was read to its declared length when that ends inside its block at
 * the start of a further record, else to its strings' end
 * (el_decoder_record_size_in); no record after it is lost. Not damage: a
 * note. */
EVPROF_API uint64_t el_decoder_ipe_len_off(const el_decoder *d);

/* With on != 0: the records fed were read and checked by an earlier
 * decoder and are fed one at a time, each whole (the order stage's
 * replay): their times are not checked again (out of file order, a
 * block's end and the latest time shown mean nothing), and an IPE
 * record is as long as the bytes fed. */
EVPROF_API void el_decoder_records_checked(el_decoder *d, int on);

/* ---- the numbers of a run -------------------------------------------- */

/* The numbers in an event that name things of one run: a merge of several
 * logs moves each kind apart (evprof merge; el_writer_event_moved). */
typedef enum el_num_kind {
    EL_NUM_CAP,                   /* a capability (u16, a sample's u32) */
    EL_NUM_CAPSET,
    EL_NUM_THREAD,                /* a thread id (STOP_THREAD's blocker when not 0) */
    EL_NUM_CC,                    /* a cost-centre id: a definition, a stack's frames */
} el_num_kind;
typedef void (*el_number_fn)(void *ctx, el_num_kind kind, uint32_t value);
/* Calls fn with each such number of ev, in payload order (the block
 * marker's capability is its own field: el_event.u.block). */
EVPROF_API void el_event_numbers(const el_event *ev, el_number_fn fn, void *ctx);

/* ---- reading a whole source (file, stdin, pipe) ----------------------- */

/* Runs a decoder over a file descriptor and calls `on_event` for every
 * event. Stops early when on_event returns non-zero: status EV_STOPPED.
 * Otherwise the result is END, OK (clean end without marker: a warning),
 * or an error; every event before the error has been delivered.
 *
 * keep_decoder: NULL, or where to hand the caller the decoder that read
 * the log (its header's event types, damage, time span); the caller owns
 * it then and destroys it with el_decoder_destroy. It is NULL when no
 * decoder could be made (out of memory, the file could not be opened). */
typedef int (*el_event_fn)(void *ctx, const el_event *ev, const el_decoder *d);

/* The capabilities whose event blocks a log holds (the global buffer's,
 * 0xffff, left out): bit c of bits[c / 64] for c below 256; `max` the
 * largest seen plus one (0: none), which also stands for those above 255. */
typedef struct el_caps {
    uint64_t bits[4];
    uint32_t max;
} el_caps;
/* Whether capability `cap` owns blocks in the log (for cap >= 256: not
 * above the largest seen). */
EVPROF_API int el_caps_has(const el_caps *c, uint32_t cap);
/* Adds b's capabilities to a's. */
EVPROF_API void el_caps_add(el_caps *a, const el_caps *b);
/* The capabilities of the block markers read so far (one test per block,
 * nothing per event). */
EVPROF_API void el_decoder_caps(const el_decoder *d, el_caps *out);

typedef struct el_read_result {
    ev_status status;
    ev_error error;               /* valid when status is an error */
    int missing_end;              /* clean end, no end marker */
    uint64_t bytes;               /* bytes read */
    uint64_t events;              /* events delivered */
    el_damage damage;             /* blocks skipped (see el_decoder_damage) */
    uint64_t ipe_len_off;         /* el_decoder_ipe_len_off: a note */
    int has_time_span;            /* first_time/last_time are valid */
    uint64_t first_time, last_time;   /* of every event read (el_decoder_time_span) */
    el_caps caps;                 /* the capabilities that own blocks (el_decoder_caps) */
} el_read_result;

/* `path` "-" reads standard input. A regular file is mapped through a
 * sliding window of EL_READ_WINDOW bytes (no copy; resident memory stays
 * bounded by the window); pipes and terminals are read() into a fixed
 * 1 MiB buffer. */
#define EL_READ_WINDOW (16u << 20)
EVPROF_API el_read_result el_read_path(const char *path, el_event_fn on_event, void *ctx,
                                       el_decoder **keep_decoder);

/* Options for the el_read_* calls. */
typedef struct el_read_opts {
    const uint16_t *fields;       /* el_decoder_only_fields(), or NULL for all */
    size_t num_fields;
    int only_selected;            /* el_decoder_only_selected() */
    int no_resync;                /* stop at the first damage (default: skip the block) */
    int count_types;              /* el_decoder_count_types() */
} el_read_opts;
EVPROF_API el_read_result el_read_path_opts(const char *path, const el_read_opts *opts,
                                            el_event_fn on_event, void *ctx,
                                            el_decoder **keep_decoder);
/* The same over bytes already in memory (tests, fuzzer). */
EVPROF_API el_read_result el_read_mem(const void *buf, size_t len, el_event_fn on_event,
                                      void *ctx, el_decoder **keep_decoder);
EVPROF_API el_read_result el_read_mem_opts(const void *buf, size_t len, const el_read_opts *opts,
                                           el_event_fn on_event, void *ctx,
                                           el_decoder **keep_decoder);

#ifdef __cplusplus
}
#endif
#endif
