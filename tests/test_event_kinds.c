/* Every event type the decoder knows, one layout at a time.
 *
 * Each case of `rows` gives a type's payload as a list of fields in file
 * order and says which member of el_event's union each lands in. The test
 * builds the payload byte by byte (its own big-endian puts, not the
 * writer's typed calls), frames it with the writer, decodes the log and
 * checks the framing (type, time, offset, size, payload, capability) and
 * every typed field. Scalar payload bytes come from a sequence with no
 * repeats inside one event, so a field read from the wrong offset, with
 * the wrong width or in the wrong byte order cannot match.
 *
 * Layouts: GHC's encodings spec; for the Eden, Mercury, perf and old
 * types, the layouts written beside their cases in eventlog/decoder.c.
 * BLOCK_MARKER is checked in every log (each case is written once inside
 * a block). A sweep over all ids below EL_NUM_TYPE_IDS checks that the
 * table has a case for every type the decoder decodes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/eventlog.h"
#include "evprof/writer.h"

/* ---- the table ------------------------------------------------------ */

enum fkind {
    F_END,          /* end of a case's field list */
    F_U8, F_U16, F_U32, F_U64,  /* a big-endian scalar in the payload */
    F_STR,          /* a NUL-terminated string in the payload */
    F_BYTES,        /* bytes without a NUL (the rest of the payload, or before an id) */
    F_STACK,        /* u8 depth, then depth u32 cost-centre ids */
    F_LOG2,         /* u8 log2 of a size: the field holds 1 << val */
    F_IS,           /* not in the payload: the field holds val */
    F_NOSTR,        /* not in the payload: the el_str is { NULL, 0 } */
    F_NULLPTR,      /* not in the payload: the pointer is NULL */
};

typedef struct fld {
    enum fkind kind;
    size_t dst;             /* offset of the el_event member */
    size_t dsize;           /* its size */
    uint64_t val;           /* F_STACK depth, F_LOG2 exponent, F_IS value */
    const char *s;          /* F_STR, F_BYTES */
    size_t slen;            /* F_BYTES */
    size_t dst2;            /* F_STACK: offset of the stack pointer */
} fld;

#define MAX_FIELDS 12
#define MAX_DEPTH 4

/* flags of a case */
#define OLD 1u    /* an older, shorter layout: no trailing bytes may follow */
#define REST 2u   /* a field runs to the end of the payload: likewise */

typedef struct row {
    uint16_t type;
    int var;                /* declared variable-size (else fixed, size of the fields) */
    unsigned flags;
    fld f[MAX_FIELDS];
} row;

#define M(m) offsetof(el_event, u.m), sizeof(((el_event *)0)->u.m)
#define U8(m) { F_U8, M(m), 0, NULL, 0, 0 }
#define U16(m) { F_U16, M(m), 0, NULL, 0, 0 }
#define U32(m) { F_U32, M(m), 0, NULL, 0, 0 }
#define U64(m) { F_U64, M(m), 0, NULL, 0, 0 }
#define STR(m, str) { F_STR, M(m), 0, str, 0, 0 }
#define BYTES(m, lit) { F_BYTES, M(m), 0, lit, sizeof lit - 1, 0 }
#define STACK(depth, st, n) { F_STACK, M(depth), n, NULL, 0, offsetof(el_event, u.st) }
#define LOG2(m, e) { F_LOG2, M(m), e, NULL, 0, 0 }
#define IS(m, v) { F_IS, M(m), v, NULL, 0, 0 }
#define NOSTR(m) { F_NOSTR, M(m), 0, NULL, 0, 0 }
#define NULLPTR(m) { F_NULLPTR, M(m), 0, NULL, 0, 0 }

#define FIX 0
#define VAR 1
#define EMPTY(t) { t, FIX, 0, { { F_END, 0, 0, 0, NULL, 0, 0 } } }
#define THREAD(t) { t, FIX, 0, { U32(thread.thread) } }
#define THREAD_CAP(t) { t, FIX, 0, { U32(thread_cap.thread), U16(thread_cap.cap) } }
#define CAP(t) { t, FIX, 0, { U16(cap.cap) } }
#define TEXT(t, lit) { t, VAR, REST, { BYTES(text.str, lit), IS(text.capset, 0), \
                                       IS(text.thread, 0) } }
#define CAPSET_TEXT(t, lit) { t, VAR, REST, { U32(text.capset), BYTES(text.str, lit), \
                                              IS(text.thread, 0) } }
#define HEAP(t) { t, FIX, 0, { U32(heap.capset), U64(heap.bytes) } }
#define PID(t) { t, FIX, 0, { U32(pid.capset), U32(pid.pid) } }
#define CAPSET_CAP(t) { t, FIX, 0, { U32(capset_cap.capset), U16(capset_cap.cap) } }
#define A32(i) U32(misc.a32[i])
#define MER_ID_NAME(t) { t, FIX, 0, { U64(misc.a64[0]), A32(0) } }
#define MER_ID(t) { t, FIX, 0, { U64(misc.a64[0]) } }

static const row rows[] = {
    /* threads */
    THREAD(EL_CREATE_THREAD),
    THREAD(EL_RUN_THREAD),
    { EL_STOP_THREAD, FIX, 0, { U32(stop_thread.thread), U16(stop_thread.status),
                                U32(stop_thread.blocker), IS(stop_thread.has_blocker, 1) } },
    { EL_STOP_THREAD, FIX, OLD, { U32(stop_thread.thread), U16(stop_thread.status),
                                  IS(stop_thread.blocker, 0), IS(stop_thread.has_blocker, 0) } },
    THREAD(EL_THREAD_RUNNABLE),
    THREAD_CAP(EL_MIGRATE_THREAD),
    THREAD(EL_RUN_SPARK),
    THREAD_CAP(EL_STEAL_SPARK),
    EMPTY(EL_SHUTDOWN),
    THREAD_CAP(EL_THREAD_WAKEUP),
    THREAD(EL_CREATE_SPARK_THREAD),
    { EL_STARTUP, FIX, 0, { U16(startup.n_caps) } },
    { EL_THREAD_LABEL, VAR, REST, { U32(text.thread), BYTES(text.str, "worker \xce\xbb"),
                                    IS(text.capset, 0) } },
    /* GC */
    EMPTY(EL_GC_START),
    EMPTY(EL_GC_END),
    EMPTY(EL_REQUEST_SEQ_GC),
    EMPTY(EL_REQUEST_PAR_GC),
    EMPTY(EL_GC_IDLE),
    EMPTY(EL_GC_WORK),
    EMPTY(EL_GC_DONE),
    EMPTY(EL_GC_GLOBAL_SYNC),
    { EL_GC_STATS_GHC, FIX, 0, { U32(gc_stats.capset), U16(gc_stats.gen), U64(gc_stats.copied),
                                 U64(gc_stats.slop), U64(gc_stats.frag),
                                 U32(gc_stats.par_n_threads), U64(gc_stats.par_max_copied),
                                 U64(gc_stats.par_tot_copied),
                                 U64(gc_stats.par_balanced_copied),
                                 IS(gc_stats.has_balanced, 1) } },
    { EL_GC_STATS_GHC, FIX, OLD, { U32(gc_stats.capset), U16(gc_stats.gen),
                                   U64(gc_stats.copied), U64(gc_stats.slop),
                                   U64(gc_stats.frag), U32(gc_stats.par_n_threads),
                                   U64(gc_stats.par_max_copied), U64(gc_stats.par_tot_copied),
                                   IS(gc_stats.par_balanced_copied, 0),
                                   IS(gc_stats.has_balanced, 0) } },
    { EL_MEM_RETURN, FIX, 0, { U32(mem_return.capset), U32(mem_return.current),
                               U32(mem_return.needed), U32(mem_return.returned) } },
    /* sparks */
    { EL_SPARK_COUNTERS, FIX, 0, { U64(spark_counters.created), U64(spark_counters.dud),
                                   U64(spark_counters.overflowed),
                                   U64(spark_counters.converted), U64(spark_counters.gcd),
                                   U64(spark_counters.fizzled),
                                   U64(spark_counters.remaining) } },
    EMPTY(EL_SPARK_CREATE),
    EMPTY(EL_SPARK_DUD),
    EMPTY(EL_SPARK_OVERFLOW),
    EMPTY(EL_SPARK_RUN),
    CAP(EL_SPARK_STEAL),
    EMPTY(EL_SPARK_FIZZLE),
    EMPTY(EL_SPARK_GC),
    /* messages and markers */
    TEXT(EL_LOG_MSG, "log message"),
    TEXT(EL_USER_MSG, "user \"message\""),
    TEXT(EL_USER_MARKER, "marker"),
    TEXT(EL_VERSION, "Eden 7.3"),
    TEXT(EL_PROGRAM_INVOCATION, "./prog +RTS -N4"),
    TEXT(EL_USER_BINARY_MSG, "\x00\xff\x01\x80 binary\x00"),
    { EL_INTERN_STRING, VAR, REST, { BYTES(text.str, "interned"), U32(text.capset),
                                     IS(text.thread, 0) } },
    /* capability sets and the environment */
    { EL_CAPSET_CREATE, FIX, 0, { U32(capset_create.capset), U16(capset_create.type) } },
    { EL_CAPSET_DELETE, FIX, 0, { U32(capset_cap.capset), IS(capset_cap.cap, 0) } },
    CAPSET_CAP(EL_CAPSET_ASSIGN_CAP),
    CAPSET_CAP(EL_CAPSET_REMOVE_CAP),
    CAPSET_TEXT(EL_RTS_IDENTIFIER, "GHC-9.6.4 rts_thr"),
    CAPSET_TEXT(EL_PROGRAM_ARGS, "./prog\0+RTS\0-l\0-RTS"),
    CAPSET_TEXT(EL_PROGRAM_ENV, "HOME=/root\0TERM=xterm\0"),
    PID(EL_OSPROCESS_PID),
    PID(EL_OSPROCESS_PPID),
    { EL_WALL_CLOCK_TIME, FIX, 0, { U32(wall_clock.capset), U64(wall_clock.sec),
                                    U32(wall_clock.nsec) } },
    /* capabilities */
    CAP(EL_CAP_CREATE),
    CAP(EL_CAP_DELETE),
    CAP(EL_CAP_DISABLE),
    CAP(EL_CAP_ENABLE),
    /* heap */
    HEAP(EL_HEAP_ALLOCATED),
    HEAP(EL_HEAP_SIZE),
    HEAP(EL_HEAP_LIVE),
    HEAP(EL_BLOCKS_SIZE),
    { EL_HEAP_INFO_GHC, FIX, 0, { U32(heap_info.capset), U16(heap_info.gens),
                                  U64(heap_info.max_heap_size), U64(heap_info.alloc_area_size),
                                  U64(heap_info.mblock_size), U64(heap_info.block_size) } },
    /* tasks */
    { EL_TASK_CREATE, FIX, 0, { U64(task.task), U16(task.cap), U64(task.tid),
                                IS(task.new_cap, 0) } },
    { EL_TASK_MIGRATE, FIX, 0, { U64(task.task), U16(task.cap), U16(task.new_cap),
                                 IS(task.tid, 0) } },
    { EL_TASK_DELETE, FIX, 0, { U64(task.task), IS(task.cap, 0), IS(task.new_cap, 0),
                                IS(task.tid, 0) } },
    EMPTY(EL_HACK_BUG_T9003),
    /* Eden */
    EMPTY(EL_EDEN_START_RECEIVE),
    EMPTY(EL_EDEN_END_RECEIVE),
    { EL_CREATE_PROCESS, FIX, 0, { A32(0) } },
    { EL_KILL_PROCESS, FIX, 0, { A32(0) } },
    { EL_ASSIGN_THREAD_TO_PROCESS, FIX, 0, { A32(0), A32(1) } },
    { EL_CREATE_MACHINE, FIX, 0, { U16(misc.a32[0]), U64(misc.a64[0]) } },
    { EL_KILL_MACHINE, FIX, 0, { U16(misc.a32[0]) } },
    /* tag sP sT rM rP rIP */
    { EL_SEND_MESSAGE, FIX, 0, { U8(misc.a32[0]), A32(1), A32(2), U16(misc.a32[3]), A32(4),
                                 A32(5) } },
    /* tag rP rIP sM sP sT size */
    { EL_RECEIVE_MESSAGE, FIX, 0, { U8(misc.a32[0]), A32(1), A32(2), U16(misc.a32[3]),
                                    A32(4), A32(5), U32(misc.a64[0]) } },
    /* tag sP sT rP rIP */
    { EL_SEND_RECEIVE_LOCAL_MESSAGE, FIX, 0, { U8(misc.a32[0]), A32(1), A32(2), A32(3),
                                               A32(4) } },
    /* Mercury */
    MER_ID_NAME(EL_MER_START_PAR_CONJUNCTION),
    MER_ID(EL_MER_STOP_PAR_CONJUNCTION),
    MER_ID(EL_MER_STOP_PAR_CONJUNCT),
    MER_ID_NAME(EL_MER_CREATE_SPARK),
    MER_ID_NAME(EL_MER_FUT_CREATE),
    MER_ID(EL_MER_FUT_WAIT_NOSUSPEND),
    MER_ID(EL_MER_FUT_WAIT_SUSPENDED),
    MER_ID(EL_MER_FUT_SIGNAL),
    EMPTY(EL_MER_LOOKING_FOR_GLOBAL_CONTEXT),
    EMPTY(EL_MER_WORK_STEALING),
    { EL_MER_RELEASE_CONTEXT, FIX, 0, { A32(0) } },
    EMPTY(EL_MER_ENGINE_SLEEPING),
    EMPTY(EL_MER_LOOKING_FOR_LOCAL_SPARK),
    EMPTY(EL_MER_CALLING_MAIN),
    /* perf */
    { EL_PERF_NAME, VAR, REST, { U32(perf.perf_num), BYTES(perf.name, "cycles"),
                                 IS(perf.tid, 0), IS(perf.period, 0) } },
    { EL_PERF_COUNTER, FIX, 0, { U32(perf.perf_num), U64(perf.tid), U64(perf.period),
                                 NOSTR(perf.name) } },
    { EL_PERF_TRACEPOINT, FIX, 0, { U32(perf.perf_num), U64(perf.tid), IS(perf.period, 0),
                                    NOSTR(perf.name) } },
    /* heap and time profiling */
    { EL_HEAP_PROF_BEGIN, VAR, 0, { U8(heap_prof_begin.id), U64(heap_prof_begin.period),
                                    U32(heap_prof_begin.breakdown),
                                    STR(heap_prof_begin.filter[0], "Data.Map"),
                                    STR(heap_prof_begin.filter[1], ""),
                                    STR(heap_prof_begin.filter[2], "[Int]"),
                                    STR(heap_prof_begin.filter[3], "go"),
                                    STR(heap_prof_begin.filter[4], "MAIN.main"),
                                    STR(heap_prof_begin.filter[5], "r"),
                                    STR(heap_prof_begin.filter[6], "lag,drag") } },
    { EL_HEAP_PROF_COST_CENTRE, VAR, 0, { U32(cost_centre.id), STR(cost_centre.label, "fib"),
                                          STR(cost_centre.module, "Main"),
                                          STR(cost_centre.srcloc, "Main.hs:(3,1)-(5,20)"),
                                          U8(cost_centre.flags) } },
    { EL_HEAP_PROF_SAMPLE_BEGIN, FIX, 0, { U64(heap_sample.era), IS(heap_sample.time, 0) } },
    { EL_HEAP_PROF_SAMPLE_COST_CENTRE, VAR, 0, { U8(heap_sample_data.id),
                                                 U64(heap_sample_data.residency),
                                                 STACK(heap_sample_data.depth,
                                                       heap_sample_data.stack, 3),
                                                 NOSTR(heap_sample_data.label) } },
    { EL_HEAP_PROF_SAMPLE_STRING, VAR, 0, { U8(heap_sample_data.id),
                                            U64(heap_sample_data.residency),
                                            STR(heap_sample_data.label, "ghc-bignum:IS"),
                                            IS(heap_sample_data.depth, 0),
                                            NULLPTR(heap_sample_data.stack) } },
    { EL_HEAP_PROF_SAMPLE_END, FIX, 0, { U64(heap_sample.era), IS(heap_sample.time, 0) } },
    { EL_HEAP_BIO_PROF_SAMPLE_BEGIN, FIX, 0, { U64(heap_sample.era), U64(heap_sample.time) } },
    { EL_PROF_SAMPLE_COST_CENTRE, VAR, 0, { U32(prof_sample.cap), U64(prof_sample.ticks),
                                            STACK(prof_sample.depth, prof_sample.stack, 4) } },
    { EL_PROF_BEGIN, FIX, 0, { U64(prof_begin.interval_ns) } },
    { EL_IPE, VAR, 0, { U64(ipe.info), STR(ipe.table_name, "Main.go_info"),
                        STR(ipe.closure_desc, "THUNK"), STR(ipe.ty_desc, "Maybe Int"),
                        STR(ipe.label, "go"), STR(ipe.module, "Main"),
                        STR(ipe.srcloc, "Main.hs:10:5-30") } },
    /* non-moving GC */
    EMPTY(EL_CONC_MARK_BEGIN),
    { EL_CONC_MARK_END, FIX, 0, { U32(conc_mark_end.marked) } },
    EMPTY(EL_CONC_SYNC_BEGIN),
    EMPTY(EL_CONC_SYNC_END),
    EMPTY(EL_CONC_SWEEP_BEGIN),
    EMPTY(EL_CONC_SWEEP_END),
    CAP(EL_CONC_UPD_REM_SET_FLUSH),
    { EL_NONMOVING_HEAP_CENSUS, FIX, 0, { U16(nonmoving_census.blk_size),
                                          U32(nonmoving_census.active_segs),
                                          U32(nonmoving_census.filled_segs),
                                          U32(nonmoving_census.live_blocks),
                                          IS(nonmoving_census.log_encoded, 0) } },
    /* before GHC 9.10: a u8 log2 of the block size */
    { EL_NONMOVING_HEAP_CENSUS, FIX, OLD, { LOG2(nonmoving_census.blk_size, 6),
                                            U32(nonmoving_census.active_segs),
                                            U32(nonmoving_census.filled_segs),
                                            U32(nonmoving_census.live_blocks),
                                            IS(nonmoving_census.log_encoded, 1) } },
    { EL_NONMOVING_PRUNED_SEGMENTS, FIX, 0, { U32(nonmoving_pruned.pruned),
                                              U32(nonmoving_pruned.free) } },
    /* ticky: three layouts of the definition */
    { EL_TICKY_COUNTER_DEF, VAR, 0, { U64(ticky_def.id), U16(ticky_def.arity),
                                      STR(ticky_def.kinds, "ESL"),
                                      STR(ticky_def.name, "Main.go{v r1} (fun)"),
                                      U64(ticky_def.info_tbl), IS(ticky_def.has_info_tbl, 1),
                                      STR(ticky_def.json, "{\"type\":\"entCntr\"}"),
                                      IS(ticky_def.has_json, 1) } },
    { EL_TICKY_COUNTER_DEF, VAR, OLD, { U64(ticky_def.id), U16(ticky_def.arity),
                                        STR(ticky_def.kinds, "L"),
                                        STR(ticky_def.name, "Main.f (fun)"),
                                        IS(ticky_def.info_tbl, 0),
                                        IS(ticky_def.has_info_tbl, 0),
                                        NOSTR(ticky_def.json), IS(ticky_def.has_json, 0) } },
    { EL_TICKY_COUNTER_DEF, VAR, OLD, { U64(ticky_def.id), U16(ticky_def.arity),
                                        STR(ticky_def.kinds, ""), STR(ticky_def.name, "g"),
                                        U64(ticky_def.info_tbl),
                                        IS(ticky_def.has_info_tbl, 1),
                                        NOSTR(ticky_def.json), IS(ticky_def.has_json, 0) } },
    /* an empty JSON string is still there */
    { EL_TICKY_COUNTER_DEF, VAR, 0, { U64(ticky_def.id), U16(ticky_def.arity),
                                      STR(ticky_def.kinds, "E"), STR(ticky_def.name, "h"),
                                      U64(ticky_def.info_tbl), IS(ticky_def.has_info_tbl, 1),
                                      STR(ticky_def.json, ""), IS(ticky_def.has_json, 1) } },
    { EL_TICKY_COUNTER_SAMPLE, FIX, 0, { U64(ticky_sample.id), U64(ticky_sample.entries),
                                         U64(ticky_sample.allocs), U64(ticky_sample.allocd) } },
    EMPTY(EL_TICKY_BEGIN_SAMPLE),
};

#define N_ROWS (sizeof rows / sizeof rows[0])

static int in_table(uint16_t type)
{
    for (size_t i = 0; i < N_ROWS; i++)
        if (rows[i].type == type)
            return 1;
    return 0;
}

/* ---- building payloads ------------------------------------------------ */

static void put_be(el_payload *p, uint64_t v, unsigned width)
{
    for (unsigned i = width; i-- > 0;)
        el_payload_u8(p, (uint8_t)(v >> (8 * i)));
}

/* An event's payload and the values its fields should decode to. */
typedef struct built {
    el_payload p;
    uint64_t v[MAX_FIELDS];
    uint32_t stack[MAX_DEPTH];
} built;

/* Scalar payload bytes: 1..251, no repeat among the first 251 of one seed. */
static uint64_t next_value(unsigned width, unsigned *k, unsigned seed)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++, (*k)++)
        v = v << 8 | (1u + (*k * 37u + seed) % 251u);
    return v;
}

static unsigned width_of(enum fkind k)
{
    switch (k) {
    case F_U8: case F_LOG2: return 1;
    case F_U16: return 2;
    case F_U32: return 4;
    case F_U64: return 8;
    case F_END: case F_STR: case F_BYTES: case F_STACK:     /* not a scalar */
    case F_IS: case F_NOSTR: case F_NULLPTR:
    default: return 0;
    }
}

/* The payload of `r` with values from `seed`, then `extra` trailing bytes. */
static void build(const row *r, unsigned seed, size_t extra, built *b)
{
    unsigned k = 0;

    memset(b, 0, sizeof *b);
    el_payload_init(&b->p);
    for (int i = 0; i < MAX_FIELDS && r->f[i].kind != F_END; i++) {
        const fld *f = &r->f[i];
        switch (f->kind) {
        case F_U8: case F_U16: case F_U32: case F_U64:
            b->v[i] = next_value(width_of(f->kind), &k, seed);
            put_be(&b->p, b->v[i], width_of(f->kind));
            break;
        case F_LOG2:
            b->v[i] = f->val;
            put_be(&b->p, f->val, 1);
            break;
        case F_STR:
            for (const char *c = f->s; *c; c++)
                el_payload_u8(&b->p, (uint8_t)*c);
            el_payload_u8(&b->p, 0);
            break;
        case F_BYTES:
            for (size_t j = 0; j < f->slen; j++)
                el_payload_u8(&b->p, (uint8_t)f->s[j]);
            break;
        case F_STACK:
            put_be(&b->p, f->val, 1);
            for (unsigned j = 0; j < f->val; j++) {
                b->stack[j] = (uint32_t)next_value(4, &k, seed);
                put_be(&b->p, b->stack[j], 4);
            }
            break;
        case F_END:         /* the loop stops before it */
        case F_IS:          /* not in the payload */
        case F_NOSTR:
        case F_NULLPTR:
        default:
            break;
        }
    }
    for (size_t j = 0; j < extra; j++)
        el_payload_u8(&b->p, (uint8_t)(0xe0 + j));
    assert_false(b->p.failed);
}

/* Payload bytes of the layout without strings and stack entries: the
 * shortest payload the layout allows (strings may be empty but need their
 * NUL, which a shorter payload then lacks). */
static size_t scalar_len(const row *r)
{
    size_t n = 0;
    for (int i = 0; i < MAX_FIELDS && r->f[i].kind != F_END; i++)
        n += r->f[i].kind == F_STACK ? 1 : width_of(r->f[i].kind);
    return n;
}

static size_t payload_len_of(const row *r)
{
    built b;
    build(r, 1, 0, &b);
    size_t n = b.p.len;
    el_payload_free(&b.p);
    return n;
}

/* ---- checking events -------------------------------------------------- */

static uint64_t load(const el_event *ev, size_t off, size_t size)
{
    const char *p = (const char *)ev + off;
    uint8_t u8v;
    uint16_t u16v;
    uint32_t u32v;
    uint64_t u64v;

    switch (size) {
    case 1: memcpy(&u8v, p, 1); return u8v;
    case 2: memcpy(&u16v, p, 2); return u16v;
    case 4: memcpy(&u32v, p, 4); return u32v;
    case 8: memcpy(&u64v, p, 8); return u64v;
    default: fail_msg("field of %zu bytes", size); return 0;
    }
}

static el_str load_str(const el_event *ev, size_t off)
{
    el_str s;
    memcpy(&s, (const char *)ev + off, sizeof s);
    return s;
}

static const void *load_ptr(const el_event *ev, size_t off)
{
    const void *p;
    memcpy(&p, (const char *)ev + off, sizeof p);
    return p;
}

static void check_str(const el_event *ev, int i, el_str s, const char *want, size_t len)
{
    if (s.len != len)
        fail_msg("type %u field %d: string of %u bytes, expected %zu", ev->type, i, s.len, len);
    if (len && memcmp(s.ptr, want, len) != 0)
        fail_msg("type %u field %d: string bytes differ", ev->type, i);
    /* borrowed from the payload */
    if (len && ((const uint8_t *)s.ptr < ev->payload ||
                (const uint8_t *)s.ptr + len > ev->payload + ev->payload_len))
        fail_msg("type %u field %d: string outside the payload", ev->type, i);
}

static void check_fields(const row *r, const built *b, const el_event *ev)
{
    for (int i = 0; i < MAX_FIELDS && r->f[i].kind != F_END; i++) {
        const fld *f = &r->f[i];
        uint64_t want, got;
        switch (f->kind) {
        case F_U8: case F_U16: case F_U32: case F_U64: case F_LOG2: case F_IS:
            want = f->kind == F_IS ? f->val : f->kind == F_LOG2 ? UINT64_C(1) << f->val : b->v[i];
            got = load(ev, f->dst, f->dsize);
            if (got != want)
                fail_msg("type %u (%s) field %d: got 0x%llx, expected 0x%llx", ev->type,
                         el_type_name(ev->type), i, (unsigned long long)got,
                         (unsigned long long)want);
            break;
        case F_STR:
            check_str(ev, i, load_str(ev, f->dst), f->s, strlen(f->s));
            break;
        case F_BYTES:
            check_str(ev, i, load_str(ev, f->dst), f->s, f->slen);
            break;
        case F_STACK: {
            got = load(ev, f->dst, f->dsize);
            if (got != f->val)
                fail_msg("type %u: stack depth %llu, expected %llu", ev->type,
                         (unsigned long long)got, (unsigned long long)f->val);
            const uint32_t *stack = load_ptr(ev, f->dst2);
            assert_non_null(stack);
            for (unsigned j = 0; j < f->val; j++)
                if (stack[j] != b->stack[j])
                    fail_msg("type %u: stack[%u] = 0x%x, expected 0x%x", ev->type, j,
                             stack[j], b->stack[j]);
            break;
        }
        case F_NOSTR: {
            el_str s = load_str(ev, f->dst);
            if (s.ptr != NULL || s.len != 0)
                fail_msg("type %u field %d: expected no string", ev->type, i);
            break;
        }
        case F_NULLPTR:
            if (load_ptr(ev, f->dst) != NULL)
                fail_msg("type %u field %d: expected NULL", ev->type, i);
            break;
        case F_END:         /* the loop stops before it */
        default:
            break;
        }
    }
}

/* What one decoded event must be. */
typedef struct want {
    uint16_t type, cap;
    uint64_t time, offset;
    int var;
    const el_payload *payload;  /* bytes written (NULL: check the length only) */
    size_t payload_len;
    int decoded;
    const row *row;             /* typed fields to check, if decoded */
    const built *b;
    const char *desc;           /* declared description */
    int block;                  /* a block marker: size, end time, cap */
    uint32_t block_size;
    uint64_t block_end;
} want;

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void check_event(const el_event *ev, const want *w)
{
    uint32_t head = w->var ? 12u : 10u;

    if (ev->type != w->type || ev->offset != w->offset)
        fail_msg("event type %u at %llu, expected type %u at %llu", ev->type,
                 (unsigned long long)ev->offset, w->type, (unsigned long long)w->offset);
    assert_int_equal(ev->time, w->time);
    assert_int_equal(ev->payload_len, w->payload_len);
    assert_int_equal(ev->size, head + w->payload_len);
    if (ev->cap != w->cap)
        fail_msg("type %u at %llu: cap %u, expected %u", ev->type,
                 (unsigned long long)ev->offset, ev->cap, w->cap);
    if (ev->decoded != w->decoded)
        fail_msg("type %u (%s): decoded %u, expected %d", ev->type,
                 el_type_name(ev->type) ? el_type_name(ev->type) : "?", ev->decoded,
                 w->decoded);
    /* the record as stored: id, time, [length], payload */
    assert_int_equal(rd16(ev->record), w->type);
    assert_int_equal(rd64(ev->record + 2), w->time);
    if (w->var)
        assert_int_equal(rd16(ev->record + 10), w->payload_len);
    assert_ptr_equal(ev->payload, ev->record + head);
    if (w->payload && w->payload_len)
        assert_memory_equal(ev->payload, w->payload->data, w->payload_len);
    assert_non_null(ev->et);
    assert_int_equal(ev->et->id, w->type);
    assert_int_equal(ev->et->size, w->var ? EL_VARIABLE_SIZE : (int32_t)w->payload_len);
    if (w->desc) {
        assert_int_equal(ev->et->desc.len, strlen(w->desc));
        assert_memory_equal(ev->et->desc.ptr, w->desc, ev->et->desc.len);
    }
    if (w->block) {
        assert_int_equal(ev->u.block.size, w->block_size);
        assert_int_equal(ev->u.block.end_time, w->block_end);
        assert_int_equal(ev->u.block.cap, w->cap);
    }
    if (w->decoded && w->row)
        check_fields(w->row, w->b, ev);
}

/* ---- decoding --------------------------------------------------------- */

typedef struct expect {
    const want *w;
    size_t n, seen;
} expect;

static int on_event(void *ctx, const el_event *ev, const el_decoder *d)
{
    expect *e = ctx;
    (void)d;
    if (e->seen >= e->n)
        fail_msg("more than %zu events", e->n);
    check_event(ev, &e->w[e->seen++]);
    return 0;
}

/* Decodes `buf` fed `chunk` bytes at a time (0: at once), with typed fields
 * only for `only` when only_n >= 0, and checks the events against `w`. */
static void decode_with(const uint8_t *buf, size_t len, size_t chunk, const uint16_t *only,
                        long only_n, const want *w, size_t n)
{
    el_decoder *d = el_decoder_create();
    size_t pos = 0, seen = 0;
    ev_status st = EV_NEED_INPUT;
    el_event ev;

    assert_non_null(d);
    if (only_n >= 0)
        el_decoder_only_fields(d, only, (size_t)only_n);
    if (chunk == 0)
        chunk = len;
    while (pos < len && st == EV_NEED_INPUT) {
        size_t c = len - pos < chunk ? len - pos : chunk;
        el_decoder_feed(d, buf + pos, c);
        pos += c;
        for (;;) {
            memset(&ev, 0xa5, sizeof ev);   /* no field may be left unset */
            st = el_decoder_next(d, &ev);
            if (st != EV_OK)
                break;
            if (seen >= n)
                fail_msg("more than %zu events", n);
            check_event(&ev, &w[seen++]);
        }
    }
    if (st != EV_END)
        fail_msg("status %s (%s), expected end", ev_status_name(st), el_decoder_error(d)->msg);
    assert_int_equal(seen, n);
    assert_int_equal(el_decoder_finish(d), EV_END);
    el_decoder_destroy(d);
}

static void decode_all_ways(const uint8_t *buf, size_t len, const want *w, size_t n)
{
    expect e = { w, n, 0 };
    el_read_result r = el_read_mem(buf, len, on_event, &e, NULL);
    if (r.status != EV_END)
        fail_msg("el_read_mem: %s (%s)", ev_status_name(r.status), r.error.msg);
    assert_int_equal(r.events, n);
    assert_int_equal(e.seen, n);
    decode_with(buf, len, 0, NULL, -1, w, n);
    decode_with(buf, len, 1, NULL, -1, w, n);   /* every record split */
}

/* ---- writing ---------------------------------------------------------- */

#define BLOCK_CAP_OF(type) ((uint16_t)(1 + (type) % 13))

static uint64_t time_of(uint16_t type, unsigned k)
{
    return UINT64_C(0x0123456789ab0000) + (uint64_t)type * 16 + k;
}

static void ok(ev_status st, el_writer *w)
{
    if (st != EV_OK)
        fail_msg("writer: %s", el_writer_error_msg(w));
}

/* One event of `r`; fills *wt. */
static void put(el_writer *w, const row *r, const built *b, uint64_t time, uint16_t cap,
                const char *desc, want *wt)
{
    memset(wt, 0, sizeof *wt);
    wt->type = r->type;
    wt->cap = cap;
    wt->time = time;
    wt->offset = el_writer_offset(w);
    wt->var = r->var;
    wt->payload = &b->p;
    wt->payload_len = b->p.len;
    wt->decoded = 1;
    wt->row = r;
    wt->b = b;
    wt->desc = desc;
    ok(el_writer_event_payload(w, r->type, time, &b->p), w);
}

/* A log of three events of `r` with `extra` trailing payload bytes: one
 * before a block, one inside it, one after. The block marker is declared
 * `extra` bytes longer than its 14 too. */
static void run_row(const row *r, size_t extra)
{
    char desc[32];
    built b[3];
    want w[4];
    el_writer *wr = el_writer_create_mem();
    uint16_t cap = BLOCK_CAP_OF(r->type);

    snprintf(desc, sizeof desc, "type %u under test", r->type);
    for (unsigned i = 0; i < 3; i++)
        build(r, 7 * i + r->type, extra, &b[i]);
    ok(el_writer_declare_type(wr, EL_BLOCK_MARKER, 14 + (int32_t)extra, "Block marker"), wr);
    ok(el_writer_declare_type(wr, r->type, r->var ? EL_WRITER_VARIABLE : (int32_t)b[0].p.len,
                              desc), wr);
    ok(el_writer_begin_data(wr), wr);

    put(wr, r, &b[0], time_of(r->type, 0), EL_NO_CAP, desc, &w[0]);
    uint64_t block_time = time_of(r->type, 1), block_end = time_of(r->type, 9);
    memset(&w[1], 0, sizeof w[1]);
    w[1].type = EL_BLOCK_MARKER;
    w[1].cap = cap;
    w[1].time = block_time;
    w[1].offset = el_writer_offset(wr);
    w[1].payload_len = 14 + extra;
    w[1].decoded = 1;
    w[1].block = 1;
    w[1].block_end = block_end;
    ok(el_writer_begin_block(wr, cap, block_time), wr);
    put(wr, r, &b[1], time_of(r->type, 2), cap, desc, &w[2]);
    ok(el_writer_end_block(wr, block_end), wr);
    /* the block holds its marker and the one event */
    w[1].block_size = (uint32_t)(24 + extra + (r->var ? 12 : 10) + b[1].p.len);
    put(wr, r, &b[2], time_of(r->type, 3), EL_NO_CAP, desc, &w[3]);
    ok(el_writer_finish(wr), wr);

    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(wr, &len);
    assert_int_equal(w[3].offset + w[3].payload_len + (r->var ? 12 : 10) + 2, len);
    decode_all_ways(bytes, len, w, 4);

    el_writer_destroy(wr);
    for (unsigned i = 0; i < 3; i++)
        el_payload_free(&b[i].p);
}

/* ---- tests ------------------------------------------------------------ */

/* The table is sound: field values of one event are pairwise distinct. */
static void test_table_values_distinct(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ROWS; i++) {
        const row *r = &rows[i];
        built b;
        build(r, r->type, 0, &b);
        for (int x = 0; x < MAX_FIELDS; x++)
            for (int y = x + 1; y < MAX_FIELDS; y++)
                if (width_of(r->f[x].kind) && width_of(r->f[y].kind) &&
                    r->f[x].kind != F_LOG2 && b.v[x] == b.v[y])
                    fail_msg("case %zu (type %u): fields %d and %d share a value", i, r->type,
                             x, y);
        el_payload_free(&b.p);
        /* every type of the table has evprof's name */
        if (!el_type_name(r->type))
            fail_msg("type %u has no name", r->type);
    }
}

/* Every case, in every layout, before, inside and after a block. */
static void test_every_known_type(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ROWS; i++)
        run_row(&rows[i], 0);
}

/* Extra trailing bytes after the fields (a newer GHC's additions) are
 * ignored: the fields still decode, the next event too. Not for older
 * layouts (their trailing bytes would be the newer fields) or fields that
 * run to the end of the payload. */
static void test_extra_trailing_bytes(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ROWS; i++)
        /* IPE ends at its last string's NUL, whatever its declared length
         * says (GHC #24287): tests/test_writer.c */
        if (!(rows[i].flags & (OLD | REST)) && rows[i].type != EL_IPE) {
            run_row(&rows[i], 3);
            run_row(&rows[i], 1);
        }
}

/* Sizes of the older layouts, so that a change of the table shows here. */
static void test_old_layout_sizes(void **state)
{
    (void)state;
    size_t stop_old = 0, stop_new = 0, gc_old = 0, gc_new = 0, cen_old = 0, cen_new = 0;
    for (size_t i = 0; i < N_ROWS; i++) {
        const row *r = &rows[i];
        size_t n = payload_len_of(r);
        int old = (r->flags & OLD) != 0;
        if (r->type == EL_STOP_THREAD)
            *(old ? &stop_old : &stop_new) = n;
        if (r->type == EL_GC_STATS_GHC)
            *(old ? &gc_old : &gc_new) = n;
        if (r->type == EL_NONMOVING_HEAP_CENSUS)
            *(old ? &cen_old : &cen_new) = n;
    }
    assert_int_equal(stop_old, 6);
    assert_int_equal(stop_new, 10);
    assert_int_equal(gc_old, 50);
    assert_int_equal(gc_new, 58);
    assert_int_equal(cen_old, 13);
    assert_int_equal(cen_new, 14);
}

/* The 13-byte census with a log2 too large for 32 bits: no shift overflow. */
static void test_census_log2_out_of_range(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_payload p;
    el_payload_init(&p);
    put_be(&p, 40, 1);
    put_be(&p, 1, 4);
    put_be(&p, 2, 4);
    put_be(&p, 3, 4);
    ok(el_writer_declare_type(w, EL_NONMOVING_HEAP_CENSUS, 13, "census"), w);
    ok(el_writer_event_payload(w, EL_NONMOVING_HEAP_CENSUS, 5, &p), w);
    ok(el_writer_finish(w), w);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    el_decoder *d = el_decoder_create();
    el_event ev;
    el_decoder_feed(d, bytes, len);
    assert_int_equal(el_decoder_next(d, &ev), EV_OK);
    assert_int_equal(ev.decoded, 1);
    assert_int_equal(ev.u.nonmoving_census.log_encoded, 1);
    assert_int_equal(ev.u.nonmoving_census.blk_size, 0);
    assert_int_equal(ev.u.nonmoving_census.active_segs, 1);
    assert_int_equal(ev.u.nonmoving_census.live_blocks, 3);
    assert_int_equal(el_decoder_next(d, &ev), EV_END);
    el_decoder_destroy(d);
    el_writer_destroy(w);
    el_payload_free(&p);
}

/* Every id below EL_NUM_TYPE_IDS that the table lacks (block marker aside)
 * comes with decoded == 0: the table covers every type the decoder knows. */
static void test_table_covers_decoder(void **state)
{
    (void)state;
    el_writer *wr = el_writer_create_mem();
    uint8_t zeros[64] = { 0 };
    want w[EL_NUM_TYPE_IDS];
    el_payload p;
    size_t n = 0;

    el_payload_init(&p);
    el_payload_bytes(&p, zeros, sizeof zeros);
    for (unsigned t = 0; t < EL_NUM_TYPE_IDS; t++)
        if (t != EL_BLOCK_MARKER && !in_table((uint16_t)t))
            ok(el_writer_declare_type(wr, (uint16_t)t, t % 2 ? EL_WRITER_VARIABLE : 64, NULL),
               wr);
    ok(el_writer_begin_data(wr), wr);
    for (unsigned t = 0; t < EL_NUM_TYPE_IDS; t++) {
        if (t == EL_BLOCK_MARKER || in_table((uint16_t)t))
            continue;
        want *x = &w[n++];
        memset(x, 0, sizeof *x);
        x->type = (uint16_t)t;
        x->cap = EL_NO_CAP;
        x->time = time_of((uint16_t)t, 0);
        x->offset = el_writer_offset(wr);
        x->var = t % 2;
        x->payload = &p;
        x->payload_len = p.len;
        x->decoded = 0;
        x->desc = "";
        ok(el_writer_event_payload(wr, (uint16_t)t, x->time, &p), wr);
    }
    ok(el_writer_finish(wr), wr);
    /* the ids GHC's header names that evprof does not decode: 13, 14, 70..89, ... */
    assert_true(n > 0);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(wr, &len);
    decode_all_ways(bytes, len, w, n);
    el_writer_destroy(wr);
    el_payload_free(&p);
}

/* Unknown types are skipped by their declared size, fixed or variable,
 * inside and outside blocks; the events around them decode. */
static void test_unknown_types_skipped(void **state)
{
    static const struct { uint16_t id; int var; size_t len; } unknown[] = {
        { 250, 0, 5 }, { 251, 1, 7 }, { 1000, 0, 0 }, { 0xfffe, 1, 0 }, { 213, 0, 3 },
        { 13, 0, 10 },  /* named CREATE_SPARK by GHC, not decoded */
    };
    (void)state;
    const row *run = NULL;
    for (size_t i = 0; i < N_ROWS; i++)
        if (rows[i].type == EL_RUN_THREAD)
            run = &rows[i];
    assert_non_null(run);

    el_writer *wr = el_writer_create_mem();
    el_payload up[6];
    built b[6];
    want w[2 * 6 + 2];
    size_t n = 0;
    uint16_t cap = 4;

    ok(el_writer_declare_type(wr, EL_BLOCK_MARKER, 14, "Block marker"), wr);
    ok(el_writer_declare_type(wr, EL_RUN_THREAD, 4, "Run thread"), wr);
    for (size_t i = 0; i < 6; i++)
        ok(el_writer_declare_type(wr, unknown[i].id,
                                  unknown[i].var ? EL_WRITER_VARIABLE : (int32_t)unknown[i].len,
                                  "unknown"), wr);
    ok(el_writer_begin_data(wr), wr);
    size_t block_at = 3, block_marker = 0;
    uint64_t block_start = 0;
    for (size_t i = 0; i < 6; i++) {
        if (i == block_at) {
            block_marker = n++;
            memset(&w[block_marker], 0, sizeof w[block_marker]);
            block_start = el_writer_offset(wr);
            w[block_marker] = (want){ .type = EL_BLOCK_MARKER, .cap = cap, .time = 77,
                                      .offset = block_start, .payload_len = 14,
                                      .decoded = 1, .block = 1, .block_end = 2100 };
            ok(el_writer_begin_block(wr, cap, 77), wr);
        }
        uint16_t c = i >= block_at ? cap : EL_NO_CAP;
        el_payload_init(&up[i]);
        for (size_t j = 0; j < unknown[i].len; j++)
            el_payload_u8(&up[i], (uint8_t)(0x30 + i * 8 + j));
        want *x = &w[n++];
        *x = (want){ .type = unknown[i].id, .cap = c, .time = 1000 + i,
                     .offset = el_writer_offset(wr), .var = unknown[i].var, .payload = &up[i],
                     .payload_len = up[i].len, .decoded = 0, .desc = "unknown" };
        ok(el_writer_event_payload(wr, unknown[i].id, x->time, &up[i]), wr);
        build(run, (unsigned)i, 0, &b[i]);
        put(wr, run, &b[i], 2000 + i, c, "Run thread", &w[n++]);
    }
    w[block_marker].block_size = (uint32_t)(el_writer_offset(wr) - block_start);
    ok(el_writer_end_block(wr, 2100), wr);   /* no later than its events, as GHC's */
    ok(el_writer_finish(wr), wr);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(wr, &len);
    decode_all_ways(bytes, len, w, n);
    el_writer_destroy(wr);
    for (size_t i = 0; i < 6; i++) {
        el_payload_free(&up[i]);
        el_payload_free(&b[i].p);
    }
}

/* The shortest payload of each type: the minimum over its layouts. */
typedef struct short_case {
    uint16_t type;
    int var;
    size_t min;
} short_case;

static size_t short_cases(short_case *out)
{
    size_t n = 0;
    for (size_t i = 0; i < N_ROWS; i++) {
        const row *r = &rows[i];
        size_t m = r->var ? scalar_len(r) : payload_len_of(r);
        size_t k;
        for (k = 0; k < n && out[k].type != r->type; k++)
            ;
        if (k == n)
            out[n++] = (short_case){ r->type, r->var, m };
        else if (m < out[k].min)
            out[k].min = m;
    }
    out[n++] = (short_case){ EL_BLOCK_MARKER, 0, 14 };
    return n;
}

/* A log: an unknown event, then `type` with a payload of `len` bytes, then
 * another unknown event. Returns the offset of the short event. */
static uint64_t write_short(el_writer *wr, const short_case *c, size_t len)
{
    uint8_t junk[64];
    memset(junk, 0x5a, sizeof junk);
    ok(el_writer_declare_type(wr, 250, 5, "unknown"), wr);
    ok(el_writer_declare_type(wr, c->type, c->var ? EL_WRITER_VARIABLE : (int32_t)len,
                              "too short"), wr);
    ok(el_writer_event(wr, 250, 1, junk, 5), wr);
    uint64_t at = el_writer_offset(wr);
    ok(el_writer_event(wr, c->type, 2, junk, len), wr);
    ok(el_writer_event(wr, 250, 3, junk, 5), wr);
    ok(el_writer_finish(wr), wr);
    return at;
}

/* Decoding stops at the short event with FORMAT naming it; the event
 * before is delivered. */
static void expect_short_error(const uint8_t *bytes, size_t len, const short_case *c,
                               uint64_t at, int select)
{
    el_decoder *d = el_decoder_create();
    el_event ev;
    if (select)
        el_decoder_only_fields(d, NULL, 0);
    el_decoder_feed(d, bytes, len);
    assert_int_equal(el_decoder_next(d, &ev), EV_OK);
    assert_int_equal(ev.type, 250);
    assert_int_equal(ev.decoded, 0);
    ev_status st = el_decoder_next(d, &ev);
    if (st != EV_ERR_FORMAT)
        fail_msg("type %u (%s) with %zu of %zu bytes%s: %s, expected a format error",
                 c->type, el_type_name(c->type), c->min - 1, c->min,
                 select ? " (fields not selected)" : "", ev_status_name(st));
    const ev_error *e = el_decoder_error(d);
    assert_int_equal(e->status, EV_ERR_FORMAT);
    assert_int_equal(e->offset, at);
    assert_int_equal(e->type, c->type);
    if (!strstr(e->msg, "too short"))
        fail_msg("type %u: message '%s'", c->type, e->msg);
    assert_int_equal(el_decoder_next(d, &ev), EV_ERR_FORMAT);   /* sticky */
    assert_int_equal(el_decoder_finish(d), EV_ERR_FORMAT);
    el_decoder_destroy(d);
}

static int count_events(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)ev;
    (void)d;
    ++*(size_t *)ctx;
    return 0;
}

/* One byte short of the oldest layout: a format error at the event. For
 * fixed-layout types also when their fields are not selected. */
static void test_one_byte_short(void **state)
{
    short_case cases[N_ROWS + 1];
    size_t n = short_cases(cases);
    size_t tested = 0;
    (void)state;
    for (size_t i = 0; i < n; i++) {
        const short_case *c = &cases[i];
        if (c->min == 0 || c->type == EL_IPE)   /* IPE: by its strings, test_writer.c */
            continue;
        el_writer *wr = el_writer_create_mem();
        uint64_t at = write_short(wr, c, c->min - 1);
        size_t len, seen = 0;
        const uint8_t *bytes = el_writer_borrow_bytes(wr, &len);
        expect_short_error(bytes, len, c, at, 0);
        if (!c->var)
            expect_short_error(bytes, len, c, at, 1);
        el_read_result r = el_read_mem(bytes, len, count_events, &seen, NULL);
        assert_int_equal(r.status, EV_ERR_FORMAT);
        assert_int_equal(r.events, 1);
        assert_int_equal(seen, 1);
        assert_int_equal(r.error.offset, at);
        assert_int_equal(r.error.type, c->type);
        el_writer_destroy(wr);
        tested++;
    }
    assert_true(tested > 70);
}

/* el_decoder_only_fields: the selected types decode, the others arrive
 * with decoded == 0 and their framing; block markers always decode. */
/* The first case of each type that is not an older layout. */
static int first_current(size_t i)
{
    if (rows[i].flags & OLD)
        return 0;
    for (size_t j = 0; j < i; j++)
        if (rows[j].type == rows[i].type && !(rows[j].flags & OLD))
            return 0;
    return 1;
}

static void run_only_fields(const uint16_t *only, size_t n_only)
{
    el_writer *wr = el_writer_create_mem();
    built b[N_ROWS];
    want w[N_ROWS + 3];
    size_t n = 0, nb = 0;
    uint16_t cap = 9;
    uint64_t block_start = 0;
    size_t marker = 0;
    el_payload junk;

    el_payload_init(&junk);
    put_be(&junk, 0x414243, 3);
    ok(el_writer_declare_type(wr, EL_BLOCK_MARKER, 14, "Block marker"), wr);
    ok(el_writer_declare_type(wr, 13, 3, "t"), wr);
    ok(el_writer_declare_type(wr, 250, EL_WRITER_VARIABLE, "t"), wr);
    for (size_t i = 0; i < N_ROWS; i++) {
        const row *r = &rows[i];
        if (!first_current(i))
            continue;
        build(r, r->type, 0, &b[nb]);
        ok(el_writer_declare_type(wr, r->type, r->var ? EL_WRITER_VARIABLE
                                                      : (int32_t)b[nb].p.len, "t"), wr);
        nb++;
    }
    ok(el_writer_begin_data(wr), wr);
    /* types the decoder does not know stay undecoded even when selected */
    static const uint16_t unknown[] = { 13, 250 };
    for (size_t i = 0; i < 2; i++) {
        uint16_t t = unknown[i];
        /* at times near the others' (none more than a day apart) */
        uint64_t time = time_of(t, 5);
        w[n] = (want){ .type = t, .cap = EL_NO_CAP, .time = time, .offset = el_writer_offset(wr),
                       .var = t == 250, .payload = &junk, .payload_len = 3, .decoded = 0,
                       .desc = "t" };
        ok(el_writer_event_payload(wr, t, time, &junk), wr);
        n++;
    }
    size_t k = 0;
    for (size_t i = 0; i < N_ROWS; i++) {
        const row *r = &rows[i];
        if (!first_current(i))
            continue;
        if (k == nb / 2) {   /* the second half inside a block */
            marker = n++;
            block_start = el_writer_offset(wr);
            /* a block whose end time is no earlier than its events' */
            w[marker] = (want){ .type = EL_BLOCK_MARKER, .cap = cap, .time = time_of(0, 0),
                                .offset = block_start, .payload_len = 14, .decoded = 1,
                                .block = 1, .block_end = time_of(0xffff, 15) };
            ok(el_writer_begin_block(wr, cap, time_of(0, 0)), wr);
        }
        put(wr, r, &b[k], time_of(r->type, 4), k >= nb / 2 ? cap : EL_NO_CAP, "t", &w[n]);
        int sel = 0;
        for (size_t j = 0; j < n_only; j++)
            sel |= only[j] == r->type;
        w[n].decoded = sel;
        n++;
        k++;
    }
    w[marker].block_size = (uint32_t)(el_writer_offset(wr) - block_start);
    ok(el_writer_end_block(wr, time_of(0xffff, 15)), wr);
    ok(el_writer_finish(wr), wr);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(wr, &len);
    decode_with(bytes, len, 0, only, (long)n_only, w, n);
    decode_with(bytes, len, 1, only, (long)n_only, w, n);
    el_writer_destroy(wr);
    for (size_t i = 0; i < nb; i++)
        el_payload_free(&b[i].p);
    el_payload_free(&junk);
}

static void test_only_fields(void **state)
{
    static const uint16_t some[] = {
        EL_STOP_THREAD, EL_HEAP_PROF_COST_CENTRE, EL_PROF_SAMPLE_COST_CENTRE,
        EL_TICKY_COUNTER_DEF, EL_GC_STATS_GHC, EL_MER_FUT_CREATE,
        250, 13, 60000,   /* unknown or out of range: ignored */
    };
    static const uint16_t one[] = { EL_USER_BINARY_MSG };
    (void)state;
    run_only_fields(some, sizeof some / sizeof some[0]);
    run_only_fields(one, 1);
    run_only_fields(NULL, 0);   /* nothing but block markers */
}

/* With no fields selected a string without its NUL is still an error:
 * whether a log is damaged does not depend on what the consumer reads. */
static void test_only_fields_still_checks_strings(void **state)
{
    (void)state;
    el_writer *wr = el_writer_create_mem();
    el_payload p;
    el_payload_init(&p);
    put_be(&p, 7, 4);
    el_payload_bytes(&p, "main", 4);   /* label without NUL, nothing after */
    ok(el_writer_declare_type(wr, EL_HEAP_PROF_COST_CENTRE, EL_WRITER_VARIABLE, "cc"), wr);
    ok(el_writer_event_payload(wr, EL_HEAP_PROF_COST_CENTRE, 1, &p), wr);
    ok(el_writer_finish(wr), wr);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(wr, &len);

    el_decoder *d = el_decoder_create();
    el_event ev;
    el_decoder_only_fields(d, NULL, 0);     /* no fields asked for ... */
    el_decoder_feed(d, bytes, len);
    assert_int_equal(el_decoder_next(d, &ev), EV_ERR_FORMAT);   /* ... still checked */
    assert_int_equal(el_decoder_error(d)->type, EL_HEAP_PROF_COST_CENTRE);
    el_decoder_destroy(d);

    d = el_decoder_create();
    el_decoder_feed(d, bytes, len);
    assert_int_equal(el_decoder_next(d, &ev), EV_ERR_FORMAT);
    assert_int_equal(el_decoder_error(d)->type, EL_HEAP_PROF_COST_CENTRE);
    el_decoder_destroy(d);
    el_writer_destroy(wr);
    el_payload_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_values_distinct),
        cmocka_unit_test(test_old_layout_sizes),
        cmocka_unit_test(test_every_known_type),
        cmocka_unit_test(test_extra_trailing_bytes),
        cmocka_unit_test(test_census_log2_out_of_range),
        cmocka_unit_test(test_table_covers_decoder),
        cmocka_unit_test(test_unknown_types_skipped),
        cmocka_unit_test(test_one_byte_short),
        cmocka_unit_test(test_only_fields),
        cmocka_unit_test(test_only_fields_still_checks_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
