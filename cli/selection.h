/* A selection that matches nothing is a usage error that says what the
 * log has (cli/selection.c). */
#ifndef EVPROF_CLI_SELECTION_H
#define EVPROF_CLI_SELECTION_H

#include <stdio.h>

#include "cli/output.h"
#include "evprof/driver.h"

/* The command's window, checked after each of its reads (cli_window_done
 * and cli_window_done_logs register it; diff each side's). With
 * `several_logs` a log that the window misses is said and read on; only
 * when it misses every log is the command's result an error
 * (cli_window_check_logs). NULL: nothing to check. */
void cli_window_watch(const cli_window *w, int several_logs);

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
int cli_window_check(const char *path, const el_read_result *r, int cut_short, int live);
/* 1 when the watched window misses the log of this read result (what
 * cli_window_check would say, without saying it). */
int cli_window_misses(const el_read_result *r);
/* For several logs: CLI_USAGE when the window missed every one. */
int cli_window_check_logs(void);

#endif
