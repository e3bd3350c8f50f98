/* The facts about what a read found wrong with a log: damaged stretches
 * skipped, where the log stopped, a missing end marker. Every command
 * reports a read from them (cli/damage.c) and `info` prints its status
 * line from them, so no output can call a damaged log complete. */
#include "evprof/driver.h"

#include <stdio.h>
#include <string.h>

void ev_facts_of(const el_read_result *r, ev_facts *f)
{
    memset(f, 0, sizeof *f);
    f->blocks = r->damage.blocks;
    f->bytes = r->damage.bytes;
    f->from_s = (double)r->damage.from_time / 1e9;
    f->to_s = (double)r->damage.to_time / 1e9;
    f->stopped = r->status != EV_END && r->status != EV_OK;
    f->stop_status = r->status;
    f->stop_offset = r->error.offset;
    f->missing_end = r->status == EV_OK && r->missing_end;
    f->damaged = f->blocks > 0 || f->stopped;
    f->end_in_damage = r->damage.end_in_skipped;
    f->end_offset = r->bytes;
    f->has_time = r->has_time_span;
    f->last_s = (double)r->last_time / 1e9;
    f->ipe_len_off = r->ipe_len_off;
}

const char *ev_facts_key(const ev_facts *f)
{
    if (f->stopped) {
        switch (f->stop_status) {
        case EV_ERR_TRUNCATED: return "truncated";
        case EV_ERR_FORMAT: return "damaged";
        case EV_ERR_NOMEM: return "out_of_memory";
        case EV_ERR_IO: return "read_error";
        case EV_STOPPED: return "stopped";
        case EV_OK:             /* not a stop: stopped is never set with these */
        case EV_END:
        case EV_NEED_INPUT:
        case EV_ERR_LIMIT:      /* nor with these: an analysis stops the read */
        case EV_ERR_WRITE:
        case EV_ERR_USAGE:
        case EV_ERR_PATTERN:
        case EV_ERR_RENDER:
        case EV_ERR_SINK:
        case EV_ERR_FINISHED:
        case EV_ERR_NETWORK:
        case EV_STATUS_COUNT:
        default: return "error";
        }
    }
    if (f->blocks)
        return "damaged";
    return f->missing_end ? "missing_end" : "complete";
}

/* "skipped N bytes in M damaged blocks (events from A s to B s)" */
void ev_facts_skipped(FILE *out, const ev_facts *f)
{
    fprintf(out, "skipped %llu bytes in %llu damaged block%s (events from %.6f s to %.6f s)",
            (unsigned long long)f->bytes, (unsigned long long)f->blocks,
            f->blocks == 1 ? "" : "s", f->from_s, f->to_s);
}

void ev_facts_missing_end(FILE *out, const ev_facts *f)
{
    fprintf(out, "no end marker: the log stops at byte %llu", (unsigned long long)f->end_offset);
    if (f->has_time)
        fprintf(out, ", %.6f s after the RTS started", f->last_s);
    fputs(" (the program did not close its eventlog: it was killed, crashed or is still "
          "writing, and what it had not yet written is not in the file); every event up to "
          "there was read", out);
}

void ev_facts_ipe_note(FILE *out, const ev_facts *f)
{
    fprintf(out, "%llu IPE event%s (169) declare%s a payload length more than one byte off "
            "the end of %s strings (GHC's own is one byte off, GHC #24287): each was read to "
            "its declared length where that ends inside its block at the start of a further "
            "event, else to its strings' end; no event after %s was lost",
            (unsigned long long)f->ipe_len_off, f->ipe_len_off == 1 ? "" : "s",
            f->ipe_len_off == 1 ? "s" : "", f->ipe_len_off == 1 ? "its" : "their",
            f->ipe_len_off == 1 ? "it" : "them");
}

void ev_facts_status(FILE *out, const ev_facts *f)
{
    fputs("status:        ", out);
    if (f->stopped) {
        const char *what = f->stop_status == EV_ERR_TRUNCATED ? "TRUNCATED"
                         : f->stop_status == EV_ERR_FORMAT    ? "DAMAGED"
                         : f->stop_status == EV_ERR_IO        ? "READ ERROR"
                                                              : "OUT OF MEMORY";
        fprintf(out, "%s at byte %llu: only the events before are counted", what,
                (unsigned long long)f->stop_offset);
        if (f->blocks) {
            fputs("; before that ", out);
            ev_facts_skipped(out, f);
        }
    } else if (f->blocks) {
        fputs("DAMAGED: ", out);
        ev_facts_skipped(out, f);
        fputs("; the rest was read", out);
        if (f->missing_end)
            fputs("; no end marker", out);
        else if (f->end_in_damage)
            fputs("; the end marker is there, as the damaged last block's last record", out);
    } else if (f->missing_end) {
        ev_facts_missing_end(out, f);
    } else {
        fputs("complete (end marker present)", out);
    }
    fputc('\n', out);
}

