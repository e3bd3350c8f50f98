/* The profile loader of the profile commands (report, folded, graph,
 * speedscope, pprof): one read or several logs summed, under the
 * command's selection, with the messages every one of them gives. */
#ifndef EVPROF_CLI_LOAD_H
#define EVPROF_CLI_LOAD_H

#include "cli/selection.h"
#include "evprof/prof.h"

struct prof_result;

/* "evprof: NAME: no time-profile samples (event 167): WHY (see 'evprof info
 * ARG')" on stderr, WHY from what the log shows (info_no_samples_why: the
 * RTS, its cost centres, whether the log ends early). */
struct el_read_result;
void cli_no_samples(const char *name, const char *arg, const struct prof_result *p,
                    const struct el_read_result *r);

/* The time profile of `path` under the shared window options (all: count
 * GHC's built-in stacks). Prints read errors and warnings to stderr. Returns
 * a snapshot of the profile, with *code the exit code so far and *no_samples
 * set when the log has no 167 events; or NULL with *code set when there
 * is nothing to report. The caller destroys it (prof_result_destroy).
 * `more` (may be NULL): another analysis fed in the same read (the
 * exporters' own consumers); `quiet` leaves out the "no samples" message;
 * the read's result comes back in `result`. */
struct ev_analysis_ops;
typedef struct cli_load_more {
    const struct ev_analysis_ops *extra_ops;
    void *extra;
    int quiet;
    el_read_result result;      /* out (the last log's) */
    /* several logs: called before log i, named `name` as messages name it
     * (may be NULL); non-zero: no memory */
    int (*begin_log)(void *extra, const prof_profile *agg, size_t i, const char *name);
} cli_load_more;
struct prof_result *cli_load_profile_more(const char *path, const cli_window *w, int all,
                                          cli_load_more *more, int *code, int *no_samples);

/* The profile of several logs aggregated (prof_begin_log): cost centres
 * matched by name, ticks summed. One log: cli_load_profile_more, the same
 * output as ever. A log that yields nothing fails the whole. */
struct prof_result *cli_load_profiles(const char *const *paths, size_t n, const cli_window *w,
                                      int all, cli_load_more *more, int *code, int *no_samples);

#endif
