/* The one table of event types, private to the library: one row per type
 * id below EL_NUM_TYPE_IDS, read by the decoder (which types it decodes,
 * their smallest payload), el_type_name, the `ghc-events show` text
 * (which types ghc-events parses) and the eventlog writer (the types and
 * descriptions of GHC's own headers). Ids evprof does not know have a row
 * of zeros (name NULL). */
#ifndef EVPROF_EVENTLOG_TYPES_H
#define EVPROF_EVENTLOG_TYPES_H

#include <stdint.h>

#include "evprof/eventlog.h"

/* ghc-events' parser of a type: none (UnknownEvent whatever the header
 * says), a fixed layout, or a variable one. */
enum { EL_GE_NONE = 0, EL_GE_FIXED, EL_GE_VARIABLE };

enum {
    EL_TYPE_DECODED = 1,       /* the decoder fills typed fields of this type */
    /* declared in the header of this GHC version (el_writer_declare_ghc) */
    EL_TYPE_GHC_9_0 = 2,
    EL_TYPE_GHC_9_2 = 4,
    EL_TYPE_GHC_9_12 = 8,
};

typedef struct el_type_info {
    const char *name;          /* evprof's short name: the enum's, without EL_ */
    /* As GHC's header declares the type: GHC 9.12's description and size
     * (the writer keeps what older GHCs wrote differently); for types GHC
     * 9.12 no longer declares, as the oldest corpus logs do; NULL and 0
     * when no log at hand declares it. size: payload bytes, or
     * EL_VARIABLE_SIZE. */
    const char *desc;
    int16_t size;
    /* The decoder: the smallest payload of the oldest layout GHC wrote (a
     * shorter one is corrupt); 0 for types without fixed fields. */
    uint8_t min_len;
    /* ghc-events: EL_GE_*, and for a fixed layout the size of its
     * smallest one (it picks the largest layout not above the declared
     * size; none fits means UnknownEvent). */
    uint8_t ge_kind;
    uint8_t ge_min;
    uint8_t flags;             /* EL_TYPE_* */
} el_type_info;

/* Indexed by type id; EL_NUM_TYPE_IDS rows. */
extern const el_type_info el_type_table[];

/* Where a type's payload holds the numbers that name things of one run
 * (el_num_kind: capabilities, capsets, threads, cost centres), which a
 * merge of several logs moves apart (el_event_numbers reads them,
 * el_writer_event_moved writes them moved). A row per type id below
 * EL_NUM_TYPE_IDS, at most EL_NUM_FIELDS fields; kind 0 ends a row. */
enum {
    EL_NUMF_U32 = 1,           /* a u32 (else a u16) */
    EL_NUMF_ZERO_NONE = 2,     /* 0 names nothing (STOP_THREAD's blocker) */
    EL_NUMF_STACK = 4,         /* a u8 depth at `at`, then that many u32 */
};
#define EL_NUM_FIELDS 2
typedef struct el_num_field {
    uint8_t kind;              /* el_num_kind + 1; 0: none */
    uint8_t at;                /* byte offset in the payload */
    uint8_t flags;             /* EL_NUMF_* */
} el_num_field;
extern const el_num_field el_type_numbers[][EL_NUM_FIELDS];

/* Calls fn for each number of a `type` payload of `len` bytes that names
 * something (the table above: a stack's every frame, not a 0 that names
 * nothing): its kind, its byte offset and whether it is a u32 (else a
 * u16). The one walk of the table, for reading (el_event_numbers) and for
 * writing moved (el_writer_event_moved). */
typedef void (*el_num_at_fn)(void *ctx, el_num_kind kind, uint32_t at, int u32);
void el_numbers_at(uint16_t type, const uint8_t *p, uint32_t len, el_num_at_fn fn, void *ctx);

/* The layouts of eventlog/layouts.h as a table, for the readers that walk
 * a type's fields rather than expand them (show.c's text, the writer):
 * one row per type id below EL_NUM_TYPE_IDS, fields NULL for a type
 * without a layout there. */
enum {
    EL_F_END = 0,              /* ends a row's fields */
    EL_F_U8, EL_F_U16, EL_F_U32, EL_F_U64,
    EL_F_OPT32, EL_F_OPT64,    /* or 0 past the payload's end */
    EL_F_HAS,                  /* the payload holds `off` bytes */
    EL_F_ZERO,                 /* no payload */
    EL_F_STR, EL_F_STR4, EL_F_TAIL32, EL_F_NOSTR,
    EL_F_STACK,                /* a u8 depth at `off`, then that many u32 */
};
typedef struct el_field {
    uint8_t kind;              /* EL_F_* */
    uint8_t off;               /* byte offset in the payload */
    uint8_t size;              /* the el_event field's size */
    uint16_t at;               /* its offset in el_event (offsetof) */
} el_field;
typedef struct el_layout {
    const char *text;          /* ghc-events' text (layouts.h), or NULL */
    const el_field *fields;    /* ended by EL_F_END; NULL: no layout */
} el_layout;
extern const el_layout el_layout_table[];

/* A field's payload bytes (0 for the kinds that read none or a tail). */
int el_field_width(uint8_t kind);

#endif
