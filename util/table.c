#include "util/table.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/textout.h"

void tx_table_init(tx_table *t, const tx_col *cols, size_t ncols)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    t->ncols = ncols;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    if (n > SIZE_MAX / size)
        return -1;
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

void tx_table_add(tx_table *t, const char *s, size_t len)
{
    if (t->failed)
        return;
    /* cell[] holds each cell's start and, after the last, the end */
    if (grow((void **)&t->text, &t->text_cap, t->text_len + len + 1, 1) != 0 ||
        grow((void **)&t->cell, &t->cells_cap, t->ncells + 2, sizeof *t->cell) != 0) {
        t->failed = 1;
        return;
    }
    if (len)
        memcpy(t->text + t->text_len, s, len);
    t->cell[t->ncells++] = t->text_len;
    t->text_len += len;
    t->cell[t->ncells] = t->text_len;
}

void tx_table_addf(tx_table *t, const char *fmt, ...)
{
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        tx_table_add(t, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        t->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    tx_table_add(t, big, (size_t)n);
    free(big);
}

void tx_table_end_row(tx_table *t, int counted)
{
    if (t->failed)
        return;
    if (t->ncells != (t->nrows + 1) * t->ncols ||
        grow((void **)&t->counted, &t->rows_cap, t->nrows + 1, 1) != 0) {
        t->failed = 1;
        return;
    }
    t->counted[t->nrows++] = counted != 0;
}

static void spaces(FILE *out, size_t n)
{
    static const char blanks[32] = "                                ";
    while (n > 0) {
        size_t k = n < sizeof blanks ? n : sizeof blanks;
        fwrite(blanks, 1, k, out);
        n -= k;
    }
}

int tx_table_write(const tx_table *t, FILE *out)
{
    if (t->failed || t->ncells != t->nrows * t->ncols)
        return -1;
    size_t *width = malloc((t->ncols ? t->ncols : 1) * sizeof *width);
    if (!width)
        return -1;
    for (size_t c = 0; c < t->ncols; c++)
        width[c] = t->cols[c].width;
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols && t->counted[r]; c++) {
            size_t k = r * t->ncols + c;
            size_t w = tx_vis_width(t->text + t->cell[k], t->cell[k + 1] - t->cell[k]);
            if (t->cols[c].measure && w > width[c])
                width[c] = w;
        }
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            size_t k = r * t->ncols + c;
            const char *s = t->text + t->cell[k];
            size_t len = t->cell[k + 1] - t->cell[k];
            size_t w = tx_vis_width(s, len);
            size_t pad = w < width[c] ? width[c] - w : 0;
            if (t->cols[c].sep)
                fputs(t->cols[c].sep, out);
            if (t->cols[c].align == TX_RIGHT)
                spaces(out, pad);
            tx_put(out, s, len);
            if (t->cols[c].align == TX_LEFT && c + 1 < t->ncols)
                spaces(out, pad);
        }
        putc('\n', out);
    }
    free(width);
    return ferror(out) ? -1 : 0;
}

void tx_table_free(tx_table *t)
{
    free(t->text);
    free(t->cell);
    free(t->counted);
    memset(t, 0, sizeof *t);
}
