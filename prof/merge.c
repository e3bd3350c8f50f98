/* Profiles that come together: the parallel read's partials (prof_fork,
 * prof_merge: a later stretch of the same log folded in as if read after)
 * and several logs into one profile (prof_begin_log: their cost-centre
 * ids translated by name). */
#include "prof/internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- partial profiles (the parallel read) ------------------------------ */

prof_profile *prof_fork(const prof_profile *p)
{
    if (p->status || p->runs)
        return NULL;        /* several logs translate ids: read sequentially */
    prof_profile *q = prof_create(&p->filter);
    if (q) {
        q->sc_cap = SC_MAX_BYTES / 4;
        q->sel = p->sel;
    }
    if (q && p->mem.budget) {
        prof_set_budget(q, p->mem.budget);  /* the partials share the read's budget */
        if (q->status) {
            prof_destroy(q);
            return NULL;
        }
    }
    return q;
}

/* A profile that has taken no event at all. */
static int pristine(const prof_profile *p)
{
    return !p->status && p->info.first_time == UINT64_MAX && p->num_nodes == 1 &&
           p->nodes[0].ticks == 0 && p->num_ccs == 0 && p->cut_node == PROF_NONE &&
           !p->argv_store && !p->seen && !p->info.has_wall_clock && !p->cap_creates &&
           !p->runs_seen &&
           !p->max_sample_cap && !p->info.all_samples && !p->info.filtered_ticks;
}

/* q's last program arguments as the event held them (NUL-terminated
 * words), taken as keep_args takes an event's. */
static int merge_args(prof_profile *p, const prof_profile *q)
{
    size_t len = 0;
    for (uint32_t i = 0; i < q->info.argc; i++)
        len += strlen(q->info.argv[i]) + 1;
    char *buf = malloc(len ? len : 1), *at = buf;
    if (!buf)
        return -1;
    for (uint32_t i = 0; i < q->info.argc; i++) {
        size_t n = strlen(q->info.argv[i]) + 1;
        memcpy(at, q->info.argv[i], n);
        at += n;
    }
    int rc = prof_keep_args(p, (el_str){ buf, (uint32_t)len }, 0);
    free(buf);
    return rc;
}

ev_status prof_merge(prof_profile *p, prof_profile *q)
{
    if (p->status)
        return p->status;
    prof_sc_flush(p);
    prof_sc_flush(q);
    if (q->status || prof_runs_translating(p) || q->runs) {
        /* q's own failure, or profiles of several logs (never forked) */
        p->status = q->status ? q->status : EV_ERR_USAGE;
        return p->status;
    }
    if (pristine(p)) {
        /* the first stretch: p takes q's aggregate whole (q keeps p's
         * empty one); the options and the several-logs state stay p's */
        prof_profile t = *p;
        *p = *q;
        *q = t;
        prof_filter qf = p->filter;
        p->filter = t.filter;
        q->filter = qf;
        const ev_select *qs = p->sel;
        p->sel = t.sel;
        q->sel = qs;
        unsigned qj = p->jobs;
        p->jobs = t.jobs;
        q->jobs = qj;
        struct prof_runs *qr = p->runs;
        p->runs = t.runs;
        q->runs = qr;
        return 0;
    }
    /* q's stretch is read; p's caches only what came before it: the
     * merged tree grows next to neither */
    prof_sc_drop(q);
    prof_sc_drop(p);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < q->num_ccs; i++)
        rc = prof_ccs_merge(p, &q->ccs[i]);
    if (rc == 0)
        rc = prof_tree_merge(p, q);
    if (rc == 0 && q->argv_store)
        rc = merge_args(p, q);
    /* q's runs come after p's; a capset's capabilities may be assigned in
     * both stretches */
    for (uint32_t i = 0; rc == 0 && i < q->num_run_cmds; i++) {
        uint32_t before = p->runs_seen;
        if (p->num_run_cmds < PROF_MAX_RUN_CMDS) {
            if (!p->run_cmds && !(p->run_cmds = calloc(PROF_MAX_RUN_CMDS, sizeof *p->run_cmds)))
                rc = -1;
            else if (!(p->run_cmds[p->num_run_cmds] =
                           prof_pool_add(p, q->run_cmds[i], (uint32_t)strlen(q->run_cmds[i]))))
                rc = -1;
            else
                p->num_run_cmds++;
        }
        p->runs_seen = before;
    }
    p->runs_seen += q->runs_seen;
    for (size_t i = 0; i < PROF_CAPSETS; i++) {
        p->capset_osproc[i] |= q->capset_osproc[i];
        uint32_t c = (uint32_t)p->capset_caps[i] + q->capset_caps[i];
        p->capset_caps[i] = c > UINT16_MAX ? UINT16_MAX : (uint16_t)c;
        /* q's assignments come before the capset's PROGRAM_ARGS only if
         * p's stretch did not hold it */
        if (!p->capset_args[i]) {
            c = (uint32_t)p->capset_start[i] + q->capset_start[i];
            p->capset_start[i] = c > UINT16_MAX ? UINT16_MAX : (uint16_t)c;
        }
        p->capset_args[i] |= q->capset_args[i];
        if (q->capset_rts[i])
            p->capset_rts[i] = q->capset_rts[i];
    }
    if (rc == 0 && (q->seen & PROF_SEEN_PROGRAM)) {
        p->info.program = prof_pool_add(p, q->info.program,
                                         (uint32_t)strlen(q->info.program));
        p->seen |= PROF_SEEN_PROGRAM;
        rc = p->info.program ? 0 : -1;
    }
    if (rc == 0 && (q->seen & PROF_SEEN_RTS)) {
        p->info.rts_version = prof_pool_add(p, q->info.rts_version,
                                             (uint32_t)strlen(q->info.rts_version));
        p->seen |= PROF_SEEN_RTS;
        rc = p->info.rts_version ? 0 : -1;
    }
    if (rc != 0) {
        prof_fail(p);
        return p->status;
    }
    if (q->seen & PROF_SEEN_INTERVAL) {
        if (!(p->seen & PROF_SEEN_INTERVAL)) {
            p->info.has_prof_begin = 1;
            p->info.prof_begin_time = q->info.prof_begin_time;
        }
        p->info.interval_ns = q->info.interval_ns;
        p->seen |= PROF_SEEN_INTERVAL;
    }
    if (!p->info.has_wall_clock && q->info.has_wall_clock) {
        p->info.has_wall_clock = 1;
        p->info.wall_sec = q->info.wall_sec;
        p->info.wall_nsec = q->info.wall_nsec;
        p->info.wall_time_ns = q->info.wall_time_ns;
    }
    if (q->info.first_time < p->info.first_time)
        p->info.first_time = q->info.first_time;
    if (q->info.last_time > p->info.last_time)
        p->info.last_time = q->info.last_time;
    p->info.all_samples += q->info.all_samples;
    p->info.filtered_ticks += q->info.filtered_ticks;
    p->info.cut_samples += q->info.cut_samples;
    p->cap_creates += q->cap_creates;
    if (q->max_sample_cap > p->max_sample_cap)
        p->max_sample_cap = q->max_sample_cap;
    return 0;
}

/* ---- several logs ----------------------------------------------------- */

/* Logs of several runs (a fleet, a test suite) aggregate into one tree.
 * Their cost-centre ids differ between builds, so from the second log on
 * each 161 definition is matched by (module, label, source location)
 * against the cost centres already known, and the log's own ids are
 * translated through a map that each log starts afresh. The first log
 * keeps GHC's ids (so one log gives what it always gave); later logs'
 * new cost centres, and the ids their samples name without a definition
 * in that log (a placeholder per log), get fresh ids above every id seen. */

struct prof_runs {
    uint32_t num_logs;
    uint32_t next_id;           /* the next fresh id */
    uint32_t max_caps;          /* the earlier logs' runs' capabilities, the most */
    uint32_t min_caps;          /* ... the fewest (0: no earlier log) */
    uint32_t max_initial;       /* ... GHC's initial_capabilities, the most */
    int has_first_wall;         /* the first log's wall clock */
    uint64_t first_wall_sec;
    uint32_t runs_done;         /* the earlier logs' runs */
    uint64_t span_sum;          /* the earlier logs' time spans, summed */
    tx_idmap map;               /* this log: GHC id -> id in the tree */
    uint32_t *names;            /* cost-centre index + 1, by (module,label,src); 0 empty */
    size_t names_size, names_num;
    uint32_t stack[EL_MAX_STACK];
};

void prof_runs_free(struct prof_runs *r)
{
    if (!r)
        return;
    tx_idmap_free(&r->map);
    free(r->names);
    free(r);
}

int prof_runs_translating(const prof_profile *p)
{
    return p->runs && p->runs->num_logs > 1;
}

static uint64_t name_hash(const char *module, const char *label, const char *src)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    const char *parts[3] = { module, label, src };
    for (int k = 0; k < 3; k++) {
        for (const char *c = parts[k]; c && *c; c++)
            h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
        h = hash_mix64(h ^ (uint64_t)(k + 1));
    }
    return h;
}

static int same_name(const prof_cc *cc, const char *module, const char *label, const char *src)
{
    return strcmp(cc->module, module) == 0 && strcmp(cc->label, label) == 0 &&
           strcmp(cc->srcloc, src) == 0;
}

/* The index of the defined cost centre named so, or PROF_NONE. */
static uint32_t names_find(const prof_profile *p, const char *module, const char *label,
                           const char *src)
{
    const struct prof_runs *r = p->runs;
    if (!r->names_size)
        return PROF_NONE;
    for (size_t k = name_hash(module, label, src) & (r->names_size - 1);;
         k = (k + 1) & (r->names_size - 1)) {
        uint32_t i = r->names[k];
        if (!i)
            return PROF_NONE;
        if (same_name(&p->ccs[i - 1], module, label, src))
            return i - 1;
    }
}

static int names_add(prof_profile *p, uint32_t index)
{
    struct prof_runs *r = p->runs;
    if ((r->names_num + 1) * 2 > r->names_size) {
        size_t n = r->names_size ? r->names_size * 2 : 1024;
        uint32_t *t = calloc(n, sizeof *t);
        if (!t)
            return -1;
        uint32_t *old = r->names;
        size_t old_size = r->names_size;
        r->names = t;
        r->names_size = n;
        r->names_num = 0;
        for (size_t k = 0; k < old_size; k++)
            if (old[k])
                (void)names_add(p, old[k] - 1);     /* fits: no growth */
        free(old);
    }
    const prof_cc *cc = &p->ccs[index];
    size_t k = name_hash(cc->module, cc->label, cc->srcloc) & (r->names_size - 1);
    while (r->names[k])
        k = (k + 1) & (r->names_size - 1);
    r->names[k] = index + 1;
    r->names_num++;
    return 0;
}

/* The current log's time span inside the selection's hull. */
static uint64_t log_span(const prof_profile *p)
{
    if (p->info.first_time > p->info.last_time)
        return 0;
    ev_span w = ev_select_hull(p->sel);
    uint64_t from = p->info.first_time > w.from_ns ? p->info.first_time : w.from_ns;
    uint64_t to = p->info.last_time < w.to_ns ? p->info.last_time : w.to_ns;
    return to > from ? to - from : 0;
}

ev_status prof_begin_log(prof_profile *p)
{
    if (p->status)
        return p->status;
    if (!p->runs && !(p->runs = calloc(1, sizeof *p->runs))) {
        prof_fail(p);
        return p->status;
    }
    struct prof_runs *r = p->runs;
    if (r->num_logs++ == 0)
        return EV_OK;       /* the first log: GHC's ids as they are */
    uint32_t lo, hi;
    prof_run_caps(p, &lo, &hi);
    if (hi > r->max_caps)
        r->max_caps = hi;
    if (!r->min_caps || lo < r->min_caps)
        r->min_caps = lo;
    uint32_t initial = prof_run_initial_caps(p);
    if (initial > r->max_initial)
        r->max_initial = initial;
    r->runs_done += p->runs_seen ? p->runs_seen : 1;
    p->runs_seen = 0;
    p->cap_creates = 0;
    p->max_sample_cap = 0;
    memset(p->capset_osproc, 0, sizeof p->capset_osproc);
    memset(p->capset_caps, 0, sizeof p->capset_caps);
    memset(p->capset_start, 0, sizeof p->capset_start);
    memset(p->capset_args, 0, sizeof p->capset_args);
    memset(p->capset_rts, 0, sizeof p->capset_rts);
    /* the facts of time are each log's own: its span adds up */
    r->span_sum += log_span(p);
    if (r->num_logs == 2 && p->info.has_wall_clock) {
        r->has_first_wall = 1;
        r->first_wall_sec = p->info.wall_sec;
    }
    p->info.first_time = UINT64_MAX;
    p->info.last_time = 0;
    p->info.has_wall_clock = 0;
    if (r->num_logs == 2) {
        /* fresh ids start above every id the first log used; its defined
         * cost centres are the names the next logs match */
        for (size_t i = 0; i < p->num_ccs; i++) {
            if (p->ccs[i].id >= r->next_id)
                r->next_id = p->ccs[i].id + 1;
            if (p->ccs[i].defined && names_find(p, p->ccs[i].module, p->ccs[i].label,
                                                p->ccs[i].srcloc) == PROF_NONE &&
                names_add(p, (uint32_t)i) != 0) {
                prof_fail(p);
                return p->status;
            }
        }
        for (size_t i = 1; i < p->num_nodes; i++)
            if (p->nodes[i].cc >= r->next_id)
                r->next_id = p->nodes[i].cc + 1;
    }
    tx_idmap_clear(&r->map);
    return EV_OK;
}

int prof_runs_define(prof_profile *p, const el_event *ev)
{
    struct prof_runs *r = p->runs;
    el_event e = *ev;
    char *s[3];
    const el_str *f[3] = { &ev->u.cost_centre.module, &ev->u.cost_centre.label,
                           &ev->u.cost_centre.srcloc };
    for (int k = 0; k < 3; k++)
        s[k] = (char *)prof_pool_add(p, f[k]->ptr, f[k]->len);
    if (!s[0] || !s[1] || !s[2])
        return -1;
    uint32_t i = names_find(p, s[0], s[1], s[2]);
    if (i != PROF_NONE)
        return tx_idmap_put(&r->map, ev->u.cost_centre.id, p->ccs[i].id, &p->mem);
    if (r->next_id == PROF_NONE)
        return -1;
    e.u.cost_centre.id = r->next_id++;
    if (prof_ccs_define(p, &e) != 0 || names_add(p, (uint32_t)(p->num_ccs - 1)) != 0)
        return -1;
    return tx_idmap_put(&r->map, ev->u.cost_centre.id, e.u.cost_centre.id, &p->mem);
}

int prof_runs_sample(prof_profile *p, const el_event *ev)
{
    struct prof_runs *r = p->runs;
    el_event e = *ev;
    for (unsigned j = 0; j < ev->u.prof_sample.depth; j++) {
        uint32_t id = ev->u.prof_sample.stack[j];
        uint32_t global = tx_idmap_get(&r->map, id);
        if (global != TX_IDMAP_NONE) {
            r->stack[j] = global;
            continue;
        }
        /* never defined in this log: a placeholder of its own */
        if (r->next_id == PROF_NONE || tx_idmap_put(&r->map, id, r->next_id, &p->mem) != 0)
            return -1;
        r->stack[j] = r->next_id++;
    }
    e.u.prof_sample.stack = r->stack;
    return prof_tree_add_sample(p, &e);
}

void prof_log_ids(const prof_profile *p, const uint32_t *ids, unsigned depth, uint32_t *out)
{
    int translating = prof_runs_translating(p);
    for (unsigned j = 0; j < depth; j++) {
        uint32_t global = translating ? tx_idmap_get(&p->runs->map, ids[j]) : TX_IDMAP_NONE;
        out[j] = global != TX_IDMAP_NONE ? global : ids[j];
    }
}

/* A snapshot's facts of several logs: capabilities the most of any log,
 * the spans summed. */
void prof_runs_info(const prof_profile *p, prof_info *in)
{
    in->num_logs = p->runs && p->runs->num_logs ? p->runs->num_logs : 1;
    in->span_sum_ns = log_span(p);
    in->num_runs = p->runs_seen ? p->runs_seen : 1;
    in->has_first_wall = in->has_wall_clock;
    in->first_wall_sec = in->wall_sec;
    if (!p->runs)
        return;
    if (p->runs->num_logs > 1) {
        in->has_first_wall = p->runs->has_first_wall;
        in->first_wall_sec = p->runs->first_wall_sec;
    }
    in->span_sum_ns += p->runs->span_sum;
    in->num_runs += p->runs->runs_done;
    if (p->runs->max_caps > in->capabilities)
        in->capabilities = p->runs->max_caps;
    if (p->runs->min_caps && p->runs->min_caps < in->min_capabilities)
        in->min_capabilities = p->runs->min_caps;
    if (p->runs->max_initial > in->initial_capabilities)
        in->initial_capabilities = p->runs->max_initial;
}

