/* Ticky output: the counter table as GHC's +RTS -r table (totals
 * underneath), CSV (RFC 4180) or JSON; the series in long form. */
#include <stdlib.h>
#include <string.h>

#include "evprof/json.h"
#include "evprof/textout.h"
#include "internal.h"
#include "util/error.h"

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
    case TICKY_FROM_NOTHING:
    default: return "none";
    }
}

/* ---- what the counts cover ---------------------------------------------- */

static void span_str(char *buf, size_t size, uint64_t ns)
{
    if (ns < UINT64_C(1000000000))
        snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
    else
        snprintf(buf, size, "%.3f s", (double)ns / 1e9);
}

int ticky_coverage_note(const ticky_coverage *c, char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
    if (!c->known || !c->short_of_run)
        return 0;
    char span[32];
    span_str(span, sizeof span, c->after_ns);
    const char *why = "GHC samples the counters at the first collection after each +RTS -i "
                      "tick, and at exit only when a tick came since: +RTS -r counts the "
                      "whole run, a shorter -i leaves less out";
    if (c->end_from_threads)
        return snprintf(buf, size, "the counts stop at %.6f s, GHC's last ticky sample; the "
                        "program's threads ran until %.6f s: %.1f%% of the run (%s) came "
                        "after and is not counted. %s", (double)c->counted_until_ns / 1e9,
                        (double)c->run_end_ns / 1e9, c->after_pct, span, why);
    return snprintf(buf, size, "the counts stop at %.6f s, GHC's last ticky sample; the log "
                    "goes on to %.6f s (no thread events say when the program stopped): up "
                    "to %.1f%% of the run (%s) came after and is not counted. %s",
                    (double)c->counted_until_ns / 1e9, (double)c->run_end_ns / 1e9,
                    c->after_pct, span, why);
}

void ticky_coverage_json(tx_json *j, const char *key, const ticky_coverage *c)
{
    tx_json_key(j, key);
    if (!c->known) {
        tx_json_null(j);
        return;
    }
    char note[768];
    int n = ticky_coverage_note(c, note, sizeof note);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "counted_until_ns", c->counted_until_ns);
    tx_json_kv_uint(j, "run_end_ns", c->run_end_ns);
    tx_json_kv_cstr(j, "run_end_from", c->end_from_threads ? "threads" : "log");
    tx_json_kv_uint(j, "after_ns", c->after_ns);
    tx_json_key(j, "after_pct");
    tx_json_fixed(j, c->after_pct, 0, 2);
    tx_json_kv_bool(j, "short", c->short_of_run);
    tx_json_key(j, "note");
    if (n > 0)
        tx_json_string(j, note, strlen(note));
    else
        tx_json_null(j);
    tx_json_end(j);
}

/* "note: " and the text, its words wrapped at 80 columns under the first. */
static void note_text(FILE *out, const char *s)
{
    const size_t indent = 6, width = 80;
    size_t col = 0;
    fputs("note: ", out);
    col = indent;
    while (*s) {
        size_t w = strcspn(s, " ");
        if (col > indent && col + 1 + w > width) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            putc(' ', out);
            col++;
        }
        fwrite(s, 1, w, out);
        col += w;
        s += w;
        while (*s == ' ')
            s++;
    }
    putc('\n', out);
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
    ticky_coverage cov;
    char note[768];
    ticky_coverage_of(t, &cov);
    if (ticky_coverage_note(&cov, note, sizeof note) > 0) {
        putc('\n', out);
        note_text(out, note);
    }
}

static void table_csv(const ticky_set *t, const ticky_view *v, FILE *out)
{
    fputs("name,entries,alloc,allocd,arity,kinds,id,info_table,defined,samples,description,"
          "counted_until_ns,run_end_ns\n", out);
    /* what the counts cover, the same on every row (empty when unknown) */
    ticky_coverage cov;
    char until[48] = ",";
    ticky_coverage_of(t, &cov);
    if (cov.known)
        snprintf(until, sizeof until, "%llu,%llu", (ull)cov.counted_until_ns,
                 (ull)cov.run_end_ns);
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
        fprintf(out, ",%s\n", until);
    }
}

static int table_json(const ticky_set *t, const ticky_view *v, FILE *out)
{
    const ticky_info *in = &t->info;
    int ev = in->source == TICKY_FROM_EVENTLOG;
    tx_json *j = malloc(sizeof *j);
    if (!j)
        return -1;
    tx_json_init(j, out, 2, 0);
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_kv_cstr(j, "source", source_name(in->source));
    tx_json_kv_cstr(j, "sort", ticky_sort_name(v->opts.sort));
    tx_json_key(j, "match");
    if (v->opts.match)
        tx_json_string(j, v->opts.match, v->opts.match_len);
    else
        tx_json_null(j);
    tx_json_key(j, "window_ns");
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "from", t->from_ns);
    tx_json_key(j, "to");
    if (t->to_ns == UINT64_MAX)
        tx_json_null(j);
    else
        tx_json_uint(j, t->to_ns);
    tx_json_end(j);
    tx_json_kv_uint(j, "counters_total", in->counters);
    tx_json_kv_uint(j, "counters_matched", v->matched);
    tx_json_kv_uint(j, "counters_shown", v->shown);
    tx_json_kv_uint(j, "undefined_counters", in->undefined);
    if (ev) {
        tx_json_kv_uint(j, "samples", in->samples_in_window);
        tx_json_kv_uint(j, "batches", in->batches_in_window);
    }
    ticky_coverage cov;
    ticky_coverage_of(t, &cov);
    ticky_coverage_json(j, "coverage", &cov);
    tx_json_key(j, "totals");
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "entries", v->entries);
    tx_json_kv_uint(j, "alloc", v->alloc);
    tx_json_kv_uint(j, "allocd", v->allocd);
    tx_json_end(j);
    tx_json_key(j, "counters");
    tx_json_array(j, TX_JSON_BLOCK);
    for (size_t i = 0; i < v->shown; i++) {
        const ticky_counter *c = &t->c[v->order[i]].pub;
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_string(j, "name", c->name, c->name_len);
        tx_json_kv_uint(j, "entries", c->entries);
        tx_json_kv_uint(j, "alloc", c->alloc);
        tx_json_kv_uint(j, "allocd", c->allocd);
        tx_json_kv_uint(j, "arity", c->arity);
        tx_json_kv_string(j, "kinds", c->args, c->args_len);
        tx_json_key(j, "id");
        if (c->has_id)
            tx_json_uint(j, c->id);
        else
            tx_json_null(j);
        tx_json_key(j, "info_table");
        if (c->has_info_tbl) {
            char hex[24];
            int n = snprintf(hex, sizeof hex, "0x%llx", (ull)c->info_tbl);
            tx_json_string(j, hex, (size_t)n);
        } else {
            tx_json_null(j);
        }
        tx_json_kv_bool(j, "defined", c->defined);
        tx_json_key(j, "samples");
        if (ev)
            tx_json_uint(j, c->samples);
        else
            tx_json_null(j);
        tx_json_key(j, "description");
        if (c->json)
            tx_json_string(j, c->json, c->json_len);
        else
            tx_json_null(j);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_end(j);
    tx_json_space(j, "\n");
    int rc = tx_json_finish(j);
    free(j);
    return rc;
}

int ticky_write_table(const ticky_set *t, const ticky_view *v, ticky_format f, FILE *out)
{
    switch (f) {
    case TICKY_CSV: table_csv(t, v, out); break;
    case TICKY_JSON:
        if (table_json(t, v, out) != 0)
            return -1;
        break;
    case TICKY_TEXT:
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
        tx_json_init(&o->json, f, 2, 0);
        tx_json_object(&o->json, TX_JSON_BLOCK);
        tx_json_kv_bool(&o->json, "cumulative", cumulative);
        tx_json_key(&o->json, "rows");
        tx_json_array(&o->json, TX_JSON_BLOCK);
        break;
    case TICKY_TEXT:
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
        case TICKY_JSON: {
            tx_json *j = &o->json;
            tx_json_object(j, TX_JSON_INLINE);
            tx_json_kv_uint(j, "time_ns", time_ns);
            tx_json_kv_string(j, "counter", r->c->name, r->c->name_len);
            tx_json_key(j, "id");
            if (r->c->has_id)
                tx_json_uint(j, r->c->id);
            else
                tx_json_null(j);
            tx_json_kv_uint(j, "entries", r->entries);
            tx_json_kv_uint(j, "alloc", r->alloc);
            tx_json_kv_uint(j, "allocd", r->allocd);
            tx_json_end(j);
            break;
        }
        case TICKY_TEXT:
        default:
            fprintf(f, "%14.6f%11llu%11llu%11llu  ", (double)time_ns / 1e9, (ull)r->entries,
                    (ull)r->alloc, (ull)r->allocd);
            text_str(f, r->c->name, r->c->name_len);
            putc('\n', f);
            break;
        }
        o->rows++;
    }
    if (o->fmt == TICKY_JSON)
        tx_json_flush(&o->json);    /* each batch reaches the FILE when it closes */
    o->batches++;
    return ferror(f) ? 1 : 0;
}

int ticky_series_out_end(ticky_series_out *o)
{
    if (o->fmt == TICKY_JSON) {
        tx_json *j = &o->json;
        tx_json_end(j);
        tx_json_kv_uint(j, "batches", o->batches);
        tx_json_kv_uint(j, "row_count", o->rows);
        tx_json_end(j);
        tx_json_space(j, "\n");
        if (tx_json_finish(j) != 0)
            return -1;
    }
    return ferror(o->f) ? -1 : 0;
}

/* ---- the table of formats (evprof/format.h) ---- */

static ev_status write_text(const void *t, const void *v, FILE *out, ev_error *err)
{
    return ev_write_status(ticky_write_table(t, v, TICKY_TEXT, out), err, "the ticky table");
}

static ev_status write_csv(const void *t, const void *v, FILE *out, ev_error *err)
{
    return ev_write_status(ticky_write_table(t, v, TICKY_CSV, out), err, "the ticky CSV");
}

static ev_status write_json(const void *t, const void *v, FILE *out, ev_error *err)
{
    return ev_write_status(ticky_write_table(t, v, TICKY_JSON, out), err, "the ticky JSON");
}

/* in ticky_format's order: --series writes the row's index (ticky_series_out_begin) */
static const ev_format formats[] = {
    [TICKY_TEXT] = { "text", ".txt", write_text, 0 },
    [TICKY_CSV] = { "csv", ".csv", write_csv, 0 },
    [TICKY_JSON] = { "json", ".json", write_json, 0 },
};

const ev_format *ticky_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}
