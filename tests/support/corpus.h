/* Test helpers: loading files and summarising decoded event streams. */
#ifndef EVPROF_TEST_CORPUS_H
#define EVPROF_TEST_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/eventlog.h"

/* The logs the tests need are in the repository (tests/data, the same
 * layout as the shared corpus); ../shared/corpus beside the project may add
 * the large ones (stop.hT), never be required. Tests run from the root. */
#define CORPUS_DIR "tests/data"
#define SHARED_CORPUS_DIR "../shared/corpus"

/* Where to read `path`: itself if it exists, else, for a path under
 * CORPUS_DIR, the same file under SHARED_CORPUS_DIR if that exists; NULL
 * when neither (a static buffer: use before the next call). */
const char *test_corpus_path(const char *path);

/* 1 and a "SKIPPED" line naming `path` on stdout when test_corpus_path
 * finds nothing: for the optional logs only. */
int test_skip_missing(const char *path);

/* Reads a whole file (through test_corpus_path); returns NULL if it
 * cannot. Caller frees. */
uint8_t *test_read_file(const char *path, size_t *len);

/* One decoded event, reduced to what identifies it. */
typedef struct test_ev {
    uint16_t type, cap;
    uint8_t decoded;
    uint64_t time, offset;
    uint32_t size;
    uint64_t digest;    /* FNV-1a over the payload and the typed fields */
} test_ev;

typedef struct test_run {
    test_ev *ev;
    size_t n, cap;
    ev_status status;       /* after finish */
    int missing_end;
    ev_error error;
    size_t num_types;
} test_run;

/* Decodes `buf` fed in chunks of `chunk` bytes (0: one chunk), or split
 * once at `split` when chunk == SIZE_MAX. */
void test_decode(const uint8_t *buf, size_t len, size_t chunk, size_t split, test_run *out);
void test_run_free(test_run *r);

/* Digest of an event's typed fields (so that chunking bugs that garble a
 * decoded field show up even when the payload bytes agree). */
uint64_t test_event_digest(const el_event *ev);

#endif
