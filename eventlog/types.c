/* The one table of event types (see types.h) and evprof's type names. */
#include "eventlog/types.h"

#include <stddef.h>
#include <string.h>

#include "eventlog/bytes.h"
#include "eventlog/layouts.h"

#define VAR EL_VARIABLE_SIZE
#define GE_NO EL_GE_NONE, 0
#define GE_VAR EL_GE_VARIABLE, 0
#define GE_FIX(n) EL_GE_FIXED, n
#define DEC EL_TYPE_DECODED
#define G9_0 EL_TYPE_GHC_9_0
#define G9_2 EL_TYPE_GHC_9_2
#define G9_12 EL_TYPE_GHC_9_12
#define SINCE_9_2 (G9_2 | G9_12)
#define GHC_ALL (G9_0 | SINCE_9_2)

/* T(id, GHC's description, its declared size, decoder's smallest payload,
 *   ghc-events' parser, flags) */
#define T(id, desc, size, min_len, ge, flags) \
    [EL_##id] = { #id, desc, size, min_len, ge, flags }

const el_type_info el_type_table[] = {
    T(CREATE_THREAD, "Create thread", 4, 4, GE_FIX(4), DEC | GHC_ALL),
    T(RUN_THREAD, "Run thread", 4, 4, GE_FIX(4), DEC | GHC_ALL),
    /* the u32 blocker came in GHC 7.x; ghc-events parses only the 10 bytes */
    T(STOP_THREAD, "Stop thread", 10, 6, GE_FIX(10), DEC | GHC_ALL),
    T(THREAD_RUNNABLE, "Thread runnable", 4, 4, GE_FIX(4), DEC | GHC_ALL),
    T(MIGRATE_THREAD, "Migrate thread", 6, 6, GE_FIX(6), DEC | GHC_ALL),
    T(RUN_SPARK, NULL, 0, 4, GE_NO, DEC),
    T(STEAL_SPARK, NULL, 0, 6, GE_NO, DEC),
    T(SHUTDOWN, NULL, 0, 0, GE_NO, DEC),
    T(THREAD_WAKEUP, "Wakeup thread", 6, 6, GE_FIX(6), DEC | GHC_ALL),
    T(GC_START, "Starting GC", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(GC_END, "Finished GC", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(REQUEST_SEQ_GC, "Request sequential GC", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(REQUEST_PAR_GC, "Request parallel GC", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(CREATE_SPARK, NULL, 0, 0, GE_NO, 0),
    T(SPARK_TO_THREAD, NULL, 0, 0, GE_NO, 0),
    T(CREATE_SPARK_THREAD, "Create spark thread", 4, 4, GE_FIX(4), DEC | GHC_ALL),
    T(LOG_MSG, "Log message", VAR, 0, GE_VAR, DEC | GHC_ALL),
    T(STARTUP, "Create capabilities", 2, 2, GE_FIX(2), DEC),
    T(BLOCK_MARKER, "Block marker", 14, 14, GE_FIX(14), DEC | GHC_ALL),
    T(USER_MSG, "User message", VAR, 0, GE_VAR, DEC | GHC_ALL),
    T(GC_IDLE, "GC idle", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(GC_WORK, "GC working", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(GC_DONE, "GC done", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(VERSION, "Version", VAR, 0, GE_VAR, DEC),
    T(PROGRAM_INVOCATION, "Program invocation", VAR, 0, GE_VAR, DEC),
    T(CAPSET_CREATE, "Create capability set", 6, 6, GE_FIX(6), DEC | GHC_ALL),
    T(CAPSET_DELETE, "Delete capability set", 4, 4, GE_FIX(4), DEC | GHC_ALL),
    T(CAPSET_ASSIGN_CAP, "Add capability to capability set", 6, 6, GE_FIX(6), DEC | GHC_ALL),
    T(CAPSET_REMOVE_CAP, "Remove capability from capability set", 6, 6, GE_FIX(6), DEC | GHC_ALL),
    T(RTS_IDENTIFIER, "RTS name and version", VAR, 4, GE_VAR, DEC | GHC_ALL),
    T(PROGRAM_ARGS, "Program arguments", VAR, 4, GE_VAR, DEC | GHC_ALL),
    T(PROGRAM_ENV, "Program environment variables", VAR, 4, GE_VAR, DEC | GHC_ALL),
    T(OSPROCESS_PID, "Process ID", 8, 8, GE_FIX(8), DEC | GHC_ALL),
    T(OSPROCESS_PPID, "Parent process ID", 8, 8, GE_FIX(8), DEC | GHC_ALL),
    T(SPARK_COUNTERS, "Spark counters", 56, 56, GE_FIX(56), DEC | GHC_ALL),
    T(SPARK_CREATE, "Spark create", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(SPARK_DUD, "Spark dud", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(SPARK_OVERFLOW, "Spark overflow", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(SPARK_RUN, "Spark run", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(SPARK_STEAL, "Spark steal", 2, 2, GE_FIX(2), DEC | GHC_ALL),
    T(SPARK_FIZZLE, "Spark fizzle", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(SPARK_GC, "Spark GC", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(INTERN_STRING, "Intern string", VAR, 4, GE_VAR, DEC | G9_12),
    T(WALL_CLOCK_TIME, "Wall clock time", 16, 16, GE_FIX(16), DEC | GHC_ALL),
    T(THREAD_LABEL, "Thread label", VAR, 4, GE_VAR, DEC | GHC_ALL),
    T(CAP_CREATE, "Create capability", 2, 2, GE_FIX(2), DEC | GHC_ALL),
    T(CAP_DELETE, "Delete capability", 2, 2, GE_FIX(2), DEC | GHC_ALL),
    T(CAP_DISABLE, "Disable capability", 2, 2, GE_FIX(2), DEC | GHC_ALL),
    T(CAP_ENABLE, "Enable capability", 2, 2, GE_FIX(2), DEC | GHC_ALL),
    T(HEAP_ALLOCATED, "Total heap memory ever allocated", 12, 12, GE_FIX(12), DEC | GHC_ALL),
    T(HEAP_SIZE, "Current heap size (number of allocated mblocks)",
      12, 12, GE_FIX(12), DEC | GHC_ALL),
    T(HEAP_LIVE, "Current heap live data", 12, 12, GE_FIX(12), DEC | GHC_ALL),
    T(HEAP_INFO_GHC, "Heap static parameters", 38, 38, GE_FIX(38), DEC | GHC_ALL),
    /* the u64 balanced field came in GHC 8.x */
    T(GC_STATS_GHC, "GC statistics", 58, 50, GE_FIX(50), DEC | GHC_ALL),
    T(GC_GLOBAL_SYNC, "Synchronise stop-the-world GC", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(TASK_CREATE, "Task create", 18, 18, GE_FIX(18), DEC | GHC_ALL),
    T(TASK_MIGRATE, "Task migrate", 12, 12, GE_FIX(12), DEC | GHC_ALL),
    T(TASK_DELETE, "Task delete", 8, 8, GE_FIX(8), DEC | GHC_ALL),
    T(USER_MARKER, "User marker", VAR, 0, GE_VAR, DEC | GHC_ALL),
    T(HACK_BUG_T9003, "Empty event for bug #9003", 0, 0, GE_NO, DEC | GHC_ALL),
    T(EDEN_START_RECEIVE, "Starting message receival", 0, 0, GE_FIX(0), DEC),
    T(EDEN_END_RECEIVE, "Finished message receival", 0, 0, GE_FIX(0), DEC),
    T(CREATE_PROCESS, "Creating Process", 4, 4, GE_FIX(4), DEC),
    T(KILL_PROCESS, "Killing Process", 4, 4, GE_FIX(4), DEC),
    T(ASSIGN_THREAD_TO_PROCESS, "Assigning thread to process", 8, 8, GE_FIX(8), DEC),
    T(CREATE_MACHINE, "Creating machine", 10, 10, GE_FIX(10), DEC),
    T(KILL_MACHINE, "Killing machine", 2, 2, GE_FIX(2), DEC),
    T(SEND_MESSAGE, "Sending message", 19, 19, GE_FIX(19), DEC),
    T(RECEIVE_MESSAGE, "Receiving message", 23, 23, GE_FIX(23), DEC),
    T(SEND_RECEIVE_LOCAL_MESSAGE, "Sending/Receiving local message", 17, 17, GE_FIX(17), DEC),
    T(MEM_RETURN, "The RTS attempted to return heap memory to the OS",
      16, 16, GE_FIX(16), DEC | SINCE_9_2),
    T(BLOCKS_SIZE, "Report the size of the heap in blocks", 12, 12, GE_FIX(12), DEC | SINCE_9_2),
    T(MER_START_PAR_CONJUNCTION, NULL, 0, 12, GE_FIX(12), DEC),
    T(MER_STOP_PAR_CONJUNCTION, NULL, 0, 8, GE_FIX(8), DEC),
    T(MER_STOP_PAR_CONJUNCT, NULL, 0, 8, GE_FIX(8), DEC),
    T(MER_CREATE_SPARK, NULL, 0, 12, GE_FIX(12), DEC),
    T(MER_FUT_CREATE, NULL, 0, 12, GE_FIX(12), DEC),
    T(MER_FUT_WAIT_NOSUSPEND, NULL, 0, 8, GE_FIX(8), DEC),
    T(MER_FUT_WAIT_SUSPENDED, NULL, 0, 8, GE_FIX(8), DEC),
    T(MER_FUT_SIGNAL, NULL, 0, 8, GE_FIX(8), DEC),
    T(MER_LOOKING_FOR_GLOBAL_CONTEXT, NULL, 0, 0, GE_FIX(0), DEC),
    T(MER_WORK_STEALING, NULL, 0, 0, GE_FIX(0), DEC),
    T(MER_RELEASE_CONTEXT, NULL, 0, 4, GE_FIX(4), DEC),
    T(MER_ENGINE_SLEEPING, NULL, 0, 0, GE_FIX(0), DEC),
    T(MER_LOOKING_FOR_LOCAL_SPARK, NULL, 0, 0, GE_FIX(0), DEC),
    T(MER_CALLING_MAIN, NULL, 0, 0, GE_FIX(0), DEC),
    T(PERF_NAME, NULL, 0, 4, GE_VAR, DEC),
    T(PERF_COUNTER, NULL, 0, 20, GE_FIX(20), DEC),
    T(PERF_TRACEPOINT, NULL, 0, 12, GE_FIX(12), DEC),
    T(HEAP_PROF_BEGIN, "Start of heap profile", VAR, 13, GE_VAR, DEC | GHC_ALL),
    T(HEAP_PROF_COST_CENTRE, "Cost-centre definition", VAR, 4, GE_VAR, DEC | GHC_ALL),
    T(HEAP_PROF_SAMPLE_BEGIN, "Start of heap profile sample", 8, 8, GE_FIX(8), DEC | GHC_ALL),
    T(HEAP_PROF_SAMPLE_COST_CENTRE, "Heap profile cost-centre sample",
      VAR, 10, GE_VAR, DEC | GHC_ALL),
    T(HEAP_PROF_SAMPLE_STRING, "Heap profile string sample", VAR, 9, GE_VAR, DEC | GHC_ALL),
    T(HEAP_PROF_SAMPLE_END, "End of heap profile sample", 8, 8, GE_FIX(8), DEC | GHC_ALL),
    T(HEAP_BIO_PROF_SAMPLE_BEGIN, "Start of heap profile (biographical) sample",
      16, 16, GE_FIX(16), DEC | GHC_ALL),
    T(PROF_SAMPLE_COST_CENTRE, "Time profile cost-centre stack", VAR, 13, GE_VAR, DEC | GHC_ALL),
    T(PROF_BEGIN, "Start of a time profile", 8, 8, GE_FIX(8), DEC | GHC_ALL),
    T(IPE, "An IPE entry", VAR, 8, GE_VAR, DEC | SINCE_9_2),
    T(USER_BINARY_MSG, "User binary message", VAR, 0, GE_VAR, DEC | GHC_ALL),
    T(CONC_MARK_BEGIN, "Begin concurrent mark phase", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(CONC_MARK_END, "End concurrent mark phase", 4, 4, GE_FIX(4), DEC | GHC_ALL),
    T(CONC_SYNC_BEGIN, "Begin concurrent GC synchronisation", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(CONC_SYNC_END, "End concurrent mark synchronisation", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(CONC_SWEEP_BEGIN, "Begin concurrent sweep phase", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(CONC_SWEEP_END, "End concurrent sweep phase", 0, 0, GE_FIX(0), DEC | GHC_ALL),
    T(CONC_UPD_REM_SET_FLUSH, "Update remembered set flushed", 2, 2, GE_FIX(2), DEC | GHC_ALL),
    /* a u8 log2 block size until GHC 9.10 (13 bytes), a u16 since (14) */
    T(NONMOVING_HEAP_CENSUS, "Nonmoving heap census", 14, 13, GE_FIX(13), DEC | GHC_ALL),
    T(NONMOVING_PRUNED_SEGMENTS,
      "Report the amount of segments pruned and remaining on the free list.",
      8, 8, GE_FIX(8), DEC | G9_12),
    T(TICKY_COUNTER_DEF, "Ticky-ticky entry counter definition", VAR, 10, GE_VAR, DEC | SINCE_9_2),
    T(TICKY_COUNTER_SAMPLE, "Ticky-ticky entry counter sample",
      32, 32, GE_FIX(32), DEC | SINCE_9_2),
    T(TICKY_BEGIN_SAMPLE, "Ticky-ticky entry counter begin sample",
      0, 0, GE_FIX(0), DEC | SINCE_9_2),
};

_Static_assert(sizeof el_type_table / sizeof el_type_table[0] == EL_NUM_TYPE_IDS,
               "one row per type id below EL_NUM_TYPE_IDS");

/* N(kind, at, flags): a number of a run in the payload (types.h) */
#define N(k, at, f) { EL_NUM_##k + 1, at, f }
#define U32 EL_NUMF_U32
#define CAPSET0 { N(CAPSET, 0, U32) }
const el_num_field el_type_numbers[EL_NUM_TYPE_IDS][EL_NUM_FIELDS] = {
    [EL_CREATE_THREAD] = { N(THREAD, 0, U32) },
    [EL_RUN_THREAD] = { N(THREAD, 0, U32) },
    [EL_STOP_THREAD] = { N(THREAD, 0, U32), N(THREAD, 6, U32 | EL_NUMF_ZERO_NONE) },
    [EL_THREAD_RUNNABLE] = { N(THREAD, 0, U32) },
    [EL_MIGRATE_THREAD] = { N(THREAD, 0, U32), N(CAP, 4, 0) },
    [EL_THREAD_WAKEUP] = { N(THREAD, 0, U32), N(CAP, 4, 0) },
    [EL_CREATE_SPARK_THREAD] = { N(THREAD, 0, U32) },
    [EL_THREAD_LABEL] = { N(THREAD, 0, U32) },
    [EL_CAP_CREATE] = { N(CAP, 0, 0) },
    [EL_CAP_DELETE] = { N(CAP, 0, 0) },
    [EL_CAP_DISABLE] = { N(CAP, 0, 0) },
    [EL_CAP_ENABLE] = { N(CAP, 0, 0) },
    [EL_CAPSET_ASSIGN_CAP] = { N(CAPSET, 0, U32), N(CAP, 4, 0) },
    [EL_CAPSET_REMOVE_CAP] = { N(CAPSET, 0, U32), N(CAP, 4, 0) },
    [EL_CAPSET_CREATE] = CAPSET0,
    [EL_CAPSET_DELETE] = CAPSET0,
    [EL_RTS_IDENTIFIER] = CAPSET0,
    [EL_PROGRAM_ARGS] = CAPSET0,
    [EL_PROGRAM_ENV] = CAPSET0,
    [EL_OSPROCESS_PID] = CAPSET0,
    [EL_OSPROCESS_PPID] = CAPSET0,
    [EL_WALL_CLOCK_TIME] = CAPSET0,
    [EL_HEAP_ALLOCATED] = CAPSET0,
    [EL_HEAP_SIZE] = CAPSET0,
    [EL_HEAP_LIVE] = CAPSET0,
    [EL_HEAP_INFO_GHC] = CAPSET0,
    [EL_GC_STATS_GHC] = CAPSET0,
    [EL_MEM_RETURN] = CAPSET0,
    [EL_BLOCKS_SIZE] = CAPSET0,
    [EL_TASK_CREATE] = { N(CAP, 8, 0) },
    [EL_TASK_MIGRATE] = { N(CAP, 8, 0), N(CAP, 10, 0) },
    [EL_PROF_SAMPLE_COST_CENTRE] = { N(CAP, 0, U32), N(CC, 12, EL_NUMF_STACK) },
    [EL_HEAP_PROF_COST_CENTRE] = { N(CC, 0, U32) },
    [EL_HEAP_PROF_SAMPLE_COST_CENTRE] = { N(CC, 9, EL_NUMF_STACK) },
};
#undef N
#undef U32
#undef CAPSET0

void el_numbers_at(uint16_t type, const uint8_t *p, uint32_t len, el_num_at_fn fn, void *ctx)
{
    if (type >= EL_NUM_TYPE_IDS)
        return;
    for (int i = 0; i < EL_NUM_FIELDS; i++) {
        const el_num_field *f = &el_type_numbers[type][i];
        if (!f->kind)
            break;
        el_num_kind k = (el_num_kind)(f->kind - 1);
        if (f->flags & EL_NUMF_STACK) {
            if (f->at >= len)
                continue;
            for (uint32_t j = 0, depth = p[f->at]; j < depth && f->at + 1u + 4u * (j + 1) <= len;
                 j++)
                fn(ctx, k, f->at + 1 + 4 * j, 1);
            continue;
        }
        int u32 = (f->flags & EL_NUMF_U32) != 0;
        if (f->at + (u32 ? 4u : 2u) > len)
            continue;
        if ((f->flags & EL_NUMF_ZERO_NONE) && (u32 ? be32(p + f->at) : be16(p + f->at)) == 0)
            continue;
        fn(ctx, k, f->at, u32);
    }
}

/* el_event_numbers' visit: the value at its place, to the caller's fn */
typedef struct read_numbers {
    const uint8_t *p;
    el_number_fn fn;
    void *ctx;
} read_numbers;

static void read_number(void *ctx, el_num_kind kind, uint32_t at, int u32)
{
    const read_numbers *r = ctx;
    r->fn(r->ctx, kind, u32 ? be32(r->p + at) : be16(r->p + at));
}

void el_event_numbers(const el_event *ev, el_number_fn fn, void *ctx)
{
    read_numbers r = { ev->payload, fn, ctx };
    el_numbers_at(ev->type, ev->payload, ev->payload_len, read_number, &r);
}

/* The layouts (layouts.h) as rows of descriptors. */
#define LAY_FIELD(kind, off, member) \
    { EL_F_##kind, off, sizeof(((el_event *)0)->u.member), offsetof(el_event, u.member) },
#define LAY_ROW(type, text, fields) \
    [EL_##type] = { text, (const el_field[]){ fields { EL_F_END, 0, 0, 0 } } },
const el_layout el_layout_table[EL_NUM_TYPE_IDS] = { EL_LAYOUTS(LAY_ROW, LAY_FIELD) };
#undef LAY_ROW
#undef LAY_FIELD

int el_field_width(uint8_t kind)
{
    switch (kind) {
    case EL_F_U8: return 1;
    case EL_F_U16: return 2;
    case EL_F_U32: case EL_F_OPT32: return 4;
    case EL_F_U64: case EL_F_OPT64: return 8;
    default: return 0;
    }
}

const char *el_type_name(uint16_t type)
{
    return type < EL_NUM_TYPE_IDS ? el_type_table[type].name : NULL;
}
