/* The executable's symbols for -hi bands (heap/exe.c): GHC's Z-decoding,
 * the titles, reading the ELF symbol tables (and hostile or truncated
 * files), and the check that a file is the run's program, on
 * tests/exe/fake_ghc.c (a program with GHC-like info-table symbols that
 * writes an -hi log of itself; its path comes in $EVPROF_FAKE_GHC, and
 * as a PIE in $EVPROF_FAKE_GHC_PIE). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <elf.h>

#include "evprof/budget.h"
#include "evprof/heap.h"
#include "heap/internal.h"

/* ---- Z-decoding and titles -------------------------------------------- */

static void decodes(const char *enc, const char *want)
{
    char out[256];
    long n = heap_exe_zdecode(enc, strlen(enc), out, sizeof out);
    if (!want) {
        if (n >= 0)
            fail_msg("'%s' decoded as '%.*s', not refused", enc, (int)n, out);
        return;
    }
    if (n < 0)
        fail_msg("'%s' refused, want '%s'", enc, want);
    out[n] = '\0';
    assert_string_equal(out, want);
}

static void test_zdecode(void **state)
{
    (void)state;
    /* GHC's table (compiler/GHC/Utils/Encoding.hs) */
    decodes("Trak", "Trak");
    decodes("foozuwib", "foo_wib");
    decodes("zg", ">");
    decodes("zg1", ">1");
    decodes("foozhzh1", "foo##1");
    decodes("fooZZ", "fooZ");
    decodes("ZCzp", ":+");
    decodes("Z0T", "()");
    decodes("Z5T", "(,,,,)");
    decodes("Z1H", "(# #)");
    decodes("Z5H", "(#,,,,#)");
    decodes("zdfShowInt", "$fShowInt");
    decodes("GHCziBase", "GHC.Base");
    decodes("ghczmprim", "ghc-prim");
    decodes("ZLz2cUZR", "(,)");
    decodes("ZMZN", "[]");
    decodes("zazbzczdzezgzhzizlzmznzpzqzrzsztzuzvzz", "&|^$=>#.<-!+'\\/*_%z");
    decodes("z3bbU", "\xce\xbb");           /* λ */
    decodes("z1f600U", "\xf0\x9f\x98\x80");
    decodes("z30U9pH", "09pH");             /* a leading digit */
    decodes("zx", "x");                      /* GHC: an unknown pair is its letter */
    /* not Z-encoded */
    decodes("Z1T", NULL);                    /* there is no 1-tuple */
    decodes("Z65T", NULL);                   /* GHC's tuples stop at 64 */
    decodes("abz", NULL);
    decodes("z3bb", NULL);
    decodes("z1fU", NULL);                   /* a control character */
    decodes("z0d800U", NULL);                /* a surrogate */
    decodes("z110000U", NULL);
    decodes("a b", NULL);
    decodes("a\x80", NULL);
    char small[4];
    assert_true(heap_exe_zdecode("Z5T", 3, small, sizeof small) < 0);
}

static void titled(const char *sym, const char *want)
{
    char out[512];
    size_t n = heap_exe_title(sym, out, sizeof out);
    assert_true(n > 0);
    out[n] = '\0';
    assert_string_equal(out, want);
}

static void test_titles(void **state)
{
    (void)state;
    titled("base_GHCziBase_ZC_con_info", "GHC.Base.: (con_info, base, symbol)");
    titled("ghczmprim_GHCziTypes_ZC_con_info", "GHC.Types.: (con_info, ghc-prim, symbol)");
    titled("containerszm0zi6zi7_DataziMapziInternal_Bin_con_info",
           "Data.Map.Internal.Bin (con_info, containers-0.6.7, symbol)");
    titled("base_GHCziShow_zdfShowZLz2cUZR_info", "GHC.Show.$fShow(,) (info, base, symbol)");
    titled("Main_zdfShowExprzuzdcshowsPrec_info",
           "Main.$fShowExpr_$cshowsPrec (info, symbol)");
    titled("ZCMain_main_info", ":Main.main (info, symbol)");
    titled("Main_con_info", "Main.con (info, symbol)");          /* a function named con */
    titled("Main_x_static_info", "Main.x (static_info, symbol)");
    titled("stg_ARR_WORDS_info", "stg_ARR_WORDS_info (rts symbol)");
    titled("__stg_EAGER_BLACKHOLE_info", "__stg_EAGER_BLACKHOLE_info (rts symbol)");
    /* not GHC's form: as it is */
    titled("foo_bar_baz_qux_info", "foo_bar_baz_qux_info (symbol)");
    titled("lower_case_info", "lower_case_info (symbol)");
    titled("Main_bad z_info", "Main_bad z_info (symbol)");
    char out[8];
    assert_int_equal(heap_exe_title("base_GHCziBase_ZC_con_info", out, sizeof out), 0);
}

/* ---- files ----------------------------------------------------------- */

static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(tmpdir, "/tmp/evprof-exe-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static const char *put_file(const char *name, const void *bytes, size_t len)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return path;
}

/* heap_exe_open's error for these bytes: its status, its message holds `msg` */
static void refused(const void *bytes, size_t len, ev_status st, const char *msg)
{
    ev_error err;
    heap_exe *x = heap_exe_open(put_file("bad", bytes, len), NULL, &err);
    assert_null(x);
    assert_int_equal(err.status, st);
    if (!strstr(err.msg, msg))
        fail_msg("message '%s' lacks '%s'", err.msg, msg);
}

static const char *fake(const char *var)
{
    const char *p = getenv(var);
    if (!p || access(p, X_OK) != 0) {
        print_message("SKIPPED: %s not set (run through ctest)\n", var);
        return NULL;
    }
    return p;
}

static void put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void test_hostile_files(void **state)
{
    (void)state;
    ev_error err;
    assert_null(heap_exe_open("/nonexistent/evprof-exe", NULL, &err));
    assert_int_equal(err.status, EV_ERR_IO);
    assert_null(heap_exe_open("/", NULL, &err));
    assert_int_equal(err.status, EV_ERR_FORMAT);
    assert_string_equal(err.msg, "not a regular file");
    refused("", 0, EV_ERR_FORMAT, "not an ELF file");
    refused("#!/bin/sh\necho hi\n", 18, EV_ERR_FORMAT, "not an ELF file");
    refused("\x7f" "ELF\x02\x01", 6, EV_ERR_TRUNCATED, "its ELF header needs 64 bytes");

    unsigned char eh[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
    put16(eh + 16, 2);              /* ET_EXEC */
    put16(eh + 58, 64);             /* e_shentsize */
    refused(eh, sizeof eh, EV_ERR_FORMAT, "no section headers");
    eh[4] = 1;
    refused(eh, sizeof eh, EV_ERR_FORMAT, "64-bit executables (ELFCLASS64) only");
    eh[4] = 2;
    eh[5] = 7;
    refused(eh, sizeof eh, EV_ERR_FORMAT, "unknown byte order");
    eh[5] = 1;
    put16(eh + 16, 1);              /* ET_REL */
    refused(eh, sizeof eh, EV_ERR_FORMAT, "not an executable");
    put16(eh + 16, 2);
    put64(eh + 40, 1u << 20);       /* e_shoff past the end */
    put16(eh + 60, 3);
    refused(eh, sizeof eh, EV_ERR_TRUNCATED, "go past the end of the file");
    put16(eh + 58, 10);             /* e_shentsize too small */
    refused(eh, sizeof eh, EV_ERR_FORMAT, "section headers of 10 bytes");

    /* one section header after the ELF header: a symbol table past the end,
     * then one whose string table is not a section, then no symbol table */
    unsigned char f[64 + 2 * 64] = { 0 };
    memcpy(f, eh, 64);
    put16(f + 58, 64);
    put64(f + 40, 64);
    put16(f + 60, 2);
    unsigned char *sh = f + 128;
    sh[4] = SHT_SYMTAB;
    put64(sh + 24, 1000);           /* sh_offset */
    put64(sh + 32, 24 * 100);       /* sh_size */
    put64(sh + 56, 24);             /* sh_entsize */
    sh[40] = 1;                     /* sh_link */
    refused(f, sizeof f, EV_ERR_TRUNCATED, "a symbol table of 2400 bytes at byte 1000");
    put64(sh + 24, 0);
    put64(sh + 32, 24);
    sh[40] = 9;
    refused(f, sizeof f, EV_ERR_FORMAT, "which is not a section");
    sh[40] = 0;
    put64(sh + 56, 0);
    refused(f, sizeof f, EV_ERR_FORMAT, "has entries of 0 bytes");
    sh[4] = 0;
    refused(f, sizeof f, EV_ERR_FORMAT, "no symbol table");

    const char *path = fake("EVPROF_FAKE_GHC");
    if (!path)
        return;
    size_t len;
    unsigned char *elf = slurp(path, &len);
    heap_exe *x = heap_exe_open(path, NULL, &err);
    assert_non_null(x);
    assert_true(heap_exe_num_symbols(x) >= 10);   /* and C functions named *_info */
    assert_false(heap_exe_pie(x));
    heap_exe_close(x);
    /* charged to the budget, given back; refused past the limit */
    ev_budget *b = ev_budget_create(1u << 30);
    assert_non_null(x = heap_exe_open(path, b, &err));
    assert_true(ev_budget_used(b) >= heap_exe_num_symbols(x) * 12);
    assert_int_equal(ev_budget_used(b), heap_exe_bytes(x));
    heap_exe_close(x);
    assert_int_equal(ev_budget_used(b), 0);
    ev_budget_destroy(b);
    b = ev_budget_create(4096);
    assert_null(heap_exe_open(path, b, &err));
    assert_int_equal(err.status, EV_ERR_LIMIT);
    assert_non_null(strstr(err.msg, "memory limit"));
    assert_int_equal(ev_budget_used(b), 0);
    ev_budget_destroy(b);
    /* cut anywhere: a table or an error, never a read past what was read
     * (AddressSanitizer watches: make asan) */
    size_t ok = 0;
    for (size_t cut = 0; cut < len; cut += cut < 4096 ? 7 : 61) {
        x = heap_exe_open(put_file("cut", elf, cut), NULL, &err);
        if (x) {
            ok++;
            heap_exe_close(x);
        } else {
            assert_true(err.msg[0] != '\0');
        }
    }
    assert_true(ok < 5);    /* the section headers are at the end: cut, they are gone */
    /* bytes changed at random (a fixed seed) */
    unsigned long seed = 12345;
    unsigned char *m = malloc(len);
    assert_non_null(m);
    for (int round = 0; round < 150; round++) {
        memcpy(m, elf, len);
        for (int k = 0; k < 8; k++) {
            seed = seed * 6364136223846793005ul + 1442695040888963407ul;
            size_t at = (seed >> 20) % len;
            /* mostly the headers, where offsets and sizes are */
            if (round % 2)
                at = len - 1 - at % 2048;
            else if (round % 3 == 0)
                at %= 64;
            m[at] = (unsigned char)(seed >> 40);
        }
        x = heap_exe_open(put_file("mutant", m, len), NULL, &err);
        if (x) {
            for (uint64_t a = 0; a < 64; a++)
                (void)heap_exe_symbol(x, a);
            heap_exe_close(x);
        }
    }
    free(m);
    free(elf);
}

/* ---- the heap profile names bands ------------------------------------- */

typedef struct named {
    heap_profile *h;
    el_read_result r;
} named;

static int feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    named *n = ctx;
    ev_stream st;
    memset(&st, 0, sizeof st);
    st.decoder = d;
    return heap_analysis_ops.event(n->h, ev, &st);
}

/* Runs the fake program (mode) into a log in tmpdir, reads the log with
 * `o`; NULL when the program is not there. */
static heap_profile *run_fake(const char *prog, const char *mode, const heap_opts *o)
{
    char log[160], cmd[512];
    snprintf(log, sizeof log, "%s/run.eventlog", tmpdir);
    snprintf(cmd, sizeof cmd, "'%s' '%s' %s", prog, log, mode);
    assert_int_equal(system(cmd), 0);
    named n = { heap_create(o, NULL, NULL), { 0 } };
    assert_non_null(n.h);
    n.r = el_read_path(log, feed, &n, NULL);
    assert_int_equal(heap_finish(n.h, &n.r), EV_OK);
    return n.h;
}

static const heap_band *band_titled(const heap_profile *h, const char *title)
{
    for (uint32_t i = 0; i < heap_num_bands(h); i++)
        if (strcmp(heap_band_at(h, i)->title, title) == 0)
            return heap_band_at(h, i);
    return NULL;
}

static void names_all(const heap_profile *h)
{
    const heap_info *in = heap_get_info(h);
    if (in->exe_state != HEAP_EXE_USED)
        fail_msg("not used: %s", in->exe_why ? in->exe_why : "?");
    /* the first census's and the later one's */
    assert_non_null(band_titled(h, "GHC.Types.: (con_info, ghc-prim, symbol)"));
    assert_non_null(band_titled(h, "stg_STACK_info (rts symbol)"));
    assert_non_null(band_titled(h, "GHC.Maybe.Just (con_info, base, symbol)"));
    assert_non_null(band_titled(h, "Data.Map.Internal.Bin (con_info, containers-0.6.7, "
                                   "symbol)"));
    assert_non_null(band_titled(h, "GHC.Show.$fShow(,) (info, base, symbol)"));
    assert_non_null(band_titled(h, ":Main.main (info, symbol)"));
    /* IPE entries win; a table without a symbol stays an address */
    assert_non_null(band_titled(h, "Add_con_info (CONSTR_1_0 :: Expr, Add, Main, "
                                   "Parse.hs:10:5)"));
    assert_non_null(band_titled(h, "sat_s1_info (THUNK :: Int, go, Main, Parse.hs:21:3)"));
    /* 11 bands, 3 with IPE entries; of the 8 others, all but the local
     * table named by symbols */
    assert_int_equal(heap_num_bands(h), 11);
    assert_int_equal(in->unresolved_ipe, 8);
    assert_int_equal(in->symbol_bands, 7);
}

static void test_names(void **state)
{
    (void)state;
    const char *prog = fake("EVPROF_FAKE_GHC");
    if (!prog)
        return;
    ev_error err;
    heap_exe *x = heap_exe_open(prog, NULL, &err);
    assert_non_null(x);
    heap_opts o;
    heap_opts_init(&o);
    /* not asked: addresses */
    heap_profile *h = run_fake(prog, "prof", &o);
    assert_int_equal(heap_get_info(h)->exe_state, HEAP_EXE_OFF);
    assert_int_equal(heap_get_info(h)->symbol_bands, 0);
    heap_destroy(h);
    /* given; the profiled RTS's struct and the plain one's */
    o.exe.given = x;
    o.exe.given_path = prog;
    h = run_fake(prog, "prof", &o);
    names_all(h);
    assert_int_equal(heap_get_info(h)->exe_delta, 32);
    heap_profile *snap = heap_snapshot(h);
    assert_non_null(snap);
    assert_non_null(band_titled(snap, "stg_STACK_info (rts symbol)"));
    assert_string_equal(heap_get_info(snap)->exe_path, prog);
    heap_destroy(snap);
    heap_destroy(h);
    h = run_fake(prog, "plain", &o);
    names_all(h);
    assert_int_equal(heap_get_info(h)->exe_delta, 16);
    heap_destroy(h);
    /* another build: refused, and why */
    h = run_fake(prog, "shifted", &o);
    const heap_info *in = heap_get_info(h);
    assert_int_equal(in->exe_state, HEAP_EXE_UNUSED);
    assert_int_equal(in->symbol_bands, 0);
    assert_non_null(strstr(in->exe_why, "band addresses of the first census are its info "
                                        "tables: another build"));
    heap_destroy(h);
    h = run_fake(prog, "bad-ipe", &o);
    in = heap_get_info(h);
    assert_int_equal(in->exe_state, HEAP_EXE_UNUSED);
    assert_non_null(strstr(in->exe_why, "IPE entry Add_con_info (module Main) is "
                                        "Main_Mul_con_info: another build"));
    heap_destroy(h);
    /* an IPE entry after the band was named by its symbol wins */
    h = run_fake(prog, "late-ipe", &o);
    in = heap_get_info(h);
    assert_int_equal(in->exe_state, HEAP_EXE_USED);
    assert_non_null(band_titled(h, "stg_STACK_info (STACK, RTS)"));
    assert_null(band_titled(h, "stg_STACK_info (rts symbol)"));
    assert_int_equal(in->unresolved_ipe, 7);
    assert_int_equal(in->symbol_bands, 6);
    heap_destroy(h);
    /* the program the log names: argv[0] as it was run */
    memset(&o.exe, 0, sizeof o.exe);
    o.exe.from_log = 1;
    h = run_fake(prog, "prof", &o);
    names_all(h);
    assert_false(heap_get_info(h)->exe_given);
    assert_string_equal(heap_get_info(h)->exe_path, prog);
    heap_destroy(h);
    /* a relative argv[0] is taken from opts.exe.dir: a folder without it */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp '%s' %s/prog && cd %s && ./prog run.eventlog", prog, tmpdir,
             tmpdir);
    assert_int_equal(system(cmd), 0);
    char log[160];
    snprintf(log, sizeof log, "%s/run.eventlog", tmpdir);
    o.exe.dir = "/nonexistent";
    named n = { heap_create(&o, NULL, NULL), { 0 } };
    n.r = el_read_path(log, feed, &n, NULL);
    heap_finish(n.h, &n.r);
    in = heap_get_info(n.h);
    assert_int_equal(in->exe_state, HEAP_EXE_UNUSED);
    assert_string_equal(in->exe_path, "/nonexistent/prog");
    assert_string_equal(in->exe_why, "it cannot be opened: No such file or directory");
    heap_destroy(n.h);
    o.exe.dir = tmpdir;
    n.h = heap_create(&o, NULL, NULL);
    n.r = el_read_path(log, feed, &n, NULL);
    heap_finish(n.h, &n.r);
    names_all(n.h);
    heap_destroy(n.h);
    heap_exe_close(x);
}

/* A position-independent program: its load address is in no event; the
 * IPE entries of Main, found by name, place it. */
static void test_pie(void **state)
{
    (void)state;
    const char *prog = fake("EVPROF_FAKE_GHC_PIE");
    if (!prog)
        return;
    ev_error err;
    heap_exe *x = heap_exe_open(prog, NULL, &err);
    assert_non_null(x);
    assert_true(heap_exe_pie(x));
    heap_opts o;
    heap_opts_init(&o);
    o.exe.given = x;
    heap_profile *h = run_fake(prog, "prof", &o);
    names_all(h);
    heap_destroy(h);
    /* without IPE entries to place it, nothing does */
    heap_exe_result m;
    uint64_t addrs[] = { 0x1000, 0x2000, 0x3000, 0x4000 };
    heap_exe_match(x, addrs, 4, NULL, 0, &m);
    assert_false(m.ok);
    assert_non_null(strstr(m.why, "position-independent (PIE)"));
    heap_exe_close(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zdecode),
        cmocka_unit_test(test_titles),
        cmocka_unit_test(test_hostile_files),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_pie),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
