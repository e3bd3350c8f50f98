/* Aligned text tables: the columns of a report, measured in the visible
 * form of evprof/textout.h (log strings escaped, widths in code points).
 *
 * A column has a separator written before it, an alignment and a minimum
 * width; a measured column widens to its widest cell in the rows that
 * count (a totals row may stay out); a cell wider than its column pushes
 * the rest of its line, as printf's "%*s" does. A left-aligned last column
 * is not padded: no line ends in blanks.
 *
 *     static const tx_col cols[] = {
 *         { NULL, TX_LEFT, 4, 1 }, { "  ", TX_RIGHT, 10, 1 },
 *     };
 *     tx_table t;
 *     tx_table_init(&t, cols, 2);
 *     tx_table_add(&t, "band", 4); tx_table_add(&t, "bytes", 5);
 *     tx_table_end_row(&t, 1);
 *     ...
 *     rc = tx_table_write(&t, out);    // then tx_table_free(&t)
 */
#ifndef EVPROF_UTIL_TABLE_H
#define EVPROF_UTIL_TABLE_H

#include <stddef.h>
#include <stdio.h>

enum { TX_LEFT = 0, TX_RIGHT = 1 };

typedef struct tx_col {
    const char *sep;        /* written before the column; NULL: nothing */
    int align;              /* TX_LEFT or TX_RIGHT */
    size_t width;           /* at least this many code points */
    int measure;            /* widen to the widest cell of the counted rows */
} tx_col;

typedef struct tx_table {
    const tx_col *cols;
    size_t ncols;
    char *text;             /* the cells' bytes, one after another */
    size_t text_len, text_cap;
    size_t *cell;           /* start of each cell in text; cell[i + 1] ends it */
    size_t ncells, cells_cap;
    unsigned char *counted; /* per row: counted in the widths */
    size_t nrows, rows_cap;
    int failed;             /* out of memory, or a row of the wrong length */
} tx_table;

void tx_table_init(tx_table *t, const tx_col *cols, size_t ncols);
/* The next cell of the current row: s[0..len), copied. */
void tx_table_add(tx_table *t, const char *s, size_t len);
void tx_table_addf(tx_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Ends the row (it must have ncols cells); `counted`: its cells widen the
 * measured columns. */
void tx_table_end_row(tx_table *t, int counted);
/* Writes every row, each ending in '\n'. 0, or -1 when a call failed
 * (nothing written) or writing did. */
int tx_table_write(const tx_table *t, FILE *out);
void tx_table_free(tx_table *t);

#endif
