/* The time profile's aggregate: its life (create, destroy, the memory
 * budget), the events it takes (prof_add_event: samples go to the tree,
 * definitions to the cost centres, the rest are the run's facts) and the
 * driver's ops. The tree is tree.c's, the cost centres ccs.c's, the
 * parallel read's merge and several logs merge.c's, the result
 * snapshot.c's (internal.h has the map). */
#include "prof/internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory budget -------------------------------------------------------- */

void prof_set_jobs(prof_profile *p, unsigned jobs)
{
    if (p)
        p->jobs = jobs ? jobs : 1;
}

void prof_set_budget(prof_profile *p, ev_budget *b)
{
    if (ev_account_move(&p->mem, b) != 0)
        prof_fail(p);
}

const char *prof_pool_add(prof_profile *p, const char *str, uint32_t len)
{
    size_t grow = tx_strpool_growth(&p->strings, len);
    if (grow && prof_charge(p, grow) != 0)
        return NULL;
    return tx_strpool_add(&p->strings, str, len);
}

void prof_count(const prof_profile *p, prof_counts *c)
{
    prof_sc_flush((prof_profile *)p);    /* not a change: the ticks stay the same */
    c->ccs = p->num_ccs;
    c->nodes = p->num_nodes;
    c->stacks = 0;
    for (size_t i = 0; i < p->num_nodes; i++)
        c->stacks += p->nodes[i].ticks != 0;
    c->bytes = p->mem.charged;
    c->over_budget = p->mem.refused;
    c->samples = p->info.all_samples;
}

/* ---- lifecycle -------------------------------------------------------- */

/* The filter's defaults: no built-ins, no focus or ignore, every depth.
 * The time windows and the capability are not the filter's: they are the
 * driver's selection stage (el_event.outside). */
void prof_filter_init(prof_filter *f)
{
    f->all = 0;
    f->focus = NULL;
    f->ignore = NULL;
    f->max_depth = 0;
}

prof_profile *prof_create(const prof_filter *filter)
{
    prof_profile *p = calloc(1, sizeof *p);

    if (!p)
        return NULL;
    if (filter)
        p->filter = *filter;
    else
        prof_filter_init(&p->filter);
    if (p->filter.focus || p->filter.ignore)
        p->filter.max_depth = 0;    /* they need every frame */
    tx_strpool_init(&p->strings);
    p->jobs = 1;
    if (prof_tree_init(p) != 0) {
        prof_destroy(p);
        return NULL;
    }
    p->info.program = "";
    p->info.rts_version = "";
    p->info.first_time = UINT64_MAX;
    return p;
}

void prof_destroy(prof_profile *p)
{
    if (!p)
        return;
    prof_ccs_free(p);
    free(p->nodes);
    free(p->slots);
    free(p->cap_paths);
    free(p->sc_table);
    free(p->sc_arena);
    free(p->argv_store);
    free(p->run_cmds);
    prof_runs_free(p->runs);
    tx_strpool_destroy(&p->strings);
    ev_budget_release(p->mem.budget, p->mem.charged);
    free(p);
}

/* One more run's command line, as the report's header shows it:
 * "program +RTS r1 r2 -RTS a1 a2" (NULL-free; the first PROF_MAX_RUN_CMDS). */
static int add_run_cmd(prof_profile *p, const char *program, const char **rts, uint32_t nr,
                       const char **args, uint32_t na)
{
    p->runs_seen++;
    if (p->num_run_cmds >= PROF_MAX_RUN_CMDS)
        return 0;
    if (!p->run_cmds && !(p->run_cmds = calloc(PROF_MAX_RUN_CMDS, sizeof *p->run_cmds)))
        return -1;
    size_t len = strlen(program) + sizeof " +RTS -RTS";
    for (uint32_t i = 0; i < nr; i++)
        len += strlen(rts[i]) + 1;
    for (uint32_t i = 0; i < na; i++)
        len += strlen(args[i]) + 1;
    char *buf = malloc(len), *at = buf;
    if (!buf)
        return -1;
    at += sprintf(at, "%s +RTS", program);
    for (uint32_t i = 0; i < nr; i++)
        at += sprintf(at, " %s", rts[i]);
    at += sprintf(at, " -RTS");
    for (uint32_t i = 0; i < na; i++)
        at += sprintf(at, " %s", args[i]);
    const char *kept = prof_pool_add(p, buf, (uint32_t)(at - buf));
    free(buf);
    if (!kept)
        return -1;
    p->run_cmds[p->num_run_cmds++] = kept;
    return 0;
}

/* The processors of the runs read so far: the fewest and the most
 * capabilities assigned to an OS-process capset (one per run; a merged
 * log's runs have capsets of their own), else the CAP_CREATE events, else
 * the capabilities the samples name. */
void prof_run_caps(const prof_profile *p, uint32_t *lo, uint32_t *hi)
{
    *lo = UINT32_MAX;
    *hi = 0;
    for (size_t i = 0; i < PROF_CAPSETS; i++) {
        if (!p->capset_osproc[i] || !p->capset_caps[i])
            continue;
        if (p->capset_caps[i] < *lo)
            *lo = p->capset_caps[i];
        if (p->capset_caps[i] > *hi)
            *hi = p->capset_caps[i];
    }
    if (*hi == 0)
        *lo = *hi = p->cap_creates ? p->cap_creates : p->max_sample_cap ? p->max_sample_cap : 1;
}

/* GHC writes RtsFlags.ParFlags.nCapabilities as -pj's initial_capabilities
 * (rts/ProfilerReportJson.c). Only the threaded RTS sets it (to 1, or
 * +RTS -N's count: rts/RtsFlags.c), so the non-threaded RTS writes 0; and
 * setNumCapabilities does not change it. Here: per run (OS-process
 * capset), 0 when its RTS_IDENTIFIER names a non-threaded RTS, else the
 * capabilities assigned to it before its PROGRAM_ARGS (the RTS assigns the
 * -N capabilities at its start and logs its arguments after them); the
 * most of any run. Without capset events: 0 for a non-threaded RTS, else
 * the processors counted. */
uint32_t prof_run_initial_caps(const prof_profile *p)
{
    uint32_t most = 0;
    int any = 0;
    for (size_t i = 0; i < PROF_CAPSETS; i++) {
        if (!p->capset_osproc[i] || !p->capset_caps[i])
            continue;
        any = 1;
        uint32_t v = p->capset_rts[i] == PROF_RTS_NONTHREADED ? 0 : p->capset_start[i];
        if (v > most)
            most = v;
    }
    if (any)
        return most;
    if (prof_rts_kind(p->info.rts_version) == PROF_RTS_NONTHREADED)
        return 0;
    uint32_t lo, hi;
    prof_run_caps(p, &lo, &hi);
    return hi;
}

int prof_keep_args(prof_profile *p, el_str args, int new_run)
{
    /* NUL-separated, NUL-terminated list */
    uint32_t n = 0;
    for (uint32_t i = 0; i < args.len; i++)
        if (args.ptr[i] == '\0')
            n++;
    if (args.len && args.ptr[args.len - 1] != '\0')
        n++;
    const char **v = calloc(n ? 3 * (size_t)n : 1, sizeof *v);
    if (!v)
        return -1;
    uint32_t argc = 0;
    for (uint32_t i = 0; i < args.len;) {
        const char *a = args.ptr + i;
        const char *nul = memchr(a, '\0', args.len - i);
        uint32_t len = nul ? (uint32_t)(nul - a) : args.len - i;
        if (!(v[argc++] = prof_pool_add(p, a, len))) {
            free(v);
            return -1;
        }
        i += len + 1;
    }
    /* GHC's report: program = basename of argv[0]; RTS options are the
     * words between +RTS and -RTS (or to the end); the rest are the
     * program's. Slots: [0, argc) argv, then rts args, then args. */
    const char **rts = v + argc, **prog = v + 2 * argc;
    uint32_t nr = 0, np = 0;
    int in_rts = 0;
    for (uint32_t i = 1; i < argc; i++) {
        if (strcmp(v[i], "+RTS") == 0) { in_rts = 1; continue; }
        if (strcmp(v[i], "-RTS") == 0) { in_rts = 0; continue; }
        if (!in_rts && strcmp(v[i], "--RTS") == 0) {
            for (i++; i < argc; i++)
                prog[np++] = v[i];
            break;
        }
        if (in_rts)
            rts[nr++] = v[i];
        else
            prog[np++] = v[i];
    }
    free(p->argv_store);
    p->argv_store = v;
    p->info.argv = v;
    p->info.argc = argc;
    p->info.rts_args = rts;
    p->info.num_rts_args = nr;
    p->info.args = prog;
    p->info.num_args = np;
    if (argc) {
        const char *slash = strrchr(v[0], '/');
        p->info.program = slash ? slash + 1 : v[0];
        p->seen |= PROF_SEEN_PROGRAM;
    }
    if (new_run)
        return add_run_cmd(p, argc ? p->info.program : "", rts, nr, prog, np);
    return 0;
}

ev_status prof_add_event(prof_profile *p, const el_event *ev)
{
    if (p->status)
        return p->status;
    if (ev->time < p->info.first_time)
        p->info.first_time = ev->time;
    if (ev->time > p->info.last_time)
        p->info.last_time = ev->time;
    if (!ev->decoded)
        return EV_OK;

    int rc = 0;
    switch (ev->type) {
    case EL_PROF_SAMPLE_COST_CENTRE:
        p->info.all_samples++;
        if (ev->u.prof_sample.cap + 1 > p->max_sample_cap)
            p->max_sample_cap = ev->u.prof_sample.cap + 1;
        if (ev->outside) {     /* outside the selection (the driver's stage) */
            p->info.filtered_ticks++;
            break;
        }
        rc = p->runs && prof_runs_translating(p) ? prof_runs_sample(p, ev)
                                                  : prof_tree_add_sample(p, ev);
        break;
    case EL_HEAP_PROF_COST_CENTRE:
        rc = p->runs && prof_runs_translating(p) ? prof_runs_define(p, ev)
                                                  : prof_ccs_define(p, ev);
        break;
    case EL_PROF_BEGIN:
        if (!(p->seen & PROF_SEEN_INTERVAL)) {
            p->info.has_prof_begin = 1;
            p->info.prof_begin_time = ev->time;
        }
        p->info.interval_ns = ev->u.prof_begin.interval_ns;
        p->seen |= PROF_SEEN_INTERVAL;
        break;
    case EL_CAP_CREATE:
        p->cap_creates++;
        break;
    case EL_CAPSET_CREATE:
        if (ev->u.capset_create.capset < PROF_CAPSETS)
            p->capset_osproc[ev->u.capset_create.capset] = ev->u.capset_create.type == 2;
        break;
    case EL_CAPSET_ASSIGN_CAP:
        if (ev->u.capset_cap.capset < PROF_CAPSETS &&
            p->capset_caps[ev->u.capset_cap.capset] < UINT16_MAX) {
            uint32_t c = ev->u.capset_cap.capset;
            p->capset_caps[c]++;
            if (!p->capset_args[c])
                p->capset_start[c]++;
        }
        break;
    case EL_PROGRAM_ARGS:
        if (ev->u.text.capset < PROF_CAPSETS)
            p->capset_args[ev->u.text.capset] = 1;
        rc = prof_keep_args(p, ev->u.text.str, 1);
        break;
    case EL_RTS_IDENTIFIER:
        p->info.rts_version = prof_pool_add(p, ev->u.text.str.ptr, ev->u.text.str.len);
        rc = p->info.rts_version ? 0 : -1;
        if (rc == 0 && ev->u.text.capset < PROF_CAPSETS)
            p->capset_rts[ev->u.text.capset] = (uint8_t)prof_rts_kind(p->info.rts_version);
        p->seen |= PROF_SEEN_RTS;
        break;
    case EL_WALL_CLOCK_TIME:
        if (!p->info.has_wall_clock) {
            p->info.has_wall_clock = 1;
            p->info.wall_sec = ev->u.wall_clock.sec;
            p->info.wall_nsec = ev->u.wall_clock.nsec;
            p->info.wall_time_ns = ev->time;
        }
        break;
    default:
        break;
    }
    if (rc != 0)
        prof_fail(p);
    return p->status;
}

void prof_set_time_span(prof_profile *p, uint64_t first, uint64_t last)
{
    if (first < p->info.first_time)
        p->info.first_time = first;
    if (last > p->info.last_time)
        p->info.last_time = last;
}

/* ---- analysis ops ------------------------------------------------------- */

static const uint16_t prof_types[] = {
    EL_PROF_SAMPLE_COST_CENTRE, EL_HEAP_PROF_COST_CENTRE, EL_PROF_BEGIN, EL_CAP_CREATE,
    EL_PROGRAM_ARGS, EL_RTS_IDENTIFIER, EL_WALL_CLOCK_TIME, EL_CAPSET_CREATE,
    EL_CAPSET_ASSIGN_CAP,
};

static int prof_op_event(void *self, const el_event *ev, const ev_stream *s)
{
    prof_profile *p = self;
    if (s->budget != p->mem.budget && s->budget)
        prof_set_budget(p, s->budget);
    return prof_add_event(p, ev) != 0;
}

static void prof_op_end(void *self, const ev_stream *s)
{
    ((prof_profile *)self)->sel = s->select;
    if (s->read.has_time_span)
        prof_set_time_span(self, s->read.first_time, s->read.last_time);
}

static void *prof_op_snapshot(void *self) { return prof_snapshot(self); }
static void prof_op_release(void *snap) { prof_result_destroy(snap); }
static void *prof_op_fork(void *self) { return prof_fork(self); }
static int prof_op_merge(void *self, void *part) { return prof_merge(self, part) != EV_OK; }
static void prof_op_drop(void *part) { prof_destroy(part); }

static int prof_op_holds(const void *self, char *buf, size_t size)
{
    prof_counts c;
    prof_count(self, &c);
    snprintf(buf, size, "the time profile holds %llu cost centres, %llu distinct stacks, "
             "%llu tree nodes in %.1f MiB", (unsigned long long)c.ccs,
             (unsigned long long)c.stacks, (unsigned long long)c.nodes,
             (double)c.bytes / (1 << 20));
    /* without samples (one of several analyses, as in top): noise */
    return c.ccs || c.stacks || c.bytes >= (1u << 20);
}

const ev_analysis_ops prof_analysis_ops = {
    .name = "time profile",
    .types = prof_types,
    .num_types = sizeof prof_types / sizeof prof_types[0],
    .event = prof_op_event,
    .end = prof_op_end,
    .snapshot = prof_op_snapshot,
    .release = prof_op_release,
    .fork = prof_op_fork,
    .merge = prof_op_merge,
    .drop = prof_op_drop,
    .holds = prof_op_holds,
    .bounded_by = "report --max-depth N bounds the tree and --threshold PCT the report",
};

ev_status prof_status(const prof_profile *p) { return p->status; }

