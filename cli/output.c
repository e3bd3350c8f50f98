#include "output.h"

#include "evprof/driver.h"
#include "read.h"
#include "evprof/prof.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_window_init(cli_window *w)
{
    w->from_ns = 0;
    w->to_ns = UINT64_MAX;
    w->cap = -1;
    w->all = 0;
    w->output = NULL;
    w->src.follow = 0;
    w->src.idle_timeout = 0;
    w->src.connect = NULL;
}

static int parse_seconds(const cli_args *a, const char *name, uint64_t *ns)
{
    char *end;
    errno = 0;
    double v = strtod(a->value, &end);
    if (errno || end == a->value || *end || !isfinite(v) || v < 0 || v > 1.8e10) {
        cli_usage_error(a->cmd, "--%s wants seconds (a number >= 0), not '%s'", name, a->value);
        return -1;
    }
    *ns = (uint64_t)llround(v * 1e9);
    return 1;
}

int cli_window_done(const cli_args *a, int next_result, const cli_window *w, const char **path)
{
    if (next_result != CLI_END)
        return cli_done_code(next_result);
    if (w->src.connect) {
        if (!cli_want_pos(a, 0, 0, "FILE"))
            return CLI_USAGE;
        *path = w->src.connect;
        return -1;
    }
    if (w->src.idle_timeout > 0 && !w->src.follow) {
        cli_usage_error(a->cmd, "--idle-timeout applies to --follow");
        return CLI_USAGE;
    }
    if (!cli_want_pos(a, 1, 1, "FILE"))
        return CLI_USAGE;
    if (w->from_ns >= w->to_ns) {
        cli_usage_error(a->cmd, "--from must be before --to");
        return CLI_USAGE;
    }
    *path = a->pos[0];
    return -1;
}

int cli_window_option(cli_window *w, const cli_args *a, int id)
{
    char *end;
    switch (id) {
    case OPT_FROM:
        return parse_seconds(a, "from", &w->from_ns);
    case OPT_TO:
        return parse_seconds(a, "to", &w->to_ns);
    case OPT_CAP: {
        errno = 0;
        long v = strtol(a->value, &end, 10);
        if (errno || end == a->value || *end || v < 0 || v > 65534) {
            cli_usage_error(a->cmd, "--cap wants a capability number, not '%s'", a->value);
            return -1;
        }
        w->cap = (int32_t)v;
        return 1;
    }
    case OPT_ALL:
        w->all = 1;
        return 1;
    case OPT_OUTPUT:
        w->output = a->value;
        return 1;
    case OPT_FOLLOW:
        w->src.follow = 1;
        return 1;
    case OPT_IDLE_TIMEOUT: {
        uint64_t ns;
        if (parse_seconds(a, "idle-timeout", &ns) < 0)
            return -1;
        w->src.idle_timeout = (double)ns / 1e9;
        return 1;
    }
    case OPT_CONNECT:
        if (!ev_connect_addr_valid(a->value)) {
            cli_usage_error(a->cmd, "--connect wants unix:PATH or tcp:HOST:PORT, not '%s'",
                            a->value);
            return -1;
        }
        w->src.connect = a->value;
        return 1;
    default:
        return 0;
    }
}

int cli_out_open(cli_out *o, const char *path)
{
    o->path = path;
    o->tmp = NULL;
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    size_t n = strlen(path) + sizeof ".evprof-XXXXXX";
    o->tmp = malloc(n);
    if (!o->tmp) {
        fprintf(stderr, "evprof: %s: out of memory\n", path);
        return -1;
    }
    snprintf(o->tmp, n, "%s.evprof-XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd >= 0) {
        /* mkstemp makes 0600; the result should look like any new file */
        mode_t mask = umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask);
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        fprintf(stderr, "evprof: %s: cannot create: %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    return 0;
}

int cli_out_close(cli_out *o, int ok)
{
    int rc = 0;
    if (!o->tmp) {              /* stdout: main() checks the final flush */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "evprof: cannot write output: %s\n", strerror(errno));
            clearerr(stdout);
            return -1;
        }
        return 0;
    }
    if (fflush(o->f) != 0 || ferror(o->f)) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n", o->path, strerror(errno));
        ok = 0;
        rc = -1;
    }
    if (fclose(o->f) != 0 && ok) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n", o->path, strerror(errno));
        ok = 0;
        rc = -1;
    }
    if (ok && rename(o->tmp, o->path) != 0) {
        fprintf(stderr, "evprof: %s: cannot rename %s: %s\n", o->path, o->tmp, strerror(errno));
        rc = -1;
        ok = 0;
    }
    if (!ok)
        unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return rc;
}

prof_result *cli_load_profile(const char *path, const cli_window *w, int all, int *code,
                              int *no_samples)
{
    const char *name = cli_display_path(path);
    prof_filter f;

    prof_filter_init(&f);
    f.from_ns = w->from_ns;
    f.to_ns = w->to_ns;
    f.cap = w->cap;
    f.all = all;
    prof_profile *agg = prof_create(&f);
    if (!agg) {
        fprintf(stderr, "evprof: out of memory\n");
        *code = CLI_FAIL;
        return NULL;
    }
    ev_driver *d = cli_read_src(&w->src, path, &(cli_analysis){ &prof_analysis_ops, agg }, 1,
                                code);
    if (!d) {
        prof_destroy(agg);
        return NULL;
    }
    int nothing = cli_read_nothing(ev_driver_stream(d), *code);
    ev_driver_destroy(d);
    prof_result *p = nothing ? NULL : prof_snapshot(agg);
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
    if (*no_samples)
        fprintf(stderr, "evprof: %s: no time-profile samples (event 167): build with -prof and "
                "run with +RTS -p -l (see 'evprof info %s')\n", name, path);
    if (in->undefined_ccs)
        fprintf(stderr, "evprof: %s: warning: %llu cost-centre ids are used by samples but "
                "never defined (GHC issue 24148); shown as <undefined cc N>\n", name,
                (unsigned long long)in->undefined_ccs);
    return p;
}
