/* The one description of each event type (eventlog/layouts.h) against the
 * type table (eventlog/types.c) and its readers: a new entry whose
 * smallest payload, text or size disagrees fails here, not as a wrong
 * dump line or a short write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "eventlog/layouts.h"
#include "eventlog/types.h"

/* The bytes a payload needs for the layout's fields that every version
 * has (not the OPT ones, which a later GHC added). */
static unsigned layout_min(const el_field *f)
{
    unsigned end = 0;
    for (; f->kind != EL_F_END; f++) {
        unsigned e = f->off;
        switch (f->kind) {
        case EL_F_U8: case EL_F_U16: case EL_F_U32: case EL_F_U64:
            e += (unsigned)el_field_width(f->kind);
            break;
        case EL_F_STR4: case EL_F_TAIL32:
            e += 4;
            break;
        case EL_F_STACK:
            e += 1;
            break;
        case EL_F_STR:
            break;
        default:
            e = 0;
        }
        if (e > end)
            end = e;
    }
    return end;
}

/* The decoder refuses a payload shorter than the type table's min_len and
 * then loads the layout's fields: the two must agree. */
static void test_min_len_is_the_layouts(void **state)
{
    (void)state;
    int rows = 0;
    for (unsigned t = 0; t < EL_NUM_TYPE_IDS; t++) {
        const el_layout *l = &el_layout_table[t];
        if (!l->fields)
            continue;
        rows++;
        if (layout_min(l->fields) != el_type_table[t].min_len)
            fail_msg("type %u (%s): layout needs %u bytes, the type table says %u", t,
                     el_type_table[t].name, layout_min(l->fields), el_type_table[t].min_len);
        assert_true(el_type_table[t].flags & EL_TYPE_DECODED);
    }
    assert_true(rows > 90);
}

/* A ghc-events fixed layout is what GHC declares: the largest layout,
 * OPT fields included, is the declared size where the header has one. */
static void test_declared_size_is_the_layouts(void **state)
{
    (void)state;
    for (unsigned t = 0; t < EL_NUM_TYPE_IDS; t++) {
        const el_layout *l = &el_layout_table[t];
        const el_type_info *ti = &el_type_table[t];
        if (!l->fields || ti->ge_kind != EL_GE_FIXED || !ti->desc)
            continue;
        unsigned end = 0;
        for (const el_field *f = l->fields; f->kind != EL_F_END; f++)
            if (el_field_width(f->kind) && f->off + (unsigned)el_field_width(f->kind) > end)
                end = f->off + (unsigned)el_field_width(f->kind);
        if (end != (unsigned)ti->size)
            fail_msg("type %u (%s): layout ends at %u, declared size %d", t, ti->name, end,
                     ti->size);
        assert_true(end <= 64);   /* the writer's buffer (emit_layout) */
    }
}

/* Each text's %cN names a field of its layout of the right sort. */
static void test_texts_name_their_fields(void **state)
{
    (void)state;
    for (unsigned t = 0; t < EL_NUM_TYPE_IDS; t++) {
        const el_layout *l = &el_layout_table[t];
        if (!l->text)
            continue;
        unsigned n = 0;
        while (l->fields[n].kind != EL_F_END)
            n++;
        for (const char *s = strchr(l->text, '%'); s; s = strchr(s + 3, '%')) {
            assert_true(s[1] && s[2]);
            unsigned i = (unsigned)(s[2] - '0');
            if (i >= n)
                fail_msg("type %u (%s): %%%c%c past its %u fields", t, el_type_table[t].name,
                         s[1], s[2], n);
            uint8_t k = l->fields[i].kind;
            int is_str = k == EL_F_STR || k == EL_F_STR4;
            switch (s[1]) {
            case 'd': case 'x': case 't':
                /* show.c reads the number from el_event.u by its size */
                assert_false(is_str);
                assert_true(l->fields[i].size == 1 || l->fields[i].size == 2 ||
                            l->fields[i].size == 4 || l->fields[i].size == 8);
                break;
            case 's': case 'l': case 'L': case 'b':
                assert_true(is_str);
                assert_int_equal(l->fields[i].size, sizeof(el_str));
                break;
            default:
                fail_msg("type %u: unknown conversion %%%c", t, s[1]);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_min_len_is_the_layouts),
        cmocka_unit_test(test_declared_size_is_the_layouts),
        cmocka_unit_test(test_texts_name_their_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
