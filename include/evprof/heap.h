/* evprof: heap profiles, rebuilt from the heap-census events of a run with
 * +RTS -hT -l (or -hc, -hy, -hd, -hm, -hr, -hb, -hi in a -prof build).
 *
 * A heap_profile consumes decoded events: HEAP_PROF_BEGIN (160), cost-
 * centre definitions (161), census starts (162, or 166 for biographical
 * censuses, which carry their own time), samples (163 cost-centre stack,
 * 164 string) and census ends (165), IPE entries (169), the program's
 * arguments and the wall clock. It assembles each census, names its bands
 * as GHC's .hp file does and hands every complete census to a sink (one of
 * the writers below, or the caller's function) in time order. Per-band
 * aggregates (peak, time of the peak, mean) are kept for the summary.
 *
 *     heap_opts o;
 *     heap_opts_init(&o);
 *     heap_writer *w = heap_writer_create(HEAP_FORMAT_HP, out);
 *     heap_profile *h = heap_create(&o, heap_writer_census, w);
 *     for each event: heap_add_event(h, ev, decoder);
 *     heap_finish(h, &read_result);
 *     heap_writer_finish(w, h);
 *     heap_writer_destroy(w);
 *     heap_destroy(h);
 *
 * Memory: the bands (name and aggregates), the open census (one entry per
 * band sampled in it), cost centres and IPE entries. Censuses are not kept:
 * each goes to the sink when it is complete, except biographical censuses
 * (166), which GHC writes at the end of the log in no promised order: they
 * are kept until heap_finish() and handed out sorted by their time. So
 * memory grows with bands x biographical censuses, never with the log.
 */
#ifndef EVPROF_HEAP_H
#define EVPROF_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/eventlog.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The heap profile's statuses are ev_status (status.h): EV_OK,
 * EV_ERR_NOMEM (an allocation failed, or the memory budget refused one:
 * sticky), EV_ERR_SINK (the census sink failed, e.g. a write error:
 * sticky), EV_ERR_FINISHED (an event for a finished profile, or a
 * snapshot). */

/* GHC's -L default: -hc bands longer than this are cut. */
#define HEAP_DEFAULT_LENGTH 25u
#define HEAP_MAX_LENGTH 1000000u

/* ---- the executable's symbols ------------------------------------------- */

/* The `_info` symbols of a GHC program's ELF executable: what names the
 * -hi bands of code built without -finfo-table-map (the libraries, base,
 * the RTS), which no IPE entry names. Only the 64-bit ELF symbol tables
 * (.symtab, .dynsym) are read, every offset checked against the file's
 * size: a truncated or hostile file is an error, never a crash. What is
 * kept (addresses sorted, names) is charged to the budget `b` (NULL:
 * none). NULL on failure, with err (NULL: no detail): EV_ERR_IO (cannot
 * open or read: the message is strerror's), EV_ERR_FORMAT (not an ELF
 * file, not 64-bit, not an executable, no symbol table, no `_info`
 * symbol), EV_ERR_TRUNCATED (a table past the end of the file),
 * EV_ERR_NOMEM or EV_ERR_LIMIT. */
typedef struct heap_exe heap_exe;
EVPROF_API heap_exe *heap_exe_open(const char *path, ev_budget *b, ev_error *err);
EVPROF_API void heap_exe_close(heap_exe *x);       /* accepts NULL */
EVPROF_API size_t heap_exe_num_symbols(const heap_exe *x);
/* 1 for a position-independent executable (ET_DYN): its symbols lie at
 * its load address plus their values, which no event records. */
EVPROF_API int heap_exe_pie(const heap_exe *x);
/* The `_info` symbol whose value is exactly addr, or NULL. Borrowed from x. */
EVPROF_API const char *heap_exe_symbol(const heap_exe *x, uint64_t addr);
/* A symbol as a band's title: Z-decoded, MODULE.NAME (FLAVOUR, UNIT,
 * symbol), the unit left out for the main program's:
 * "base_GHCziBase_ZC_con_info" is "GHC.Base.: (con_info, base, symbol)",
 * "Main_zdfShowExpr_info" "Main.$fShowExpr (info, symbol)". The RTS's
 * (stg_*) and names not of that form as they are, marked "(rts symbol)"
 * or "(symbol)". Writes into out (cap bytes, no NUL); returns the length,
 * 0 when cap is too small (20 times the symbol's length is enough). */
EVPROF_API size_t heap_exe_title(const char *sym, char *out, size_t cap);

/* Where the heap profile takes the names of -hi bands no IPE entry names
 * from. The executable is checked against the log before it is used (at
 * the first census with such a band; heap_info.exe_*): IPE entries whose
 * names it has must be at its symbols' addresses, and the band addresses
 * of that census land on its `_info` symbols (docs/HEAP.md). */
typedef struct heap_exe_opts {
    const heap_exe *given;      /* this executable (borrowed: outlives the profile);
                                   NULL: none */
    const char *given_path;     /* its path, for heap_info.exe_path */
    int from_log;               /* without `given`: the program the log names (its
                                   PROGRAM_ARGS' argv[0]), when it is the run's */
    const char *dir;            /* the folder a relative argv[0] is taken from (the
                                   log's; borrowed); NULL: the current one */
} heap_exe_opts;

/* The censuses kept are those taken inside the driver's selection
 * (ev_driver_opts.select: the time it was taken, on the log's clock). */
typedef struct heap_opts {
    uint32_t length;        /* -hc band length (GHC's -L); 0: the -L in the log's
                               RTS options, else HEAP_DEFAULT_LENGTH. 4 at least. */
    int whole_names;        /* -hc bands never cut (up to HEAP_MAX_LENGTH bytes),
                               whatever `length` and the log's -L say: the summary's
                               names, where GHC's cut helps no one */
    int clock;              /* the censuses' times: HEAP_CLOCK_ELAPSED (the log's
                               clock) or HEAP_CLOCK_MUTATOR (an estimate of GHC's
                               .hp clock; see docs/HEAP.md). The selection stays
                               on the log's clock. */
    heap_exe_opts exe;          /* -hi bands' names from symbols; all 0: none */
} heap_opts;

enum { HEAP_CLOCK_ELAPSED = 0, HEAP_CLOCK_MUTATOR = 1 };

EVPROF_API void heap_opts_init(heap_opts *o);   /* every census, -L from the log */

typedef struct heap_profile heap_profile;

/* One band's entry in a census. */
typedef struct heap_sample {
    uint32_t band;          /* heap_band_at() index */
    uint64_t bytes;
} heap_sample;

/* A complete census. Samples are in the order of the log's events (GHC's
 * .hp order); samples whose band names are equal are summed into the
 * first (see docs/HEAP.md: -hc names cut to -L can collide). */
typedef struct heap_census {
    uint64_t index;         /* 1, 2, ... in output order */
    uint64_t time;          /* ns on the log's clock: the 162 event's time, or
                               the time field of a biographical 166 */
    uint64_t era;           /* the sample number of 162/166 */
    int bio;                /* started by 166 */
    uint64_t total;         /* bytes of all samples */
    size_t n;
    const heap_sample *samples;   /* borrowed: valid during the call */
} heap_census;

/* Receives each complete census in time order. Returns 0, or non-zero to
 * fail (heap_add_event/heap_finish then return EV_ERR_SINK). */
typedef int (*heap_census_fn)(void *ctx, const heap_profile *h, const heap_census *c);

/* NULL o: heap_opts_init's defaults. `sink` may be NULL: only the
 * aggregates are kept. */
EVPROF_API heap_profile *heap_create(const heap_opts *o, heap_census_fn sink, void *ctx);
EVPROF_API void heap_destroy(heap_profile *h);   /* accepts NULL */

/* Consume one event. `d`, the decoder (may be NULL), tells whether the
 * log's header declares HEAP_PROF_SAMPLE_END (165): logs of GHC before 8.8
 * have none, so a census there ends where the next begins, or at the log's
 * end marker; and whether a damaged block was skipped while a census was
 * open (el_decoder_damage): that census is dropped. */
EVPROF_API ev_status heap_add_event(heap_profile *h, const el_event *ev, const el_decoder *d);

/* The memory budget the profile charges as its tables, strings and kept
 * biographical censuses grow (budget.h; borrowed; NULL: none). A charge
 * the budget refuses fails the event (EV_ERR_NOMEM, sticky) and sets
 * over_budget below. Attached to a driver the profile takes the read's
 * budget (ev_stream.budget) by itself. */
EVPROF_API void heap_set_budget(heap_profile *h, ev_budget *b);

/* What the profile holds: for the message of a read stopped at the
 * memory limit. */
typedef struct heap_counts {
    uint64_t bands;         /* distinct bands (names) */
    uint64_t ccs;           /* cost-centre definitions kept for -hc names */
    uint64_t censuses;      /* complete censuses handed out */
    uint64_t kept_samples;  /* samples of biographical censuses kept for the end */
    uint64_t bytes;         /* charged to the budget */
    int over_budget;
} heap_counts;
EVPROF_API void heap_count(const heap_profile *h, heap_counts *c);

/* No more events. `r` is the read's result (NULL: none): its time span
 * (the .hp's closing empty sample is written at its end), whether the log
 * ended with its end marker, and the damaged blocks the reader skipped.
 * A census still open is dropped, except in a log without 165 that ended
 * with its marker (there the last census ends with the log); a log that
 * stops without the marker was cut or its program killed, and its last
 * census may be missing samples. A census that a skipped damaged block
 * fell into is dropped too. Then the kept biographical censuses go to the
 * sink, sorted by time. Returns the first error, sticky. */
EVPROF_API ev_status heap_finish(heap_profile *h, const el_read_result *r);

/* The same as an analysis of the driver (no sink: attach the sink with
 * heap_create). Its end calls heap_finish with the stream's facts; its
 * snapshot is heap_snapshot's (release: heap_destroy). */
EVPROF_API extern const ev_analysis_ops heap_analysis_ops;
/* The same, fed in time order after the read (EV_ORDERED): what
 * HEAP_CLOCK_MUTATOR needs, since GHC writes the collections and the
 * censuses into different buffers, so file order is not time order. */
EVPROF_API extern const ev_analysis_ops heap_analysis_ordered_ops;
/* The one of the two h's options need: heap_analysis_ordered_ops under
 * HEAP_CLOCK_MUTATOR, else heap_analysis_ops. */
EVPROF_API const ev_analysis_ops *heap_analysis_for(const heap_profile *h);

/* The results so far as a finished heap_profile of their own (bands,
 * aggregates and facts; biographical censuses still waiting for the end
 * of the log are counted in, in time order). h is unchanged and takes
 * more events; the copy takes none. NULL when out of memory. Destroy with
 * heap_destroy. */
EVPROF_API heap_profile *heap_snapshot(const heap_profile *h);

/* ---- results ---------------------------------------------------------- */

/* A band: a name as GHC's .hp writes it, and its aggregates over the
 * censuses handed out. */
typedef struct heap_band {
    const char *name;       /* owned by the profile, NUL-terminated */
    uint32_t len;           /* bytes (a cut -hc name may end inside UTF-8) */
    /* The band for people (the summary, CSV, JSON, html, pprof, top):
     * an -hi band, named by its info table's address as in GHC's .hp, is
     * titled by its IPE entry (169) when the log has one: "TABLE (CLOSURE
     * TYPE :: TYPE, LABEL, MODULE, SRCLOC)", empty parts left out; every
     * other band by its name. Owned by the profile, NUL-terminated. */
    const char *title;
    uint32_t title_len;
    /* (an -hi band no IPE entry names is titled by its symbol in the
     * executable when heap_opts.exe gives one: heap_exe_title's form) */
    uint64_t peak;          /* largest bytes in one census */
    uint64_t peak_time;     /* ns: the first census with that peak */
    uint64_t peak_total;    /* all bands' bytes in that census */
    uint64_t sum;           /* bytes summed over censuses (mean = sum / censuses) */
    uint64_t present;       /* censuses in which the band has a sample */
} heap_band;

EVPROF_API size_t heap_num_bands(const heap_profile *h);
EVPROF_API const heap_band *heap_band_at(const heap_profile *h, uint32_t i);

/* GHC's HEAP_PROF_BREAKDOWN_* values of HEAP_PROF_BEGIN */
enum {
    HEAP_BY_COST_CENTRE = 1,    /* -hc */
    HEAP_BY_MODULE = 2,         /* -hm */
    HEAP_BY_CLOSURE_DESCR = 3,  /* -hd */
    HEAP_BY_TYPE_DESCR = 4,     /* -hy */
    HEAP_BY_RETAINER = 5,       /* -hr */
    HEAP_BY_BIOGRAPHY = 6,      /* -hb */
    HEAP_BY_CLOSURE_TYPE = 7,   /* -hT */
    HEAP_BY_INFO_TABLE = 8,     /* -hi */
    HEAP_BY_ERA = 9,            /* -he */
};

/* "cost-centre stack" and "-hc" for HEAP_BY_COST_CENTRE, ...; NULL for an
 * unknown value. */
EVPROF_API const char *heap_breakdown_name(uint32_t breakdown);
EVPROF_API const char *heap_breakdown_flag(uint32_t breakdown);

/* Why a census was dropped (the first one is remembered). */
typedef enum heap_drop_reason {
    HEAP_DROP_NONE = 0,
    HEAP_DROP_CUT,          /* the log ends (cut or damaged) inside it */
    HEAP_DROP_NO_END,       /* a new census began before its end event */
    HEAP_DROP_DAMAGED,      /* part of it was in a damaged block the reader skipped */
} heap_drop_reason;

typedef struct heap_info {
    int has_begin;              /* a HEAP_PROF_BEGIN was read */
    uint32_t breakdown;         /* of the first HEAP_PROF_BEGIN */
    uint64_t period_ns;         /* its sampling period */
    uint32_t length;            /* the -L used for -hc bands */
    int length_from_log;        /* ... taken from the log's RTS options */
    int whole_names;            /* -hc bands not cut (heap_opts.whole_names) */

    uint64_t censuses;          /* complete, in the window, handed out */
    uint64_t censuses_seen;     /* every census start (162, 166) */
    uint64_t filtered;          /* outside the time window */
    uint64_t dropped;           /* incomplete: never handed out */
    heap_drop_reason drop_reason;   /* of the first dropped census */
    uint64_t drop_time;         /* its time (ns) */
    uint64_t stray_samples;     /* sample events outside any census */
    uint64_t undefined_ccs;     /* -hc frames naming an id no 161 defined */
    uint64_t unresolved_ipe;    /* -hi labels without an IPE entry (bands) */
    uint64_t symbol_bands;      /* ... of them, titled by the executable's symbol */
    uint64_t first_time, last_time;   /* of the censuses handed out (ns) */
    uint64_t peak_total;        /* the largest census total, */
    uint64_t peak_total_time;   /* and its time (the first one) */

    uint64_t log_first, log_last;     /* the log's time span (ns) */
    int has_wall_clock;
    uint64_t wall_sec;          /* WALL_CLOCK_TIME at event time wall_time_ns */
    uint64_t wall_time_ns;
    const char *program;        /* basename of argv[0], or "" */
    const char *job;            /* "prog args +RTS rts-args", as GHC's JOB */
    const char *rts_version;    /* or NULL */
    const char *program_path;   /* argv[0] as the log has it, or NULL */

    /* the executable's symbols (heap_opts.exe) */
    int exe_state;              /* HEAP_EXE_OFF, _USED or _UNUSED */
    int exe_given;              /* heap_opts.exe.given, not the log's program */
    const char *exe_path;       /* the file (the log's program: as resolved), or NULL */
    const char *exe_why;        /* HEAP_EXE_UNUSED: why, a clause ("it cannot be
                                   opened: No such file or directory") */
    uint64_t exe_delta;         /* HEAP_EXE_USED: band address + delta = symbol */
    uint64_t exe_sample, exe_hits;  /* the first census's unnamed band addresses,
                                       those on its `_info` symbols */
    uint64_t exe_ipe_agree;     /* IPE entries whose addresses hold their symbols */
} heap_info;

enum {
    HEAP_EXE_OFF = 0,           /* not asked, or no census had a band to name */
    HEAP_EXE_USED,              /* checked and used */
    HEAP_EXE_UNUSED,            /* not used: exe_why says why */
};

EVPROF_API const heap_info *heap_get_info(const heap_profile *h);

/* ---- output ----------------------------------------------------------- */

typedef enum heap_format {
    HEAP_FORMAT_HP,         /* GHC's .hp file */
    HEAP_FORMAT_CSV,        /* census,time_s,band,bytes: one row per census per band */
    HEAP_FORMAT_JSON,       /* the same rows as JSON, with the run's description */
} heap_format;

/* A streaming writer: pass heap_writer_census and the writer to
 * heap_create(); each census is written when it is complete. */
typedef struct heap_writer heap_writer;

EVPROF_API heap_writer *heap_writer_create(heap_format f, FILE *out);
EVPROF_API void heap_writer_destroy(heap_writer *w);   /* accepts NULL; writes nothing */
/* A heap_census_fn; ctx is the heap_writer. */
EVPROF_API int heap_writer_census(void *ctx, const heap_profile *h, const heap_census *c);
/* After heap_finish(): the rest of the file (the .hp's header if no census
 * came, its closing empty sample; the JSON's end). Returns 0, or -1 on a
 * write error (also for one during the censuses). */
EVPROF_API int heap_writer_finish(heap_writer *w, const heap_profile *h);

typedef struct heap_summary_opts {
    size_t top;                 /* at most this many bands; 0: all */
    const char *source_name;    /* the log's name for the title, or NULL */
} heap_summary_opts;

EVPROF_API void heap_summary_opts_init(heap_summary_opts *o);   /* top 20 */

/* The bands, largest peak first: peak bytes, its time, mean bytes, share
 * of the census total at the peak. Returns 0, or -1 on a write error. */
EVPROF_API int heap_summary_text(const heap_profile *h, const heap_summary_opts *o, FILE *out);

/* The bands present in some census handed out, ordered as the summary
 * lists them (peak descending, then name): a malloc'd array of *n band
 * indices, or NULL without memory. */
EVPROF_API uint32_t *heap_bands_by_peak(const heap_profile *h, size_t *n);

#ifdef __cplusplus
}
#endif
#endif
