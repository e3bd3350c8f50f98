/* The one place that says what a read found wrong with a log: damaged
 * stretches skipped, where the log stopped, a missing end marker. Every
 * command reports a read through cli_report_read(), and `info` prints its
 * status line from the same facts, so no command can call a damaged log
 * complete. */
#include "cli.h"

#include <string.h>

void cli_damage_facts(const el_read_result *r, cli_damage *f)
{
    memset(f, 0, sizeof *f);
    f->blocks = r->damage.blocks;
    f->bytes = r->damage.bytes;
    f->from_s = (double)r->damage.from_time / 1e9;
    f->to_s = (double)r->damage.to_time / 1e9;
    f->stopped = r->status != EL_END && r->status != EL_OK;
    f->stop_status = r->status;
    f->stop_offset = r->error.offset;
    f->missing_end = r->status == EL_OK && r->missing_end;
    f->damaged = f->blocks > 0 || f->stopped;
}

const char *cli_damage_key(const cli_damage *f)
{
    if (f->stopped) {
        switch (f->stop_status) {
        case EL_ERR_TRUNCATED: return "truncated";
        case EL_ERR_FORMAT: return "damaged";
        case EL_ERR_NOMEM: return "out_of_memory";
        case EL_ERR_IO: return "read_error";
        default: return "error";
        }
    }
    if (f->blocks)
        return "damaged";
    return f->missing_end ? "missing_end" : "complete";
}

/* "skipped N bytes in M damaged blocks (events from A s to B s)" */
static void print_skipped(FILE *out, const cli_damage *f)
{
    fprintf(out, "skipped %llu bytes in %llu damaged block%s (events from %.6f s to %.6f s)",
            (unsigned long long)f->bytes, (unsigned long long)f->blocks,
            f->blocks == 1 ? "" : "s", f->from_s, f->to_s);
}

void cli_damage_status(FILE *out, const cli_damage *f)
{
    fputs("status:        ", out);
    if (f->stopped) {
        const char *what = f->stop_status == EL_ERR_TRUNCATED ? "TRUNCATED"
                         : f->stop_status == EL_ERR_FORMAT    ? "DAMAGED"
                         : f->stop_status == EL_ERR_IO        ? "READ ERROR"
                                                              : "OUT OF MEMORY";
        fprintf(out, "%s at byte %llu: only the events before are counted", what,
                (unsigned long long)f->stop_offset);
        if (f->blocks) {
            fputs("; before that ", out);
            print_skipped(out, f);
        }
    } else if (f->blocks) {
        fputs("DAMAGED: ", out);
        print_skipped(out, f);
        fputs("; the rest was read", out);
        if (f->missing_end)
            fputs("; no end marker", out);
    } else if (f->missing_end) {
        fputs("no end marker (the program did not close its eventlog); every event was read",
              out);
    } else {
        fputs("complete (end marker present)", out);
    }
    fputc('\n', out);
}

static void report_error(const char *shown, const el_error *e, el_status status)
{
    const char *msg = e->msg[0] ? e->msg : el_status_name(status);
    fprintf(stderr, "evprof: %s: %s", shown, msg);
    /* some messages already say where ("truncated at byte N: ...") */
    if (!strstr(msg, "at byte"))
        fprintf(stderr, " at byte %llu", (unsigned long long)e->offset);
    if (e->type >= 0) {
        const char *name = e->type <= 0xffff ? el_type_name((uint16_t)e->type) : NULL;
        fprintf(stderr, " (event type %ld %s)", (long)e->type,
                name ? name : e->type == 0xffff ? "END_MARKER" : "unknown");
    }
    fputc('\n', stderr);
}

int cli_report_read(const char *path, const el_read_result *r)
{
    const char *shown = cli_display_path(path);
    cli_damage f;

    cli_damage_facts(r, &f);
    /* damaged stretches were skipped: the results cover the rest of the
     * log, but the log is damaged, so the run fails */
    if (f.blocks) {
        report_error(shown, &r->damage.first, EL_ERR_FORMAT);
        fprintf(stderr, "evprof: %s: ", shown);
        print_skipped(stderr, &f);
        fputs(f.stopped ? "\n" : " and read on after them\n", stderr);
    }
    if (f.missing_end)
        fprintf(stderr,
                "evprof: warning: %s: no end marker (the program did not close "
                "its eventlog); all %llu events were read\n",
                shown, (unsigned long long)r->events);
    if (!f.stopped)
        return f.damaged ? CLI_FAIL : CLI_OK;
    if (r->status == EL_ERR_IO)
        fprintf(stderr, "evprof: %s: %s\n", shown,
                r->error.msg[0] ? r->error.msg : el_status_name(r->status));
    else
        report_error(shown, &r->error, r->status);
    return CLI_FAIL;
}
