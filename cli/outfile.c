/* Output files (-o): a temp file published whole, written in place
 * where a shell's `>` would, removed on a fatal signal (outfile.h). */
#include "cli/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/signals.h"

/* ---- output files ------------------------------------------------------ */

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

int cli_out_same_file(cli_ctx *c, const cli_cmd_help *cmd, const char *output,
                      const char *input)
{
    if (!cli_out_is_input(output, input))
        return 0;
    cli_usage_error(cmd, "-o %s is the input file %s: it would be overwritten",
                    cli_display_path(c, output), cli_display_path(c, input));
    return 1;
}

/* the stdio buffer of an output file */
#define OUT_BUFFER_BYTES (256u << 10)

/* A device, FIFO, socket or pipe: written straight, as `>` does. */
static int open_straight(cli_out *o, const char *file, const char *path)
{
    int fd = open(file, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        fprintf(stderr, "evprof: %s: cannot open: %s\n", cli_display_path(o->ctx, path),
                strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return 0;
}

const char *cli_out_name(cli_ctx *c, const char *path)
{
    return !path || strcmp(path, "-") == 0 ? "standard output" : cli_display_path(c, path);
}

static int out_open(cli_out *o, const char *path);

int cli_out_open(cli_ctx *c, cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->ctx = c;
    o->path = path;
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    /* the messages at close name this output, whatever the caller's
     * buffer holds by then (all builds each name in one buffer) */
    if ((o->own = strdup(path)))
        o->path = o->own;
    if (out_open(o, o->path) == 0)
        return 0;
    free(o->own);
    o->own = NULL;
    return -1;
}

static int out_open(cli_out *o, const char *path)
{
    int fd = -1;
    struct stat st;
    /* a pipe, terminal or device that the path reaches (/dev/stdout and
     * /dev/fd/N into a pipe end at a link, pipe:[N], that names no file:
     * the kernel follows it where readlink cannot): write straight into
     * it, as `>` does */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return open_straight(o, path, path);
    if (!(o->target = follow_links(path))) {
        fprintf(stderr, "evprof: %s: cannot follow the link: %s\n",
                cli_display_path(o->ctx, path), strerror(errno));
        return -1;
    }
    int exists = stat(o->target, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n",
                cli_display_path(o->ctx, path), strerror(EISDIR));
        goto fail;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* it became one since the stat above */
        if (open_straight(o, o->target, path) != 0)
            goto fail;
        return 0;
    }
    /* a regular file or a new path: a temp file beside it, published
     * when the run succeeds; one with other names gets its content copied
     * in place so that every name sees it */
    o->in_place = exists && st.st_nlink > 1;
    size_t n = strlen(o->target) + sizeof ".evprof-XXXXXX";
    if (!(o->tmp = malloc(n))) {
        fprintf(stderr, "evprof: %s: out of memory\n", cli_display_path(o->ctx, path));
        goto fail;
    }
    snprintf(o->tmp, n, "%s.evprof-XXXXXX", o->target);
    if (cli_signals_guard(o->ctx, o->tmp) != 0) {
        fprintf(stderr, "evprof: %s: too many outputs open at once\n",
                cli_display_path(o->ctx, path));
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
        fprintf(stderr, "evprof: %s: cannot create: %s\n",
                cli_display_path(o->ctx, path), strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        cli_signals_unguard(o->ctx, o->tmp);
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
static void test_copy_pause(cli_ctx *c)
{
    if (c->copy_pause_ms < 0) {
        const char *e = getenv("EVPROF_TEST_COPY_PAUSE_MS");
        c->copy_pause_ms = e && *e ? strtol(e, NULL, 10) : 0;
    }
    long ms = c->copy_pause_ms;
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
 * copy's end (signals.c), then kill evprof with the file whole. */
static int copy_in_place(cli_out *o)
{
    char buf[65536];
    off_t total = 0;
    int fd = open(o->target, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || fseek(o->f, 0, SEEK_SET) != 0)
        goto fail;
    cli_signals_copy_begin(o->ctx);
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
        test_copy_pause(o->ctx);
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
    fprintf(stderr, "evprof: %s: cannot write: %s\n",
            cli_display_path(o->ctx, o->path), strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

int cli_out_close(cli_out *o, int ok)
{
    int rc = 0;
    if (o->f == stdout) {       /* main() checks the final flush */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "evprof: standard output: cannot write: %s\n", strerror(errno));
            clearerr(stdout);
            return -1;
        }
        return 0;
    }
    if (fflush(o->f) != 0 || ferror(o->f)) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n",
                cli_display_path(o->ctx, o->path), strerror(errno));
        ok = 0;
        rc = -1;
    }
    if (o->tmp && ok && o->in_place) {
        if (copy_in_place(o) != 0) {
            ok = 0;
            rc = -1;
        }
        cli_signals_copy_done(o->ctx);
    }
    if (fclose(o->f) != 0 && ok) {
        fprintf(stderr, "evprof: %s: cannot write: %s\n",
                cli_display_path(o->ctx, o->path), strerror(errno));
        ok = 0;
        rc = -1;
    }
    free(o->buf);
    o->buf = NULL;
    if (o->tmp) {
        if (ok && !o->in_place && rename(o->tmp, o->target) != 0) {
            fprintf(stderr, "evprof: %s: cannot rename %s: %s\n",
                    cli_display_path(o->ctx, o->path), o->tmp,
                    strerror(errno));
            rc = -1;
            ok = 0;
        }
        if (!ok || o->in_place)
            unlink(o->tmp);
        cli_signals_unguard(o->ctx, o->tmp);
        if (!ok && !o->quiet)
            fprintf(stderr, "evprof: %s: not written (the run failed)\n",
                    cli_display_path(o->ctx, o->path));
    }
    free(o->tmp);
    free(o->target);
    free(o->own);
    o->tmp = o->target = o->own = NULL;
    o->f = NULL;
    return rc;
}

