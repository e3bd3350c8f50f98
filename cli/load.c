/* The profile loader: one log or several summed (load.h). */
#include "cli/load.h"

#include <stdlib.h>
#include <string.h>

#include "cli/read.h"
#include "evprof/driver.h"
#include "evprof/info.h"
#include "evprof/textout.h"

void cli_no_samples(const char *name, const char *arg, const prof_result *p,
                    const el_read_result *r)
{
    const prof_info *in = prof_get_info(p);
    const char *rts = in->rts_version && in->rts_version[0] ? in->rts_version : NULL;
    char why[640];
    ev_facts f;
    ev_facts_of(r, &f);
    uint64_t defined = 0;
    for (size_t i = 0; i < prof_num_ccs(p); i++)
        defined += prof_cc_at(p, (uint32_t)i)->defined && !prof_cc_at(p, (uint32_t)i)->synthetic;
    info_prof_signs signs = {
        .rts = rts,
        .rts_len = rts ? strlen(rts) : 0,
        .ccs = defined,
        .rts_flags = info_rts_flags(in->argv, in->argc),
        .has_prof_begin = in->has_prof_begin,
        .prof_interval_ns = in->interval_ns,
        .prof_begin_s = (double)in->prof_begin_time / 1e9,
    };
    info_no_samples_why(why, sizeof why, &signs, &f);
    fprintf(stderr, "evprof: %s: no time-profile samples (event 167): ", name);
    tx_put(stderr, why, strlen(why));   /* a sentence, whole: its RTS identifier is shortened */
    fprintf(stderr, " (see 'evprof info %s')\n", arg);
}

/* The aggregate every load reads into: the window's filter (focus,
 * ignore, depth), `all`, the read's threads; NULL with *code set after a
 * message. */
static prof_profile *new_profile(const cli_window *w, int all, int *code)
{
    prof_filter f;
    prof_filter_init(&f);
    f.all = all;
    if ((*code = cli_window_prof_filter(w, &f)) != 0)
        return NULL;
    prof_profile *agg = prof_create(&f);
    if (!agg) {
        fprintf(stderr, "evprof: out of memory\n");
        *code = CLI_FAIL;
        return NULL;
    }
    prof_set_jobs(agg, cli_jobs(w->ctx));
    return agg;
}

prof_result *cli_load_profile_more(const char *path, const cli_window *w, int all,
                                   cli_load_more *more, int *code, int *no_samples)
{
    cli_ctx *c = w->ctx;
    const char *name = cli_display_path(c, path);
    prof_profile *agg = new_profile(w, all, code);
    if (!agg)
        return NULL;
    info_holds holds = { 0, 0, 0, 0 };
    cli_analysis an[3] = { { &prof_analysis_ops, agg }, { &info_holds_ops, &holds } };
    size_t n = 2;
    if (more && more->extra_ops)
        an[n++] = (cli_analysis){ more->extra_ops, more->extra };
    ev_driver *d = cli_read_src(c, &w->src, path, an, n, code);
    if (!d) {
        prof_destroy(agg);
        return NULL;
    }
    el_read_result read = ev_driver_stream(d)->read;
    if (more)
        more->result = read;
    int nothing = cli_read_nothing(ev_driver_stream(d), *code);
    ev_driver_destroy(d);
    prof_result *p = nothing ? NULL : prof_snapshot_take(agg, all);
    prof_destroy(agg);
    /* a damaged log still gets the results of everything before the
     * damage; one that yielded nothing (unreadable, not an eventlog) none */
    if (nothing)
        return NULL;
    if (!p) {
        fprintf(stderr, "evprof: %s: out of memory building the profile\n", name);
        *code = CLI_FAIL;
        return NULL;
    }
    const prof_info *in = prof_get_info(p);
    *no_samples = in->all_samples == 0;
    /* the source as a command line names it: "-" stays "-", a socket is
     * --connect ADDR, the rest escaped */
    char connect_arg[512];
    const char *arg = strcmp(path, "-") == 0 ? "-" : name;
    if (w->src.connect && strcmp(path, w->src.connect) == 0) {
        snprintf(connect_arg, sizeof connect_arg, "--connect %s", name);
        arg = connect_arg;
    }
    if (*no_samples && !(more && more->quiet)) {
        cli_no_samples(name, arg, p, &read);
        if (holds.heap || holds.heap_begin)
            fprintf(stderr, "evprof: %s: it holds a heap profile: try 'evprof heap %s'\n",
                    name, arg);
        if (holds.ticky)
            fprintf(stderr, "evprof: %s: it holds ticky counters: try 'evprof ticky %s'\n",
                    name, arg);
        if (holds.gc)
            fprintf(stderr, "evprof: %s: it holds GC events: try 'evprof gc %s'\n", name,
                    arg);
    }
    if (in->undefined_ccs)
        fprintf(stderr, "evprof: %s: warning: %llu cost-centre ids are used by samples but "
                "never defined (GHC issue 24148); shown as <undefined cc N>\n", name,
                (unsigned long long)in->undefined_ccs);
    return p;
}

prof_result *cli_load_profiles(const char *const *paths, size_t n, const cli_window *w, int all,
                               cli_load_more *more, int *code, int *no_samples)
{
    if (n == 1)
        return cli_load_profile_more(paths[0], w, all, more, code, no_samples);
    prof_profile *agg = new_profile(w, all, code);
    if (!agg)
        return NULL;
    int worst = CLI_OK;
    uint64_t samples = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = cli_display_path(w->ctx, paths[i]);
        if (prof_begin_log(agg) != 0)
            break;
        if (more && more->begin_log && more->begin_log(more->extra, agg, i, name) != 0) {
            fprintf(stderr, "evprof: out of memory\n");
            worst = CLI_FAIL;
            break;
        }
        cli_analysis an[2] = { { &prof_analysis_ops, agg } };
        size_t k = 1;
        if (more && more->extra_ops)
            an[k++] = (cli_analysis){ more->extra_ops, more->extra };
        int c;
        cli_source sel = { .select = w->src.select };     /* several logs: none live */
        ev_driver *d = cli_read_src(w->ctx, &sel, paths[i], an, k, &c);
        if (!d) {
            prof_destroy(agg);
            *code = c;
            return NULL;
        }
        if (more)
            more->result = ev_driver_stream(d)->read;
        int nothing = cli_read_nothing(ev_driver_stream(d), c);
        ev_driver_destroy(d);
        if (nothing) {
            /* one unreadable log spoils the sum: no profile */
            prof_destroy(agg);
            *code = c;
            return NULL;
        }
        if (c != CLI_OK)
            worst = c;
        /* the samples so far, without a snapshot of the tree per log */
        prof_counts pc;
        prof_count(agg, &pc);
        if (pc.samples == samples && !(more && more->quiet))
            fprintf(stderr, "evprof: %s: no time-profile samples (event 167)\n", name);
        samples = pc.samples;
    }
    int sel = cli_window_check_logs(w->ctx);
    if (sel != CLI_OK) {
        prof_destroy(agg);
        *code = sel;
        return NULL;
    }
    prof_result *p = (prof_status(agg) != EV_OK) ? NULL : prof_snapshot_take(agg, all);
    prof_destroy(agg);
    if (!p) {
        fprintf(stderr, "evprof: out of memory building the profile\n");
        *code = CLI_FAIL;
        return NULL;
    }
    *code = worst;
    const prof_info *in = prof_get_info(p);
    *no_samples = in->all_samples == 0;
    if (in->undefined_ccs)
        fprintf(stderr, "evprof: warning: %llu cost-centre ids are used by samples but never "
                "defined in their log (GHC issue 24148); shown as <undefined cc N>\n",
                (unsigned long long)in->undefined_ccs);
    return p;
}
