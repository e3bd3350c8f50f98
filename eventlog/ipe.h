/* Where an IPE record (type 169) ends, as GHC writes it; private to the
 * decoder. See ipe.c for GHC's slip (GHC #24287) and the rules. */
#ifndef EVPROF_EVENTLOG_IPE_H
#define EVPROF_EVENTLOG_IPE_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/eventlog.h"

/* The record's bytes are `a` then `b` (a record split by a chunk edge is
 * carry then input). Its length up to the last string's NUL, looking at
 * most `lim` bytes; 0 while the strings do not end within what is there. */
size_t el_ipe_record_len(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                         size_t lim);

/* The bytes to have at p to judge the declared length of the record
 * there (strings ending `s` bytes in, `to_end` bytes to its block's end,
 * 0 outside any block): to the head of the record after it, or the
 * block's end, when the declared length is worth a look; else s. */
size_t el_ipe_look(const uint8_t *p, size_t s, uint64_t to_end);

/* The record's length: its declared one when that is to be trusted
 * (el_ipe_look's bytes at hand; type_size as the decoder's: id -> 0
 * undeclared, 1 variable, else size + 2; `limit` the block's end time),
 * else s. */
size_t el_ipe_pick(const uint32_t *type_size, const uint8_t *p, size_t s, uint64_t to_end,
                   uint64_t limit);

#endif
