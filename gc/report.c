/* The `+RTS -s` summary from GC events: text and JSON writers.
 *
 * The text follows GHC 9.0's report_summary() line by line (widths,
 * `%.3f` seconds, commas in byte counts) so that what reads `+RTS -s` reads
 * this. Figures the events cannot give print as "n/a" in their column. */
#include "evprof/gc.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "evprof/textout.h"

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

static void cap_table(const gc_result *r, FILE *out)
{
    if (r->n_caps == 0)
        return;
    fputs("  Per capability (elapsed; not in +RTS -s):\n", out);
    fputs("  Cap    MUT time     GC time   Idle time    GCs    led   Max pause"
          "          allocated\n", out);
    for (uint32_t i = 0; i < r->n_caps; i++) {
        const gc_cap *c = &r->caps[i];
        char no[8], alloc[32];
        if (c->cap == EL_NO_CAP)
            snprintf(no, sizeof no, "%s", "none");
        else
            snprintf(no, sizeof no, "%u", (unsigned)c->cap);
        if (c->has_alloc)
            gc_commas(alloc, sizeof alloc, c->allocated_bytes);
        else
            snprintf(alloc, sizeof alloc, "%s", "n/a");
        fprintf(out, "  %3s  %9.3fs  %9.3fs  %9.3fs  %5u  %5u  %9.4fs  %17s\n", no,
                secs(c->mutator_ns), secs(c->gc_ns), secs(c->idle_ns), (unsigned)c->gcs,
                (unsigned)c->led, secs(c->max_pause_ns), alloc);
    }
    fputc('\n', out);
}

static void notes(const gc_result *r, FILE *out)
{
    fputs("  Notes (evprof):\n", out);
    fputs("    CPU times and the INIT/EXIT phases are not in the eventlog: they read n/a,\n"
          "    and MUT is the elapsed time outside GC, INIT and EXIT included.\n", out);
    fputs("    GC times are the leading capability's GC_START..GC_END (GHC's own measure);\n"
          "    the other capabilities' pauses are in the table above.\n", out);
    fputs("    GHC's Alloc rate divides by mutator CPU time, which no 9.0 event carries:\n"
          "    n/a; the wall-clock line divides the bytes allocated by the MUT elapsed\n"
          "    time above. GHC's fragmentation is the difference of two lifetime peaks\n"
          "    (megablocks, blocks in use) that the 9.0 events do not carry: n/a.\n", out);
    if (!r->whole_run)
        fputs("    A collection belongs to the window that holds its GC_STATS_GHC event;\n"
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

    if (!r->whole_run) {
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
    fprintf(out, "%16" PRIu64 " MiB total memory in use (n/a MB lost due to fragmentation)\n\n",
            r->max_mem_in_use_bytes / (1024 * 1024));

    gen_table(r, out);

    if (r->work_balance > 0)
        fprintf(out, "  Parallel GC work balance: %.2f%% (serial 0%%, perfect 100%%)\n\n",
                r->work_balance * 100);
    if (r->threaded) {
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

    cap_table(r, out);
    notes(r, out);
    return ferror(out) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------- */

static void json_sparks(FILE *out, const gc_sparks *sp)
{
    fprintf(out, "{\"created\": %" PRIu64 ", \"dud\": %" PRIu64 ", \"overflowed\": %" PRIu64
                 ", \"converted\": %" PRIu64 ", \"gcd\": %" PRIu64 ", \"fizzled\": %" PRIu64
                 ", \"total\": %" PRIu64 "}",
            sp->created, sp->dud, sp->overflowed, sp->converted, sp->gcd, sp->fizzled,
            sp->created + sp->dud + sp->overflowed);
}

static void json_double(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.10g", v);
    else
        fputs("null", out);
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
    fputs("{\n  \"source\": ", out);
    if (o && o->source_name)
        tx_json_str(out, o->source_name, strlen(o->source_name));
    else
        fputs("null", out);
    fputs(",\n  \"rts\": ", out);
    tx_json_str(out, r->rts_version, strlen(r->rts_version));
    fprintf(out, ",\n  \"threaded\": %s,\n  \"profiled\": %s", r->threaded ? "true" : "false",
            r->profiled ? "true" : "false");
    fprintf(out, ",\n  \"window\": {\"from_ns\": %" PRIu64 ", \"to_ns\": %" PRIu64
                 ", \"whole_run\": %s, \"cap\": ",
            r->from_ns, r->to_ns, r->whole_run ? "true" : "false");
    if (r->cap >= 0)
        fprintf(out, "%d}", (int)r->cap);
    else
        fputs("null}", out);
    fprintf(out, ",\n  \"log_end_ns\": %" PRIu64, r->log_end_ns);
    fprintf(out, ",\n  \"allocated_bytes\": %" PRIu64, r->allocated_bytes);
    fprintf(out, ",\n  \"copied_bytes\": %" PRIu64, r->copied_bytes);
    fprintf(out, ",\n  \"max_live_bytes\": %" PRIu64, r->max_live_bytes);
    fprintf(out, ",\n  \"major_gcs\": %u", (unsigned)r->major_gcs);
    fprintf(out, ",\n  \"max_slop_bytes\": %" PRIu64, r->max_slop_bytes);
    fprintf(out, ",\n  \"max_mem_in_use_bytes\": %" PRIu64, r->max_mem_in_use_bytes);
    fprintf(out, ",\n  \"max_current_fragmentation_bytes\": %" PRIu64, r->max_frag_bytes);
    fputs(",\n  \"ghc_fragmentation_bytes\": null", out);
    fprintf(out, ",\n  \"gcs\": %u", (unsigned)r->collections);
    fputs(",\n  \"generations\": [", out);
    for (uint32_t g = 0; g < r->generations; g++) {
        const gc_gen *gg = &r->gens[g];
        fprintf(out, "%s\n    {\"gen\": %u, \"collections\": %u, \"par_collections\": %u, "
                     "\"elapsed_ns\": %" PRIu64 ", \"avg_pause_ns\": %" PRIu64
                     ", \"max_pause_ns\": %" PRIu64 ", \"copied_bytes\": %" PRIu64
                     ", \"max_slop_bytes\": %" PRIu64 "}",
                g ? "," : "", (unsigned)g, (unsigned)gg->collections,
                (unsigned)gg->par_collections, gg->elapsed_ns, gg->avg_pause_ns,
                gg->max_pause_ns, gg->copied_bytes, gg->max_slop_bytes);
    }
    fputs(r->generations ? "\n  ]" : "]", out);
    fprintf(out, ",\n  \"par_copied_bytes\": %" PRIu64, r->par_copied_bytes);
    fprintf(out, ",\n  \"cumulative_par_balanced_copied_bytes\": %" PRIu64,
            r->par_balanced_copied_bytes);
    fputs(",\n  \"work_balance\": ", out);
    json_double(out, r->work_balance);
    fputs(",\n  \"sparks\": ", out);
    if (r->has_sparks)
        json_sparks(out, &r->sparks);
    else
        fputs("null", out);
    fprintf(out, ",\n  \"elapsed_ns\": %" PRIu64, r->total_ns);
    fprintf(out, ",\n  \"gc_elapsed_ns\": %" PRIu64, r->gc_ns);
    fprintf(out, ",\n  \"mutator_elapsed_ns\": %" PRIu64, r->mutator_ns);
    fputs(",\n  \"init_elapsed_ns\": null,\n  \"exit_elapsed_ns\": null,\n"
          "  \"cpu_ns\": null,\n  \"gc_cpu_ns\": null,\n  \"mutator_cpu_ns\": null", out);
    fputs(",\n  \"alloc_rate\": null", out);
    fprintf(out, ",\n  \"alloc_rate_wall_clock\": %" PRIu64, r->alloc_rate);
    fputs(",\n  \"productivity_elapsed\": ", out);
    json_double(out, r->productivity);
    fputs(",\n  \"capabilities\": [", out);
    for (uint32_t i = 0; i < r->n_caps; i++) {
        const gc_cap *c = &r->caps[i];
        fputs(i ? ",\n    {\"cap\": " : "\n    {\"cap\": ", out);
        if (c->cap == EL_NO_CAP)
            fputs("null", out);
        else
            fprintf(out, "%u", (unsigned)c->cap);
        fputs(", \"allocated_bytes\": ", out);
        if (c->has_alloc)
            fprintf(out, "%" PRIu64, c->allocated_bytes);
        else
            fputs("null", out);
        fprintf(out, ", \"mutator_elapsed_ns\": %" PRIu64 ", \"gc_elapsed_ns\": %" PRIu64
                     ", \"idle_ns\": %" PRIu64 ", \"gcs\": %u, \"led\": %u"
                     ", \"max_pause_ns\": %" PRIu64 ", \"sparks\": ",
                c->mutator_ns, c->gc_ns, c->idle_ns, (unsigned)c->gcs, (unsigned)c->led,
                c->max_pause_ns);
        if (c->has_sparks)
            json_sparks(out, &c->sparks);
        else
            fputs("null", out);
        fputc('}', out);
    }
    fputs(r->n_caps ? "\n  ]" : "]", out);
    fputs(",\n  \"evprof_note\": \"elapsed times only: CPU time and the INIT/EXIT split are "
          "not in the eventlog (null); mutator time includes INIT and EXIT; alloc_rate (GHC's, per "
          "mutator CPU second) is null, alloc_rate_wall_clock is per elapsed mutator second; "
          "ghc_fragmentation_bytes (a difference of two lifetime peaks) is null, "
          "max_current_fragmentation_bytes is the largest free space in held megablocks "
          "after a collection (GC_STATS_GHC)\"\n}\n", out);
    return ferror(out) ? -1 : 0;
}
