/* Streaming writers of heap censuses: GHC's .hp file, CSV and JSON rows.
 * One ops struct per format; each census is written when the profile hands
 * it over, so a writer holds nothing but its FILE. */
#include "evprof/heap.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/json.h"
#include "evprof/textout.h"
#include "heap/internal.h"

typedef struct writer_ops {
    void (*header)(heap_writer *w, const heap_profile *h);
    void (*census)(heap_writer *w, const heap_profile *h, const heap_census *c);
    void (*footer)(heap_writer *w, const heap_profile *h);
} writer_ops;

struct heap_writer {
    const writer_ops *ops;
    FILE *out;
    int started;                /* header written */
    uint64_t rows;              /* JSON: rows written */
    int failed;                 /* JSON: the writer refused a call */
    tx_json json;               /* JSON: the document */
};

/* "%llu.%06llu": ns as seconds rounded to microseconds, as GHC's %f. */
static void heap_put_seconds6(FILE *out, uint64_t ns)
{
    uint64_t us = ns / 1000 + (ns % 1000 >= 500);
    fprintf(out, "%llu.%06llu", (unsigned long long)(us / 1000000),
            (unsigned long long)(us % 1000000));
}

/* ns as seconds with all nine decimals (exact). */
static void heap_put_seconds9(FILE *out, uint64_t ns)
{
    fprintf(out, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
            (unsigned long long)(ns % 1000000000u));
}

/* ---- .hp -------------------------------------------------------------- */

#define HEAP_HP_MAX_NAME 4999u   /* hp2ps's identifier buffer, less its NUL */

/* The JOB string as GHC writes it, each '"' doubled, in its visible form
 * (evprof/textout.h): no control byte, so the header is one line a field. */
static void hp_job(FILE *out, const char *s)
{
    for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
        tx_put(out, s, (size_t)(q - s));
        fputs("\"\"", out);
    }
    tx_put(out, s, strlen(s));
}

static void hp_header(heap_writer *w, const heap_profile *h)
{
    const heap_info *in = heap_get_info(h);
    char date[64] = "";
    if (in->has_wall_clock) {
        /* GHC dates the .hp when profiling starts: the RTS's start */
        uint64_t back = in->wall_time_ns / 1000000000u;
        tx_date(date, sizeof date, (long long)(in->wall_sec > back ? in->wall_sec - back : 0));
    }
    fputs("JOB \"", w->out);
    hp_job(w->out, in->job);
    fprintf(w->out, "\"\nDATE \"%s\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n", date);
    /* GHC opens with an empty sample at time 0: the window's start */
    uint64_t from = heap_window_from(h);
    fputs("BEGIN_SAMPLE ", w->out);
    heap_put_seconds6(w->out, from);
    fputs("\nEND_SAMPLE ", w->out);
    heap_put_seconds6(w->out, from);
    putc('\n', w->out);
}

/* A band name as hp2ps can read it. GHC writes names verbatim, but hp2ps
 * reads a name as a run of non-space bytes (at most 4999) that does not
 * start with '"' and is none of its keywords; GHC's own file breaks it on
 * an SCC label with a space. So the name is written in its visible form
 * (evprof/textout.h: control bytes escaped, bad UTF-8 as U+FFFD), a space
 * becomes '_', an empty name "(empty)", a leading '"' gets a '_' before
 * it, a keyword a '_' after it, and a name whose visible form passes 4999
 * bytes is cut to 4996 and "...". */
static void hp_band(FILE *out, const char *s, size_t n)
{
    static const char *const keywords[] = { "BEGIN_SAMPLE", "END_SAMPLE", "JOB", "DATE",
                                            "SAMPLE_UNIT", "VALUE_UNIT", "MARK" };
    char buf[HEAP_HP_MAX_NAME + 1];
    if (n == 0) {
        fputs("(empty)", out);
        return;
    }
    size_t len = tx_vis(buf, sizeof buf, s, n);
    int cut = len > HEAP_HP_MAX_NAME;
    if (cut) {
        len = HEAP_HP_MAX_NAME - 3;
        while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80)
            len--;                          /* not inside a UTF-8 sequence */
    }
    if (buf[0] == '"')
        putc('_', out);
    for (size_t i = 0; i < len; i++)
        if (buf[i] == ' ')
            buf[i] = '_';
    fwrite(buf, 1, len, out);
    if (cut) {
        fputs("...", out);
        return;
    }
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (strlen(keywords[k]) == len && memcmp(keywords[k], buf, len) == 0)
            putc('_', out);
}

static void hp_census(heap_writer *w, const heap_profile *h, const heap_census *c)
{
    FILE *out = w->out;
    fputs("BEGIN_SAMPLE ", out);
    heap_put_seconds6(out, c->time);
    putc('\n', out);
    for (size_t i = 0; i < c->n; i++) {
        const heap_band *b = heap_band_at(h, c->samples[i].band);
        hp_band(out, b->name, b->len);
        fprintf(out, "\t%llu\n", (unsigned long long)c->samples[i].bytes);
    }
    fputs("END_SAMPLE ", out);
    heap_put_seconds6(out, c->time);
    putc('\n', out);
}

static void hp_footer(heap_writer *w, const heap_profile *h)
{
    /* GHC closes with an empty sample when the program ends: the end of
     * the log (or of the window), never before the last census */
    const heap_info *in = heap_get_info(h);
    uint64_t end = in->log_last < heap_window_to(h) ? in->log_last : heap_window_to(h);
    if (in->censuses && end < in->last_time)
        end = in->last_time;
    if (end < heap_window_from(h))
        end = heap_window_from(h);
    fputs("BEGIN_SAMPLE ", w->out);
    heap_put_seconds6(w->out, end);
    fputs("\nEND_SAMPLE ", w->out);
    heap_put_seconds6(w->out, end);
    putc('\n', w->out);
}

/* ---- CSV -------------------------------------------------------------- */

static void csv_header(heap_writer *w, const heap_profile *h)
{
    (void)h;
    fputs("census,time,band,bytes\n", w->out);
}

static void csv_census(heap_writer *w, const heap_profile *h, const heap_census *c)
{
    for (size_t i = 0; i < c->n; i++) {
        const heap_band *b = heap_band_at(h, c->samples[i].band);
        fprintf(w->out, "%llu,", (unsigned long long)c->index);
        heap_put_seconds9(w->out, c->time);
        putc(',', w->out);
        tx_csv_str(w->out, b->title, b->title_len);
        fprintf(w->out, ",%llu\n", (unsigned long long)c->samples[i].bytes);
    }
}

static void csv_footer(heap_writer *w, const heap_profile *h)
{
    (void)w;
    (void)h;
}

/* ---- JSON ------------------------------------------------------------- */

static void json_header(heap_writer *w, const heap_profile *h)
{
    const heap_info *in = heap_get_info(h);
    tx_json *j = &w->json;
    tx_json_init(j, w->out, 0, 0);
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_kv_cstr(j, "program", in->program);
    tx_json_kv_cstr(j, "job", in->job);
    tx_json_kv_cstr(j, "rts", in->rts_version);
    tx_json_kv_cstr(j, "breakdown", in->has_begin ? heap_breakdown_name(in->breakdown) : NULL);
    tx_json_kv_cstr(j, "flag", in->has_begin ? heap_breakdown_flag(in->breakdown) : NULL);
    tx_json_key(j, "sampling_period");
    tx_json_decimal(j, in->period_ns, 9);
    tx_json_kv_uint(j, "band_length", in->length);
    tx_json_kv_cstr(j, "time_unit", "seconds since the RTS started (GHC's .hp uses mutator CPU seconds)");
    tx_json_kv_cstr(j, "value_unit", "bytes");
    tx_json_key(j, "rows");
    tx_json_array(j, TX_JSON_BLOCK);
}

static void json_census(heap_writer *w, const heap_profile *h, const heap_census *c)
{
    tx_json *j = &w->json;
    for (size_t i = 0; i < c->n; i++) {
        const heap_band *b = heap_band_at(h, c->samples[i].band);
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "census", c->index);
        tx_json_key(j, "time");
        tx_json_decimal(j, c->time, 9);
        tx_json_kv_string(j, "band", b->title, b->title_len);
        if (b->title != b->name) {      /* -hi: the address GHC's .hp names it by */
            tx_json_kv_string(j, "address", b->name, b->len);
        }
        tx_json_kv_uint(j, "bytes", c->samples[i].bytes);
        tx_json_end(j);
        w->rows++;
    }
    tx_json_flush(j);       /* each census reaches the FILE when it completes */
}

static void json_footer(heap_writer *w, const heap_profile *h)
{
    const heap_info *in = heap_get_info(h);
    tx_json *j = &w->json;
    if (!w->rows)
        tx_json_space(j, "\n");        /* "rows": [ and ] on lines of their own */
    tx_json_end(j);
    tx_json_kv_uint(j, "censuses", in->censuses);
    tx_json_kv_uint(j, "dropped_censuses", in->dropped);
    tx_json_end(j);
    tx_json_space(j, "\n");
    if (tx_json_finish(j) != 0)
        w->failed = 1;
}

/* ---- the writer ------------------------------------------------------- */

static const writer_ops ops_by_format[] = {
    [HEAP_FORMAT_HP] = { hp_header, hp_census, hp_footer },
    [HEAP_FORMAT_CSV] = { csv_header, csv_census, csv_footer },
    [HEAP_FORMAT_JSON] = { json_header, json_census, json_footer },
};
_Static_assert(sizeof ops_by_format / sizeof ops_by_format[0] == HEAP_FORMAT_JSON + 1,
               "ops for every format");

heap_writer *heap_writer_create(heap_format f, FILE *out)
{
    if ((unsigned)f > HEAP_FORMAT_JSON)
        return NULL;
    heap_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->ops = &ops_by_format[f];
    w->out = out;
    return w;
}

void heap_writer_destroy(heap_writer *w)
{
    free(w);
}

int heap_writer_census(void *ctx, const heap_profile *h, const heap_census *c)
{
    heap_writer *w = ctx;
    if (!w->started) {
        w->started = 1;
        w->ops->header(w, h);
    }
    w->ops->census(w, h, c);
    return ferror(w->out) ? -1 : 0;
}

int heap_writer_finish(heap_writer *w, const heap_profile *h)
{
    if (!w->started) {
        w->started = 1;
        w->ops->header(w, h);
    }
    w->ops->footer(w, h);
    return ferror(w->out) || w->failed ? -1 : 0;
}
