/* The time profile's insides, shared by its files (private: not in
 * include/). One job per file:
 *
 *   profile.c   the aggregate's life (create, destroy, budget), the
 *               events it takes (prof_add_event) and the run's facts
 *               (program arguments, capabilities), the driver's ops
 *   tree.c      the cost-centre-stack tree: nodes, the child table, the
 *               stack cache and the walk of a sample down the tree (the
 *               hot path), and the merge of a partial's tree
 *   ccs.c       cost centres: GHC's id -> the profile's table
 *   merge.c     the parallel read's fork and merge, and several logs
 *               into one profile (their ids translated)
 *   snapshot.c  the result: a copy of the tree with names resolved,
 *               inherited ticks and children ordered (prof_snapshot)
 *   focus.c     --focus/--ignore on the result's names
 *   result.c    what a result answers: nodes, walks, totals
 *
 * Functions shared between the files carry the module's prefix and no
 * EVPROF_API: they are not exported from the shared library. */
#ifndef EVPROF_PROF_INTERNAL_H
#define EVPROF_PROF_INTERNAL_H

#include <stdint.h>
#include <stddef.h>

#include "evprof/prof.h"
#include "util/account.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/idmap.h"
#include "util/strpool.h"

/* A slot of the child table holds its key, so a probe does not have to
 * visit the node (a cache miss per probe on big trees). node + 1; 0 empty.
 * Not util/htab.h (whose slot holds a hash and an index, and whose probe
 * visits the caller's item to compare keys): this is the measured hot
 * path (tree.c).
 *
 * A node's slot is placed by the hash of its path of cost-centre ids from
 * the root (hash_path_step), not by (parent, cc): a new stack's ids give
 * the slots of all its levels before any of them is read, so their cache
 * misses are fetched together rather than one after the other (the probe
 * of level j needs the node found at level j - 1 only to compare). While
 * the profile aggregates, a node keeps the low 32 bits of that hash in its
 * `inherited` field (PROF_NODE_POS), which only a result fills (the
 * snapshot sets it for every node), for growing the table and for merging
 * a partial. */
struct child_slot {
    uint32_t parent, cc, node;
};

#define PROF_NODE_POS(nd) ((nd)->inherited)

/* The path hash of the root and of the synthetic parent of cut stacks. */
#define PATH_ROOT 0x243f6a8885a308d3ull
#define PATH_CUT 0x13198a2e03707344ull

/* The previous sample's path on one capability, outer frame first. */
struct cap_path {
    uint32_t cap;
    uint32_t depth;                 /* 0: nothing to share */
    uint32_t start;                 /* the root or the cut node */
    /* When the previous sample was found in the stack cache its path is
     * the cache entry's (ids, then nodes), not ids[] and path[]. */
    int from_cache;
    uint64_t cache_off;             /* into sc_arena */
    uint32_t ids[EL_MAX_STACK];
    uint32_t path[EL_MAX_STACK + 1];
};

/* Capabilities are numbered from 0; more than this many share slots (the
 * sharing is then only less frequent, never wrong). */
#define CAP_PATHS 64

/* Capsets whose capabilities are counted (ids above: not counted). */
#define PROF_CAPSETS 256

/* The stack cache's cap (tree.c); a partial of the parallel read takes a
 * quarter (merge.c). */
#define SC_MAX_BYTES (64u << 20)

struct sc_entry;
struct prof_runs;

/* Nodes while aggregating: `cc` holds GHC's id; a snapshot maps it to a
 * table index in its own copy. */
struct prof_profile {
    prof_filter filter;
    const ev_select *sel;       /* the read's selection (its hull clips the log's span) */
    ev_status status;           /* EV_OK, or the first error (sticky: prof_status) */

    prof_node *nodes;
    size_t num_nodes, cap_nodes;
    struct child_slot *slots;   /* child table, open addressing */
    size_t num_slots;           /* power of two */
    int slots_stale;            /* nodes a merge added are not in it yet: */
    size_t stale_from;          /* those from this index on */
    uint32_t cut_node;          /* synthetic parent of stacks cut at 255 */

    /* whole stacks seen before -> their leaf node (tree.c, sc_*) */
    struct sc_entry *sc_table;      /* open addressing; hash 0 = empty */
    size_t sc_num, sc_size;
    uint32_t *sc_arena;             /* the stacks' ids, as decoded */
    size_t sc_arena_len, sc_arena_cap;
    int sc_full;                    /* memory cap reached: no more inserts */
    int sc_pending;                 /* some entry has pending samples */
    size_t sc_cap;                  /* SC_MAX_BYTES, less for a partial */
    unsigned jobs;                  /* threads a snapshot may use (prof_set_jobs) */
    uint64_t walks, walks_known;    /* tree walks; of them, stacks seen before */

    struct cap_path *cap_paths;     /* [CAP_PATHS], by capability */
    uint32_t short_stack[EL_MAX_STACK];     /* a stack cut to filter.max_depth */

    prof_cc *ccs;
    size_t num_ccs, cap_ccs;
    tx_idmap cc_ids;            /* GHC's id -> index into ccs */
    strpool strings;

    prof_info info;
    uint32_t cap_creates;
    uint32_t max_sample_cap;
    const char **argv_store;
    struct prof_runs *runs;     /* several logs (prof_begin_log); NULL: one */
    /* The runs of this log (one per PROGRAM_ARGS: a merged log holds
     * several) and their command lines (pool strings), and the processors
     * of each: CAPSET_ASSIGN_CAP counted per OS-process capset. GHC's -pj
     * initial_capabilities of each (prof_run_initial_caps): of those, the
     * ones assigned before the capset's PROGRAM_ARGS (the RTS assigns the
     * -N capabilities at its start, then logs the arguments; a later
     * setNumCapabilities assigns more after them), and whether its
     * RTS_IDENTIFIER names a threaded RTS. */
    uint32_t runs_seen;
    const char **run_cmds;          /* [PROF_MAX_RUN_CMDS], or NULL */
    uint32_t num_run_cmds;
    uint8_t capset_osproc[PROF_CAPSETS];
    uint16_t capset_caps[PROF_CAPSETS];
    uint16_t capset_start[PROF_CAPSETS];    /* assigned before its PROGRAM_ARGS */
    uint8_t capset_args[PROF_CAPSETS];      /* its PROGRAM_ARGS was read */
    uint8_t capset_rts[PROF_CAPSETS];       /* PROF_RTS_*: its RTS_IDENTIFIER's */
    unsigned seen;              /* PROF_SEEN_*: facts a merge must carry over */

    /* The memory budget (budget.h) and what this profile has charged to
     * it: every growth of the nodes, child table, stack cache, cost-centre
     * table and strings, so that a read stops at the limit. */
    ev_account mem;             /* a refused charge fails the profile too */
    size_t sc_charged;          /* of mem.charged, the stack cache's */
};

/* Facts whose last event wins: a partial that saw one passes it on. */
enum { PROF_SEEN_INTERVAL = 1, PROF_SEEN_RTS = 2, PROF_SEEN_PROGRAM = 4 };

/* The result of a snapshot: copies of the nodes, cost centres, strings and
 * facts, so that it outlives the profile and the profile goes on. */
struct prof_result {
    prof_filter filter;
    prof_node *nodes;
    size_t num_nodes;
    uint32_t *order;            /* the linked nodes in print order (prof_preorder) */
    size_t num_order;
    prof_cc *ccs;
    size_t num_ccs, cap_ccs;
    prof_info info;
    strpool strings;
    const char **argv_store;
    const char **run_cmds;
};

/* ---- memory budget (profile.c) ---------------------------------------- */

/* Charges bytes about to be allocated; -1 when the budget refuses them. */
static inline int prof_charge(prof_profile *p, size_t bytes)
{
    return ev_account_charge(&p->mem, bytes);
}

static inline void prof_uncharge(prof_profile *p, size_t bytes)
{
    ev_account_release(&p->mem, bytes);
}

/* The profile fails (the first cause stays): EV_ERR_LIMIT when the budget
 * refused a charge, else EV_ERR_NOMEM. */
static inline void prof_fail(prof_profile *p)
{
    if (p->status == EV_OK)
        p->status = p->mem.refused ? EV_ERR_LIMIT : EV_ERR_NOMEM;
}

/* A string kept in the profile's pool, its new chunk charged; NULL when
 * out of memory. */
const char *prof_pool_add(prof_profile *p, const char *str, uint32_t len);

/* ---- the run's facts (profile.c) -------------------------------------- */

/* An event's program arguments (NUL-separated words) kept as the run's
 * command line; new_run: a new run (PROGRAM_ARGS), else a merge's. */
int prof_keep_args(prof_profile *p, el_str args, int new_run);
/* The fewest and most processors of the runs read so far. */
void prof_run_caps(const prof_profile *p, uint32_t *lo, uint32_t *hi);
/* GHC's -pj initial_capabilities of the runs read so far, the most of any
 * (prof_info.initial_capabilities). */
uint32_t prof_run_initial_caps(const prof_profile *p);

/* What an RTS_IDENTIFIER ("GHC-9.6.6 rts_thr_p") says of the RTS:
 * PROF_RTS_THREADED when its flavour (the '_'-separated words after the
 * space) has "thr", PROF_RTS_NONTHREADED when it has a flavour without,
 * PROF_RTS_UNKNOWN (0) for NULL or a string without a flavour
 * (agreement.c). */
enum { PROF_RTS_UNKNOWN, PROF_RTS_NONTHREADED, PROF_RTS_THREADED };
int prof_rts_kind(const char *rts_identifier);

/* ---- the tree (tree.c) ------------------------------------------------- */

/* The child table and the root: 0, or -1 out of memory (prof_create). */
int prof_tree_init(prof_profile *p);
/* A sample's stack into the tree: 0, or -1 out of memory. */
int prof_tree_add_sample(prof_profile *p, const el_event *ev);
/* q's nodes into p's tree (prof_merge): 0, or -1 out of memory. */
int prof_tree_merge(prof_profile *p, const prof_profile *q);
/* The child table freed (a snapshot that takes the tree). */
void prof_tree_drop_slots(prof_profile *p);
/* The cached stacks' pending samples into their nodes' ticks. */
void prof_sc_flush(prof_profile *p);
/* The stack cache freed (it refills from the next samples). */
void prof_sc_drop(prof_profile *p);

/* ---- cost centres (ccs.c) ---------------------------------------------- */

/* A 161 event's definition (the last one of an id wins): 0, or -1 out
 * of memory. */
int prof_ccs_define(prof_profile *p, const el_event *ev);
/* A cost centre defined (again) as a partial's (prof_merge). */
int prof_ccs_merge(prof_profile *p, const prof_cc *qc);
/* The index in the cost-centre table (p's, or the result's that took
 * it) of GHC's id `id`, or TX_IDMAP_NONE. */
static inline uint32_t prof_ccs_index(const prof_profile *p, uint32_t id)
{
    return tx_idmap_get(&p->cc_ids, id);
}
void prof_ccs_free(prof_profile *p);

/* ---- several logs (merge.c) ------------------------------------------- */

void prof_runs_free(struct prof_runs *r);
/* A later log's ids are translated (prof_begin_log was called twice). */
int prof_runs_translating(const prof_profile *p);
int prof_runs_define(prof_profile *p, const el_event *ev);
int prof_runs_sample(prof_profile *p, const el_event *ev);
/* A snapshot's facts of several logs. */
void prof_runs_info(const prof_profile *p, prof_info *in);

/* ---- snapshots (focus.c) ----------------------------------------------- */

/* --focus/--ignore on a result's nodes, the patterns charged to budget
 * while they run: 0, or -1 out of memory (or budget). */
int prof_apply_focus(prof_result *r, ev_budget *budget);

#endif
