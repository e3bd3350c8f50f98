/* evprof all FILE -d DIR: one read of the log, every output it supports.
 *
 * Every analysis is attached to one driver: the time profile, the GC
 * summary, the heap profile (its .hp streamed into DIR as censuses
 * complete), ticky counters and info. After the read each output is
 * written from a snapshot with the writer and the default options of its
 * own command, so each file is byte for byte what that command writes:
 *
 *     NAME.prof        evprof report FILE
 *     NAME.prof.json   evprof report --json FILE
 *     NAME.folded      evprof folded FILE
 *     NAME.svg         evprof graph FILE -o NAME.svg
 *     NAME.hp          evprof heap FILE -o NAME.hp
 *     NAME.ticky.csv   evprof ticky --format csv FILE
 *     NAME.gc.txt      evprof gc FILE
 *     NAME.info.txt    evprof info FILE
 *
 * NAME is the log's file name without `.eventlog`. Outputs a log has no
 * data for are not written (a line on stderr says which).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "evprof/gc.h"
#include "evprof/graph.h"
#include "evprof/heap.h"
#include "evprof/info.h"
#include "evprof/prof.h"
#include "evprof/ticky.h"
#include "format.h"
#include "load.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"



static const cli_cmd_help help = {
    "all", "[OPTIONS] FILE",
    "Reads the log once and writes every output it supports into DIR, each\n"
    "identical to what its own command writes: NAME.prof (report), NAME.prof.json\n"
    "(report --json), NAME.folded (folded), NAME.svg (graph), NAME.hp (heap -o),\n"
    "NAME.ticky.csv (ticky --format csv), NAME.gc.txt (gc), NAME.info.txt (info).",
    "Outputs the log has no data for are skipped, with a line on standard error.\n"
    "A damaged log still gets the outputs of the events before the damage, and\n"
    "exit status 1.\n"
    "\n"
    "--follow and --connect read the log as it is written; the files appear when\n"
    "the read ends (end marker, writer closed, --idle-timeout), each whole; Ctrl-C\n"
    "writes them all for the events read so far and exits 130. With --connect,\n"
    "NAME defaults to the address's last part (give --name).",
};

typedef struct all_out {
    cli_ctx *ctx;
    const char *dir, *name;
    char path[4096];
    int code;
    int written;
    el_read_result read;        /* how the read ended */
} all_out;

static const char *out_path(all_out *a, const char *ext)
{
    snprintf(a->path, sizeof a->path, "%s/%s%s", a->dir, a->name, ext);
    return a->path;
}

/* Every file `all` may write, DIR/NAME and one of these. */
static const char *const all_exts[] = {
    ".prof", ".prof.json", ".folded", ".svg", ".hp", ".ticky.csv", ".gc.txt", ".info.txt",
};

/* 1 after a usage error when one of the outputs is the input log under
 * any name (NAME.svg a symlink to it, x.prof read with --name x): the
 * check -o makes, for each. */
static int refuse_input(all_out *a, const char *input)
{
    for (size_t i = 0; i < sizeof all_exts / sizeof all_exts[0]; i++)
        if (cli_out_is_input(out_path(a, all_exts[i]), input)) {
            cli_usage_error(&help, "%s is the input file %s: it would be overwritten (give "
                            "another --dir or --name)", cli_display_path(a->ctx, a->path),
                            cli_display_path(a->ctx, input));
            return 1;
        }
    return 0;
}

/* Opens DIR/NAME.EXT, or records the failure. */
static int open_out(all_out *a, cli_out *o, const char *ext)
{
    if (cli_out_open(a->ctx, o, out_path(a, ext)) != 0) {
        a->code = CLI_FAIL;
        return -1;
    }
    return 0;
}

static void close_out(all_out *a, cli_out *o, int ok)
{
    if (cli_out_close(o, ok) != 0 || !ok)
        a->code = CLI_FAIL;
    else
        a->written++;
}

static void skip(const char *name, const char *what, const char *why)
{
    fprintf(stderr, "evprof: %s: no %s: %s\n", name, what, why);
}

/* NAME: the log's base name without .eventlog; "stdin" for "-". */
static char *default_name(const char *path)
{
    if (strcmp(path, "-") == 0)
        return strdup("stdin");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 9 && strcmp(base + n - 9, ".eventlog") == 0)
        n -= 9;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, base, n);
        s[n] = '\0';
    }
    return s;
}

/* After the read, the profile's outputs are written by four threads: the
 * call graph is laid out by Graphviz on one (Graphviz is used by that
 * thread alone; its SVG waits in memory), the JSON on another, the folded
 * stacks on a third, the .prof on this one (on a large log the folded
 * stacks are the most bytes, then the .prof, then the JSON: together
 * they kept the second core busy only when each had its own thread).
 * The snapshots are only read; files are opened and closed by this
 * thread (cli_out), the others only write into them. */
typedef struct graph_job {
    const prof_result *r;
    const char *name;
    char *svg;
    size_t len;
    ev_status st;
    ev_error err;
} graph_job;

static void *graph_thread(void *arg)
{
    graph_job *job = arg;
    cg_opts go;
    cg_opts_init(&go);
    cg_graph *g;
    FILE *m = open_memstream(&job->svg, &job->len);
    if (!m) {
        job->st = EV_ERR_NOMEM;
        snprintf(job->err.msg, sizeof job->err.msg, "out of memory");
        return NULL;
    }
    job->st = cg_build(job->r, &go, &g, &job->err);
    if (job->st == EV_OK) {
        cg_write_opts wo;
        cg_write_opts_init(&wo);
        wo.source_name = job->name;
        job->st = cg_write(g, &wo, "svg", m, &job->err);
        cg_destroy(g);
    }
    if (fclose(m) != 0 && job->st == EV_OK) {
        job->st = EV_ERR_WRITE;
        snprintf(job->err.msg, sizeof job->err.msg, "out of memory");
    }
    return NULL;
}

typedef struct stacks_job {
    const prof_result *r;
    const prof_report_opts *ro;
    FILE *f;                        /* NULL: not opened */
    int ok;
} stacks_job;

static void *json_thread(void *arg)
{
    stacks_job *job = arg;
    if (job->f)
        job->ok = cli_format_write(prof_formats, "json", job->r, job->ro, job->f) == EV_OK;
    return NULL;
}

static void *folded_thread(void *arg)
{
    stacks_job *job = arg;
    if (job->f)
        job->ok = prof_report_folded(job->r, NULL, job->f) == 0;
    return NULL;
}

/* Runs fn(arg) on a thread of its own, or here when none can be made;
 * returns whether there is a thread to join. */
static int spawn(pthread_t *th, void *(*fn)(void *), void *arg)
{
    if (pthread_create(th, NULL, fn, arg) == 0)
        return 1;
    fn(arg);
    return 0;
}

static void write_profile(all_out *a, prof_profile *agg, const char *name)
{
    cli_out o, oj, of;
    prof_result *json = NULL;
    graph_job job = { .name = name };
    pthread_t th, tj, tf;
    int threaded = 0;
    /* one copy for the text (and the graph), then the tree itself for the
     * JSON: the call graph, the longest of the writers on a large log (a
     * Graphviz layout), starts while the JSON's snapshot is made */
    prof_result *text = prof_snapshot_all(agg, 0);
    if (text && prof_get_info(text)->all_samples == 0) {
        cli_no_samples(name, name, text, &a->read);
        goto done;
    }
    /* the time zone read once here: the writers' dates (localtime_r)
     * then only read it, whichever thread comes first */
    tzset();
    if (text) {
        job.r = text;
        threaded = spawn(&th, graph_thread, &job);
        json = prof_snapshot_take(agg, 1);
    }
    if (!text || !json) {
        fprintf(stderr, "evprof: %s: out of memory building the profile\n", name);
        a->code = CLI_FAIL;
        goto done;
    }

    prof_report_opts ro;
    prof_report_opts_init(&ro);
    ro.source_name = name;
    int text_open = open_out(a, &o, ".prof") == 0;
    stacks_job jj = { json, &ro, NULL, 0 }, fj = { text, &ro, NULL, 0 };
    if (open_out(a, &oj, ".prof.json") == 0)
        jj.f = oj.f;
    if (open_out(a, &of, ".folded") == 0)
        fj.f = of.f;
    int json_threaded = spawn(&tj, json_thread, &jj);
    int folded_threaded = spawn(&tf, folded_thread, &fj);
    if (text_open)
        close_out(a, &o, cli_format_write(prof_formats, "text", text, &ro, o.f) == EV_OK);
    if (json_threaded)
        pthread_join(tj, NULL);
    if (jj.f)
        close_out(a, &oj, jj.ok);
    if (folded_threaded)
        pthread_join(tf, NULL);
    if (fj.f)
        close_out(a, &of, fj.ok);

    if (threaded)
        pthread_join(th, NULL);
    threaded = 0;
    if (job.st != EV_OK) {
        fprintf(stderr, "evprof: %s: %s\n", name, job.err.msg);
        a->code = CLI_FAIL;
    } else if (open_out(a, &o, ".svg") == 0) {
        close_out(a, &o, fwrite(job.svg, 1, job.len, o.f) == job.len);
    }
done:
    if (threaded)
        pthread_join(th, NULL);
    free(job.svg);
    prof_result_destroy(text);
    prof_result_destroy(json);
}

static void write_ticky(all_out *a, const ticky_set *agg, const char *name)
{
    ticky_set *t = ticky_snapshot(agg);
    if (!t) {
        fprintf(stderr, "evprof: %s: out of memory building the ticky table\n", name);
        a->code = CLI_FAIL;
        return;
    }
    const ticky_info *in = ticky_get_info(t);
    if (in->counters == 0 && in->begin_events == 0) {
        skip(name, "ticky counters", "build with -ticky (GHC 9.2 or later) and run with "
             "+RTS -lT");
        ticky_destroy(t);
        return;
    }
    ticky_view_opts vo;
    ticky_view_opts_init(&vo);
    ticky_view v;
    cli_out o;
    if (ticky_view_build(t, &vo, &v) != 0) {
        fprintf(stderr, "evprof: %s: out of memory building the ticky table\n", name);
        a->code = CLI_FAIL;
    } else {
        if (open_out(a, &o, ".ticky.csv") == 0)
            close_out(a, &o, cli_format_write(ticky_formats, "csv", t, &v, o.f) == EV_OK);
        ticky_view_free(&v);
    }
    ticky_destroy(t);
}

static void write_gc(all_out *a, const gc_summary *agg, const char *name)
{
    gc_summary *s = gc_snapshot(agg);
    if (!s) {
        fprintf(stderr, "evprof: %s: out of memory building the GC summary\n", name);
        a->code = CLI_FAIL;
        return;
    }
    if (!gc_get_result(s)->has_gc_events) {
        skip(name, "GC summary", "no GC events: run with +RTS -l");
    } else {
        gc_report_opts ro;
        gc_report_opts_init(&ro);
        ro.source_name = name;
        cli_out o;
        if (open_out(a, &o, ".gc.txt") == 0)
            close_out(a, &o, cli_format_write(gc_formats, "text", s, &ro, o.f) == EV_OK);
    }
    gc_destroy(s);
}

int cmd_all(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    int id;
    all_out ao = { .ctx = c, .dir = ".", .code = CLI_OK };
    const char *name_opt = NULL;

    cli_window_init(&w, c);
    const cli_opt opts[] = {
        OPT_STRING('d', "dir", "DIR", &ao.dir, "write the outputs into DIR (created if "
                   "missing; default .)"),
        OPT_STRING('n', "name", "NAME", &name_opt, "file names start with NAME (default: the "
                   "log's name without .eventlog)"),
        CLI_TIME_OPTS(&w),
        CLI_CAP_OPT(&w),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    const char *name = cli_display_path(c, path);
    if (name_opt && (!*name_opt || strchr(name_opt, '/'))) {
        cli_usage_error(&help, "--name wants a file name without '/', not '%s'", name_opt);
        return CLI_USAGE;
    }
    if (mkdir(ao.dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "evprof: %s: cannot create the directory: %s\n",
                cli_display_path(c, ao.dir), strerror(errno));
        return CLI_FAIL;
    }
    char *base = name_opt ? strdup(name_opt) : default_name(path);
    if (!base) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    ao.name = base;
    if (!w.src.connect && refuse_input(&ao, path)) {
        free(base);
        return CLI_USAGE;
    }

    /* the .hp streams while the log is read; the rest waits for the end */
    cli_out hp;
    heap_writer *wr = NULL;
    heap_profile *heap = NULL;
    if (open_out(&ao, &hp, ".hp") != 0) {
        free(base);
        return CLI_FAIL;
    }
    hp.quiet = 1;
    wr = heap_writer_create(HEAP_FORMAT_HP, hp.f);
    heap = wr ? heap_create(NULL, heap_writer_census, wr) : NULL;
    prof_profile *prof = prof_create(NULL);
    prof_set_jobs(prof, cli_jobs(c));
    gc_summary *gc = gc_create();
    ticky_set *ticky = ticky_create();
    info_log *info = info_create();
    int code = CLI_FAIL;
    ev_driver *d = NULL;
    if (!heap || !prof || !gc || !ticky || !info) {
        fprintf(stderr, "evprof: out of memory\n");
        cli_out_close(&hp, 0);
        goto out;
    }
    const cli_analysis an[] = {
        { &prof_analysis_ops, prof }, { &gc_analysis_ops, gc }, { &heap_analysis_ops, heap },
        { &ticky_analysis_ops, ticky },
        { info_analysis_for(w.src.select), info },
    };
    d = cli_read_src(c, &w.src, path, an, sizeof an / sizeof an[0], &code);
    if (!d || cli_read_nothing(ev_driver_stream(d), code)) {
        cli_out_close(&hp, 0);
        goto out;
    }
    ao.code = code;
    ao.read = ev_driver_stream(d)->read;

    /* the heap profile: written already, published when it has censuses */
    const heap_info *hi = heap_get_info(heap);
    if (!hi->has_begin && !hi->censuses_seen) {
        cli_out_close(&hp, 0);
        skip(name, "heap profile", "run with +RTS -hT -l, or -hc, -hy, ... in a -prof build");
    } else {
        hp.quiet = 0;
        close_out(&ao, &hp, heap_writer_finish(wr, heap) == 0);
    }
    write_profile(&ao, prof, name);
    write_ticky(&ao, ticky, name);
    write_gc(&ao, gc, name);
    cli_out o;
    if (open_out(&ao, &o, ".info.txt") == 0)
        close_out(&ao, &o, cli_format_write(info_formats, "text", info, path, o.f) == EV_OK);
    fprintf(stderr, "evprof: %s: %d files written in %s\n", name, ao.written,
            cli_display_path(c, ao.dir));
    code = ao.code;

out:
    ev_driver_destroy(d);
    heap_writer_destroy(wr);
    heap_destroy(heap);
    prof_destroy(prof);
    gc_destroy(gc);
    ticky_destroy(ticky);
    info_destroy(info);
    free(base);
    return code;
}
