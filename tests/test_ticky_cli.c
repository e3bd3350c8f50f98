/* `evprof ticky` on logs written here with the writer: damaged logs (a
 * sample shorter than 32 bytes, a definition whose string does not end)
 * fail with exit 1 and the offset and type of the bad record, after the
 * table of what came before; a small log's CSV table and series are
 * exactly as constructed, from a file and from standard input. */
#define _GNU_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/eventlog.h"
#include "evprof/writer.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/evprof-ticky-test-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void save(el_writer *w, const char *name)
{
    assert_int_equal(el_writer_error(w), EV_OK);
    size_t len;
    const uint8_t *b = el_writer_borrow_bytes(w, &len);
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

typedef struct run {
    int code;
    char *out, *err;
} run;

/* `evprof ticky ARGS` with ARGS a shell fragment; FILE names in it are
 * relative to the test's directory. */
static run evprof(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s ticky %s >out 2>err", dir, EVPROF_BIN, args);
    int st = system(cmd);
    run r;
    assert_true(WIFEXITED(st));
    r.code = WEXITSTATUS(st);
    char path[256];
    size_t n;
    snprintf(path, sizeof path, "%s/out", dir);
    uint8_t *o = test_read_file(path, &n);
    r.out = realloc(o, n + 1);
    r.out[n] = '\0';
    snprintf(path, sizeof path, "%s/err", dir);
    uint8_t *e = test_read_file(path, &n);
    r.err = realloc(e, n + 1);
    r.err[n] = '\0';
    return r;
}

static void run_free(run *r)
{
    free(r->out);
    free(r->err);
}

static void expect_damage(const char *file, uint64_t bad_at, int type, const char *what,
                          const char *shown)
{
    char args[256], where[64], ty[64];
    snprintf(args, sizeof args, "%s", file);
    run r = evprof(args);
    assert_int_equal(r.code, 1);
    snprintf(where, sizeof where, "at byte %llu", (unsigned long long)bad_at);
    snprintf(ty, sizeof ty, "(event type %d %s)", type, el_type_name((uint16_t)type));
    if (!strstr(r.err, where) || !strstr(r.err, ty) || !strstr(r.err, what))
        fail_msg("stderr lacks '%s', '%s' or '%s':\n%s", where, ty, what, r.err);
    if (!strstr(r.out, shown))
        fail_msg("the table lacks '%s':\n%s", shown, r.out);
    run_free(&r);
}

static void test_short_sample(void **state)
{
    (void)state;
    for (int block = 0; block <= 1; block++) {
        el_writer *w = el_writer_create_mem();
        el_writer_declare_type(w, EL_TICKY_COUNTER_SAMPLE, EL_WRITER_VARIABLE, "samples");
        el_writer_declare_ghc(w, EL_GHC_9_2);
        el_writer_ticky_def(w, 10, EL_TICKY_DEF_BASIC, 1, 1, "i", "before{v r1} (fun)", 0, NULL);
        if (block)
            el_writer_begin_block(w, 0, 100);
        el_writer_ticky_begin(w, 100);
        uint8_t p[32] = { 0 };
        p[7] = 1;       /* id 1 */
        p[15] = 42;     /* 42 entries */
        el_writer_event(w, EL_TICKY_COUNTER_SAMPLE, 101, p, 32);
        uint64_t bad_at = el_writer_offset(w);
        el_writer_event(w, EL_TICKY_COUNTER_SAMPLE, 102, p, 20);
        if (block)
            el_writer_end_block(w, 102);
        el_writer_finish(w);
        save(w, "short.eventlog");
        el_writer_destroy(w);
        expect_damage("short.eventlog", bad_at, EL_TICKY_COUNTER_SAMPLE,
                      "payload of 20 bytes is too short",
                      "         42          0          0   1 i                    "
                      "before{v r1} (fun)\n");
    }
}

static void test_broken_definition(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_ticky_begin(w, 100);
    el_writer_ticky_sample(w, 101, 7, 3, 48, 0);
    el_writer_ticky_def(w, 200, EL_TICKY_DEF_INFO_TBL, 7, 0, "", "seven", 0x1234, NULL);
    el_payload pl;
    el_payload_init(&pl);
    el_payload_u64(&pl, 8);
    el_payload_u16(&pl, 0);
    el_payload_str(&pl, "");
    el_payload_text(&pl, "eight, without its NUL");
    uint64_t bad_at = el_writer_offset(w);
    el_writer_event_payload(w, EL_TICKY_COUNTER_DEF, 300, &pl);
    el_payload_free(&pl);
    el_writer_finish(w);
    save(w, "def.eventlog");
    el_writer_destroy(w);
    expect_damage("def.eventlog", bad_at, EL_TICKY_COUNTER_DEF, "not terminated",
                  "          3         48          0   0                      seven\n");
}

/* A small log: two batches, a definition before and one after the
 * samples, a counter never defined, names that need CSV quoting. */
static void write_small(void)
{
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_ticky_def(w, 1, EL_TICKY_DEF_JSON, 100, 2, "", "Main.f{v r1} (fun)", 0x4010,
                        "{\"type\":\"entCntr\",\"args\":\"pi\"}");
    el_writer_begin_block(w, 0, 1000000);
    el_writer_ticky_begin(w, 1000000);
    el_writer_ticky_sample(w, 1000001, 100, 10, 100, 0);
    el_writer_ticky_sample(w, 1000002, 200, 20, 200, 5);
    el_writer_ticky_sample(w, 1000003, 300, 1, 0, 0);
    el_writer_end_block(w, 1000003);
    el_writer_ticky_begin(w, 101000000);
    el_writer_ticky_sample(w, 101000001, 200, 2, 16, 0);
    el_writer_ticky_def(w, 201000000, EL_TICKY_DEF_BASIC, 200, 1, "L",
                        "g, \"quoted\"{v r2} (fun)", 0, NULL);
    el_writer_finish(w);
    save(w, "small.eventlog");
    el_writer_destroy(w);
}

static void test_small_exact(void **state)
{
    (void)state;
    write_small();
    run r = evprof("-f csv small.eventlog");
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out,
        "name,entries,alloc,allocd,arity,kinds,id,info_table,defined,samples,description,"
        "counted_until_ns,run_end_ns\n"
        "\"g, \"\"quoted\"\"{v r2} (fun)\",22,216,5,1,L,200,,true,2,,101000001,201000000\n"
        "Main.f{v r1} (fun),10,100,0,2,pi,100,0x4010,true,1,"
        "\"{\"\"type\"\":\"\"entCntr\"\",\"\"args\"\":\"\"pi\"\"}\",101000001,201000000\n"
        "<undefined ticky counter 300>,1,0,0,0,,300,,false,1,,101000001,201000000\n");
    /* no thread events: the run ends at the log's last event (the
     * definition at exit), 100 ms after the last sample */
    assert_non_null(strstr(r.err, "warning: the counts stop at 0.101000 s, GHC's last ticky "
                              "sample; the log goes on to 0.201000 s (no thread events"));
    assert_non_null(strstr(r.err, "warning: 1 ticky counter is sampled but never defined"));
    run_free(&r);

    static const char series[] =
        "time_ns,counter,entries,alloc,allocd\n"
        "1000000,\"g, \"\"quoted\"\"{v r2} (fun)\",20,200,5\n"
        "1000000,Main.f{v r1} (fun),10,100,0\n"
        "1000000,<undefined ticky counter 300>,1,0,0\n"
        "101000000,\"g, \"\"quoted\"\"{v r2} (fun)\",2,16,0\n";
    r = evprof("--series -f csv small.eventlog");
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out, series);
    run_free(&r);
    r = evprof("--series -f csv - < small.eventlog");
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out, series);
    run_free(&r);
    r = evprof("--series --cumulative -f csv --match quoted small.eventlog");
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out,
        "time_ns,counter,entries,alloc,allocd\n"
        "1000000,\"g, \"\"quoted\"\"{v r2} (fun)\",20,200,5\n"
        "101000000,\"g, \"\"quoted\"\"{v r2} (fun)\",22,216,5\n");
    run_free(&r);
    r = evprof("--series --to 0.1 small.eventlog");
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out,
        "      Time (s)    Entries      Alloc    Alloc'd  STG Name\n"
        "--------------------------------------------------------------------------------\n"
        "      0.001000         20        200          5  g, \"quoted\"{v r2} (fun)\n"
        "      0.001000         10        100          0  Main.f{v r1} (fun)\n"
        "      0.001000          1          0          0  <undefined ticky counter 300>\n");
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_sample),
        cmocka_unit_test(test_broken_definition),
        cmocka_unit_test(test_small_exact),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
