/* evprof: the text of events exactly as `ghc-events show` prints it.
 *
 * ghc-events (the Haskell reference reader) prints a log as
 *
 *     Event Types:
 *     0: Create thread (size 4)            <- el_show_type, header order
 *     ...
 *                                          <- empty line
 *     Events:
 *     1234: cap 0: running thread 1        <- el_show_line, sorted by time
 *     ...
 *                                          <- empty line (putStrLn)
 *
 * These functions produce that text for one header entry or one decoded
 * event, appending to a caller-owned growable buffer. Once the buffer is
 * big enough nothing is allocated, so a caller formatting millions of
 * events resets and reuses one buffer.
 *
 * Compatibility rules (what ghc-events would print, and where it would
 * fail instead):
 *  - Text fields (messages, labels, names, RTS id, descriptions) are UTF-8
 *    and printed verbatim while printable. Control characters (C0 with
 *    NUL, DEL, the C1 controls U+0080..U+009F), which ghc-events writes
 *    raw and a terminal would obey, take the visible form of every other
 *    text output (tx_vis in textout.h: \n, \r, \t, \xNN). ghc-events
 *    refuses a log whose text is not valid UTF-8; here every byte that is
 *    not part of a valid UTF-8 sequence prints as U+FFFD.
 *  - Strings ghc-events reads byte-per-character (interned strings, Eden
 *    version and program invocation) print each byte >= 0x80 as the
 *    Latin-1 character, UTF-8 encoded, as ghc-events does (the controls
 *    among them visibly, as above).
 *  - Program arguments and environment print as Haskell's `show` of a
 *    list of strings: ["./Fib","+RTS","-p"], with Haskell escapes (\",
 *    \\, \n, \NUL, \1234, \&, \SO\&H).
 *  - A user binary message (181) is decoded as UTF-8 with each invalid
 *    byte replaced by '.', then each character Haskell's isPrint rejects
 *    is replaced by '.'. isPrint is exact for ASCII and Latin-1; above that
 *    it rejects format characters (Cf), line/paragraph separators,
 *    surrogates, private use, noncharacters and the large unassigned
 *    ranges of Unicode 14, and accepts the small unassigned gaps inside
 *    scripts (an approximation: GHC's table depends on its Unicode version).
 *  - ghc-events prints the event type's header description instead of
 *    fields when it has no parser for the event: a type it does not know
 *    (including the old types 5, 6, 7, 13, 14 and 59), a fixed-size type
 *    declared in the header smaller than ghc-events' smallest layout (a
 *    STOP_THREAD of size 6), or a type declared variable-size where
 *    ghc-events expects fixed size or the reverse. evprof follows that
 *    rule, and also prints the description for an event the decoder did
 *    not decode (ev->decoded == 0) and for values ghc-events would abort
 *    on (an unknown thread stop status, heap breakdown, Eden message tag,
 *    or an info-table closure type that is not a number).
 */
#ifndef EVPROF_SHOW_H
#define EVPROF_SHOW_H

#include <stddef.h>

#include "evprof/eventlog.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A growable text buffer. Zero-initialise it (or el_textbuf_init), append,
 * use data[0 .. len) (not NUL-terminated), el_textbuf_reset to reuse,
 * el_textbuf_free at the end. An allocation failure sets `failed`; later
 * appends are no-ops and the show functions return EV_ERR_NOMEM. */
typedef struct el_textbuf {
    char *data;                  /* owned; NULL while empty */
    size_t len;
    size_t cap;
    int failed;                  /* an allocation failed */
} el_textbuf;

EVPROF_API void el_textbuf_init(el_textbuf *b);
EVPROF_API void el_textbuf_free(el_textbuf *b);      /* back to the empty state */
EVPROF_API void el_textbuf_reset(el_textbuf *b);     /* len = 0, keeps the memory */
EVPROF_API void el_textbuf_append(el_textbuf *b, const void *bytes, size_t len);

/* Appends one header line without its newline:
 * "167: Time profile cost-centre stack (size variable)".
 * EV_OK, or EV_ERR_NOMEM. */
EVPROF_API ev_status el_show_type(el_textbuf *out, const el_event_type *et);

/* Appends the event's text without time, cap prefix or newline:
 * "running thread 1". A block marker's text itself ends with "\n"
 * ("event block: cap 0, end time: 1234\n"), as in ghc-events.
 * ev->et must be set (the description is printed for events ghc-events
 * cannot show). EV_OK, or EV_ERR_NOMEM. */
EVPROF_API ev_status el_show_event(el_textbuf *out, const el_event *ev);

/* Appends the whole line: "TIME: " + ("cap N: " when ev->cap is not
 * EL_NO_CAP) + el_show_event text + "\n". EV_OK, or EV_ERR_NOMEM. */
EVPROF_API ev_status el_show_line(el_textbuf *out, const el_event *ev);

#ifdef __cplusplus
}
#endif
#endif
