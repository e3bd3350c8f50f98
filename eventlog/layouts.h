/* Each event type's layout, written once (STYLE item 25, the kernel's
 * TRACE_EVENT): its fields (kind, payload offset, the el_event field the
 * decoder fills) and the `ghc-events show` text made of them. Three
 * readers expand the one list:
 *
 *   - the decoder (fields.c) expands it into the cases of its switch:
 *     the same straight-line loads at constant offsets as written by
 *     hand, so the hot path interprets nothing per field;
 *   - el_layout_table (types.c) expands it into a table of descriptors
 *     (payload offset, and the el_event field's offset and size), which
 *     `dump`'s text (show.c) walks, formatting TEXT from el_event;
 *   - the eventlog writer (writer.c) packs a type's values by the same
 *     table, so what it writes is what the decoder reads.
 *
 * Why an X-macro rather than only a table: a table-driven decoder loops
 * and branches on each field's kind for every event, measurably slower
 * on the hot path; generated switch cases cost what the hand-written
 * ones did, and the layout is still stated in one place.
 *
 * L(TYPE, TEXT, FIELDS): FIELDS is a sequence of F(KIND, OFFSET, MEMBER),
 * MEMBER a field of el_event.u. KIND:
 *   U8 U16 U32 U64  a big-endian number at OFFSET
 *   OPT32 OPT64     the same, or 0 when the payload ends before it (a
 *                   field a later GHC added)
 *   HAS             1 when the payload holds OFFSET bytes (the flag of an
 *                   OPT field)
 *   ZERO            no payload: the member is set to 0
 *   STR             the bytes from OFFSET to the payload's end
 *   STR4            the bytes from OFFSET to 4 before the end
 *   TAIL32          the u32 in the last 4 bytes
 *   NOSTR           an empty string
 *   STACK           a u8 depth at OFFSET, then that many u32 (MEMBER is
 *                   the struct with `depth` and `stack`)
 * TEXT is `ghc-events show`'s text: literal bytes, and %cN for field N
 * (0-based, every F counts) where c is d (decimal), x (hex, no 0x),
 * s (the string as is), l (Latin-1, as ghc-events' Char8), L (a Haskell
 * list of the NUL-separated strings), b (binary bytes) or t (an Eden
 * message tag's name; ghc-events fails on another tag, and then the
 * event is shown by its description). NULL TEXT: the
 * text is irregular (ghc-events' quirks) and show.c writes it in a small
 * function of its own, reading these same fields.
 *
 * Types whose fields follow NUL-terminated strings (heap profile begin,
 * cost centres, IPE, ticky definitions) are in EL_VAR_LAYOUTS below,
 * which the decoder expands into reads through a bounds-checked cursor.
 *
 * A new event type is one entry here and one row of el_type_table
 * (types.c: its name, GHC's description and size, which tests/
 * test_layouts.c checks against this layout); an irregular text adds a
 * case to show.c's put_fields, a typed writer function a line in
 * writer.c. */
#ifndef EVPROF_EVENTLOG_LAYOUTS_H
#define EVPROF_EVENTLOG_LAYOUTS_H

#define EL_LAYOUTS(L, F)                                                            \
    L(CREATE_THREAD, "creating thread %d0", F(U32, 0, thread.thread))                \
    L(RUN_THREAD, "running thread %d0", F(U32, 0, thread.thread))                    \
    L(STOP_THREAD, NULL,                                                             \
      F(U32, 0, stop_thread.thread) F(U16, 4, stop_thread.status)                    \
      F(HAS, 10, stop_thread.has_blocker) F(OPT32, 6, stop_thread.blocker))          \
    L(THREAD_RUNNABLE, "thread %d0 is runnable", F(U32, 0, thread.thread))           \
    L(MIGRATE_THREAD, "migrating thread %d0 to cap %d1",                             \
      F(U32, 0, thread_cap.thread) F(U16, 4, thread_cap.cap))                        \
    L(RUN_SPARK, NULL, F(U32, 0, thread.thread))                                     \
    L(STEAL_SPARK, NULL, F(U32, 0, thread_cap.thread) F(U16, 4, thread_cap.cap))     \
    L(THREAD_WAKEUP, "waking up thread %d0 on cap %d1",                              \
      F(U32, 0, thread_cap.thread) F(U16, 4, thread_cap.cap))                        \
    L(GC_START, "starting GC", )                                                     \
    L(GC_END, "finished GC", )                                                       \
    L(REQUEST_SEQ_GC, "requesting sequential GC", )                                  \
    L(REQUEST_PAR_GC, "requesting parallel GC", )                                    \
    L(CREATE_SPARK_THREAD, "creating spark thread %d0", F(U32, 0, thread.thread))    \
    L(LOG_MSG, "%s2", F(ZERO, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 0, text.str)) \
    L(STARTUP, "startup: %d0 capabilities", F(U16, 0, startup.n_caps))               \
    L(BLOCK_MARKER, "event block: cap %d2, end time: %d1\n",                         \
      F(U32, 0, block.size) F(U64, 4, block.end_time) F(U16, 12, block.cap))         \
    L(USER_MSG, "%s2", F(ZERO, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 0, text.str)) \
    L(GC_IDLE, "GC idle", )                                                          \
    L(GC_WORK, "GC working", )                                                       \
    L(GC_DONE, "GC done", )                                                          \
    L(VERSION, "compiler version is %l2",                                            \
      F(ZERO, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 0, text.str))           \
    L(PROGRAM_INVOCATION, "program invocation: %l2",                                 \
      F(ZERO, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 0, text.str))           \
    L(CAPSET_CREATE, NULL, F(U32, 0, capset_create.capset) F(U16, 4, capset_create.type)) \
    L(CAPSET_DELETE, "deleted capset %d0",                                           \
      F(U32, 0, capset_cap.capset) F(ZERO, 0, capset_cap.cap))                       \
    L(CAPSET_ASSIGN_CAP, "assigned cap %d1 to capset %d0",                           \
      F(U32, 0, capset_cap.capset) F(U16, 4, capset_cap.cap))                        \
    L(CAPSET_REMOVE_CAP, "removed cap %d1 from capset %d0",                          \
      F(U32, 0, capset_cap.capset) F(U16, 4, capset_cap.cap))                        \
    L(RTS_IDENTIFIER, "capset %d0: RTS version \"%s2\"",                             \
      F(U32, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 4, text.str))            \
    L(PROGRAM_ARGS, "capset %d0: args: %L2",                                         \
      F(U32, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 4, text.str))            \
    L(PROGRAM_ENV, "capset %d0: env: %L2",                                           \
      F(U32, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 4, text.str))            \
    L(OSPROCESS_PID, "capset %d0: pid %d1", F(U32, 0, pid.capset) F(U32, 4, pid.pid)) \
    L(OSPROCESS_PPID, "capset %d0: parent pid %d1",                                  \
      F(U32, 0, pid.capset) F(U32, 4, pid.pid))                                      \
    /* GHC's order: crt dud ovf cnv gcd fiz rem */                                   \
    L(SPARK_COUNTERS,                                                                \
      "spark stats: %d0 created, %d3 converted, %d6 remaining (%d2 overflowed, "     \
      "%d1 dud, %d4 GC'd, %d5 fizzled)",                                             \
      F(U64, 0, spark_counters.created) F(U64, 8, spark_counters.dud)                \
      F(U64, 16, spark_counters.overflowed) F(U64, 24, spark_counters.converted)     \
      F(U64, 32, spark_counters.gcd) F(U64, 40, spark_counters.fizzled)              \
      F(U64, 48, spark_counters.remaining))                                          \
    L(SPARK_CREATE, "spark created", )                                               \
    L(SPARK_DUD, "dud spark discarded", )                                            \
    L(SPARK_OVERFLOW, "overflowed spark discarded", )                                \
    L(SPARK_RUN, "running a local spark", )                                          \
    L(SPARK_STEAL, "stealing a spark from cap %d0", F(U16, 0, cap.cap))              \
    L(SPARK_FIZZLE, "spark fizzled", )                                               \
    L(SPARK_GC, "spark GCed", )                                                      \
    /* string, then the u32 id, which goes in capset */                              \
    L(INTERN_STRING, "Interned string: \"%l0\" with id %d1",                         \
      F(STR4, 0, text.str) F(TAIL32, 0, text.capset) F(ZERO, 0, text.thread))        \
    L(WALL_CLOCK_TIME, "capset %d0: wall clock time %d1s %d2ns (unix epoch)",        \
      F(U32, 0, wall_clock.capset) F(U64, 4, wall_clock.sec) F(U32, 12, wall_clock.nsec)) \
    L(THREAD_LABEL, "thread %d1 has label \"%s2\"",                                  \
      F(ZERO, 0, text.capset) F(U32, 0, text.thread) F(STR, 4, text.str))            \
    L(CAP_CREATE, "created cap %d0", F(U16, 0, cap.cap))                             \
    L(CAP_DELETE, "deleted cap %d0", F(U16, 0, cap.cap))                             \
    L(CAP_DISABLE, "disabled cap %d0", F(U16, 0, cap.cap))                           \
    L(CAP_ENABLE, "enabled cap %d0", F(U16, 0, cap.cap))                             \
    L(HEAP_ALLOCATED, "allocated on heap capset %d0: %d1 total bytes till now",      \
      F(U32, 0, heap.capset) F(U64, 4, heap.bytes))                                  \
    L(HEAP_SIZE, "size of heap capset %d0: %d1 bytes",                               \
      F(U32, 0, heap.capset) F(U64, 4, heap.bytes))                                  \
    L(HEAP_LIVE, "live data in heap capset %d0: %d1 bytes",                          \
      F(U32, 0, heap.capset) F(U64, 4, heap.bytes))                                  \
    L(HEAP_INFO_GHC,                                                                 \
      "heap stats for heap capset %d0: generations %d1, %d2 bytes max heap size, "   \
      "%d3 bytes alloc area size, %d4 bytes mblock size, %d5 bytes block size",      \
      F(U32, 0, heap_info.capset) F(U16, 4, heap_info.gens)                          \
      F(U64, 6, heap_info.max_heap_size) F(U64, 14, heap_info.alloc_area_size)       \
      F(U64, 22, heap_info.mblock_size) F(U64, 30, heap_info.block_size))            \
    /* the u64 balanced field came in GHC 8.x */                                     \
    L(GC_STATS_GHC, NULL,                                                            \
      F(U32, 0, gc_stats.capset) F(U16, 4, gc_stats.gen) F(U64, 6, gc_stats.copied)  \
      F(U64, 14, gc_stats.slop) F(U64, 22, gc_stats.frag)                            \
      F(U32, 30, gc_stats.par_n_threads) F(U64, 34, gc_stats.par_max_copied)         \
      F(U64, 42, gc_stats.par_tot_copied) F(HAS, 58, gc_stats.has_balanced)          \
      F(OPT64, 50, gc_stats.par_balanced_copied))                                    \
    L(GC_GLOBAL_SYNC, "all caps stopped for GC", )                                   \
    L(TASK_CREATE, "task 0x%x0 created on cap %d1 with OS kernel thread %d3",        \
      F(U64, 0, task.task) F(U16, 8, task.cap) F(ZERO, 0, task.new_cap)              \
      F(U64, 10, task.tid))                                                          \
    L(TASK_MIGRATE, "task 0x%x0 migrated from cap %d1 to cap %d2",                   \
      F(U64, 0, task.task) F(U16, 8, task.cap) F(U16, 10, task.new_cap)              \
      F(ZERO, 0, task.tid))                                                          \
    L(TASK_DELETE, "task 0x%x0 deleted",                                             \
      F(U64, 0, task.task) F(ZERO, 0, task.cap) F(ZERO, 0, task.new_cap)             \
      F(ZERO, 0, task.tid))                                                          \
    L(USER_MARKER, "marker: %s2",                                                    \
      F(ZERO, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 0, text.str))           \
    /* parallel Haskell (Eden): fields in order, 64-bit ones in a64 */               \
    L(EDEN_START_RECEIVE, "starting to receive", )                                   \
    L(EDEN_END_RECEIVE, "stop receiving", )                                          \
    L(CREATE_PROCESS, "creating process %d0", F(U32, 0, misc.a32[0]))                \
    L(KILL_PROCESS, "killing process %d0", F(U32, 0, misc.a32[0]))                   \
    L(ASSIGN_THREAD_TO_PROCESS, "assigning thread %d0 to process %d1",               \
      F(U32, 0, misc.a32[0]) F(U32, 4, misc.a32[1]))                                 \
    L(CREATE_MACHINE, "creating machine %d0 at %d1",                                 \
      F(U16, 0, misc.a32[0]) F(U64, 2, misc.a64[0]))                                 \
    L(KILL_MACHINE, "killing machine %d0", F(U16, 0, misc.a32[0]))                   \
    /* tag sP sT rM rP rIP */                                                        \
    L(SEND_MESSAGE, "sending message with tag %t0 from process %d1, thread %d2 to machine " \
      "%d3, process %d4 on inport %d5",                                                            \
      F(U8, 0, misc.a32[0]) F(U32, 1, misc.a32[1]) F(U32, 5, misc.a32[2])            \
      F(U16, 9, misc.a32[3]) F(U32, 11, misc.a32[4]) F(U32, 15, misc.a32[5]))        \
    /* tag rP rIP sM sP sT size */                                                   \
    L(RECEIVE_MESSAGE, "receiving message with tag %t0 at process %d1, inport %d2 from " \
      "machine %d3, process %d4, thread %d5 with size %d6",                                                         \
      F(U8, 0, misc.a32[0]) F(U32, 1, misc.a32[1]) F(U32, 5, misc.a32[2])            \
      F(U16, 9, misc.a32[3]) F(U32, 11, misc.a32[4]) F(U32, 15, misc.a32[5])         \
      F(U32, 19, misc.a64[0]))                                                       \
    /* tag sP sT rP rIP */                                                           \
    L(SEND_RECEIVE_LOCAL_MESSAGE, "sending/receiving message with tag %t0 from process " \
      "%d1, thread %d2 to process %d3 on inport %d4",                                              \
      F(U8, 0, misc.a32[0]) F(U32, 1, misc.a32[1]) F(U32, 5, misc.a32[2])            \
      F(U32, 9, misc.a32[3]) F(U32, 13, misc.a32[4]))                                \
    L(MEM_RETURN, "memory returned (mblocks): current(%d1) needed(%d2) returned(%d3)", \
      F(U32, 0, mem_return.capset) F(U32, 4, mem_return.current)                     \
      F(U32, 8, mem_return.needed) F(U32, 12, mem_return.returned))                  \
    L(BLOCKS_SIZE, "blocks size of heap capset %d0: %d1 bytes",                      \
      F(U32, 0, heap.capset) F(U64, 4, heap.bytes))                                  \
    /* Mercury */                                                                    \
    L(MER_START_PAR_CONJUNCTION, "Start a parallel conjunction 0x%x0, static_id: %d1", \
      F(U64, 0, misc.a64[0]) F(U32, 8, misc.a32[0]))                                 \
    L(MER_STOP_PAR_CONJUNCTION, "End par conjunction: 0x%x0", F(U64, 0, misc.a64[0])) \
    L(MER_STOP_PAR_CONJUNCT, "End par conjunct: 0x%x0", F(U64, 0, misc.a64[0]))      \
    L(MER_CREATE_SPARK, "Create spark for conjunction: 0x%x0 spark: 0x%x1",          \
      F(U64, 0, misc.a64[0]) F(U32, 8, misc.a32[0]))                                 \
    L(MER_FUT_CREATE, "Create future 0x%x0 named %d1",                               \
      F(U64, 0, misc.a64[0]) F(U32, 8, misc.a32[0]))                                 \
    L(MER_FUT_WAIT_NOSUSPEND, "Wait didn't suspend for future: 0x%x0",               \
      F(U64, 0, misc.a64[0]))                                                        \
    L(MER_FUT_WAIT_SUSPENDED, "Wait suspended on future: 0x%x0", F(U64, 0, misc.a64[0])) \
    L(MER_FUT_SIGNAL, "Signaled future 0x%x0", F(U64, 0, misc.a64[0]))              \
    L(MER_LOOKING_FOR_GLOBAL_CONTEXT, "Looking for global thread to resume", )       \
    L(MER_WORK_STEALING, "Trying to steal a spark", )                                \
    L(MER_RELEASE_CONTEXT, "Releasing thread %d0 to the free pool",                  \
      F(U32, 0, misc.a32[0]))                                                        \
    L(MER_ENGINE_SLEEPING, "Capability going to sleep", )                            \
    L(MER_LOOKING_FOR_LOCAL_SPARK, "Looking for a local spark to execute", )         \
    L(MER_CALLING_MAIN, "About to call the program entry point", )                   \
    L(PERF_NAME, "perf event %d0 named \"%s1\"",                                     \
      F(U32, 0, perf.perf_num) F(STR, 4, perf.name) F(ZERO, 0, perf.tid)             \
      F(ZERO, 0, perf.period))                                                       \
    /* ghc-events shows the period plus one */                                       \
    L(PERF_COUNTER, NULL,                                                            \
      F(U32, 0, perf.perf_num) F(NOSTR, 0, perf.name) F(U64, 4, perf.tid)            \
      F(U64, 12, perf.period))                                                       \
    L(PERF_TRACEPOINT, "perf event tracepoint %d0 reached in OS thread %d2",         \
      F(U32, 0, perf.perf_num) F(NOSTR, 0, perf.name) F(U64, 4, perf.tid)            \
      F(ZERO, 0, perf.period))                                                       \
    L(HEAP_PROF_SAMPLE_BEGIN, "start heap prof sample %d0",                          \
      F(U64, 0, heap_sample.era) F(ZERO, 0, heap_sample.time))                       \
    L(HEAP_PROF_SAMPLE_END, "end prof sample %d0",                                   \
      F(U64, 0, heap_sample.era) F(ZERO, 0, heap_sample.time))                       \
    L(HEAP_BIO_PROF_SAMPLE_BEGIN, "start heap prof sample %d0 at time %d1",          \
      F(U64, 0, heap_sample.era) F(U64, 8, heap_sample.time))                        \
    L(PROF_BEGIN, "start time profiling, tick interval %d0 (ns)",                    \
      F(U64, 0, prof_begin.interval_ns))                                             \
    L(USER_BINARY_MSG, "binary message %b2",                                         \
      F(ZERO, 0, text.capset) F(ZERO, 0, text.thread) F(STR, 0, text.str))           \
    L(CONC_MARK_BEGIN, "concurrent mark began", )                                    \
    L(CONC_MARK_END, "concurrent mark ended: marked %d0 objects",                    \
      F(U32, 0, conc_mark_end.marked))                                               \
    L(CONC_SYNC_BEGIN, "post-mark synchronization began", )                          \
    L(CONC_SYNC_END, "post-mark synchronization ended", )                            \
    L(CONC_SWEEP_BEGIN, "concurrent sweep began", )                                  \
    L(CONC_SWEEP_END, "concurrent sweep ended", )                                    \
    L(CONC_UPD_REM_SET_FLUSH, "update remembered set flushed by %d0",                \
      F(U16, 0, cap.cap))                                                            \
    L(NONMOVING_PRUNED_SEGMENTS,                                                     \
      "nonmoving segments pruned: %d0 pruned segments, %d1 free segments retained",  \
      F(U32, 0, nonmoving_pruned.pruned) F(U32, 4, nonmoving_pruned.free))           \
    L(TICKY_COUNTER_SAMPLE,                                                          \
      "ticky counter sample %d0: entry count: %d1, %d2 allocs, %d3 allocd",          \
      F(U64, 0, ticky_sample.id) F(U64, 8, ticky_sample.entries)                     \
      F(U64, 16, ticky_sample.allocs) F(U64, 24, ticky_sample.allocd))               \
    L(TICKY_BEGIN_SAMPLE, "ticky begin counter sample", )                           \
    /* the samples with a stack (the hot path): ghc-events narrows the     \
     * capability of 167 to a Word16, so both texts are show.c's */                  \
    L(PROF_SAMPLE_COST_CENTRE, NULL,                                                 \
      F(U32, 0, prof_sample.cap) F(U64, 4, prof_sample.ticks)                        \
      F(STACK, 12, prof_sample))                                                     \
    L(HEAP_PROF_SAMPLE_COST_CENTRE, NULL,                                            \
      F(U8, 0, heap_sample_data.id) F(U64, 1, heap_sample_data.residency)            \
      F(NOSTR, 0, heap_sample_data.label) F(STACK, 9, heap_sample_data))

/* The layouts of NUL-terminated strings, read in order by a bounds-checked
 * cursor: V(TYPE, WHAT, FIELDS), WHAT naming the strings in the message
 * of a payload they overrun; FIELDS are C(KIND, MEMBER), KIND one of
 *   U8 U16 U32 U64  a big-endian number, next in the payload
 *   STRZ            a NUL-terminated string
 *   ZERO NOSTR NOSTACK  no payload: 0, an empty string, no stack
 *   HAS8 HAS1       1 when no read has overrun and 8 (1) bytes remain
 *   OPT64 OPTSTRZ   the U64 (STRZ) when HAS8 (HAS1) would be 1, else 0
 *                   (the tails a later GHC added)
 * Their texts are show.c's own (ghc-events' quirks: a CAF flag, a
 * breakdown's name, an IPE's leading decimal). */
#define EL_VAR_LAYOUTS(V, C)                                                        \
    V(HEAP_PROF_BEGIN, "heap profile filter string",                                 \
      C(U8, heap_prof_begin.id) C(U64, heap_prof_begin.period)                       \
      C(U32, heap_prof_begin.breakdown) C(STRZ, heap_prof_begin.filter[0])           \
      C(STRZ, heap_prof_begin.filter[1]) C(STRZ, heap_prof_begin.filter[2])          \
      C(STRZ, heap_prof_begin.filter[3]) C(STRZ, heap_prof_begin.filter[4])          \
      C(STRZ, heap_prof_begin.filter[5]) C(STRZ, heap_prof_begin.filter[6]))         \
    V(HEAP_PROF_COST_CENTRE, "cost-centre definition",                               \
      C(U32, cost_centre.id) C(STRZ, cost_centre.label) C(STRZ, cost_centre.module)  \
      C(STRZ, cost_centre.srcloc) C(U8, cost_centre.flags))                          \
    V(HEAP_PROF_SAMPLE_STRING, "heap sample label",                                  \
      C(U8, heap_sample_data.id) C(U64, heap_sample_data.residency)                  \
      C(STRZ, heap_sample_data.label) C(ZERO, heap_sample_data.depth)                \
      C(NOSTACK, heap_sample_data.stack))                                            \
    /* GHC's postIPE; the record's length is decoder.c's business (GHC #24287) */    \
    V(IPE, "info-table provenance string",                                           \
      C(U64, ipe.info) C(STRZ, ipe.table_name) C(STRZ, ipe.closure_desc)             \
      C(STRZ, ipe.ty_desc) C(STRZ, ipe.label) C(STRZ, ipe.module) C(STRZ, ipe.srcloc)) \
    /* three layouts: id arity kinds name | + u64 itbl | + json string */            \
    V(TICKY_COUNTER_DEF, "ticky counter definition string",                          \
      C(U64, ticky_def.id) C(U16, ticky_def.arity) C(STRZ, ticky_def.kinds)          \
      C(STRZ, ticky_def.name) C(HAS8, ticky_def.has_info_tbl)                        \
      C(OPT64, ticky_def.info_tbl) C(HAS1, ticky_def.has_json)                       \
      C(OPTSTRZ, ticky_def.json))

#endif
