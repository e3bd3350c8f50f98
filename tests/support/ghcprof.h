/* Readers of GHC's own time-profile outputs (.prof text, -pj JSON), used
 * as oracles. Written for the tests only; they read what GHC 9.0.2 writes,
 * including its invalid JSON (raw quotes and tabs in labels). */
#ifndef EVPROF_TEST_GHCPROF_H
#define EVPROF_TEST_GHCPROF_H

#include <stddef.h>
#include <stdint.h>

#define GP_MAX_PATH 400

/* One row of GHC's .prof tree, or one node of the -pj tree. */
typedef struct gp_row {
    uint32_t depth;
    char label[256], module[256], src[256];
    uint32_t id;                /* -pj: cost-centre id; .prof: the CCS no. */
    uint64_t ticks;             /* -pj, and the .prof of +RTS -P */
    char ind_time[8], inh_time[8];   /* .prof: the %time columns as printed */
    int32_t parent;             /* row index, -1 for MAIN */
} gp_row;

typedef struct gp_summary_row {
    char label[256], module[256], src[256];
    char time[8];               /* %time as printed */
} gp_summary_row;

typedef struct gp_profile {
    uint64_t total_ticks;       /* "(N ticks @" or "total_ticks" */
    uint32_t interval_us, processors;
    char total_time[32];        /* as printed */
    int32_t initial_caps;       /* -pj "initial_capabilities"; -1: a .prof */
    int prof_ticks;             /* a .prof of +RTS -P: rows have their ticks */
    gp_row *rows;
    size_t nrows;
    gp_summary_row *summary;
    size_t nsummary;
    /* -pj cost centres: id -> label/module/src */
    struct { uint32_t id; char label[256], module[256], src[256]; } *ccs;
    size_t nccs;
} gp_profile;

/* Return 0, or -1 when the file cannot be read or parsed. */
int gp_read_prof(const char *path, gp_profile *out);
int gp_read_json(const char *path, gp_profile *out);
void gp_free(gp_profile *p);

#endif
