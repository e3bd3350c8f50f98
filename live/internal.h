/* live/'s insides shared by its files and tested on their own
 * (tests/test_metrics.c); private: not in include/. */
#ifndef EVPROF_LIVE_INTERNAL_H
#define EVPROF_LIVE_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

/* s[0..len) as the inside of a label value: its visible form (textout.h:
 * valid UTF-8, no control characters, exactly as the report prints it),
 * then `\`, `"` and line feeds escaped as the format asks (metrics.c). */
void live_metrics_label_value(FILE *out, const char *s, size_t len);

/* A HELP text: `\` and line feeds escaped (metrics.c). */
void live_metrics_help_text(FILE *out, const char *s);

/* The answer to the request in buf[0..len) (request line and headers),
 * with at most max bytes allowed: LIVE_HTTP_MORE when it is not complete
 * yet, else the status code to send: 200 (GET /metrics, a query string
 * allowed), 400 (malformed), 404 (another path), 405 (another method on
 * /metrics), 431 (no end of headers within max bytes), 505 (not
 * HTTP/1.x) (http.c). */
enum { LIVE_HTTP_MORE = 0 };
int live_http_parse(const char *buf, size_t len, size_t max);

#endif
