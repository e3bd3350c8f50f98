/* Options shared by the profile commands, and atomic output files. */
#ifndef EVPROF_CLI_OUTPUT_H
#define EVPROF_CLI_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "evprof/prof.h"

/* Option ids of the shared options; commands number their own below 1000. */
enum { OPT_FROM = 1000, OPT_TO, OPT_CAP, OPT_ALL, OPT_OUTPUT, OPT_BETWEEN, OPT_FOCUS,
       OPT_IGNORE, OPT_FOLLOW, OPT_IDLE_TIMEOUT, OPT_CONNECT, OPT_MEMORY_LIMIT, OPT_PHASE };

/* The selection, the same on every reading command (one implementation:
 * cli_window_option parses, cli_window_resolve finds the marks, the
 * analyses get the windows; the profile commands get focus/ignore applied
 * by cli_load_profile):
 *   time:  --from/--to SECONDS or marker:LABEL[#N], --between LABEL,
 *          --phase LABEL[#N]
 *   cap:   --cap N
 *   focus: --focus/--ignore REGEX on Module.label (profile commands) */
#define CLI_TIME_OPTS                                                                \
    { OPT_FROM, 0, "from", "WHEN", "only events at or after WHEN: seconds on the log's "    \
      "clock (which starts when the RTS starts), or marker:LABEL[#N], the Nth "      \
      "traceMarker LABEL (default the first)" },                                     \
    { OPT_TO, 0, "to", "WHEN", "only events before WHEN (seconds or marker:LABEL[#N])" },   \
    { OPT_BETWEEN, 0, "between", "LABEL", "only events between each pair of marks LABEL "   \
      "(1st to 2nd, 3rd to 4th, ...: start/end marks): several windows, summed" },          \
    { OPT_PHASE, 0, "phase", "LABEL[#N]", "only events of the phase that starts at the Nth "  \
      "mark LABEL (default the first) and ends at the next mark of any label (start-of-phase " \
      "marks: a row of 'evprof phases')" }

#define CLI_CAP_OPT { OPT_CAP, 0, "cap", "N", "only capability N (its own samples)" }

#define CLI_FOCUS_OPTS                                                               \
    { OPT_FOCUS, 0, "focus", "REGEX", "keep only the stacks through a cost centre whose " \
      "Module.label matches (POSIX extended regex)" },                               \
    { OPT_IGNORE, 0, "ignore", "REGEX", "drop the stacks through a cost centre whose "    \
      "Module.label matches" }

/* Live sources (docs/LIVE.md): on every command that reads through
 * cli_read_src / cli_load_profile. */
#define CLI_FOLLOW_OPTS                                                              \
    { OPT_FOLLOW, 0, "follow", NULL, "the log is still being written: wait for more at "   \
      "its end until the end marker (Ctrl-C: the result so far, exit 130)" },         \
    { OPT_IDLE_TIMEOUT, 0, "idle-timeout", "SECONDS", "with --follow or --connect: stop "   \
      "waiting when nothing has come for SECONDS (a file that stopped growing, a "   \
      "quiet FIFO or socket, a program not yet accepting)" },                        \
    { OPT_CONNECT, 0, "connect", "ADDR", "read a running program's eventlog-socket "        \
      "stream (unix:PATH or tcp:HOST:PORT) instead of FILE" }

/* Every reading command (cli_window_option takes it; cli/read.h). */
#define CLI_MEMORY_OPT                                                               \
    { OPT_MEMORY_LIMIT, 0, "memory-limit", "SIZE", "stop (exit 1, no output) with what "   \
      "the log holds so far when the analyses' memory would pass SIZE: bytes or a "  \
      "number with K, M or G (binary); default half of the physical memory" }

/* The whole selection of the profile commands, the live sources and the
 * memory limit. */
#define CLI_WINDOW_OPTS CLI_TIME_OPTS, CLI_CAP_OPT, CLI_FOCUS_OPTS, CLI_FOLLOW_OPTS, CLI_MEMORY_OPT

#define CLI_OUTPUT_OPT                                                               \
    { OPT_OUTPUT, 'o', "output", "FILE", "write to FILE instead of standard output, " \
      "whole or not at all (devices and FIFOs: straight)" }


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
    /* read this open descriptor instead of opening the path (ticky's copy
     * of standard input); the path names it in messages */
    int has_fd, fd;
    /* a second read of what a first one read and reported: no messages */
    int quiet;
} cli_source;

typedef struct cli_window {
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

void cli_window_init(cli_window *w);
/* (cli_window_done calls it.) Turns marks into times: a first cheap read of `path` with only the marks
 * decoded (nothing to do without marks). Prints what went wrong (a mark
 * not in the log: the marks that are; standard input: cannot be read
 * twice) and returns its exit code, or CLI_OK. With --between, says on
 * stderr how many windows it found. */
int cli_window_resolve(cli_window *w, const char *path);
/* The profile filter of the selection (focus, ignore, max depth; `all`
 * left as it is; the windows and the capability are the read's selection
 * stage's). Returns 0, or CLI_USAGE after a message when a regex does not
 * compile. */
int cli_window_prof_filter(const cli_window *w, prof_filter *f);
/* Makes w->src.select from the resolved times, windows and capability
 * (cli_window_done and cli_window_resolve call it). 0, or CLI_FAIL after
 * a message when out of memory. */
int cli_window_select(cli_window *w);
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

/* "evprof: NAME: no time-profile samples (event 167): WHY (see 'evprof info
 * ARG')" on stderr, WHY from what the log shows (info_no_samples_why: the
 * RTS, its cost centres, whether the log ends early). */
struct el_read_result;
void cli_no_samples(const char *name, const char *arg, const struct prof_result *p,
                    const struct el_read_result *r);

/* cli_load_profile with more: another analysis (may be NULL) fed in the
 * same read (the exporters' own consumers); `quiet` leaves out the "no
 * samples" message; the read's result comes back in `result`. */
struct ev_analysis_ops;
typedef struct cli_load_more {
    const struct ev_analysis_ops *extra_ops;
    void *extra;
    int quiet;
    el_read_result result;      /* out (the last log's) */
    /* several logs: called before log i (may be NULL); non-zero: no memory */
    int (*begin_log)(void *extra, const prof_profile *agg, size_t i, const char *path);
} cli_load_more;
struct prof_result *cli_load_profile_more(const char *path, const cli_window *w, int all,
                                          cli_load_more *more, int *code, int *no_samples);

/* The profile of several logs aggregated (prof_begin_log): cost centres
 * matched by name, ticks summed. One log: cli_load_profile_more, the same
 * output as ever. A log that yields nothing fails the whole. */
struct prof_result *cli_load_profiles(const char *const *paths, size_t n, const cli_window *w,
                                      int all, cli_load_more *more, int *code, int *no_samples);

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
    char *buf;          /* f's buffer (a temp file's), freed after fclose */
} cli_out;

/* Returns 0, or -1 with a message on stderr. */
int cli_out_open(cli_out *o, const char *path);
/* ok: flush, check and publish; !ok: discard (what went straight into a
 * device or FIFO stays). Returns 0, or -1 with a message on stderr (a write
 * error: nothing is published). */
int cli_out_close(cli_out *o, int ok);
/* 1 when the path `output` names the file `input` ("-": standard input)
 * under any name (the same device and inode, through symlinks and hard
 * links); 0 otherwise, also when `output` does not exist yet. The one
 * check of every output against the input: -o (below) and all's files. */
int cli_out_is_input(const char *output, const char *input);
/* 1 after a usage error when `output` (-o) is the file `input` under any
 * name (cli_out_is_input); 0 otherwise. */
int cli_out_same_file(const cli_cmd_help *cmd, const char *output, const char *input);

#endif
