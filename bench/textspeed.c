/* textspeed: the writers' share of the profile commands (docs/BENCH.md).
 *
 *     textspeed FILE [RUNS]
 *
 * Reads FILE once on one thread (the time profile and the speedscope
 * timeline, as `report --jobs 1` and `speedscope --jobs 1` read it),
 * takes the snapshots the commands take (the text report's, and the one
 * of every sample that -pj JSON and speedscope use), then runs each
 * writer RUNS times (default 5) into a stream that counts the bytes and
 * drops them (what /dev/null does, without its system calls), and prints, per step, its
 * best CPU seconds (CLOCK_PROCESS_CPUTIME_ID: user + system of this
 * process), the bytes it wrote and their MB/s (MB = 10^6 bytes):
 *
 *     step	bytes	cpu_s	MB_per_s
 *
 * The steps: `read` (the driver and the aggregates), `snapshot` and
 * `snapshot_all`, then the writers `report` (GHC's .prof layout),
 * `json` (-pj), `folded`, `speedscope`, `callgraph` (cg_build: the call
 * graph from the tree, no text) and `dot` (cg_write's DOT text of it).
 * A writer's share of a command is its cpu_s over the command's (the
 * bench's rows). Exit 0, 1 when the log cannot be read or a writer
 * fails, 2 on usage errors.
 */
#define _GNU_SOURCE         /* fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evprof/driver.h"
#include "evprof/graph.h"
#include "evprof/prof.h"
#include "evprof/speedscope.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void row(const char *step, long long bytes, double s)
{
    if (bytes > 0)
        printf("%s\t%lld\t%.4f\t%.1f\n", step, bytes, s, s > 0 ? (double)bytes / 1e6 / s : 0.0);
    else
        printf("%s\t-\t%.4f\t-\n", step, s);
}

/* the sink: counts what it is given */
static ssize_t count_write(void *cookie, const char *buf, size_t size)
{
    (void)buf;
    *(long long *)cookie += (long long)size;
    return (ssize_t)size;
}

typedef struct writer_args {
    const prof_result *text, *all;
    const speedscope_timeline *t;
    const cg_graph *g;
} writer_args;

enum { W_REPORT, W_JSON, W_FOLDED, W_SPEEDSCOPE, W_DOT, W_COUNT };
static const char *const writer_names[W_COUNT] = { "report", "json", "folded", "speedscope", "dot" };

/* Writer w once into f; 0 or -1. */
static int write_one(int w, const writer_args *a, FILE *f)
{
    switch (w) {
    case W_REPORT:
        return prof_report_text(a->text, NULL, f);
    case W_JSON:
        return prof_report_json(a->all, NULL, f);
    case W_FOLDED:
        return prof_report_folded(a->text, NULL, f);
    case W_SPEEDSCOPE:
        return speedscope_write(a->all, a->t, NULL, f);
    case W_DOT:
        return cg_write(a->g, NULL, "dot", f, NULL) == EV_OK ? 0 : -1;
    }
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: textspeed FILE [RUNS]\n");
        return 2;
    }
    int runs = argc == 3 ? atoi(argv[2]) : 5;
    if (runs < 1) {
        fprintf(stderr, "textspeed: bad RUNS '%s'\n", argv[2]);
        return 2;
    }
    double t0 = cpu_now();
    prof_profile *agg = prof_create(NULL);
    speedscope_timeline *tl = speedscope_timeline_create(NULL);
    ev_driver *d = ev_driver_create(NULL);
    if (!agg || !tl || !d || ev_driver_attach(d, &prof_analysis_ops, agg) != 0 ||
        ev_driver_attach(d, &speedscope_timeline_ops, tl) != 0) {
        fprintf(stderr, "textspeed: out of memory\n");
        return 1;
    }
    const ev_stream *s = ev_driver_run_path(d, argv[1]);
    if (ev_stream_damaged(s) || prof_status(agg) != EV_OK || speedscope_timeline_finish(tl) != 0) {
        fprintf(stderr, "textspeed: %s: cannot read the log whole\n", argv[1]);
        return 1;
    }
    row("read", 0, cpu_now() - t0);

    /* the snapshots, best of runs (each a fresh copy) */
    writer_args a = { 0 };
    for (int all = 0; all <= 1; all++) {
        double best = 0;
        for (int r = 0; r < runs; r++) {
            double t1 = cpu_now();
            prof_result *p = prof_snapshot_all(agg, all);
            double dt = cpu_now() - t1;
            if (!p) {
                fprintf(stderr, "textspeed: out of memory\n");
                return 1;
            }
            if (r == 0 || dt < best)
                best = dt;
            if (r + 1 < runs)
                prof_result_destroy(p);
            else if (all)
                a.all = p;
            else
                a.text = p;
        }
        row(all ? "snapshot_all" : "snapshot", 0, best);
    }
    a.t = tl;

    long long written = 0;
    FILE *null = fopencookie(&written, "w", (cookie_io_functions_t){ .write = count_write });
    if (!null) {
        fprintf(stderr, "textspeed: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (int w = 0; w < W_COUNT && rc == 0; w++) {
        if (w == W_DOT) {
            double best = 0;
            cg_graph *g = NULL;
            for (int r = 0; r < runs; r++) {
                ev_error err;
                cg_destroy(g);
                g = NULL;
                double t1 = cpu_now();
                ev_status st = cg_build(a.text, NULL, &g, &err);
                double dt = cpu_now() - t1;
                if (st != EV_OK) {
                    fprintf(stderr, "textspeed: the call graph: %s\n", err.msg);
                    return 1;
                }
                if (r == 0 || dt < best)
                    best = dt;
            }
            row("callgraph", 0, best);
            a.g = g;
        }
        double best = 0;
        long long bytes = 0;
        for (int r = 0; r < runs && rc == 0; r++) {
            long long before = written;
            double t1 = cpu_now();
            rc = write_one(w, &a, null);
            if (fflush(null) != 0)
                rc = -1;
            double dt = cpu_now() - t1;
            bytes = written - before;
            if (r == 0 || dt < best)
                best = dt;
        }
        if (rc != 0)
            fprintf(stderr, "textspeed: the %s writer failed\n", writer_names[w]);
        row(writer_names[w], bytes, best);
    }
    fclose(null);
    cg_destroy((cg_graph *)a.g);
    prof_result_destroy((prof_result *)a.text);
    prof_result_destroy((prof_result *)a.all);
    ev_driver_destroy(d);
    speedscope_timeline_destroy(tl);
    prof_destroy(agg);
    return rc ? 1 : 0;
}
