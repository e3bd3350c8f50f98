/* evprof merge: one eventlog from several (runs of a distributed program,
 * a fleet, a test suite), as ghc-events' merge does: the merge engine
 * (merge/merge.c, evprof/merge.h) fed by two reads of each log through
 * cli_read (the one read loop, its messages); the messages here. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "evprof/driver.h"
#include "evprof/eventlog.h"
#include "evprof/merge.h"
#include "outfile.h"
#include "read.h"
#include "selection.h"


static const cli_cmd_help help = {
    "merge", "[OPTIONS] FILE FILE... -o OUT",
    "One eventlog from several, as ghc-events' merge does: one header with the\n"
    "union of the event types, then each log's events in turn. Capabilities and\n"
    "capsets of each log are numbered after the previous logs' (block markers,\n"
    "CAP_*, CAPSET_*, TASK_*, the capset of RTS and heap events, the capability\n"
    "of samples); cost centres are matched by module, label and source location\n"
    "as 'evprof report A B' matches them (161 definitions of a name seen before\n"
    "are dropped, new ones get fresh ids, stacks of 163 and 167 follow). Times\n"
    "are kept: each log's clock starts at its own RTS start.",
    "Thread ids are numbered after the previous logs' too. A type declared by\n"
    "two logs with different sizes is refused. See docs/ECOSYSTEM.md.\n",
};

/* What stopped the merge's analysis, said: 1 when it failed (a write
 * error of the output is said by cli_out_close), else 0. */
static int say_failure(cli_ctx *c, const ev_merge *m, const char *const *paths, const char *path)
{
    ev_error e;
    ev_merge_conflict cf;
    ev_status st = ev_merge_status(m, &e);
    if (st == EV_OK)
        return 0;
    if (st == EV_ERR_NOMEM) {
        fprintf(stderr, "evprof: out of memory\n");
    } else if (ev_merge_conflict_of(m, &cf)) {
        fprintf(stderr, "evprof: %s: event type %u (%s) has size %d here but %d in "
                "%s: the logs cannot share one header; not merged\n", cli_display_path(c, path),
                cf.type, el_type_name(cf.type) ? el_type_name(cf.type) : "unknown", cf.size,
                cf.first_size, cli_display_path(c, paths[cf.first_log]));
    } else if (st != EV_ERR_WRITE) {
        fprintf(stderr, "evprof: %s: at byte %llu (event type %u): cannot write the merged "
                "log: %s\n", cli_display_path(c, path), (unsigned long long)e.offset,
                (unsigned)e.type, e.msg);
    }
    return 1;
}

/* Reads log i into one of the merge's analyses. Returns 0, or -1 when the
 * log is not merged (the merge failed, or the read failed or was damaged:
 * said, the merge's failure first). */
static int read_log(cli_ctx *c, ev_merge *m, const ev_analysis_ops *ops,
                    const char *const *paths, size_t i)
{
    int code;
    /* quiet: the read's own messages after the merge's */
    cli_source src = { .quiet = 1 };
    ev_merge_begin_log(m, i);
    ev_driver *d = cli_read_src(c, &src, paths[i], &(cli_analysis){ ops, m }, 1, &code);
    if (!d)
        return -1;
    const ev_stream *s = ev_driver_stream(d);
    int failed = say_failure(c, m, paths, paths[i]);
    code = cli_report_stream(c, paths[i], s);
    int bad = failed || code != CLI_OK || s->stopped;
    if (bad && !failed)
        fprintf(stderr, "evprof: %s: not merged (the log is damaged or cut)\n",
                cli_display_path(c, paths[i]));
    ev_driver_destroy(d);
    return bad ? -1 : 0;
}

/* Both passes over the logs into `out`. CLI_OK, or CLI_FAIL after a
 * message (a write error of the output: cli_out_close's). */
static int merge_logs(cli_ctx *c, ev_merge *m, const char *const *paths, size_t n, cli_out *out,
                      const char *output, int *opened)
{
    ev_error e;
    for (size_t i = 0; i < n; i++) {
        if (read_log(c, m, &ev_merge_scan_ops, paths, i) != 0)
            return CLI_FAIL;
        (void)ev_merge_end_log(m, &e);
    }
    if (ev_merge_fits(m, &e) != EV_OK) {
        fprintf(stderr, "evprof: %s; not merged\n", e.msg);
        return CLI_FAIL;
    }
    if (cli_out_open(c, out, output) != 0)
        return CLI_FAIL;
    *opened = 1;
    ev_status st = ev_merge_start(m, out->f, &e);
    if (st != EV_OK) {
        fprintf(stderr, "evprof: %s\n", e.msg);
        return CLI_FAIL;
    }
    for (size_t i = 0; i < n; i++) {
        if (read_log(c, m, &ev_merge_copy_ops, paths, i) != 0)
            return CLI_FAIL;
        if (ev_merge_end_log(m, &e) != EV_OK)
            return CLI_FAIL;
    }
    st = ev_merge_finish(m, &e);
    if (st != EV_OK) {
        if (st != EV_ERR_WRITE)     /* a write error: cli_out_close names the output */
            fprintf(stderr, "evprof: %s: cannot write the merged log: %s\n",
                    cli_out_name(c, output), e.msg);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cmd_merge(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    int id;
    const char *output = NULL;

    const cli_opt opts[] = {
        OPT_STRING('o', "output", "FILE", &output, "the merged eventlog (required unless "
                   "standard output is not a terminal); written whole or not at all"),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    if (id != CLI_END)
        return cli_done_code(id);
    if (!cli_want_pos(&a, 1, 1 << 16, "FILE"))
        return CLI_USAGE;
    if ((!output || strcmp(output, "-") == 0) && isatty(STDOUT_FILENO)) {
        cli_usage_error(&help, "not writing an eventlog to a terminal: give -o FILE");
        return CLI_USAGE;
    }
    for (int i = 0; i < a.npos; i++) {
        if (cli_out_same_file(c, &help, output, a.pos[i]))
            return CLI_USAGE;
        if (strcmp(a.pos[i], "-") == 0) {
            fprintf(stderr, "evprof: <stdin>: cannot open: merge reads each log twice: give "
                    "files\n");
            return CLI_FAIL;
        }
    }
    ev_merge *m = ev_merge_create((size_t)a.npos);
    if (!m) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    cli_out out = { 0 };
    int opened = 0;
    int code = merge_logs(c, m, (const char *const *)a.pos, (size_t)a.npos, &out, output, &opened);
    /* the writer's buffer goes out before the output is closed */
    ev_merge_destroy(m);
    if (opened && cli_out_close(&out, code == CLI_OK) != 0)
        code = CLI_FAIL;
    return code;
}
