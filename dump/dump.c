/* A whole log as `ghc-events show` prints it (include/evprof/dump.h).
 *
 * ghc-events prints the header's event types, then all events sorted by
 * time (a stable sort: ties keep file order). The dump is an ordered
 * analysis of the driver: its time-ordered replay (driver/order.h) hands
 * it the events in that order, in memory bounded by the capability count
 * and its cursor buffers. Each event is formatted by el_show_line into
 * one reused text buffer, written out in pieces of OUT_FLUSH_SIZE. The
 * selection only leaves lines out: what is printed is printed as without
 * it. */
#include "evprof/dump.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/select.h"
#include "evprof/show.h"

#define OUT_FLUSH_SIZE ((size_t)256 << 10)

struct ev_dump {
    ev_analysis_ops ops;        /* its own: they carry the types */
    uint16_t *types;
    FILE *out;
    el_textbuf text;
    int header_done;            /* the event types are printed */
    int failed;                 /* a write failed; errno kept in err */
    int err;
    int nomem;
};

static void out_flush(ev_dump *dp)
{
    if (!dp->failed && dp->text.len &&
        fwrite(dp->text.data, 1, dp->text.len, dp->out) != dp->text.len) {
        dp->failed = 1;
        dp->err = errno;
    }
    el_textbuf_reset(&dp->text);
}

static void out_maybe_flush(ev_dump *dp)
{
    if (dp->text.len >= OUT_FLUSH_SIZE)
        out_flush(dp);
}

static void out_lit(ev_dump *dp, const char *s)
{
    el_textbuf_append(&dp->text, s, strlen(s));
}

static void print_header(ev_dump *dp, const ev_stream *s)
{
    const el_decoder *d = s->decoder;

    dp->header_done = 1;
    out_lit(dp, "Event Types:\n");
    for (size_t i = 0; i < el_decoder_num_types(d); i++) {
        if (el_show_type(&dp->text, el_decoder_type_at(d, i)) != EV_OK)
            break;
        out_lit(dp, "\n");
        out_maybe_flush(dp);
    }
    out_lit(dp, "\nEvents:\n");
}

static int dump_event(void *self, const el_event *ev, const ev_stream *s)
{
    ev_dump *dp = self;

    /* only the events inside the selection come here (EV_SELECTED); a
     * sample's capability there is its own, the dump's is the block's
     * (GHC writes samples into the global buffer's blocks) */
    int32_t cap = ev_select_cap(s->select);
    if (cap >= 0 && ev->cap != (uint16_t)cap)
        return 0;
    if (!dp->header_done)
        print_header(dp, s);
    if (el_show_line(&dp->text, ev) != EV_OK || dp->text.failed) {
        dp->nomem = 1;
        return 1;
    }
    out_maybe_flush(dp);
    return dp->failed;
}

static void dump_end(void *self, const ev_stream *s)
{
    ev_dump *dp = self;

    if (!s->decoder)
        return;
    /* a selection that misses the log prints nothing (the reader says why) */
    if (!dp->header_done && ev_select_misses(s->select, &s->read))
        return;
    if (!dp->header_done)
        print_header(dp, s);
    /* ghc-events ends with putStrLn: one more newline */
    out_lit(dp, "\n");
}

ev_dump *ev_dump_create(FILE *out, const uint16_t *types, size_t num_types)
{
    ev_dump *dp = calloc(1, sizeof *dp);
    if (!dp)
        return NULL;
    dp->out = out;
    el_textbuf_init(&dp->text);
    dp->ops = (ev_analysis_ops){
        .name = "dump",
        .flags = EV_ORDERED | EV_SELECTED,
        .event = dump_event,
        .end = dump_end,
    };
    if (types && num_types) {
        if (!(dp->types = malloc(num_types * sizeof *types))) {
            free(dp);
            return NULL;
        }
        memcpy(dp->types, types, num_types * sizeof *types);
        dp->ops.types = dp->types;
        dp->ops.num_types = num_types;
    }
    return dp;
}

void ev_dump_destroy(ev_dump *dp)
{
    if (!dp)
        return;
    el_textbuf_free(&dp->text);
    free(dp->types);
    free(dp);
}

const ev_analysis_ops *ev_dump_analysis(const ev_dump *dp) { return &dp->ops; }

ev_status ev_dump_finish(ev_dump *dp, int *write_errno)
{
    out_flush(dp);
    if (!dp->failed && fflush(dp->out) != 0) {
        dp->failed = 1;
        dp->err = errno;
    }
    if (write_errno)
        *write_errno = dp->failed ? dp->err : 0;
    return dp->failed ? EV_ERR_WRITE : EV_OK;
}

ev_status ev_dump_status(const ev_dump *dp) { return dp->nomem ? EV_ERR_NOMEM : EV_OK; }
