/* evprof dump FILE: every event, as `ghc-events show FILE` prints it: the
 * dump analysis (dump/dump.c, evprof/dump.h) under the shared selection
 * (--from/--to, marker windows, --cap) and --type, which only leave lines
 * out: what is printed is printed as without them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/read.h"
#include "cli/selection.h"
#include "evprof/driver.h"
#include "evprof/dump.h"

static const cli_cmd_help dump_help = {
    "dump",
    "[OPTIONS] FILE",
    "Prints the event types of the header, then every event sorted by time,\n"
    "one per line, exactly as 'ghc-events show FILE' does, but for control\n"
    "characters in the log's text (ghc-events writes them raw), shown as\n"
    "\\n, \\r, \\t or \\xNN as in every other output. FILE may be '-' for\n"
    "standard input.",
    "Memory: bounded by the capability count, not the log: the file is read\n"
    "twice, once to index its blocks and once by offset to merge them in time\n"
    "order (about 256 KiB per capability, 48 bytes per block). Standard input\n"
    "is spooled: up to 32 MiB in memory, past that in an unlinked file in\n"
    "$TMPDIR (or /tmp).\n"
    "\n"
    "A damaged or truncated log prints every event before the damage, then\n"
    "the error on standard error, and exits with status 1. A log without its\n"
    "end marker prints everything, warns, and exits with status 0.\n"
    "\n"
    "--follow and --connect read the log as it is written, but the lines come\n"
    "when the read ends (end marker, writer closed, --idle-timeout, Ctrl-C):\n"
    "time order needs every capability's blocks, so the output is the same as\n"
    "the dump of the finished log (after Ctrl-C: of the events read, exit 130).",
};

#define MAX_TYPES 64

/* "ID,ID,...": type ids 0..65535. Returns their count, or -1. */
static int parse_types(const char *s, uint16_t *types)
{
    int n = 0;

    while (*s) {
        char *end;
        if (*s < '0' || *s > '9' || n == MAX_TYPES)
            return -1;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v > 65535 || (*end && *end != ','))
            return -1;
        types[n++] = (uint16_t)v;
        s = *end ? end + 1 : end;
        if (*end && !*s)
            return -1;
    }
    return n;
}

/* ---- the command ------------------------------------------------------ */

/* --type ID,...: the ids and their number */
typedef struct type_list {
    uint16_t *ids;
    int n;
} type_list;

static int opt_types(const cli_args *a, void *var, const void *ctx)
{
    type_list *tl = var;
    (void)ctx;
    if ((tl->n = parse_types(a->value, tl->ids)) <= 0) {
        cli_usage_error(a->cmd, "--type wants type ids 0..65535 separated by commas "
                        "(at most %d), not '%s'", MAX_TYPES, a->value);
        return -1;
    }
    return 0;
}

int cmd_dump(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    uint16_t types[MAX_TYPES];
    int ntypes = -1;
    int id;

    cli_window_init(&w, c);
    type_list tl = { types, -1 };
    const cli_opt opts[] = {
        CLI_TIME_OPTS(&w),
        OPT_CALL(0, "cap", "N", cli_opt_cap, &w, NULL, "only events of capability N's blocks"),
        OPT_CALL(0, "type", "ID,...", opt_types, &tl, NULL, "only events of these type ids (as "
                 "the header lists them)"),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        OPT_END,
    };
    id = cli_parse(&dump_help, opts, argc, argv, &a);
    ntypes = tl.n;
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    int code;

    ev_dump *dp = ev_dump_create(stdout, types, ntypes > 0 ? (size_t)ntypes : 0);
    if (!dp) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    cli_analysis an = { ev_dump_analysis(dp), dp };
    ev_driver *d = cli_read_src(c, &w.src, path, &an, 1, &code);

    int err;
    if (ev_dump_finish(dp, &err) != EV_OK || ferror(stdout)) {
        fprintf(stderr, "evprof: standard output: cannot write: %s\n", strerror(err ? err : EIO));
        clearerr(stdout);   /* reported: main's backstop need not repeat it */
        code = CLI_FAIL;
    }
    if (ev_dump_status(dp) != EV_OK) {
        fprintf(stderr, "evprof: %s: out of memory\n", cli_display_path(c, path));
        code = CLI_FAIL;
    }
    ev_dump_destroy(dp);
    ev_driver_destroy(d);
    return code;
}
