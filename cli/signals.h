/* The CLI's signal handlers: Ctrl-C during a live read, and the fatal
 * signals that must not leave an output's temp file behind (outfile.c).
 * A handler is called with no argument: it reaches the run's context
 * through the one pointer signals.c keeps (cli_signals_attach, made by
 * cli_ctx_init), the only file-scope state of cli/ besides top's bridge. */
#ifndef EVPROF_CLI_SIGNALS_H
#define EVPROF_CLI_SIGNALS_H

#include <signal.h>

#include "cli/ctx.h"

/* The context the handlers reach from now on. */
void cli_signals_attach(cli_ctx *c);

/* Installs the SIGINT handler that sets c->interrupted (cleared first;
 * old: the previous action, for sigaction to restore). 0 or -1. */
int cli_catch_interrupt(cli_ctx *c, struct sigaction *old);

/* A temp file that a fatal signal (INT, TERM, HUP, PIPE, XFSZ) removes
 * before the process dies of it; the handlers are installed with the
 * first one and the previous actions restored with the last one gone.
 * -1 when CLI_MAX_PENDING are guarded already. Opened and closed by one
 * thread; other threads only write into the files. */
int cli_signals_guard(cli_ctx *c, char *tmp);
void cli_signals_unguard(cli_ctx *c, const char *tmp);

/* Around a copy into a file with other names (outfile.c's copy in
 * place): a fatal signal waits for its end, then kills. */
void cli_signals_copy_begin(cli_ctx *c);
void cli_signals_copy_done(cli_ctx *c);

#endif
