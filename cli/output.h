/* Options shared by the profile commands, and atomic output files. */
#ifndef EVPROF_CLI_OUTPUT_H
#define EVPROF_CLI_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Option ids of the shared options; commands number their own below 1000. */
enum { OPT_FROM = 1000, OPT_TO, OPT_CAP, OPT_ALL, OPT_OUTPUT, OPT_FOLLOW, OPT_IDLE_TIMEOUT,
       OPT_CONNECT };

#define CLI_WINDOW_OPTS                                                              \
    { OPT_FROM, 0, "from", "SECONDS", "only events at or after this time: seconds on the "  \
      "log's clock, which starts when the RTS starts" },                             \
    { OPT_TO, 0, "to", "SECONDS", "only events before this time" },                  \
    { OPT_CAP, 0, "cap", "N", "only capability N (its own samples)" },                \
    CLI_FOLLOW_OPTS

/* Live sources (docs/LIVE.md): on every command that reads through
 * cli_read_src / cli_load_profile. */
#define CLI_FOLLOW_OPTS                                                              \
    { OPT_FOLLOW, 0, "follow", NULL, "the log is still being written: wait for more at "   \
      "its end until the end marker (Ctrl-C: the result so far, exit 130)" },         \
    { OPT_IDLE_TIMEOUT, 0, "idle-timeout", "SECONDS", "with --follow: stop waiting when "    \
      "the file has not grown for SECONDS" },                                        \
    { OPT_CONNECT, 0, "connect", "ADDR", "read a running program's eventlog-socket "        \
      "stream (unix:PATH or tcp:HOST:PORT) instead of FILE" }

#define CLI_OUTPUT_OPT                                                               \
    { OPT_OUTPUT, 'o', "output", "FILE", "write to FILE instead of standard output; " \
      "the file appears whole or not at all" }

/* Where the log comes from, beyond a plain FILE. */
typedef struct cli_source {
    int follow;                 /* --follow */
    double idle_timeout;        /* seconds; 0: none */
    const char *connect;        /* --connect ADDR, or NULL */
} cli_source;

typedef struct cli_window {
    uint64_t from_ns, to_ns;    /* to_ns UINT64_MAX: open */
    int32_t cap;                /* -1: all */
    int all;
    const char *output;         /* NULL: stdout */
    cli_source src;
} cli_window;

void cli_window_init(cli_window *w);
/* After the option loop of a command with the shared options: the exit
 * code when parsing stopped (help, usage error), when there is not exactly
 * one FILE (none with --connect: *path is then the address), or when --from is not before --to; -1 to go on, with *path set. */
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
