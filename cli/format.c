#include "format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "evprof/textout.h"

/* Whether the blank-separated list holds `word` (any case; `dot`: compare
 * with each entry's leading '.' dropped). */
static int in_list(const char *list, const char *word, size_t len, int dot)
{
    while (list && *list) {
        size_t n = strcspn(list, " ");
        const char *e = list;
        if (dot && n > 0 && *e == '.') {
            e++;
            n--;
        }
        if (n == len && strncasecmp(e, word, len) == 0)
            return 1;
        list += strcspn(list, " ");
        list += strspn(list, " ");
    }
    return 0;
}

/* The extension of `list` that ends `base` (any case), longest first; -1 */
static size_t ext_match(const char *list, const char *base)
{
    size_t best = 0, blen = strlen(base);
    while (list && *list) {
        size_t n = strcspn(list, " ");
        if (n > best && n < blen && strncasecmp(base + blen - n, list, n) == 0)
            best = n;
        list += n;
        list += strspn(list, " ");
    }
    return best;
}

/* The formats' names, or their first extensions, as "a, b or c" */
static void join(const cli_formats *t, int exts, char *buf, size_t size)
{
    const char *item[32];
    size_t count = 0, len = 0;
    for (const cli_format *f = t->list; f->name && count < 32; f++)
        if (!exts)
            item[count++] = f->name;
        else if (f->exts && *f->exts)
            item[count++] = f->exts;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < count && len + 1 < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int k = snprintf(buf + len, size - len, "%s%.*s", sep, (int)strcspn(item[i], " "),
                         item[i]);
        len += k > 0 ? (size_t)k : 0;
    }
}

int cli_format_parse(const cli_args *a, const cli_formats *t)
{
    size_t len = strlen(a->value);
    for (const cli_format *f = t->list; f->name; f++)
        if ((strlen(f->name) == len && strcasecmp(f->name, a->value) == 0) ||
            (len > 0 && in_list(f->exts, a->value, len, 1)))
            return f->id;
    char names[256], shown[128];
    join(t, 0, names, sizeof names);     /* "text, csv or json" */
    tx_vis(shown, sizeof shown, a->value, len);
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
    const char *slash = strrchr(output, '/');
    const char *base = slash ? slash + 1 : output;
    int id = t->to_file;
    size_t best = 0;
    for (const cli_format *f = t->list; f->name; f++) {
        size_t n = ext_match(f->exts, base);
        if (n > best) {
            best = n;
            id = f->id;
        }
    }
    if (id < 0) {
        char exts[256], shown[256];
        join(t, 1, exts, sizeof exts);
        tx_vis(shown, sizeof shown, output, strlen(output));
        cli_usage_error(cmd, "cannot tell the format from '%s': name it %s, or give --format",
                        shown, exts);
    }
    return id;
}
