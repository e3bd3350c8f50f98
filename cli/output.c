#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_window_init(cli_window *w)
{
    w->from_ns = 0;
    w->to_ns = UINT64_MAX;
    w->cap = -1;
    w->all = 0;
    w->output = NULL;
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
