/* What a log holds (the `info` analysis), read in one streaming pass.
 *
 * Memory is fixed: per-type counters for every possible type id, three
 * capability bitmaps, one copy each of the first RTS identifier and
 * program-arguments strings, and the header's event types (id and
 * description). Nothing is allocated per event. A snapshot is a copy.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "evprof/info.h"
#include "evprof/json.h"
#include "evprof/markers.h"
#include "evprof/textout.h"
#include "util/table.h"
#include "util/error.h"

#define N_IDS 65536u
#define CAP_BITMAP_BYTES (N_IDS / 8)

typedef struct type_stat {
    uint64_t count;
    uint64_t bytes;
    uint64_t declared_off;          /* declared length not what was written (IPE) */
} type_stat;

typedef struct owned_str {
    char *ptr;                      /* NULL when absent */
    size_t len;
} owned_str;

typedef struct declared_type {
    uint16_t id;
    char *desc;                     /* owned copy of the header's description */
    size_t desc_len;
} declared_type;

typedef struct info_log info;

struct info_log {
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
    uint64_t prof_begin_time;

    int has_pid;                    /* OSPROCESS_PID (32) */
    uint32_t pid;

    int has_heap_begin;             /* HEAP_PROF_BEGIN (160) */
    uint32_t heap_breakdown;
    uint64_t heap_period_ns;

    /* the header's event types, copied when the first event comes */
    int header_seen;
    declared_type *declared;        /* by id, ascending */
    size_t num_declared;

    ev_markers *markers;            /* traceMarker (58), listed when there are some */

    /* a read in progress by the driver: its decoder, whose tally counts
     * every event so far (info reads a few types only); NULL when not
     * fed by a driver, and after the stream's end */
    const el_decoder *reading;

    /* info_selected_ops: only the events inside the read's selection are
     * counted (types, events, time span); the facts come from every event */
    int selected;
    size_t sel_windows;
    ev_span sel_hull;
    uint64_t sel_length;
    int32_t sel_cap;

    /* the stream's facts (info_set_stream), else what was counted */
    int has_stream;
    el_read_result read;
    uint64_t total_bytes;
    uint64_t events;
};

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

/* inline into the driver's entry: `all` and `info` call it for every event */
static inline int add_event(info *in, const el_event *ev)
{
    if (!in->selected || !ev->outside) {
        type_stat *ts = &in->types[ev->type];
        in->events++;
        ts->count++;
        ts->bytes += ev->size;
        uint32_t decl = ev->type == EL_IPE && ev->size >= 12
                            ? (uint32_t)(ev->record[10] << 8 | ev->record[11]) : ev->payload_len;
        if (decl + 1 == ev->payload_len || decl == ev->payload_len + 1)
            ts->declared_off++;     /* GHC's one byte: read by its strings, as the decoder */
        see_time(in, ev->time);
    }
    if (ev->cap != EL_NO_CAP)
        cap_set(in->caps_blocks, ev->cap);
    if (!ev->decoded)
        return 0;
    if (ev->type == EL_USER_MARKER && in->markers &&
        ev_markers_ops.event(in->markers, ev, NULL) != 0) {
        in->copy_failed = 1;
        return 1;               /* out of memory, or the memory limit: stop */
    }

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
    case EL_OSPROCESS_PID:
        if (!in->has_pid) {
            in->has_pid = 1;
            in->pid = ev->u.pid.pid;
        }
        break;
    case EL_PROF_BEGIN:
        if (!in->has_prof_interval) {
            in->has_prof_interval = 1;
            in->prof_interval_ns = ev->u.prof_begin.interval_ns;
            in->prof_begin_time = ev->time;
        }
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

int info_add_event(info_log *in, const el_event *ev) { return add_event(in, ev); }

void info_get_facts(const info_log *in, info_facts *f)
{
    memset(f, 0, sizeof *f);
    f->rts = in->rts.ptr;
    f->rts_len = in->rts.len;
    f->args = in->args.ptr;
    f->args_len = in->args.len;
    f->has_wall = in->has_wall;
    f->wall_sec = in->wall_sec;
    f->wall_nsec = in->wall_nsec;
    f->wall_event_time = in->wall_event_time;
    for (size_t i = 0; i < CAP_BITMAP_BYTES; i++)
        f->caps_created += (unsigned)__builtin_popcount(in->caps_created[i]);
    f->has_startup = in->has_startup;
    f->startup_caps = in->startup_caps;
    f->has_pid = in->has_pid;
    f->pid = in->pid;
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
    char detail[640];
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

/* 1 when the RTS identifier ("GHC-9.0.2 rts_thr_p") names a profiling
 * way (the component "p" of rts_...), 0 when it names another, -1 when
 * there is none to tell. */
static int rts_profiling(const char *rts, size_t len)
{
    if (!rts)
        return -1;
    for (size_t i = 0; i + 3 <= len; i++) {
        if (memcmp(rts + i, "rts", 3) != 0 || (i && rts[i - 1] != ' '))
            continue;
        size_t j = i + 3;
        while (j < len && rts[j] == '_') {
            size_t k = j + 1;
            while (k < len && rts[k] != '_' && rts[k] != ' ')
                k++;
            if (k == j + 2 && rts[j + 1] == 'p')
                return 1;
            j = k;
        }
        return 0;
    }
    return 0;
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

/* info_rts_flags one argument at a time: argv[0] is the program, then
 * RTS options between +RTS and -RTS (or the end), none after --RTS. */
typedef struct rts_scan {
    size_t index;
    int in_rts, done;
    unsigned flags;
} rts_scan;

static int arg_is(const char *s, size_t len, const char *lit)
{
    return len == strlen(lit) && memcmp(s, lit, len) == 0;
}

static void rts_scan_arg(rts_scan *r, const char *s, size_t len)
{
    r->flags |= INFO_RTS_ARGS;
    if (r->index++ == 0 || r->done)
        return;
    if (arg_is(s, len, "--RTS")) {
        r->done = 1;
    } else if (arg_is(s, len, "+RTS")) {
        r->in_rts = 1;
    } else if (arg_is(s, len, "-RTS")) {
        r->in_rts = 0;
    } else if (r->in_rts) {
        if (arg_is(s, len, "--no-automatic-time-samples"))
            r->flags |= INFO_RTS_NO_AUTO;
        else if (len >= 2 && s[0] == '-' && (s[1] == 'p' || s[1] == 'P'))
            r->flags |= INFO_RTS_TIME_PROF;     /* -p -P -pa -pj -po<stem> */
        else if (len >= 3 && s[0] == '-' && s[1] == 'V') {
            double v;
            char num[32];
            size_t n = len - 2 < sizeof num - 1 ? len - 2 : sizeof num - 1;
            memcpy(num, s + 2, n);
            num[n] = '\0';
            char *end;
            v = strtod(num, &end);
            if (end != num && *end == '\0' && v == 0.0)
                r->flags |= INFO_RTS_TIMER_OFF;
        }
    }
}

unsigned info_rts_flags(const char *const *argv, size_t argc)
{
    rts_scan r = { 0, 0, 0, 0 };
    for (size_t i = 0; i < argc; i++)
        rts_scan_arg(&r, argv[i], strlen(argv[i]));
    return r.flags;
}

static void rts_scan_cb(void *ctx, size_t index, const char *s, size_t len)
{
    (void)index;
    rts_scan_arg(ctx, s, len);
}

void info_no_samples_why(char *buf, size_t size, const info_prof_signs *s, const ev_facts *f)
{
    const char *rts = s->rts;
    size_t rts_len = s->rts_len;
    int prof = rts_profiling(rts, rts_len);
    if (prof < 0 && s->ccs)
        prof = 1;       /* cost centres are defined: a profiling RTS */
    int early = f && (f->missing_end || f->stopped);
    char where[96] = "";
    if (early && f->has_time)
        snprintf(where, sizeof where, ", %.6f s after the RTS started", f->last_s);
    /* the RTS identifier is the log's: shortened, as messages quote text */
    char rts_shown[TX_SHORT_BYTES] = "";
    if (rts)
        tx_vis_short(rts_shown, sizeof rts_shown, rts, rts_len, TX_SHORT_WIDTH);
    char ccs_text[64] = "";
    if (s->ccs)
        snprintf(ccs_text, sizeof ccs_text, "%s%llu cost centres defined", rts ? "; " : "",
                 (unsigned long long)s->ccs);
    unsigned flags = s->rts_flags;
    double ms = (double)s->prof_interval_ns / 1e6;
    double run = f && f->has_time ? f->last_s : -1.0;
    char end_at[48] = "";
    if (run >= 0)
        snprintf(end_at, sizeof end_at, " at %.6f s", run);
    if (early && prof == 1)
        snprintf(buf, size, "no samples yet: the log comes from a profiling RTS (%s%s) but "
                 "ends early (%s%s); the RTS writes samples from a buffer of its own when it "
                 "is full or at exit (GHC 9.2 and later also every "
                 "--eventlog-flush-interval), and the run stopped before that: let the "
                 "program exit, or run it longer", rts_shown,
                 ccs_text, f->stopped ? "cut" : "no end marker", where);
    else if (early && prof < 0)
        snprintf(buf, size, "no samples in what was written: the log ends early (%s%s) and "
                 "has no RTS identifier either, which the RTS writes from the same buffer "
                 "as the samples (when it is full or at exit), so whether this was a "
                 "profiled run cannot be told; with a -prof build run with +RTS -p -l, let "
                 "the program exit (GHC 9.2 and later: or pass "
                 "--eventlog-flush-interval=1)", f->stopped ? "cut" : "no end marker", where);
    else if (prof == 1 && (flags & INFO_RTS_TIMER_OFF) &&
             (s->has_prof_begin || (flags & INFO_RTS_TIME_PROF)))
        snprintf(buf, size, "the program was built with -prof and run with +RTS -p, but also "
                 "with -V0, which turns off the RTS timer and with it every tick (the log "
                 "has %s): run without -V0, or with -V0.001 for 1 ms ticks",
                 s->has_prof_begin ? "PROF_BEGIN with no tick interval, and no sample" : "no PROF_BEGIN");
    else if (s->has_prof_begin && (flags & INFO_RTS_NO_AUTO))
        snprintf(buf, size, "the time profiler was on (PROF_BEGIN at %.6f s, a tick every "
                 "%g ms) but the run has +RTS --no-automatic-time-samples (GHC 9.10 and "
                 "later): the ticks start only when the program calls startProfTimer "
                 "(GHC.Profiling), and it never did before the log's end%s; call it where "
                 "the profile should start, or run without that flag", s->prof_begin_s, ms,
                 end_at);
    else if (s->has_prof_begin && ms > 0 && run >= 0 && run * 1e3 < 2 * ms)
        snprintf(buf, size, "the time profiler was on (PROF_BEGIN, a tick every %g ms) but "
                 "the run lasted %.6f s, too short for a tick: run it longer, or sample "
                 "more often (+RTS -V0.0001 for 0.1 ms ticks)", ms, run);
    else if (s->has_prof_begin)
        snprintf(buf, size, "the time profiler was on (PROF_BEGIN at %.6f s, a tick every "
                 "%g ms) but no tick was sampled before the log's end%s: the profiling "
                 "timer never ran (the program may stop it with stopProfTimer from "
                 "GHC.Profiling; options given in GHCRTS or -with-rtsopts are not in the "
                 "log)", s->prof_begin_s, ms, end_at);
    else if (prof == 1 && (flags & INFO_RTS_TIME_PROF))
        snprintf(buf, size, "the program was built with -prof (RTS %s%s) and its command "
                 "line has a time-profiling flag, but the log has no PROF_BEGIN: this RTS "
                 "did not write its time profile to the eventlog (GHC 8.10 and later do, "
                 "with +RTS -p -l)", rts_shown, ccs_text);
    else if (prof == 1)
        snprintf(buf, size, "the program was built with -prof (RTS %s%s) but run without "
                 "+RTS -p (no PROF_BEGIN%s): run it with +RTS -p -l", rts_shown, ccs_text,
                 (flags & INFO_RTS_ARGS) ? ", and no -p among its logged +RTS options" : "");
    else
        snprintf(buf, size, "build with -prof and run with +RTS -p -l (GHC 8.10 and later "
                 "then write samples to the eventlog)");
}

int info_no_samples_yet(char *buf, size_t size, const info_prof_signs *s)
{
    int prof = rts_profiling(s->rts, s->rts_len);
    if (prof < 0 && s->ccs)
        prof = 1;
    unsigned flags = s->rts_flags;
    if (size)
        buf[0] = '\0';
    if (s->has_prof_begin && (flags & INFO_RTS_NO_AUTO))
        snprintf(buf, size, "it runs with +RTS --no-automatic-time-samples: ticks start "
                 "when it calls startProfTimer (GHC.Profiling)");
    else if ((flags & INFO_RTS_TIMER_OFF) && (flags & INFO_RTS_TIME_PROF))
        snprintf(buf, size, "it runs with +RTS -V0, which turns every tick off");
    else if (prof == 1 && !s->has_prof_begin && (flags & INFO_RTS_ARGS) &&
             !(flags & INFO_RTS_TIME_PROF))
        snprintf(buf, size, "its command line has no +RTS -p (options in GHCRTS are not in "
                 "the log): ticks come with +RTS -p");
    else if (prof == 0) {
        char rts_shown[TX_SHORT_BYTES];
        tx_vis_short(rts_shown, sizeof rts_shown, s->rts, s->rts_len, TX_SHORT_WIDTH);
        snprintf(buf, size, "its RTS (%s) is not a profiling one: ticks come from a -prof "
                 "build run with +RTS -p", rts_shown);
    }
    else
        return 0;
    return 1;
}

/* Why a log has no ticky counters, by its GHC (RTS_IDENTIFIER "GHC-9.6.6
 * rts_debug"): 9.2 and later write them with +RTS -lT, earlier ones only
 * the text of +RTS -r (GHC 9.0.2: "unknown trace option: T"). */
static void no_ticky_why(char *buf, size_t size, const char *rts, size_t rts_len)
{
    char id[64] = "";
    unsigned major = 0, minor = 0;
    if (rts && rts_len < sizeof id) {
        memcpy(id, rts, rts_len);
        id[rts_len] = '\0';
    }
    if (sscanf(id, "GHC-%u.%u", &major, &minor) != 2)
        snprintf(buf, size, "build with -ticky and run with +RTS -lT (GHC 9.2 and later; "
                 "before, +RTS -r writes a text file that evprof ticky reads)");
    else if (major < 9 || (major == 9 && minor < 2))
        snprintf(buf, size, "GHC %u.%u writes no ticky counters to the eventlog (9.2 and "
                 "later do, with +RTS -lT): build with -ticky, run with +RTS -r and give "
                 "evprof ticky the .ticky file it writes", major, minor);
    else if (major == 9 && minor < 4)   /* -eventlog became the default in 9.4 */
        snprintf(buf, size, "build with -ticky -eventlog and run with +RTS -lT");
    else
        snprintf(buf, size, "build with -ticky and run with +RTS -lT");
}

static void judge(const info *in, const el_read_result *r, analysis an[N_ANALYSES])
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
    char prof_hint[640];
    ev_facts facts;
    if (in->has_stream)
        ev_facts_of(r, &facts);
    rts_scan scan = { 0, 0, 0, 0 };
    each_arg(&in->args, rts_scan_cb, &scan);
    info_prof_signs signs = {
        .rts = in->rts.ptr,
        .rts_len = in->rts.len,
        .ccs = ccs,
        .rts_flags = scan.flags,
        .has_prof_begin = in->has_prof_interval,
        .prof_interval_ns = in->prof_interval_ns,
        .prof_begin_s = (double)in->prof_begin_time / 1e9,
    };
    info_no_samples_why(prof_hint, sizeof prof_hint, &signs, in->has_stream ? &facts : NULL);
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
    char ticky_hint[200];
    no_ticky_why(ticky_hint, sizeof ticky_hint, in->rts.ptr, in->rts.len);
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


static const char *status_key(const info *in, const el_read_result *r)
{
    if (!in->has_stream)
        return "reading";
    ev_facts f;
    ev_facts_of(r, &f);
    return ev_facts_key(&f);
}

static uint64_t file_size(const info *in, const el_read_result *r)
{
    return in->total_bytes ? in->total_bytes : r->bytes;
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
    tx_put(out, s, len);
    if (quote)
        fputc('\'', out);
}

static el_str type_desc(const info *in, unsigned id)
{
    size_t lo = 0, hi = in->num_declared;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (in->declared[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < in->num_declared && in->declared[lo].id == id)
        return (el_str){ in->declared[lo].desc, (uint32_t)in->declared[lo].desc_len };
    return (el_str){ "", 0 };
}

/* Marks listed one by one by info (then counts per label only). */
#define INFO_MARKS 50

/* The marks (only when the log has some: other logs' output stays). */
static void print_markers_text(FILE *out, const ev_markers *m)
{
    size_t n = m ? ev_markers_num_labels(m) : 0;
    if (!n)
        return;
    fprintf(out, "\nMarkers (traceMarker, USER_MARKER 58; --from marker:LABEL, --between "
            "LABEL):\n  %12s  %14s  label\n", "count", "first at (s)");
    for (size_t i = 0; i < n; i++) {
        const ev_marker_label *l = ev_markers_label_at(m, i);
        fprintf(out, "  %12llu  %14.6f  ", (unsigned long long)l->count, l->first_ns / 1e9);
        tx_put(out, l->label, l->len);
        fputc('\n', out);
    }
    /* every mark in time order, the first INFO_MARKS */
    ev_mark first[INFO_MARKS];
    size_t k = ev_markers_first(m, INFO_MARKS, first);
    uint64_t total = ev_markers_total(m);
    fprintf(out, "\nMarks in time order (--from marker:LABEL#N; 'evprof phases' cuts the run at "
            "them):\n  %14s  mark\n", "time (s)");
    for (size_t i = 0; i < k; i++) {
        fprintf(out, "  %14.6f  ", first[i].time_ns / 1e9);
        tx_put(out, first[i].label, first[i].len);
        fprintf(out, " #%llu\n", (unsigned long long)first[i].nth);
    }
    if (total > k)
        fprintf(out, "  (the first %zu of %llu marks: the counts per label are above)\n", k,
                (unsigned long long)total);
}

static void print_text(FILE *out, const char *path, const info *in,
                       const el_read_result *r)
{
    fputs("file:          ", out);
    if (strcmp(path, "-") == 0)
        fputs("<stdin>", out);
    else
        tx_put(out, path, strlen(path));
    fprintf(out, "\nsize:          %llu bytes\n", (unsigned long long)file_size(in, r));
    if (in->has_stream) {
        ev_facts facts;
        ev_facts_of(r, &facts);
        ev_facts_status(out, &facts);
    } else {
        fputs("status:        still being read: the figures so far\n", out);
    }

    fputs("rts:           ", out);
    if (in->rts.ptr)
        tx_put(out, in->rts.ptr, in->rts.len);
    else
        fputs("(no RTS_IDENTIFIER event)", out);
    fputc('\n', out);

    fputs("program:       ", out);
    if (in->args.ptr) {
        size_t n = in->args.len;
        const char *nul = memchr(in->args.ptr, '\0', n);
        tx_put(out, in->args.ptr, nul ? (size_t)(nul - in->args.ptr) : n);
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
    if (in->selected) {
        fprintf(out, "selection:     %zu window%s", in->sel_windows,
                in->sel_windows == 1 ? "" : "s");
        if (in->sel_hull.to_ns == UINT64_MAX)
            fprintf(out, " from %.6f s on", (double)in->sel_hull.from_ns / 1e9);
        else
            fprintf(out, ", %.6f s in all, from %.6f s to %.6f s",
                    (double)in->sel_length / 1e9, (double)in->sel_hull.from_ns / 1e9,
                    (double)in->sel_hull.to_ns / 1e9);
        if (in->sel_cap >= 0)
            fprintf(out, ", capability %d", (int)in->sel_cap);
        fputs(": the time span, events and types are those inside it\n", out);
    }

    /* per-type table; the total stays out of the widths */
    static const tx_col cols[] = {
        { "  ", TX_RIGHT, 5, 0 },           /* id */
        { "  ", TX_LEFT, 0, 1 },            /* name */
        { "  ", TX_LEFT, 0, 1 },            /* description */
        { " ", TX_RIGHT, 12, 0 },           /* count */
        { " ", TX_RIGHT, 12, 0 },           /* bytes */
    };
    size_t declared = in->num_declared;
    size_t present = 0;
    uint64_t total_bytes = 0;
    tx_table t;
    tx_table_init(&t, cols, 5);
    tx_table_add(&t, "id", 2);
    tx_table_add(&t, "name", 4);
    tx_table_add(&t, "description", 11);
    tx_table_add(&t, "count", 5);
    tx_table_add(&t, "bytes", 5);
    tx_table_end_row(&t, 1);
    for (unsigned id = 0; id < N_IDS; id++) {
        const type_stat *ts = &in->types[id];
        if (!ts->count)
            continue;
        present++;
        total_bytes += ts->bytes;
        const char *name = el_type_name((uint16_t)id);
        el_str desc = type_desc(in, id);
        tx_table_addf(&t, "%u", id);
        tx_table_addf(&t, "%s", name ? name : "-");
        tx_table_add(&t, desc.ptr, desc.len);
        tx_table_addf(&t, "%llu", (unsigned long long)ts->count);
        tx_table_addf(&t, "%llu", (unsigned long long)ts->bytes);
        tx_table_end_row(&t, 1);
    }
    tx_table_add(&t, "", 0);
    tx_table_add(&t, "total", 5);
    tx_table_add(&t, "", 0);
    tx_table_addf(&t, "%llu", (unsigned long long)r->events);
    tx_table_addf(&t, "%llu", (unsigned long long)total_bytes);
    tx_table_end_row(&t, 0);
    fprintf(out, "\nEvent types (%zu of the %zu declared in the header occur):\n",
            present, declared);
    if (present && tx_table_write(&t, out) != 0)
        fputs("(the table could not be built: out of memory)\n", out);
    tx_table_free(&t);
    const type_stat *ipe = &in->types[EL_IPE];
    if (ipe->declared_off)
        fprintf(out, "note: %llu of %llu IPE events (169) declare a payload length that is not "
                "what GHC wrote (GHC #24287: GHC 9.6.6 and 9.10.3 declare one byte more, "
                "some earlier releases one less); each is read up to its strings' NULs, as "
                "ghc-events reads it: not damage\n", (unsigned long long)ipe->declared_off,
                (unsigned long long)ipe->count);
    if (r->ipe_len_off) {
        ev_facts f;
        ev_facts_of(r, &f);
        fputs("note: ", out);
        ev_facts_ipe_note(out, &f);
        fputc('\n', out);
    }

    if (in->has_stream)
        print_markers_text(out, in->markers);

    analysis an[N_ANALYSES];
    judge(in, r, an);
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
    if (index > 0)
        tx_json_string(ctx, s, len);
}

static void json_owned(tx_json *j, const owned_str *s)
{
    if (s->ptr)
        tx_json_string(j, s->ptr, s->len);
    else
        tx_json_null(j);
}

static int print_json(FILE *out, const char *path, const info *in,
                      const el_read_result *r)
{
    tx_json *j = malloc(sizeof *j);
    if (!j)
        return -1;
    tx_json_init(j, out, 2, 0);
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_kv_cstr(j, "file", path);
    tx_json_kv_uint(j, "size_bytes", file_size(in, r));
    tx_json_kv_cstr(j, "status", status_key(in, r));
    tx_json_key(j, "error");
    if (in->has_stream && r->status != EV_END && r->status != EV_OK) {
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_cstr(j, "message", r->error.msg[0] ? r->error.msg : ev_status_name(r->status));
        tx_json_kv_uint(j, "offset", r->error.offset);
        tx_json_kv_int(j, "type", (long)r->error.type);
        tx_json_end(j);
    } else {
        tx_json_null(j);
    }

    tx_json_key(j, "rts");
    json_owned(j, &in->rts);
    tx_json_key(j, "program");
    if (in->args.ptr) {
        const char *nul = memchr(in->args.ptr, '\0', in->args.len);
        tx_json_string(j, in->args.ptr, nul ? (size_t)(nul - in->args.ptr) : in->args.len);
        tx_json_key(j, "arguments");
        tx_json_array(j, TX_JSON_INLINE);
        each_arg(&in->args, json_arg, j);
        tx_json_end(j);
    } else {
        tx_json_null(j);
        tx_json_kv_null(j, "arguments");
    }

    char date[64];
    tx_json_kv_cstr(j, "start_utc", start_date(in, date, sizeof date) ? date : NULL);

    caps_summary caps = count_caps(in);
    tx_json_key(j, "capabilities");
    if (caps.count)
        tx_json_uint(j, caps.count);
    else
        tx_json_null(j);
    tx_json_kv_cstr(j, "capabilities_from", caps.count ? caps.sources : NULL);

    if (in->has_time) {
        tx_json_kv_uint(j, "first_time_ns", in->first_time);
        tx_json_kv_uint(j, "last_time_ns", in->last_time);
        tx_json_key(j, "duration_s");
        tx_json_fixed(j, (double)(in->last_time - in->first_time) / 1e9, 0, 9);
    } else {
        tx_json_kv_null(j, "first_time_ns");
        tx_json_kv_null(j, "last_time_ns");
        tx_json_kv_null(j, "duration_s");
    }
    tx_json_kv_uint(j, "events", r->events);
    if (in->selected) {
        tx_json_key(j, "selection");
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "windows", in->sel_windows);
        tx_json_kv_uint(j, "from_ns", in->sel_hull.from_ns);
        tx_json_key(j, "to_ns");
        if (in->sel_hull.to_ns == UINT64_MAX)
            tx_json_null(j);
        else
            tx_json_uint(j, in->sel_hull.to_ns);
        tx_json_key(j, "cap");
        if (in->sel_cap < 0)
            tx_json_null(j);
        else
            tx_json_uint(j, (uint64_t)in->sel_cap);
        tx_json_end(j);
    }
    tx_json_kv_uint(j, "declared_types", in->num_declared);

    tx_json_key(j, "event_types");
    tx_json_array(j, TX_JSON_BLOCK);
    for (unsigned id = 0; id < N_IDS; id++) {
        const type_stat *ts = &in->types[id];
        if (!ts->count)
            continue;
        el_str desc = type_desc(in, id);
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "id", id);
        tx_json_kv_cstr(j, "name", el_type_name((uint16_t)id));
        tx_json_kv_string(j, "description", desc.ptr, desc.len);
        tx_json_kv_uint(j, "count", ts->count);
        tx_json_kv_uint(j, "bytes", ts->bytes);
        if (ts->declared_off)   /* IPE: GHC #24287; read as written */
            tx_json_kv_uint(j, "declared_length_off", ts->declared_off);
        if (id == EL_IPE && r->ipe_len_off)     /* more than a byte off: the note */
            tx_json_kv_uint(j, "declared_length_far", r->ipe_len_off);
        tx_json_end(j);
    }
    tx_json_end(j);

    size_t nm = in->has_stream && in->markers ? ev_markers_num_labels(in->markers) : 0;
    if (nm) {
        /* only when the log has marks: other logs' output stays */
        tx_json_key(j, "markers");
        tx_json_array(j, TX_JSON_BLOCK);
        for (size_t i = 0; i < nm; i++) {
            const ev_marker_label *l = ev_markers_label_at(in->markers, i);
            tx_json_object(j, TX_JSON_INLINE);
            tx_json_kv_string(j, "label", l->label, l->len);
            tx_json_kv_uint(j, "count", l->count);
            tx_json_kv_uint(j, "first_ns", l->first_ns);
            tx_json_end(j);
        }
        tx_json_end(j);
        ev_mark first[INFO_MARKS];
        size_t k = ev_markers_first(in->markers, INFO_MARKS, first);
        tx_json_kv_uint(j, "marks_total", ev_markers_total(in->markers));
        tx_json_key(j, "marks");
        tx_json_array(j, TX_JSON_BLOCK);
        for (size_t i = 0; i < k; i++) {
            tx_json_object(j, TX_JSON_INLINE);
            tx_json_kv_string(j, "label", first[i].label, first[i].len);
            tx_json_kv_uint(j, "n", first[i].nth);
            tx_json_kv_uint(j, "time_ns", first[i].time_ns);
            tx_json_end(j);
        }
        tx_json_end(j);
    }

    analysis an[N_ANALYSES];
    judge(in, r, an);
    tx_json_key(j, "analyses");
    tx_json_object(j, TX_JSON_BLOCK);
    for (int i = 0; i < N_ANALYSES; i++) {
        tx_json_key(j, an[i].key);
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_cstr(j, "supported", an[i].verdict);
        tx_json_kv_cstr(j, "detail", an[i].detail);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_end(j);
    tx_json_space(j, "\n");
    int rc = tx_json_finish(j);
    free(j);
    return rc;
}

/* ---- life, the driver, snapshots ------------------------------------------- */

info_log *info_create(void)
{
    info *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    if (!(in->types = calloc(N_IDS, sizeof *in->types)) ||
        !(in->markers = ev_markers_create())) {
        free(in->types);
        free(in);
        return NULL;
    }
    return in;
}

void info_destroy(info_log *in)
{
    if (!in)
        return;
    for (size_t i = 0; i < in->num_declared; i++)
        free(in->declared[i].desc);
    free(in->declared);
    ev_markers_destroy(in->markers);
    free(in->rts.ptr);
    free(in->args.ptr);
    free(in->types);
    free(in);
}

static int by_id(const void *a, const void *b)
{
    const declared_type *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

int info_set_header(info_log *in, const el_decoder *d)
{
    if (in->header_seen || !d || !el_decoder_header_done(d))
        return 0;
    in->header_seen = 1;
    size_t n = el_decoder_num_types(d);
    if (!n)
        return 0;
    if (!(in->declared = calloc(n, sizeof *in->declared))) {
        in->copy_failed = 1;
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const el_event_type *et = el_decoder_type_at(d, i);
        declared_type *t = &in->declared[in->num_declared++];
        t->id = et->id;
        t->desc_len = et->desc.len;
        if (!(t->desc = malloc(et->desc.len + 1))) {
            in->copy_failed = 1;
            return -1;
        }
        memcpy(t->desc, et->desc.ptr, et->desc.len);
        t->desc[et->desc.len] = '\0';
    }
    qsort(in->declared, in->num_declared, sizeof *in->declared, by_id);
    return 0;
}

/* Every event by type, as the driver's decoder counts them (tally: per
 * type of dec, header order). info asks the driver for a few types only,
 * so the others are skipped without a call each: on a log of 72M events,
 * 51M of them thread events, `info` takes 0.97 s instead of 1.67 s. */
static void take_counts(info *in, const el_decoder *dec, const el_type_tally *tally,
                        const uint8_t *sample_caps)
{
    uint64_t events = 0;
    for (size_t i = 0, n = el_decoder_num_types(dec); i < n; i++) {
        type_stat *ts = &in->types[el_decoder_type_at(dec, i)->id];
        ts->count = tally[i].events;
        ts->bytes = tally[i].bytes;
        ts->declared_off = tally[i].declared_off;
        events += ts->count;
    }
    in->events = events;
    /* the samples' capabilities come with the counts: info does not take
     * the samples one by one (most of a time profile's log) */
    _Static_assert(EL_SAMPLE_CAPS_BYTES == CAP_BITMAP_BYTES, "one bitmap of capabilities");
    if (sample_caps)
        for (size_t i = 0; i < CAP_BITMAP_BYTES; i++)
            in->caps_samples[i] |= sample_caps[i];
}

void info_set_stream(info_log *in, const ev_stream *s)
{
    info_set_header(in, s->decoder);
    if (in->markers && !in->has_stream)
        ev_markers_ops.end(in->markers, s);
    in->has_stream = 1;
    in->read = s->read;
    in->total_bytes = s->total_bytes;
    in->reading = NULL;
    if (in->selected) {             /* the counts are the selection's */
        in->read.events = in->events;
        in->sel_windows = 0;
        ev_select_spans(s->select, &in->sel_windows);
        in->sel_hull = ev_select_hull(s->select);
        in->sel_length = ev_select_length(s->select, UINT64_MAX);
        in->sel_cap = ev_select_cap(s->select);
    } else if (s->tally && s->decoder) {   /* EV_COUNTS: every event */
        take_counts(in, s->decoder, s->tally, s->sample_caps);
        in->read.events = in->events;
        if (s->read.has_time_span) {
            see_time(in, s->read.first_time);
            see_time(in, s->read.last_time);
        }
    }
}

ev_status info_status(const info_log *in) { return in->copy_failed ? EV_ERR_NOMEM : EV_OK; }

void info_count_marks(const info_log *in, uint64_t *labels, uint64_t *marks, uint64_t *bytes)
{
    *labels = *marks = *bytes = 0;
    if (in->markers)
        ev_markers_count(in->markers, labels, marks, bytes);
}

static int copy_owned(owned_str *dst, const owned_str *src)
{
    dst->ptr = NULL;
    dst->len = src->len;
    if (!src->ptr)
        return 0;
    if (!(dst->ptr = malloc(src->len ? src->len : 1)))
        return -1;
    if (src->len)
        memcpy(dst->ptr, src->ptr, src->len);
    return 0;
}

info_log *info_snapshot(const info_log *in)
{
    info *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *in;
    c->types = NULL;
    c->markers = NULL;          /* marks are listed once the read is over */
    c->declared = NULL;
    c->num_declared = 0;
    c->rts.ptr = c->args.ptr = NULL;
    if (!(c->types = malloc(N_IDS * sizeof *c->types)) || copy_owned(&c->rts, &in->rts) ||
        copy_owned(&c->args, &in->args) ||
        (in->num_declared && !(c->declared = calloc(in->num_declared, sizeof *c->declared)))) {
        info_destroy(c);
        return NULL;
    }
    memcpy(c->types, in->types, N_IDS * sizeof *c->types);
    c->reading = NULL;
    if (!in->has_stream && !in->selected && in->reading && el_decoder_tally(in->reading)) {
        /* mid-read: every event so far, and their time span */
        uint64_t first, last;
        take_counts(c, in->reading, el_decoder_tally(in->reading),
                    el_decoder_sample_caps(in->reading));
        if (el_decoder_time_span(in->reading, &first, &last)) {
            see_time(c, first);
            see_time(c, last);
        }
    }
    for (size_t i = 0; i < in->num_declared; i++) {
        declared_type *t = &c->declared[c->num_declared++];
        *t = in->declared[i];
        if (!(t->desc = malloc(t->desc_len + 1))) {
            info_destroy(c);
            return NULL;
        }
        memcpy(t->desc, in->declared[i].desc, t->desc_len + 1);
    }
    return c;
}

static int info_op_event(void *self, const el_event *ev, const ev_stream *s)
{
    info *in = self;
    if (!in->header_seen) {
        info_set_header(in, s->decoder);
        /* the marks grow with the log: charged to the read's budget */
        if (in->markers && s->budget)
            ev_markers_set_budget(in->markers, s->budget);
    }
    /* a partial of a parallel read is never snapshot: its range's
     * decoder goes with the range (merge does not take it) */
    in->reading = s->decoder;
    return add_event(in, ev);
}

static void info_op_end(void *self, const ev_stream *s) { info_set_stream(self, s); }

static int info_sel_op_event(void *self, const el_event *ev, const ev_stream *s)
{
    ((info *)self)->selected = 1;
    return info_op_event(self, ev, s);
}

/* ---- the parallel read: a partial per range, merged in file order ---- */

static void *info_op_fork(void *self)
{
    info *p = info_create();
    if (p)
        p->selected = ((const info *)self)->selected;
    return p;
}

static void take_first(owned_str *dst, owned_str *src)
{
    if (dst->ptr || !src->ptr)
        return;
    *dst = *src;
    src->ptr = NULL;
    src->len = 0;
}

/* part read the stretch after self's: counts add, first-seen facts stay
 * self's unless it has none, last-seen ones are part's when it has them */
static int info_op_merge(void *self, void *part)
{
    info *s = self, *p = part;

    s->selected |= p->selected;
    if (!s->header_seen && p->header_seen) {
        s->header_seen = 1;
        s->declared = p->declared;
        s->num_declared = p->num_declared;
        p->declared = NULL;
        p->num_declared = 0;
    }
    s->events += p->events;
    for (size_t id = 0; id < N_IDS; id++) {
        s->types[id].count += p->types[id].count;
        s->types[id].bytes += p->types[id].bytes;
    }
    for (size_t i = 0; i < CAP_BITMAP_BYTES; i++) {
        s->caps_created[i] |= p->caps_created[i];
        s->caps_blocks[i] |= p->caps_blocks[i];
        s->caps_samples[i] |= p->caps_samples[i];
    }
    if (p->has_startup) {
        s->has_startup = 1;
        s->startup_caps = p->startup_caps;
    }
    if (p->has_time) {
        if (!s->has_time || p->first_time < s->first_time)
            s->first_time = p->first_time;
        if (!s->has_time || p->last_time > s->last_time)
            s->last_time = p->last_time;
        s->has_time = 1;
    }
    if (!s->copy_failed) {
        take_first(&s->rts, &p->rts);
        take_first(&s->args, &p->args);
    }
    if (p->copy_failed)
        s->copy_failed = 1;
    if (!s->has_wall && p->has_wall) {
        s->has_wall = 1;
        s->wall_sec = p->wall_sec;
        s->wall_nsec = p->wall_nsec;
        s->wall_event_time = p->wall_event_time;
    }
    if (p->has_prof_interval) {
        s->has_prof_interval = 1;
        s->prof_interval_ns = p->prof_interval_ns;
    }
    if (!s->has_pid && p->has_pid) {
        s->has_pid = 1;
        s->pid = p->pid;
    }
    if (!s->has_heap_begin && p->has_heap_begin) {
        s->has_heap_begin = 1;
        s->heap_breakdown = p->heap_breakdown;
        s->heap_period_ns = p->heap_period_ns;
    }
    if (s->markers && p->markers && ev_markers_merge(s->markers, p->markers) != 0)
        s->copy_failed = 1;
    return 0;
}

static void info_op_drop(void *part) { info_destroy(part); }
static void *info_op_snapshot(void *self) { return info_snapshot(self); }
static void info_op_release(void *snap) { info_destroy(snap); }

/* every event is counted (the driver's tally, take_counts), and the
 * samples' capabilities with them; typed fields and a call only for the
 * types read here */
static const uint16_t info_fields[] = {
    EL_BLOCK_MARKER, EL_CAP_CREATE, EL_STARTUP,
    EL_RTS_IDENTIFIER, EL_PROGRAM_ARGS, EL_WALL_CLOCK_TIME, EL_PROF_BEGIN, EL_HEAP_PROF_BEGIN,
    EL_USER_MARKER, EL_OSPROCESS_PID,
};
/* the marks, which grow with the log */
static int info_op_holds(const void *self, char *buf, size_t size)
{
    uint64_t labels, marks, bytes;
    info_count_marks(self, &labels, &marks, &bytes);
    snprintf(buf, size, "the marks: %llu labels of %llu marks in %.1f MiB",
             (unsigned long long)labels, (unsigned long long)marks, (double)bytes / (1 << 20));
    return labels != 0;
}

const ev_analysis_ops info_analysis_ops = {
    .name = "info",
    .types = info_fields,
    .num_types = sizeof info_fields / sizeof info_fields[0],
    .flags = EV_COUNTS,
    .event = info_op_event,
    .end = info_op_end,
    .snapshot = info_op_snapshot,
    .release = info_op_release,
    .fork = info_op_fork,
    .merge = info_op_merge,
    .drop = info_op_drop,
    .holds = info_op_holds,
};

/* with a selection: every event, each counted when it is inside (no
 * tally: it counts the whole log); the samples decoded for their
 * capabilities */
static const uint16_t info_sel_fields[] = {
    EL_BLOCK_MARKER, EL_CAP_CREATE, EL_STARTUP,
    EL_RTS_IDENTIFIER, EL_PROGRAM_ARGS, EL_WALL_CLOCK_TIME, EL_PROF_BEGIN, EL_HEAP_PROF_BEGIN,
    EL_USER_MARKER, EL_OSPROCESS_PID, EL_PROF_SAMPLE_COST_CENTRE,
};
const ev_analysis_ops info_selected_ops = {
    .name = "info",
    .types = info_sel_fields,
    .num_types = sizeof info_sel_fields / sizeof info_sel_fields[0],
    .flags = EV_ALL_EVENTS,
    .event = info_sel_op_event,
    .end = info_op_end,
    .snapshot = info_op_snapshot,
    .release = info_op_release,
    .fork = info_op_fork,
    .merge = info_op_merge,
    .drop = info_op_drop,
    .holds = info_op_holds,
};

static const uint16_t facts_fields[] = {
    EL_CAP_CREATE, EL_STARTUP, EL_RTS_IDENTIFIER, EL_PROGRAM_ARGS, EL_WALL_CLOCK_TIME,
    EL_OSPROCESS_PID,
};
const ev_analysis_ops info_facts_ops = {
    .name = "info facts",
    .types = facts_fields,
    .num_types = sizeof facts_fields / sizeof facts_fields[0],
    .event = info_op_event,
    .end = info_op_end,
    .snapshot = info_op_snapshot,
    .release = info_op_release,
    .fork = info_op_fork,
    .merge = info_op_merge,
    .drop = info_op_drop,
    .holds = info_op_holds,
};

/* the facts the writers show: the stream's, or what was counted so far */
static el_read_result facts(const info *in)
{
    if (in->has_stream)
        return in->read;
    el_read_result r = { 0 };
    r.status = EV_OK;
    r.events = in->events;
    return r;
}

int info_report_text(const info_log *in, const char *path, FILE *out)
{
    el_read_result r = facts(in);
    print_text(out, path ? path : "-", in, &r);
    return ferror(out) ? -1 : 0;
}

int info_report_json(const info_log *in, const char *path, FILE *out)
{
    el_read_result r = facts(in);
    int rc = print_json(out, path ? path : "-", in, &r);
    return rc != 0 || ferror(out) ? -1 : 0;
}

/* ---- the table of formats (evprof/format.h) ---- */

static ev_status write_text(const void *in, const void *path, FILE *out, ev_error *err)
{
    return ev_write_status(info_report_text(in, path, out), err, "the log's summary");
}

static ev_status write_json(const void *in, const void *path, FILE *out, ev_error *err)
{
    return ev_write_status(info_report_json(in, path, out), err, "the log's summary");
}

static const ev_format formats[] = {
    { "text", ".txt", write_text, 0 },
    { "json", ".json", write_json, 0 },
};

const ev_format *info_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}
