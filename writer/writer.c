/* Eventlog writer: see include/evprof/writer.h.
 *
 * All output goes through one buffer, `out`. A memory writer keeps every
 * byte there; a FILE writer writes the buffer out once it passes FLUSH_AT
 * bytes, but never the part from an open block marker on, so that
 * end_block can patch the marker's size in place. Blocks are therefore
 * bounded (MAX_BLOCK). */
#include "evprof/writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/eventlog.h"
#include "eventlog/bytes.h"
#include "eventlog/types.h"

#define FLUSH_AT ((size_t)1 << 20)
#define MAX_BLOCK ((size_t)64 << 20)
#define MAX_VARIABLE_LEN 0xffffu
#define MAX_FIXED_SIZE 0x7fff
#define UNDECLARED INT32_MIN
#define RECORD_HEAD 10           /* u16 type, u64 time */
#define BLOCK_MARKER_SIZE 14     /* u32 size, u64 end time, u16 cap */
#define END_OF_DATA 0xffffu

#define HDR_BEGIN 0x68647262u    /* "hdrb" */
#define HDR_END 0x68647265u      /* "hdre" */
#define HET_BEGIN 0x68657462u    /* "hetb" */
#define HET_END 0x68657465u      /* "hete" */
#define ET_BEGIN 0x65746200u     /* "etb\0" */
#define ET_END 0x65746500u       /* "ete\0" */
#define DATA_BEGIN 0x64617462u   /* "datb" */

_Static_assert(EL_WRITER_VARIABLE == EL_VARIABLE_SIZE, "one spelling of variable size");

/* ---- big-endian stores ------------------------------------------------ */

static inline void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline void put_be64(uint8_t *p, uint64_t v)
{
    put_be32(p, (uint32_t)(v >> 32));
    put_be32(p + 4, (uint32_t)v);
}

/* ---- payload builder -------------------------------------------------- */

void el_payload_init(el_payload *p)
{
    memset(p, 0, sizeof *p);
}

void el_payload_free(el_payload *p)
{
    free(p->data);
    el_payload_init(p);
}

void el_payload_reset(el_payload *p)
{
    p->len = 0;
}

/* Room for n more bytes: a pointer to them (len advanced), or NULL with
 * p->failed set. */
static uint8_t *payload_extend(el_payload *p, size_t n)
{
    if (p->failed)
        return NULL;
    if (n > p->cap - p->len) {
        if (n > SIZE_MAX / 2 - p->len) {
            p->failed = 1;
            return NULL;
        }
        size_t need = p->len + n;
        size_t cap = p->cap ? p->cap : 256;
        while (cap < need)
            cap *= 2;
        uint8_t *data = realloc(p->data, cap);
        if (data == NULL) {
            p->failed = 1;
            return NULL;
        }
        p->data = data;
        p->cap = cap;
    }
    uint8_t *at = p->data + p->len;
    p->len += n;
    return at;
}

void el_payload_u8(el_payload *p, uint8_t v)
{
    uint8_t *at = payload_extend(p, 1);
    if (at)
        at[0] = v;
}

void el_payload_u16(el_payload *p, uint16_t v)
{
    uint8_t *at = payload_extend(p, 2);
    if (at)
        put_be16(at, v);
}

void el_payload_u32(el_payload *p, uint32_t v)
{
    uint8_t *at = payload_extend(p, 4);
    if (at)
        put_be32(at, v);
}

void el_payload_u64(el_payload *p, uint64_t v)
{
    uint8_t *at = payload_extend(p, 8);
    if (at)
        put_be64(at, v);
}

void el_payload_bytes(el_payload *p, const void *bytes, size_t len)
{
    uint8_t *at = payload_extend(p, len);
    if (at && len > 0)
        memcpy(at, bytes, len);
}

void el_payload_str(el_payload *p, const char *s)
{
    el_payload_bytes(p, s, strlen(s) + 1);
}

void el_payload_text(el_payload *p, const char *s)
{
    el_payload_bytes(p, s, strlen(s));
}

/* ---- writer state ----------------------------------------------------- */

typedef struct declared_type {
    uint16_t id;
    int32_t size;
    char *desc;                  /* owned */
    uint32_t desc_len;
} declared_type;

enum header_state {
    HEADER_NONE,                 /* nothing written yet */
    HEADER_BY_HAND,              /* raw bytes came first: the caller writes it */
    HEADER_WRITTEN,
};

struct el_writer {
    FILE *file;                  /* borrowed; NULL for a memory writer */
    el_payload out;              /* bytes not yet handed to `file` */
    uint64_t flushed;            /* bytes already handed to `file` */
    int32_t *size_of;            /* [0x10000]: declared size or UNDECLARED */
    declared_type *types;
    size_t n_types, types_cap;
    enum header_state header;
    int in_block;
    size_t block_pos;            /* offset of the open marker in `out` */
    uint64_t block_time;
    uint64_t block_latest;       /* the latest time in the open block */
    int finished;
    ev_status err;
    char msg[160];
    el_payload scratch;          /* typed events with strings */
};

/* Record the first error; return the recorded one. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static ev_status fail(el_writer *w, ev_status st, const char *fmt, ...)
{
    if (w->err == EV_OK) {
        w->err = st;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->msg, sizeof w->msg, fmt, ap);
        va_end(ap);
    }
    return w->err;
}

static el_writer *writer_create(FILE *file)
{
    el_writer *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->size_of = malloc(sizeof *w->size_of * 0x10000);
    if (w->size_of == NULL) {
        free(w);
        return NULL;
    }
    for (size_t i = 0; i < 0x10000; i++)
        w->size_of[i] = UNDECLARED;
    w->file = file;
    return w;
}

el_writer *el_writer_create_mem(void)
{
    return writer_create(NULL);
}

el_writer *el_writer_create_file(FILE *out)
{
    if (out == NULL)
        return NULL;
    return writer_create(out);
}

void el_writer_destroy(el_writer *w)
{
    if (w == NULL)
        return;
    for (size_t i = 0; i < w->n_types; i++)
        free(w->types[i].desc);
    free(w->types);
    free(w->size_of);
    el_payload_free(&w->out);
    el_payload_free(&w->scratch);
    free(w);
}

ev_status el_writer_error(const el_writer *w)
{
    return w->err;
}

const char *el_writer_error_msg(const el_writer *w)
{
    return w->msg;
}

uint64_t el_writer_offset(const el_writer *w)
{
    return w->flushed + w->out.len;
}

const uint8_t *el_writer_borrow_bytes(const el_writer *w, size_t *len)
{
    if (w->file != NULL) {
        *len = 0;
        return NULL;
    }
    *len = w->out.len;
    return w->out.data;
}

/* ---- output ----------------------------------------------------------- */

/* Room for n bytes at the end of the stream, or NULL with the error set. */
static uint8_t *out_reserve(el_writer *w, size_t n)
{
    if (w->in_block && n > MAX_BLOCK - (w->out.len - w->block_pos)) {
        fail(w, EV_ERR_USAGE, "block larger than %zu bytes", MAX_BLOCK);
        return NULL;
    }
    uint8_t *at = payload_extend(&w->out, n);
    if (at == NULL)
        fail(w, EV_ERR_NOMEM, "cannot grow the output buffer by %zu bytes", n);
    return at;
}

/* Hand `file` everything before the open block (everything if none). */
static ev_status flush_out(el_writer *w)
{
    if (w->file == NULL)
        return w->err;
    size_t n = w->in_block ? w->block_pos : w->out.len;
    if (n == 0)
        return w->err;
    if (fwrite(w->out.data, 1, n, w->file) != n)
        return fail(w, EV_ERR_WRITE, "cannot write the eventlog: %s", strerror(errno));
    memmove(w->out.data, w->out.data + n, w->out.len - n);
    w->out.len -= n;
    if (w->in_block)
        w->block_pos -= n;
    w->flushed += n;
    return w->err;
}

static ev_status after_record(el_writer *w)
{
    if (w->file != NULL && !w->in_block && w->out.len >= FLUSH_AT)
        return flush_out(w);
    return w->err;
}

static ev_status write_header(el_writer *w)
{
    size_t n = 8 + 12;           /* hdrb hetb ... hete hdre datb */
    for (size_t i = 0; i < w->n_types; i++)
        n += 4 + 2 + 2 + 4 + w->types[i].desc_len + 4 + 4;
    uint8_t *p = out_reserve(w, n);
    if (p == NULL)
        return w->err;
    put_be32(p, HDR_BEGIN);
    put_be32(p + 4, HET_BEGIN);
    p += 8;
    for (size_t i = 0; i < w->n_types; i++) {
        const declared_type *t = &w->types[i];
        put_be32(p, ET_BEGIN);
        put_be16(p + 4, t->id);
        put_be16(p + 6, t->size == EL_WRITER_VARIABLE ? 0xffffu : (uint16_t)t->size);
        put_be32(p + 8, t->desc_len);
        p += 12;
        if (t->desc_len > 0)
            memcpy(p, t->desc, t->desc_len);
        p += t->desc_len;
        put_be32(p, 0);          /* no extra info (GHC writes none) */
        p += 4;
        put_be32(p, ET_END);
        p += 4;
    }
    put_be32(p, HET_END);
    put_be32(p + 4, HDR_END);
    put_be32(p + 8, DATA_BEGIN);
    w->header = HEADER_WRITTEN;
    return after_record(w);
}

/* Common checks before writing a record; writes the header if due. */
static ev_status begin_write(el_writer *w)
{
    if (w->err != EV_OK)
        return w->err;
    if (w->finished)
        return fail(w, EV_ERR_USAGE, "write after el_writer_finish");
    if (w->header == HEADER_NONE)
        return write_header(w);
    return EV_OK;
}

/* id, time and (for variable types) the length field: a pointer to the
 * len payload bytes that follow, or NULL with the error set. */
static uint8_t *record(el_writer *w, uint16_t type, uint64_t time, int variable,
                       size_t len)
{
    uint8_t *p = out_reserve(w, RECORD_HEAD + (variable ? 2 : 0) + len);
    if (p == NULL)
        return NULL;
    put_be16(p, type);
    put_be64(p + 2, time);
    if (w->in_block && time > w->block_latest)
        w->block_latest = time;
    if (!variable)
        return p + RECORD_HEAD;
    put_be16(p + RECORD_HEAD, (uint16_t)len);
    return p + RECORD_HEAD + 2;
}

/* ---- header ----------------------------------------------------------- */

ev_status el_writer_declare_type(el_writer *w, uint16_t id, int32_t size,
                                        const char *desc)
{
    if (w->err != EV_OK)
        return w->err;
    if (w->header != HEADER_NONE)
        return fail(w, EV_ERR_USAGE, "event type %u declared after data", id);
    if (id == END_OF_DATA)
        return fail(w, EV_ERR_USAGE, "event type 0xffff is the end marker");
    if (size != EL_WRITER_VARIABLE && (size < 0 || size > MAX_FIXED_SIZE))
        return fail(w, EV_ERR_USAGE, "event type %u: bad size %ld", id, (long)size);
    if (w->size_of[id] != UNDECLARED)
        return fail(w, EV_ERR_USAGE, "event type %u declared twice", id);
    if (desc == NULL)
        desc = "";
    size_t desc_len = strlen(desc);
    if (desc_len > UINT32_MAX)
        return fail(w, EV_ERR_USAGE, "event type %u: description too long", id);

    if (w->n_types == w->types_cap) {
        size_t cap = w->types_cap ? w->types_cap * 2 : 64;
        declared_type *types = realloc(w->types, cap * sizeof *types);
        if (types == NULL)
            return fail(w, EV_ERR_NOMEM, "cannot declare event type %u", id);
        w->types = types;
        w->types_cap = cap;
    }
    declared_type t = { .id = id, .size = size, .desc_len = (uint32_t)desc_len };
    t.desc = malloc(desc_len + 1);
    if (t.desc == NULL)
        return fail(w, EV_ERR_NOMEM, "cannot declare event type %u", id);
    memcpy(t.desc, desc, desc_len + 1);
    w->types[w->n_types++] = t;
    w->size_of[id] = size;
    return EV_OK;
}

/* Where an older GHC's header differs from el_type_table (GHC 9.12's
 * descriptions and sizes): the headers of corpus ghc-9.0.2/nfib-p.eventlog
 * (GHC 9.0.2) and ghc-events/ghc-9.2-events.eventlog (GHC 9.1
 * development, the 9.2 set). desc NULL: the table's. Which types each GHC
 * declares is in the table's EL_TYPE_GHC_* flags. */
static const struct ghc_difference {
    uint16_t id;
    uint8_t ghcs;                /* EL_TYPE_GHC_* */
    int16_t size;
    const char *desc;
} older_ghcs[] = {
#define G9_0 EL_TYPE_GHC_9_0
#define G9_2 EL_TYPE_GHC_9_2
    {EL_HEAP_ALLOCATED, G9_0 | G9_2, 12, "Total heap mem ever allocated"},
    {EL_HEAP_SIZE, G9_0, 12, "Current heap size"},
    {EL_HEAP_SIZE, G9_2, 12, "Current heap size (size of allocated mblocks)"},
    {EL_MEM_RETURN, G9_2, 16, "Memory return statistics"},
    {EL_BLOCKS_SIZE, G9_2, 12, "Current heap size (size of allocated blocks)"},
    {EL_HEAP_PROF_COST_CENTRE, G9_0 | G9_2, EL_VARIABLE_SIZE, "Cost center definition"},
    {EL_IPE, G9_2, EL_VARIABLE_SIZE, "Info Table Source Position"},
    {EL_CONC_SYNC_END, G9_0 | G9_2, 0, "End concurrent GC synchronisation"},
    {EL_CONC_SWEEP_BEGIN, G9_0 | G9_2, 0, "Begin concurrent sweep"},
    {EL_CONC_SWEEP_END, G9_0 | G9_2, 0, "End concurrent sweep"},
    {EL_NONMOVING_HEAP_CENSUS, G9_0 | G9_2, 13, NULL},   /* the u8 log2 layout */
#undef G9_0
#undef G9_2
};

ev_status el_writer_declare_ghc(el_writer *w, el_ghc_types set)
{
    if (w->err != EV_OK)
        return w->err;
    uint8_t ghc;
    switch (set) {
    case EL_GHC_9_0: ghc = EL_TYPE_GHC_9_0; break;
    case EL_GHC_9_2: ghc = EL_TYPE_GHC_9_2; break;
    case EL_GHC_9_12: ghc = EL_TYPE_GHC_9_12; break;
    default:
        return fail(w, EV_ERR_USAGE, "unknown GHC type set %d", (int)set);
    }
    for (uint16_t id = 0; id < EL_NUM_TYPE_IDS; id++) {
        const el_type_info *t = &el_type_table[id];
        if (!(t->flags & ghc) || w->size_of[id] != UNDECLARED)
            continue;
        int32_t size = t->size;
        const char *desc = t->desc;
        for (size_t i = 0; i < sizeof older_ghcs / sizeof older_ghcs[0]; i++) {
            const struct ghc_difference *o = &older_ghcs[i];
            if (o->id == id && (o->ghcs & ghc)) {
                size = o->size;
                desc = o->desc ? o->desc : desc;
            }
        }
        if (el_writer_declare_type(w, id, size, desc) != EV_OK)
            return w->err;
    }
    return EV_OK;
}

ev_status el_writer_begin_data(el_writer *w)
{
    if (w->err != EV_OK)
        return w->err;
    if (w->header != HEADER_NONE)
        return fail(w, EV_ERR_USAGE, "el_writer_begin_data: data already begun");
    return begin_write(w);
}

/* ---- events ----------------------------------------------------------- */

enum event_mode {
    CHECKED,                     /* fixed: len must be the declared size */
    FITTED,                      /* fixed: cut or zero-pad to the declared size */
    UNCHECKED,                   /* anything, framed as declared (fixed if not) */
};

static ev_status put_event(el_writer *w, uint16_t type, uint64_t time,
                                  const void *payload, size_t len, enum event_mode mode)
{
    ev_status st = begin_write(w);
    if (st != EV_OK)
        return st;
    int32_t size = w->size_of[type];
    if (size == UNDECLARED && mode != UNCHECKED)
        return fail(w, EV_ERR_USAGE, "event type %u not declared", type);
    if (size == EL_WRITER_VARIABLE) {
        if (len > MAX_VARIABLE_LEN && mode != UNCHECKED)
            return fail(w, EV_ERR_USAGE,
                        "event type %u: payload of %zu bytes exceeds 65535", type, len);
        uint8_t *p = record(w, type, time, 1, len);
        if (p == NULL)
            return w->err;
        if (len > 0)
            memcpy(p, payload, len);
        return after_record(w);
    }
    if (mode == CHECKED && len != (size_t)size)
        return fail(w, EV_ERR_USAGE,
                    "event type %u: payload of %zu bytes, declared size %ld",
                    type, len, (long)size);
    size_t room = mode == FITTED ? (size_t)size : len;
    size_t n = len < room ? len : room;
    uint8_t *p = record(w, type, time, 0, room);
    if (p == NULL)
        return w->err;
    if (n > 0)
        memcpy(p, payload, n);
    if (room > n)
        memset(p + n, 0, room - n);
    return after_record(w);
}

ev_status el_writer_event(el_writer *w, uint16_t type, uint64_t time,
                                 const void *payload, size_t len)
{
    return put_event(w, type, time, payload, len, CHECKED);
}

ev_status el_writer_event_payload(el_writer *w, uint16_t type, uint64_t time,
                                         const el_payload *p)
{
    if (p->failed)
        return fail(w, EV_ERR_NOMEM, "event type %u: payload allocation failed", type);
    return put_event(w, type, time, p->data, p->len, CHECKED);
}

ev_status el_writer_event_unchecked(el_writer *w, uint16_t type, uint64_t time,
                                           const void *payload, size_t len)
{
    return put_event(w, type, time, payload, len, UNCHECKED);
}

ev_status el_writer_raw(el_writer *w, const void *bytes, size_t len)
{
    if (w->err != EV_OK)
        return w->err;
    if (w->finished)
        return fail(w, EV_ERR_USAGE, "write after el_writer_finish");
    if (w->header == HEADER_NONE) {
        if (w->n_types > 0) {
            if (write_header(w) != EV_OK)
                return w->err;
        } else {
            w->header = HEADER_BY_HAND;
        }
    }
    uint8_t *p = out_reserve(w, len);
    if (p == NULL)
        return w->err;
    if (len > 0)
        memcpy(p, bytes, len);
    return after_record(w);
}

/* ---- blocks ----------------------------------------------------------- */

ev_status el_writer_begin_block(el_writer *w, uint16_t cap, uint64_t time)
{
    ev_status st = begin_write(w);
    if (st != EV_OK)
        return st;
    if (w->in_block)
        return fail(w, EV_ERR_USAGE, "block marker inside an open block");
    int32_t size = w->size_of[EL_BLOCK_MARKER];
    if (size == UNDECLARED && w->header == HEADER_BY_HAND)
        size = BLOCK_MARKER_SIZE;
    if (size == UNDECLARED)
        return fail(w, EV_ERR_USAGE, "event type 18 (block marker) not declared");
    if (size < BLOCK_MARKER_SIZE)
        return fail(w, EV_ERR_USAGE, "block marker declared with size %ld, need 14",
                    (long)size);
    size_t pos = w->out.len;
    uint8_t *p = record(w, EL_BLOCK_MARKER, time, 0, (size_t)size);
    if (p == NULL)
        return w->err;
    memset(p, 0, (size_t)size);
    put_be16(p + 12, cap);       /* size and end time are patched by end_block */
    w->in_block = 1;
    w->block_pos = pos;
    w->block_time = time;
    w->block_latest = time;
    return EV_OK;
}

ev_status el_writer_end_block(el_writer *w, uint64_t end_time)
{
    if (w->err != EV_OK)
        return w->err;
    if (!w->in_block)
        return fail(w, EV_ERR_USAGE, "el_writer_end_block without an open block");
    uint8_t *marker = w->out.data + w->block_pos;
    put_be32(marker + RECORD_HEAD, (uint32_t)(w->out.len - w->block_pos));
    put_be64(marker + RECORD_HEAD + 4, end_time);
    w->in_block = 0;
    return after_record(w);
}

static ev_status finish(el_writer *w, int end_marker)
{
    if (w->err != EV_OK || w->finished)
        return w->err;
    /* no event of a block is later than its end time (GHC writes it
     * after the block's last event; a reader takes a later one for damage) */
    if (w->in_block && el_writer_end_block(w, w->block_latest) != EV_OK)
        return w->err;
    if (w->header == HEADER_NONE && write_header(w) != EV_OK)
        return w->err;
    if (end_marker) {
        uint8_t *p = out_reserve(w, 2);
        if (p == NULL)
            return w->err;
        put_be16(p, END_OF_DATA);
    }
    w->finished = 1;
    return el_writer_flush(w);
}

ev_status el_writer_finish(el_writer *w)
{
    return finish(w, 1);
}

ev_status el_writer_finish_no_end(el_writer *w)
{
    return finish(w, 0);
}

ev_status el_writer_flush(el_writer *w)
{
    if (w->err != EV_OK || w->file == NULL)
        return w->err;
    if (flush_out(w) != EV_OK)
        return w->err;
    if (fflush(w->file) != 0 || ferror(w->file))
        return fail(w, EV_ERR_WRITE, "cannot write the eventlog: %s", strerror(errno));
    return EV_OK;
}

/* ---- typed events ----------------------------------------------------- */

/* A fixed-layout payload built on the stack, fitted to the declared size. */
static ev_status emit(el_writer *w, uint16_t type, uint64_t time,
                             const uint8_t *payload, size_t len)
{
    return put_event(w, type, time, payload, len, FITTED);
}

/* The scratch payload, for events with strings; emit_scratch sends it. */
static el_payload *scratch(el_writer *w)
{
    el_payload_reset(&w->scratch);
    return &w->scratch;
}

static ev_status emit_scratch(el_writer *w, uint16_t type, uint64_t time)
{
    if (w->err != EV_OK)
        return w->err;
    if (w->scratch.failed) {
        el_payload_free(&w->scratch);
        return fail(w, EV_ERR_NOMEM, "event type %u: payload allocation failed", type);
    }
    return emit(w, type, time, w->scratch.data, w->scratch.len);
}

/* A fixed layout (eventlog/layouts.h, the one the decoder reads): v holds
 * the values of its payload fields in order (not the ZERO, HAS and string
 * kinds, which write nothing); the payload ends with its last field. */
#define MAX_LAYOUT 64
static ev_status emit_layout(el_writer *w, uint16_t type, uint64_t time, const uint64_t *v)
{
    uint8_t b[MAX_LAYOUT];
    size_t len = 0;

    for (const el_field *f = el_layout_table[type].fields; f->kind != EL_F_END; f++) {
        int width = el_field_width(f->kind);
        if (!width)
            continue;
        uint64_t x = *v++;
        uint8_t *q = b + f->off;
        switch (width) {
        case 1: *q = (uint8_t)x; break;
        case 2: put_be16(q, (uint16_t)x); break;
        case 4: put_be32(q, (uint32_t)x); break;
        default: put_be64(q, x); break;
        }
        if (f->off + (size_t)width > len)
            len = f->off + (size_t)width;
    }
    return emit(w, type, time, b, len);
}

/* emit_layout with its values listed */
#define EMIT(type, ...) emit_layout(w, type, time, (const uint64_t[]){ __VA_ARGS__ })

/* el_writer_event_moved's visit: the number at its place, moved */
typedef struct move_numbers {
    uint8_t *b;
    el_move_fn fn;
    void *ctx;
} move_numbers;

static void move_number(void *ctx, el_num_kind kind, uint32_t at, int u32)
{
    const move_numbers *m = ctx;
    uint8_t *q = m->b + at;
    if (u32)
        put_be32(q, m->fn(m->ctx, kind, be32(q)));
    else
        put_be16(q, (uint16_t)m->fn(m->ctx, kind, be16(q)));
}

ev_status el_writer_event_moved(el_writer *w, const el_event *ev, el_move_fn fn, void *ctx)
{
    el_payload *p = scratch(w);
    el_payload_bytes(p, ev->payload, ev->payload_len);
    if (p->failed)
        return fail(w, EV_ERR_NOMEM, "out of memory");
    move_numbers m = { p->data, fn, ctx };
    el_numbers_at(ev->type, p->data, (uint32_t)p->len, move_number, &m);
    return put_event(w, ev->type, ev->time, p->data, (uint32_t)p->len, CHECKED);
}

ev_status el_writer_create_thread(el_writer *w, uint64_t time, uint32_t thread)
{
    return EMIT(EL_CREATE_THREAD, thread);
}

ev_status el_writer_run_thread(el_writer *w, uint64_t time, uint32_t thread)
{
    return EMIT(EL_RUN_THREAD, thread);
}

ev_status el_writer_stop_thread(el_writer *w, uint64_t time, uint32_t thread,
                                       uint16_t status, uint32_t blocked_on)
{
    return EMIT(EL_STOP_THREAD, thread, status, blocked_on);
}

ev_status el_writer_thread_runnable(el_writer *w, uint64_t time, uint32_t thread)
{
    return EMIT(EL_THREAD_RUNNABLE, thread);
}

ev_status el_writer_gc_start(el_writer *w, uint64_t time)
{
    return emit(w, EL_GC_START, time, NULL, 0);
}

ev_status el_writer_gc_end(el_writer *w, uint64_t time)
{
    return emit(w, EL_GC_END, time, NULL, 0);
}

ev_status el_writer_empty(el_writer *w, uint16_t type, uint64_t time)
{
    return emit(w, type, time, NULL, 0);
}

ev_status el_writer_log_msg(el_writer *w, uint64_t time, const char *msg)
{
    return emit(w, EL_LOG_MSG, time, (const uint8_t *)msg, strlen(msg));
}

ev_status el_writer_user_msg(el_writer *w, uint64_t time, const char *msg)
{
    return emit(w, EL_USER_MSG, time, (const uint8_t *)msg, strlen(msg));
}

ev_status el_writer_capset_create(el_writer *w, uint64_t time, uint32_t capset,
                                         uint16_t capset_type)
{
    return EMIT(EL_CAPSET_CREATE, capset, capset_type);
}

ev_status el_writer_capset_delete(el_writer *w, uint64_t time, uint32_t capset)
{
    return EMIT(EL_CAPSET_DELETE, capset);
}

ev_status el_writer_capset_assign_cap(el_writer *w, uint64_t time, uint32_t capset,
                                             uint16_t cap)
{
    return EMIT(EL_CAPSET_ASSIGN_CAP, capset, cap);
}

ev_status el_writer_capset_remove_cap(el_writer *w, uint64_t time, uint32_t capset,
                                             uint16_t cap)
{
    return EMIT(EL_CAPSET_REMOVE_CAP, capset, cap);
}

ev_status el_writer_rts_identifier(el_writer *w, uint64_t time, uint32_t capset,
                                          const char *ident)
{
    el_payload *p = scratch(w);
    el_payload_u32(p, capset);
    el_payload_text(p, ident);
    return emit_scratch(w, EL_RTS_IDENTIFIER, time);
}

static ev_status emit_strings(el_writer *w, uint16_t type, uint64_t time,
                                     uint32_t capset, int n, const char *const *strs)
{
    el_payload *p = scratch(w);
    el_payload_u32(p, capset);
    for (int i = 0; i < n; i++)
        el_payload_str(p, strs[i]);
    return emit_scratch(w, type, time);
}

ev_status el_writer_program_args(el_writer *w, uint64_t time, uint32_t capset,
                                        int argc, const char *const *argv)
{
    return emit_strings(w, EL_PROGRAM_ARGS, time, capset, argc, argv);
}

ev_status el_writer_os_pid(el_writer *w, uint64_t time, uint32_t capset, uint32_t pid)
{
    return EMIT(EL_OSPROCESS_PID, capset, pid);
}

ev_status el_writer_os_ppid(el_writer *w, uint64_t time, uint32_t capset,
                                   uint32_t ppid)
{
    return EMIT(EL_OSPROCESS_PPID, capset, ppid);
}

ev_status el_writer_wall_clock(el_writer *w, uint64_t time, uint32_t capset,
                                      uint64_t sec, uint32_t nsec)
{
    return EMIT(EL_WALL_CLOCK_TIME, capset, sec, nsec);
}

ev_status el_writer_cap_create(el_writer *w, uint64_t time, uint16_t cap)
{
    return EMIT(EL_CAP_CREATE, cap);
}

ev_status el_writer_cap_delete(el_writer *w, uint64_t time, uint16_t cap)
{
    return EMIT(EL_CAP_DELETE, cap);
}

ev_status el_writer_spark_counters(el_writer *w, uint64_t time,
                                          const uint64_t counters[7])
{
    return EMIT(EL_SPARK_COUNTERS, counters[0], counters[1], counters[2], counters[3],
                counters[4], counters[5], counters[6]);
}

ev_status el_writer_heap_allocated(el_writer *w, uint64_t time, uint32_t capset,
                                          uint64_t bytes)
{
    return EMIT(EL_HEAP_ALLOCATED, capset, bytes);
}

ev_status el_writer_heap_size(el_writer *w, uint64_t time, uint32_t capset,
                                     uint64_t bytes)
{
    return EMIT(EL_HEAP_SIZE, capset, bytes);
}

ev_status el_writer_heap_live(el_writer *w, uint64_t time, uint32_t capset,
                                     uint64_t bytes)
{
    return EMIT(EL_HEAP_LIVE, capset, bytes);
}

ev_status el_writer_heap_info(el_writer *w, uint64_t time, uint32_t capset,
                                     uint16_t gens, uint64_t max_heap_size,
                                     uint64_t alloc_area_size, uint64_t mblock_size,
                                     uint64_t block_size)
{
    return EMIT(EL_HEAP_INFO_GHC, capset, gens, max_heap_size, alloc_area_size, mblock_size,
                block_size);
}

ev_status el_writer_gc_stats(el_writer *w, uint64_t time, const el_gc_stats_fields *s)
{
    return EMIT(EL_GC_STATS_GHC, s->capset, s->gen, s->copied, s->slop, s->frag,
                s->par_n_threads, s->par_max_copied, s->par_tot_copied,
                s->par_balanced_copied);
}

ev_status el_writer_heap_prof_begin(el_writer *w, uint64_t time, uint8_t profile,
                                           uint64_t period_ns, uint32_t breakdown,
                                           const char *const filters[7])
{
    el_payload *p = scratch(w);
    el_payload_u8(p, profile);
    el_payload_u64(p, period_ns);
    el_payload_u32(p, breakdown);
    for (int i = 0; i < 7; i++)
        el_payload_str(p, filters != NULL && filters[i] != NULL ? filters[i] : "");
    return emit_scratch(w, EL_HEAP_PROF_BEGIN, time);
}

ev_status el_writer_cost_centre(el_writer *w, uint64_t time, uint32_t id,
                                       const char *label, const char *module,
                                       const char *srcloc, uint8_t flags)
{
    el_payload *p = scratch(w);
    el_payload_u32(p, id);
    el_payload_str(p, label);
    el_payload_str(p, module);
    el_payload_str(p, srcloc);
    el_payload_u8(p, flags);
    return emit_scratch(w, EL_HEAP_PROF_COST_CENTRE, time);
}

ev_status el_writer_heap_sample_begin(el_writer *w, uint64_t time, uint64_t era)
{
    return EMIT(EL_HEAP_PROF_SAMPLE_BEGIN, era);
}

ev_status el_writer_heap_sample_end(el_writer *w, uint64_t time, uint64_t era)
{
    return EMIT(EL_HEAP_PROF_SAMPLE_END, era);
}

ev_status el_writer_heap_sample_cc(el_writer *w, uint64_t time, uint8_t profile,
                                          uint64_t residency, uint8_t depth,
                                          const uint32_t *stack)
{
    el_payload *p = scratch(w);
    el_payload_u8(p, profile);
    el_payload_u64(p, residency);
    el_payload_u8(p, depth);
    for (unsigned i = 0; i < depth; i++)
        el_payload_u32(p, stack[i]);
    return emit_scratch(w, EL_HEAP_PROF_SAMPLE_COST_CENTRE, time);
}

ev_status el_writer_heap_sample_string(el_writer *w, uint64_t time, uint8_t profile,
                                              uint64_t residency, const char *label)
{
    el_payload *p = scratch(w);
    el_payload_u8(p, profile);
    el_payload_u64(p, residency);
    el_payload_str(p, label);
    return emit_scratch(w, EL_HEAP_PROF_SAMPLE_STRING, time);
}

ev_status el_writer_bio_sample_begin(el_writer *w, uint64_t time, uint64_t era,
                                            uint64_t sample_time)
{
    return EMIT(EL_HEAP_BIO_PROF_SAMPLE_BEGIN, era, sample_time);
}

ev_status el_writer_prof_sample(el_writer *w, uint64_t time, uint32_t cap,
                                       uint64_t ticks, uint8_t depth, const uint32_t *stack)
{
    size_t len = 13 + 4 * (size_t)depth;
    if (w->err == EV_OK && !w->finished && w->header == HEADER_WRITTEN &&
        w->size_of[EL_PROF_SAMPLE_COST_CENTRE] == EL_WRITER_VARIABLE) {
        /* The common case, straight into the output (the benchmark
         * generator writes gigabytes of these). */
        uint8_t *p = record(w, EL_PROF_SAMPLE_COST_CENTRE, time, 1, len);
        if (p == NULL)
            return w->err;
        put_be32(p, cap);
        put_be64(p + 4, ticks);
        p[12] = depth;
        for (unsigned i = 0; i < depth; i++)
            put_be32(p + 13 + 4 * i, stack[i]);
        return after_record(w);
    }
    el_payload *p = scratch(w);
    el_payload_u32(p, cap);
    el_payload_u64(p, ticks);
    el_payload_u8(p, depth);
    for (unsigned i = 0; i < depth; i++)
        el_payload_u32(p, stack[i]);
    return emit_scratch(w, EL_PROF_SAMPLE_COST_CENTRE, time);
}

ev_status el_writer_prof_begin(el_writer *w, uint64_t time, uint64_t interval_ns)
{
    return EMIT(EL_PROF_BEGIN, interval_ns);
}

ev_status el_writer_ipe(el_writer *w, uint64_t time, const el_ipe_fields *f,
                               int declared_delta)
{
    el_payload *p = scratch(w);
    const char *s[6] = { f->table_name, f->closure_desc, f->ty_desc, f->label, f->module,
                         f->srcloc };
    el_payload_u64(p, f->info);
    for (int i = 0; i < 6; i++)
        el_payload_str(p, s[i] ? s[i] : "");
    if (w->err != EV_OK || p->failed || declared_delta == 0)
        return emit_scratch(w, EL_IPE, time);
    long declared = (long)p->len + declared_delta;
    if (declared < 0 || declared > (long)MAX_VARIABLE_LEN || p->len > MAX_VARIABLE_LEN)
        return fail(w, EV_ERR_USAGE, "IPE: declared length %ld out of range", declared);
    ev_status st = begin_write(w);
    if (st != EV_OK)
        return st;
    if (w->size_of[EL_IPE] != EL_WRITER_VARIABLE)
        return fail(w, EV_ERR_USAGE, "event type 169 not declared variable-size");
    uint8_t *out = record(w, EL_IPE, time, 1, p->len);
    if (out == NULL)
        return w->err;
    memcpy(out, p->data, p->len);
    put_be16(out - 2, (uint16_t)declared);      /* GHC's length field, as GHC got it */
    return after_record(w);
}

ev_status el_writer_ticky_def(el_writer *w, uint64_t time, el_ticky_def_layout layout,
                                     uint64_t id, uint16_t arity, const char *kinds,
                                     const char *name, uint64_t info_tbl, const char *json)
{
    el_payload *p = scratch(w);
    el_payload_u64(p, id);
    el_payload_u16(p, arity);
    el_payload_str(p, kinds);
    el_payload_str(p, name);
    if (layout == EL_TICKY_DEF_INFO_TBL || layout == EL_TICKY_DEF_JSON)
        el_payload_u64(p, info_tbl);
    if (layout == EL_TICKY_DEF_JSON)
        el_payload_str(p, json != NULL ? json : "");
    return emit_scratch(w, EL_TICKY_COUNTER_DEF, time);
}

ev_status el_writer_ticky_sample(el_writer *w, uint64_t time, uint64_t id,
                                        uint64_t entries, uint64_t allocs, uint64_t allocd)
{
    return EMIT(EL_TICKY_COUNTER_SAMPLE, id, entries, allocs, allocd);
}

ev_status el_writer_ticky_begin(el_writer *w, uint64_t time)
{
    return emit(w, EL_TICKY_BEGIN_SAMPLE, time, NULL, 0);
}
