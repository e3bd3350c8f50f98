/* The context lent to cli/cmd_top.c (top_bridge.h): the one it runs
 * with, for as long as it runs. */
#include "cli/top_bridge.h"

#include "cli/commands.h"

/* The context lent: state of this file only until cmd_top takes one. */
static cli_ctx *top_ctx;

cli_ctx *cli_top_ctx(void) { return top_ctx; }

int cli_run_top(cli_ctx *c, int argc, char **argv)
{
    top_ctx = c;
    int code = cmd_top(argc, argv);
    top_ctx = NULL;
    return code;
}
