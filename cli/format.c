#include "format.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "evprof/textout.h"

/* The formats' names, or their first extensions, as "a, b or c" */
static void join(const cli_formats *t, int exts, char *buf, size_t size)
{
    const char *item[32];
    size_t count = 0, len = 0;
    for (size_t i = 0; i < t->count && count < 32; i++)
        if (!t->list[i].name)
            continue;
        else if (!exts)
            item[count++] = t->list[i].name;
        else if (t->list[i].exts && *t->list[i].exts)
            item[count++] = t->list[i].exts;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < count && len + 1 < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int k = snprintf(buf + len, size - len, "%s%.*s", sep, (int)strcspn(item[i], " "),
                         item[i]);
        len += k > 0 ? (size_t)k : 0;
    }
}

void cli_format_names(const cli_formats *t, char *buf, size_t size)
{
    join(t, 0, buf, size);
}

int cli_format_parse(const cli_args *a, const cli_formats *t)
{
    const ev_format *f = ev_format_find(t->list, t->count, a->value);
    if (f)
        return (int)(f - t->list);
    char names[256], shown[128];
    join(t, 0, names, sizeof names);     /* "text, csv or json" */
    tx_vis(shown, sizeof shown, a->value, strlen(a->value));
    cli_usage_error(a->cmd, "--format wants %s, not '%s'", names, shown);
    return -1;
}

int cli_opt_format(const cli_args *a, void *var, const void *ctx)
{
    int id = cli_format_parse(a, ctx);
    if (id < 0)
        return -1;
    *(int *)var = id;
    return 0;
}

int cli_format_resolve(const cli_cmd_help *cmd, const cli_formats *t, int given,
                       const char *output)
{
    if (given >= 0)
        return given;
    if (!output || strcmp(output, "-") == 0)
        return t->to_stdout;
    const ev_format *f = ev_format_for_path(t->list, t->count, output);
    int id = f ? (int)(f - t->list) : t->to_file;
    if (id < 0) {
        char exts[256], shown[256];
        join(t, 1, exts, sizeof exts);
        tx_vis(shown, sizeof shown, output, strlen(output));
        cli_usage_error(cmd, "cannot tell the format from '%s': name it %s, or give --format",
                        shown, exts);
    }
    return id;
}

int cli_format_check_tty(const cli_cmd_help *cmd, const cli_formats *t, int id,
                         const char *output)
{
    int to_stdout = !output || strcmp(output, "-") == 0;
    if (to_stdout && id >= 0 && (size_t)id < t->count &&
        (t->list[id].flags & EV_FORMAT_BINARY) && isatty(STDOUT_FILENO)) {
        cli_usage_error(cmd, "not writing %s to a terminal: give -o FILE or redirect",
                        t->list[id].name);
        return -1;
    }
    return 0;
}

ev_status cli_format_write(const ev_format *(*table)(size_t *count), const char *name,
                           const void *snapshot, const void *opts, FILE *out)
{
    size_t n;
    const ev_format *list = table(&n);
    const ev_format *f = ev_format_find(list, n, name);
    return f && f->write ? f->write(snapshot, opts, out, NULL) : EV_ERR_USAGE;
}
