/* The output formats of a command, and the one place that picks one.
 *
 * A command writes the formats of a module's table (evprof/format.h: the
 * graph's cg_formats), or, until its module has one, of its own table of
 * ev_format rows, indexed by the command's ids:
 *
 *     static const ev_format format_list[] = {
 *         [FMT_TEXT] = { "text", ".txt" },
 *         [FMT_JSON] = { "json", ".json" },
 *     };
 *     static const cli_formats table = { format_list, 2, FMT_TEXT, FMT_TEXT };
 *
 * A format's id is its index in the table. Names and extensions are
 * parsed by ev_format_find and ev_format_for_path, the library's one
 * parser (the library's users name formats as the CLI does).
 *
 * `--format NAME` takes a format's name or one of its extensions without
 * the dot (any case: `--format JSON`, `graph --format gv`); without
 * --format, `-o FILE` takes the format whose extension ends FILE's name,
 * else the table's default for files; standard output gets the default
 * for it. --format beats the extension. */
#ifndef EVPROF_CLI_FORMAT_H
#define EVPROF_CLI_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "evprof/format.h"

typedef struct cli_formats {
    const ev_format *list;
    size_t count;
    int to_stdout;          /* the id (index) without -o (or with -o -) */
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
/* Writes `snapshot` in the format `name` of a module's table (prof_formats,
 * gc_formats, ...), the module's writer's status; EV_ERR_USAGE when the
 * table has no such format (the command's own mistake). */
ev_status cli_format_write(const ev_format *(*table)(size_t *count), const char *name,
                           const void *snapshot, const void *opts, FILE *out);
/* The names of the table's formats as "a, b or c" (for --format's help). */
void cli_format_names(const cli_formats *t, char *buf, size_t size);
/* A usage error, and -1, when format `id` is EV_FORMAT_BINARY and would go
 * to a terminal (`output`: -o's value, or NULL); else 0. */
int cli_format_check_tty(const cli_cmd_help *cmd, const cli_formats *t, int id,
                         const char *output);

#endif
