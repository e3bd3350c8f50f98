/* evprof CLI: option tables, help, error reporting, string output. */
#include "cli.h"
#include "evprof/textout.h"

#include <errno.h>
#include <stdlib.h>

#include <stdarg.h>
#include <string.h>

/* ---- options ---------------------------------------------------------- */

static const cli_opt help_opt = OPT_FLAG('h', "help", NULL, "show this help");

static int decimal_syntax(const char *s, int fraction);
static int decimal_number(const char *s) { return decimal_syntax(s, 0); }

/* -j followed by what is not a number (a file, another option) or by
 * nothing: most likely the old `report -j FILE`, so the message says what
 * -j is now and where the JSON went. */
static void jobs_hint(const cli_args *a, const char *value)
{
    const char *json = strcmp(a->cmd->name, "report") == 0 ? "; GHC's -pj JSON profile is --json"
                                                           : "";
    if (value)
        cli_usage_error(a->cmd, "-j is --jobs N (read on N threads), which wants a whole number "
                        "from 1 to 1024, not '%s'%s", value, json);
    else
        cli_usage_error(a->cmd, "-j is --jobs N (read on N threads) and needs a value (N)%s",
                        json);
}

int cli_opt_jobs(const cli_args *a, void *var, const void *ctx)
{
    cli_ctx *c = var;
    unsigned long n;
    (void)ctx;
    if (cli_parse_count(a, "jobs", 1, 1024, &n) != 0)
        return -1;
    c->jobs_given = (unsigned)n;
    return 0;
}

static const cli_opt *find_long(const cli_opt *o, const char *name, size_t len)
{
    for (; o && o->type != CLI_OPT_END; o++)
        if (o->long_name && strlen(o->long_name) == len &&
            memcmp(o->long_name, name, len) == 0)
            return o;
    return NULL;
}

static const cli_opt *find_short(const cli_opt *o, char c)
{
    for (; o && o->type != CLI_OPT_END; o++)
        if (o->short_name && o->short_name == c)
            return o;
    return NULL;
}

/* The option's value into its variable. CLI_END, or CLI_ERROR after a
 * usage error. */
static int take(cli_args *a, const cli_opt *o)
{
    char name[64];
    unsigned long n;
    double v;
    a->opt = o;
    snprintf(name, sizeof name, "%s", o->long_name ? o->long_name : "");
    switch (o->type) {
    case CLI_OPT_FLAG:
        *(int *)o->var = 1;
        return CLI_END;
    case CLI_OPT_STRING:
        *(const char **)o->var = a->value;
        return CLI_END;
    case CLI_OPT_COUNT:
        if (cli_parse_count(a, name, o->lo, o->hi, &n) != 0)
            return CLI_ERROR;
        *(unsigned long *)o->var = n;
        return CLI_END;
    case CLI_OPT_NUMBER:
        if (cli_parse_number(a, name, o->min, o->max, &v) != 0)
            return CLI_ERROR;
        *(double *)o->var = v;
        return CLI_END;
    case CLI_OPT_CALL:
        return o->call(a, o->var, o->ctx) == 0 ? CLI_END : CLI_ERROR;
    case CLI_OPT_END:
        break;
    }
    return CLI_ERROR;
}

static int parse_long(cli_args *a, const char *arg)
{
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);

    if (len == 4 && memcmp(name, "help", 4) == 0 && !eq) {
        cli_print_help(stdout, a->cmd, a->opts);
        return CLI_HELP;
    }
    const cli_opt *o = find_long(a->opts, name, len);
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
        return take(a, o);
    }
    if (eq) {
        a->value = eq + 1;
    } else if (a->i < a->argc) {
        a->value = a->argv[a->i++];
    } else {
        cli_usage_error(a->cmd, "option '--%s' needs a value (%s)", o->long_name, o->arg);
        return CLI_ERROR;
    }
    return take(a, o);
}

static int parse_short(cli_args *a)
{
    char c = *a->cluster++;
    if (c == 'h' && !find_short(a->opts, 'h')) {
        cli_print_help(stdout, a->cmd, a->opts);
        return CLI_HELP;
    }
    const cli_opt *o = find_short(a->opts, c);
    if (!o) {
        cli_usage_error(a->cmd, "unknown option '-%c'", c);
        return CLI_ERROR;
    }
    a->value = NULL;
    if (o->arg) {
        int jobs = o->call == cli_opt_jobs;
        if (*a->cluster) {
            a->value = a->cluster;
        } else if (a->i < a->argc) {
            a->value = a->argv[a->i++];
        } else if (jobs) {
            jobs_hint(a, NULL);
            return CLI_ERROR;
        } else {
            cli_usage_error(a->cmd, "option '-%c' needs a value (%s)", c, o->arg);
            return CLI_ERROR;
        }
        a->cluster = NULL;
        if (jobs && !decimal_number(a->value)) {
            jobs_hint(a, a->value);
            return CLI_ERROR;
        }
    }
    if (a->cluster && !*a->cluster)
        a->cluster = NULL;
    return take(a, o);
}

int cli_parse(const cli_cmd_help *cmd, const cli_opt *opts, int argc, char **argv,
              cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->opts = opts;
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
    a->pos = argv + 1;
    for (;;) {
        int r;
        if (a->cluster) {
            r = parse_short(a);
        } else if (a->i < a->argc) {
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
            if (arg[1] == '-') {
                r = parse_long(a, arg);
            } else {
                a->cluster = arg + 1;
                r = parse_short(a);
            }
        } else {
            return CLI_END;
        }
        if (r != CLI_END)
            return r;
    }
}

int cli_done_code(int result)
{
    return result == CLI_HELP ? CLI_OK : CLI_USAGE;
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

/* An option's line of --help: "  -f, --format FMT       help", the help
 * wrapped at 79 columns under itself (a left column wider than its 22
 * columns puts the help on the next line). */
enum { HELP_LEFT = 22, HELP_INDENT = 2 + HELP_LEFT + 1, HELP_WIDTH = 79 };

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
        n += snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
    if (n > HELP_LEFT)
        fprintf(out, "  %s\n%*s", left, HELP_INDENT, "");
    else
        fprintf(out, "  %-*s ", HELP_LEFT, left);
    /* the help's words, as many as fit on each line */
    const char *h = o->help;
    int col = HELP_INDENT;
    while (*h) {
        while (*h == ' ')
            h++;
        size_t w = strcspn(h, " ");
        if (!w)
            break;
        if (col > HELP_INDENT && col + 1 + (int)w > HELP_WIDTH) {
            fprintf(out, "\n%*s", HELP_INDENT, "");
            col = HELP_INDENT;
        } else if (col > HELP_INDENT) {
            fputc(' ', out);
            col++;
        }
        fwrite(h, 1, w, out);
        col += (int)w;
        h += w;
    }
    fputc('\n', out);
}

/* The one syntax of numbers on the command line: decimal digits, with
 * `fraction` one '.' among or after them ("12", "0.5", "3."); no sign,
 * space, exponent, hex, inf or nan, so that every option reads "0x10",
 * "1 " or "1e308" the same way: as a mistake. */
static int decimal_syntax(const char *s, int fraction)
{
    int digits = 0, dot = 0;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9')
            digits++;
        else if (*s == '.' && fraction && !dot)
            dot = 1;
        else
            return 0;
    }
    return digits > 0;
}

int cli_parse_count(const cli_args *a, const char *name, unsigned long lo, unsigned long hi,
                    unsigned long *v)
{
    char *end;
    errno = 0;
    if (decimal_syntax(a->value, 0))
        *v = strtoul(a->value, &end, 10);
    if (!decimal_syntax(a->value, 0) || errno || *end || *v < lo || *v > hi) {
        cli_usage_error(a->cmd, "--%s wants a whole number from %lu to %lu in decimal digits, "
                        "not '%s'", name, lo, hi, a->value);
        return -1;
    }
    return 0;
}

int cli_parse_decimal(const char *s, double lo, double hi, double *v)
{
    char *end;
    if (!decimal_syntax(s, 1))
        return -1;
    errno = 0;
    *v = strtod(s, &end);
    return errno || *end || !(*v >= lo && *v <= hi) ? -1 : 0;
}

int cli_parse_number(const cli_args *a, const char *name, double lo, double hi, double *v)
{
    if (cli_parse_decimal(a->value, lo, hi, v) != 0) {
        cli_usage_error(a->cmd, "--%s wants a decimal number from %g to %g (like 2 or 0.5), "
                        "not '%s'", name, lo, hi, a->value);
        return -1;
    }
    return 0;
}

void cli_print_help(FILE *out, const cli_cmd_help *cmd, const cli_opt *opts)
{
    fprintf(out, "Usage: evprof %s %s\n\n%s\n\nOptions:\n", cmd->name, cmd->usage,
            cmd->summary);
    for (const cli_opt *o = opts; o && o->type != CLI_OPT_END; o++)
        print_opt(out, o);
    print_opt(out, &help_opt);
    if (cmd->details)
        fprintf(out, "\n%s\n", cmd->details);
}

void cli_usage_error(const cli_cmd_help *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    fprintf(stderr, "evprof %s: ", cmd->name);
    /* the message quotes the command line: shown in its visible form */
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n > 0)
        tx_put(stderr, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    fprintf(stderr, "\nTry 'evprof %s --help'.\n", cmd->name);
}

/* ---- errors ----------------------------------------------------------- */

/* The visible forms made so far are kept in c: a pointer handed out stays
 * valid (a few paths at most). */
const char *cli_display_path(cli_ctx *c, const char *path)
{
    if (strcmp(path, "-") == 0)
        return "<stdin>";
    size_t len = strlen(path), plain = 1;
    for (size_t i = 0; i < len && plain; i++)
        plain = (unsigned char)path[i] >= 0x20 && (unsigned char)path[i] < 0x7f;
    if (plain)
        return path;
    for (size_t k = 0; k < c->num_shown; k++)
        if (c->shown[k].path == path)
            return c->shown[k].shown;
    size_t w = tx_vis(NULL, 0, path, len);
    char *shown = malloc(w + 1);
    cli_shown_path *more = realloc(c->shown, (c->num_shown + 1) * sizeof *more);
    if (more)
        c->shown = more;
    if (!shown || !more) {
        free(shown);
        return "<file name not shown: out of memory>";
    }
    tx_vis(shown, w + 1, path, len);
    c->shown[c->num_shown].path = path;
    c->shown[c->num_shown++].shown = shown;
    return shown;
}

/* ---- strings ---------------------------------------------------------- */

void cli_text_str(FILE *out, const char *str, size_t len)
{
    tx_put_short(out, str, len);
}
