/* The one place that tells the user what a read found wrong with a log,
 * from the library's facts (ev_facts_of, driver/facts.c): every command
 * reports a read through cli_report_read(), and `info` prints its status
 * line from the same facts, so no command can call a damaged log complete.
 * Messages show log bytes in the visible form (tx_put). */
#include "cli.h"

#include <string.h>

#include "evprof/driver.h"
#include "evprof/textout.h"

static void report_error(const char *shown, const el_error *e, el_status status)
{
    el_error copy = *e;
    char line[512];
    if (!copy.msg[0])
        copy.status = status;
    size_t n = el_error_format(line, sizeof line, &copy);
    fprintf(stderr, "evprof: %s: ", shown);
    tx_put(stderr, line, n < sizeof line ? n : sizeof line - 1);
    fputc('\n', stderr);
}

int cli_report_read(const char *path, const el_read_result *r)
{
    const char *shown = cli_display_path(path);
    ev_facts f;

    ev_facts_of(r, &f);
    /* damaged stretches were skipped: the results cover the rest of the
     * log, but the log is damaged, so the run fails */
    if (f.blocks) {
        report_error(shown, &r->damage.first, EL_ERR_FORMAT);
        fprintf(stderr, "evprof: %s: ", shown);
        ev_facts_skipped(stderr, &f);
        fputs(f.stopped ? "\n" : " and read on after them\n", stderr);
    }
    if (f.missing_end)
        fprintf(stderr,
                "evprof: warning: %s: no end marker (the program did not close "
                "its eventlog); all %llu events were read\n",
                shown, (unsigned long long)r->events);
    if (r->status == EL_STOPPED)
        return CLI_FAIL;        /* the consumer stopped it: its command says why */
    if (!f.stopped)
        return f.damaged ? CLI_FAIL : CLI_OK;
    if (r->status == EL_ERR_IO) {
        const char *msg = r->error.msg[0] ? r->error.msg : el_status_name(r->status);
        fprintf(stderr, "evprof: %s: ", shown);
        tx_put(stderr, msg, strlen(msg));
        fputc('\n', stderr);
    } else
        report_error(shown, &r->error, r->status);
    return CLI_FAIL;
}
