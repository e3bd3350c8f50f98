/* IPE records (type 169) as GHC writes them: where one ends. */
#include "eventlog/ipe.h"

#include <string.h>

#include "eventlog/bytes.h"

#define DATA_END 0xffffu
#define IPE_STRINGS 6u

/* GHC's postIPE writes the info word and six NUL-terminated strings (the
 * source file and span as one, `file:span`) but declares a payload
 * length that is off by one: one byte more on GHC 9.6.6 and 9.10.3 (it
 * counts a NUL after the source file that it never writes), one byte less
 * on some earlier releases (GHC #24287). Like ghc-events, the decoder
 * reads the strings up to their NULs; a record whose strings do not end
 * inside its block (or within the carry's size outside blocks) is damage.
 *
 * A declared length further off than that one byte is not GHC's slip:
 * one that holds the strings, ends inside the record's block and is
 * followed there by the start of a further record (el_ipe_pick) is the
 * record's length (bytes after the strings: fields that a later format
 * added, which a reader skips); any other is not, and the strings say
 * where the next record starts. Either way nothing after the record is
 * lost, and such records are counted for a note (el_decoder_ipe_len_off),
 * never damage. */

/* The record bytes are `a` then `b` (a record split by a chunk edge is
 * carry then input). Its length up to the last string's NUL, looking at
 * most `lim` bytes; 0 while the strings do not end within what is there. */
size_t el_ipe_record_len(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                         size_t lim)
{
    size_t pos = 12 + 8, need = IPE_STRINGS;

    if (alen > lim)
        alen = lim, blen = 0;
    else if (alen + blen > lim)
        blen = lim - alen;
    while (need) {
        const uint8_t *nul;
        if (pos < alen) {
            if ((nul = memchr(a + pos, 0, alen - pos))) {
                pos = (size_t)(nul - a) + 1;
                need--;
                continue;
            }
            pos = alen;
        }
        if (pos - alen >= blen || !(nul = memchr(b + (pos - alen), 0, blen - (pos - alen))))
            return 0;
        pos = alen + (size_t)(nul - b) + 1;
        need--;
    }
    return pos;
}

/* How far before the IPE record's own time the record after it may be
 * when its declared length is taken: events of a block are not in time
 * order, by up to 0.1 ms on the GHC logs of tests/data (1 s once, on
 * ghc-events' parallelTest, an old RTS). */
#define IPE_NEXT_BACK_NS 1000000000u

/* The declared end of the IPE record at p (its strings end `s` bytes in),
 * when it is worth a look: beyond GHC's one byte, within `to_end` bytes
 * (to the end of its block; 0 outside any block). Then the bytes to have
 * at p to look: to the head of the record after it, or the block's end;
 * else s. */
size_t el_ipe_look(const uint8_t *p, size_t s, uint64_t to_end)
{
    size_t decl = 12u + be16(p + 10);
    if (decl <= s + 1 || decl > to_end)
        return s;
    return to_end - decl >= 12 ? decl + 12 : (size_t)to_end;
}

/* Could a record start at q, `room` bytes before its block's end? The
 * block's end itself, or its last record the end marker (GHC 9.2 and
 * later), or the head of a record of a declared type (not a block
 * marker) that fits the block, timed no later than the block's end
 * (`limit`) and not long before the IPE record (`t_ipe`). */
static int ipe_next_fits(const uint32_t *type_size, const uint8_t *q, uint64_t room,
                         uint64_t t_ipe, uint64_t limit)
{
    if (room == 0 || (room == 2 && be16(q) == DATA_END))
        return 1;
    if (room < 12)
        return 0;
    uint16_t type = be16(q);
    uint32_t ts = type_size[type];
    if (!ts || type == EL_BLOCK_MARKER)
        return 0;
    uint64_t t = be64(q + 2);
    if (t > limit || t + IPE_NEXT_BACK_NS < t_ipe)
        return 0;
    return (ts == 1 ? 12u + be16(q + 10) : 10u + ts - 2) <= room;
}

/* The length of the IPE record at p, whose strings end `s` bytes in, and
 * of which el_ipe_look's bytes are at hand: its declared length when that is
 * to be trusted (above), else s. `to_end` and `limit` as above. */
size_t el_ipe_pick(const uint32_t *type_size, const uint8_t *p, size_t s, uint64_t to_end,
                   uint64_t limit)
{
    size_t decl = 12u + be16(p + 10);
    if (el_ipe_look(p, s, to_end) > s &&
        ipe_next_fits(type_size, p + decl, to_end - decl, be64(p + 2), limit))
        return decl;
    return s;
}

