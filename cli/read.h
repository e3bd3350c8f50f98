/* The CLI's one way to read a log: the driver with the command's analyses. */
#ifndef EVPROF_CLI_READ_H
#define EVPROF_CLI_READ_H

#include <signal.h>
#include <stddef.h>

#include "cli/cli.h"
#include "evprof/driver.h"

typedef struct cli_analysis {
    const ev_analysis_ops *ops;
    void *self;
} cli_analysis;

/* Reads `path` once, feeding the analyses; prints what went wrong (the
 * read's error, damage skipped, a missing end marker, a stop) and sets
 * *code to the exit code so far. Returns the driver (its stream:
 * ev_driver_stream; the caller destroys it), or NULL when out of memory. */
ev_driver *cli_read(cli_ctx *c, const char *path, const cli_analysis *an, size_t n, int *code);

/* The same from a live source (--follow, --connect; NULL: a plain read).
 * While it reads, Ctrl-C stops the read: *code is then CLI_INTERRUPTED
 * and the analyses hold the results so far. */
struct cli_source;
ev_driver *cli_read_src(cli_ctx *c, const struct cli_source *src, const char *path,
                        const cli_analysis *an, size_t n, int *code);

/* cli_read_src for a caller that attaches its analyses itself (html's
 * page): attach(ctx, d) before the read; non-zero means out of memory. */
ev_driver *cli_read_with(cli_ctx *c, const struct cli_source *src, const char *path,
                         int (*attach)(void *ctx, ev_driver *d), void *ctx, int *code);
/* The budget every read charges (ev_driver_opts.budget): --memory-limit,
 * else half of the physical memory, less CLI_READ_BASE_BYTES charged at
 * once for what reading takes whatever the log. A read that an analysis
 * stops at the limit prints one message (where, the limit, what the
 * aggregates hold, what bounds them) and cli_read returns NULL with
 * *code CLI_FAIL: no result, no output. NULL when out of memory (no
 * limit then). */
#define CLI_READ_BASE_BYTES ((size_t)32 << 20)
ev_budget *cli_budget(cli_ctx *c);
/* For a command that runs its own driver: when the read stopped at the
 * memory limit, prints that one message (the counts of the analyses in
 * an[0..n) it knows) and returns 1; else 0. */
int cli_memory_stopped(cli_ctx *c, const char *path, const ev_stream *s,
                       const cli_analysis *an, size_t n);
/* The same for the analyses attached to d (all of them, in order). */
int cli_memory_stopped_driver(cli_ctx *c, const char *path, const ev_driver *d);
/* The same message when the budget is reached though the read was not
 * stopped by it (a consumer's own charge failed: top's frame); 1 if said. */
int cli_memory_reached_driver(cli_ctx *c, const char *path, const ev_driver *d);
/* That message, for a read at `offset` (a command's own reading loop). */
void cli_memory_message(cli_ctx *c, const char *path, uint64_t offset, const ev_budget *b,
                        const cli_analysis *an, size_t n);

/* Prints a stream's problems as above; returns the exit code they deserve. */
int cli_report_stream(cli_ctx *c, const char *path, const ev_stream *s);

/* -j N (cli.c parses it into c->jobs_given): the threads of the parallel
 * read; without -j, the number of online CPUs. cli_jobs_opts
 * puts them into driver options, cli_test_hooks the test hook
 * $EVPROF_TEST_CHUNK_BYTES into a driver; cli_jobs_note prints, when
 * $EVPROF_TEST_JOBS_NOTE is set, how the read went (tests). */
unsigned cli_jobs(const cli_ctx *c);
void cli_jobs_opts(const cli_ctx *c, ev_driver_opts *o);
void cli_test_hooks(ev_driver *d);
void cli_jobs_note(const ev_stream *s);

/* 1 when the read yielded nothing to report (unreadable, not an eventlog):
 * no output at all then. */
int cli_read_nothing(const ev_stream *s, int code);

#endif
