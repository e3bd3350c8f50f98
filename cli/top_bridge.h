/* cli/cmd_top.c predates the run's context (cli/ctx.h) and calls the
 * helpers without one. This header, force-included into that file alone
 * (CMakeLists.txt), gives those calls the context main runs top with
 * (cli_run_top, top_bridge.c). When cmd_top takes a cli_ctx * and passes
 * it (the ten names below), delete both files and the CMake line. */
#ifndef EVPROF_CLI_TOP_BRIDGE_H
#define EVPROF_CLI_TOP_BRIDGE_H

#include "cli/cli.h"
#include "cli/exe.h"
#include "cli/read.h"
#include "cli/selection.h"

/* The context of the running top. */
cli_ctx *cli_top_ctx(void);

#define cli_budget() cli_budget(cli_top_ctx())
#define cli_display_path(p) cli_display_path(cli_top_ctx(), (p))
#define cli_exe_setup(e, h, l, o) cli_exe_setup(cli_top_ctx(), (e), (h), (l), (o))
#define cli_memory_stopped_driver(p, d) cli_memory_stopped_driver(cli_top_ctx(), (p), (d))
#define cli_memory_reached_driver(p, d) cli_memory_reached_driver(cli_top_ctx(), (p), (d))
#define cli_report_stream(p, s) cli_report_stream(cli_top_ctx(), (p), (s))
#define cli_window_check(p, r, s, l) cli_window_check(cli_top_ctx(), (p), (r), (s), (l))
#define cli_window_init(w) cli_window_init((w), cli_top_ctx())
#define cli_window_watch(w, n) cli_window_watch(cli_top_ctx(), (w), (n))
#undef CLI_MEMORY_OPT
#define CLI_MEMORY_OPT                                                               \
    OPT_CALL(0, "memory-limit", "SIZE", cli_opt_memory, cli_top_ctx(), NULL, CLI_MEMORY_HELP)

#endif
