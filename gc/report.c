/* The `+RTS -s` summary from GC events: text and JSON writers.
 *
 * The text follows GHC 9.0's report_summary() line by line (widths,
 * `%.3f` seconds, commas in byte counts) so that what reads `+RTS -s` reads
 * this. Figures the events cannot give print as "n/a" in their column. */
#include "evprof/gc.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/json.h"
#include "evprof/textout.h"
#include "util/table.h"
#include "util/error.h"

void gc_report_opts_init(gc_report_opts *o)
{
    o->source_name = NULL;
}

void gc_commas(char *buf, size_t size, uint64_t v)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t k = 0;
    for (int i = 0; i < n && k + 1 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0 && k + 2 < size)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    if (size)
        buf[k < size ? k : size - 1] = '\0';
}

static double secs(uint64_t ns)
{
    return (double)ns / 1e9;
}

/* ---- text ------------------------------------------------------------- */

/* "%.3fs" or "%.4fs" of ns, ">=" before it (a lower bound), or "n/a" */
static void bound_secs(char *buf, size_t size, int known, int decimals, uint64_t ns)
{
    if (known)
        snprintf(buf, size, ">=%.*fs", decimals, secs(ns));
    else
        snprintf(buf, size, "%s", "n/a");
}

/* The non-moving collector's rows, under the generations as GHC prints
 * them (GHC's average divides seconds by its count of major collections
 * in double: so here). The syncs are GHC's own figures; the concurrent
 * collections' elapsed times are lower bounds (">="), and the CPU time
 * is not in the events. */
static void nonmoving_rows(const gc_result *r, FILE *out)
{
    /* GHC: "  Gen  1     %5d syncs,                      %6.3fs     %3.4fs    %3.4fs" */
    fprintf(out, "  Gen  1     %5d syncs,                      %6.3fs     %3.4fs    %3.4fs\n",
            (int)r->nonmoving_syncs, secs(r->nonmoving_sync_ns),
            secs(r->nonmoving_sync_ns) / (int)r->nonmoving_syncs,
            secs(r->nonmoving_sync_max_ns));
    /* GHC: "  Gen  1      concurrent,             %6.3fs  %6.3fs     %3.4fs    %3.4fs",
     * each figure right-aligned where GHC's ends */
    char el[32], avg[32] = "n/a", mx[32];
    bound_secs(el, sizeof el, r->has_nonmoving_elapsed, 3, r->nonmoving_elapsed_ns);
    bound_secs(mx, sizeof mx, r->has_nonmoving_elapsed, 4, r->nonmoving_max_elapsed_ns);
    if (r->has_nonmoving_elapsed && r->nonmoving_syncs)   /* else GHC's is 0/0 */
        snprintf(avg, sizeof avg, ">=%.4fs",
                 secs(r->nonmoving_elapsed_ns) / (int)r->nonmoving_syncs);
    fprintf(out, "  Gen  1      concurrent,             %7s %8s %11s %10s\n", "n/a", el, avg, mx);
}

static void gen_table(const gc_result *r, FILE *out)
{
    fputs("                                     Tot time (elapsed)  Avg pause  Max pause\n",
          out);
    for (uint32_t g = 0; g < r->generations; g++) {
        const gc_gen *gg = &r->gens[g];
        /* GHC: "  Gen %2d     %5d colls, %5d par   %6.3fs  %6.3fs     %3.4fs    %3.4fs" */
        fprintf(out, "  Gen %2u     %5u colls, %5u par   %7s  %6.3fs     %3.4fs    %3.4fs\n",
                (unsigned)g, (unsigned)gg->collections, (unsigned)gg->par_collections, "n/a",
                secs(gg->elapsed_ns), secs(gg->avg_pause_ns), secs(gg->max_pause_ns));
    }
    if (r->nonmoving)
        nonmoving_rows(r, out);
    fputc('\n', out);
}

static void time_line(FILE *out, const char *name, int known, uint64_t ns)
{
    char el[32];
    if (known)
        snprintf(el, sizeof el, "%7.3fs", secs(ns));
    else
        snprintf(el, sizeof el, "%8s", "n/a");
    /* GHC: "  MUT     time  %7.3fs  (%7.3fs elapsed)" */
    fprintf(out, "  %-7s time  %8s  (%s elapsed)\n", name, "n/a", el);
}

/* 0, or -1 when the table could not be built (no memory) */
static int cap_table(const gc_result *r, FILE *out)
{
    if (r->n_caps == 0)
        return 0;
    static const tx_col cols[] = {
        { "  ", TX_RIGHT, 3, 0 }, { "  ", TX_RIGHT, 10, 0 }, { "  ", TX_RIGHT, 10, 0 },
        { "  ", TX_RIGHT, 10, 0 }, { "  ", TX_RIGHT, 5, 0 }, { "  ", TX_RIGHT, 5, 0 },
        { "  ", TX_RIGHT, 10, 0 }, { "  ", TX_RIGHT, 17, 0 },
    };
    static const char *const head[] = { "Cap", "MUT time", "GC time", "Idle time", "GCs",
                                        "led", "Max pause", "allocated" };
    tx_table t;
    tx_table_init(&t, cols, 8);
    for (size_t k = 0; k < 8; k++)
        tx_table_add(&t, head[k], strlen(head[k]));
    tx_table_end_row(&t, 1);
    for (uint32_t i = 0; i < r->n_caps; i++) {
        const gc_cap *c = &r->caps[i];
        char alloc[32];
        if (c->cap == EL_NO_CAP)
            tx_table_addf(&t, "none");
        else
            tx_table_addf(&t, "%u", (unsigned)c->cap);
        tx_table_addf(&t, "%.3fs", secs(c->mutator_ns));
        tx_table_addf(&t, "%.3fs", secs(c->gc_ns));
        tx_table_addf(&t, "%.3fs", secs(c->idle_ns));
        tx_table_addf(&t, "%u", (unsigned)c->gcs);
        tx_table_addf(&t, "%u", (unsigned)c->led);
        tx_table_addf(&t, "%.4fs", secs(c->max_pause_ns));
        if (c->has_alloc)
            gc_commas(alloc, sizeof alloc, c->allocated_bytes);
        else
            snprintf(alloc, sizeof alloc, "%s", "n/a");
        tx_table_add(&t, alloc, strlen(alloc));
        tx_table_end_row(&t, 1);
    }
    fputs("  Per capability (elapsed; not in +RTS -s):\n", out);
    int rc = tx_table_write(&t, out);
    tx_table_free(&t);
    fputc('\n', out);
    return rc;
}

static void notes(const gc_result *r, FILE *out)
{
    fputs("  Notes (evprof):\n", out);
    fputs("    CPU times and the INIT/EXIT phases are not in the eventlog: they read n/a,\n"
          "    and MUT is the elapsed time outside GC, INIT and EXIT included.\n", out);
    fputs("    GC times are the leading capability's GC_START..GC_END (GHC's own measure);\n"
          "    the other capabilities' pauses are in the table above.\n", out);
    fputs("    GHC's Alloc rate divides by mutator CPU time, which no event carries\n"
          "    (GHC 9.0.2, 9.6.6, 9.10.3): n/a; the wall-clock line divides the bytes\n"
          "    allocated by the MUT elapsed time above. GHC's fragmentation is the\n"
          "    difference of two lifetime peaks (megablocks, blocks in use), and no event\n"
          "    carries the second (GHC 9.0.2, 9.6.6, 9.10.3): n/a.\n", out);
    if (r->mem_in_use_lower_bound)
        fputs("    Total memory in use is GHC's peak of megablocks, which a major collection\n"
              "    reaches before it returns memory to the OS. This log's events give the heap\n"
              "    only after each collection (HEAP_SIZE; no MEM_RETURN, which GHC 9.2 and\n"
              "    later write with the peak): \">=\" marks the largest of those, a lower bound.\n",
              out);
    if (!r->whole_run)
        fputs(r->n_windows > 1
              ? "    A collection belongs to the window that holds its GC_STATS_GHC event;\n"
                "    allocation and sparks are the counters' growth inside the windows,\n"
                "    summed; MUT/GC/Total time and the capability table are clipped to them.\n"
              : "    A collection belongs to the window that holds its GC_STATS_GHC event;\n"
                "    allocation and sparks are the counters' growth inside the window;\n"
                "    MUT/GC/Total time and the capability table are clipped to the window.\n",
              out);
    if (r->cap >= 0)
        fprintf(out, "    --cap %d selects allocation, sparks and the capability table; the\n"
                     "    collections and the heap are shared by all capabilities.\n",
                (int)r->cap);
    if (r->n_gc_stats == 0)
        fputs("    No GC_STATS_GHC events: no generations, copying, slop or balance\n"
              "    (GHC wrote them from 7.8 on, with +RTS -l).\n", out);
    if (r->n_heap_alloc == 0)
        fputs("    No HEAP_ALLOCATED events: allocation is unknown.\n", out);
    if (r->old_gc_stats)
        fputs("    Some GC_STATS_GHC lack the balanced-copy field (GHC < 8.4): the work\n"
              "    balance counts them as unbalanced.\n", out);
    if (r->collections_without_pause)
        fprintf(out, "    %" PRIu64 " collections have no GC_START/GC_END around them: their "
                "pause is not counted.\n", r->collections_without_pause);
    if (r->profiled)
        fputs("    Profiled RTS: GC times include heap-census time, which GHC's RP and PROF\n"
              "    lines take out of its GC line.\n", out);
    if (r->nonmoving) {
        fputs("    Non-moving collector: the syncs are GHC's own (CONC_SYNC_BEGIN..END). A\n"
              "    concurrent collection is timed from its first CONC_MARK_BEGIN to its\n"
              "    CONC_SWEEP_END; GHC's clock starts before the first and stops after the\n"
              "    second, out of the events' sight: \">=\" marks lower bounds.\n", out);
        if (!r->has_nonmoving_elapsed)
            fputs("    GHC before 9.4 prints the process's CPU time in the concurrent line's\n"
                  "    elapsed column (GHC #20751), which no event carries: n/a.\n", out);
    }
    if (r->threaded && r->has_tasks) {
        fputs("    TASKS: the main thread's task is bound, every other one a worker; a thread\n"
              "    that calls into Haskell from outside (forkOS) writes what a worker writes.\n",
              out);
        if (!r->whole_run)
            fputs("    TASKS is the whole run's.\n", out);
        if (r->bound_tasks_lower_bound)
            fputs("    The non-moving collector's mark thread takes bound tasks without an\n"
                  "    event (GHC 9.0, 9.6: one per concurrent collection; 9.10: one): \">=\".\n",
                  out);
    }
}

int gc_report_text(const gc_summary *s, const gc_report_opts *o, FILE *out)
{
    const gc_result *r = gc_get_result(s);
    gc_report_opts defaults;
    if (!r)
        return -1;
    if (!o) {
        gc_report_opts_init(&defaults);
        o = &defaults;
    }
    char b[32];
    (void)o;

    if (!r->whole_run && r->n_windows > 1) {
        fprintf(out, "  Windows: %zu, %.6fs in all, from %.6fs to %.6fs of a %.6fs log",
                r->n_windows, secs(r->total_ns), secs(r->from_ns), secs(r->to_ns),
                secs(r->log_end_ns));
        if (r->cap >= 0)
            fprintf(out, ", capability %d", (int)r->cap);
        fputs("\n", out);
        for (size_t i = 0; i < r->n_windows; i++)
            fprintf(out, "    %.6fs to %.6fs\n", secs(r->windows[i].from_ns),
                    secs(r->windows[i].to_ns));
        fputs("\n", out);
    } else if (!r->whole_run) {
        fprintf(out, "  Window: %.6fs to %.6fs of a %.6fs log", secs(r->from_ns),
                secs(r->to_ns), secs(r->log_end_ns));
        if (r->cap >= 0)
            fprintf(out, ", capability %d", (int)r->cap);
        fputs("\n\n", out);
    }
    gc_commas(b, sizeof b, r->allocated_bytes);
    fprintf(out, "%16s bytes allocated in the heap\n", b);
    gc_commas(b, sizeof b, r->copied_bytes);
    fprintf(out, "%16s bytes copied during GC\n", b);
    if (r->major_gcs > 0) {
        gc_commas(b, sizeof b, r->max_live_bytes);
        fprintf(out, "%16s bytes maximum residency (%u sample(s))\n", b,
                (unsigned)r->major_gcs);
    }
    gc_commas(b, sizeof b, r->max_slop_bytes);
    fprintf(out, "%16s bytes maximum slop\n", b);
    /* a lower bound reads ">= N": GHC's peak is not in the log (notes) */
    char mem[40];
    snprintf(mem, sizeof mem, "%s%" PRIu64, r->mem_in_use_lower_bound ? ">= " : "",
             r->max_mem_in_use_bytes / (1024 * 1024));
    fprintf(out, "%16s MiB total memory in use (n/a MB lost due to fragmentation)\n\n", mem);

    gen_table(r, out);

    if (r->work_balance > 0)
        fprintf(out, "  Parallel GC work balance: %.2f%% (serial 0%%, perfect 100%%)\n\n",
                r->work_balance * 100);
    if (r->threaded) {
        /* GHC: "  TASKS: %d (%d bound, %d peak workers (%d total), using -N%d)" */
        const char *ge = r->bound_tasks_lower_bound ? ">= " : "";
        if (r->has_tasks)
            fprintf(out, "  TASKS: %s%u (%s%u bound, %u peak workers (%u total), using -N%u)\n\n",
                    ge, (unsigned)(r->bound_tasks + r->workers), ge, (unsigned)r->bound_tasks,
                    (unsigned)r->peak_workers, (unsigned)r->workers,
                    (unsigned)r->n_capabilities);
        else
            fputs("  TASKS: n/a (no TASK_CREATE and OSPROCESS_PID events: +RTS -l writes them, "
                  "-l-s does not)\n\n", out);
        if (r->has_sparks)
            fprintf(out, "  SPARKS: %" PRIu64 " (%" PRIu64 " converted, %" PRIu64
                         " overflowed, %" PRIu64 " dud, %" PRIu64 " GC'd, %" PRIu64
                         " fizzled)\n\n",
                    r->sparks.created + r->sparks.dud + r->sparks.overflowed,
                    r->sparks.converted, r->sparks.overflowed, r->sparks.dud, r->sparks.gcd,
                    r->sparks.fizzled);
        else
            fputs("  SPARKS: n/a (no SPARK_COUNTERS events: +RTS -l writes them, -l-p "
                  "does not)\n\n", out);
    }

    time_line(out, "INIT", 0, 0);
    time_line(out, "MUT", 1, r->mutator_ns);
    time_line(out, "GC", 1, r->gc_ns);
    if (r->nonmoving) {
        char el[32];
        bound_secs(el, sizeof el, r->has_nonmoving_elapsed, 3, r->nonmoving_elapsed_ns);
        /* GHC: "  CONC GC time  %7.3fs  (%7.3fs elapsed)" */
        fprintf(out, "  CONC GC time  %8s  (%8s elapsed)\n", "n/a", el);
    }
    if (r->profiled) {
        time_line(out, "RP", 0, 0);
        time_line(out, "PROF", 0, 0);
    }
    time_line(out, "EXIT", 0, 0);
    time_line(out, "Total", 1, r->total_ns);
    fputc('\n', out);
    if (!r->threaded) {
        /* GHC: "  %%GC     time     %5.1f%%  (%.1f%% elapsed)" */
        fprintf(out, "  %%GC     time  %9s  (%.1f%% elapsed)\n\n", "n/a",
                r->total_ns ? 100.0 * (double)r->gc_ns / (double)r->total_ns : 0.0);
    }
    /* GHC's line divides by mutator CPU time (stat_exitReport): not in the
     * events. evprof's own figure gets its own name. */
    fputs("  Alloc rate    n/a bytes per MUT second\n", out);
    gc_commas(b, sizeof b, r->alloc_rate);
    fprintf(out, "  Alloc rate (wall clock)    %s bytes per elapsed MUT second"
                 " (INIT and EXIT included)\n\n", b);
    fprintf(out, "  Productivity %6s of total user, %.1f%% of total elapsed\n\n", "n/a",
            r->productivity * 100);

    int rc = cap_table(r, out);
    notes(r, out);
    return rc != 0 || ferror(out) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------- */

static void json_sparks(tx_json *j, int has, const gc_sparks *sp)
{
    if (!has) {
        tx_json_null(j);
        return;
    }
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "created", sp->created);
    tx_json_kv_uint(j, "dud", sp->dud);
    tx_json_kv_uint(j, "overflowed", sp->overflowed);
    tx_json_kv_uint(j, "converted", sp->converted);
    tx_json_kv_uint(j, "gcd", sp->gcd);
    tx_json_kv_uint(j, "fizzled", sp->fizzled);
    tx_json_kv_uint(j, "total", sp->created + sp->dud + sp->overflowed);
    tx_json_end(j);
}

/* The non-moving collector's figures (null: it did not run), with GHC.Stats'
 * names where GHC has the figure; elapsed times of concurrent collections
 * are lower bounds of GHC's (null: GHC's is not in the log). */
static void json_nonmoving(tx_json *j, const gc_result *r)
{
    if (!r->nonmoving) {
        tx_json_null(j);
        return;
    }
    int known = r->has_nonmoving_elapsed;
    double n = (double)(int)r->nonmoving_syncs;
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "syncs", r->nonmoving_syncs);
    tx_json_kv_uint(j, "sync_pairs", r->nonmoving_sync_pairs);
    tx_json_kv_uint(j, "sync_elapsed_ns", r->nonmoving_sync_ns);
    tx_json_key(j, "sync_avg_pause_ns");
    if (n > 0)
        tx_json_double(j, (double)r->nonmoving_sync_ns / n, 10);
    else
        tx_json_null(j);
    tx_json_kv_uint(j, "sync_max_elapsed_ns", r->nonmoving_sync_max_ns);
    tx_json_kv_uint(j, "concurrent_collections", r->nonmoving_collections);
    tx_json_kv_null(j, "concurrent_cpu_ns");
    tx_json_key(j, "concurrent_elapsed_ns");
    if (known)
        tx_json_uint(j, r->nonmoving_elapsed_ns);
    else
        tx_json_null(j);
    tx_json_key(j, "concurrent_avg_pause_ns");
    if (known && n > 0)
        tx_json_double(j, (double)r->nonmoving_elapsed_ns / n, 10);
    else
        tx_json_null(j);
    tx_json_key(j, "concurrent_max_elapsed_ns");
    if (known)
        tx_json_uint(j, r->nonmoving_max_elapsed_ns);
    else
        tx_json_null(j);
    tx_json_kv_bool(j, "concurrent_elapsed_lower_bound", known);
    tx_json_end(j);
}

/* GHC's TASKS (its machine-readable names); null when the RTS is not
 * threaded (GHC prints no such line) or the events are missing */
static void json_tasks(tx_json *j, const gc_result *r)
{
    if (!r->threaded || !r->has_tasks) {
        tx_json_null(j);
        return;
    }
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "task_count", (uint64_t)r->bound_tasks + r->workers);
    tx_json_kv_uint(j, "bound_task_count", r->bound_tasks);
    tx_json_kv_bool(j, "bound_task_count_lower_bound", r->bound_tasks_lower_bound);
    tx_json_kv_uint(j, "peak_worker_count", r->peak_workers);
    tx_json_kv_uint(j, "worker_count", r->workers);
    tx_json_kv_uint(j, "n_capabilities", r->n_capabilities);
    tx_json_end(j);
}

int gc_report_json(const gc_summary *s, const gc_report_opts *o, FILE *out)
{
    const gc_result *r = gc_get_result(s);
    gc_report_opts defaults;
    if (!r)
        return -1;
    if (!o) {
        gc_report_opts_init(&defaults);
        o = &defaults;
    }
    tx_json *j = malloc(sizeof *j);
    if (!j)
        return -1;
    tx_json_init(j, out, 2, 0);
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_kv_cstr(j, "source", o->source_name);
    tx_json_kv_cstr(j, "rts", r->rts_version);
    tx_json_kv_bool(j, "threaded", r->threaded);
    tx_json_kv_bool(j, "profiled", r->profiled);
    tx_json_key(j, "window");
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "from_ns", r->from_ns);
    tx_json_kv_uint(j, "to_ns", r->to_ns);
    if (r->n_windows > 1) {
        tx_json_key(j, "windows_ns");
        tx_json_array(j, TX_JSON_INLINE);
        for (size_t i = 0; i < r->n_windows; i++) {
            tx_json_array(j, TX_JSON_INLINE);
            tx_json_uint(j, r->windows[i].from_ns);
            tx_json_uint(j, r->windows[i].to_ns);
            tx_json_end(j);
        }
        tx_json_end(j);
    }
    tx_json_kv_bool(j, "whole_run", r->whole_run);
    tx_json_key(j, "cap");
    if (r->cap >= 0)
        tx_json_int(j, r->cap);
    else
        tx_json_null(j);
    tx_json_end(j);
    tx_json_kv_uint(j, "log_end_ns", r->log_end_ns);
    tx_json_kv_uint(j, "allocated_bytes", r->allocated_bytes);
    tx_json_kv_uint(j, "copied_bytes", r->copied_bytes);
    tx_json_kv_uint(j, "max_live_bytes", r->max_live_bytes);
    tx_json_kv_uint(j, "major_gcs", r->major_gcs);
    tx_json_kv_uint(j, "max_slop_bytes", r->max_slop_bytes);
    tx_json_kv_uint(j, "max_mem_in_use_bytes", r->max_mem_in_use_bytes);
    tx_json_kv_bool(j, "max_mem_in_use_lower_bound", r->mem_in_use_lower_bound);
    tx_json_kv_uint(j, "max_current_fragmentation_bytes", r->max_frag_bytes);
    tx_json_kv_null(j, "ghc_fragmentation_bytes");
    tx_json_kv_uint(j, "gcs", r->collections);
    tx_json_key(j, "generations");
    tx_json_array(j, TX_JSON_BLOCK);
    for (uint32_t g = 0; g < r->generations; g++) {
        const gc_gen *gg = &r->gens[g];
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "gen", g);
        tx_json_kv_uint(j, "collections", gg->collections);
        tx_json_kv_uint(j, "par_collections", gg->par_collections);
        tx_json_kv_uint(j, "elapsed_ns", gg->elapsed_ns);
        tx_json_kv_uint(j, "avg_pause_ns", gg->avg_pause_ns);
        tx_json_kv_uint(j, "max_pause_ns", gg->max_pause_ns);
        tx_json_kv_uint(j, "copied_bytes", gg->copied_bytes);
        tx_json_kv_uint(j, "max_slop_bytes", gg->max_slop_bytes);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_kv_uint(j, "par_copied_bytes", r->par_copied_bytes);
    tx_json_kv_uint(j, "cumulative_par_balanced_copied_bytes", r->par_balanced_copied_bytes);
    tx_json_kv_double(j, "work_balance", r->work_balance, 10);
    tx_json_key(j, "sparks");
    json_sparks(j, r->has_sparks, &r->sparks);
    tx_json_key(j, "tasks");
    json_tasks(j, r);
    tx_json_key(j, "nonmoving");
    json_nonmoving(j, r);
    tx_json_kv_uint(j, "elapsed_ns", r->total_ns);
    tx_json_kv_uint(j, "gc_elapsed_ns", r->gc_ns);
    tx_json_kv_uint(j, "mutator_elapsed_ns", r->mutator_ns);
    tx_json_kv_null(j, "init_elapsed_ns");
    tx_json_kv_null(j, "exit_elapsed_ns");
    tx_json_kv_null(j, "cpu_ns");
    tx_json_kv_null(j, "gc_cpu_ns");
    tx_json_kv_null(j, "mutator_cpu_ns");
    tx_json_kv_null(j, "alloc_rate");
    tx_json_kv_uint(j, "alloc_rate_wall_clock", r->alloc_rate);
    tx_json_kv_double(j, "productivity_elapsed", r->productivity, 10);
    tx_json_key(j, "capabilities");
    tx_json_array(j, TX_JSON_BLOCK);
    for (uint32_t i = 0; i < r->n_caps; i++) {
        const gc_cap *c = &r->caps[i];
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_key(j, "cap");
        if (c->cap == EL_NO_CAP)
            tx_json_null(j);
        else
            tx_json_uint(j, c->cap);
        tx_json_key(j, "allocated_bytes");
        if (c->has_alloc)
            tx_json_uint(j, c->allocated_bytes);
        else
            tx_json_null(j);
        tx_json_kv_uint(j, "mutator_elapsed_ns", c->mutator_ns);
        tx_json_kv_uint(j, "gc_elapsed_ns", c->gc_ns);
        tx_json_kv_uint(j, "idle_ns", c->idle_ns);
        tx_json_kv_uint(j, "gcs", c->gcs);
        tx_json_kv_uint(j, "led", c->led);
        tx_json_kv_uint(j, "max_pause_ns", c->max_pause_ns);
        tx_json_key(j, "sparks");
        json_sparks(j, c->has_sparks, &c->sparks);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_kv_cstr(j, "evprof_note", "elapsed times only: CPU time and the INIT/EXIT split are not in the "
                    "eventlog (null); mutator time includes INIT and EXIT; alloc_rate (GHC's, "
                    "per mutator CPU second) is null, alloc_rate_wall_clock is per elapsed "
                    "mutator second; ghc_fragmentation_bytes (a difference of two lifetime "
                    "peaks) is null, max_current_fragmentation_bytes is the largest free space "
                    "in held megablocks after a collection (GC_STATS_GHC)");
    tx_json_end(j);
    tx_json_space(j, "\n");
    int rc = tx_json_finish(j);
    free(j);
    return rc;
}

/* ---- the table of formats (evprof/format.h) ---- */

static ev_status write_text(const void *s, const void *o, FILE *out, ev_error *err)
{
    if (!gc_get_result(s))
        return ev_error_set(err, EV_ERR_USAGE, "the GC summary is not finished");
    return ev_write_status(gc_report_text(s, o, out), err, "the GC summary");
}

static ev_status write_json(const void *s, const void *o, FILE *out, ev_error *err)
{
    if (!gc_get_result(s))
        return ev_error_set(err, EV_ERR_USAGE, "the GC summary is not finished");
    return ev_write_status(gc_report_json(s, o, out), err, "the GC summary");
}

static const ev_format formats[] = {
    { "text", ".txt", write_text, 0 },
    { "json", ".json", write_json, 0 },
};

const ev_format *gc_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}
