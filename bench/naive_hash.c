/* naive_hash: a yardstick of the benchmark (docs/BENCH.md).
 *
 *     naive_hash FILE
 *
 * What straightforward C does with a time profile: read the events with
 * the minimal walk (minwalk.h), and hash the stack of every
 * PROF_SAMPLE_COST_CENTRE event (167) into one open-addressing table of
 * distinct stacks with a count each; the stacks' bytes are kept in one
 * growing arena. No tree, no cost-centre names, no report. Prints
 * samples, distinct stacks, frames kept, seconds and MiB/s. Exit 0 on a
 * complete log, 1 on a bad one or no memory, 2 on usage errors.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "minwalk.h"

#define EV_PROF_SAMPLE 167

typedef struct entry {
    uint64_t hash;               /* 0: empty */
    uint64_t off;                /* into the arena */
    uint32_t len;                /* bytes */
    uint32_t count;
} entry;

typedef struct table {
    entry *e;
    size_t size, used;           /* size: a power of two */
    uint8_t *arena;
    size_t arena_len, arena_cap;
} table;

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return h | 1;
}

static int grow(table *t)
{
    size_t n = t->size ? t->size * 2 : 4096;
    entry *e = calloc(n, sizeof *e);
    if (e == NULL)
        return -1;
    for (size_t i = 0; i < t->size; i++) {
        if (!t->e[i].hash)
            continue;
        size_t k = t->e[i].hash & (n - 1);
        while (e[k].hash)
            k = (k + 1) & (n - 1);
        e[k] = t->e[i];
    }
    free(t->e);
    t->e = e;
    t->size = n;
    return 0;
}

/* Counts one sample of the stack s[0..len). */
static int add(table *t, const uint8_t *s, uint32_t len)
{
    if ((t->used + 1) * 2 > t->size && grow(t) != 0)
        return -1;
    uint64_t h = hash_bytes(s, len);
    size_t k = h & (t->size - 1);
    for (;; k = (k + 1) & (t->size - 1)) {
        entry *e = &t->e[k];
        if (!e->hash)
            break;
        if (e->hash == h && e->len == len && memcmp(t->arena + e->off, s, len) == 0) {
            e->count++;
            return 0;
        }
    }
    if (t->arena_len + len > t->arena_cap) {
        size_t cap = t->arena_cap ? t->arena_cap * 2 : (size_t)1 << 20;
        while (cap < t->arena_len + len)
            cap *= 2;
        uint8_t *a = realloc(t->arena, cap);
        if (a == NULL)
            return -1;
        t->arena = a;
        t->arena_cap = cap;
    }
    memcpy(t->arena + t->arena_len, s, len);
    t->e[k] = (entry){ h, t->arena_len, len, 1 };
    t->arena_len += len;
    t->used++;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: naive_hash FILE\n");
        return 2;
    }
    const char *path = argv[1];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "naive_hash: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    mw_reader *r = mw_open(fd, (size_t)1 << 20);
    table t = { 0 };
    uint64_t samples = 0;
    int rc = r == NULL ? -1 : mw_header(r);
    while (rc == 0) {
        const uint8_t *ev;
        size_t rec;
        rc = mw_next(r, &ev, &rec);
        if (rc != 0 || be16(ev) != EV_PROF_SAMPLE)
            continue;
        /* header 12, capset u32, ticks u64, depth u8, depth x u32 */
        if (rec < 12 + 13 || rec < 12 + 13 + (size_t)ev[24] * 4) {
            r->error = "short sample event";
            rc = -1;
            break;
        }
        if (add(&t, ev + 25, (uint32_t)ev[24] * 4) != 0) {
            r->error = "out of memory";
            rc = -1;
            break;
        }
        samples++;
    }
    if (rc < 0)
        fprintf(stderr, "naive_hash: %s: %s at offset %llu\n", path,
                r ? r->error : "out of memory", r ? (unsigned long long)mw_offset(r) : 0ull);
    uint64_t bytes = r ? mw_offset(r) : 0;
    close(fd);
    mw_close(r);
    size_t distinct = t.used, frames = t.arena_len / 4;
    free(t.e);
    free(t.arena);
    if (rc < 0)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("bytes %llu samples %llu distinct_stacks %zu frames %zu seconds %.3f MiB/s %.1f\n",
           (unsigned long long)bytes, (unsigned long long)samples, distinct, frames, secs,
           secs > 0 ? (double)bytes / (1 << 20) / secs : 0.0);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "naive_hash: cannot write the result\n");
        return 1;
    }
    return 0;
}
