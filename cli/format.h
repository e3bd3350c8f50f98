/* The output formats of a command, and the one place that picks one.
 *
 * Each command declares its formats in a table:
 *
 *     static const cli_format formats[] = {
 *         { "text", ".txt", FMT_TEXT },
 *         { "json", ".json", FMT_JSON },
 *         { NULL },
 *     };
 *     static const cli_formats table = { formats, FMT_TEXT, FMT_TEXT };
 *
 * `--format NAME` takes a format's name or one of its extensions without
 * the dot (any case: `--format JSON`, `graph --format gv`); without
 * --format, `-o FILE` takes the format whose extension ends FILE's name,
 * else the table's default for files; standard output gets the default
 * for it. --format beats the extension. */
#ifndef EVPROF_CLI_FORMAT_H
#define EVPROF_CLI_FORMAT_H

#include <stddef.h>

#include "cli.h"

typedef struct cli_format {
    const char *name;       /* --format NAME; NULL ends the table */
    const char *exts;       /* -o's extensions, blank-separated (".dot .gv"), or NULL */
    int id;                 /* the command's writer, >= 0 */
} cli_format;

typedef struct cli_formats {
    const cli_format *list;
    int to_stdout;          /* the id without -o (or with -o -) */
    int to_file;            /* the id when -o's extension names none; -1: a usage error */
} cli_formats;

/* The id that --format's value (a->value) names, or -1 after a usage
 * error that lists the command's formats. */
int cli_format_parse(const cli_args *a, const cli_formats *t);
/* -f, --format FMT bound to an int (the id; -1 until given), ctx the
 * command's cli_formats. */
int cli_opt_format(const cli_args *a, void *var, const void *ctx);
#define CLI_FORMAT_OPT(var, formats, help) \
    OPT_CALL('f', "format", "FMT", cli_opt_format, var, formats, help)

/* After the options: the format to write. `given`: the id --format named,
 * or -1; `output`: -o's value, or NULL. The id, or -1 after a usage error
 * (-o's extension names no format and the table has no default for files). */
int cli_format_resolve(const cli_cmd_help *cmd, const cli_formats *t, int given,
                       const char *output);

#endif
