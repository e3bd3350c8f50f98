/* `evprof threads`: a sched_result as a text table and as JSON. */
#include <stdio.h>
#include <string.h>

#include "evprof/json.h"
#include "evprof/sched.h"
#include "evprof/textout.h"
#include "util/table.h"
#include "util/error.h"

#define LABEL_WIDTH 32      /* code points of a label in the table */

/* The capabilities a thread ran on: "0-3", "0,2", "-" (none inside the
 * selection), "+" for a capability past 63 or outside capability
 * blocks. */
static void caps_text(char *buf, size_t size, uint64_t caps, int over)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int c = 0; c < 64 && n + 16 < size; c++) {
        if (!(caps >> c & 1))
            continue;
        int e = c;
        while (e + 1 < 64 && (caps >> (e + 1) & 1))
            e++;
        const char *sep = n ? "," : "";
        if (e == c)
            n += (size_t)snprintf(buf + n, size - n, "%s%d", sep, c);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%d%s%d", sep, c, e == c + 1 ? "," : "-", e);
        c = e;
    }
    if (over && n + 2 < size)
        n += (size_t)snprintf(buf + n, size - n, "%s+", n ? "," : "");
    if (!n)
        snprintf(buf, size, "-");
}

static void time_cell(tx_table *t, uint64_t ns)
{
    if (ns == SCHED_NO_TIME)
        tx_table_add(t, "-", 1);
    else
        tx_table_addf(t, "%.6f", (double)ns / 1e9);
}

/* The reasons some thread stopped for (the table's columns), finished
 * apart (its own column). */
static size_t reasons_shown(const sched_result *r, sched_stop *k)
{
    size_t n = 0;
    for (int i = 0; i < SCHED_STOPS; i++)
        if (i != SCHED_STOP_FINISHED && r->stops[i])
            k[n++] = (sched_stop)i;
    return n;
}

static int threads_table(const sched_result *r, FILE *out)
{
    enum { FIXED = 7 };
    static const tx_col fixed[FIXED] = {
        { "  ", TX_RIGHT, 6, 1 }, { "  ", TX_LEFT, 5, 1 }, { "  ", TX_LEFT, 4, 1 },
        { "  ", TX_RIGHT, 11, 1 }, { "  ", TX_RIGHT, 12, 1 }, { "  ", TX_RIGHT, 11, 1 },
        { "  ", TX_RIGHT, 4, 1 },
    };
    sched_stop k[SCHED_STOPS];
    size_t nk = reasons_shown(r, k);
    tx_col cols[FIXED + SCHED_STOPS];
    memcpy(cols, fixed, sizeof fixed);
    for (size_t i = 0; i < nk; i++)
        cols[FIXED + i] = (tx_col){ "  ", TX_RIGHT, 1, 1 };
    tx_table t;
    tx_table_init(&t, cols, FIXED + nk);
    static const char *const head[FIXED] = {
        "Thread", "Label", "Caps", "Created (s)", "Finished (s)", "Running (s)", "Runs",
    };
    for (size_t i = 0; i < FIXED; i++)
        tx_table_add(&t, head[i], strlen(head[i]));
    for (size_t i = 0; i < nk; i++)
        tx_table_add(&t, sched_stop_name(k[i]), strlen(sched_stop_name(k[i])));
    tx_table_end_row(&t, 1);
    for (size_t i = 0; i < r->n_threads; i++) {
        const sched_thread_row *th = &r->threads[i];
        char buf[TX_SHORT_BYTES];
        tx_table_addf(&t, "%u", th->id);
        if (th->label) {
            size_t n = tx_vis_short(buf, sizeof buf, th->label, th->label_len, LABEL_WIDTH);
            tx_table_add(&t, buf, n < sizeof buf ? n : sizeof buf - 1);
        } else {
            tx_table_add(&t, "-", 1);
        }
        caps_text(buf, sizeof buf, th->caps, th->caps_over);
        tx_table_add(&t, buf, strlen(buf));
        time_cell(&t, th->created_ns);
        time_cell(&t, th->finished_ns);
        tx_table_addf(&t, "%.6f", (double)th->running_ns / 1e9);
        tx_table_addf(&t, "%llu", (unsigned long long)th->runs);
        for (size_t j = 0; j < nk; j++)
            tx_table_addf(&t, "%u", th->stops[k[j]]);
        tx_table_end_row(&t, 1);
    }
    int rc = tx_table_write(&t, out);
    tx_table_free(&t);
    if (rc != 0)
        return -1;
    for (size_t i = 0; i < nk; i++)
        fprintf(out, "  %s%*s%s\n", sched_stop_name(k[i]),
                (int)(10 - strlen(sched_stop_name(k[i]))), ": ", sched_stop_words(k[i]));
    return 0;
}

static int caps_table(const sched_result *r, FILE *out)
{
    static const tx_col cols[] = {
        { "  ", TX_RIGHT, 3, 1 }, { "  ", TX_RIGHT, 11, 1 }, { "  ", TX_RIGHT, 10, 1 },
        { "  ", TX_RIGHT, 10, 1 }, { "  ", TX_RIGHT, 4, 1 }, { "  ", TX_LEFT, 3, 1 },
    };
    tx_table t;
    tx_table_init(&t, cols, sizeof cols / sizeof cols[0]);
    static const char *const head[] = { "Cap", "Running (s)", "GC (s)", "Idle (s)", "Runs",
                                        "At the end" };
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        tx_table_add(&t, head[i], strlen(head[i]));
    tx_table_end_row(&t, 1);
    for (uint32_t i = 0; i < r->n_caps; i++) {
        const sched_cap_row *c = &r->caps[i];
        if (c->cap == EL_NO_CAP)
            tx_table_add(&t, "-", 1);
        else
            tx_table_addf(&t, "%u", c->cap);
        tx_table_addf(&t, "%.6f", (double)c->running_ns / 1e9);
        tx_table_addf(&t, "%.6f", (double)c->gc_ns / 1e9);
        tx_table_addf(&t, "%.6f", (double)c->idle_ns / 1e9);
        tx_table_addf(&t, "%llu", (unsigned long long)c->runs);
        if (c->state == SCHED_RUNNING)
            tx_table_addf(&t, "running thread %u", c->thread);
        else
            tx_table_add(&t, sched_state_name(c->state), strlen(sched_state_name(c->state)));
        tx_table_end_row(&t, 1);
    }
    int rc = tx_table_write(&t, out);
    tx_table_free(&t);
    return rc;
}

int sched_report_text(const sched_result *r, FILE *out)
{
    double total = (double)r->total_ns / 1e9;
    fprintf(out, "Threads: %zu%s, over %.6f s%s\n\n", r->n_threads,
            r->n_threads == r->threads_seen ? "" : " in the selection", total,
            r->selected ? " (the selection)" : "");
    if (r->n_threads && threads_table(r, out) != 0)
        return -1;
    if (r->n_threads)
        fputc('\n', out);
    fputs("Capabilities:\n", out);
    if (caps_table(r, out) != 0)
        return -1;
    uint64_t sum = 0;
    for (size_t i = 0; i < r->n_threads; i++)
        sum += r->threads[i].running_ns;
    fprintf(out,
            "\n  Running time: the threads' %.6f s, the capabilities' %.6f s (each\n"
            "  RUN_THREAD .. the capability's next scheduler event, charged to the thread\n"
            "  it ran; gc's per-capability MUT time).\n"
            "  Allocation per thread: n/a (GHC's eventlog counts allocation per capability\n"
            "  only: HEAP_ALLOCATED).\n",
            (double)sum / 1e9, (double)r->running_ns / 1e9);
    return ferror(out) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------------------- */

static void json_time(tx_json *j, const char *key, uint64_t ns)
{
    if (ns == SCHED_NO_TIME)
        tx_json_kv_null(j, key);
    else
        tx_json_kv_uint(j, key, ns);
}

static void json_thread(tx_json *j, const sched_thread_row *th)
{
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "id", th->id);
    tx_json_key(j, "label");
    if (th->label)
        tx_json_string(j, th->label, th->label_len);
    else
        tx_json_null(j);
    tx_json_key(j, "caps");
    tx_json_array(j, TX_JSON_INLINE);
    for (int c = 0; c < 64; c++)
        if (th->caps >> c & 1)
            tx_json_uint(j, (uint64_t)c);
    tx_json_end(j);
    tx_json_kv_bool(j, "caps_over", th->caps_over);
    json_time(j, "created_ns", th->created_ns);
    json_time(j, "finished_ns", th->finished_ns);
    tx_json_kv_uint(j, "running_ns", th->running_ns);
    tx_json_kv_uint(j, "runs", th->runs);
    tx_json_key(j, "stops");
    tx_json_object(j, TX_JSON_INLINE);
    for (int k = 0; k < SCHED_STOPS; k++)
        tx_json_kv_uint(j, sched_stop_name((sched_stop)k), th->stops[k]);
    tx_json_end(j);
    tx_json_kv_uint(j, "migrations", th->migrations);
    tx_json_kv_cstr(j, "state", sched_state_name(th->state));
    tx_json_end(j);
}

int sched_report_json(const sched_result *r, const char *source, FILE *out)
{
    tx_json j;
    tx_json_init(&j, out, 2, 0);
    tx_json_object(&j, TX_JSON_BLOCK);
    if (source)
        tx_json_kv_cstr(&j, "source", source);
    tx_json_kv_uint(&j, "total_ns", r->total_ns);
    tx_json_kv_uint(&j, "log_end_ns", r->log_end_ns);
    tx_json_kv_bool(&j, "selected", r->selected);
    tx_json_kv_uint(&j, "running_ns", r->running_ns);
    tx_json_kv_uint(&j, "threads_seen", r->threads_seen);
    tx_json_kv_null(&j, "allocated_bytes");      /* no event carries it per thread */
    tx_json_key(&j, "stop_reasons");
    tx_json_object(&j, TX_JSON_BLOCK);
    for (int k = 0; k < SCHED_STOPS; k++)
        tx_json_kv_cstr(&j, sched_stop_name((sched_stop)k), sched_stop_words((sched_stop)k));
    tx_json_end(&j);
    tx_json_key(&j, "threads");
    tx_json_array(&j, TX_JSON_BLOCK);
    for (size_t i = 0; i < r->n_threads; i++)
        json_thread(&j, &r->threads[i]);
    tx_json_end(&j);
    tx_json_key(&j, "caps");
    tx_json_array(&j, TX_JSON_BLOCK);
    for (uint32_t i = 0; i < r->n_caps; i++) {
        const sched_cap_row *c = &r->caps[i];
        tx_json_object(&j, TX_JSON_INLINE);
        tx_json_key(&j, "cap");
        if (c->cap == EL_NO_CAP)
            tx_json_null(&j);
        else
            tx_json_uint(&j, c->cap);
        tx_json_kv_uint(&j, "running_ns", c->running_ns);
        tx_json_kv_uint(&j, "gc_ns", c->gc_ns);
        tx_json_kv_uint(&j, "idle_ns", c->idle_ns);
        tx_json_kv_uint(&j, "runs", c->runs);
        tx_json_kv_cstr(&j, "state", sched_state_name(c->state));
        if (c->state == SCHED_RUNNING)
            tx_json_kv_uint(&j, "thread", c->thread);
        tx_json_end(&j);
    }
    tx_json_end(&j);
    tx_json_end(&j);
    tx_json_space(&j, "\n");
    return tx_json_finish(&j);
}

/* ---- the table of formats (evprof/format.h) ---- */

static ev_status write_text(const void *r, const void *source, FILE *out, ev_error *err)
{
    (void)source;
    return ev_write_status(sched_report_text(r, out), err, "the threads' table");
}

static ev_status write_json(const void *r, const void *source, FILE *out, ev_error *err)
{
    return ev_write_status(sched_report_json(r, source, out), err, "the threads' JSON");
}

static const ev_format formats[] = {
    { "text", ".txt", write_text, 0 },
    { "json", ".json", write_json, 0 },
};

const ev_format *sched_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}
