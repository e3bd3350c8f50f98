/* walk: the benchmark's baseline (docs/BENCH.md).
 *
 *     walk FILE [--buf KIB]
 *
 * The least work that reading an eventlog takes: read() into one buffer
 * (1 MiB by default, the size evprof's reader uses), parse the header for
 * the per-type sizes, then for each event read its type, timestamp and
 * (variable types) length and skip the payload. Nothing is decoded. Prints
 * bytes, events, seconds and MiB/s on one line. Exit 0 when the log ends
 * with its end marker, 1 on a bad, truncated or unreadable log, 2 on
 * usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "minwalk.h"

static int walk(const char *path, mw_reader *r, uint64_t *events, uint64_t *last_time)
{
    if (mw_header(r) != 0)
        goto fail;
    uint64_t n = 0, last = 0;
    for (;;) {
        const uint8_t *ev;
        size_t rec;
        int rc = mw_next(r, &ev, &rec);
        if (rc < 0)
            goto fail;
        if (rc > 0)
            break;
        last = be64(ev + 2);
        n++;
    }
    *events = n;
    *last_time = last;
    return 0;
fail:
    fprintf(stderr, "walk: %s: %s at offset %llu\n", path, r->error,
            (unsigned long long)mw_offset(r));
    return 1;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    size_t buf_size = (size_t)1 << 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--buf") == 0 && i + 1 < argc) {
            char *end;
            unsigned long kib = strtoul(argv[++i], &end, 10);
            if (*end != '\0' || kib == 0 || kib > (1ul << 20)) {
                fprintf(stderr, "walk: bad --buf value\n");
                return 2;
            }
            buf_size = (size_t)kib << 10;
        } else if (path == NULL && argv[i][0] != '-') {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (path == NULL) {
        fprintf(stderr, "usage: walk FILE [--buf KIB]\n");
        return 2;
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "walk: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    mw_reader *r = mw_open(fd, buf_size);
    int rc = 1;
    uint64_t events = 0, last_time = 0, bytes = 0;
    if (r == NULL) {
        fprintf(stderr, "walk: out of memory\n");
    } else {
        rc = walk(path, r, &events, &last_time);
        bytes = mw_offset(r);
    }
    close(fd);
    mw_close(r);
    if (rc != 0)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("bytes %llu events %llu last_time %llu seconds %.3f MiB/s %.1f\n",
           (unsigned long long)bytes, (unsigned long long)events,
           (unsigned long long)last_time, secs,
           secs > 0 ? (double)bytes / (1 << 20) / secs : 0.0);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "walk: cannot write the result\n");
        return 1;
    }
    return 0;
}
