/* A stand-in for a GHC program built without -finfo-table-map in its
 * libraries (tests/cli/exe_syms.sh, tests/test_heap_exe.c): its symbol
 * table has "info tables" named as GHC names them (Z-encoded, NAME_info),
 * and run as
 *
 *     fake_ghc OUT.eventlog [MODE]
 *
 * it writes the eventlog of an -hi run of itself: IPE entries for two of
 * Main's tables, and censuses whose band addresses are its own tables'
 * addresses less sizeof(StgInfoTable), as GHC's -hi writes them. Built
 * without PIE, so that an address is the symbol's value. MODE:
 *   prof      the profiled RTS's 32-byte struct (the default)
 *   plain     the plain RTS's 16 bytes
 *   shifted   the band addresses 8 to 24 bytes off, each by its own
 *             amount (another build: its tables laid out otherwise)
 *   bad-ipe   Main.Add's IPE entry at Main.Mul's table (another build)
 *   late-ipe  an IPE entry for stg_STACK_info after the first census
 */
#include <stdio.h>
#include <string.h>

#include "evprof/writer.h"

#define TABLE(name) __attribute__((used, aligned(16))) char name[64] = #name

TABLE(ghczmprim_GHCziTypes_ZC_con_info);
TABLE(base_GHCziMaybe_Just_con_info);
TABLE(containerszm0zi6zi7_DataziMapziInternal_Bin_con_info);
TABLE(base_GHCziShow_zdfShowZLz2cUZR_info);
TABLE(Main_Add_con_info);
TABLE(Main_Mul_con_info);
TABLE(Main_zdwgo_info);
TABLE(ZCMain_main_info);
TABLE(stg_STACK_info);
TABLE(stg_ARR_WORDS_info);
/* a table without a symbol (GHC's module-local closures have none) */
static __attribute__((used, aligned(16))) char local_tables[128];

#define MS 1000000ull

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fake_ghc OUT.eventlog [prof|plain|shifted|bad-ipe]\n");
        return 2;
    }
    const char *mode = argc > 2 ? argv[2] : "prof";
    uint64_t struct_size = strcmp(mode, "plain") == 0 ? 16 : 32;
    int shifted = strcmp(mode, "shifted") == 0;
    unsigned k = 0;
#define AT(sym) ((uint64_t)(uintptr_t)(sym) - struct_size)
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    el_writer *w = el_writer_create_file(f);
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_begin_data(w);
    const char *args[] = { argv[0], "+RTS", "-hi", "-l", "-RTS" };
    el_writer_rts_identifier(w, 0, 0, struct_size == 32 ? "GHC-9.6.6 rts_p" : "GHC-9.6.6 rts");
    el_writer_program_args(w, 0, 0, 5, args);
    el_writer_heap_prof_begin(w, 1, 0, 100 * MS, 8, NULL);
    el_ipe_fields add = { AT(strcmp(mode, "bad-ipe") == 0 ? Main_Mul_con_info : Main_Add_con_info),
                          "Add_con_info", "2", "Expr", "Add", "Main", "Parse.hs:10:5" };
    el_ipe_fields go = { AT(Main_zdwgo_info), "$wgo_info", "8", "Int -> Int", "$wgo", "Main",
                         "Parse.hs:20:1-30" };
    el_ipe_fields sat = { AT(local_tables + 64), "sat_s1_info", "15", "Int", "go", "Main",
                          "Parse.hs:21:3" };
    el_writer_ipe(w, 2, &add, +1);
    el_writer_ipe(w, 3, &go, +1);
    el_writer_ipe(w, 4, &sat, +1);
    char label[32];
#define SAMPLE(t, addr, bytes)                                                              \
    do {                                                                                     \
        snprintf(label, sizeof label, "0x%llx",                                              \
                 (unsigned long long)((addr) + (shifted ? 8 * (1 + k++ % 3) : 0)));          \
        el_writer_heap_sample_string(w, t, 0, bytes, label);                                 \
    } while (0)
    /* first census: what the executable is checked on */
    el_writer_heap_sample_begin(w, 100 * MS, 0);
    SAMPLE(100 * MS, AT(ghczmprim_GHCziTypes_ZC_con_info), 800000);
    SAMPLE(100 * MS, AT(stg_STACK_info), 40000);
    SAMPLE(100 * MS, AT(Main_Add_con_info), 30000);
    SAMPLE(100 * MS, AT(local_tables + 64), 20000);
    SAMPLE(100 * MS, AT(local_tables), 1000);
    SAMPLE(100 * MS, AT(base_GHCziMaybe_Just_con_info), 640);
    SAMPLE(100 * MS, AT(stg_ARR_WORDS_info), 320);
    el_writer_heap_sample_end(w, 100 * MS, 0);
    if (strcmp(mode, "late-ipe") == 0) {
        el_ipe_fields stack = { AT(stg_STACK_info), "stg_STACK_info", "53", "", "", "RTS", "" };
        el_writer_ipe(w, 150 * MS, &stack, +1);
    }
    /* a later one: bands first seen after the check */
    el_writer_heap_sample_begin(w, 200 * MS, 0);
    SAMPLE(200 * MS, AT(ghczmprim_GHCziTypes_ZC_con_info), 900000);
    SAMPLE(200 * MS, AT(containerszm0zi6zi7_DataziMapziInternal_Bin_con_info), 5000);
    SAMPLE(200 * MS, AT(base_GHCziShow_zdfShowZLz2cUZR_info), 48);
    SAMPLE(200 * MS, AT(ZCMain_main_info), 16);
    SAMPLE(200 * MS, AT(Main_zdwgo_info), 32);
    el_writer_heap_sample_end(w, 200 * MS, 0);
    el_writer_finish(w);
    int bad = el_writer_error(w) != EV_OK;
    el_writer_destroy(w);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "fake_ghc: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
