/* --exe PROG and --no-exe: the executable whose symbols name the -hi
 * bands no IPE entry names (heap.h, heap_exe_opts), in every command that
 * shows heap bands (heap, html, pprof --heap, top), and the note that
 * says what they named or why the program the log names was not used. */
#ifndef EVPROF_CLI_EXE_H
#define EVPROF_CLI_EXE_H

#include "cli/cli.h"
#include "evprof/heap.h"

typedef struct cli_exe {
    const char *path;           /* --exe PROG, or NULL */
    int none;                   /* --no-exe */
    heap_exe *exe;              /* PROG, open */
    char *dir;                  /* the log's folder */
} cli_exe;

#define CLI_EXE_OPTS(e)                                                              \
    OPT_STRING(0, "exe", "PROG", &(e)->path, "-hi bands that no IPE entry names: "  \
               "named by the symbols of PROG, the run's executable (default: the "   \
               "program the log names, when it is the run's)"),                      \
    OPT_FLAG(0, "no-exe", &(e)->none, "-hi bands that no IPE entry names stay "     \
             "addresses (no executable's symbols)")

/* After the options: opens --exe PROG (with a message and CLI_FAIL when
 * it cannot be read; CLI_USAGE with --no-exe) and fills o. `log` is the
 * log's path (its folder is where a relative argv[0] is taken from); NULL
 * or "-": the current folder. CLI_OK otherwise. */
int cli_exe_setup(cli_ctx *c, cli_exe *e, const cli_cmd_help *cmd, const char *log,
                  heap_exe_opts *o);
void cli_exe_close(cli_exe *e);

/* On stderr, for an -hi profile with bands that no IPE entry names: how
 * many the symbols named, or that they stay addresses and why the
 * executable was not used. */
void cli_exe_note(const char *name, const heap_info *in);

#endif
