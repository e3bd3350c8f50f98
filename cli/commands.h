/* evprof subcommands: one function per file cli/cmd_NAME.c.
 *
 * Each takes the run's context (cli/ctx.h) and the arguments after
 * "evprof" (argv[0] is the subcommand name) and returns an exit code: 0
 * ok, 1 bad input or failed run, 2 usage error. To add a subcommand:
 * declare it here and add one line to the table in cli/main.c.
 */
#ifndef EVPROF_COMMANDS_H
#define EVPROF_COMMANDS_H

#include "cli/ctx.h"

int cmd_info(cli_ctx *c, int argc, char **argv);
int cmd_dump(cli_ctx *c, int argc, char **argv);
int cmd_all(cli_ctx *c, int argc, char **argv);
int cmd_report(cli_ctx *c, int argc, char **argv);
int cmd_folded(cli_ctx *c, int argc, char **argv);
int cmd_graph(cli_ctx *c, int argc, char **argv);
int cmd_ticky(cli_ctx *c, int argc, char **argv);
int cmd_gc(cli_ctx *c, int argc, char **argv);
int cmd_heap(cli_ctx *c, int argc, char **argv);
int cmd_speedscope(cli_ctx *c, int argc, char **argv);
int cmd_pprof(cli_ctx *c, int argc, char **argv);
int cmd_diff(cli_ctx *c, int argc, char **argv);
int cmd_html(cli_ctx *c, int argc, char **argv);
int cmd_top(cli_ctx *c, int argc, char **argv);
int cmd_metrics(cli_ctx *c, int argc, char **argv);
int cmd_merge(cli_ctx *c, int argc, char **argv);
int cmd_phases(cli_ctx *c, int argc, char **argv);
int cmd_threads(cli_ctx *c, int argc, char **argv);

#endif
