/* The selection every reading command takes, in one place: its options
 * (bound to a cli_window), the marks resolved into times, the ev_select
 * the read's selection stage marks events by, and the check that it
 * matches something in the log (a selection that matches nothing is a
 * usage error that says what the log has). */
#ifndef EVPROF_CLI_SELECTION_H
#define EVPROF_CLI_SELECTION_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "evprof/driver.h"
#include "evprof/prof.h"

/* Where the log comes from, beyond a plain FILE, and what of it is read. */
typedef struct cli_source {
    int follow;                 /* --follow */
    double idle_timeout;        /* seconds; 0: none */
    const char *connect;        /* --connect ADDR, or NULL */
    /* a live read's bytes as they come (ticky --series keeps a copy to
     * read again); NULL: none */
    void (*on_bytes)(void *ctx, const void *buf, size_t len);
    void *bytes_ctx;
    /* the selection the read's selection stage marks events by (made by
     * cli_window_done from the time options and --cap; NULL: all) */
    const ev_select *select;
    /* read this spool instead of opening the path (ticky's copy of
     * standard input or of a live read, driver/spool.h); the path names it
     * in messages */
    const struct ev_spool *spool;
    /* a second read of what a first one read and reported: no messages */
    int quiet;
} cli_source;

typedef struct cli_window {
    cli_ctx *ctx;               /* the run's: what the window's options keep */
    uint64_t from_ns, to_ns;    /* to_ns UINT64_MAX: open */
    int32_t cap;                /* -1: all */
    int all;
    const char *output;         /* NULL: stdout */
    /* marks, resolved into from_ns/to_ns and spans by cli_window_resolve */
    const char *from_marker, *to_marker;    /* the LABEL of marker:LABEL, or NULL */
    unsigned long from_nth, to_nth;         /* #N, 1-based */
    const char *between;                    /* --between LABEL, or NULL */
    const char *phase;                      /* --phase LABEL[#N], or NULL */
    unsigned long phase_nth;
    ev_span *spans;            /* after resolve: the windows (NULL: [from_ns, to_ns)) */
    size_t num_spans;
    const char *focus, *ignore; /* regexes on Module.label, or NULL */
    uint32_t max_depth;         /* report --max-depth: bounds the aggregate (prof_filter) */
    cli_source src;
} cli_window;

/* Before its options are parsed: nothing selected; c the run's context
 * (what the options and the selection keep for the command, the reads). */
void cli_window_init(cli_window *w, cli_ctx *c);
/* Turns marks into times (cli_window_done calls it): a first cheap read of `path` with only the marks
 * decoded (nothing to do without marks). Prints what went wrong (a mark
 * not in the log: the marks that are; standard input: cannot be read
 * twice) and returns its exit code, or CLI_OK. With --between, says on
 * stderr how many windows it found. */
int cli_window_resolve(cli_window *w, const char *path);
/* The profile filter of the selection (focus, ignore, max depth; `all`
 * left as it is; the windows and the capability are the read's selection
 * stage's). Returns 0, or cli_pattern_check's code after its message. */
int cli_window_prof_filter(const cli_window *w, prof_filter *f);
/* Every pattern a command takes (--focus, --ignore, --callers, phases
 * --marker) is checked here before the log is read, by the one matcher
 * (evprof/pattern.h): 0 (pattern NULL too), or CLI_USAGE after
 * "evprof: OPTION: bad regular expression 'PATTERN': why" (CLI_FAIL when
 * out of memory). */
int cli_pattern_check(const char *option, const char *pattern);
/* Makes w->src.select from the resolved times, windows and capability
 * (cli_window_done and cli_window_resolve call it). 0, or CLI_FAIL after
 * a message when out of memory. */
int cli_window_select(cli_window *w);
/* The time options that contradict each other (--phase with --from, --to
 * or --between; --from not before --to, in seconds): CLI_USAGE after a
 * message, else CLI_OK (cli_window_done calls it; so does top, which
 * reads by a driver of its own). */
int cli_window_check_times(const cli_cmd_help *cmd, const cli_window *w);
/* After the option loop of a command with the shared options: the exit
 * code when parsing stopped (help, usage error), when there is not exactly
 * one FILE (none with --connect: *path is then the address), when --from
 * is not before --to, or when a mark is not in the log
 * (cli_window_resolve); -1 to go on, with *path set. */
int cli_window_done(const cli_args *a, int next_result, cli_window *w, const char **path);

/* cli_window_done for the profile commands, which take one FILE or more
 * (the profile of several runs, summed): *paths, *n the logs. With several,
 * marker windows are refused (each log has its own marks) and standard
 * input may appear once. */
int cli_window_done_logs(const cli_args *a, int next_result, cli_window *w,
                         const char *const **paths, size_t *n);

/* ---- the shared options, bound to a cli_window ---------------------------
 *   time:  --from/--to SECONDS or marker:LABEL[#N], --between LABEL,
 *          --phase LABEL[#N]
 *   cap:   --cap N
 *   focus: --focus/--ignore REGEX on Module.label (profile commands)
 *   live:  --follow, --idle-timeout, --connect
 *   memory: --memory-limit */
int cli_opt_from(const cli_args *a, void *w, const void *ctx);
int cli_opt_to(const cli_args *a, void *w, const void *ctx);
int cli_opt_phase(const cli_args *a, void *w, const void *ctx);
int cli_opt_between(const cli_args *a, void *w, const void *ctx);
int cli_opt_cap(const cli_args *a, void *w, const void *ctx);
int cli_opt_idle_timeout(const cli_args *a, void *w, const void *ctx);
int cli_opt_connect(const cli_args *a, void *w, const void *ctx);
/* --memory-limit SIZE (cli/read.c: the budget): into the context var's
 * memory_limit. */
int cli_opt_memory(const cli_args *a, void *var, const void *ctx);

#define CLI_FROM_HELP "only events at or after WHEN: seconds on the log's clock (which " \
    "starts when the RTS starts), or marker:LABEL[#N], the Nth traceMarker LABEL (default " \
    "the first)"
#define CLI_TIME_OPTS(w)                                                             \
    OPT_CALL(0, "from", "WHEN", cli_opt_from, w, NULL, CLI_FROM_HELP),               \
    OPT_CALL(0, "to", "WHEN", cli_opt_to, w, NULL,                                   \
             "only events before WHEN (seconds or marker:LABEL[#N])"),               \
    OPT_CALL(0, "between", "LABEL", cli_opt_between, w, NULL, "only events between each pair " \
               "of marks LABEL (1st to 2nd, 3rd to 4th, ...: start/end marks): several " \
               "windows, summed"),                                                   \
    OPT_CALL(0, "phase", "LABEL[#N]", cli_opt_phase, w, NULL, "only events of the "  \
             "phase that starts at the Nth mark LABEL (default the first) and ends at " \
             "the next mark of any label (start-of-phase marks: a row of 'evprof "    \
             "phases')")

#define CLI_CAP_OPT(w)                                                               \
    OPT_CALL(0, "cap", "N", cli_opt_cap, w, NULL, "only capability N's own events: its "  \
             "samples (the ticks), its allocation and sparks; the collections and the "    \
             "heap stay the whole run's")

#define CLI_FOCUS_OPTS(w)                                                            \
    OPT_STRING(0, "focus", "REGEX", &(w)->focus, "keep only the stacks through a cost " \
               "centre whose Module.label matches (POSIX extended regex, no "         \
               "back-references, counts up to 255: PATTERNS in evprof(1))"),          \
    OPT_STRING(0, "ignore", "REGEX", &(w)->ignore, "drop the stacks through a cost " \
               "centre whose Module.label matches")

/* Live sources (docs/LIVE.md): on every command that reads through
 * cli_read_src / cli_load_profiles. */
#define CLI_FOLLOW_OPTS(w)                                                           \
    OPT_FLAG(0, "follow", &(w)->src.follow, "the log is still being written: wait for " \
             "more at its end until the end marker (Ctrl-C: the result so far, exit 130)"), \
    OPT_CALL(0, "idle-timeout", "SECONDS", cli_opt_idle_timeout, w, NULL, "with "   \
             "--follow or --connect: stop waiting when nothing has come for SECONDS (a " \
             "file that stopped growing, a quiet FIFO or socket, a program not yet "  \
             "accepting)"),                                                          \
    OPT_CALL(0, "connect", "ADDR", cli_opt_connect, w, NULL, "read a running "        \
             "program's eventlog-socket stream (unix:PATH or tcp:HOST:PORT) instead of FILE")

/* Every reading command (cli/read.h's budget, cli_opt_memory), bound to
 * the context c. */
#define CLI_MEMORY_HELP "stop (exit 1, no output) with what the log holds so far when the " \
    "analyses' memory would pass SIZE: bytes or a number with K, M or G (binary); default " \
    "half of the physical memory"
#define CLI_MEMORY_OPT(c)                                                            \
    OPT_CALL(0, "memory-limit", "SIZE", cli_opt_memory, c, NULL, CLI_MEMORY_HELP)

/* The whole selection of the profile commands, the live sources and the
 * memory limit. */
#define CLI_WINDOW_OPTS(w)                                                           \
    CLI_TIME_OPTS(w), CLI_CAP_OPT(w), CLI_FOCUS_OPTS(w), CLI_FOLLOW_OPTS(w),            \
    CLI_MEMORY_OPT((w)->ctx)

/* ---- a selection that matches nothing --------------------------------------- */

/* The command's window, checked after each of its reads (cli_window_done
 * and cli_window_done_logs register it; diff each side's). With
 * `several_logs` a log that the window misses is said and read on; only
 * when it misses every log is the command's result an error
 * (cli_window_check_logs). NULL: nothing to check. */
void cli_window_watch(cli_ctx *c, const cli_window *w, int several_logs);

/* "its events run from A s to B s (...); N capabilities (0, 1); marks
 * (label, count, first at): ..." (the marks `marks`, else read again
 * from `path` when it is a file; both NULL: none said) */
struct ev_markers;
void cli_log_has_print(FILE *e, const char *path, const el_read_result *r,
                       const struct ev_markers *marks);

/* After a read: CLI_USAGE after a message naming the selection and what
 * the log has, when the watched window misses the whole log (its time
 * span, or its capabilities); else CLI_OK. A read interrupted or stopped
 * by an analysis (`cut_short`) is not judged; a live one (`live`) says no
 * marks. */
int cli_window_check(cli_ctx *c, const char *path, const el_read_result *r, int cut_short,
                     int live);
/* For several logs: CLI_USAGE when the window missed every one. */
int cli_window_check_logs(const cli_ctx *c);

#endif
