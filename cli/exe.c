/* --exe PROG, --no-exe and what became of them (cli/exe.h). */
#include "cli/exe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/read.h"

int cli_exe_setup(cli_ctx *c, cli_exe *e, const cli_cmd_help *cmd, const char *log,
                  heap_exe_opts *o)
{
    memset(o, 0, sizeof *o);
    if (e->none && e->path) {
        cli_usage_error(cmd, "--exe and --no-exe contradict each other");
        return CLI_USAGE;
    }
    if (e->none)
        return CLI_OK;
    if (e->path) {
        ev_error err;
        if (!(e->exe = heap_exe_open(e->path, cli_budget(c), &err))) {
            fprintf(stderr, "evprof: --exe %s: %s\n", e->path, err.msg);
            return CLI_FAIL;
        }
        o->given = e->exe;
        o->given_path = e->path;
        return CLI_OK;
    }
    o->from_log = 1;
    const char *slash = log && strcmp(log, "-") != 0 ? strrchr(log, '/') : NULL;
    if (slash) {
        size_t n = slash == log ? 1 : (size_t)(slash - log);
        if (!(e->dir = malloc(n + 1))) {
            fprintf(stderr, "evprof: out of memory\n");
            return CLI_FAIL;
        }
        memcpy(e->dir, log, n);
        e->dir[n] = '\0';
        o->dir = e->dir;
    }
    return CLI_OK;
}

void cli_exe_close(cli_exe *e)
{
    heap_exe_close(e->exe);
    e->exe = NULL;
    free(e->dir);
    e->dir = NULL;
}

void cli_exe_note(const char *name, const heap_info *in)
{
    if (!in->unresolved_ipe)
        return;
    unsigned long long n = in->unresolved_ipe, named = in->symbol_bands;
    if (in->exe_state == HEAP_EXE_USED) {
        fprintf(stderr, "evprof: %s: note: %llu info-table band%s no IPE entry (event 169): "
                "%llu named by the symbols of %s (marked '(symbol)'), %llu shown as "
                "addresses\n", name, n, n == 1 ? " has" : "s have", named,
                in->exe_path ? in->exe_path : "the executable", n - named);
        return;
    }
    fprintf(stderr, "evprof: %s: warning: %llu info-table band%s no IPE entry (event 169); "
            "shown as addresses\n", name, n, n == 1 ? " has" : "s have");
    if (in->exe_state != HEAP_EXE_UNUSED)
        return;
    if (in->exe_given)
        fprintf(stderr, "evprof: %s: --exe %s is not used: %s\n", name,
                in->exe_path ? in->exe_path : "", in->exe_why ? in->exe_why : "");
    else if (in->exe_path && in->program_path && strcmp(in->exe_path, in->program_path) != 0)
        fprintf(stderr, "evprof: %s: the program the log names, %s, is not used (%s): %s; "
                "--exe PROG names the bands by PROG's symbols\n", name, in->program_path,
                in->exe_path, in->exe_why ? in->exe_why : "");
    else if (in->exe_path)
        fprintf(stderr, "evprof: %s: the program the log names, %s, is not used: %s; --exe "
                "PROG names the bands by PROG's symbols\n", name, in->exe_path,
                in->exe_why ? in->exe_why : "");
    else
        fprintf(stderr, "evprof: %s: no executable to name them: %s; --exe PROG names them "
                "by PROG's symbols\n", name, in->exe_why ? in->exe_why : "");
}
