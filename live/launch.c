/* Starting a program whose eventlog a live view follows (`top -- PROG`):
 * how its RTS is told to write the eventlog into our FIFO, whatever is in
 * front of the Haskell program (live.h, live_launch_start).
 *
 * Three ways, by what PROG is:
 *   - a Haskell program (an ELF with GHC's RTS in it, not a known
 *     launcher): its own RTS options first, PROG +RTS -l -ol... -RTS ARGS
 *     (before ARGS, which may hold a "--"); its
 *     GHC version from `PROG +RTS --info -RTS`;
 *   - cabal or stack: Haskell programs whose own RTS takes GHCRTS and
 *     +RTS: with an eventlog-less RTS (Debian 12's, GHC 9.0) -l kills
 *     them, with GHC 9.4 and later they would write their own eventlog
 *     into the FIFO. An RTS stops taking options at "--" (checked on
 *     9.0.2 and 9.10.3), and both hand what follows "--" to the program
 *     they run: PROG ARGS [--] +RTS ... -RTS (cabal 3.4 on 9.0.2);
 *   - anything else (a script, a wrapper binary): GHCRTS in its
 *     environment, which every Haskell program it starts reads.
 * The flush interval (--eventlog-flush-interval, GHC 9.2 and later: an
 * older RTS refuses the option and does not start) goes only where the
 * GHC version is known to take it: PROG's own, else the one given, else
 * the `ghc` on PATH's (the compiler cabal and stack use by default).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* memmem */
#endif
#include "evprof/live.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"

extern char **environ;

/* PROG as execvp would find it, into buf; 0 when found. */
static int resolve(const char *prog, char *buf, size_t size)
{
    if (strchr(prog, '/')) {
        snprintf(buf, size, "%s", prog);
        return access(buf, X_OK);
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;; p++) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0)
            snprintf(buf, size, "%s", prog);
        else
            snprintf(buf, size, "%.*s/%s", (int)n, p, prog);
        struct stat st;
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
            return 0;
        if (!e)
            break;
        p = e;
    }
    return -1;
}

/* What the file is: an ELF with GHC's RTS linked in (the RTS's --info
 * text), another ELF, a script (#!), or unknown. */
enum { KIND_UNKNOWN, KIND_SCRIPT, KIND_ELF, KIND_HASKELL };

static int kind_of(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return KIND_UNKNOWN;
    struct stat st;
    int kind = KIND_UNKNOWN;
    unsigned char head[4];
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 4 ||
        pread(fd, head, 4, 0) != 4) {
        close(fd);
        return KIND_UNKNOWN;
    }
    if (head[0] == '#' && head[1] == '!') {
        kind = KIND_SCRIPT;
    } else if (memcmp(head, "\177ELF", 4) == 0) {
        kind = KIND_ELF;
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            static const char rts[] = "[(\"GHC RTS\", \"YES\")";
            if (memmem(m, (size_t)st.st_size, rts, sizeof rts - 1))
                kind = KIND_HASKELL;
            munmap(m, (size_t)st.st_size);
        }
    }
    close(fd);
    return kind;
}

/* cabal and stack: Haskell programs that run the program. */
static int is_launcher(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return strcmp(b, "stack") == 0 || strcmp(b, "cabal") == 0 || strncmp(b, "cabal-", 6) == 0 ||
           strncmp(b, "stack-", 6) == 0;
}

/* Runs argv with its standard output into a pipe (standard error to
 * /dev/null, standard input from it) for at most 3 s; the output's first
 * size-1 bytes into buf. 0, or -1 when it could not run. */
static int capture(char *const argv[], char *buf, size_t size)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, STDERR_FILENO);
            dup2(null, STDIN_FILENO);
        }
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left = 3000 - (long)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
        struct pollfd p = { fds[0], POLLIN, 0 };
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            break;
        ssize_t k = read(fds[0], buf + n, size - 1 - n);
        if (k <= 0)
            break;
        n += (size_t)k;
        if (n == size - 1)
            break;
    }
    buf[n] = '\0';
    close(fds[0]);
    if (waitpid(pid, NULL, WNOHANG) != pid) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    return 0;
}

/* The GHC version a Haskell program's RTS reports, into v. */
static int rts_version(const char *path, char *v, size_t size)
{
    char buf[8192];
    char *const argv[] = { (char *)path, (char *)"+RTS", (char *)"--info", (char *)"-RTS", NULL };
    if (capture(argv, buf, sizeof buf) != 0)
        return -1;
    static const char key[] = "(\"GHC version\", \"";
    const char *p = strstr(buf, key);
    if (!p)
        return -1;
    p += sizeof key - 1;
    size_t n = strcspn(p, "\"");
    if (n == 0 || n >= size)
        return -1;
    memcpy(v, p, n);
    v[n] = '\0';
    return 0;
}

/* `ghc --numeric-version` of the ghc on PATH, into v. */
static int path_ghc_version(char *v, size_t size)
{
    char ghc[4096], buf[64];
    if (resolve("ghc", ghc, sizeof ghc) != 0)
        return -1;
    char *const argv[] = { ghc, (char *)"--numeric-version", NULL };
    if (capture(argv, buf, sizeof buf) != 0)
        return -1;
    size_t n = strspn(buf, "0123456789.");
    if (n == 0 || n >= size)
        return -1;
    memcpy(v, buf, n);
    v[n] = '\0';
    return 0;
}

/* 1 when GHC `v` takes --eventlog-flush-interval (9.2 and later). */
static int takes_flush(const char *v)
{
    int major = 0, minor = 0;
    if (sscanf(v, "%d.%d", &major, &minor) != 2)
        return 0;
    return major > 9 || (major == 9 && minor >= 2);
}

const char *live_launch_way_name(live_launch_way w)
{
    switch (w) {
    case LIVE_LAUNCH_ARGS:
        return "args";
    case LIVE_LAUNCH_LAUNCHER:
        return "launcher";
    case LIVE_LAUNCH_ENV:
        return "env";
    }
    return "?";
}

void live_launch_opts_init(live_launch_opts *o)
{
    memset(o, 0, sizeof *o);
    o->flush_s = 0.5;
}

ev_status live_launch_start(live_launch *l, char *const *prog, int nprog,
                            const live_launch_opts *o, ev_error *err)
{
    memset(l, 0, sizeof *l);
    l->pid = -1;
    if (nprog < 1 || !o->eventlog)
        return ev_error_set(err, EV_ERR_USAGE, "no program to run");
    if (strpbrk(o->eventlog, " \t\n\r\f\v"))
        return ev_error_set(err, EV_ERR_USAGE, "the FIFO's path '%s' has a space, which an "
                            "RTS option cannot hold: set TMPDIR to a folder without one",
                            o->eventlog);
    char path[4096];
    int found = resolve(prog[0], path, sizeof path) == 0;
    int kind = found ? kind_of(path) : KIND_UNKNOWN;
    const char *what;
    if (kind == KIND_HASKELL && is_launcher(path)) {
        l->way = LIVE_LAUNCH_LAUNCHER;
        what = "a Haskell launcher, whose own RTS would take GHCRTS and +RTS before a "
               "'--': after it they reach the program it runs";
    } else if (kind == KIND_HASKELL) {
        l->way = LIVE_LAUNCH_ARGS;
        what = "a Haskell program";
    } else {
        l->way = LIVE_LAUNCH_ENV;
        what = kind == KIND_SCRIPT ? "a script: every Haskell program it starts reads GHCRTS"
               : kind == KIND_ELF  ? "not a Haskell program: every Haskell program it starts "
                                     "reads GHCRTS"
                                   : "not found or unreadable here: every Haskell program it "
                                     "starts reads GHCRTS";
    }

    /* the GHC whose RTS gets the options, for the flush interval */
    const char *from = "";
    if (l->way == LIVE_LAUNCH_ARGS && rts_version(path, l->version, sizeof l->version) == 0)
        from = "its RTS";
    else if (o->ghc_version && o->ghc_version[0]) {
        snprintf(l->version, sizeof l->version, "%s", o->ghc_version);
        from = "--ghc";
    } else if (l->way != LIVE_LAUNCH_ARGS &&
               path_ghc_version(l->version, sizeof l->version) == 0) {
        from = "the ghc on PATH";
    }
    l->flush = l->version[0] && takes_flush(l->version);

    char ol[4200], fl[64];
    snprintf(ol, sizeof ol, "-ol%s", o->eventlog);
    snprintf(fl, sizeof fl, "--eventlog-flush-interval=%g", o->flush_s);
    char flush_note[160];
    if (l->flush)
        snprintf(flush_note, sizeof flush_note, "GHC %s (%s) takes a flush interval", l->version,
                 from);
    else if (l->version[0])
        snprintf(flush_note, sizeof flush_note, "no flush interval: GHC %s (%s) writes a "
                 "capability's events when its buffer fills and at exit", l->version, from);
    else
        snprintf(flush_note, sizeof flush_note, "no flush interval: the program's GHC is not "
                 "known (--ghc VERSION tells it; 9.2 and later take one)");

    char **argv = calloc((size_t)nprog + 8, sizeof *argv);
    char *env = NULL;
    if (!argv)
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    int n = 0;
    for (int i = 0; i < nprog; i++)
        argv[n++] = prog[i];
    if (l->way == LIVE_LAUNCH_ENV) {
        const char *old = getenv("GHCRTS");
        size_t len = (old ? strlen(old) : 0) + strlen(ol) + strlen(fl) + 16;
        if (!(env = malloc(len))) {
            free(argv);
            return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
        }
        snprintf(env, len, "%s%s-l %s%s%s", old ? old : "", old && old[0] ? " " : "", ol,
                 l->flush ? " " : "", l->flush ? fl : "");
        snprintf(l->said, sizeof l->said, "ran %.200s with GHCRTS='%.200s' (%s; %s)", prog[0], env,
                 what, flush_note);
    } else if (l->way == LIVE_LAUNCH_ARGS) {
        /* first, before the program's own arguments: an RTS stops taking
         * options at "--", which they may hold */
        n = 1;
        argv[n++] = (char *)"+RTS";
        argv[n++] = (char *)"-l";
        argv[n++] = ol;
        if (l->flush)
            argv[n++] = fl;
        argv[n++] = (char *)"-RTS";
        for (int i = 1; i < nprog; i++)
            argv[n++] = prog[i];
        snprintf(l->said, sizeof l->said, "ran %.200s +RTS -l %.200s%s%s -RTS ... (%s; %s)",
                 prog[0], ol, l->flush ? " " : "", l->flush ? fl : "", what, flush_note);
    } else {
        /* last, after a "--": the launcher's RTS stops there and the
         * launcher hands what follows to the program it runs */
        int dashes = 0;
        for (int i = 1; i < nprog; i++)
            dashes |= strcmp(prog[i], "--") == 0;
        if (!dashes)
            argv[n++] = (char *)"--";
        argv[n++] = (char *)"+RTS";
        argv[n++] = (char *)"-l";
        argv[n++] = ol;
        if (l->flush)
            argv[n++] = fl;
        argv[n++] = (char *)"-RTS";
        snprintf(l->said, sizeof l->said, "ran %.200s ... %s+RTS -l %.200s%s%s -RTS (%s; %s)",
                 prog[0], dashes ? "" : "-- ", ol, l->flush ? " " : "", l->flush ? fl : "",
                 what, flush_note);
    }
    argv[n] = NULL;

    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = -1;
        if (o->output)
            fd = open(o->output, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        else if (o->quiet)
            fd = open("/dev/null", O_WRONLY);
        else
            fd = dup(STDERR_FILENO);    /* keep standard output for the figures */
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            if (o->output || o->quiet)
                dup2(fd, STDERR_FILENO);
            close(fd);
        }
        signal(SIGINT, SIG_DFL);
        if (env)
            setenv("GHCRTS", env, 1);
        execvp(argv[0], argv);
        fprintf(stderr, "evprof top: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int saved = errno;
    free(argv);
    free(env);
    if (pid < 0)
        return ev_error_set(err, EV_ERR_IO, "cannot start %s: %s", prog[0], strerror(saved));
    l->pid = pid;
    return EV_OK;
}
