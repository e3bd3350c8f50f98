/* Ticky output: the counter table as GHC's +RTS -r table (totals
 * underneath), CSV (RFC 4180) or JSON; the series in long form. */
#include <string.h>

#include "evprof/textout.h"
#include "internal.h"

#define RULE "--------------------------------------------------------------------------------"

typedef unsigned long long ull;

/* ---- strings ------------------------------------------------------------ */

/* For a terminal: the visible form of evprof/textout.h. */
static void text_str(FILE *out, const char *s, size_t n)
{
    tx_put(out, s, n);
}

/* GHC's "%-20.20s" of the argument kinds, in their visible form: cut to
 * 20 code points, padded to 20. */
static void kinds_cell(FILE *out, const char *s, size_t n)
{
    char cell[4 * 20 + 1];
    size_t len = tx_vis(cell, sizeof cell, s, n);
    if (len > sizeof cell - 1)
        len = sizeof cell - 1;
    size_t end = 0, w = 0;
    while (end < len && w < 20) {           /* the visible form is UTF-8 */
        size_t k = tx_utf8_next((const unsigned char *)cell + end, len - end, NULL);
        if (!k)
            break;
        end += k;
        w++;
    }
    fwrite(cell, 1, end, out);
    for (; w < 20; w++)
        putc(' ', out);
}

static const char *source_name(ticky_source s)
{
    switch (s) {
    case TICKY_FROM_EVENTLOG: return "eventlog";
    case TICKY_FROM_TEXT: return "ticky-text";
    default: return "none";
    }
}

/* ---- the table ---------------------------------------------------------- */

static int digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* GHC's columns are %11d, which run together once a number has 11 digits;
 * here a column widens instead, so that a space always separates them. */
static int width(int w, uint64_t v)
{
    return digits(v) + 1 > w ? digits(v) + 1 : w;
}

static void table_text(const ticky_set *t, const ticky_view *v, FILE *out)
{
    int we = width(11, v->entries), wa = width(11, v->alloc), wd = width(11, v->allocd);
    for (size_t i = 0; i < v->shown; i++) {
        const ticky_counter *c = &t->c[v->order[i]].pub;
        we = width(we, c->entries);
        wa = width(wa, c->alloc);
        wd = width(wd, c->allocd);
    }
    fprintf(out, "%*s%*s%*s  %-23s %s\n", we, "Entries", wa, "Alloc", wd, "Alloc'd",
            "Non-void Arguments", "STG Name");
    fputs(RULE "\n", out);
    for (size_t i = 0; i < v->shown; i++) {
        const ticky_counter *c = &t->c[v->order[i]].pub;
        fprintf(out, "%*llu%*llu%*llu %3u ", we, (ull)c->entries, wa, (ull)c->alloc, wd,
                (ull)c->allocd, (unsigned)c->arity);
        kinds_cell(out, c->args, c->args_len);
        putc(' ', out);
        text_str(out, c->name, c->name_len);
        putc('\n', out);
    }
    fputs(RULE "\n", out);
    fprintf(out, "%*llu%*llu%*llu %3s %-20s total of %zu counter%s", we, (ull)v->entries, wa,
            (ull)v->alloc, wd, (ull)v->allocd, "", "", v->matched, v->matched == 1 ? "" : "s");
    if (v->opts.match) {
        fputs(" matching \"", out);
        text_str(out, v->opts.match, v->opts.match_len);
        putc('"', out);
    }
    if (v->shown < v->matched)
        fprintf(out, ", top %zu shown", v->shown);
    putc('\n', out);
}

static void table_csv(const ticky_set *t, const ticky_view *v, FILE *out)
{
    fputs("name,entries,alloc,allocd,arity,kinds,id,info_table,defined,samples,description\n",
          out);
    for (size_t i = 0; i < v->shown; i++) {
        const ticky_counter *c = &t->c[v->order[i]].pub;
        tx_csv_str(out, c->name, c->name_len);
        fprintf(out, ",%llu,%llu,%llu,%u,", (ull)c->entries, (ull)c->alloc, (ull)c->allocd,
                (unsigned)c->arity);
        tx_csv_str(out, c->args, c->args_len);
        putc(',', out);
        if (c->has_id)
            fprintf(out, "%llu", (ull)c->id);
        putc(',', out);
        if (c->has_info_tbl)
            fprintf(out, "0x%llx", (ull)c->info_tbl);
        fprintf(out, ",%s,", c->defined ? "true" : "false");
        if (t->info.source == TICKY_FROM_EVENTLOG)
            fprintf(out, "%llu", (ull)c->samples);
        putc(',', out);
        if (c->json)
            tx_csv_str(out, c->json, c->json_len);
        putc('\n', out);
    }
}

static void table_json(const ticky_set *t, const ticky_view *v, FILE *out)
{
    const ticky_info *in = &t->info;
    int ev = in->source == TICKY_FROM_EVENTLOG;
    fprintf(out, "{\n  \"source\": \"%s\",\n  \"sort\": \"%s\",\n", source_name(in->source),
            ticky_sort_name(v->opts.sort));
    fputs("  \"match\": ", out);
    if (v->opts.match)
        tx_json_str(out, v->opts.match, v->opts.match_len);
    else
        fputs("null", out);
    fprintf(out, ",\n  \"window_ns\": {\"from\": %llu, \"to\": ", (ull)t->from_ns);
    if (t->to_ns == UINT64_MAX)
        fputs("null},\n", out);
    else
        fprintf(out, "%llu},\n", (ull)t->to_ns);
    fprintf(out,
            "  \"counters_total\": %llu,\n  \"counters_matched\": %zu,\n"
            "  \"counters_shown\": %zu,\n  \"undefined_counters\": %llu,\n",
            (ull)in->counters, v->matched, v->shown, (ull)in->undefined);
    if (ev)
        fprintf(out, "  \"samples\": %llu,\n  \"batches\": %llu,\n",
                (ull)in->samples_in_window, (ull)in->batches_in_window);
    fprintf(out, "  \"totals\": {\"entries\": %llu, \"alloc\": %llu, \"allocd\": %llu},\n",
            (ull)v->entries, (ull)v->alloc, (ull)v->allocd);
    fputs("  \"counters\": [", out);
    for (size_t i = 0; i < v->shown; i++) {
        const ticky_counter *c = &t->c[v->order[i]].pub;
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
        tx_json_str(out, c->name, c->name_len);
        fprintf(out, ", \"entries\": %llu, \"alloc\": %llu, \"allocd\": %llu, \"arity\": %u, "
                "\"kinds\": ", (ull)c->entries, (ull)c->alloc, (ull)c->allocd,
                (unsigned)c->arity);
        tx_json_str(out, c->args, c->args_len);
        fputs(", \"id\": ", out);
        if (c->has_id)
            fprintf(out, "%llu", (ull)c->id);
        else
            fputs("null", out);
        fputs(", \"info_table\": ", out);
        if (c->has_info_tbl)
            fprintf(out, "\"0x%llx\"", (ull)c->info_tbl);
        else
            fputs("null", out);
        fprintf(out, ", \"defined\": %s, \"samples\": ", c->defined ? "true" : "false");
        if (ev)
            fprintf(out, "%llu", (ull)c->samples);
        else
            fputs("null", out);
        fputs(", \"description\": ", out);
        if (c->json)
            tx_json_str(out, c->json, c->json_len);
        else
            fputs("null", out);
        putc('}', out);
    }
    fputs(v->shown ? "\n  ]\n}\n" : "]\n}\n", out);
}

int ticky_write_table(const ticky_set *t, const ticky_view *v, ticky_format f, FILE *out)
{
    switch (f) {
    case TICKY_CSV: table_csv(t, v, out); break;
    case TICKY_JSON: table_json(t, v, out); break;
    default: table_text(t, v, out); break;
    }
    return ferror(out) ? -1 : 0;
}

/* ---- the series ---------------------------------------------------------- */

/* Decimal digits of v at b (at most 20); returns their number. */
static size_t put_u64(char *b, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        b[i] = tmp[n - 1 - i];
    return n;
}

void ticky_series_out_begin(ticky_series_out *o, FILE *f, ticky_format fmt, int cumulative)
{
    memset(o, 0, sizeof *o);
    o->f = f;
    o->fmt = fmt;
    o->cumulative = cumulative;
    switch (fmt) {
    case TICKY_CSV:
        fputs("time_ns,counter,entries,alloc,allocd\n", f);
        break;
    case TICKY_JSON:
        fprintf(f, "{\n  \"cumulative\": %s,\n  \"rows\": [", cumulative ? "true" : "false");
        break;
    default:
        fprintf(f, "%14s%11s%11s%11s  %s\n", "Time (s)", "Entries", "Alloc", "Alloc'd",
                "STG Name");
        fputs(RULE "\n", f);
        break;
    }
}

int ticky_series_out_batch(void *ctx, uint64_t time_ns, const ticky_row *rows, size_t n)
{
    ticky_series_out *o = ctx;
    FILE *f = o->f;
    for (size_t i = 0; i < n; i++) {
        const ticky_row *r = &rows[i];
        switch (o->fmt) {
        case TICKY_CSV: {   /* the long series: no printf per row */
            char b[96];
            size_t n0 = put_u64(b, time_ns);
            b[n0++] = ',';
            fwrite(b, 1, n0, f);
            tx_csv_str(f, r->c->name, r->c->name_len);
            size_t m = 0;
            b[m++] = ',';
            m += put_u64(b + m, r->entries);
            b[m++] = ',';
            m += put_u64(b + m, r->alloc);
            b[m++] = ',';
            m += put_u64(b + m, r->allocd);
            b[m++] = '\n';
            fwrite(b, 1, m, f);
            break;
        }
        case TICKY_JSON:
            fprintf(f, "%s\n    {\"time_ns\": %llu, \"counter\": ", o->rows ? "," : "",
                    (ull)time_ns);
            tx_json_str(f, r->c->name, r->c->name_len);
            fputs(", \"id\": ", f);
            if (r->c->has_id)
                fprintf(f, "%llu", (ull)r->c->id);
            else
                fputs("null", f);
            fprintf(f, ", \"entries\": %llu, \"alloc\": %llu, \"allocd\": %llu}",
                    (ull)r->entries, (ull)r->alloc, (ull)r->allocd);
            break;
        default:
            fprintf(f, "%14.6f%11llu%11llu%11llu  ", (double)time_ns / 1e9, (ull)r->entries,
                    (ull)r->alloc, (ull)r->allocd);
            text_str(f, r->c->name, r->c->name_len);
            putc('\n', f);
            break;
        }
        o->rows++;
    }
    o->batches++;
    return ferror(f) ? 1 : 0;
}

int ticky_series_out_end(ticky_series_out *o)
{
    if (o->fmt == TICKY_JSON)
        fprintf(o->f, "%s],\n  \"batches\": %llu,\n  \"row_count\": %llu\n}\n",
                o->rows ? "\n  " : "", (ull)o->batches, (ull)o->rows);
    return ferror(o->f) ? -1 : 0;
}
