/* evprof dump FILE: every event, as `ghc-events show FILE` prints it
 * (control characters in the log's text shown visibly: eventlog/show.c).
 *
 * ghc-events prints the header's event types, then all events sorted by
 * time (a stable sort: ties keep file order). dump is an ordered analysis
 * of the driver: the driver's time-ordered replay (driver/order.h) hands
 * it the events in that order, in memory bounded by the capability count
 * and its cursor buffers, reading the file again by offset (a pipe is
 * spooled). Each event is formatted by el_show_line into one reused text
 * buffer, written out in large pieces. The selection (--from/--to, marker
 * windows, --cap, --type) only leaves lines out: what is printed is
 * printed as without it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/read.h"
#include "cli/selection.h"
#include "evprof/driver.h"
#include "eventlog/bytes.h"
#include "evprof/eventlog.h"
#include "evprof/show.h"



static const cli_cmd_help dump_help = {
    "dump",
    "[OPTIONS] FILE",
    "Prints the event types of the header, then every event sorted by time,\n"
    "one per line, exactly as 'ghc-events show FILE' does, but for control\n"
    "characters in the log's text (ghc-events writes them raw), shown as\n"
    "\\n, \\r, \\t or \\xNN as in every other output. FILE may be '-' for\n"
    "standard input.",
    "Memory: bounded by the capability count, not the log: the file is read\n"
    "twice, once to index its blocks and once by offset to merge them in time\n"
    "order (about 256 KiB per capability, 48 bytes per block). Standard input\n"
    "is spooled: up to 32 MiB in memory, past that in an unlinked file in\n"
    "$TMPDIR (or /tmp).\n"
    "\n"
    "A damaged or truncated log prints every event before the damage, then\n"
    "the error on standard error, and exits with status 1. A log without its\n"
    "end marker prints everything, warns, and exits with status 0.\n"
    "\n"
    "--follow and --connect read the log as it is written, but the lines come\n"
    "when the read ends (end marker, writer closed, --idle-timeout, Ctrl-C):\n"
    "time order needs every capability's blocks, so the output is the same as\n"
    "the dump of the finished log (after Ctrl-C: of the events read, exit 130).",
};

#define OUT_FLUSH_SIZE ((size_t)256 << 10)

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


/* ---- the analysis ----------------------------------------------------- */

#define MAX_TYPES 64

typedef struct dump_state {
    dump_out out;
    const char *path;
    int header_done;            /* the event types are printed */
    int nomem;
} dump_state;

static void print_header(dump_state *st, const ev_stream *s)
{
    const el_decoder *d = s->decoder;

    st->header_done = 1;
    out_lit(&st->out, "Event Types:\n");
    for (size_t i = 0; i < el_decoder_num_types(d); i++) {
        if (el_show_type(&st->out.text, el_decoder_type_at(d, i)) != EV_OK)
            break;
        out_lit(&st->out, "\n");
        out_maybe_flush(&st->out);
    }
    out_lit(&st->out, "\nEvents:\n");
}

static int dump_event(void *self, const el_event *ev, const ev_stream *s)
{
    dump_state *st = self;

    /* only the events inside the selection come here (EV_SELECTED); a
     * sample's capability there is its own, dump's --cap is the block's
     * (GHC writes samples into the global buffer's blocks) */
    int32_t cap = ev_select_cap(s->select);
    if (cap >= 0 && ev->cap != (uint16_t)cap)
        return 0;
    if (!st->header_done)
        print_header(st, s);
    if (el_show_line(&st->out.text, ev) != EV_OK || st->out.text.failed) {
        st->nomem = 1;
        return 1;
    }
    out_maybe_flush(&st->out);
    return st->out.failed;
}

static void dump_end(void *self, const ev_stream *s)
{
    dump_state *st = self;

    if (!s->decoder)
        return;
    /* a selection that misses the log prints nothing (the read says why) */
    if (!st->header_done && cli_window_misses(&s->read))
        return;
    if (!st->header_done)
        print_header(st, s);
    /* ghc-events ends with putStrLn: one more newline */
    out_lit(&st->out, "\n");
}

/* "ID,ID,...": type ids 0..65535. Returns their count, or -1. */
static int parse_types(const char *s, uint16_t *types)
{
    int n = 0;

    while (*s) {
        char *end;
        if (*s < '0' || *s > '9' || n == MAX_TYPES)
            return -1;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v > 65535 || (*end && *end != ','))
            return -1;
        types[n++] = (uint16_t)v;
        s = *end ? end + 1 : end;
        if (*end && !*s)
            return -1;
    }
    return n;
}

/* ---- the command ------------------------------------------------------ */

/* --type ID,...: the ids and their number */
typedef struct type_list {
    uint16_t *ids;
    int n;
} type_list;

static int opt_types(const cli_args *a, void *var, const void *ctx)
{
    type_list *tl = var;
    (void)ctx;
    if ((tl->n = parse_types(a->value, tl->ids)) <= 0) {
        cli_usage_error(a->cmd, "--type wants type ids 0..65535 separated by commas "
                        "(at most %d), not '%s'", MAX_TYPES, a->value);
        return -1;
    }
    return 0;
}

int cmd_dump(int argc, char **argv)
{
    cli_args a;
    cli_window w;
    uint16_t types[MAX_TYPES];
    int ntypes = -1;
    int id;

    cli_window_init(&w);
    type_list tl = { types, -1 };
    const cli_opt opts[] = {
        CLI_TIME_OPTS(&w),
        OPT_CALL(0, "cap", "N", cli_opt_cap, &w, NULL, "only events of capability N's blocks"),
        OPT_CALL(0, "type", "ID,...", opt_types, &tl, NULL, "only events of these type ids (as "
                 "the header lists them)"),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT,
        OPT_END,
    };
    id = cli_parse(&dump_help, opts, argc, argv, &a);
    ntypes = tl.n;
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    int code;

    dump_state st = { 0 };
    st.path = path;
    el_textbuf_init(&st.out.text);
    ev_analysis_ops ops = {
        .name = "dump",
        .flags = EV_ORDERED | EV_SELECTED,
        .event = dump_event,
        .end = dump_end,
    };
    if (ntypes > 0) {
        ops.types = types;
        ops.num_types = (size_t)ntypes;
    }
    cli_analysis an = { &ops, &st };
    ev_driver *d = cli_read_src(&w.src, path, &an, 1, &code);

    out_flush(&st.out);
    if (!st.out.failed && fflush(stdout) != 0) {
        st.out.failed = 1;
        st.out.err = errno;
    }
    if (st.out.failed || ferror(stdout)) {
        fprintf(stderr, "evprof: standard output: cannot write: %s\n",
                strerror(st.out.err ? st.out.err : EIO));
        clearerr(stdout);   /* reported: main's backstop need not repeat it */
        code = CLI_FAIL;
    }
    if (st.nomem) {
        fprintf(stderr, "evprof: %s: out of memory\n", cli_display_path(path));
        code = CLI_FAIL;
    }
    el_textbuf_free(&st.out.text);
    ev_driver_destroy(d);
    return code;
}
