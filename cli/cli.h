/* evprof CLI: helpers shared by the subcommands.
 *
 * Every subcommand is `int cmd_X(cli_ctx *c, int argc, char **argv)` with
 * argv[0] the subcommand's name and c the run's context (cli/ctx.h), which
 * it passes on to the helpers that keep something for the run. It returns
 * an exit code (CLI_OK, CLI_FAIL, CLI_USAGE); only main() exits.
 *
 * A command declares its options once, in a table that binds each to its
 * variable (perf's OPT_STRING(&var, ...)); cli_parse takes the arguments
 * by it and prints --help from it, and the man page's lists are checked
 * against that help (tests/cli/man_options.sh):
 *
 *     int json = 0;
 *     const char *fmt = NULL;
 *     const cli_opt opts[] = {
 *         OPT_FLAG(0, "json", &json, "JSON instead of text"),
 *         OPT_STRING('f', "format", "FMT", &fmt, "output format"),
 *         CLI_JOBS_OPT(c),
 *         OPT_END,
 *     };
 *     static const cli_cmd_help help = { "info", "[OPTIONS] FILE", "Summarise.", NULL };
 *     cli_args a;
 *     int rc = cli_parse(&help, opts, argc, argv, &a);
 *     if (rc != CLI_END)
 *         return cli_done_code(rc);          // --help printed, or usage error
 *     // a.pos[0 .. a.npos) are the positional arguments
 *
 * The options every reading command shares (the selection, live sources,
 * the memory limit, -o, -j) are macros of cli/selection.h, outfile.h and
 * cli.h, bound to a cli_window or to the context; -j means --jobs wherever
 * it is declared.
 */
#ifndef EVPROF_CLI_H
#define EVPROF_CLI_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/ctx.h"
#include "evprof/eventlog.h"

#ifndef EVPROF_VERSION
#define EVPROF_VERSION "0.1.0"
#endif

/* exit codes */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_INTERRUPTED = 130 /* Ctrl-C: results so far */ };

struct cli_args;

/* How an option's value reaches its variable. */
typedef enum cli_opt_type {
    CLI_OPT_END = 0,        /* ends the table */
    CLI_OPT_FLAG,           /* int *var = 1 */
    CLI_OPT_STRING,         /* const char **var = the value */
    CLI_OPT_COUNT,          /* unsigned long *var = a whole number in [min, max] */
    CLI_OPT_NUMBER,         /* double *var = a decimal number in [min, max] */
    CLI_OPT_CALL,           /* call(a, var, ctx): 0 taken, -1 after a usage error */
} cli_opt_type;

typedef struct cli_opt {
    cli_opt_type type;
    char short_name;        /* 'f', or 0 for none */
    const char *long_name;  /* "format", or NULL for none */
    const char *arg;        /* name of the value ("FMT"), NULL for a flag */
    const char *help;       /* one line */
    void *var;              /* the bound variable */
    unsigned long lo, hi;   /* COUNT */
    double min, max;        /* NUMBER */
    int (*call)(const struct cli_args *a, void *var, const void *ctx);   /* CALL */
    const void *ctx;
} cli_opt;

#define OPT_FLAG(s, l, v, h) \
    { .type = CLI_OPT_FLAG, .short_name = s, .long_name = l, .help = h, .var = v }
#define OPT_STRING(s, l, a, v, h) \
    { .type = CLI_OPT_STRING, .short_name = s, .long_name = l, .arg = a, .help = h, .var = v }
#define OPT_COUNT(s, l, a, v, low, high, h) \
    { .type = CLI_OPT_COUNT, .short_name = s, .long_name = l, .arg = a, .help = h, .var = v, \
      .lo = low, .hi = high }
#define OPT_NUMBER(s, l, a, v, low, high, h) \
    { .type = CLI_OPT_NUMBER, .short_name = s, .long_name = l, .arg = a, .help = h, .var = v, \
      .min = low, .max = high }
/* a NULL: a flag that calls (a->value is NULL then) */
#define OPT_CALL(s, l, a, fn, v, c, h) \
    { .type = CLI_OPT_CALL, .short_name = s, .long_name = l, .arg = a, .help = h, .var = v, \
      .call = fn, .ctx = c }
#define OPT_END { .type = CLI_OPT_END }

/* -j N, --jobs N: the parallel read (driver.h), on every command that
 * declares it, into c->jobs_given (0: none). -j was report's --json once
 * (GHC's -pj): a -j whose value is not a number says so. */
int cli_opt_jobs(const struct cli_args *a, void *var, const void *ctx);
#define CLI_JOBS_OPT(c) \
    OPT_CALL('j', "jobs", "N", cli_opt_jobs, c, NULL, \
             "read on N threads (default: the CPUs online; 1: one)")

typedef struct cli_cmd_help {
    const char *name;       /* "info" */
    const char *usage;      /* "[OPTIONS] FILE" */
    const char *summary;    /* one or more lines, printed after the usage */
    const char *details;    /* printed after the options; may be NULL */
} cli_cmd_help;

/* cli_parse results */
enum {
    CLI_END = 0,            /* all arguments parsed */
    CLI_HELP = -1,          /* --help/-h: the help was printed to stdout */
    CLI_ERROR = -2,         /* a usage error was printed to stderr */
};

typedef struct cli_args {
    const cli_cmd_help *cmd;
    const cli_opt *opts;    /* the command's table */
    int argc;
    char **argv;
    int i;                  /* next argv index */
    const char *cluster;    /* rest of a "-abc" cluster, or NULL */
    int only_pos;           /* "--" seen */
    const char *value;      /* the value of the option being taken */
    const cli_opt *opt;     /* that option */
    char **pos;             /* positional arguments (reordered in argv) */
    int npos;
} cli_args;

/* Takes every argument by the table: each option's value to its variable,
 * the positional arguments to a->pos. Returns CLI_END, CLI_HELP (--help
 * printed to stdout) or CLI_ERROR (a usage error printed). */
int cli_parse(const cli_cmd_help *cmd, const cli_opt *opts, int argc, char **argv,
              cli_args *a);
/* Exit code for a cli_parse result that stopped parsing (CLI_HELP → 0). */
int cli_done_code(int result);
/* Checks the number of positional arguments; prints a usage error naming
 * `what` ("FILE") and returns 0 when it is outside [min, max]. */
int cli_want_pos(const cli_args *a, int min, int max, const char *what);

/* The value of the option being taken as a whole number in [lo, hi],
 * or a number in [lo, hi]. Numbers are decimal digits, a number may have
 * one '.'; no sign, spaces, exponent or hex. Return 0, or -1 after a usage
 * error naming --NAME. */
int cli_parse_count(const cli_args *a, const char *name, unsigned long lo, unsigned long hi,
                    unsigned long *v);
int cli_parse_number(const cli_args *a, const char *name, double lo, double hi, double *v);
/* The same syntax for a string, without a message: 0, or -1. */
int cli_parse_decimal(const char *s, double lo, double hi, double *v);

void cli_print_help(FILE *out, const cli_cmd_help *cmd, const cli_opt *opts);
/* "evprof CMD: MESSAGE\nTry 'evprof CMD --help'.\n" on stderr. */
void cli_usage_error(const cli_cmd_help *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- damage (cli/damage.c): the one place that says it --------------- */

/* Every command reports its read with this, to stderr:
 *   evprof: FILE: MESSAGE at byte N (event type T NAME)     first damage
 *   evprof: FILE: skipped N bytes in M damaged blocks (...)  if any skipped
 *   evprof: FILE: MESSAGE at byte N ...                      if it stopped
 * and, for a clean end without an end marker, a warning. Returns the exit
 * code the result deserves: CLI_OK for END or a missing end marker,
 * CLI_FAIL for any damage. `path` "-" is named "<stdin>". */
int cli_report_read(cli_ctx *c, const char *path, const el_read_result *r);
/* A file name for messages: "<stdin>" for "-", else its visible form
 * (evprof/textout.h), valid while c is (kept there). */
const char *cli_display_path(cli_ctx *c, const char *path);

/* A label, a name or a pattern quoted in a message: its visible form
 * (evprof/textout.h: control bytes escaped, bad UTF-8 as U+FFFD)
 * shortened to TX_SHORT_WIDTH code points, an ellipsis where it was cut
 * (tx_put_short). Every message that quotes a log's string or a pattern
 * goes through it, so that a 30 KB label takes one line. */
void cli_text_str(FILE *out, const char *s, size_t len);

#endif
