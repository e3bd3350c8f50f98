/* Options shared by the profile commands, and atomic output files. */
#ifndef EVPROF_CLI_OUTPUT_H
#define EVPROF_CLI_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Option ids of the shared options; commands number their own below 1000. */
enum { OPT_FROM = 1000, OPT_TO, OPT_CAP, OPT_ALL, OPT_OUTPUT };

#define CLI_WINDOW_OPTS                                                              \
    { OPT_FROM, 0, "from", "SECONDS", "only events at or after this time: seconds on the "  \
      "log's clock, which starts when the RTS starts" },                             \
    { OPT_TO, 0, "to", "SECONDS", "only events before this time" },                  \
    { OPT_CAP, 0, "cap", "N", "only capability N (its own samples)" }

#define CLI_OUTPUT_OPT                                                               \
    { OPT_OUTPUT, 'o', "output", "FILE", "write to FILE instead of standard output; " \
      "the file appears whole or not at all" }

typedef struct cli_window {
    uint64_t from_ns, to_ns;    /* to_ns UINT64_MAX: open */
    int32_t cap;                /* -1: all */
    int all;
    const char *output;         /* NULL: stdout */
} cli_window;

void cli_window_init(cli_window *w);
/* After the option loop of a command with the shared options: the exit
 * code when parsing stopped (help, usage error), when there is not exactly
 * one FILE, or when --from is not before --to; -1 to go on, with *path set. */
int cli_window_done(const cli_args *a, int next_result, const cli_window *w, const char **path);

/* Takes a shared option (id >= 1000). Returns 1 when taken, 0 when `id`
 * is not a shared option, -1 after printing a usage error. */
int cli_window_option(cli_window *w, const cli_args *a, int id);

/* The time profile of `path` under the shared window options (all: count
 * GHC's built-in stacks). Prints read errors and warnings to stderr. Returns
 * the finished profile, with *code the exit code so far and *no_samples
 * set when the log has no 167 events; or NULL with *code set when there
 * is nothing to report. The caller destroys the profile. */
struct prof_profile;
struct prof_profile *cli_load_profile(const char *path, const cli_window *w, int all,
                                      int *code, int *no_samples);

/* cli_load_profile with more: `extra` (may be NULL) is handed every event
 * the profile is handed, in the same read (the exporters' own consumers);
 * `quiet` leaves out the "no samples" message; the read's result comes
 * back in `result`. */
typedef struct cli_load_more {
    el_event_fn extra;
    void *extra_ctx;
    int quiet;
    el_read_result result;      /* out */
} cli_load_more;
struct prof_profile *cli_load_profile_more(const char *path, const cli_window *w, int all,
                                           cli_load_more *more, int *code, int *no_samples);

/* An output: stdout, or a temporary file renamed over `path` on success. */
typedef struct cli_out {
    FILE *f;
    const char *path;
    char *tmp;
} cli_out;

/* Returns 0, or -1 with a message on stderr. */
int cli_out_open(cli_out *o, const char *path);
/* ok: flush, check and publish; !ok: discard. Returns 0, or -1 with a
 * message on stderr (a write error: nothing is published). */
int cli_out_close(cli_out *o, int ok);

#endif
