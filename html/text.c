/* Text for HTML markup: see html/internal.h for the rules. (The page's
 * JSON goes through tx_json in its html-safe mode: evprof/json.h.) */
#include "evprof/textout.h"
#include "html/internal.h"

void html_text(FILE *f, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c >= 0x80) {
            size_t n = tx_utf8_next(s + i, len - i, NULL);
            if (n == 0) {
                fputs("\xef\xbf\xbd", f);
                i++;
            } else {
                fwrite(s + i, 1, n, f);
                i += n;
            }
            continue;
        }
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (c >= 0x20 && c != 0x7f)
                putc((int)c, f);
            else if (c == '\t')
                putc(' ', f);
        }
        i++;
    }
}
