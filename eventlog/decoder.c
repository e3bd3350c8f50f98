/* Incremental, header-driven eventlog decoder.
 *
 * The decoder walks records in place inside the caller's chunk. Only a
 * record that a chunk boundary splits is copied, into `carry` (at most one
 * record: 2 + 8 + 2 + 65535 bytes), so memory is fixed after creation and
 * nothing is allocated per event.
 */
#include "evprof/eventlog.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventlog/bytes.h"
#include "eventlog/types.h"
#include "eventlog/fields.h"
#include "eventlog/ipe.h"

#define HDR_BEGIN 0x68647262u  /* "hdrb" */
#define HDR_END 0x68647265u    /* "hdre" */
#define HET_BEGIN 0x68657462u  /* "hetb" */
#define HET_END 0x68657465u    /* "hete" */
#define ET_BEGIN 0x65746200u   /* "etb\0" */
#define ET_END 0x65746500u     /* "ete\0" */
#define DATA_BEGIN 0x64617462u /* "datb" */
#define DATA_END 0xffffu

#define MAX_DESC_LEN 65535u          /* longer descriptions are corrupt */
#define MAX_EXTRA_LEN (1u << 20)     /* likewise the unused extra info */
#define MAX_NUM_TYPES 65536u
#define CARRY_CAP EL_RECORD_MAX       /* a record, or a header description */
_Static_assert(CARRY_CAP >= 16u + MAX_DESC_LEN + 16u, "carry holds a description");
#define BLOCK_MARKER_SIZE 24u        /* id + time + size + end time + cap */

enum phase {
    PH_MAGIC,       /* hdrb, hetb */
    PH_ET,          /* an etb record or hete */
    PH_ET_EXTRA,    /* skipping extra info bytes */
    PH_ET_END,      /* ete */
    PH_HDR_END,     /* hdre, datb */
    PH_DATA,
    PH_SKIP,        /* skipping the rest of a damaged block */
    PH_AFTER_END,   /* after an end marker: looking for a further block */
    PH_DONE,        /* end marker read, or an error: `final` says which */
};

struct el_decoder {
    /* current chunk (borrowed) */
    const uint8_t *in;
    size_t in_len, in_pos;
    /* a record split by a chunk boundary, starting at stream offset `rec` */
    uint8_t *carry;
    size_t carry_len;
    uint64_t offset;        /* stream offset of the next record */

    enum phase phase;
    ev_status final;        /* status once PH_DONE */
    uint32_t extra_left;
    int missing_end;
    int header_done;

    el_event_type *types;   /* header order */
    size_t num_types, cap_types;
    int count_types;        /* el_decoder_count_types */
    el_type_tally *tally;   /* per type, header order: events read whole;
                               NULL unless counting */
    uint8_t *sample_caps;   /* while counting: EL_SAMPLE_CAPS_BYTES, the
                               cap fields of the samples counted */
    uint32_t pending_id;    /* the etb record being read */
    int32_t pending_size;
    char *pending_desc;
    uint32_t pending_desc_len;

    uint16_t block_cap;
    int had_block;          /* a block marker was read: the log has blocks */
    uint64_t block_end;     /* stream offset where the current block ends */
    uint64_t block_time, block_end_time;  /* the marker's time and end time */
    uint64_t block_limit;   /* the latest time an event of the block can have
                               (el_block_limit: its end time, UINT64_MAX when
                               the marker's is not filled in) */
    uint64_t ends_max;      /* the latest block end time read (0: none) */
    int records_checked;    /* el_decoder_records_checked */
    uint64_t ipe_len_off;   /* IPE records declared more than a byte off (ipe_choose) */

    int resync;             /* skip damaged blocks instead of stopping */
    uint64_t skip_left;     /* PH_SKIP: bytes to the end of the block */
    uint64_t end_at;        /* PH_AFTER_END: offset of the end marker */
    int end_seen;           /* an end marker was read (at end_at) */
    int next_log;           /* another eventlog's header follows it: the rest
                               is that log's, never this one's damage */
    uint64_t damage_end;    /* where the last skipped stretch ended (+1; 0: none) */
    uint8_t skip_tail[2];   /* the last two bytes skipped */
    uint64_t end_skipped_at;/* offset after a skipped block that ended with an end
                               marker (+1; 0: none) */
    el_damage damage;

    ev_error err;
    uint32_t type_idx[MAX_NUM_TYPES];   /* id -> index + 1, 0 undeclared */
    /* id -> 0 undeclared, 1 variable size, else fixed payload size + 2;
     * 0 for the end marker's id whatever the header says */
    uint32_t type_size[MAX_NUM_TYPES];
    el_fields fields;                   /* which types' fields, the stack */
    int only_selected;                  /* hand out only the selected types */
    /* id -> 1: a record of this type is skipped in a tight loop when only
     * the selected types are handed out (skip_quickly); made again after
     * any change to the header, fields or only_selected (skip_dirty) */
    uint8_t quick_skip[MAX_NUM_TYPES];
    int skip_dirty;
    uint64_t t_first, t_last;           /* timestamps seen (t_first > t_last: none) */
    el_caps caps;                       /* capabilities of the block markers */
};

/* ---- error reporting -------------------------------------------------- */

size_t el_error_format(char *buf, size_t size, const ev_error *e)
{
    const char *msg = e->msg[0] ? e->msg : ev_status_name(e->status);
    int n = snprintf(buf, size, "%s", msg);
    size_t len = n > 0 ? (size_t)n : 0;
    /* some messages already say where ("truncated at byte N: ...") */
    if (!strstr(msg, "at byte")) {
        n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
                     " at byte %llu", (unsigned long long)e->offset);
        len += n > 0 ? (size_t)n : 0;
    }
    if (e->type >= 0) {
        const char *name = e->type <= 0xffff ? el_type_name((uint16_t)e->type) : NULL;
        n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
                     " (event type %ld %s)", (long)e->type,
                     name ? name : e->type == 0xffff ? "END_MARKER" : "unknown");
        len += n > 0 ? (size_t)n : 0;
    }
    return len;
}

static ev_status fail(el_decoder *d, ev_status st, uint64_t offset, int32_t type,
                      const char *fmt, ...)
{
    va_list ap;

    d->err.status = st;
    d->err.offset = offset;
    d->err.type = type;
    va_start(ap, fmt);
    vsnprintf(d->err.msg, sizeof d->err.msg, fmt, ap);
    va_end(ap);
    d->phase = PH_DONE;
    d->final = st;
    return st;
}

/* ---- lifecycle -------------------------------------------------------- */

/* A type whose fields evprof decodes (id below EL_NUM_TYPE_IDS). */
static int known(size_t type)
{
    return (el_type_table[type].flags & EL_TYPE_DECODED) != 0;
}

/* The tally and the samples' capabilities, for the types of the header;
 * 0, or -1 without memory (nothing kept). */
static int alloc_tally(el_decoder *d, size_t num_types)
{
    d->tally = calloc(num_types ? num_types : 1, sizeof *d->tally);
    d->sample_caps = calloc(EL_SAMPLE_CAPS_BYTES, 1);
    if (!d->tally || !d->sample_caps) {
        free(d->tally);
        free(d->sample_caps);
        d->tally = NULL;
        d->sample_caps = NULL;
        return -1;
    }
    return 0;
}

el_decoder *el_decoder_create(void)
{
    el_decoder *d = calloc(1, sizeof *d);

    if (!d)
        return NULL;
    d->carry = malloc(CARRY_CAP);
    if (!d->carry) {
        free(d);
        return NULL;
    }
    d->phase = PH_MAGIC;
    d->block_cap = EL_NO_CAP;
    for (size_t t = 0; t < EL_NUM_TYPE_IDS; t++)
        d->fields.want[t] = known(t);
    d->t_first = UINT64_MAX;
    d->damage.from_time = UINT64_MAX;
    d->err.type = -1;
    d->block_limit = UINT64_MAX;
    return d;
}

void el_decoder_destroy(el_decoder *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->num_types; i++)
        free((char *)d->types[i].desc.ptr);
    free(d->types);
    free(d->tally);
    free(d->sample_caps);
    free(d->pending_desc);
    free(d->carry);
    free(d);
}

el_decoder *el_decoder_create_for_records(const el_decoder *src)
{
    if (!src->header_done)
        return NULL;
    el_decoder *d = el_decoder_create();
    if (!d)
        return NULL;
    d->types = malloc((src->num_types ? src->num_types : 1) * sizeof *d->types);
    d->count_types = src->count_types;
    if (!d->types || (d->count_types && alloc_tally(d, src->num_types) != 0)) {
        el_decoder_destroy(d);
        return NULL;
    }
    d->cap_types = src->num_types ? src->num_types : 1;
    for (size_t i = 0; i < src->num_types; i++) {
        el_event_type *t = &d->types[i];
        char *desc = malloc(src->types[i].desc.len + 1);
        if (!desc) {
            el_decoder_destroy(d);
            return NULL;
        }
        memcpy(desc, src->types[i].desc.ptr, src->types[i].desc.len + 1);
        *t = src->types[i];
        t->desc.ptr = desc;
        d->num_types = i + 1;
        d->type_idx[t->id] = (uint32_t)i + 1;
        d->type_size[t->id] = src->type_size[t->id];
    }
    memcpy(d->fields.want, src->fields.want, sizeof d->fields.want);
    d->only_selected = src->only_selected;
    d->phase = PH_DATA;
    d->header_done = 1;
    d->skip_dirty = 1;
    return d;
}

void el_decoder_set_offset(el_decoder *d, uint64_t offset)
{
    d->offset = offset;
}

void el_decoder_only_fields(el_decoder *d, const uint16_t *types, size_t n)
{
    d->skip_dirty = 1;
    memset(d->fields.want, 0, sizeof d->fields.want);
    d->fields.want[EL_BLOCK_MARKER] = 1;
    for (size_t i = 0; i < n; i++)
        if (types[i] < EL_NUM_TYPE_IDS)
            d->fields.want[types[i]] = known(types[i]);
}

void el_decoder_only_selected(el_decoder *d, int on)
{
    d->skip_dirty = 1;
    d->only_selected = on;
}

void el_decoder_caps(const el_decoder *d, el_caps *out)
{
    *out = d->caps;
}

int el_caps_has(const el_caps *c, uint32_t cap)
{
    if (cap < 256)
        return (c->bits[cap / 64] >> (cap % 64)) & 1;
    return cap < c->max;
}

void el_caps_add(el_caps *a, const el_caps *b)
{
    for (int i = 0; i < 4; i++)
        a->bits[i] |= b->bits[i];
    if (b->max > a->max)
        a->max = b->max;
}

int el_decoder_time_span(const el_decoder *d, uint64_t *first, uint64_t *last)
{
    if (d->t_first > d->t_last)
        return 0;
    *first = d->t_first;
    *last = d->t_last;
    return 1;
}

void el_decoder_feed(el_decoder *d, const void *buf, size_t len)
{
    d->in = buf;
    d->in_len = len;
    d->in_pos = 0;
}

/* ---- byte access ------------------------------------------------------ */

/* n contiguous bytes of the current record, or NULL when more input is
 * needed (then everything available has been moved into carry). n never
 * exceeds CARRY_CAP. */
static const uint8_t *want(el_decoder *d, size_t n)
{
    size_t avail = d->in_len - d->in_pos;

    if (d->carry_len == 0) {
        if (avail >= n)
            return d->in + d->in_pos;
        if (avail)
            memcpy(d->carry, d->in + d->in_pos, avail);
        d->carry_len = avail;
        d->in_pos = d->in_len;
        return NULL;
    }
    if (d->carry_len < n) {
        size_t take = n - d->carry_len;
        if (take > avail)
            take = avail;
        memcpy(d->carry + d->carry_len, d->in + d->in_pos, take);
        d->carry_len += take;
        d->in_pos += take;
    }
    return d->carry_len >= n ? d->carry : NULL;
}

/* The current record of n bytes has been used. */
static void consume(el_decoder *d, size_t n)
{
    if (d->carry_len) {
        /* carry held the record, and after a look past an end marker
         * (scan_after_end) maybe the start of the next one: keep that */
        if (d->carry_len > n)
            memmove(d->carry, d->carry + n, d->carry_len - n);
        d->carry_len -= n;
    } else {
        d->in_pos += n;
    }
    d->offset += n;
}

/* ---- header ----------------------------------------------------------- */

static ev_status add_type(el_decoder *d)
{
    el_event_type *t;
    uint32_t idx = d->type_idx[d->pending_id];

    if (idx) {  /* a repeated id: the later declaration wins */
        t = &d->types[idx - 1];
        free((char *)t->desc.ptr);
    } else {
        if (d->num_types == d->cap_types) {
            size_t cap = d->cap_types ? d->cap_types * 2 : 64;
            el_event_type *nt = realloc(d->types, cap * sizeof *nt);
            if (!nt)
                return fail(d, EV_ERR_NOMEM, d->offset, (int32_t)d->pending_id,
                            "out of memory reading the header");
            d->types = nt;
            d->cap_types = cap;
        }
        t = &d->types[d->num_types++];
        d->type_idx[d->pending_id] = (uint32_t)d->num_types;
    }
    t->id = (uint16_t)d->pending_id;
    t->size = d->pending_size;
    if (t->id != DATA_END)
        d->type_size[t->id] = t->size == EL_VARIABLE_SIZE ? 1u : (uint32_t)t->size + 2u;
    d->skip_dirty = 1;
    t->desc.ptr = d->pending_desc;
    t->desc.len = d->pending_desc_len;
    d->pending_desc = NULL;
    return EV_OK;
}

/* The first bytes are not "hdrb": say what the file is when its first
 * bytes tell (GHC's .prof, .hp, -s or -r text: el_not_eventlog_message),
 * from what has been fed so far (a file's first chunk holds them). */
static ev_status not_eventlog(el_decoder *d)
{
    uint8_t head[EL_SNIFF_BYTES];
    size_t n = 0;
    if (d->carry_len) {
        n = d->carry_len < sizeof head ? d->carry_len : sizeof head;
        memcpy(head, d->carry, n);
    }
    size_t avail = d->in_len - d->in_pos;
    if (avail > sizeof head - n)
        avail = sizeof head - n;
    if (avail)
        memcpy(head + n, d->in + d->in_pos, avail);
    n += avail;
    char msg[sizeof d->err.msg];
    el_not_eventlog_message(msg, sizeof msg, head, n);
    return fail(d, EV_ERR_FORMAT, 0, -1, "%s", msg);
}

/* Advances through the header; EV_OK when the data section begins. */
static ev_status parse_header(el_decoder *d)
{
    const uint8_t *p;

    for (;;) {
        switch (d->phase) {
        case PH_MAGIC:
            if (!(p = want(d, 8)))
                return EV_NEED_INPUT;
            if (be32(p) != HDR_BEGIN)
                return not_eventlog(d);
            if (be32(p + 4) != HET_BEGIN)
                return fail(d, EV_ERR_FORMAT, 4, -1,
                            "corrupt header: event-type list marker missing");
            consume(d, 8);
            d->phase = PH_ET;
            break;
        case PH_ET: {
            if (!(p = want(d, 4)))
                return EV_NEED_INPUT;
            uint32_t m = be32(p);
            if (m == HET_END) {
                consume(d, 4);
                d->phase = PH_HDR_END;
                break;
            }
            if (m != ET_BEGIN)
                return fail(d, EV_ERR_FORMAT, d->offset, -1,
                            "corrupt header: expected an event-type record, found 0x%08x", m);
            if (!(p = want(d, 12)))
                return EV_NEED_INPUT;
            uint16_t id = be16(p + 4);
            uint16_t size = be16(p + 6);
            uint32_t desc_len = be32(p + 8);
            if (size > 0x7fff && size != 0xffff)
                return fail(d, EV_ERR_FORMAT, d->offset, id,
                            "corrupt header: absurd size %d declared for event type %u "
                            "(sizes are 0..32767, or -1 for variable)", (int16_t)size, id);
            if (desc_len > MAX_DESC_LEN)
                return fail(d, EV_ERR_FORMAT, d->offset, id,
                            "corrupt header: absurd description length %u", desc_len);
            if (!(p = want(d, 12 + (size_t)desc_len + 4)))
                return EV_NEED_INPUT;
            uint32_t extra = be32(p + 12 + desc_len);
            if (extra > MAX_EXTRA_LEN)
                return fail(d, EV_ERR_FORMAT, d->offset, id,
                            "corrupt header: absurd extra-info length %u", extra);
            d->pending_desc = malloc(desc_len + 1);
            if (!d->pending_desc)
                return fail(d, EV_ERR_NOMEM, d->offset, id, "out of memory reading the header");
            memcpy(d->pending_desc, p + 12, desc_len);
            d->pending_desc[desc_len] = '\0';
            d->pending_desc_len = desc_len;
            d->pending_id = id;
            d->pending_size = size == 0xffff ? EL_VARIABLE_SIZE : size;
            d->extra_left = extra;
            consume(d, 12 + (size_t)desc_len + 4);
            d->phase = PH_ET_EXTRA;
            break;
        }
        case PH_ET_EXTRA: {
            size_t avail = d->in_len - d->in_pos;
            size_t n = d->extra_left < avail ? d->extra_left : avail;
            d->in_pos += n;
            d->offset += n;
            d->extra_left -= (uint32_t)n;
            if (d->extra_left)
                return EV_NEED_INPUT;
            d->phase = PH_ET_END;
            break;
        }
        case PH_ET_END:
            if (!(p = want(d, 4)))
                return EV_NEED_INPUT;
            if (be32(p) != ET_END)
                return fail(d, EV_ERR_FORMAT, d->offset, (int32_t)d->pending_id,
                            "corrupt header: event-type record for type %u not closed",
                            d->pending_id);
            if (add_type(d) != EV_OK)
                return d->final;
            consume(d, 4);
            d->phase = PH_ET;
            break;
        case PH_HDR_END:
            if (!(p = want(d, 8)))
                return EV_NEED_INPUT;
            if (be32(p) != HDR_END)
                return fail(d, EV_ERR_FORMAT, d->offset, -1,
                            "corrupt header: header end marker missing");
            if (be32(p + 4) != DATA_BEGIN)
                return fail(d, EV_ERR_FORMAT, d->offset + 4, -1,
                            "corrupt header: data begin marker missing");
            if (d->count_types && alloc_tally(d, d->num_types) != 0)
                return fail(d, EV_ERR_NOMEM, d->offset, -1, "out of memory reading the header");
            consume(d, 8);
            d->phase = PH_DATA;
            d->header_done = 1;
            return EV_OK;
        case PH_DATA:       /* past the header: nothing more to parse here */
        case PH_SKIP:
        case PH_AFTER_END:
        case PH_DONE:
        default:
            return EV_OK;
        }
    }
}

/* ---- payload decoding ------------------------------------------------- */

/* ---- IPE (169) as GHC writes it ------------------------------------- */

/* GHC's slip in the declared length of IPE records: eventlog/ipe.c. */

/* The most bytes an IPE record at d->offset may span. */
static size_t ipe_limit(const el_decoder *d)
{
    if (d->offset < d->block_end && d->block_end - d->offset < CARRY_CAP)
        return (size_t)(d->block_end - d->offset);
    return CARRY_CAP;
}

/* Bytes from d->offset to the end of the block (0 outside any block). A
 * decoder of records already read (el_decoder_records_checked) is fed
 * each record alone: its bytes are the record's, whatever length the
 * first read chose. */
static uint64_t ipe_to_end(const el_decoder *d)
{
    if (d->records_checked)
        return d->carry_len + (d->in_len - d->in_pos);
    return d->offset < d->block_end ? d->block_end - d->offset : 0;
}

/* The length of the IPE record at p (el_ipe_look's bytes at hand, strings
 * ending s bytes in), counting a declared length that is off: GHC's one
 * byte in the tally, more in ipe_len_off. */
static size_t ipe_choose(el_decoder *d, const uint8_t *p, size_t s)
{
    size_t decl = 12u + be16(p + 10);
    if (decl > s + 1 || decl + 1 < s)
        d->ipe_len_off++;
    else if (decl != s && d->tally)
        d->tally[d->type_idx[EL_IPE] - 1].declared_off++;
    return el_ipe_pick(d->type_size, p, s, ipe_to_end(d), d->block_limit);
}

/* ---- events ----------------------------------------------------------- */

/* Internal result of a record that is damaged but skippable. */
#define EL_RESYNC ((ev_status)100)

/* A record at d->offset is damaged. Inside a block whose end is known,
 * with resync on, the rest of the block is skipped and reading goes on at
 * the next one (GHC writes events in per-capability blocks whose marker
 * gives their byte size); otherwise this is the error that stops the log. */
/* Keeps the last two bytes of a skipped stretch: a damaged last block of
 * GHC 9.2 and later holds the end marker as its last record. */
static void note_skipped(el_decoder *d, const uint8_t *p, size_t n)
{
    if (n >= 2) {
        d->skip_tail[0] = p[n - 2];
        d->skip_tail[1] = p[n - 1];
    } else if (n == 1) {
        d->skip_tail[0] = d->skip_tail[1];
        d->skip_tail[1] = p[0];
    }
}

static void note_block_skipped(el_decoder *d)
{
    d->end_skipped_at = d->skip_tail[0] == 0xff && d->skip_tail[1] == 0xff ? d->offset + 1 : 0;
}

static ev_status damaged(el_decoder *d, int32_t type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ev_status damaged(el_decoder *d, int32_t type, const char *fmt, ...)
{
    char msg[sizeof d->err.msg];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!d->resync || d->offset >= d->block_end)
        return fail(d, EV_ERR_FORMAT, d->offset, type, "%s", msg);

    el_damage *dm = &d->damage;
    if (dm->blocks == 0) {
        dm->first.status = EV_ERR_FORMAT;
        dm->first.offset = d->offset;
        dm->first.type = type;
        memcpy(dm->first.msg, msg, sizeof dm->first.msg);
        dm->from_time = d->block_time;
    }
    dm->blocks++;
    d->damage_end = d->block_end + 1;
    if (d->block_end_time > dm->to_time)
        dm->to_time = d->block_end_time;
    if (d->block_time < dm->from_time)
        dm->from_time = d->block_time;
    d->skip_left = d->block_end - d->offset;
    if (d->carry_len) {
        /* carry holds the damaged record's first bytes, maybe some past
         * the block's end: keep those, they start the next record */
        size_t n = d->carry_len < d->skip_left ? d->carry_len : (size_t)d->skip_left;
        note_skipped(d, d->carry, n);
        memmove(d->carry, d->carry + n, d->carry_len - n);
        d->carry_len -= n;
        d->skip_left -= n;
        d->offset += n;
        dm->bytes += n;
    }
    if (d->skip_left == 0) {
        d->block_end = d->offset;
        note_block_skipped(d);
        return EL_RESYNC;
    }
    d->phase = PH_SKIP;
    return EL_RESYNC;
}

/* PH_SKIP: drops input up to the end of the damaged block. */
static ev_status skip_block(el_decoder *d)
{
    size_t avail = d->in_len - d->in_pos;
    size_t n = d->skip_left < avail ? (size_t)d->skip_left : avail;
    note_skipped(d, d->in + d->in_pos, n);
    d->in_pos += n;
    d->offset += n;
    d->skip_left -= n;
    d->damage.bytes += n;     /* counted as they go: a log may end first */
    if (d->skip_left)
        return EV_NEED_INPUT;
    d->phase = PH_DATA;
    d->block_end = d->offset;   /* the damaged block is over */
    note_block_skipped(d);
    return EV_OK;
}

/* Could the 24 bytes at p be a block marker? Its type must be declared
 * with the marker's fixed size, the block must hold at least its marker
 * and end no earlier than it begins. */
static int looks_like_block(const el_decoder *d, const uint8_t *p)
{
    return be16(p) == EL_BLOCK_MARKER && d->type_size[EL_BLOCK_MARKER] == BLOCK_MARKER_SIZE - 8u &&
           be32(p + 10) >= BLOCK_MARKER_SIZE && be64(p + 14) >= be64(p + 2);
}

/* Drops the first byte of what is being looked at (carry or input). */
static void drop_byte(el_decoder *d)
{
    if (d->carry_len)
        memmove(d->carry, d->carry + 1, --d->carry_len);
    else
        d->in_pos++;
    d->offset++;
}

/* The longest gap between the last event read and the next one that
 * looks_like_records takes: the time the log has covered so far, plus a
 * second. Bytes read a few places off a record's start make a time that
 * is the true one shifted by whole bytes, 256 times it or more. */
#define MAX_GAP_EXTRA_NS 1000000000u

/* In time order after the events read so far, within the gap above. */
static int plausible_time(const el_decoder *d, uint64_t t)
{
    if (d->t_first > d->t_last)
        return 1;           /* no event yet: nothing to compare with */
    uint64_t gap = d->t_last - d->t_first + MAX_GAP_EXTRA_NS;
    return t >= d->t_last && t - d->t_last <= gap;
}

/* A log without block markers (GHC's oldest, ghc-events' test logs): could
 * the `have` bytes at p start the rest of the log? Yes when they hold a
 * whole record of a declared type, not all zero bytes (padding), in time
 * order after the events read (plausible_time: such a log is in time
 * order), followed by an end marker or by the head of another declared
 * record no earlier than it and as plausible. 1 yes, 0 no, -1 when *need
 * bytes are wanted to know. */
static int looks_like_records(const el_decoder *d, const uint8_t *p, size_t have, size_t *need)
{
    *need = 12;
    if (have < 12)
        return -1;
    uint16_t type = be16(p);
    uint32_t ts = d->type_size[type];
    if (!ts || type == EL_BLOCK_MARKER)
        return 0;
    uint64_t t = be64(p + 2);
    if (!plausible_time(d, t))
        return 0;
    size_t len = ts == 1 ? 12u + be16(p + 10) : 10u + (ts - 2);
    *need = len + 2;
    if (have < len + 2)
        return -1;
    size_t zero = 0;
    while (zero < len && !p[zero])
        zero++;
    if (zero == len)
        return 0;
    uint16_t next = be16(p + len);
    if (next == DATA_END)
        return 1;
    if (!d->type_size[next])
        return 0;
    *need = len + 10;
    if (have < len + 10)
        return -1;
    uint64_t t2 = be64(p + len + 2);
    return t2 >= t && plausible_time(d, t2);
}

/* PH_AFTER_END: an end marker was read outside any block (or as a block's
 * last record). Bytes that follow it and hold no further block are
 * tolerated: the log ends there, and el_decoder_next says EV_END once the
 * fed bytes are used up. A further block means the "end marker" was
 * damage (a run of 0xff bytes reads as one): the bytes from the marker to
 * that block are counted as skipped and reading goes on with the block.
 * In a log without blocks, further records (looks_like_records) mean the
 * same. So a reader that has more input feeds it even after EV_END. */
static ev_status scan_after_end(el_decoder *d)
{
    size_t need = BLOCK_MARKER_SIZE;
    /* right after the marker, another log's header: two logs one after
     * the other (a FIFO that programs write in turn), the first ends here */
    if (!d->next_log && d->offset == d->end_at + 2) {
        const uint8_t *p = d->carry_len ? NULL : d->in + d->in_pos;
        if (p && d->in_len - d->in_pos >= 4 && be32(p) == HDR_BEGIN)
            d->next_log = 1;
    }
    if (d->next_log) {
        d->offset += d->in_len - d->in_pos;
        d->in_pos = d->in_len;
        d->carry_len = 0;
        return EV_END;
    }
    for (;;) {
        const uint8_t *p;
        if (d->had_block) {
            if (d->carry_len == 0) {
                /* in place, while a whole marker fits in the chunk */
                while (d->in_len - d->in_pos >= BLOCK_MARKER_SIZE &&
                       !looks_like_block(d, d->in + d->in_pos)) {
                    d->in_pos++;
                    d->offset++;
                }
            }
            if (!(p = want(d, BLOCK_MARKER_SIZE)))
                return EV_END;      /* so far; feeding more bytes goes on looking */
            if (looks_like_block(d, p))
                break;
            drop_byte(d);
            continue;
        }
        int r;
        if (d->carry_len == 0)
            r = looks_like_records(d, d->in + d->in_pos, d->in_len - d->in_pos, &need);
        else
            r = looks_like_records(d, d->carry, d->carry_len, &need);
        if (r > 0)
            break;
        if (r == 0)
            drop_byte(d);
        else if (!want(d, need))
            return EV_END;          /* so far, as above */
    }
    const uint8_t *at = d->carry_len ? d->carry : d->in + d->in_pos;
    uint64_t next_time = be64(at + 2);
    uint64_t skipped = d->offset - d->end_at;
    char what[96];
    snprintf(what, sizeof what, "end marker followed by more events (%s at byte %llu)",
             d->had_block ? "a block" : "an event", (unsigned long long)d->offset);
    d->phase = PH_DATA;
    if (!d->resync)
        return fail(d, EV_ERR_FORMAT, d->end_at, DATA_END, "%s", what);
    el_damage *dm = &d->damage;
    uint64_t from = d->t_first <= d->t_last ? d->t_last : 0;
    if (dm->blocks == 0) {
        dm->first.status = EV_ERR_FORMAT;
        dm->first.offset = d->end_at;
        dm->first.type = DATA_END;
        snprintf(dm->first.msg, sizeof dm->first.msg, "%s", what);
        dm->from_time = from;
    }
    /* a stretch that goes on from a skipped block is the same damage */
    if (d->damage_end != d->end_at + 1)
        dm->blocks++;
    dm->bytes += skipped;
    if (from < dm->from_time)
        dm->from_time = from;
    if (next_time > dm->to_time)
        dm->to_time = next_time;
    d->damage_end = d->offset + 1;
    return EL_RESYNC;
}

/* ---- times that cannot be ------------------------------------------- */

/* GHC stamps each event with its clock as it posts it, and closes a block
 * by writing the clock again as the marker's end time (closeBlockMarker,
 * rts/eventlog/EventLog.c), so no event of a block is later than its end
 * time: one that is was not written as it reads (the non-threaded RTS's
 * ticker appends to a buffer unlocked; bytes overwritten), and its time
 * would stretch every figure made of the log's span. Measured on the 130
 * GHC logs of tests/data (9.0.2 to 9.10.3): no event past its block's end;
 * events before their block's start occur (by 1 s on ghc-events'
 * parallelTest), so the start bounds nothing. Such an event is damage.
 *
 * Outside any block (GHC writes nothing there but an old RTS's first
 * event and the end marker; logs of other writers) there is no end to go
 * by: an event more than a day past the latest time the log has shown (an
 * event's or a block's end) is damage. A time misread from other bytes is
 * mostly far larger (a high byte set is 2^56 ns, 2.3 years). */
#define OUTSIDE_JUMP_NS (UINT64_C(86400) * 1000000000u)

/* The latest time the log has shown so far, from the span of the events
 * read (first > last: none) and the latest block end: 0 with *none set
 * when there is none. */
static uint64_t latest_of(uint64_t first, uint64_t last, uint64_t ends_max, int *none)
{
    *none = first > last && ends_max == 0;
    return first <= last && last > ends_max ? last : ends_max;
}

static uint64_t latest_shown(const el_decoder *d, int *none)
{
    return latest_of(d->t_first, d->t_last, d->ends_max, none);
}

/* The latest time an event outside any block may have, as latest_of. */
static uint64_t outside_bound(uint64_t first, uint64_t last, uint64_t ends_max)
{
    int none;
    uint64_t seen = latest_of(first, last, ends_max, &none);
    if (none)
        return UINT64_MAX;      /* nothing to go by yet */
    return seen < UINT64_MAX - OUTSIDE_JUMP_NS ? seen + OUTSIDE_JUMP_NS : UINT64_MAX;
}

static uint64_t outside_limit(const el_decoder *d)
{
    return outside_bound(d->t_first, d->t_last, d->ends_max);
}

/* The latest time the record at d->offset may have (a block marker's own
 * time is not bounded: it is where its block starts). */
static inline uint64_t time_limit(const el_decoder *d)
{
    if (d->records_checked)
        return UINT64_MAX;
    return d->offset < d->block_end ? d->block_limit : outside_limit(d);
}

/* The record at d->offset (`size` bytes, whole at hand) has a time past
 * time_limit: damage. In a block, the rest of the block is skipped (its
 * bytes were not written as they read: damaged). Outside any block,
 * with resync on, the record alone is dropped (nothing else bounds the
 * damage) and counted as a damaged stretch of its own, so that the order
 * stage's runs never span it. */
static ev_status bad_time(el_decoder *d, uint16_t type, uint64_t t, uint32_t size)
{
    double ts = (double)t / 1e9;
    if (d->offset < d->block_end)
        return damaged(d, type, "event time %.6f s is past its block's end time %.6f s",
                       ts, (double)d->block_limit / 1e9);
    int none;
    uint64_t seen = latest_shown(d, &none);
    char msg[sizeof d->err.msg];
    snprintf(msg, sizeof msg, "event time %.6f s is more than a day past the latest time "
             "the log has shown (%.6f s), outside any block", ts, (double)seen / 1e9);
    if (!d->resync)
        return fail(d, EV_ERR_FORMAT, d->offset, type, "%s", msg);
    el_damage *dm = &d->damage;
    if (dm->blocks == 0) {
        dm->first.status = EV_ERR_FORMAT;
        dm->first.offset = d->offset;
        dm->first.type = type;
        memcpy(dm->first.msg, msg, sizeof dm->first.msg);
    }
    dm->blocks++;
    dm->bytes += size;
    if (seen < dm->from_time)
        dm->from_time = seen;
    if (seen > dm->to_time)
        dm->to_time = seen;
    consume(d, size);
    d->damage_end = d->offset + 1;
    return EL_RESYNC;
}

/* Fills *ev from the complete record at p and consumes it; `counting`
 * (d->tally set) is a constant where it is inlined, so that a decoder
 * that does not count pays nothing per event (el_decoder_next). */
static inline __attribute__((always_inline)) ev_status
emit_with(el_decoder *d, el_event *ev, const uint8_t *p, uint16_t type, uint32_t head,
          uint32_t payload_len, int counting)
{
    ev->type = type;
    ev->time = be64(p + 2);
    ev->offset = d->offset;
    ev->size = head + payload_len;
    ev->et = &d->types[d->type_idx[type] - 1];
    ev->record = p;
    ev->payload = p + head;
    ev->payload_len = payload_len;
    ev->cap = d->offset < d->block_end ? d->block_cap : EL_NO_CAP;
    ev->outside = 0;
    if (__builtin_expect(ev->time > time_limit(d), 0) && type != EL_BLOCK_MARKER)
        return bad_time(d, type, ev->time, head + payload_len);
    if (el_decode_fields(&d->fields, ev) != 0)
        return damaged(d, type, "%s", d->fields.msg);
    /* the span of the records read whole: a damaged one's time is not */
    if (ev->time < d->t_first)
        d->t_first = ev->time;
    if (ev->time > d->t_last)
        d->t_last = ev->time;
    if (type == EL_BLOCK_MARKER) {
        uint16_t cap = ev->u.block.cap;
        if (cap < 256)
            d->caps.bits[cap / 64] |= UINT64_C(1) << (cap % 64);
        if (cap != EL_NO_CAP && cap + 1u > d->caps.max)
            d->caps.max = cap + 1u;
        ev->cap = ev->u.block.cap;
        d->had_block = 1;
        d->block_cap = ev->u.block.cap;
        d->block_end = d->offset + ev->u.block.size;
        d->block_time = ev->time;
        d->block_end_time = ev->u.block.end_time;
        d->block_limit = el_block_limit(ev->time, ev->u.block.end_time);
        if (d->block_limit != UINT64_MAX && d->block_limit > d->ends_max)
            d->ends_max = d->block_limit;
    }
    if (counting) {
        el_type_tally *t = &d->tally[d->type_idx[type] - 1];
        t->events++;
        t->bytes += head + payload_len;
        if (type == EL_PROF_SAMPLE_COST_CENTRE) {   /* checked: 13 bytes at least */
            uint32_t cap = be32(p + head);
            if (cap < EL_NO_CAP)
                d->sample_caps[cap >> 3] |= (uint8_t)(1u << (cap & 7));
        }
    }
    consume(d, head + payload_len);
    return EV_OK;
}

static ev_status emit(el_decoder *d, el_event *ev, const uint8_t *p, uint16_t type,
                      uint32_t head, uint32_t payload_len)
{
    return emit_with(d, ev, p, type, head, payload_len, d->tally != NULL);
}

/* Everything but the common case: the header, the end marker, undeclared
 * types, and records that a chunk boundary splits. */
static ev_status next_slow(el_decoder *d, el_event *ev)
{
    const uint8_t *p;

    if (d->phase == PH_DONE)
        return d->final;
    if (d->phase == PH_SKIP) {
        ev_status st = skip_block(d);
        if (st != EV_OK)
            return st;
        return EL_RESYNC;
    }
    if (d->phase == PH_AFTER_END)
        return scan_after_end(d);
    if (d->phase != PH_DATA) {
        ev_status st = parse_header(d);
        if (st != EV_OK)
            return st;
    }

    if (!(p = want(d, 2)))
        return EV_NEED_INPUT;
    uint16_t type = be16(p);
    if (type == DATA_END) {
        /* inside a block's stated bytes it cannot be the end (damage),
         * unless it is the block's last record: GHC 9.2 and later count
         * the end marker into the last block */
        if (d->offset < d->block_end && d->offset + 2 != d->block_end)
            return damaged(d, type, "end marker inside a block, %llu bytes before the "
                           "block's stated end", (unsigned long long)(d->block_end - d->offset));
        /* whether it is the end depends on what follows */
        d->end_at = d->offset;
        d->end_seen = 1;
        consume(d, 2);
        d->phase = PH_AFTER_END;
        return scan_after_end(d);
    }
    uint32_t ts = d->type_size[type];
    if (!ts)
        return damaged(d, type, "event type %u is not declared in the header", type);

    uint32_t head, payload_len;
    if (ts == 1 && type == EL_IPE) {
        if (!(p = want(d, 12 + 8)))
            return EV_NEED_INPUT;
        size_t lim = ipe_limit(d), avail = d->in_len - d->in_pos;
        size_t len = d->carry_len ? el_ipe_record_len(d->carry, d->carry_len, d->in + d->in_pos,
                                                      avail, lim)
                                  : el_ipe_record_len(p, avail, NULL, 0, lim);
        if (!len) {
            if (d->carry_len + avail >= lim)
                return damaged(d, type, "IPE strings not terminated within %zu bytes "
                               "(the end of their block)", lim);
            want(d, lim);       /* everything there into carry: more is needed */
            return EV_NEED_INPUT;
        }
        /* the bytes to choose its length (the strings', or the declared
         * one when a record follows it: ipe_choose) */
        if (!(p = want(d, el_ipe_look(p, len, ipe_to_end(d)))))
            return EV_NEED_INPUT;
        len = ipe_choose(d, p, len);
        return emit(d, ev, p, type, 12, (uint32_t)len - 12);
    }
    if (ts == 1) {
        if (!(p = want(d, 12)))
            return EV_NEED_INPUT;
        head = 12;
        payload_len = be16(p + 10);
    } else {
        head = 10;
        payload_len = ts - 2;
    }
    if (!(p = want(d, head + payload_len)))
        return EV_NEED_INPUT;
    return emit(d, ev, p, type, head, payload_len);
}

/* What skip_quickly may pass over: records of the types not handed out
 * whose whole check is their length (or that evprof does not know), and
 * the time-profile samples, whose check (the stack's depth) and count
 * (their capability) it makes itself. Block markers, the end marker,
 * undeclared types and the other types checked beyond their length
 * (el_fields_checked) go the usual way. */
enum {
    QS_NO = 0,
    QS_FIXED,       /* fixed size, long enough */
    QS_VAR,         /* variable size: at least the type's min_len */
    QS_SAMPLE,      /* PROF_SAMPLE_COST_CENTRE */
};

static void make_quick_skip(el_decoder *d)
{
    memset(d->quick_skip, QS_NO, sizeof d->quick_skip);
    d->skip_dirty = 0;
    if (!d->only_selected || !d->header_done)
        return;
    for (size_t i = 0; i < d->num_types; i++) {
        uint16_t t = d->types[i].id;
        uint32_t ts = d->type_size[t];
        int is_known = t < EL_NUM_TYPE_IDS && known(t);
        if (ts == 0 || t == EL_BLOCK_MARKER || (t < EL_NUM_TYPE_IDS && d->fields.want[t]))
            continue;
        if (t == EL_PROF_SAMPLE_COST_CENTRE)
            d->quick_skip[t] = ts == 1 ? QS_SAMPLE : QS_NO;
        else if (is_known && el_fields_checked(t))
            continue;
        else if (ts == 1)
            d->quick_skip[t] = QS_VAR;
        else if (!is_known || ts - 2 >= el_type_table[t].min_len)
            d->quick_skip[t] = QS_FIXED;
    }
}

/* Passes over the whole records from the chunk's position on (in
 * PH_DATA, nothing carried) that are not handed out and need no more
 * check than it makes, as next_one would (their time in the time span,
 * their count in the tally and a sample's capability), without filling
 * an event for each: on a log of thread events or samples that nobody
 * reads, the most of them. A record that fails its check stops it, for
 * next_one to report. */
static inline __attribute__((always_inline)) void skip_quickly(el_decoder *d, int counting)
{
    const uint8_t *p = d->in + d->in_pos, *start = p, *end = d->in + d->in_len;
    uint64_t first = d->t_first, last = d->t_last;
    /* a time past its limit stops it (next_one says the damage): inside a
     * block, the block's end time, and it stops at the block's end;
     * outside, the limit grows with the times read */
    int outside = d->offset >= d->block_end && !d->records_checked;
    uint64_t limit = time_limit(d);
    if (d->offset < d->block_end && d->block_end - d->offset < (uint64_t)(end - p))
        end = p + (d->block_end - d->offset);
    while (end - p >= 12) {
        /* the bytes ahead, whose records are not known yet: the loop's
         * time is its wait for them (a mapped file's pages do not
         * prefetch across their edges); repeat's shape: -10% */
        __builtin_prefetch(p + 512);
        uint16_t type = be16(p);
        uint8_t q = d->quick_skip[type];
        uint32_t size;
        if (q == QS_FIXED) {
            size = d->type_size[type] + 8u;     /* 10 bytes of head, the payload */
        } else if (q == QS_NO) {
            break;
        } else {
            uint32_t len = be16(p + 10);
            size = 12u + len;
            if ((size_t)(end - p) < size)
                break;
            if (q == QS_SAMPLE) {
                if (len < 13u || len < 13u + 4u * p[24])
                    break;
                uint32_t cap = be32(p + 12);
                if (counting && cap < EL_NO_CAP)
                    d->sample_caps[cap >> 3] |= (uint8_t)(1u << (cap & 7));
            } else if (type < EL_NUM_TYPE_IDS && len < el_type_table[type].min_len) {
                break;
            }
        }
        if ((size_t)(end - p) < size)
            break;
        uint64_t t = be64(p + 2);
        if (t > limit)
            break;
        first = t < first ? t : first;
        last = t > last ? t : last;
        if (outside)
            limit = outside_bound(first, last, d->ends_max);
        if (counting) {
            el_type_tally *ty = &d->tally[d->type_idx[type] - 1];
            ty->events++;
            ty->bytes += size;
        }
        p += size;
    }
    d->t_first = first;
    d->t_last = last;
    d->in_pos += (size_t)(p - start);
    d->offset += (uint64_t)(p - start);
}

static inline __attribute__((always_inline)) ev_status next_one(el_decoder *d, el_event *ev,
                                                                 int counting)
{
    /* Fast path: a whole record of a declared type inside the chunk. */
    if (d->carry_len == 0 && d->phase == PH_DATA) {
        const uint8_t *p = d->in + d->in_pos;
        size_t avail = d->in_len - d->in_pos;
        if (avail >= 12 && d->quick_skip[be16(p)]) {
            skip_quickly(d, counting);
            p = d->in + d->in_pos;
            avail = d->in_len - d->in_pos;
        }
        if (avail >= 12) {
            uint16_t type = be16(p);
            uint32_t ts = d->type_size[type];
            if (ts) {
                uint32_t head = ts == 1 ? 12u : 10u;
                uint32_t len = ts == 1 ? be16(p + 10) : ts - 2;
                if (__builtin_expect(ts == 1 && type == EL_IPE, 0)) {
                    size_t rec = el_ipe_record_len(p, avail, NULL, 0, ipe_limit(d));
                    if (!rec || el_ipe_look(p, rec, ipe_to_end(d)) > avail)
                        return next_slow(d, ev);
                    len = (uint32_t)ipe_choose(d, p, rec) - 12;
                }
                if (avail >= head + len)
                    return emit_with(d, ev, p, type, head, len, counting);
            }
        }
    }
    return next_slow(d, ev);
}

/* Whether el_decoder_next reads on past what next_one gave */
static inline int read_on(const el_decoder *d, ev_status st, const el_event *ev)
{
    return st == EL_RESYNC || (st == EV_OK && d->only_selected &&
                               (ev->type >= EL_NUM_TYPE_IDS || !d->fields.want[ev->type]));
}

ev_status el_decoder_next(el_decoder *d, el_event *ev)
{
    ev_status st;

    if (d->skip_dirty && d->header_done)
        make_quick_skip(d);
    if (!d->tally) {
        do
            st = next_one(d, ev, 0);
        while (!d->tally && read_on(d, st, ev));
        if (!d->tally || !read_on(d, st, ev))
            return st;
        /* the header was read just now, and the counting began with it:
         * what comes after the first record is counted too */
        if (d->skip_dirty)
            make_quick_skip(d);
    }
    do
        st = next_one(d, ev, 1);
    while (read_on(d, st, ev));
    return st;
}

ev_status el_decoder_finish(el_decoder *d)
{
    if (d->phase == PH_DONE)
        return d->final;
    if (d->phase == PH_AFTER_END) {
        /* the end marker was the end; what follows it held no block. One
         * that goes on from a skipped stretch is no sign of a real end:
         * the bytes after it are lost too. */
        if (d->damage_end == d->end_at + 1)
            d->damage.bytes += d->offset + d->carry_len - d->end_at;
        d->carry_len = 0;
        d->phase = PH_DONE;
        d->final = EV_END;
        return EV_END;
    }
    if (d->phase == PH_SKIP)
        return fail(d, EV_ERR_TRUNCATED, d->offset, -1,
                    "truncated at byte %llu: the log ends inside a damaged block that was "
                    "being skipped (it should end at byte %llu)",
                    (unsigned long long)d->offset,
                    (unsigned long long)(d->offset + d->skip_left));
    if (d->phase == PH_DATA && d->carry_len == 0 && d->in_pos == d->in_len) {
        d->phase = PH_DONE;
        if (d->end_skipped_at == d->offset + 1) {
            /* the log ends with a damaged block that held the end marker */
            d->damage.end_in_skipped = 1;
            d->final = EV_END;
            return EV_END;
        }
        d->missing_end = 1;
        d->final = EV_OK;
        return EV_OK;
    }
    /* Input stopped inside the header or inside a record. */
    int32_t type = -1;
    uint64_t have = d->carry_len + (d->in_len - d->in_pos);
    if (d->phase == PH_DATA && have >= 2)
        type = d->carry_len >= 2 ? be16(d->carry)
             : d->carry_len == 1 ? (int32_t)(d->carry[0] << 8 | d->in[d->in_pos])
             : be16(d->in + d->in_pos);
    if (d->phase != PH_DATA)
        return fail(d, EV_ERR_TRUNCATED, d->offset, -1,
                    "truncated at byte %llu: the log ends inside its header",
                    (unsigned long long)(d->offset + have));
    return fail(d, EV_ERR_TRUNCATED, d->offset, type,
                "truncated at byte %llu: the log ends inside an event that starts at byte %llu",
                (unsigned long long)(d->offset + have), (unsigned long long)d->offset);
}

void el_decoder_set_resync(el_decoder *d, int on)
{
    d->resync = on;
}

void el_decoder_records_checked(el_decoder *d, int on)
{
    d->records_checked = on;
}

uint64_t el_decoder_ipe_len_off(const el_decoder *d)
{
    return d->ipe_len_off;
}

const el_damage *el_decoder_damage(const el_decoder *d)
{
    return &d->damage;
}

int el_decoder_missing_end(const el_decoder *d)
{
    return d->missing_end;
}

int el_decoder_next_log(const el_decoder *d)
{
    return d->next_log;
}

int el_decoder_end_marker(const el_decoder *d, uint64_t *offset)
{
    if (d->end_seen && offset)
        *offset = d->end_at;
    return d->end_seen;
}

int el_decoder_count_types(el_decoder *d, int on)
{
    d->count_types = on;
    if (!on) {
        free(d->tally);     /* el_decoder_next counts while it is set */
        free(d->sample_caps);
        d->tally = NULL;
        d->sample_caps = NULL;
    } else if (d->header_done && !d->tally && alloc_tally(d, d->num_types) != 0) {
        d->count_types = 0;
        return -1;
    }
    return 0;
}

const el_type_tally *el_decoder_tally(const el_decoder *d)
{
    return d->header_done && d->count_types ? d->tally : NULL;
}

const uint8_t *el_decoder_sample_caps(const el_decoder *d)
{
    return d->header_done && d->count_types ? d->sample_caps : NULL;
}

size_t el_decoder_num_types(const el_decoder *d)
{
    return d->num_types;
}

const el_event_type *el_decoder_type_at(const el_decoder *d, size_t i)
{
    return i < d->num_types ? &d->types[i] : NULL;
}

const el_event_type *el_decoder_type(const el_decoder *d, uint16_t id)
{
    uint32_t idx = d->type_idx[id];
    return idx ? &d->types[idx - 1] : NULL;
}

int el_decoder_header_done(const el_decoder *d)
{
    return d->header_done;
}

size_t el_decoder_record_size(const el_decoder *d, const uint8_t *p, size_t avail)
{
    return el_decoder_record_size_in(d, p, avail, 0, UINT64_MAX, NULL);
}

size_t el_decoder_record_size_in(const el_decoder *d, const uint8_t *p, size_t avail,
                                 uint64_t to_end, uint64_t block_limit, size_t *need)
{
    if (need)
        *need = 0;
    if (avail < 10)
        return 0;
    uint16_t type = be16(p);
    uint32_t ts = type == DATA_END ? 0 : d->type_size[type];
    if (!ts)
        return 0;
    if (ts != 1)
        return avail >= 10u + ts - 2 ? 10u + ts - 2 : 0;
    if (avail < 12)
        return 0;
    if (type == EL_IPE) {
        size_t len = el_ipe_record_len(p, avail, NULL, 0, avail < CARRY_CAP ? avail : CARRY_CAP);
        if (!len)
            return 0;
        size_t look = el_ipe_look(p, len, to_end);
        if (look > avail) {
            if (need)
                *need = look;
            return 0;
        }
        return el_ipe_pick(d->type_size, p, len, to_end, block_limit);
    }
    return avail >= 12u + be16(p + 10) ? 12u + be16(p + 10) : 0;
}

uint64_t el_decoder_offset(const el_decoder *d)
{
    return d->offset;
}

const ev_error *el_decoder_error(const el_decoder *d)
{
    return &d->err;
}
