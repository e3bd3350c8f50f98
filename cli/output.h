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
    { OPT_OUTPUT, 'o', "output", "FILE", "write to FILE instead of standard output, " \
      "whole or not at all (devices and FIFOs: straight)" }

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
 * a snapshot of the profile, with *code the exit code so far and *no_samples
 * set when the log has no 167 events; or NULL with *code set when there
 * is nothing to report. The caller destroys it (prof_result_destroy). */
struct prof_result;
struct prof_result *cli_load_profile(const char *path, const cli_window *w, int all,
                                      int *code, int *no_samples);

/* cli_load_profile with more: another analysis (may be NULL) fed in the
 * same read (the exporters' own consumers); `quiet` leaves out the "no
 * samples" message; the read's result comes back in `result`. */
struct ev_analysis_ops;
typedef struct cli_load_more {
    const struct ev_analysis_ops *extra_ops;
    void *extra;
    int quiet;
    el_read_result result;      /* out */
} cli_load_more;
struct prof_result *cli_load_profile_more(const char *path, const cli_window *w, int all,
                                          cli_load_more *more, int *code, int *no_samples);

/* An output, opened as a shell's `>` would find it but never half-written:
 * stdout ("-" or NULL); a device, FIFO or socket (also at the end of a
 * symlink): written straight; a regular file or a new path (also at the end
 * of a symlink, which stays): a temp file beside it that is renamed over it
 * on success, with the old file's mode and owner; a regular file with other
 * hard links: the temp file's content copied into it on success. A fatal
 * signal (INT, TERM, HUP, PIPE, XFSZ) removes the temp file. */
typedef struct cli_out {
    FILE *f;
    const char *path;   /* as given */
    char *target;       /* the file the symlinks of path lead to */
    char *tmp;          /* the temp file, or NULL when written straight */
    int in_place;       /* copy tmp into target instead of renaming */
    int quiet;          /* a discarded output is not worth a message */
} cli_out;

/* Returns 0, or -1 with a message on stderr. */
int cli_out_open(cli_out *o, const char *path);
/* ok: flush, check and publish; !ok: discard (what went straight into a
 * device or FIFO stays). Returns 0, or -1 with a message on stderr (a write
 * error: nothing is published). */
int cli_out_close(cli_out *o, int ok);
/* 1 after a usage error when `output` (-o) is the file `input` ("-":
 * standard input) under any name; 0 otherwise. */
int cli_out_same_file(const cli_cmd_help *cmd, const char *output, const char *input);

#endif
