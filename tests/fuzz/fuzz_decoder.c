/* libFuzzer target for the eventlog decoder.
 *
 * Decodes the input three ways: whole (el_read_mem), in chunks whose sizes
 * come from the input's first bytes, and (up to FUZZ_BYTEWISE_MAX bytes)
 * one byte at a time. Every field of every event is read, and every string
 * and stack the event points to, so AddressSanitizer sees any read past
 * what the decoder handed out. The three runs must agree on the events (their bytes,
 * strings and stacks) and the final status: a decoder that depends on how
 * its input is split is a bug, and the target aborts.
 *
 * Built with -fsanitize=fuzzer by `make fuzz`; without libFuzzer, replay.c
 * supplies main() and runs it over files (a CTest test).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/eventlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct digest {
    uint64_t events;
    uint64_t sum;                   /* bytes, strings, stacks: compared */
    uint64_t fields;                /* decoded scalars: read, not compared */
} digest;

static void mix(digest *g, uint64_t v)
{
    g->sum = (g->sum ^ v) * UINT64_C(0x100000001b3);
}

/* Decoded scalar fields are read (so a sanitizer sees them) but not
 * compared between runs: the header leaves the fields a type does not use
 * unspecified, so they may hold anything. */
static void field(digest *g, uint64_t v)
{
    g->fields += v;
}

static void touch(digest *g, el_str s)
{
    uint64_t h = s.len;
    for (uint32_t i = 0; i < s.len; i++)
        h = h * 31 + (unsigned char)s.ptr[i];
    mix(g, h);
}

static void touch_stack(digest *g, const uint32_t *stack, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++)
        mix(g, stack[i]);
}

static void consume_event(digest *g, const el_event *ev)
{
    g->events++;
    mix(g, ev->type);
    mix(g, ev->cap);
    mix(g, ev->time);
    mix(g, ev->offset);
    mix(g, ev->size);
    mix(g, ev->payload_len);
    for (uint32_t i = 0; i < ev->payload_len; i++)
        mix(g, ev->payload[i]);
    if (ev->et) {
        mix(g, ev->et->id);
        mix(g, (uint32_t)ev->et->size);
        touch(g, ev->et->desc);
    }
    mix(g, el_type_name(ev->type) != NULL);
    mix(g, ev->decoded);
    if (!ev->decoded)
        return;

    switch (ev->type) {
    case EL_RUN_THREAD: case EL_CREATE_THREAD: case EL_THREAD_RUNNABLE:
    case EL_RUN_SPARK: case EL_CREATE_SPARK_THREAD:
        field(g, ev->u.thread.thread);
        break;
    case EL_STOP_THREAD:
        field(g, ev->u.stop_thread.thread);
        field(g, ev->u.stop_thread.status);
        field(g, ev->u.stop_thread.blocker);
        field(g, ev->u.stop_thread.has_blocker);
        break;
    case EL_MIGRATE_THREAD: case EL_THREAD_WAKEUP: case EL_STEAL_SPARK:
        field(g, ev->u.thread_cap.thread);
        field(g, ev->u.thread_cap.cap);
        break;
    case EL_STARTUP:
        field(g, ev->u.startup.n_caps);
        break;
    case EL_SPARK_STEAL: case EL_CAP_CREATE: case EL_CAP_DELETE:
    case EL_CAP_DISABLE: case EL_CAP_ENABLE: case EL_CONC_UPD_REM_SET_FLUSH:
        field(g, ev->u.cap.cap);
        break;
    case EL_BLOCK_MARKER:
        field(g, ev->u.block.size);
        field(g, ev->u.block.end_time);
        field(g, ev->u.block.cap);
        break;
    case EL_LOG_MSG: case EL_USER_MSG: case EL_VERSION: case EL_PROGRAM_INVOCATION:
    case EL_RTS_IDENTIFIER: case EL_PROGRAM_ARGS: case EL_PROGRAM_ENV:
    case EL_THREAD_LABEL: case EL_USER_MARKER: case EL_USER_BINARY_MSG:
    case EL_INTERN_STRING:
        field(g, ev->u.text.capset);
        if (ev->type == EL_THREAD_LABEL)
            field(g, ev->u.text.thread);
        touch(g, ev->u.text.str);
        break;
    case EL_CAPSET_CREATE:
        field(g, ev->u.capset_create.capset);
        field(g, ev->u.capset_create.type);
        break;
    case EL_CAPSET_DELETE: case EL_CAPSET_ASSIGN_CAP: case EL_CAPSET_REMOVE_CAP:
        field(g, ev->u.capset_cap.capset);
        field(g, ev->u.capset_cap.cap);
        break;
    case EL_OSPROCESS_PID: case EL_OSPROCESS_PPID:
        field(g, ev->u.pid.capset);
        field(g, ev->u.pid.pid);
        break;
    case EL_WALL_CLOCK_TIME:
        field(g, ev->u.wall_clock.capset);
        field(g, ev->u.wall_clock.sec);
        field(g, ev->u.wall_clock.nsec);
        break;
    case EL_SPARK_COUNTERS:
        field(g, ev->u.spark_counters.created);
        field(g, ev->u.spark_counters.dud);
        field(g, ev->u.spark_counters.overflowed);
        field(g, ev->u.spark_counters.converted);
        field(g, ev->u.spark_counters.gcd);
        field(g, ev->u.spark_counters.fizzled);
        field(g, ev->u.spark_counters.remaining);
        break;
    case EL_HEAP_ALLOCATED: case EL_HEAP_SIZE: case EL_HEAP_LIVE: case EL_BLOCKS_SIZE:
        field(g, ev->u.heap.capset);
        field(g, ev->u.heap.bytes);
        break;
    case EL_HEAP_INFO_GHC:
        field(g, ev->u.heap_info.capset);
        field(g, ev->u.heap_info.gens);
        field(g, ev->u.heap_info.max_heap_size);
        field(g, ev->u.heap_info.alloc_area_size);
        field(g, ev->u.heap_info.mblock_size);
        field(g, ev->u.heap_info.block_size);
        break;
    case EL_GC_STATS_GHC:
        field(g, ev->u.gc_stats.capset);
        field(g, ev->u.gc_stats.gen);
        field(g, ev->u.gc_stats.copied);
        field(g, ev->u.gc_stats.slop);
        field(g, ev->u.gc_stats.frag);
        field(g, ev->u.gc_stats.par_n_threads);
        field(g, ev->u.gc_stats.par_max_copied);
        field(g, ev->u.gc_stats.par_tot_copied);
        field(g, ev->u.gc_stats.par_balanced_copied);
        field(g, ev->u.gc_stats.has_balanced);
        break;
    case EL_TASK_CREATE: case EL_TASK_MIGRATE: case EL_TASK_DELETE:
        field(g, ev->u.task.task);
        field(g, ev->u.task.cap);
        field(g, ev->u.task.new_cap);
        field(g, ev->u.task.tid);
        break;
    case EL_MEM_RETURN:
        field(g, ev->u.mem_return.capset);
        field(g, ev->u.mem_return.current);
        field(g, ev->u.mem_return.needed);
        field(g, ev->u.mem_return.returned);
        break;
    case EL_CONC_MARK_END:
        field(g, ev->u.conc_mark_end.marked);
        break;
    case EL_NONMOVING_HEAP_CENSUS:
        field(g, ev->u.nonmoving_census.blk_size);
        field(g, ev->u.nonmoving_census.log_encoded);
        field(g, ev->u.nonmoving_census.active_segs);
        field(g, ev->u.nonmoving_census.filled_segs);
        field(g, ev->u.nonmoving_census.live_blocks);
        break;
    case EL_NONMOVING_PRUNED_SEGMENTS:
        field(g, ev->u.nonmoving_pruned.pruned);
        field(g, ev->u.nonmoving_pruned.free);
        break;
    case EL_HEAP_PROF_BEGIN:
        field(g, ev->u.heap_prof_begin.id);
        field(g, ev->u.heap_prof_begin.period);
        field(g, ev->u.heap_prof_begin.breakdown);
        for (int i = 0; i < 7; i++)
            touch(g, ev->u.heap_prof_begin.filter[i]);
        break;
    case EL_HEAP_PROF_COST_CENTRE:
        field(g, ev->u.cost_centre.id);
        touch(g, ev->u.cost_centre.label);
        touch(g, ev->u.cost_centre.module);
        touch(g, ev->u.cost_centre.srcloc);
        field(g, ev->u.cost_centre.flags);
        break;
    case EL_HEAP_PROF_SAMPLE_BEGIN: case EL_HEAP_PROF_SAMPLE_END:
    case EL_HEAP_BIO_PROF_SAMPLE_BEGIN:
        field(g, ev->u.heap_sample.era);
        field(g, ev->u.heap_sample.time);
        break;
    case EL_HEAP_PROF_SAMPLE_COST_CENTRE:
        field(g, ev->u.heap_sample_data.id);
        field(g, ev->u.heap_sample_data.residency);
        field(g, ev->u.heap_sample_data.depth);
        touch_stack(g, ev->u.heap_sample_data.stack, ev->u.heap_sample_data.depth);
        break;
    case EL_HEAP_PROF_SAMPLE_STRING:
        field(g, ev->u.heap_sample_data.id);
        field(g, ev->u.heap_sample_data.residency);
        touch(g, ev->u.heap_sample_data.label);
        break;
    case EL_PROF_SAMPLE_COST_CENTRE:
        field(g, ev->u.prof_sample.cap);
        field(g, ev->u.prof_sample.ticks);
        field(g, ev->u.prof_sample.depth);
        touch_stack(g, ev->u.prof_sample.stack, ev->u.prof_sample.depth);
        break;
    case EL_PROF_BEGIN:
        field(g, ev->u.prof_begin.interval_ns);
        break;
    case EL_IPE:
        field(g, ev->u.ipe.info);
        touch(g, ev->u.ipe.table_name);
        touch(g, ev->u.ipe.closure_desc);
        touch(g, ev->u.ipe.ty_desc);
        touch(g, ev->u.ipe.label);
        touch(g, ev->u.ipe.module);
        touch(g, ev->u.ipe.srcloc);
        break;
    case EL_TICKY_COUNTER_DEF:
        field(g, ev->u.ticky_def.id);
        field(g, ev->u.ticky_def.arity);
        touch(g, ev->u.ticky_def.kinds);
        touch(g, ev->u.ticky_def.name);
        if (ev->u.ticky_def.has_json)
            touch(g, ev->u.ticky_def.json);
        field(g, ev->u.ticky_def.info_tbl);
        field(g, ev->u.ticky_def.has_info_tbl);
        field(g, ev->u.ticky_def.has_json);
        break;
    case EL_TICKY_COUNTER_SAMPLE:
        field(g, ev->u.ticky_sample.id);
        field(g, ev->u.ticky_sample.entries);
        field(g, ev->u.ticky_sample.allocs);
        field(g, ev->u.ticky_sample.allocd);
        break;
    case EL_PERF_NAME: case EL_PERF_COUNTER: case EL_PERF_TRACEPOINT:
        field(g, ev->u.perf.perf_num);
        if (ev->type == EL_PERF_NAME)
            touch(g, ev->u.perf.name);
        field(g, ev->u.perf.tid);
        field(g, ev->u.perf.period);
        break;
    default:
        if ((ev->type >= EL_EDEN_START_RECEIVE && ev->type <= EL_SEND_RECEIVE_LOCAL_MESSAGE) ||
            (ev->type >= EL_MER_START_PAR_CONJUNCTION && ev->type <= EL_MER_CALLING_MAIN)) {
            for (int i = 0; i < 6; i++)
                field(g, ev->u.misc.a32[i]);
            for (int i = 0; i < 2; i++)
                field(g, ev->u.misc.a64[i]);
        }
        break;
    }
}

static int on_event(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)d;
    consume_event(ctx, ev);
    return 0;
}

/* Everything the decoder says once it has stopped. */
static void consume_end(digest *g, ev_status st, const el_decoder *d)
{
    mix(g, (uint64_t)st);
    if (ev_status_name(st) == NULL)
        abort();
    if (!d)
        return;
    mix(g, (uint64_t)el_decoder_missing_end(d));
    mix(g, (uint64_t)el_decoder_header_done(d));
    size_t n = el_decoder_num_types(d);
    for (size_t i = 0; i < n; i++) {
        const el_event_type *et = el_decoder_type_at(d, i);
        if (!et || el_decoder_type(d, et->id) == NULL)
            abort();
        touch(g, et->desc);
    }
    const ev_error *e = el_decoder_error(d);
    if (st != EV_END && st != EV_OK && e) {
        mix(g, e->offset);
        mix(g, (uint64_t)(int64_t)e->type);
        if (memchr(e->msg, '\0', sizeof e->msg) == NULL)
            abort();                /* the message must be terminated */
    }
}

/* Feeds `data` in chunks; sizes cycle through `sizes`. */
static digest run_chunked(const uint8_t *data, size_t size, const size_t *sizes, size_t nsizes)
{
    digest g = { 0, 0, 0 };
    el_decoder *d = el_decoder_create();
    if (!d)
        abort();
    el_decoder_set_resync(d, 1);    /* as el_read_mem and the CLI read */
    ev_status st = EV_NEED_INPUT;
    size_t pos = 0, k = 0;
    while (pos < size) {
        size_t n = sizes[k++ % nsizes];
        if (n > size - pos)
            n = size - pos;
        el_decoder_feed(d, data + pos, n);
        pos += n;
        el_event ev;
        while ((st = el_decoder_next(d, &ev)) == EV_OK)
            consume_event(&g, &ev);
        /* after END more input is still looked at (a block after an
         * end marker is damage, not the end) */
        if (st != EV_NEED_INPUT && st != EV_END)
            break;
    }
    /* at the end of input, or after an error (which it repeats) */
    st = el_decoder_finish(d);
    consume_end(&g, st, d);
    el_decoder_destroy(d);
    return g;
}

static void check_same(const char *how, const digest *whole, const digest *other)
{
    if (whole->events != other->events || whole->sum != other->sum) {
        fprintf(stderr,
                "fuzz_decoder: %s decoding differs from whole-buffer decoding "
                "(%llu vs %llu events)\n",
                how, (unsigned long long)other->events, (unsigned long long)whole->events);
        abort();
    }
}

/* Inputs up to this size are also fed one byte at a time. Replay covers
 * the whole corpus; the fuzzer build lowers it to keep its speed. */
#ifndef FUZZ_BYTEWISE_MAX
#define FUZZ_BYTEWISE_MAX ((size_t)4 << 20)
#endif

static volatile uint64_t fields_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* 1. the whole buffer at once */
    digest whole = { 0, 0, 0 };
    el_decoder *d = NULL;
    el_read_result r = el_read_mem(data, size, on_event, &whole, &d);
    consume_end(&whole, r.status, d);
    el_decoder_destroy(d);
    if (r.events != whole.events)
        abort();

    /* 2. chunk sizes from the first 8 bytes: 1..256 each */
    size_t sizes[8];
    size_t nsizes = size < 8 ? (size ? size : 1) : 8;
    for (size_t i = 0; i < nsizes; i++)
        sizes[i] = i < size ? (size_t)data[i] + 1 : 1;
    digest chunked = run_chunked(data, size, sizes, nsizes);
    check_same("chunked", &whole, &chunked);
    fields_sink += whole.fields + chunked.fields;

    /* 3. one byte at a time: every split point */
    if (size <= FUZZ_BYTEWISE_MAX) {
        static const size_t one[] = { 1 };
        digest bytes = run_chunked(data, size, one, 1);
        check_same("byte-at-a-time", &whole, &bytes);
    }
    return 0;
}
