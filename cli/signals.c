/* The CLI's signal handlers (signals.h). */
#include "cli/signals.h"

#include <string.h>
#include <unistd.h>

/* The context the handlers reach: set by cli_ctx_init before any handler
 * is installed, the run's for the rest of it. */
static cli_ctx *volatile signal_ctx;

void cli_signals_attach(cli_ctx *c) { signal_ctx = c; }

/* ---- Ctrl-C while a live source is read ----------------------------------
 * The driver sees the flag between events or while waiting and stops; the
 * command prints what it has. */

static void on_sigint(int sig)
{
    (void)sig;
    if (signal_ctx)
        signal_ctx->interrupted = 1;
}

int cli_catch_interrupt(cli_ctx *c, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;            /* no SA_RESTART: a blocked wait returns EINTR */
    c->interrupted = 0;
    return sigaction(SIGINT, &sa, old);
}

/* ---- temp files a fatal signal removes --------------------------------------
 * While a finished output is copied into a file with other names, a fatal
 * signal waits for the copy's end: cut there, the file would be shorter
 * than both its old and its new content. The handler notes the signal
 * (deferred) and returns when a copy runs (on whichever thread it lands);
 * the copy, once done, looks at the note and dies of the signal. Each
 * looks at the other's flag after writing its own (sequentially
 * consistent atomics), so one of them always sees it. */

static const int fatal_signals[CLI_N_FATAL] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };

static void die_of(int sig)
{
    cli_ctx *c = signal_ctx;
    for (size_t i = 0; c && i < CLI_MAX_PENDING; i++) {
        char *tmp = c->pending_tmp[i];
        if (tmp)
            unlink(tmp);
    }
    /* die of the signal itself, so that the exit status says which */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fatal_signal(int sig)
{
    cli_ctx *c = signal_ctx;
    if (c) {
        atomic_store(&c->deferred, sig);
        if (atomic_load(&c->copying))
            return;
    }
    die_of(sig);
}

int cli_signals_guard(cli_ctx *c, char *tmp)
{
    size_t slot = 0;
    while (slot < CLI_MAX_PENDING && c->pending_tmp[slot])
        slot++;
    if (slot == CLI_MAX_PENDING)
        return -1;
    c->pending_tmp[slot] = tmp;
    if (c->num_pending++ > 0)
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < CLI_N_FATAL; i++)
        sigaddset(&sa.sa_mask, fatal_signals[i]);
    for (size_t i = 0; i < CLI_N_FATAL; i++) {
        /* a signal ignored from the start (nohup, a background job's
         * SIGINT) stays ignored */
        c->guarded[i] = sigaction(fatal_signals[i], NULL, &c->saved_actions[i]) == 0 &&
                        c->saved_actions[i].sa_handler != SIG_IGN &&
                        sigaction(fatal_signals[i], &sa, NULL) == 0;
    }
    return 0;
}

void cli_signals_unguard(cli_ctx *c, const char *tmp)
{
    for (size_t i = 0; i < CLI_MAX_PENDING; i++)
        if (c->pending_tmp[i] == tmp) {
            c->pending_tmp[i] = NULL;
            if (--c->num_pending == 0)
                for (size_t k = 0; k < CLI_N_FATAL; k++)
                    if (c->guarded[k])
                        sigaction(fatal_signals[k], &c->saved_actions[k], NULL);
            return;
        }
}

void cli_signals_copy_begin(cli_ctx *c) { atomic_store(&c->copying, 1); }

void cli_signals_copy_done(cli_ctx *c)
{
    atomic_store(&c->copying, 0);
    int sig = atomic_load(&c->deferred);
    if (sig)
        die_of(sig);
}
