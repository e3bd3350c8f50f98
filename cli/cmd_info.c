/* evprof info: what a log holds, read in one streaming pass.
 *
 * Memory is fixed: per-type counters for every possible type id, three
 * capability bitmaps, and one copy each of the first RTS identifier and
 * program-arguments strings. Nothing is allocated per event.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "evprof/textout.h"
#include "cli.h"
#include "commands.h"
#include "evprof/eventlog.h"

#define N_IDS 65536u
#define CAP_BITMAP_BYTES (N_IDS / 8)

typedef struct type_stat {
    uint64_t count;
    uint64_t bytes;
} type_stat;

typedef struct owned_str {
    char *ptr;                      /* NULL when absent */
    size_t len;
} owned_str;

typedef struct info {
    type_stat *types;               /* N_IDS entries */
    uint8_t caps_created[CAP_BITMAP_BYTES];  /* CAP_CREATE (45) */
    uint8_t caps_blocks[CAP_BITMAP_BYTES];   /* block markers, event caps */
    uint8_t caps_samples[CAP_BITMAP_BYTES];  /* PROF_SAMPLE_COST_CENTRE (167) */
    int has_startup;
    unsigned startup_caps;          /* STARTUP (17), old GHC */

    int has_time;
    uint64_t first_time, last_time;

    owned_str rts;                  /* RTS_IDENTIFIER (29) */
    owned_str args;                 /* PROGRAM_ARGS (30), NUL-separated */
    int copy_failed;

    int has_wall;                   /* WALL_CLOCK_TIME (43) */
    uint64_t wall_sec;
    uint32_t wall_nsec;
    uint64_t wall_event_time;

    int has_prof_interval;          /* PROF_BEGIN (168) */
    uint64_t prof_interval_ns;

    int has_heap_begin;             /* HEAP_PROF_BEGIN (160) */
    uint32_t heap_breakdown;
    uint64_t heap_period_ns;
} info;

static void cap_set(uint8_t *bitmap, unsigned cap)
{
    bitmap[cap >> 3] |= (uint8_t)(1u << (cap & 7));
}

static int cap_get(const uint8_t *bitmap, unsigned cap)
{
    return bitmap[cap >> 3] >> (cap & 7) & 1;
}

static void keep_first(info *in, owned_str *dst, el_str s)
{
    if (dst->ptr || in->copy_failed)
        return;
    dst->ptr = malloc(s.len ? s.len : 1);
    if (!dst->ptr) {
        in->copy_failed = 1;
        return;
    }
    if (s.len)
        memcpy(dst->ptr, s.ptr, s.len);
    dst->len = s.len;
}

static void see_time(info *in, uint64_t t)
{
    if (!in->has_time) {
        in->has_time = 1;
        in->first_time = in->last_time = t;
    } else if (t < in->first_time) {
        in->first_time = t;
    } else if (t > in->last_time) {
        in->last_time = t;
    }
}

static int on_event(void *ctx, const el_event *ev, const el_decoder *d)
{
    info *in = ctx;
    (void)d;
    type_stat *ts = &in->types[ev->type];
    ts->count++;
    ts->bytes += ev->size;
    see_time(in, ev->time);
    if (ev->cap != EL_NO_CAP)
        cap_set(in->caps_blocks, ev->cap);
    if (!ev->decoded)
        return 0;

    switch (ev->type) {
    case EL_BLOCK_MARKER:
        if (ev->u.block.cap != EL_NO_CAP)
            cap_set(in->caps_blocks, ev->u.block.cap);
        if (ev->u.block.end_time)
            see_time(in, ev->u.block.end_time);
        break;
    case EL_CAP_CREATE:
        cap_set(in->caps_created, ev->u.cap.cap);
        break;
    case EL_PROF_SAMPLE_COST_CENTRE:
        if (ev->u.prof_sample.cap < EL_NO_CAP)
            cap_set(in->caps_samples, ev->u.prof_sample.cap);
        break;
    case EL_STARTUP:
        in->has_startup = 1;
        in->startup_caps = ev->u.startup.n_caps;
        break;
    case EL_RTS_IDENTIFIER:
        keep_first(in, &in->rts, ev->u.text.str);
        break;
    case EL_PROGRAM_ARGS:
        keep_first(in, &in->args, ev->u.text.str);
        break;
    case EL_WALL_CLOCK_TIME:
        if (!in->has_wall) {
            in->has_wall = 1;
            in->wall_sec = ev->u.wall_clock.sec;
            in->wall_nsec = ev->u.wall_clock.nsec;
            in->wall_event_time = ev->time;
        }
        break;
    case EL_PROF_BEGIN:
        in->has_prof_interval = 1;
        in->prof_interval_ns = ev->u.prof_begin.interval_ns;
        break;
    case EL_HEAP_PROF_BEGIN:
        if (!in->has_heap_begin) {
            in->has_heap_begin = 1;
            in->heap_breakdown = ev->u.heap_prof_begin.breakdown;
            in->heap_period_ns = ev->u.heap_prof_begin.period;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* ---- derived facts ---------------------------------------------------- */

typedef struct caps_summary {
    unsigned count;
    char sources[160];              /* "CAP_CREATE events, event blocks" */
} caps_summary;

static void add_source(caps_summary *c, const char *what)
{
    size_t n = strlen(c->sources);
    snprintf(c->sources + n, sizeof c->sources - n, "%s%s", n ? ", " : "", what);
}

static caps_summary count_caps(const info *in)
{
    caps_summary c = { 0, "" };
    int created = 0, blocks = 0, samples = 0;
    for (unsigned cap = 0; cap < EL_NO_CAP; cap++) {
        int a = cap_get(in->caps_created, cap);
        int b = cap_get(in->caps_blocks, cap);
        int s = cap_get(in->caps_samples, cap);
        created |= a;
        blocks |= b;
        samples |= s;
        c.count += (unsigned)(a | b | s);
    }
    if (created)
        add_source(&c, "CAP_CREATE events");
    if (blocks)
        add_source(&c, "event blocks");
    if (samples)
        add_source(&c, "profiling samples");
    if (in->has_startup && in->startup_caps > c.count) {
        c.count = in->startup_caps;
        add_source(&c, "STARTUP event");
    }
    return c;
}

static const char *breakdown_name(uint32_t b)
{
    /* HEAP_PROF_BREAKDOWN_* in GHC's EventLogFormat.h */
    static const char *const names[] = {
        [1] = "cost-centre stack (-hc)",
        [2] = "module (-hm)",
        [3] = "closure description (-hd)",
        [4] = "type description (-hy)",
        [5] = "retainer set (-hr)",
        [6] = "biography (-hb)",
        [7] = "closure type (-hT)",
        [8] = "info table (-hi)",
        [9] = "era (-he)",
    };
    if (b < sizeof names / sizeof names[0] && names[b])
        return names[b];
    return "an unknown breakdown";
}

enum { AN_TIME, AN_HEAP_PROF, AN_TICKY, AN_GC, AN_HEAP_EVENTS, N_ANALYSES };

typedef struct analysis {
    const char *key;                /* JSON key */
    const char *title;              /* text label */
    const char *verdict;            /* "yes", "partial", "no" */
    char detail[200];
} analysis;

static const char *plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static uint64_t cnt(const info *in, unsigned id)
{
    return in->types[id].count;
}

static void set(analysis *a, const char *verdict, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set(analysis *a, const char *verdict, const char *fmt, ...)
{
    va_list ap;
    a->verdict = verdict;
    va_start(ap, fmt);
    vsnprintf(a->detail, sizeof a->detail, fmt, ap);
    va_end(ap);
}

static void judge(const info *in, analysis an[N_ANALYSES])
{
    static const char *const keys[N_ANALYSES][2] = {
        [AN_TIME] = { "time_profile", "time profile" },
        [AN_HEAP_PROF] = { "heap_profile", "heap profile" },
        [AN_TICKY] = { "ticky", "ticky counters" },
        [AN_GC] = { "gc_summary", "GC summary" },
        [AN_HEAP_EVENTS] = { "heap_events", "heap size/live" },
    };
    for (int i = 0; i < N_ANALYSES; i++) {
        an[i].key = keys[i][0];
        an[i].title = keys[i][1];
    }

    uint64_t samples = cnt(in, EL_PROF_SAMPLE_COST_CENTRE);
    uint64_t ccs = cnt(in, EL_HEAP_PROF_COST_CENTRE);
    const char *prof_hint = "build with -prof and run with +RTS -p -l "
                            "(GHC 9.0 and later then write samples to the eventlog)";
    if (samples && ccs) {
        char interval[64] = "";
        if (in->has_prof_interval)
            snprintf(interval, sizeof interval, ", tick interval %.3f ms",
                     (double)in->prof_interval_ns / 1e6);
        set(&an[AN_TIME], "yes", "%llu %s, %llu %s%s", (unsigned long long)samples,
            plural(samples, "sample", "samples"), (unsigned long long)ccs,
            plural(ccs, "cost centre", "cost centres"), interval);
    } else if (samples) {
        set(&an[AN_TIME], "partial",
            "%llu %s but no cost-centre definitions (161): no names",
            (unsigned long long)samples, plural(samples, "sample", "samples"));
    } else if (ccs) {
        set(&an[AN_TIME], "no", "cost centres are defined but there are no samples: "
            "run with +RTS -p -l");
    } else {
        set(&an[AN_TIME], "no", "%s", prof_hint);
    }

    uint64_t censuses = cnt(in, EL_HEAP_PROF_SAMPLE_BEGIN) +
                        cnt(in, EL_HEAP_BIO_PROF_SAMPLE_BEGIN);
    uint64_t bands = cnt(in, EL_HEAP_PROF_SAMPLE_COST_CENTRE) +
                     cnt(in, EL_HEAP_PROF_SAMPLE_STRING);
    const char *heap_hint = "run with +RTS -hT -l (or -hc/-hy... with a -prof build)";
    if (in->has_heap_begin && censuses && bands) {
        set(&an[AN_HEAP_PROF], "yes", "%llu %s by %s, every %.3f s",
            (unsigned long long)censuses, plural(censuses, "census", "censuses"),
            breakdown_name(in->heap_breakdown),
            (double)in->heap_period_ns / 1e9);
    } else if (in->has_heap_begin || censuses) {
        set(&an[AN_HEAP_PROF], "partial",
            "a heap profile was started but has no samples "
            "(did the program run shorter than the sampling interval -i?)");
    } else {
        set(&an[AN_HEAP_PROF], "no", "%s", heap_hint);
    }

    uint64_t defs = cnt(in, EL_TICKY_COUNTER_DEF);
    uint64_t tsamples = cnt(in, EL_TICKY_COUNTER_SAMPLE);
    const char *ticky_hint = "needs GHC >= 9.4: build with -ticky -eventlog, "
                             "run with +RTS -lT";
    if (defs && tsamples)
        set(&an[AN_TICKY], "yes", "%llu %s, %llu %s", (unsigned long long)defs,
            plural(defs, "counter", "counters"), (unsigned long long)tsamples,
            plural(tsamples, "sample", "samples"));
    else if (tsamples)
        set(&an[AN_TICKY], "partial",
            "%llu %s but no counter definitions (210): no names",
            (unsigned long long)tsamples, plural(tsamples, "sample", "samples"));
    else if (defs)
        set(&an[AN_TICKY], "partial", "%llu %s defined but never sampled",
            (unsigned long long)defs, plural(defs, "counter", "counters"));
    else
        set(&an[AN_TICKY], "no", "%s", ticky_hint);

    uint64_t gcs = cnt(in, EL_GC_START);
    uint64_t gc_ends = cnt(in, EL_GC_END);
    uint64_t stats = cnt(in, EL_HEAP_ALLOCATED) + cnt(in, EL_GC_STATS_GHC);
    const char *gc_hint = "run with +RTS -l (the default -l includes GC events; "
                          "-l-g removes them)";
    if (gcs && gc_ends && stats)
        set(&an[AN_GC], "yes", "%llu %s", (unsigned long long)gcs,
            plural(gcs, "collection", "collections"));
    else if (gcs && gc_ends)
        set(&an[AN_GC], "partial",
            "%llu %s, but no allocation or GC statistics (49/53)",
            (unsigned long long)gcs, plural(gcs, "collection", "collections"));
    else
        set(&an[AN_GC], "no", "%s", gc_hint);

    uint64_t hsize = cnt(in, EL_HEAP_SIZE);
    uint64_t hlive = cnt(in, EL_HEAP_LIVE);
    uint64_t halloc = cnt(in, EL_HEAP_ALLOCATED);
    if (hsize || hlive || halloc)
        set(&an[AN_HEAP_EVENTS], "yes",
            "%llu heap-size, %llu live-data, %llu allocation samples",
            (unsigned long long)hsize, (unsigned long long)hlive,
            (unsigned long long)halloc);
    else
        set(&an[AN_HEAP_EVENTS], "no",
            "run with +RTS -l (heap events come with the GC events; -l-g removes them)");
}

/* UTC date of the process start: the wall clock event minus its own
 * timestamp. Returns 0 when it cannot be shown. */
static int start_date(const info *in, char *buf, size_t size)
{
    if (!in->has_wall)
        return 0;
    uint64_t ns = in->wall_sec * UINT64_C(1000000000) + in->wall_nsec;
    if (in->wall_sec > UINT64_MAX / UINT64_C(1000000000) - 1 || ns < in->wall_event_time)
        return 0;
    ns -= in->wall_event_time;
    time_t sec = (time_t)(ns / UINT64_C(1000000000));
    struct tm tm;
    if ((uint64_t)sec != ns / UINT64_C(1000000000) || !gmtime_r(&sec, &tm))
        return 0;
    size_t n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
    if (n == 0)
        return 0;
    snprintf(buf + n, size - n, ".%03u UTC",
             (unsigned)(ns % UINT64_C(1000000000) / 1000000));
    return 1;
}

/* The NUL-separated argument list: calls fn for each argument. */
typedef void (*arg_fn)(void *ctx, size_t index, const char *s, size_t len);

static size_t each_arg(const owned_str *args, arg_fn fn, void *ctx)
{
    size_t n = 0, start = 0;
    if (!args->ptr)
        return 0;
    for (size_t i = 0; i <= args->len; i++) {
        if (i == args->len || args->ptr[i] == '\0') {
            /* a trailing NUL does not start another argument */
            if (i == args->len && start == args->len && n > 0)
                break;
            if (fn)
                fn(ctx, n, args->ptr + start, i - start);
            n++;
            start = i + 1;
        }
    }
    return n;
}

static const char *status_key(const el_read_result *r)
{
    switch (r->status) {
    case EL_END: return "complete";
    case EL_OK: return r->missing_end ? "missing_end" : "complete";
    case EL_ERR_TRUNCATED: return "truncated";
    case EL_ERR_FORMAT: return "damaged";
    case EL_ERR_NOMEM: return "out_of_memory";
    case EL_ERR_IO: return "read_error";
    default: return "error";
    }
}

static uint64_t file_size(const char *path, const el_read_result *r)
{
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return (uint64_t)st.st_size;
    return r->bytes;
}

/* ---- text output ------------------------------------------------------ */

static void text_arg(void *ctx, size_t index, const char *s, size_t len)
{
    FILE *out = ctx;
    if (index == 0)
        return;
    fputc(' ', out);
    int quote = len == 0 || memchr(s, ' ', len) != NULL;
    if (quote)
        fputc('\'', out);
    cli_text_str(out, s, len);
    if (quote)
        fputc('\'', out);
}

/* width of the visible form that cli_text_str writes */
static size_t code_points(const char *s, size_t len)
{
    return tx_vis_width(s, len);
}

static el_str type_desc(const el_decoder *d, unsigned id)
{
    const el_event_type *et = d ? el_decoder_type(d, (uint16_t)id) : NULL;
    if (et)
        return et->desc;
    return (el_str){ "", 0 };
}

static void print_text(FILE *out, const char *path, const info *in,
                       const el_read_result *r, const el_decoder *d)
{
    fprintf(out, "file:          %s\n", cli_display_path(path));
    fprintf(out, "size:          %llu bytes\n", (unsigned long long)file_size(path, r));
    switch (r->status) {
    case EL_END:
        fputs("status:        complete (end marker present)\n", out);
        break;
    case EL_OK:
        fputs(r->missing_end ? "status:        no end marker (the program did not close "
                               "its eventlog); every event was read\n"
                             : "status:        complete\n", out);
        break;
    default:
        fprintf(out, "status:        %s at byte %llu: only the events before are counted\n",
                r->status == EL_ERR_TRUNCATED ? "TRUNCATED"
                : r->status == EL_ERR_FORMAT  ? "DAMAGED"
                : r->status == EL_ERR_IO      ? "READ ERROR"
                                              : "OUT OF MEMORY",
                (unsigned long long)r->error.offset);
        break;
    }

    fputs("rts:           ", out);
    if (in->rts.ptr)
        cli_text_str(out, in->rts.ptr, in->rts.len);
    else
        fputs("(no RTS_IDENTIFIER event)", out);
    fputc('\n', out);

    fputs("program:       ", out);
    if (in->args.ptr) {
        size_t n = in->args.len;
        const char *nul = memchr(in->args.ptr, '\0', n);
        cli_text_str(out, in->args.ptr, nul ? (size_t)(nul - in->args.ptr) : n);
        fputc('\n', out);
        fputs("arguments:    ", out);
        if (each_arg(&in->args, NULL, NULL) <= 1)
            fputs(" (none)", out);
        else
            each_arg(&in->args, text_arg, out);
        fputc('\n', out);
    } else {
        fputs("(no PROGRAM_ARGS event)\n", out);
    }

    char date[64];
    if (start_date(in, date, sizeof date))
        fprintf(out, "started:       %s (from the wall-clock event)\n", date);
    else
        fputs("started:       unknown (no WALL_CLOCK_TIME event)\n", out);

    caps_summary caps = count_caps(in);
    if (caps.count)
        fprintf(out, "capabilities:  %u (seen in %s)\n", caps.count, caps.sources);
    else
        fputs("capabilities:  unknown (no CAP_CREATE events, event blocks or samples)\n",
              out);

    if (in->has_time)
        fprintf(out, "time span:     %.6f s (events from %.6f s to %.6f s after RTS start)\n",
                (double)(in->last_time - in->first_time) / 1e9,
                (double)in->first_time / 1e9, (double)in->last_time / 1e9);
    else
        fputs("time span:     no events\n", out);
    fprintf(out, "events:        %llu\n", (unsigned long long)r->events);

    /* per-type table */
    size_t declared = d ? el_decoder_num_types(d) : 0;
    size_t present = 0, desc_w = 11, name_w = 4;
    uint64_t total_bytes = 0;
    for (unsigned id = 0; id < N_IDS; id++) {
        if (!in->types[id].count)
            continue;
        present++;
        total_bytes += in->types[id].bytes;
        const char *name = el_type_name((uint16_t)id);
        if (name && strlen(name) > name_w)
            name_w = strlen(name);
        el_str desc = type_desc(d, id);
        size_t w = code_points(desc.ptr, desc.len);
        if (w > desc_w)
            desc_w = w;
    }
    fprintf(out, "\nEvent types (%zu of the %zu declared in the header occur):\n",
            present, declared);
    if (present) {
        fprintf(out, "  %5s  %-*s  %-*s %12s %12s\n", "id", (int)name_w, "name", (int)desc_w,
                "description", "count", "bytes");
        for (unsigned id = 0; id < N_IDS; id++) {
            const type_stat *ts = &in->types[id];
            if (!ts->count)
                continue;
            const char *name = el_type_name((uint16_t)id);
            el_str desc = type_desc(d, id);
            fprintf(out, "  %5u  %-*s  ", id, (int)name_w, name ? name : "-");
            cli_text_str(out, desc.ptr, desc.len);
            fprintf(out, "%*s %12llu %12llu\n",
                    (int)(desc_w - code_points(desc.ptr, desc.len)), "",
                    (unsigned long long)ts->count, (unsigned long long)ts->bytes);
        }
        fprintf(out, "  %5s  %-*s  %-*s %12llu %12llu\n", "", (int)name_w, "total",
                (int)desc_w, "",
                (unsigned long long)r->events, (unsigned long long)total_bytes);
    }

    analysis an[N_ANALYSES];
    judge(in, an);
    fputs("\nAnalyses this log supports:\n", out);
    for (int i = 0; i < N_ANALYSES; i++)
    {
        fprintf(out, "  %-16s %s: ", an[i].title, an[i].verdict);
        tx_put(out, an[i].detail, strlen(an[i].detail));
        fputc('\n', out);
    }

    fputs("\nEvery event, one per line: evprof dump ", out);
    tx_put(out, path, strlen(path));
    fputc('\n', out);
}

/* ---- JSON output ------------------------------------------------------ */

static void json_arg(void *ctx, size_t index, const char *s, size_t len)
{
    FILE *out = ctx;
    if (index == 0)
        return;
    fputs(index > 1 ? ", " : "", out);
    tx_json_str(out, s, len);
}

static void json_owned(FILE *out, const owned_str *s)
{
    if (s->ptr)
        tx_json_str(out, s->ptr, s->len);
    else
        fputs("null", out);
}

static void print_json(FILE *out, const char *path, const info *in,
                       const el_read_result *r, const el_decoder *d)
{
    fputs("{\n  \"file\": ", out);
    tx_json_str(out, path, strlen(path));
    fprintf(out, ",\n  \"size_bytes\": %llu,\n", (unsigned long long)file_size(path, r));
    fprintf(out, "  \"status\": \"%s\",\n", status_key(r));
    fputs("  \"error\": ", out);
    if (r->status != EL_END && r->status != EL_OK) {
        fputs("{\"message\": ", out);
        const char *msg = r->error.msg[0] ? r->error.msg : el_status_name(r->status);
        tx_json_str(out, msg, strlen(msg));
        fprintf(out, ", \"offset\": %llu, \"type\": %ld}",
                (unsigned long long)r->error.offset, (long)r->error.type);
    } else {
        fputs("null", out);
    }

    fputs(",\n  \"rts\": ", out);
    json_owned(out, &in->rts);
    fputs(",\n  \"program\": ", out);
    if (in->args.ptr) {
        const char *nul = memchr(in->args.ptr, '\0', in->args.len);
        tx_json_str(out, in->args.ptr,
                     nul ? (size_t)(nul - in->args.ptr) : in->args.len);
        fputs(",\n  \"arguments\": [", out);
        each_arg(&in->args, json_arg, out);
        fputs("]", out);
    } else {
        fputs("null,\n  \"arguments\": null", out);
    }

    char date[64];
    fputs(",\n  \"start_utc\": ", out);
    if (start_date(in, date, sizeof date))
        fprintf(out, "\"%s\"", date);
    else
        fputs("null", out);

    caps_summary caps = count_caps(in);
    fputs(",\n  \"capabilities\": ", out);
    if (caps.count)
        fprintf(out, "%u,\n  \"capabilities_from\": \"%s\"", caps.count, caps.sources);
    else
        fputs("null,\n  \"capabilities_from\": null", out);

    if (in->has_time)
        fprintf(out,
                ",\n  \"first_time_ns\": %llu,\n  \"last_time_ns\": %llu,\n"
                "  \"duration_s\": %.9f",
                (unsigned long long)in->first_time, (unsigned long long)in->last_time,
                (double)(in->last_time - in->first_time) / 1e9);
    else
        fputs(",\n  \"first_time_ns\": null,\n  \"last_time_ns\": null,\n"
              "  \"duration_s\": null", out);
    fprintf(out, ",\n  \"events\": %llu,\n", (unsigned long long)r->events);
    fprintf(out, "  \"declared_types\": %zu,\n", d ? el_decoder_num_types(d) : (size_t)0);

    fputs("  \"event_types\": [", out);
    int first = 1;
    for (unsigned id = 0; id < N_IDS; id++) {
        const type_stat *ts = &in->types[id];
        if (!ts->count)
            continue;
        const char *name = el_type_name((uint16_t)id);
        el_str desc = type_desc(d, id);
        fprintf(out, "%s\n    {\"id\": %u, \"name\": ", first ? "" : ",", id);
        if (name)
            tx_json_str(out, name, strlen(name));
        else
            fputs("null", out);
        fputs(", \"description\": ", out);
        tx_json_str(out, desc.ptr, desc.len);
        fprintf(out, ", \"count\": %llu, \"bytes\": %llu}", (unsigned long long)ts->count,
                (unsigned long long)ts->bytes);
        first = 0;
    }
    fputs(first ? "],\n" : "\n  ],\n", out);

    analysis an[N_ANALYSES];
    judge(in, an);
    fputs("  \"analyses\": {", out);
    for (int i = 0; i < N_ANALYSES; i++) {
        fprintf(out, "%s\n    \"%s\": {\"supported\": \"%s\", \"detail\": ", i ? "," : "",
                an[i].key, an[i].verdict);
        tx_json_str(out, an[i].detail, strlen(an[i].detail));
        fputs("}", out);
    }
    fputs("\n  }\n}\n", out);
}

/* ---- the command ------------------------------------------------------ */

enum { OPT_FORMAT = 1 };

static const cli_opt info_opts[] = {
    { OPT_FORMAT, 'f', "format", "FMT", "output format: text (default) or json" },
    { 0, 0, NULL, NULL, NULL },
};

static const cli_cmd_help info_help = {
    "info",
    "[OPTIONS] FILE",
    "Shows what an eventlog holds: RTS version, program and arguments,\n"
    "capabilities, time span, wall-clock start, the number and size of the\n"
    "events of each type, and which analyses the log supports (with the GHC\n"
    "flags that would add the missing ones). FILE may be '-' (standard input).",
    info_opts,
    "The log is read once as a stream. A damaged or truncated log still gets\n"
    "its summary (of the events before the damage) and exit status 1; a log\n"
    "without an end marker gets a warning and exit status 0.",
};

int cmd_info(int argc, char **argv)
{
    cli_args a;
    int id, json = 0;
    cli_args_init(&a, &info_help, argc, argv);
    while ((id = cli_next(&a)) > 0) {
        switch (id) {
        case OPT_FORMAT:
            if (strcmp(a.value, "json") == 0) {
                json = 1;
            } else if (strcmp(a.value, "text") == 0) {
                json = 0;
            } else {
                cli_usage_error(&info_help, "unknown format '%s' (text or json)", a.value);
                return CLI_USAGE;
            }
            break;
        }
    }
    if (id != CLI_END)
        return cli_done_code(id);
    if (!cli_want_pos(&a, 1, 1, "FILE"))
        return CLI_USAGE;
    const char *path = a.pos[0];

    info *in = calloc(1, sizeof *in);
    type_stat *types = calloc(N_IDS, sizeof *types);
    if (!in || !types) {
        free(in);
        free(types);
        fputs("evprof: out of memory\n", stderr);
        return CLI_FAIL;
    }
    in->types = types;

    el_decoder *d = NULL;
    /* typed fields only where on_event reads them */
    static const uint16_t fields[] = {
        EL_CAP_CREATE, EL_PROF_SAMPLE_COST_CENTRE, EL_STARTUP, EL_RTS_IDENTIFIER,
        EL_PROGRAM_ARGS, EL_WALL_CLOCK_TIME, EL_PROF_BEGIN, EL_HEAP_PROF_BEGIN,
    };
    const el_read_opts opts = { fields, sizeof fields / sizeof fields[0], 0, 0 };
    el_read_result r = el_read_path_opts(path, &opts, on_event, in, &d);

    /* nothing to summarise when the file could not be opened at all */
    if (!(r.status == EL_ERR_IO && r.bytes == 0)) {
        if (json)
            print_json(stdout, path, in, &r, d);
        else
            print_text(stdout, path, in, &r, d);
    }
    fflush(stdout);
    int code = cli_report_read(path, &r);
    if (in->copy_failed) {
        fputs("evprof: out of memory copying the program name\n", stderr);
        code = CLI_FAIL;
    }

    el_decoder_destroy(d);
    free(in->rts.ptr);
    free(in->args.ptr);
    free(in);
    free(types);
    return code;
}
