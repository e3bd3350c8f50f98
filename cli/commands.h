/* evprof subcommands: one function per file cli/cmd_NAME.c.
 *
 * Each takes the arguments after "evprof" (argv[0] is the subcommand name)
 * and returns an exit code: 0 ok, 1 bad input or failed run, 2 usage error.
 * To add a subcommand: declare it here and add one line to the table in
 * cli/main.c.
 */
#ifndef EVPROF_COMMANDS_H
#define EVPROF_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_all(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_folded(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_ticky(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_heap(int argc, char **argv);
int cmd_speedscope(int argc, char **argv);
int cmd_pprof(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_phases(int argc, char **argv);
int cmd_threads(int argc, char **argv);

#endif
