/* evprof CLI: helpers shared by the subcommands.
 *
 * Every subcommand is `int cmd_X(int argc, char **argv)` with argv[0] the
 * subcommand's name. It returns an exit code (CLI_OK, CLI_FAIL, CLI_USAGE);
 * only main() exits.
 *
 * Options come from a table that also prints the command's --help:
 *
 *     static const cli_opt opts[] = {
 *         { OPT_FORMAT, 'f', "format", "FMT", "output format: text or json" },
 *         { 0 }
 *     };
 *     static const cli_cmd_help help = {
 *         "info", "[OPTIONS] FILE", "Summarise an eventlog.", opts, NULL,
 *     };
 *     cli_args a;
 *     int id;
 *     cli_args_init(&a, &help, argc, argv);
 *     while ((id = cli_next(&a)) > 0)
 *         switch (id) { case OPT_FORMAT: use(a.value); break; }
 *     if (id != CLI_END)
 *         return cli_done_code(id);      // --help printed, or usage error
 *     // a.pos[0 .. a.npos) are the positional arguments
 */
#ifndef EVPROF_CLI_H
#define EVPROF_CLI_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "evprof/eventlog.h"

#ifndef EVPROF_VERSION
#define EVPROF_VERSION "0.1.0"
#endif

/* exit codes */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_INTERRUPTED = 130 /* Ctrl-C: results so far */ };

typedef struct cli_opt {
    int id;                 /* > 0, returned by cli_next; 0 ends the table */
    char short_name;        /* 'f', or 0 for none */
    const char *long_name;  /* "format", or NULL for none */
    const char *arg;        /* name of the value ("FMT"), NULL for a flag */
    const char *help;       /* one line */
} cli_opt;

typedef struct cli_cmd_help {
    const char *name;       /* "info" */
    const char *usage;      /* "[OPTIONS] FILE" */
    const char *summary;    /* one or more lines, printed after the usage */
    const cli_opt *opts;    /* ends with { 0 }; may be NULL */
    const char *details;    /* printed after the options; may be NULL */
} cli_cmd_help;

/* cli_next results other than option ids */
enum {
    CLI_END = 0,            /* all arguments parsed */
    CLI_HELP = -1,          /* --help/-h: the help was printed to stdout */
    CLI_ERROR = -2,         /* a usage error was printed to stderr */
};

typedef struct cli_args {
    const cli_cmd_help *cmd;
    int argc;
    char **argv;
    int i;                  /* next argv index */
    const char *cluster;    /* rest of a "-abc" cluster, or NULL */
    int only_pos;           /* "--" seen */
    const char *value;      /* the value of the option just returned */
    char **pos;             /* positional arguments (reordered in argv) */
    int npos;
} cli_args;

void cli_args_init(cli_args *a, const cli_cmd_help *cmd, int argc, char **argv);
/* -j N / --jobs N as given to a reading command (cli_next takes it), or 0. */
unsigned cli_jobs_given(void);
int cli_next(cli_args *a);
/* Exit code for a cli_next result that stopped parsing (CLI_HELP → 0). */
int cli_done_code(int next_result);
/* Checks the number of positional arguments; prints a usage error naming
 * `what` ("FILE") and returns 0 when it is outside [min, max]. */
int cli_want_pos(const cli_args *a, int min, int max, const char *what);

/* The value of the option just returned as a whole number in [lo, hi],
 * or a number in [lo, hi]. Numbers are decimal digits, a number may have
 * one '.'; no sign, spaces, exponent or hex. Return 0, or -1 after a usage
 * error naming --NAME. */
int cli_parse_count(const cli_args *a, const char *name, unsigned long lo, unsigned long hi,
                    unsigned long *v);
int cli_parse_number(const cli_args *a, const char *name, double lo, double hi, double *v);
/* The same syntax for a string, without a message: 0, or -1. */
int cli_parse_decimal(const char *s, double lo, double hi, double *v);

void cli_print_help(FILE *out, const cli_cmd_help *cmd);
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
int cli_report_read(const char *path, const el_read_result *r);
/* A file name for messages: "<stdin>" for "-", else its visible form
 * (evprof/textout.h), valid for the rest of the run. */
const char *cli_display_path(const char *path);

/* Writes bytes for a terminal in the visible form of evprof/textout.h
 * (tx_put): control bytes escaped, bad UTF-8 as U+FFFD. */
void cli_text_str(FILE *out, const char *s, size_t len);

#endif
