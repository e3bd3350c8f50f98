/* evprof: the one matcher of the patterns users give (--focus, --ignore,
 * --callers, phases --marker), with a bound on its time and memory.
 *
 * The language is POSIX extended regular expressions as glibc's regcomp
 * takes them with REG_EXTENDED in the C locale, matched as REG_NOSUB does
 * (does the pattern match somewhere in the text?), on bytes: `.`, bracket
 * expressions (`[a-z]`, `[^...]`, `[[:alpha:]]` and the other classes,
 * `[[.x.]]`, `[[=x=]]`), `^ $`, groups, `|`, `* + ?`, `{n}`, `{n,}`,
 * `{n,m}` (`{,m}`: `{0,m}`), and GNU's `\w \W \s \S \b \B \< \> \` \'`.
 * Refused where glibc takes them, so that compiling and matching stay
 * bounded (EV_ERR_PATTERN, the message says which):
 *   - back-references (\1 to \9): no matcher with a time bound has them;
 *   - a count above EV_PATTERN_MAX_COUNT in {n,m};
 *   - more than EV_PATTERN_MAX_STEPS steps once compiled: each character,
 *     class or anchor is a step, each `|` or `*`, `+`, `?` one or two
 *     more, and {n,m} repeats what it applies to m times;
 *   - groups nested deeper than EV_PATTERN_MAX_DEPTH;
 *   - a pattern longer than EV_PATTERN_MAX_BYTES.
 * Any other pattern glibc refuses is refused too (tests/test_pattern.c
 * compares both on random patterns and texts).
 *
 * The matcher is a Thompson automaton run as a Pike VM (Russ Cox,
 * "Regular Expression Matching: the Virtual Machine Approach"): each byte
 * of the text moves every live thread once, so a match costs at most
 * (text bytes + 1) x steps, and its memory is fixed when the pattern is
 * compiled (about 20 bytes a step, charged to the budget): no
 * backtracking, no recursion, nothing allocated while matching.
 *
 *     ev_pattern *p;
 *     if (ev_pattern_compile(&p, "^Main\\.", budget, &err) != EV_OK) ... err.msg
 *     if (ev_pattern_match(p, label, strlen(label))) ...
 *     ev_pattern_destroy(p);
 */
#ifndef EVPROF_PATTERN_H
#define EVPROF_PATTERN_H

#include <stddef.h>

#include "evprof/budget.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EV_PATTERN_MAX_BYTES 4096
#define EV_PATTERN_MAX_COUNT 255        /* POSIX's least RE_DUP_MAX */
#define EV_PATTERN_MAX_STEPS 2000
#define EV_PATTERN_MAX_DEPTH 64

typedef struct ev_pattern ev_pattern;

/* Compiles src (a C string). Returns EV_OK with *out set, or with *out
 * NULL and err (may be NULL) saying why: EV_ERR_PATTERN (the message
 * "'PATTERN': why", the pattern shortened as messages show text: see
 * textout.h), EV_ERR_LIMIT (budget refused its memory), EV_ERR_NOMEM.
 * budget may be NULL (no limit); the pattern's memory stays charged to
 * it until ev_pattern_destroy. */
EVPROF_API ev_status ev_pattern_compile(ev_pattern **out, const char *src, ev_budget *budget,
                                        ev_error *err);

/* 1 when the pattern matches somewhere in s[0..len) (bytes; a NUL is a
 * byte like another), else 0. Uses the pattern's own scratch memory: one
 * pattern is matched by one thread at a time. */
EVPROF_API int ev_pattern_match(ev_pattern *p, const char *s, size_t len);

/* The same on the text made of n parts one after the other (for
 * "Module.label": { module, ".", label }), without copying them. */
EVPROF_API int ev_pattern_match_parts(ev_pattern *p, const char *const *parts, const size_t *lens,
                                      size_t n);

/* The memory it holds (charged to the budget). */
EVPROF_API size_t ev_pattern_bytes(const ev_pattern *p);

/* Accepts NULL. */
EVPROF_API void ev_pattern_destroy(ev_pattern *p);

#ifdef __cplusplus
}
#endif
#endif
