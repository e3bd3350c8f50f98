#include <stdlib.h>
#include <errno.h>
/* evprof CLI: option tables, help, error reporting, string output. */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

/* ---- options ---------------------------------------------------------- */

static const cli_opt help_opt = { 0, 'h', "help", NULL, "show this help" };

void cli_args_init(cli_args *a, const cli_cmd_help *cmd, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
    a->pos = argv + 1;
}

static const cli_opt *find_long(const cli_opt *o, const char *name, size_t len)
{
    for (; o && o->id; o++)
        if (o->long_name && strlen(o->long_name) == len &&
            memcmp(o->long_name, name, len) == 0)
            return o;
    return NULL;
}

static const cli_opt *find_short(const cli_opt *o, char c)
{
    for (; o && o->id; o++)
        if (o->short_name && o->short_name == c)
            return o;
    return NULL;
}

static int parse_long(cli_args *a, const char *arg)
{
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);

    if (len == 4 && memcmp(name, "help", 4) == 0 && !eq) {
        cli_print_help(stdout, a->cmd);
        return CLI_HELP;
    }
    const cli_opt *o = find_long(a->cmd->opts, name, len);
    if (!o) {
        cli_usage_error(a->cmd, "unknown option '--%.*s'", (int)len, name);
        return CLI_ERROR;
    }
    if (!o->arg) {
        if (eq) {
            cli_usage_error(a->cmd, "option '--%s' takes no value", o->long_name);
            return CLI_ERROR;
        }
        a->value = NULL;
        return o->id;
    }
    if (eq) {
        a->value = eq + 1;
    } else if (a->i < a->argc) {
        a->value = a->argv[a->i++];
    } else {
        cli_usage_error(a->cmd, "option '--%s' needs a value (%s)", o->long_name, o->arg);
        return CLI_ERROR;
    }
    return o->id;
}

static int parse_short(cli_args *a)
{
    char c = *a->cluster++;
    if (c == 'h' && !find_short(a->cmd->opts, 'h')) {
        cli_print_help(stdout, a->cmd);
        return CLI_HELP;
    }
    const cli_opt *o = find_short(a->cmd->opts, c);
    if (!o) {
        cli_usage_error(a->cmd, "unknown option '-%c'", c);
        return CLI_ERROR;
    }
    a->value = NULL;
    if (o->arg) {
        if (*a->cluster) {
            a->value = a->cluster;
        } else if (a->i < a->argc) {
            a->value = a->argv[a->i++];
        } else {
            cli_usage_error(a->cmd, "option '-%c' needs a value (%s)", c, o->arg);
            return CLI_ERROR;
        }
        a->cluster = NULL;
    }
    if (a->cluster && !*a->cluster)
        a->cluster = NULL;
    return o->id;
}

int cli_next(cli_args *a)
{
    if (a->cluster)
        return parse_short(a);
    while (a->i < a->argc) {
        char *arg = a->argv[a->i++];
        if (a->only_pos || arg[0] != '-' || arg[1] == '\0') {
            /* positional ("-" is standard input): move it to the front;
             * its new slot was already read, so nothing is lost */
            a->pos[a->npos++] = arg;
            continue;
        }
        if (arg[1] == '-' && arg[2] == '\0') {
            a->only_pos = 1;
            continue;
        }
        if (arg[1] == '-')
            return parse_long(a, arg);
        a->cluster = arg + 1;
        return parse_short(a);
    }
    return CLI_END;
}

int cli_done_code(int next_result)
{
    return next_result == CLI_HELP ? CLI_OK : CLI_USAGE;
}

int cli_want_pos(const cli_args *a, int min, int max, const char *what)
{
    if (a->npos < min) {
        cli_usage_error(a->cmd, "missing %s argument", what);
        return 0;
    }
    if (a->npos > max) {
        cli_usage_error(a->cmd, "unexpected argument '%s'", a->pos[max]);
        return 0;
    }
    return 1;
}

/* ---- help ------------------------------------------------------------- */

static void print_opt(FILE *out, const cli_opt *o)
{
    char left[64];
    int n = 0;
    if (o->short_name && o->long_name)
        n = snprintf(left, sizeof left, "-%c, --%s", o->short_name, o->long_name);
    else if (o->short_name)
        n = snprintf(left, sizeof left, "-%c", o->short_name);
    else
        n = snprintf(left, sizeof left, "    --%s", o->long_name);
    if (o->arg && n > 0 && (size_t)n < sizeof left)
        snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
    fprintf(out, "  %-22s %s\n", left, o->help);
}

int cli_parse_count(const cli_args *a, const char *name, unsigned long lo, unsigned long hi,
                    unsigned long *v)
{
    char *end;
    errno = 0;
    *v = strtoul(a->value, &end, 10);
    if (errno || end == a->value || *end || a->value[0] == '-' || *v < lo || *v > hi) {
        cli_usage_error(a->cmd, "--%s wants a whole number from %lu to %lu, not '%s'", name, lo,
                        hi, a->value);
        return -1;
    }
    return 0;
}

int cli_parse_number(const cli_args *a, const char *name, double lo, double hi, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(a->value, &end);
    if (errno || end == a->value || *end || !(*v >= lo && *v <= hi)) {
        cli_usage_error(a->cmd, "--%s wants a number from %g to %g, not '%s'", name, lo, hi,
                        a->value);
        return -1;
    }
    return 0;
}

void cli_print_help(FILE *out, const cli_cmd_help *cmd)
{
    fprintf(out, "Usage: evprof %s %s\n\n%s\n\nOptions:\n", cmd->name, cmd->usage,
            cmd->summary);
    for (const cli_opt *o = cmd->opts; o && o->id; o++)
        print_opt(out, o);
    print_opt(out, &help_opt);
    if (cmd->details)
        fprintf(out, "\n%s\n", cmd->details);
}

void cli_usage_error(const cli_cmd_help *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "evprof %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'evprof %s --help'.\n", cmd->name);
}

/* ---- errors ----------------------------------------------------------- */

const char *cli_display_path(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* ---- strings ---------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
void cli_text_str(FILE *out, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
}
