/* The band summary: one line per band, largest peak first. */
#include "evprof/heap.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/textout.h"
#include "util/table.h"

static void put_secs3(FILE *out, uint64_t ns)
{
    uint64_t ms = ns / 1000000 + (ns % 1000000 >= 500000);
    fprintf(out, "%llu.%03llu", (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000));
}

int heap_summary_text(const heap_profile *h, const heap_summary_opts *o, FILE *out)
{
    heap_summary_opts defaults;
    if (!o) {
        heap_summary_opts_init(&defaults);
        o = &defaults;
    }
    const heap_info *in = heap_get_info(h);
    size_t n;
    uint32_t *order = heap_bands_by_peak(h, &n);
    if (!order)
        return -1;
    size_t shown = o->top && o->top < n ? o->top : n;

    fputs("Heap profile", out);
    if (o->source_name) {
        fputs(" of ", out);
        tx_put(out, o->source_name, strlen(o->source_name));
    }
    putc('\n', out);
    if (in->job[0]) {
        fputs("job:         ", out);
        tx_put(out, in->job, strlen(in->job));
        putc('\n', out);
    }
    const char *name = in->has_begin ? heap_breakdown_name(in->breakdown) : NULL;
    const char *flag = in->has_begin ? heap_breakdown_flag(in->breakdown) : NULL;
    if (name)
        fprintf(out, "breakdown:   %s (%s)", name, flag);
    else if (in->has_begin)
        fprintf(out, "breakdown:   unknown (%u)", in->breakdown);
    else
        fputs("breakdown:   unknown (no HEAP_PROF_BEGIN event)", out);
    if (in->has_begin && in->breakdown == HEAP_BY_COST_CENTRE && in->whole_names)
        fputs(", stacks shown whole (the .hp cuts them at -L)", out);
    else if (in->has_begin && in->breakdown == HEAP_BY_COST_CENTRE)
        fprintf(out, ", stacks cut to %u bytes (-L%s)", in->length,
                in->length_from_log ? ", from the log's RTS options" : "");
    if (in->period_ns) {
        fputs(", a census every ", out);
        put_secs3(out, in->period_ns);
        fputs(" s", out);
    }
    fprintf(out, "\ncensuses:    %llu", (unsigned long long)in->censuses);
    if (in->censuses) {
        fputs(", from ", out);
        put_secs3(out, in->first_time);
        fputs(" s to ", out);
        put_secs3(out, in->last_time);
        fputs(" s", out);
    }
    fputs(" (seconds since the RTS started)\n", out);
    if (in->censuses) {
        fprintf(out, "peak heap:   %llu bytes at ", (unsigned long long)in->peak_total);
        put_secs3(out, in->peak_total_time);
        fputs(" s (all bands)\n", out);
    }
    putc('\n', out);

    static const tx_col cols[] = {
        { NULL, TX_LEFT, 0, 1 },            /* band */
        { "  ", TX_RIGHT, 0, 1 },           /* peak bytes */
        { "  ", TX_RIGHT, 11, 0 },          /* peak at (s) */
        { "  ", TX_RIGHT, 0, 1 },           /* mean bytes */
        { "  ", TX_RIGHT, 13, 0 },          /* share at peak */
    };
    tx_table t;
    tx_table_init(&t, cols, 5);
    static const char *const head[] = { "band", "peak bytes", "peak at (s)", "mean bytes",
                                        "share at peak" };
    for (size_t c = 0; c < 5; c++)
        tx_table_add(&t, head[c], strlen(head[c]));
    tx_table_end_row(&t, 1);
    for (size_t i = 0; i < shown; i++) {
        const heap_band *b = heap_band_at(h, order[i]);
        uint64_t mean = in->censuses ? (b->sum + in->censuses / 2) / in->censuses : 0;
        double share = b->peak_total ? 100.0 * (double)b->peak / (double)b->peak_total : 0.0;
        uint64_t ms = b->peak_time / 1000000 + (b->peak_time % 1000000 >= 500000);
        tx_table_add(&t, b->title, b->title_len);
        tx_table_addf(&t, "%llu", (unsigned long long)b->peak);
        tx_table_addf(&t, "%llu.%03llu", (unsigned long long)(ms / 1000),
                      (unsigned long long)(ms % 1000));
        tx_table_addf(&t, "%llu", (unsigned long long)mean);
        tx_table_addf(&t, "%.1f%%", share);
        tx_table_end_row(&t, 1);
    }
    int rc = tx_table_write(&t, out);
    tx_table_free(&t);
    if (rc != 0) {
        free(order);
        return -1;
    }
    if (shown < n)
        fprintf(out, "(%zu more band%s: --top 0 shows all)\n", n - shown,
                n - shown == 1 ? "" : "s");
    if (!n)
        fputs("(no bands)\n", out);
    free(order);

    /* what the numbers leave out */
    if (in->dropped)
        fprintf(out, "\nnote: %llu census%s left out: cut off by the end of the log or by "
                "damage (never counted half)\n", (unsigned long long)in->dropped,
                in->dropped == 1 ? "" : "es");
    if (in->filtered)
        fprintf(out, "note: %llu census%s outside the time window\n",
                (unsigned long long)in->filtered, in->filtered == 1 ? "" : "es");
    if (in->undefined_ccs)
        fprintf(out, "note: %llu stack frames name cost centres that no event 161 defines "
                "(shown as <undefined cc N>)\n", (unsigned long long)in->undefined_ccs);
    if (in->unresolved_ipe && in->symbol_bands)
        fprintf(out, "note: %llu info-table bands have no IPE entry (event 169): %llu named "
                "by the executable's symbols (marked '(symbol)'), %llu shown as addresses\n",
                (unsigned long long)in->unresolved_ipe, (unsigned long long)in->symbol_bands,
                (unsigned long long)(in->unresolved_ipe - in->symbol_bands));
    else if (in->unresolved_ipe)
        fprintf(out, "note: %llu info-table bands have no IPE entry (event 169): shown as "
                "addresses\n", (unsigned long long)in->unresolved_ipe);
    return ferror(out) ? -1 : 0;
}
