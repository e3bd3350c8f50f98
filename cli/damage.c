/* The one place that tells the user what a read found wrong with a log,
 * from the library's facts (ev_facts_of, driver/facts.c): every command
 * reports a read through cli_report_read(), and `info` prints its status
 * line from the same facts, so no command can call a damaged log complete.
 * Messages show log bytes in the visible form (tx_put). */
#include "cli.h"

#include <string.h>

#include "evprof/driver.h"
#include "evprof/textout.h"

static void report_error(const char *shown, const ev_error *e, ev_status status)
{
    ev_error copy = *e;
    char line[512];
    if (!copy.msg[0])
        copy.status = status;
    size_t n = el_error_format(line, sizeof line, &copy);
    fprintf(stderr, "evprof: %s: ", shown);
    tx_put(stderr, line, n < sizeof line ? n : sizeof line - 1);
    fputc('\n', stderr);
}

/* A command that reads one log twice (marks first, pprof's fallback to
 * the heap) says what is wrong with it once: the last report made (kept
 * in the context), by the file's name and the facts. */
static int said_before(cli_ctx *c, const char *path, const ev_facts *f)
{
    cli_last_report *last = &c->last_report;
    if (last->said && strcmp(last->path, path) == 0 &&
        last->f.end_offset == f->end_offset && last->f.blocks == f->blocks &&
        last->f.stop_status == f->stop_status && last->f.missing_end == f->missing_end &&
        last->f.ipe_len_off == f->ipe_len_off)
        return 1;
    last->said = strlen(path) < sizeof last->path;
    if (last->said) {
        strcpy(last->path, path);
        last->f = *f;
    }
    return 0;
}

int cli_report_read(cli_ctx *c, const char *path, const el_read_result *r)
{
    const char *shown = cli_display_path(c, path);
    ev_facts f;

    ev_facts_of(r, &f);
    if ((f.damaged || f.missing_end || f.ipe_len_off) && strcmp(path, "-") != 0 &&
        said_before(c, path, &f)) {
        if (r->status == EV_STOPPED)
            return CLI_FAIL;
        return f.damaged ? CLI_FAIL : CLI_OK;
    }
    /* damaged stretches were skipped: the results cover the rest of the
     * log, but the log is damaged, so the run fails */
    if (f.blocks) {
        report_error(shown, &r->damage.first, EV_ERR_FORMAT);
        fprintf(stderr, "evprof: %s: ", shown);
        ev_facts_skipped(stderr, &f);
        fputs(f.stopped ? "\n" : " and read on after them\n", stderr);
    }
    if (f.ipe_len_off) {
        fprintf(stderr, "evprof: note: %s: ", shown);
        ev_facts_ipe_note(stderr, &f);
        fputc('\n', stderr);
    }
    if (f.missing_end) {
        fprintf(stderr, "evprof: warning: %s: ", shown);
        ev_facts_missing_end(stderr, &f);
        fputc('\n', stderr);
    }
    if (r->status == EV_STOPPED)
        return CLI_FAIL;        /* the consumer stopped it: its command says why */
    if (!f.stopped)
        return f.damaged ? CLI_FAIL : CLI_OK;
    if (r->status == EV_ERR_IO) {
        const char *msg = r->error.msg[0] ? r->error.msg : ev_status_name(r->status);
        fprintf(stderr, "evprof: %s: ", shown);
        tx_put(stderr, msg, strlen(msg));
        fputc('\n', stderr);
    } else
        report_error(shown, &r->error, r->status);
    return CLI_FAIL;
}
