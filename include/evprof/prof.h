/* evprof: the time profile, rebuilt from PROF_SAMPLE_COST_CENTRE events.
 *
 * A prof_profile (the aggregate) consumes decoded events (cost-centre
 * definitions 161, samples 167, PROF_BEGIN 168, program arguments,
 * capabilities, wall clock) and aggregates the samples into a
 * cost-centre-stack tree rooted at MAIN. Memory grows with the number of
 * distinct stacks, never with the number of samples.
 *
 * A prof_result (a snapshot) is the finished tree at one moment: names
 * resolved, built-in stacks dropped unless `all`, inherited ticks and
 * children ordered. Taking one copies the aggregate (time and memory in
 * proportion to it, never to the log) and leaves the profile as it was,
 * so events may keep coming: a live view takes one per refresh. A result
 * owns copies of everything it holds and outlives its profile.
 *
 *     prof_profile *p = prof_create(NULL);        // NULL: GHC's -p rules
 *     for each event: prof_add_event(p, ev);      // or attach
 *                                                 // &prof_analysis_ops to a driver
 *     prof_result *r = prof_snapshot(p);
 *     prof_report_text(r, NULL, stdout);
 *     prof_result_destroy(r);
 *     prof_destroy(p);
 */
#ifndef EVPROF_PROF_H
#define EVPROF_PROF_H

#include <stdint.h>
#include <stdio.h>

#include "evprof/format.h"
#include "evprof/driver.h"
#include "evprof/eventlog.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which samples count. The time windows and the capability are the
 * driver's selection (ev_driver_opts.select): a sample outside it is not
 * aggregated and counts as filtered (prof_info.filtered_ticks). */
typedef struct prof_filter {
    int all;                /* count GC/SYSTEM/IDLE/OVERHEAD_of/DONT_CARE (GHC -pa/-pj) */
    /* patterns (evprof/pattern.h: POSIX extended regular expressions,
     * bounded) on "Module.label" (as pprof's -focus and -ignore): keep only the stacks through a matching cost centre, drop
     * the stacks through one. Applied by each snapshot (dropped ticks count
     * as filtered_ticks; stacks left without ticks are unlinked). Borrowed:
     * they must outlive the profile and its results. Check them first with
     * prof_filter_check. NULL: none. */
    const char *focus;
    const char *ignore;
    /* > 0: the aggregate keeps only what a report with this --max-depth
     * shows (prof_report_opts.max_depth): a stack deeper than max_depth + 1
     * frames below MAIN keeps its outer max_depth + 1 frames and its
     * innermost one, the frames between dropped while aggregating. The
     * tree then has at most max_depth + 2 levels; the report of the same
     * max_depth (text and JSON: rows, ticks, inherited ticks, the summary
     * of individual ticks per cost centre, the count of hidden subtrees)
     * is the same as from the whole tree. Ignored under focus/ignore
     * (which look at every frame). Folded stacks, graphs and other
     * depths need 0 (the default). */
    uint32_t max_depth;
} prof_filter;

EVPROF_API void prof_filter_init(prof_filter *f);   /* everything, GHC -p rules */

/* EV_OK, or EV_ERR_PATTERN when focus or ignore is refused
 * (ev_pattern_compile: a syntax error or a bound passed; EV_ERR_NOMEM when
 * compiling it ran out of memory), with err's message "'PATTERN': why"
 * (err may be NULL). */
EVPROF_API ev_status prof_filter_check(const prof_filter *f, ev_error *err);

typedef struct prof_profile prof_profile;
typedef struct prof_result prof_result;

/* A cost centre. Strings are owned by the profile, NUL-terminated. */
typedef struct prof_cc {
    uint32_t id;            /* GHC's cost-centre id (the -pj "id") */
    const char *label;
    const char *module;
    const char *srcloc;
    uint8_t is_caf;
    uint8_t builtin;        /* one of GHC's five ignored built-ins */
    uint8_t defined;        /* 0: a sample named it but no 161 defined it */
    uint8_t synthetic;      /* evprof's own frame (MAIN stand-in, cut marker) */
} prof_cc;

/* A node of the cost-centre-stack tree. Index 0 is MAIN. */
#define PROF_NONE UINT32_MAX
typedef struct prof_node {
    uint32_t cc;            /* index into the cost-centre table */
    uint32_t parent;        /* PROF_NONE for the root */
    uint32_t first_child;   /* children ordered in a snapshot (see docs) */
    uint32_t next_sibling;
    uint64_t ticks;         /* samples whose stack is exactly this path */
    uint64_t inherited;     /* ticks of this node and its descendants */
    uint32_t depth;         /* MAIN is 0 */
} prof_node;

/* 1 when a cost centre so defined is one of GHC's five built-ins (GC/GC,
 * SYSTEM/SYSTEM, IDLE/IDLE, OVERHEAD_of/PROFILING, DONT_CARE/MAIN, at
 * `<built-in>`): a sample whose stack is that one frame is not counted
 * without `all` (GHC's -p). */
EVPROF_API int prof_cc_builtin(const char *label, const char *module, const char *src);

/* NULL filter: everything, GHC's -p rules. NULL when out of memory. */
EVPROF_API prof_profile *prof_create(const prof_filter *filter);
EVPROF_API void prof_destroy(prof_profile *p);      /* accepts NULL */

/* Consume one event. Returns EV_OK, or the profile's error: EV_ERR_NOMEM
 * (an allocation failed), EV_ERR_LIMIT (the memory budget refused a
 * charge), EV_ERR_FINISHED (after prof_snapshot_take). The first error
 * sticks: prof_status says it, every later event returns it, and a
 * failed profile gives no snapshot. */
EVPROF_API ev_status prof_add_event(prof_profile *p, const el_event *ev);
EVPROF_API ev_status prof_status(const prof_profile *p);


/* The memory budget the profile charges as it grows (budget.h; borrowed,
 * it must outlive the profile; NULL: none). What the profile holds is
 * charged at once. A charge the budget refuses fails the event
 * (EV_ERR_LIMIT) and sets over_budget in prof_count. Attached to a driver
 * the profile takes the read's budget (ev_stream.budget) by itself. */
EVPROF_API void prof_set_budget(prof_profile *p, ev_budget *b);

/* The threads a snapshot of p may use (default 1; 0 counts as 1): the
 * same result for every number. */
EVPROF_API void prof_set_jobs(prof_profile *p, unsigned jobs);

/* What the aggregate holds: for the message of a read stopped at the
 * memory limit. */
typedef struct prof_counts {
    uint64_t ccs;           /* cost centres defined (or named) */
    uint64_t stacks;        /* distinct stacks with ticks */
    uint64_t nodes;         /* tree nodes (MAIN and the cut marker included) */
    uint64_t bytes;         /* charged to the budget */
    int over_budget;        /* a charge was refused */
    uint64_t samples;       /* 167 events taken, in the selection or not
                               (prof_info.all_samples of a snapshot) */
} prof_counts;
EVPROF_API void prof_count(const prof_profile *p, prof_counts *c);

/* Several logs into one profile (runs of one program: a fleet, a test
 * suite): call before each log's events. Cost centres are matched by
 * module, label and source location, since ids differ between builds: the
 * first log keeps GHC's ids, each later log's ids are translated through a
 * map of its own (an id that log's samples name but never define gets a
 * placeholder of that log). Ticks add up; capabilities are the most of any
 * log; the facts of one run (command line, date, first and last times)
 * are the last log's, its span sums in span_sum_ns. Without this
 * call, one log as before. Returns EV_OK, or the profile's error
 * (sticky, as prof_add_event's). */
EVPROF_API ev_status prof_begin_log(prof_profile *p);
/* The ids of the current log as the profile's tree holds them (after the
 * profile has taken the sample that names them; unchanged for one log),
 * for a consumer beside the profile that keeps raw stacks. */
EVPROF_API void prof_log_ids(const prof_profile *p, const uint32_t *ids, unsigned depth,
                             uint32_t *out);

/* The parallel read (driver.h: fork, merge, drop). prof_fork: a new empty
 * profile with p's filter, or NULL (out of memory, or p aggregates
 * several logs: prof_begin_log). prof_merge: folds q, the profile of a later stretch of
 * the same log, into p as if p had read q's events after its own: the
 * snapshot of the result is the one sequential read's, byte for byte
 * (nodes in first-appearance order, cost centres in first-definition
 * order, last definition wins). q is left for prof_destroy only. Returns
 * EV_OK, or p's error then (sticky): out of memory or over the budget,
 * q's own error, EV_ERR_USAGE for profiles of several logs. */
EVPROF_API prof_profile *prof_fork(const prof_profile *p);
EVPROF_API ev_status prof_merge(prof_profile *p, prof_profile *q);

/* The same as an analysis of the driver (driver.h); its snapshot is a
 * prof_result. It sets the time span at the end of the read. Mergeable. */
EVPROF_API extern const ev_analysis_ops prof_analysis_ops;

/* The log's time span when the consumer was not handed every event
 * (el_decoder_only_selected): the report's end date comes from it. */
EVPROF_API void prof_set_time_span(prof_profile *p, uint64_t first, uint64_t last);

/* The current result (see above): a new object, NULL when out of memory
 * or when the profile has failed. The profile is unchanged. */
EVPROF_API prof_result *prof_snapshot(const prof_profile *p);
/* The same with the filter's `all` chosen here: GHC's built-in stacks are
 * only dropped when the snapshot is taken, so one aggregate gives both
 * the -p report (all = 0) and the -pj JSON (all = 1). */
EVPROF_API prof_result *prof_snapshot_all(const prof_profile *p, int all);
/* The last snapshot: the tree moves into the result instead of being
 * copied (peak memory: the tree once). p takes no more events and can
 * only be destroyed (prof_status is EV_ERR_FINISHED). */
EVPROF_API prof_result *prof_snapshot_take(prof_profile *p, int all);
EVPROF_API void prof_result_destroy(prof_result *r);   /* accepts NULL */

/* ---- results ------------------------------------------------------------ */

EVPROF_API size_t prof_num_nodes(const prof_result *r);
/* NULL past the end */
EVPROF_API const prof_node *prof_node_at(const prof_result *r, uint32_t i);
/* The same nodes as one array of prof_num_nodes, in table order
 * (prof_node_at(r, i) is &prof_nodes(r)[i]): for loops over every node. */
EVPROF_API const prof_node *prof_nodes(const prof_result *r);
EVPROF_API size_t prof_num_ccs(const prof_result *r);
/* NULL past the end */
EVPROF_API const prof_cc *prof_cc_at(const prof_result *r, uint32_t i);

#define PROF_MAX_RUN_CMDS 64
typedef struct prof_info {
    uint64_t total_ticks;       /* counted ticks (GHC's "N ticks") */
    uint64_t all_samples;       /* every 167 event seen, before any filter */
    uint64_t ignored_ticks;     /* built-in stacks dropped (without --all) */
    uint64_t filtered_ticks;    /* outside the window or capability, or dropped by
                                   focus/ignore */
    uint64_t interval_ns;       /* from PROF_BEGIN; 0 if absent */
    int has_prof_begin;         /* a PROF_BEGIN (168) was read */
    uint64_t prof_begin_time;   /* the first one's time (ns) */
    uint32_t capabilities;      /* processors, as GHC counts them */
    uint64_t undefined_ccs;     /* ids named by samples but never defined */
    uint64_t cut_samples;       /* samples whose stack was cut at 255 frames */
    uint64_t first_time, last_time;   /* event timestamps seen (ns) */
    int has_wall_clock;
    uint64_t wall_sec;          /* wall clock at first_time... see wall_ns */
    uint32_t wall_nsec;
    uint64_t wall_time_ns;      /* the event time at which wall_sec was taken */
    const char *program;        /* basename of argv[0], or "" */
    const char *const *args;    /* program arguments (argv[1..] minus RTS ones) */
    uint32_t num_args;
    const char *const *rts_args;/* between +RTS and -RTS */
    uint32_t num_rts_args;
    const char *const *argv;    /* the whole command line as logged */
    uint32_t argc;
    const char *rts_version;
    uint32_t num_logs;          /* logs aggregated (prof_begin_log); 1 for one */
    /* The runs summed: one per PROGRAM_ARGS (a log of `evprof merge` holds
     * one per log merged), at least one per log. Their command lines as
     * the report's header shows them (program +RTS ... -RTS args), in log
     * order, at most PROF_MAX_RUN_CMDS of them. `capabilities` is then the
     * most processors of any run (CAPSET_ASSIGN_CAP per OS-process capset,
     * else CAP_CREATE), min_capabilities the fewest. */
    uint32_t num_runs;
    uint32_t min_capabilities;
    /* the first run's wall clock (the first log's first WALL_CLOCK_TIME):
     * the date a report of several runs shows */
    int has_first_wall;
    uint64_t first_wall_sec;
    const char *const *run_cmds;
    uint32_t num_run_cmds;
    uint64_t span_sum_ns;       /* each log's first..last event inside the filter's
                                   from/to, summed (first_time/last_time: the last log's) */
    /* GHC's -pj "initial_capabilities" (RtsFlags.ParFlags.nCapabilities):
     * 0 for a non-threaded RTS (its RTS_IDENTIFIER), else the capabilities
     * the run started with (+RTS -N; a later setNumCapabilities does not
     * count); of several runs the most. `capabilities` is what the total
     * time divides by (GHC's getNumCapabilities() at the end). */
    uint32_t initial_capabilities;
    /* The read's selected capability (--cap, ev_select_cap), -1: all. The
     * ticks are then that capability's samples alone. */
    int32_t selected_cap;
} prof_info;

EVPROF_API const prof_info *prof_get_info(const prof_result *r);

/* What GHC's own time profile of a run (its .prof or -pj) was seen to do
 * beside the run's eventlog samples, per GHC version and RTS: the runs
 * docs/PROF.md records (scripts/prof_bounds.sh) and the other
 * observations it lists. GHC's ticker reads the current stack twice per
 * tick, once for its report and once for the event, and where the
 * program runs on in between the two reads can differ. The figures are
 * the most seen, not bounds. */
typedef struct prof_agreement {
    const char *ghc;            /* the GHC version measured ("9.6.6") */
    char log_ghc[40];           /* the log's own version, as numbers ("9.4.7") */
    int measured;               /* it is the log's own version (else the
                                   nearest measured one, whose figures are
                                   no more than a hint) */
    int threaded;               /* the log's RTS is threaded */
    int exact;                  /* every row and the total equal in every run */
    uint32_t runs;              /* runs measured (-p, -P and -pj) */
    uint32_t programs;          /* of this many programs */
    uint32_t total_ticks;       /* -p/-P totals: the most seen apart */
    uint32_t row_permille;      /* one row: the most seen apart, in tenths of
                                   a percent of its run's total */
    const char *row_program;    /* the program of that run ("Rounds") */
    const char *row_kind;       /* its kind ("worker threads in a hot loop") */
    int others;                 /* the figures count other observations than
                                   the runs measured (docs/PROF.md lists them) */
} prof_agreement;

/* The measured figures that apply to a log whose RTS_IDENTIFIER is
 * `rts_version` ("GHC-9.6.6 rts_thr_p"): 1 and *out filled, or 0 when the
 * string names no GHC version. */
EVPROF_API int prof_ghc_agreement(const char *rts_version, prof_agreement *out);

/* --focus/--ignore over a table: sets `bit` in match[i] for every cost
 * centre i whose "Module.label" the pattern matches (evprof/pattern.h,
 * the one matcher). Returns EV_OK, EV_ERR_PATTERN when the pattern is
 * refused or EV_ERR_NOMEM, with err's message (err may be NULL). The
 * compiled pattern (at most some 40 KB) lives for the call only; a
 * snapshot's focus charges it to the profile's budget. */
EVPROF_API ev_status prof_match_ccs(const prof_result *r, const char *pattern, uint8_t *match,
                                    uint8_t bit, ev_error *err);

/* Depth-first over the finished tree from MAIN, in its child order:
 * `enter` sees each node on the way down, `leave` (may be NULL) on the way
 * up after its children. Stops and returns -1 as soon as a visit returns
 * non-zero; 0 otherwise. No recursion: stacks are up to 256 deep. */
typedef int (*prof_visit_fn)(void *ctx, uint32_t node);
EVPROF_API int prof_walk(const prof_result *r, prof_visit_fn enter, prof_visit_fn leave, void *ctx);

/* The nodes prof_walk enters, in its order (MAIN first, each node before
 * its children, siblings in child order), as an array of *n node indices
 * owned by the result: a loop down it can fetch nodes ahead. Nodes that
 * the tree no longer links (GHC's built-in stacks without --all, stacks
 * left without ticks under focus/ignore) are not in it. */
EVPROF_API const uint32_t *prof_preorder(const prof_result *r, size_t *n);

/* Ticks per cost centre. `ticks` sums the samples whose innermost frame
 * is the cost centre (over every stack); `inherited` the samples with the
 * cost centre anywhere in the stack, counted once per stack however often
 * it recurs there. */
typedef struct prof_cc_total {
    uint32_t cc;                /* index into the cost-centre table */
    uint64_t ticks;             /* individual */
    uint64_t inherited;         /* stacks through it (prof_cc_totals only) */
} prof_cc_total;

/* Every cost centre with a tick in its subtrees, individual ticks
 * descending, then inherited, then index: for a top-N. A malloc'd array
 * (caller frees) of *n rows, or NULL without memory. Which samples count
 * is the snapshot's rule: without `all` (GHC's -p) the five built-in
 * stacks MAIN/GC, MAIN/SYSTEM, MAIN/IDLE, MAIN/OVERHEAD_of and
 * MAIN/DONT_CARE (src `<built-in>`) are dropped, as GHC's report drops
 * them; with `all` (GHC's -pa, -pj) they count. */
EVPROF_API prof_cc_total *prof_cc_totals(const prof_result *r, size_t *n);

/* GHC's per-cost-centre summary at the top of the .prof: only the cost
 * centres with more than 1% of the ticks (integer division, GHC's
 * cutoff), ticks descending, ties by descending id; `inherited` is 0.
 * For every cost centre use prof_cc_totals. A malloc'd array (caller
 * frees) of *n rows, or NULL. */
EVPROF_API prof_cc_total *prof_summary(const prof_result *r, size_t *n);

/* %time of the summary, computed in single precision as GHC does (so
 * exact ties can round differently from the tree's double precision). */
EVPROF_API double prof_summary_pct(uint64_t ticks, uint64_t total);

/* Namesakes: cost centres of one module and label at different source
 * locations (GHC names two pattern bindings of `f` both `f.(...)`, every
 * lambda of `main` `main.\`, and under -fprof-auto-calls every call site
 * of `f` `f`). Every view keeps them apart; those that print a cost
 * centre by its name print a namesake's source location with it
 * (docs/PROF.md, "Namesakes"). out[i] = 1 for each cost centre i of r's
 * tree that has a namesake among every cost centre the log defined (with
 * ticks or not, so that the answer is the same for every window of one
 * log), else 0; out has prof_num_ccs(r) bytes. Time in proportion to the
 * cost centres, memory to those in the tree. Returns how many, or -1
 * without memory (out all 0). */
EVPROF_API long prof_namesakes(const prof_result *r, uint8_t *out);

/* ---- callers and callees (prof/callers.c) --------------------------------
 * For every cost centre whose "Module.label" the POSIX extended regex
 * matches (prof_match_ccs), grouped by module and label as the call graph
 * groups them: the ticks of the stacks through it (inherited) and ending
 * in it (individual), and per caller and per callee the ticks of the
 * stacks through that call. A stack counts once for a cost centre and
 * once for a call however often they recur in it (graph/callgraph.c's
 * rule). The root MAIN is a caller like any other. */
typedef struct prof_call_row {
    uint32_t cc;                /* a cost centre of the caller's or callee's group */
    uint64_t ticks;
} prof_call_row;

typedef struct prof_callers_of {
    uint32_t cc;                /* the group's first cost centre (table index) */
    uint64_t inherited, self;
    prof_call_row *callers, *callees;   /* ticks descending, then name */
    size_t num_callers, num_callees;
} prof_callers_of;

/* The matched groups with ticks, inherited ticks descending, then name:
 * a malloc'd array of *n (free it with prof_callers_free). Returns EV_OK,
 * EV_ERR_PATTERN when the pattern does not compile or EV_ERR_NOMEM, with
 * err's message (err may be NULL). */
EVPROF_API ev_status prof_callers(const prof_result *r, const char *pattern,
                                  prof_callers_of **out, size_t *n, ev_error *err);
EVPROF_API void prof_callers_free(prof_callers_of *p, size_t n);

/* The text of `evprof report --callers PATTERN`: a block per group, its
 * figures, its callers and its callees with ticks and % of the total.
 * Returns 0, or -1 on a write error. */
EVPROF_API int prof_report_callers(const prof_result *r, const prof_callers_of *p, size_t n,
                                   const char *pattern, FILE *out);

/* ---- output ----------------------------------------------------------- */

typedef struct prof_report_opts {
    double threshold_pct;       /* hide subtrees whose inherited share is below */
    uint32_t max_depth;         /* 0: no limit */
    const char *source_name;    /* file name for the header */
    unsigned jobs;              /* threads formatting the text report's rows
                                 * (0 or 1: the calling one); the bytes are
                                 * the same for every number */
} prof_report_opts;

EVPROF_API void prof_report_opts_init(prof_report_opts *o);

/* GHC's .prof layout (see docs/PROF.md). Returns 0, or -1 on a write error. */
/* The header lines of a report of several runs (prof_info.num_runs > 1):
 * "N runs summed (K logs | one merged log):", each run's command line,
 * and what the ticks and total time are. The text report writes them;
 * other formats that describe a sum write the same. */
EVPROF_API void prof_runs_header(const prof_info *in, FILE *out);

/* NULL o: the defaults (prof_report_opts_init). */
EVPROF_API int prof_report_text(const prof_result *r, const prof_report_opts *o, FILE *out);

/* GHC's -pj JSON schema, always valid JSON. Returns 0 or -1. */
EVPROF_API int prof_report_json(const prof_result *r, const prof_report_opts *o, FILE *out);
/* The report's formats (evprof/format.h): "text" (".prof .txt") and
 * "json"; a row's writer takes a prof_result and a prof_report_opts (NULL:
 * the defaults). */
EVPROF_API const ev_format *prof_formats(size_t *count);


/* ---- folded stacks (prof/folded.c; added by the flame-graph issue) ------
 * One line per distinct stack: frames root to leaf joined by ';', a space,
 * the stack's own (individual) ticks as an integer: the input of
 * flamegraph.pl, inferno and speedscope. The rules that keep each line
 * parseable (';' -> ':', control characters -> space, no whitespace right
 * before a trailing number or at a frame's end) are in docs/FLAMEGRAPH.md. */

typedef enum prof_frame_format {
    PROF_FRAME_NAME = 0,        /* Module.label (default) */
    PROF_FRAME_LABEL,           /* label */
    PROF_FRAME_SRC,             /* Module.label (srcloc) */
} prof_frame_format;

typedef struct prof_folded_opts {
    prof_frame_format frame;
} prof_folded_opts;

EVPROF_API void prof_folded_opts_init(prof_folded_opts *o);

/* "name", "label" or "src". Returns 0, or -1 for another word. */
EVPROF_API int prof_frame_format_parse(const char *word, prof_frame_format *f);

/* One frame's text, cleaned by the rules above, NUL-terminated in buf when
 * size > 0. Returns its length (which may exceed size - 1, as snprintf). */
EVPROF_API size_t prof_folded_frame(const prof_cc *cc, prof_frame_format f, char *buf, size_t size);

/* Writes the folded stacks of a finished profile: tree order, stacks with
 * ticks only, stacks whose text coincides merged into one line. Stacks cut
 * at 255 frames start at the frame "<stack cut at 255 frames>" instead of
 * MAIN. Returns 0, or -1 on a write error or when memory ran out. */
EVPROF_API int prof_report_folded(const prof_result *r, const prof_folded_opts *o, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
