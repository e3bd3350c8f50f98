/* evprof dump FILE: every event, as `ghc-events show FILE` prints it.
 *
 * ghc-events prints the header's event types, then all events sorted by
 * time (a stable sort: ties keep file order). The whole log must be held
 * to sort it, so dump keeps each event's raw record, not its text (text is
 * 1-3 times bigger than the binary):
 *
 *  - an arena of 1 MiB chunks holds every record in file order (type,
 *    time, length field of variable-size events, payload: the bytes of
 *    the file) after a 6-byte prefix (capability of the enclosing block,
 *    record length);
 *  - the records form runs whose times never decrease (a log's blocks
 *    are written in time order, so a run is about one block); 24 bytes
 *    describe each run.
 *
 * A k-way merge of the runs by (time, file position) is the stable sort,
 * done without an index. Memory is therefore about the file size plus 6
 * bytes per event plus 24 bytes per run: a few runs per megabyte for logs
 * GHC writes; 30 bytes per event in the worst case, a log whose times run
 * backwards.
 *
 * To print, a second decoder is primed with the same header (rebuilt from
 * the first decoder's event types) and fed the records in merged order,
 * one at a time; each decoded event gets back its stored capability and is
 * formatted by el_show_line into one reused text buffer, written out in
 * large pieces.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "eventlog/bytes.h"
#include "evprof/eventlog.h"
#include "evprof/show.h"

static const cli_cmd_help dump_help = {
    "dump",
    "FILE",
    "Prints the event types of the header, then every event sorted by time,\n"
    "one per line, exactly as 'ghc-events show FILE' does. FILE may be '-'\n"
    "for standard input.",
    NULL,
    "Memory: the whole log is held to sort it: about the file size plus 6\n"
    "bytes per event (at most 30 for a log whose times run backwards).\n"
    "\n"
    "A damaged or truncated log prints every event before the damage, then\n"
    "the error on standard error, and exits with status 1. A log without its\n"
    "end marker prints everything, warns, and exits with status 0.",
};

/* ---- record store ----------------------------------------------------- */

#define CHUNK_SHIFT 20
#define CHUNK_SIZE ((size_t)1 << CHUNK_SHIFT)
#define PREFIX_SIZE 6u          /* u16 cap, u32 record length (host order) */
#define OUT_FLUSH_SIZE ((size_t)256 << 10)

/* A run of records whose times never decrease; in the merge, its head. */
typedef struct dump_run {
    uint64_t time;              /* time of the head record */
    uint64_t pos;               /* head: chunk << CHUNK_SHIFT | offset */
    uint64_t left;              /* records after the head */
} dump_run;

typedef struct dump_store {
    uint8_t **chunks;
    size_t *chunk_used;         /* bytes used in each chunk */
    size_t n_chunks, cap_chunks;
    dump_run *runs;
    size_t n_runs, cap_runs;
    uint64_t last_time;
    uint64_t n_events;
    int nomem;
} dump_store;

static void store_free(dump_store *s)
{
    for (size_t i = 0; i < s->n_chunks; i++)
        free(s->chunks[i]);
    free(s->chunks);
    free(s->chunk_used);
    free(s->runs);
}

/* n bytes (n <= CHUNK_SIZE) after the last record, in its chunk or at the
 * start of a new one; NULL when out of memory. */
static uint8_t *store_alloc(dump_store *s, size_t n, uint64_t *pos)
{
    if (s->n_chunks == 0 || CHUNK_SIZE - s->chunk_used[s->n_chunks - 1] < n) {
        if (s->n_chunks == s->cap_chunks) {
            size_t cap = s->cap_chunks ? s->cap_chunks * 2 : 16;
            uint8_t **c = realloc(s->chunks, cap * sizeof *c);
            if (!c)
                return NULL;
            s->chunks = c;
            size_t *u = realloc(s->chunk_used, cap * sizeof *u);
            if (!u)
                return NULL;
            s->chunk_used = u;
            s->cap_chunks = cap;
        }
        uint8_t *chunk = malloc(CHUNK_SIZE);
        if (!chunk)
            return NULL;
        s->chunks[s->n_chunks] = chunk;
        s->chunk_used[s->n_chunks] = 0;
        s->n_chunks++;
    }
    size_t last = s->n_chunks - 1;
    *pos = (uint64_t)last << CHUNK_SHIFT | s->chunk_used[last];
    uint8_t *p = s->chunks[last] + s->chunk_used[last];
    s->chunk_used[last] += n;
    return p;
}

static const uint8_t *store_at(const dump_store *s, uint64_t pos)
{
    return s->chunks[pos >> CHUNK_SHIFT] + (pos & (CHUNK_SIZE - 1));
}

/* Position of the record after the one at pos (which is not the last). */
static uint64_t store_next(const dump_store *s, uint64_t pos)
{
    uint32_t len;
    size_t chunk = pos >> CHUNK_SHIFT;
    size_t off = (size_t)(pos & (CHUNK_SIZE - 1));

    memcpy(&len, s->chunks[chunk] + off + 2, 4);
    off += PREFIX_SIZE + len;
    if (off >= s->chunk_used[chunk])
        return (uint64_t)(chunk + 1) << CHUNK_SHIFT;
    return (uint64_t)chunk << CHUNK_SHIFT | off;
}

static uint64_t record_time(const dump_store *s, uint64_t pos)
{
    return be64(store_at(s, pos) + PREFIX_SIZE + 2);
}

/* el_read_path callback: copies the record. Stops the read on NOMEM. */
static int keep_event(void *ctx, const el_event *ev, const el_decoder *d)
{
    dump_store *s = ctx;
    uint32_t len = ev->size;
    uint64_t pos;

    (void)d;
    uint8_t *p = store_alloc(s, PREFIX_SIZE + len, &pos);
    if (!p) {
        s->nomem = 1;
        return 1;
    }
    memcpy(p, &ev->cap, 2);
    memcpy(p + 2, &len, 4);
    memcpy(p + PREFIX_SIZE, ev->record, len);

    if (s->n_runs > 0 && ev->time >= s->last_time) {
        s->runs[s->n_runs - 1].left++;
    } else {
        if (s->n_runs == s->cap_runs) {
            size_t cap = s->cap_runs ? s->cap_runs * 2 : 256;
            dump_run *r = realloc(s->runs, cap * sizeof *r);
            if (!r) {
                s->nomem = 1;
                return 1;
            }
            s->runs = r;
            s->cap_runs = cap;
        }
        dump_run *r = &s->runs[s->n_runs++];
        r->time = ev->time;
        r->pos = pos;
        r->left = 0;
    }
    s->last_time = ev->time;
    s->n_events++;
    return 0;
}

/* ---- merge ------------------------------------------------------------ */

/* Heap order: earlier time first, then earlier in the file. */
static int run_before(const dump_run *x, const dump_run *y)
{
    return x->time < y->time || (x->time == y->time && x->pos < y->pos);
}

static void sift_down(dump_run *h, size_t n, size_t i)
{
    dump_run top = h[i];

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && run_before(&h[c + 1], &h[c]))
            c++;
        if (!run_before(&h[c], &top))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = top;
}

/* ---- output ----------------------------------------------------------- */

typedef struct dump_out {
    el_textbuf text;
    int failed;                 /* a write failed; errno kept in err */
    int err;
} dump_out;

static void out_flush(dump_out *o)
{
    if (!o->failed && o->text.len &&
        fwrite(o->text.data, 1, o->text.len, stdout) != o->text.len) {
        o->failed = 1;
        o->err = errno;
    }
    el_textbuf_reset(&o->text);
}

static void out_maybe_flush(dump_out *o)
{
    if (o->text.len >= OUT_FLUSH_SIZE)
        out_flush(o);
}

static void out_lit(dump_out *o, const char *s)
{
    el_textbuf_append(&o->text, s, strlen(s));
}

/* Prints every stored event in (time, file position) order: a k-way merge
 * of the runs, consumed in place. Returns 0, or -1 with a message on
 * stderr. */
static int print_events(const char *path, dump_store *s, const el_decoder *d, dump_out *o)
{
    el_decoder *rd;
    el_event ev;

    if (s->n_events == 0)
        return 0;
    rd = el_decoder_create_for_records(d);
    if (!rd) {
        fprintf(stderr, "evprof: %s: out of memory\n", cli_display_path(path));
        return -1;
    }

    dump_run *heap = s->runs;
    size_t n = s->n_runs;
    for (size_t i = n / 2; i-- > 0;)
        sift_down(heap, n, i);
    while (n > 0 && !o->failed) {
        const uint8_t *rec = store_at(s, heap[0].pos);
        uint16_t cap;
        uint32_t len;
        memcpy(&cap, rec, 2);
        memcpy(&len, rec + 2, 4);
        el_decoder_feed(rd, rec + PREFIX_SIZE, len);
        if (el_decoder_next(rd, &ev) != EL_OK)
            goto redecode_failed;
        ev.cap = cap;
        if (el_show_line(&o->text, &ev) != EL_OK) {
            fprintf(stderr, "evprof: %s: out of memory\n", cli_display_path(path));
            el_decoder_destroy(rd);
            return -1;
        }
        if (el_decoder_next(rd, &ev) != EL_NEED_INPUT)
            goto redecode_failed;
        out_maybe_flush(o);

        if (heap[0].left > 0) {
            heap[0].pos = store_next(s, heap[0].pos);
            heap[0].time = record_time(s, heap[0].pos);
            heap[0].left--;
        } else {
            heap[0] = heap[--n];
        }
        sift_down(heap, n, 0);
    }
    el_decoder_destroy(rd);
    return 0;

redecode_failed:
    /* the same bytes decoded once already: a bug, not bad input */
    fprintf(stderr, "evprof: %s: internal error: a stored event did not decode again (%s)\n",
            cli_display_path(path), el_decoder_error(rd)->msg);
    el_decoder_destroy(rd);
    return -1;
}

/* ---- the command ------------------------------------------------------ */

int cmd_dump(int argc, char **argv)
{
    cli_args a;
    int id;

    cli_args_init(&a, &dump_help, argc, argv);
    while ((id = cli_next(&a)) > 0)
        ;   /* no options besides --help */
    if (id != CLI_END)
        return cli_done_code(id);
    if (!cli_want_pos(&a, 1, 1, "FILE"))
        return CLI_USAGE;
    const char *path = a.pos[0];

    dump_store store = { 0 };
    el_decoder *d = NULL;
    el_read_result r = el_read_path(path, keep_event, &store, &d);
    int code = CLI_OK;
    dump_out out = { 0 };

    el_textbuf_init(&out.text);
    if (d && el_decoder_header_done(d)) {
        out_lit(&out, "Event Types:\n");
        for (size_t i = 0; i < el_decoder_num_types(d); i++) {
            if (el_show_type(&out.text, el_decoder_type_at(d, i)) != EL_OK)
                break;
            out_lit(&out, "\n");
            out_maybe_flush(&out);
        }
        out_lit(&out, "\nEvents:\n");
        if (out.text.failed) {
            fprintf(stderr, "evprof: %s: out of memory\n", cli_display_path(path));
            code = CLI_FAIL;
        } else if (print_events(path, &store, d, &out) != 0) {
            code = CLI_FAIL;    /* print_events said why */
        }
        /* ghc-events ends with putStrLn: one more newline */
        out_lit(&out, "\n");
    }
    out_flush(&out);
    if (!out.failed && fflush(stdout) != 0) {
        out.failed = 1;
        out.err = errno;
    }
    if (out.failed || ferror(stdout)) {
        fprintf(stderr, "evprof: cannot write output: %s\n",
                strerror(out.err ? out.err : EIO));
        clearerr(stdout);   /* reported: main's backstop need not repeat it */
        code = CLI_FAIL;
    }

    if (store.nomem) {
        fprintf(stderr, "evprof: %s: out of memory after %llu events\n",
                cli_display_path(path), (unsigned long long)store.n_events);
        code = CLI_FAIL;
    } else {
        int rc = cli_report_read(path, &r);
        if (rc != CLI_OK)
            code = rc;
    }

    el_textbuf_free(&out.text);
    el_decoder_destroy(d);
    store_free(&store);
    return code;
}
