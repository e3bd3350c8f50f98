#include "output.h"

#include "evprof/driver.h"
#include "evprof/info.h"
#include "evprof/markers.h"
#include "read.h"
#include "selection.h"
#include "evprof/prof.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void cli_window_init(cli_window *w)
{
    w->from_ns = 0;
    w->to_ns = UINT64_MAX;
    w->cap = -1;
    w->all = 0;
    w->output = NULL;
    w->from_marker = w->to_marker = w->between = w->phase = NULL;
    w->phase_nth = 1;
    w->from_nth = w->to_nth = 1;
    w->spans = NULL;
    w->num_spans = 0;
    w->focus = w->ignore = NULL;
    w->max_depth = 0;
    w->src.follow = 0;
    w->src.idle_timeout = 0;
    w->src.connect = NULL;
    w->src.on_bytes = NULL;
    w->src.bytes_ctx = NULL;
    w->src.select = NULL;
    w->src.has_fd = 0;
    w->src.fd = -1;
    w->src.quiet = 0;
}

static int parse_seconds(const cli_args *a, const char *name, uint64_t *ns)
{
    double v;
    if (cli_parse_decimal(a->value, 0, 1.8e10, &v) != 0) {
        cli_usage_error(a->cmd, "--%s wants seconds as a decimal number >= 0 (like 2 or 0.5), "
                        "not '%s'", name, a->value);
        return -1;
    }
    *ns = (uint64_t)llround(v * 1e9);
    return 1;
}

/* "marker:LABEL[#N]": the label and N (1 when absent). 1 when taken, 0
 * when `v` is not a marker, -1 after a usage error. */
static int parse_marker(const cli_args *a, const char *name, const char **label,
                        unsigned long *nth)
{
    const char *v = a->value;
    if (strncmp(v, "marker:", 7) != 0)
        return 0;
    v += 7;
    const char *hash = strrchr(v, '#');
    *nth = 1;
    if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1)) {
        char *end;
        errno = 0;
        *nth = strtoul(hash + 1, &end, 10);
        if (errno || *nth == 0 || *nth > 1000000000ul) {
            cli_usage_error(a->cmd, "--%s: the N of marker:LABEL#N counts from 1, not '%s'",
                            name, hash + 1);
            return -1;
        }
        /* the label is a copy without #N, kept for the command's life */
        static char *copies[2];
        int k = strcmp(name, "from") == 0 ? 0 : 1;
        free(copies[k]);
        copies[k] = strndup(v, (size_t)(hash - v));
        if (!copies[k]) {
            fprintf(stderr, "evprof: out of memory\n");
            return -1;
        }
        *label = copies[k];
        return 1;
    }
    *label = v;
    return 1;
}

/* --phase LABEL[#N]: the label and N (1 when absent). */
static int parse_phase(const cli_args *a, cli_window *w)
{
    const char *v = a->value, *hash = strrchr(v, '#');
    w->phase = v;
    w->phase_nth = 1;
    if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1)) {
        char *end;
        errno = 0;
        w->phase_nth = strtoul(hash + 1, &end, 10);
        if (errno || w->phase_nth == 0 || w->phase_nth > 1000000000ul) {
            cli_usage_error(a->cmd, "--phase: the N of LABEL#N counts from 1, not '%s'", hash + 1);
            return -1;
        }
        static char *copy;      /* the label without #N, kept for the command's life */
        free(copy);
        if (!(copy = strndup(v, (size_t)(hash - v)))) {
            fprintf(stderr, "evprof: out of memory\n");
            return -1;
        }
        w->phase = copy;
    }
    return 1;
}

static int parse_when(const cli_args *a, const char *name, uint64_t *ns, const char **label,
                      unsigned long *nth)
{
    int m = parse_marker(a, name, label, nth);
    if (m != 0)
        return m;
    *label = NULL;
    return parse_seconds(a, name, ns);
}

/* The selection names marks: they are found by a first read. */
static int has_marks(const cli_window *w)
{
    return w->from_marker || w->to_marker || w->between || w->phase;
}

int cli_window_done(const cli_args *a, int next_result, cli_window *w, const char **path)
{
    if (next_result != CLI_END)
        return cli_done_code(next_result);
    if ((w->src.follow || w->src.connect) && has_marks(w)) {
        cli_usage_error(a->cmd, "marker windows are found by reading the log first: they need "
                        "a finished file, not --follow or --connect (give --from/--to in "
                        "seconds)");
        return CLI_USAGE;
    }
    if (w->src.connect) {
        if (!cli_want_pos(a, 0, 0, "FILE"))
            return CLI_USAGE;
        *path = w->src.connect;
        if (cli_window_select(w) != CLI_OK)
            return CLI_FAIL;
        cli_window_watch(w, 0);
        return -1;
    }
    if (w->src.idle_timeout > 0 && !w->src.follow) {
        cli_usage_error(a->cmd, "--idle-timeout applies to --follow");
        return CLI_USAGE;
    }
    if (!cli_want_pos(a, 1, 1, "FILE"))
        return CLI_USAGE;
    if (w->phase && (w->from_marker || w->to_marker || w->between || w->from_ns ||
                     w->to_ns != UINT64_MAX)) {
        cli_usage_error(a->cmd, "--phase is a window of its own: it takes no --from, --to "
                        "or --between");
        return CLI_USAGE;
    }
    if (!w->from_marker && !w->to_marker && w->from_ns >= w->to_ns) {
        cli_usage_error(a->cmd, "--from must be before --to");
        return CLI_USAGE;
    }
    if (cli_out_same_file(a->cmd, w->output, a->pos[0]))
        return CLI_USAGE;
    if (has_marks(w) && strcmp(a->pos[0], "-") == 0) {
        cli_usage_error(a->cmd, "marker windows read the log twice: they need a file, not "
                        "standard input");
        return CLI_USAGE;
    }
    int code = cli_window_resolve(w, a->pos[0]);
    if (code != CLI_OK)
        return code;
    cli_window_watch(w, 0);
    *path = a->pos[0];
    return -1;
}

int cli_window_done_logs(const cli_args *a, int next_result, cli_window *w,
                         const char *const **paths, size_t *n)
{
    const char *one;
    if (next_result == CLI_END && a->npos > 1) {
        /* several logs: the checks of one, for each */
        if (w->src.follow || w->src.connect) {
            cli_usage_error(a->cmd, "--follow and --connect read one live log, not several");
            return CLI_USAGE;
        }
        if (!w->from_marker && !w->to_marker && w->from_ns >= w->to_ns) {
            cli_usage_error(a->cmd, "--from must be before --to");
            return CLI_USAGE;
        }
        if (has_marks(w)) {
            cli_usage_error(a->cmd, "marker windows (marker:LABEL, --between, --phase) take one log; "
                            "with several logs give --from/--to in seconds");
            return CLI_USAGE;
        }
        int stdin_seen = 0;
        for (int i = 0; i < a->npos; i++) {
            if (cli_out_same_file(a->cmd, w->output, a->pos[i]))
                return CLI_USAGE;
            if (strcmp(a->pos[i], "-") == 0 && stdin_seen++) {
                cli_usage_error(a->cmd, "standard input ('-') can be read only once");
                return CLI_USAGE;
            }
        }
        *paths = (const char *const *)a->pos;
        *n = (size_t)a->npos;
        if (cli_window_select(w) != CLI_OK)
            return CLI_FAIL;
        cli_window_watch(w, 1);
        return -1;
    }
    int done = cli_window_done(a, next_result, w, &one);
    if (done >= 0)
        return done;
    /* with --connect there is no FILE: the address names the log */
    *paths = w->src.connect ? &w->src.connect : (const char *const *)a->pos;
    *n = 1;
    return -1;
}

/* ---- marks ---------------------------------------------------------- */

static ev_span *spans_owned;   /* the windows live as long as the command */
static void free_spans(void) { free(spans_owned); }

/* "evprof: FILE: no marker 'X' in the log" or "marker 'X' #3 asked, the
 * log has 2"; the marks it has follow on the next line (resolve). */
static void no_marker(const char *path, const char *label, unsigned long nth, size_t have)
{
    const char *name = cli_display_path(path);
    fprintf(stderr, have == 0 ? "evprof: %s: no marker '" : "evprof: %s: marker '", name);
    cli_text_str(stderr, label, strlen(label));
    if (have == 0)
        fprintf(stderr, "' in the log (USER_MARKER 58, Debug.Trace.traceMarker)\n");
    else
        fprintf(stderr, "' #%lu asked, the log has %zu\n", nth, have);
}

static int mark_time(const char *path, const ev_markers *m, const char *label,
                     unsigned long nth, uint64_t *t)
{
    size_t n;
    const uint64_t *times = ev_markers_times(m, label, strlen(label), &n);
    if (nth > n) {
        no_marker(path, label, nth, n);
        return -1;
    }
    *t = times[nth - 1];
    return 0;
}

static int resolve_marks(cli_window *w, const char *path);

int cli_window_resolve(cli_window *w, const char *path)
{
    int code = resolve_marks(w, path);
    return code == CLI_OK ? cli_window_select(w) : code;
}

static int resolve_marks(cli_window *w, const char *path)
{
    if (!has_marks(w))
        return CLI_OK;
    ev_markers *m = ev_markers_create();
    if (!m) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    int code;
    cli_analysis an = { &ev_markers_ops, m };
    ev_driver *d = cli_read(path, &an, 1, &code);
    if (!d || cli_read_nothing(ev_driver_stream(d), code)) {
        ev_driver_destroy(d);
        ev_markers_destroy(m);
        return code == CLI_OK ? CLI_FAIL : code;
    }
    el_read_result read = ev_driver_stream(d)->read;
    ev_driver_destroy(d);
    /* a mark the log lacks, or marks that leave no window: a selection
     * that matches nothing (selection.c), said with what the log has */
    code = CLI_OK;
    if (w->from_marker && mark_time(path, m, w->from_marker, w->from_nth, &w->from_ns) != 0)
        code = CLI_USAGE;
    if (code == CLI_OK && w->to_marker &&
        mark_time(path, m, w->to_marker, w->to_nth, &w->to_ns) != 0)
        code = CLI_USAGE;
    if (code == CLI_OK && w->phase) {
        /* from the mark to the next one of any label, later in time (the
         * last phase runs to the end of the log) */
        if (mark_time(path, m, w->phase, w->phase_nth, &w->from_ns) != 0) {
            code = CLI_USAGE;
        } else {
            w->to_ns = UINT64_MAX;
            for (size_t i = 0; i < ev_markers_num_labels(m); i++) {
                const ev_marker_label *l = ev_markers_label_at(m, i);
                size_t n;
                const uint64_t *t = ev_markers_times(m, l->label, l->len, &n);
                size_t lo = 0, hi = n;      /* the first time after from */
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (t[mid] <= w->from_ns)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo < n && t[lo] < w->to_ns)
                    w->to_ns = t[lo];
            }
        }
    }
    if (code == CLI_OK && w->from_ns >= w->to_ns) {
        fprintf(stderr, "evprof: %s: --from (%.9f s) is not before --to (%.9f s)\n",
                cli_display_path(path), w->from_ns / 1e9,
                w->to_ns == UINT64_MAX ? INFINITY : w->to_ns / 1e9);
        code = CLI_USAGE;
    }
    if (code == CLI_OK && w->between) {
        size_t n;
        const uint64_t *t = ev_markers_times(m, w->between, strlen(w->between), &n);
        if (n < 2) {
            no_marker(path, w->between, 2, n);
            code = CLI_USAGE;
        } else {
            free(spans_owned);
            if (!(spans_owned = malloc(n / 2 * sizeof *spans_owned))) {
                fprintf(stderr, "evprof: out of memory\n");
                code = CLI_FAIL;
            } else {
                static int registered;
                if (!registered++)
                    atexit(free_spans);
                size_t k = 0;
                uint64_t sum = 0;
                for (size_t i = 0; i + 1 < n; i += 2) {
                    /* each pair, cut to --from/--to */
                    uint64_t a = t[i] > w->from_ns ? t[i] : w->from_ns;
                    uint64_t b = t[i + 1] < w->to_ns ? t[i + 1] : w->to_ns;
                    if (a < b) {
                        spans_owned[k++] = (ev_span){ a, b };
                        sum += b - a;
                    }
                }
                w->spans = spans_owned;
                w->num_spans = k;
                fprintf(stderr, "evprof: %s: --between '", cli_display_path(path));
                cli_text_str(stderr, w->between, strlen(w->between));
                fprintf(stderr, "': %zu window%s, %.6f s in all%s\n", k, k == 1 ? "" : "s",
                        sum / 1e9, n % 2 ? " (the last mark, unpaired, left out)" : "");
                if (k == 0) {
                    fprintf(stderr, "evprof: %s: no pair of marks inside --from/--to\n",
                            cli_display_path(path));
                    code = CLI_USAGE;
                }
            }
        }
    }
    if (code == CLI_USAGE) {
        fprintf(stderr, "evprof: %s: the log: ", cli_display_path(path));
        cli_log_has_print(stderr, NULL, &read, m);
        fputc('\n', stderr);
    }
    ev_markers_destroy(m);
    return code;
}

/* The selections made, freed at exit (a command makes one, diff one a side). */
static ev_select **selects_owned;
static size_t num_selects;

static void free_selects(void)
{
    for (size_t i = 0; i < num_selects; i++)
        ev_select_destroy(selects_owned[i]);
    free(selects_owned);
}

int cli_window_select(cli_window *w)
{
    ev_span one = { w->from_ns, w->to_ns };
    int all_time = !w->spans && w->from_ns == 0 && w->to_ns == UINT64_MAX;
    if (all_time && w->cap < 0) {
        w->src.select = NULL;
        return CLI_OK;
    }
    ev_select *sel = w->spans ? ev_select_create(w->spans, w->num_spans, w->cap)
                   : ev_select_create(&one, all_time ? 0 : 1, w->cap);
    ev_select **more = sel ? realloc(selects_owned, (num_selects + 1) * sizeof *more) : NULL;
    if (!more) {
        ev_select_destroy(sel);
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    if (!num_selects)
        atexit(free_selects);
    selects_owned = more;
    selects_owned[num_selects++] = sel;
    w->src.select = sel;
    return CLI_OK;
}

int cli_window_prof_filter(const cli_window *w, prof_filter *f)
{
    char err[300];

    f->focus = w->focus;
    f->ignore = w->ignore;
    f->max_depth = w->max_depth;
    if (prof_filter_check(f, err, sizeof err) != 0) {
        fprintf(stderr, "evprof: bad regular expression %s\n", err);
        return CLI_USAGE;
    }
    return 0;
}

int cli_window_option(cli_window *w, const cli_args *a, int id)
{
    unsigned long n;
    switch (id) {
    case OPT_FROM:
        return parse_when(a, "from", &w->from_ns, &w->from_marker, &w->from_nth);
    case OPT_TO:
        return parse_when(a, "to", &w->to_ns, &w->to_marker, &w->to_nth);
    case OPT_BETWEEN:
        w->between = a->value;
        return 1;
    case OPT_PHASE:
        return parse_phase(a, w);
    case OPT_FOCUS:
        w->focus = a->value;
        return 1;
    case OPT_IGNORE:
        w->ignore = a->value;
        return 1;
    case OPT_CAP:
        if (cli_parse_count(a, "cap", 0, 65534, &n) != 0)
            return -1;
        w->cap = (int32_t)n;
        return 1;
    case OPT_ALL:
        w->all = 1;
        return 1;
    case OPT_OUTPUT:
        w->output = a->value;
        return 1;
    case OPT_FOLLOW:
        w->src.follow = 1;
        return 1;
    case OPT_MEMORY_LIMIT:
        return cli_memory_option(a);
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

/* ---- output files ------------------------------------------------------ */

/* The temp files that a signal must remove: the outputs open at the
 * moment (`all` writes a few side by side). Opened and closed by one
 * thread; other threads only write into the files. */
#define MAX_PENDING 8
static char *volatile pending_tmp[MAX_PENDING];
static int num_pending;
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
#define N_FATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction saved_actions[N_FATAL];
static int guarded[N_FATAL];

/* While a finished output is copied into a file with other names
 * (copy_in_place), a fatal signal waits for the copy's end: cut there,
 * the file would be shorter than both its old and its new content. The
 * handler notes the signal (deferred) and returns when a copy runs (on
 * whichever thread it lands); the copy, once done, looks at the note and
 * dies of the signal. Each looks at the other's flag after writing its
 * own (sequentially consistent atomics), so one of them always sees it. */
static atomic_int copying, deferred;

static void die_of(int sig)
{
    for (size_t i = 0; i < MAX_PENDING; i++) {
        char *tmp = pending_tmp[i];
        if (tmp)
            unlink(tmp);
    }
    /* die of the signal itself, so that the exit status says which */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fatal_signal(int sig)
{
    atomic_store(&deferred, sig);
    if (atomic_load(&copying))
        return;
    die_of(sig);
}

/* Returns -1 when MAX_PENDING outputs are open already. */
static int guard_tmp(char *tmp)
{
    size_t slot = 0;
    while (slot < MAX_PENDING && pending_tmp[slot])
        slot++;
    if (slot == MAX_PENDING)
        return -1;
    pending_tmp[slot] = tmp;
    if (num_pending++ > 0)
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_FATAL; i++)
        sigaddset(&sa.sa_mask, fatal_signals[i]);
    for (size_t i = 0; i < N_FATAL; i++) {
        /* a signal ignored from the start (nohup, a background job's
         * SIGINT) stays ignored */
        guarded[i] = sigaction(fatal_signals[i], NULL, &saved_actions[i]) == 0 &&
                     saved_actions[i].sa_handler != SIG_IGN &&
                     sigaction(fatal_signals[i], &sa, NULL) == 0;
    }
    return 0;
}

static void unguard_tmp(const char *tmp)
{
    for (size_t i = 0; i < MAX_PENDING; i++)
        if (pending_tmp[i] == tmp) {
            pending_tmp[i] = NULL;
            if (--num_pending == 0)
                for (size_t k = 0; k < N_FATAL; k++)
                    if (guarded[k])
                        sigaction(fatal_signals[k], &saved_actions[k], NULL);
            return;
        }
}

/* The file a chain of symlinks ends at, as a shell redirection finds it
 * (the end may not exist yet). Returns a malloc'd path, or NULL with errno. */
static char *follow_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        if (hops == 40) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char target[PATH_MAX];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        target[n] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dir = target[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dir);
            memcpy(next + dir, target, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

int cli_out_is_input(const char *output, const char *input)
{
    struct stat out, in;
    if (!output || strcmp(output, "-") == 0 || stat(output, &out) != 0)
        return 0;
    if (strcmp(input, "-") == 0 ? fstat(STDIN_FILENO, &in) != 0 : stat(input, &in) != 0)
        return 0;
    return out.st_dev == in.st_dev && out.st_ino == in.st_ino;
}

int cli_out_same_file(const cli_cmd_help *cmd, const char *output, const char *input)
{
    if (!cli_out_is_input(output, input))
        return 0;
    cli_usage_error(cmd, "-o %s is the input file %s: it would be overwritten",
                    cli_display_path(output), cli_display_path(input));
    return 1;
}

/* the stdio buffer of an output file */
#define OUT_BUFFER_BYTES (256u << 10)

int cli_out_open(cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    int fd = -1;
    struct stat st;
    if (!(o->target = follow_links(path))) {
        fprintf(stderr, "evprof: %s: cannot follow the link: %s\n", cli_display_path(path), strerror(errno));
        return -1;
    }
    int exists = stat(o->target, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n", cli_display_path(path), strerror(EISDIR));
        goto fail;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* a device, FIFO or socket: write straight into it, as `>` does */
        fd = open(o->target, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
            fprintf(stderr, "evprof: %s: cannot open: %s\n", cli_display_path(path), strerror(errno));
            goto fail;
        }
        return 0;
    }
    /* a regular file or a new path: a temp file beside it, published
     * when the run succeeds; one with other names gets its content copied
     * in place so that every name sees it */
    o->in_place = exists && st.st_nlink > 1;
    size_t n = strlen(o->target) + sizeof ".evprof-XXXXXX";
    if (!(o->tmp = malloc(n))) {
        fprintf(stderr, "evprof: %s: out of memory\n", cli_display_path(path));
        goto fail;
    }
    snprintf(o->tmp, n, "%s.evprof-XXXXXX", o->target);
    if (guard_tmp(o->tmp) != 0) {
        fprintf(stderr, "evprof: %s: too many outputs open at once\n", cli_display_path(path));
        goto fail;
    }
    fd = mkstemp(o->tmp);
    if (fd >= 0 && !o->in_place) {
        if (exists) {
            /* keep the owner where allowed, then the mode (chown clears setuid) */
            (void)fchown(fd, st.st_uid, st.st_gid);
            (void)fchmod(fd, st.st_mode & 07777);
        } else {
            /* mkstemp makes 0600; the result should look like any new file */
            mode_t mask = umask(0);
            umask(mask);
            (void)fchmod(fd, 0666 & ~mask);
        }
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w+"))) {
        fprintf(stderr, "evprof: %s: cannot create: %s\n", cli_display_path(path), strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        unguard_tmp(o->tmp);
        goto fail;
    }
    /* outputs run to hundreds of MB (the folded stacks of a 1 GB log are
     * 690 MB): stdio's 4 KiB buffer made that 170k write calls; 256 KiB
     * makes it 2.6k (without the memory, stdio's own buffer) */
    if ((o->buf = malloc(OUT_BUFFER_BYTES)) && setvbuf(o->f, o->buf, _IOFBF, OUT_BUFFER_BYTES) != 0) {
        free(o->buf);
        o->buf = NULL;
    }
    return 0;
fail:
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    return -1;
}

/* Tests only (docs/evprof.1): a pause of that many milliseconds after
 * each block copied in place, so that a test can send a signal mid-copy. */
static void test_copy_pause(void)
{
    static long ms = -1;
    if (ms < 0) {
        const char *e = getenv("EVPROF_TEST_COPY_PAUSE_MS");
        ms = e && *e ? strtol(e, NULL, 10) : 0;
    }
    if (ms > 0) {
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
    }
}

/* Copies the finished temp file into the existing file `o->target`, over
 * its old bytes, then cuts it to the new length: at no moment shorter
 * than both its old and its new content (a SIGKILL or a crash midway
 * leaves the old length, new bytes first). The fatal signals wait for the
 * copy's end (on_fatal_signal), then kill evprof with the file whole. */
static int copy_in_place(cli_out *o)
{
    char buf[65536];
    off_t total = 0;
    int fd = open(o->target, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || fseek(o->f, 0, SEEK_SET) != 0)
        goto fail;
    atomic_store(&copying, 1);
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, o->f)) > 0) {
        for (size_t done = 0; done < n;) {
            ssize_t w = write(fd, buf + done, n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0)
                goto fail;
            done += (size_t)w;
        }
        total += (off_t)n;
        test_copy_pause();
    }
    if (ferror(o->f))
        goto fail;
    while (ftruncate(fd, total) != 0)
        if (errno != EINTR)
            goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    return 0;
fail:
    fprintf(stderr, "evprof: %s: cannot write: %s\n", cli_display_path(o->path), strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

/* After a copy in place: a fatal signal that came meanwhile kills now. */
static void copy_done(void)
{
    atomic_store(&copying, 0);
    int sig = atomic_load(&deferred);
    if (sig)
        die_of(sig);
}

int cli_out_close(cli_out *o, int ok)
{
    int rc = 0;
    if (o->f == stdout) {       /* main() checks the final flush */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "evprof: cannot write output: %s\n", strerror(errno));
            clearerr(stdout);
            return -1;
        }
        return 0;
    }
    if (fflush(o->f) != 0 || ferror(o->f)) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n", cli_display_path(o->path), strerror(errno));
        ok = 0;
        rc = -1;
    }
    if (o->tmp && ok && o->in_place) {
        if (copy_in_place(o) != 0) {
            ok = 0;
            rc = -1;
        }
        copy_done();
    }
    if (fclose(o->f) != 0 && ok) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n", cli_display_path(o->path), strerror(errno));
        ok = 0;
        rc = -1;
    }
    free(o->buf);
    o->buf = NULL;
    if (o->tmp) {
        if (ok && !o->in_place && rename(o->tmp, o->target) != 0) {
            fprintf(stderr, "evprof: %s: cannot rename %s: %s\n", cli_display_path(o->path), o->tmp,
                    strerror(errno));
            rc = -1;
            ok = 0;
        }
        if (!ok || o->in_place)
            unlink(o->tmp);
        unguard_tmp(o->tmp);
        if (!ok && !o->quiet)
            fprintf(stderr, "evprof: %s: not written (the run failed)\n", cli_display_path(o->path));
    }
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    o->f = NULL;
    return rc;
}

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
    info_no_samples_why(why, sizeof why, rts, rts ? strlen(rts) : 0, defined, &f);
    fprintf(stderr, "evprof: %s: no time-profile samples (event 167): ", name);
    cli_text_str(stderr, why, strlen(why));
    fprintf(stderr, " (see 'evprof info %s')\n", arg);
}

prof_result *cli_load_profile(const char *path, const cli_window *w, int all, int *code,
                              int *no_samples)
{
    return cli_load_profile_more(path, w, all, NULL, code, no_samples);
}

prof_result *cli_load_profile_more(const char *path, const cli_window *w, int all,
                                   cli_load_more *more, int *code, int *no_samples)
{
    const char *name = cli_display_path(path);
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
    prof_set_jobs(agg, cli_jobs());
    cli_holds c = { 0, 0, 0, 0 };
    cli_analysis an[3] = { { &prof_analysis_ops, agg }, { &cli_holds_ops, &c } };
    size_t n = 2;
    if (more && more->extra_ops)
        an[n++] = (cli_analysis){ more->extra_ops, more->extra };
    ev_driver *d = cli_read_src(&w->src, path, an, n, code);
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
        if (c.heap || c.heap_begin)
            fprintf(stderr, "evprof: %s: it holds a heap profile: try 'evprof heap %s'\n",
                    name, arg);
        if (c.ticky)
            fprintf(stderr, "evprof: %s: it holds ticky counters: try 'evprof ticky %s'\n",
                    name, arg);
        if (c.gc)
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
    prof_set_jobs(agg, cli_jobs());
    int worst = CLI_OK;
    uint64_t samples = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = cli_display_path(paths[i]);
        if (prof_begin_log(agg) != 0)
            break;
        if (more && more->begin_log && more->begin_log(more->extra, agg, i, paths[i]) != 0) {
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
        ev_driver *d = cli_read_src(&sel, paths[i], an, k, &c);
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
        prof_result *one = prof_snapshot_all(agg, all);
        uint64_t now = one ? prof_get_info(one)->all_samples : samples;
        if (now == samples && !(more && more->quiet))
            fprintf(stderr, "evprof: %s: no time-profile samples (event 167)\n", name);
        samples = now;
        prof_result_destroy(one);
    }
    int sel = cli_window_check_logs();
    if (sel != CLI_OK) {
        prof_destroy(agg);
        *code = sel;
        return NULL;
    }
    prof_result *p = prof_failed(agg) ? NULL : prof_snapshot_take(agg, all);
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
