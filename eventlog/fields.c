/* The typed fields of a record: every case below is generated from
 * eventlog/layouts.h (an X-macro, so the loads are at constant offsets as
 * if written by hand: the decoder's hot path interprets no table). */
#include "eventlog/fields.h"

#include <stdio.h>
#include <string.h>

#include "eventlog/bytes.h"
#include "eventlog/layouts.h"
#include "eventlog/types.h"

/* A cursor over one payload; every read is bounds-checked. */
typedef struct cursor {
    const uint8_t *p;
    uint32_t len, pos;
    int bad;            /* a read ran past the end */
} cursor;

static uint8_t c_u8(cursor *c)
{
    if (c->len - c->pos < 1) { c->bad = 1; return 0; }
    return c->p[c->pos++];
}

static uint16_t c_u16(cursor *c)
{
    if (c->len - c->pos < 2) { c->bad = 1; c->pos = c->len; return 0; }
    c->pos += 2;
    return be16(c->p + c->pos - 2);
}

static uint32_t c_u32(cursor *c)
{
    if (c->len - c->pos < 4) { c->bad = 1; c->pos = c->len; return 0; }
    c->pos += 4;
    return be32(c->p + c->pos - 4);
}

static uint64_t c_u64(cursor *c)
{
    if (c->len - c->pos < 8) { c->bad = 1; c->pos = c->len; return 0; }
    c->pos += 8;
    return be64(c->p + c->pos - 8);
}

/* A NUL-terminated string inside the payload. A string that runs to the
 * end of the payload without its NUL is corrupt. */
static el_str c_strz(cursor *c)
{
    el_str s = { (const char *)c->p + c->pos, 0 };
    const uint8_t *nul = memchr(c->p + c->pos, 0, c->len - c->pos);

    if (!nul) {
        c->bad = 1;
        s.len = c->len - c->pos;
        c->pos = c->len;
        return s;
    }
    s.len = (uint32_t)(nul - (c->p + c->pos));
    c->pos += s.len + 1;
    return s;
}

static int c_room(const cursor *c, uint32_t n)
{
    return !c->bad && c->len - c->pos >= n;
}

static el_str str_at(const uint8_t *p, uint32_t len)
{
    el_str s = { (const char *)p, len };
    return s;
}

/* EL_VAR_LAYOUTS, read in order by the cursor */
#define RC_U8 c_u8(&c)
#define RC_U16 c_u16(&c)
#define RC_U32 c_u32(&c)
#define RC_U64 c_u64(&c)
#define RC_STRZ c_strz(&c)
#define RC_ZERO 0
#define RC_NOSTR str_at(NULL, 0)
#define RC_NOSTACK NULL
#define RC_HAS8 c_room(&c, 8)
#define RC_HAS1 c_room(&c, 1)
#define RC_OPT64 (c_room(&c, 8) ? c_u64(&c) : 0)
#define RC_OPTSTRZ (c_room(&c, 1) ? c_strz(&c) : str_at(NULL, 0))
#define VAR_FIELD(kind, member) ev->u.member = RC_##kind;
#define VAR_CASE(type, what_, fields) case EL_##type: fields what = what_; break;

static int decode_var(el_event *ev, char *msg, size_t msg_size)
{
    cursor c = { ev->payload, ev->payload_len, 0, 0 };
    const char *what = NULL;

    switch (ev->type) {
    EL_VAR_LAYOUTS(VAR_CASE, VAR_FIELD)
    default:
        return 0;
    }
    if (c.bad) {
        snprintf(msg, msg_size, "payload of %u bytes too short or %s not terminated", c.len,
                 what);
        return -1;
    }
    return 0;
}

static int stack_error(char *msg, size_t msg_size, unsigned depth, uint32_t head, uint32_t len)
{
    snprintf(msg, msg_size, "stack depth %u needs %u payload bytes, the event has %u", depth,
             head + 4u * depth, len);
    return -1;
}

/* EL_LAYOUTS: a field of each kind, loaded at its constant offset */
#define RD_U8(o, m) ev->u.m = p[o];
#define RD_U16(o, m) ev->u.m = be16(p + (o));
#define RD_U32(o, m) ev->u.m = be32(p + (o));
#define RD_U64(o, m) ev->u.m = be64(p + (o));
#define RD_OPT32(o, m) ev->u.m = len >= (o) + 4u ? be32(p + (o)) : 0;
#define RD_OPT64(o, m) ev->u.m = len >= (o) + 8u ? be64(p + (o)) : 0;
#define RD_HAS(o, m) ev->u.m = len >= (o);
#define RD_ZERO(o, m) ev->u.m = 0;
#define RD_STR(o, m) ev->u.m = str_at(p + (o), len - (o));
#define RD_STR4(o, m) ev->u.m = str_at(p + (o), len - (o) - 4);
#define RD_TAIL32(o, m) ev->u.m = be32(p + len - 4);
#define RD_NOSTR(o, m) ev->u.m = str_at(NULL, 0);
#define RD_STACK(o, m)                                                         \
    {                                                                          \
        unsigned depth = p[o];                                                 \
        if (len < (o) + 1u + 4u * depth)                                       \
            return stack_error(msg, msg_size, depth, (o) + 1u, len);           \
        ev->u.m.depth = (uint8_t)depth;                                        \
        ev->u.m.stack = stack;                                                 \
        be32_array(stack, p + (o) + 1, depth);                                 \
    }
#define DEC_FIELD(kind, off, member) RD_##kind(off, member)
#define DEC_CASE(type, text, fields) case EL_##type: fields return 0;

/* only the checks beyond the length: a stack's depth */
#define CHK_STACK(o)                                                           \
    if (len < (o) + 1u + 4u * p[o])                                            \
        return stack_error(msg, msg_size, p[o], (o) + 1u, len);
#define CHK_FIELD(kind, off, member) CHK_##kind(off)
#define CHK_CASE(type, text, fields) case EL_##type: fields return 0;
#define CHK_U8(o)
#define CHK_U16(o)
#define CHK_U32(o)
#define CHK_U64(o)
#define CHK_OPT32(o)
#define CHK_OPT64(o)
#define CHK_HAS(o)
#define CHK_ZERO(o)
#define CHK_STR(o)
#define CHK_STR4(o)
#define CHK_TAIL32(o)
#define CHK_NOSTR(o)

/* A known type whose fields are not wanted: checked all the same. */
static int check_only(const el_event *ev, char *msg, size_t msg_size)
{
    const uint8_t *p = ev->payload;
    uint32_t len = ev->payload_len;

    switch (ev->type) {
    EL_LAYOUTS(CHK_CASE, CHK_FIELD)
    default: {
        el_event scratch = *ev;
        return decode_var(&scratch, msg, msg_size);
    }
    }
}

int el_decode_fields(el_fields *f, el_event *ev)
{
    const uint8_t *want = f->want;
    uint32_t *stack = f->stack;
    char *msg = f->msg;
    size_t msg_size = sizeof f->msg;
    const uint8_t *p = ev->payload;
    uint32_t len = ev->payload_len;
    uint16_t type = ev->type;

    if (type >= EL_NUM_TYPE_IDS || !want[type]) {
        ev->decoded = 0;
        if (type >= EL_NUM_TYPE_IDS || !(el_type_table[type].flags & EL_TYPE_DECODED))
            return 0;   /* unknown to evprof: skipped by its size */
        if (len < el_type_table[type].min_len)
            goto too_short;
        return check_only(ev, msg, msg_size);
    }
    if (len < el_type_table[type].min_len) {
too_short:
        snprintf(msg, msg_size, "payload of %u bytes is too short for this event type (needs %u)",
                 len, el_type_table[type].min_len);
        return -1;
    }
    ev->decoded = 1;

    switch (type) {
    case EL_NONMOVING_HEAP_CENSUS: {
        /* two layouts: before GHC 9.10 (#23340) a u8 log2 of the block size */
        uint32_t o = len == 13 ? 1 : 2;
        ev->u.nonmoving_census.log_encoded = len == 13;
        ev->u.nonmoving_census.blk_size = len == 13 ? (p[0] < 32 ? 1u << p[0] : 0) : be16(p);
        ev->u.nonmoving_census.active_segs = be32(p + o);
        ev->u.nonmoving_census.filled_segs = be32(p + o + 4);
        ev->u.nonmoving_census.live_blocks = be32(p + o + 8);
        return 0;
    }
    EL_LAYOUTS(DEC_CASE, DEC_FIELD)
    default:
        return decode_var(ev, msg, msg_size);
    }
}

#define IS_VAR(type, what, fields) case EL_##type:
#define HAS_STACK(type, text, fields) case EL_##type: return 0 fields;
#define STACK_FIELD(kind, off, member) || EL_F_##kind == EL_F_STACK

int el_fields_checked(uint16_t type)
{
    switch (type) {
    EL_VAR_LAYOUTS(IS_VAR, VAR_FIELD)
        return 1;
    EL_LAYOUTS(HAS_STACK, STACK_FIELD)
    default:
        return 0;
    }
}
