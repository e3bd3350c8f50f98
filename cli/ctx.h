/* The run's context: what the commands' helpers keep for the length of a
 * command, in one object that main owns and passes to the command, which
 * hands it on explicitly (git's and perf's commands get theirs the same
 * way). Options that set it are bound to it: -j (CLI_JOBS_OPT(c)),
 * --memory-limit (CLI_MEMORY_OPT(c)); a cli_window keeps it for the
 * selection's options and checks (cli_window_init).
 *
 * No file of cli/ keeps state of its own, with one exception that says
 * why: cli/signals.c's pointer to the context, for the signal handlers (a
 * handler is called with no argument). */
#ifndef EVPROF_CLI_CTX_H
#define EVPROF_CLI_CTX_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "evprof/budget.h"
#include "evprof/driver.h"
#include "evprof/select.h"

#define CLI_MAX_PENDING 8       /* outputs open at once (all writes a few) */
#define CLI_N_FATAL 5           /* the fatal signals that remove them (signals.c) */

struct cli_window;

/* A path's visible form (cli_display_path), kept for the run. */
typedef struct cli_shown_path {
    const char *path;
    char *shown;
} cli_shown_path;

/* The last read reported (damage.c). */
typedef struct cli_last_report {
    char path[256];
    ev_facts f;
    int said;
} cli_last_report;

typedef struct cli_ctx {
    unsigned jobs_given;            /* -j N; 0: not given */
    uint64_t memory_limit;          /* --memory-limit; 0: the default */
    ev_budget *budget;              /* every read charges it (the logs of a sum
                                       add up); made at the first read */
    cli_shown_path *shown;          /* the visible forms handed out */
    size_t num_shown;
    cli_last_report last_report;    /* damage.c: a log read twice is said once */
    /* the window every read is checked against (cli_window_watch) */
    const struct cli_window *watched;
    int several;                    /* the command reads several logs: sum */
    int matched_any;                /* ... and one of them matched */
    /* kept for the command's life: the selections made (a command makes
     * one, diff one a side), and blocks (--between's windows, labels cut
     * of their #N) */
    ev_select **selects;
    size_t num_selects;
    void **blocks;
    size_t num_blocks;
    /* what the signal handlers touch (signals.c) */
    volatile sig_atomic_t interrupted;          /* Ctrl-C during a live read */
    char *volatile pending_tmp[CLI_MAX_PENDING];    /* temp files a fatal signal removes */
    int num_pending;
    struct sigaction saved_actions[CLI_N_FATAL];
    int guarded[CLI_N_FATAL];
    atomic_int copying, deferred;   /* a copy in place runs; the signal it deferred */
    long copy_pause_ms;             /* $EVPROF_TEST_COPY_PAUSE_MS; -1: not read yet */
} cli_ctx;

/* Before the command; makes it the one the signal handlers reach. */
void cli_ctx_init(cli_ctx *c);
/* After it: frees what it kept. */
void cli_ctx_free(cli_ctx *c);
/* Keeps a malloc'd block until cli_ctx_free. Returns it, or NULL (it is
 * freed) when out of memory. */
void *cli_ctx_keep(cli_ctx *c, void *block);
/* Keeps a selection until cli_ctx_free. 0, or -1 (it is destroyed) when
 * out of memory. */
int cli_ctx_keep_select(cli_ctx *c, ev_select *s);

#endif
