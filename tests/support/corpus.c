#include "corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *test_corpus_path(const char *path)
{
    static char alt[4096];
    const size_t n = strlen(CORPUS_DIR);

    if (access(path, R_OK) == 0)
        return path;
    if (strncmp(path, CORPUS_DIR "/", n + 1) != 0)
        return NULL;
    snprintf(alt, sizeof alt, "%s%s", SHARED_CORPUS_DIR, path + n);
    return access(alt, R_OK) == 0 ? alt : NULL;
}

int test_skip_missing(const char *path)
{
    if (test_corpus_path(path))
        return 0;
    printf("SKIPPED: %s (optional: not in the repository, and no %s beside it)\n",
           path, SHARED_CORPUS_DIR);
    fflush(stdout);
    return 1;
}

uint8_t *test_read_file(const char *path, size_t *len)
{
    const char *found = test_corpus_path(path);
    FILE *f = found ? fopen(found, "rb") : NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;

    if (!f)
        return NULL;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t fnv_str(uint64_t h, el_str s)
{
    h = fnv(h, &s.len, sizeof s.len);
    return s.len ? fnv(h, s.ptr, s.len) : h;
}

uint64_t test_event_digest(const el_event *ev)
{
    uint64_t h = 14695981039346656037ull;

    h = fnv(h, ev->payload, ev->payload_len);
    if (!ev->decoded)
        return h;
    /* Strings and stacks point into borrowed memory: hash their contents. */
    switch (ev->type) {
    case EL_HEAP_PROF_COST_CENTRE:
        h = fnv(h, &ev->u.cost_centre.id, 4);
        h = fnv_str(h, ev->u.cost_centre.label);
        h = fnv_str(h, ev->u.cost_centre.module);
        h = fnv_str(h, ev->u.cost_centre.srcloc);
        h = fnv(h, &ev->u.cost_centre.flags, 1);
        break;
    case EL_PROF_SAMPLE_COST_CENTRE:
        h = fnv(h, &ev->u.prof_sample.cap, 4);
        h = fnv(h, &ev->u.prof_sample.ticks, 8);
        h = fnv(h, ev->u.prof_sample.stack, 4u * ev->u.prof_sample.depth);
        break;
    case EL_HEAP_PROF_SAMPLE_COST_CENTRE:
        h = fnv(h, &ev->u.heap_sample_data.residency, 8);
        h = fnv(h, ev->u.heap_sample_data.stack, 4u * ev->u.heap_sample_data.depth);
        break;
    case EL_HEAP_PROF_SAMPLE_STRING:
        h = fnv(h, &ev->u.heap_sample_data.residency, 8);
        h = fnv_str(h, ev->u.heap_sample_data.label);
        break;
    case EL_TICKY_COUNTER_DEF:
        h = fnv(h, &ev->u.ticky_def.id, 8);
        h = fnv_str(h, ev->u.ticky_def.kinds);
        h = fnv_str(h, ev->u.ticky_def.name);
        h = fnv_str(h, ev->u.ticky_def.json);
        h = fnv(h, &ev->u.ticky_def.info_tbl, 8);
        break;
    case EL_LOG_MSG: case EL_USER_MSG: case EL_RTS_IDENTIFIER: case EL_PROGRAM_ARGS:
    case EL_PROGRAM_ENV: case EL_THREAD_LABEL: case EL_USER_MARKER: case EL_USER_BINARY_MSG:
        h = fnv(h, &ev->u.text.capset, 4);
        h = fnv_str(h, ev->u.text.str);
        break;
    case EL_BLOCK_MARKER:
        h = fnv(h, &ev->u.block.size, 4);
        h = fnv(h, &ev->u.block.end_time, 8);
        h = fnv(h, &ev->u.block.cap, 2);
        break;
    default:
        break;
    }
    return h;
}

static int collect(void *ctx, const el_event *ev, const el_decoder *d)
{
    test_run *r = ctx;
    (void)d;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->ev = realloc(r->ev, r->cap * sizeof *r->ev);
        if (!r->ev)
            abort();
    }
    test_ev *t = &r->ev[r->n++];
    t->type = ev->type;
    t->cap = ev->cap;
    t->decoded = ev->decoded;
    t->time = ev->time;
    t->offset = ev->offset;
    t->size = ev->size;
    t->digest = test_event_digest(ev);
    return 0;
}

void test_decode(const uint8_t *buf, size_t len, size_t chunk, size_t split, test_run *out)
{
    el_decoder *d = el_decoder_create();
    el_event ev;
    ev_status st = EV_NEED_INPUT;
    size_t pos = 0;

    memset(out, 0, sizeof *out);
    if (!d)
        abort();
    while (pos < len && (st == EV_NEED_INPUT || st == EV_END)) {
        size_t n;
        if (chunk == SIZE_MAX)
            n = pos < split ? split - pos : len - pos;
        else
            n = chunk == 0 || chunk > len - pos ? len - pos : chunk;
        el_decoder_feed(d, buf + pos, n);
        pos += n;
        while ((st = el_decoder_next(d, &ev)) == EV_OK)
            collect(out, &ev, d);
    }
    if (st == EV_NEED_INPUT || st == EV_END)
        st = el_decoder_finish(d);
    out->status = st;
    out->missing_end = el_decoder_missing_end(d);
    out->error = *el_decoder_error(d);
    out->num_types = el_decoder_num_types(d);
    el_decoder_destroy(d);
}

void test_run_free(test_run *r)
{
    free(r->ev);
    memset(r, 0, sizeof *r);
}
