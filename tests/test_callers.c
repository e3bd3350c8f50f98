/* Callers and callees (prof_callers, `evprof report --callers`): on random
 * logs written with the project's writer (random stacks with recursion,
 * cost centres that share a module and label: at one source location one
 * cost centre as far as any view can tell, at two namesakes, each a group
 * of its own; GHC's built-in stacks), the
 * figures equal a brute-force count over the samples themselves, not over
 * the tree: per matched group the samples through it, ending in it, and
 * per call into or out of it the samples through that call, each sample
 * once however often it passes there. The CLI's text says the same. */
#define _GNU_SOURCE /* open_memstream */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "evprof/prof.h"
#include "evprof/writer.h"
#include "profiles.h"

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

#define MAX_CC 24
#define MAX_DEPTH 40
#define MAX_SAMPLES 3000

typedef struct world {
    int ncc;                        /* ids 2 .. ncc + 1; 1 is MAIN, ncc + 2 is GC */
    char label[MAX_CC + 3][16], module[MAX_CC + 3][16], src[MAX_CC + 3][24];
    int group[MAX_CC + 3];          /* by module, label and source location; MAIN
                                       and GC included */
    int ngroups;
    uint32_t stack[MAX_SAMPLES][MAX_DEPTH];     /* outermost first, ids */
    int depth[MAX_SAMPLES];
    int nsamples;
} world;

/* Random cost centres (a few share a module and label, at one of two
 * source locations), random stacks drawn as walks with recursion, some
 * MAIN-only and GC samples. */
static void make_world(world *w)
{
    memset(w, 0, sizeof *w);
    w->ncc = 3 + (int)rnd(MAX_CC - 3);
    strcpy(w->label[1], "MAIN");
    strcpy(w->module[1], "MAIN");
    strcpy(w->src[1], "<built-in>");
    for (int i = 2; i < w->ncc + 2; i++) {
        snprintf(w->label[i], sizeof w->label[i], "f%u", rnd(8));
        snprintf(w->module[i], sizeof w->module[i], "M%u", rnd(3));
        snprintf(w->src[i], sizeof w->src[i], "m.hs:%u:1", 1 + rnd(2));
    }
    int gc = w->ncc + 2;
    strcpy(w->label[gc], "GC");
    strcpy(w->module[gc], "GC");
    strcpy(w->src[gc], "<built-in>");
    for (int i = 1; i <= gc; i++) {
        w->group[i] = -1;
        for (int j = 1; j < i && w->group[i] < 0; j++)
            if (!strcmp(w->label[i], w->label[j]) && !strcmp(w->module[i], w->module[j]) &&
                !strcmp(w->src[i], w->src[j]))
                w->group[i] = w->group[j];
        if (w->group[i] < 0)
            w->group[i] = w->ngroups++;
    }
    w->nsamples = 50 + (int)rnd(MAX_SAMPLES - 50);
    for (int s = 0; s < w->nsamples; s++) {
        uint32_t r = rnd(100);
        if (r < 3) {
            w->depth[s] = 0;                            /* in MAIN itself */
        } else if (r < 8) {
            w->depth[s] = 1;
            w->stack[s][0] = (uint32_t)gc;              /* a built-in stack */
        } else if (r < 40 && s > 0 && w->depth[s - 1] > 0) {
            /* the previous stack, one frame more or less (a repeated path) */
            w->depth[s] = w->depth[s - 1];
            memcpy(w->stack[s], w->stack[s - 1], sizeof w->stack[s]);
            if (w->depth[s] > 1 && rnd(2))
                w->depth[s]--;
            else if (w->depth[s] < MAX_DEPTH)
                w->stack[s][w->depth[s]++] = 2 + rnd((uint32_t)w->ncc);
        } else {
            w->depth[s] = 1 + (int)rnd(MAX_DEPTH);
            for (int k = 0; k < w->depth[s]; k++)
                w->stack[s][k] = 2 + rnd((uint32_t)w->ncc);
        }
    }
}

static uint8_t *write_world(const world *w, size_t *len)
{
    el_writer *wr = el_writer_create_mem();
    assert_non_null(wr);
    el_writer_declare_ghc(wr, EL_GHC_9_0);
    el_writer_prof_begin(wr, 0, 1000000);
    for (int i = 1; i <= w->ncc + 2; i++)
        el_writer_cost_centre(wr, 0, (uint32_t)i, w->label[i], w->module[i], w->src[i], 0);
    for (int s = 0; s < w->nsamples; s++) {
        uint32_t inner[MAX_DEPTH];
        for (int k = 0; k < w->depth[s]; k++)
            inner[k] = w->stack[s][w->depth[s] - 1 - k];
        el_writer_prof_sample(wr, 1000 + 1000u * (uint64_t)s, 0, (uint64_t)s + 1,
                              (uint8_t)w->depth[s], inner);
    }
    assert_int_equal(el_writer_finish(wr), EV_OK);
    const uint8_t *b = el_writer_borrow_bytes(wr, len);
    uint8_t *copy = malloc(*len);
    assert_non_null(copy);
    memcpy(copy, b, *len);
    el_writer_destroy(wr);
    return copy;
}

/* The brute force: per sample, its path of groups from MAIN down. */
typedef struct expect {
    uint64_t total;
    uint64_t inh[MAX_CC + 3], self[MAX_CC + 3];
    uint64_t edge[MAX_CC + 3][MAX_CC + 3];      /* caller group, callee group */
    uint8_t matched[MAX_CC + 3];                /* by group */
} expect;

static void count(const world *w, const char *pattern, int all, expect *x)
{
    memset(x, 0, sizeof *x);
    regex_t re;
    assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    for (int i = 1; i <= w->ncc + 2; i++) {
        char name[40];
        snprintf(name, sizeof name, "%s.%s", w->module[i], w->label[i]);
        if (regexec(&re, name, 0, NULL, 0) == 0)
            x->matched[w->group[i]] = 1;
    }
    regfree(&re);
    for (int s = 0; s < w->nsamples; s++) {
        if (!all && w->depth[s] == 1 && w->stack[s][0] == (uint32_t)w->ncc + 2)
            continue;                   /* MAIN/GC: not counted, as GHC's -p */
        x->total++;
        int path[MAX_DEPTH + 1], n = 0;
        path[n++] = w->group[1];
        for (int k = 0; k < w->depth[s]; k++)
            path[n++] = w->group[w->stack[s][k]];
        uint8_t seen[MAX_CC + 3] = { 0 }, eseen[MAX_CC + 3][MAX_CC + 3];
        memset(eseen, 0, sizeof eseen);
        for (int k = 0; k < n; k++) {
            int g = path[k];
            if (x->matched[g] && !seen[g]++)
                x->inh[g]++;
            if (k > 0 && (x->matched[g] || x->matched[path[k - 1]]) && !eseen[path[k - 1]][g]++)
                x->edge[path[k - 1]][g]++;
        }
        if (x->matched[path[n - 1]])
            x->self[path[n - 1]]++;
    }
}

/* The group of a cost centre by its module, label and source location
 * (src NULL: any, and then the name must be one group's: no namesakes);
 * -1 when none. */
static int group_named(const world *w, const char *module, const char *label, const char *src)
{
    int g = -1;
    for (int i = 1; i <= w->ncc + 2; i++) {
        if (strcmp(label, w->label[i]) || strcmp(module, w->module[i]) ||
            (src && strcmp(src, w->src[i])))
            continue;
        if (g >= 0 && g != w->group[i])
            fail_msg("%s.%s names two groups: namesakes shown without their source location",
                     module, label);
        g = w->group[i];
    }
    return g;
}

/* The group of a result's cost centre, by its name and place. */
static int group_of(const world *w, const prof_result *r, uint32_t cc)
{
    const prof_cc *c = prof_cc_at(r, cc);
    int g = group_named(w, c->module, c->label, c->srcloc);
    if (g < 0)
        fail_msg("cost centre %s.%s is not the world's", c->module, c->label);
    return g;
}

static void check_result(const world *w, const prof_result *r, const prof_callers_of *p,
                         size_t n, const expect *x)
{
    /* every matched group with ticks, each once */
    size_t want = 0;
    for (int g = 0; g < w->ngroups; g++)
        want += x->matched[g] && x->inh[g] > 0;
    assert_int_equal(n, want);
    for (size_t i = 0; i < n; i++) {
        int g = group_of(w, r, p[i].cc);
        assert_true(x->matched[g]);
        assert_int_equal(p[i].inherited, x->inh[g]);
        assert_int_equal(p[i].self, x->self[g]);
        if (i > 0)
            assert_true(p[i - 1].inherited >= p[i].inherited);
        size_t nc = 0, ne = 0;
        for (int h = 0; h < w->ngroups; h++) {
            nc += x->edge[h][g] > 0;
            ne += x->edge[g][h] > 0;
        }
        assert_int_equal(p[i].num_callers, nc);
        assert_int_equal(p[i].num_callees, ne);
        uint8_t once[MAX_CC + 3] = { 0 };
        for (size_t k = 0; k < p[i].num_callers; k++) {
            int h = group_of(w, r, p[i].callers[k].cc);
            assert_false(once[h]++);
            assert_int_equal(p[i].callers[k].ticks, x->edge[h][g]);
            if (k > 0)
                assert_true(p[i].callers[k - 1].ticks >= p[i].callers[k].ticks);
        }
        memset(once, 0, sizeof once);
        for (size_t k = 0; k < p[i].num_callees; k++) {
            int h = group_of(w, r, p[i].callees[k].cc);
            assert_false(once[h]++);
            assert_int_equal(p[i].callees[k].ticks, x->edge[g][h]);
        }
    }
}

static const char *const patterns[] = { "f1", "^M0\\.", "f[0-3]$", ".", "^MAIN\\.MAIN$",
                                        "M2\\.f[4-7]", "GC" };

static void test_random_logs(void **state)
{
    (void)state;
    static world w;
    for (int round = 0; round < 60; round++) {
        rng = 0x5eed0000u + (uint64_t)round;
        make_world(&w);
        size_t len;
        uint8_t *log = write_world(&w, &len);
        for (int all = 0; all < 2; all++) {
            prof_filter f;
            prof_filter_init(&f);
            f.all = all;
            prof_result *r = test_profile_mem(log, len, &f);
            assert_non_null(r);
            for (size_t q = 0; q < sizeof patterns / sizeof patterns[0]; q++) {
                static expect x;
                count(&w, patterns[q], all, &x);
                assert_int_equal(prof_get_info(r)->total_ticks, x.total);
                prof_callers_of *p;
                size_t n;
                ev_error err;
                assert_int_equal(prof_callers(r, patterns[q], &p, &n, &err), EV_OK);
                check_result(&w, r, p, n, &x);
                prof_callers_free(p, n);
            }
            prof_result_destroy(r);
        }
        free(log);
    }
}

/* A hand-made case with a known answer: MAIN/a/b/a/b/c twice, MAIN/a/c
 * once: a's callees b (2 samples, once each however often a calls b)
 * and c (1); b's callers a (2), its callees a (2) and c (2). */
static void test_known(void **state)
{
    (void)state;
    el_writer *wr = el_writer_create_mem();
    el_writer_declare_ghc(wr, EL_GHC_9_0);
    el_writer_cost_centre(wr, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(wr, 0, 2, "a", "M", "m.hs:1:1", 0);
    el_writer_cost_centre(wr, 0, 3, "b", "M", "m.hs:2:1", 0);
    el_writer_cost_centre(wr, 0, 4, "c", "M", "m.hs:3:1", 0);
    const uint32_t s1[] = { 4, 3, 2, 3, 2 }, s2[] = { 4, 2 };
    el_writer_prof_sample(wr, 10, 0, 1, 5, s1);
    el_writer_prof_sample(wr, 20, 0, 2, 5, s1);
    el_writer_prof_sample(wr, 30, 0, 3, 2, s2);
    assert_int_equal(el_writer_finish(wr), EV_OK);
    size_t len;
    const uint8_t *b = el_writer_borrow_bytes(wr, &len);
    prof_result *r = test_profile_mem(b, len, NULL);
    el_writer_destroy(wr);
    prof_callers_of *p;
    size_t n;
    ev_error err;
    assert_int_equal(prof_callers(r, "^M\\.[ab]$", &p, &n, &err), EV_OK);
    assert_int_equal(err.status, EV_OK);
    assert_int_equal(n, 2);
    assert_string_equal(prof_cc_at(r, p[0].cc)->label, "a");
    assert_int_equal(p[0].inherited, 3);
    assert_int_equal(p[0].self, 0);
    assert_int_equal(p[0].num_callers, 2);         /* MAIN (3), b (2) */
    assert_string_equal(prof_cc_at(r, p[0].callers[0].cc)->label, "MAIN");
    assert_int_equal(p[0].callers[0].ticks, 3);
    assert_int_equal(p[0].callers[1].ticks, 2);
    assert_int_equal(p[0].num_callees, 2);         /* b (2), c (1) */
    assert_string_equal(prof_cc_at(r, p[0].callees[0].cc)->label, "b");
    assert_int_equal(p[0].callees[0].ticks, 2);
    assert_int_equal(p[0].callees[1].ticks, 1);
    assert_string_equal(prof_cc_at(r, p[1].cc)->label, "b");
    assert_int_equal(p[1].inherited, 2);
    assert_int_equal(p[1].num_callers, 1);
    assert_int_equal(p[1].num_callees, 2);         /* a (2), c (2): a tie, by name */
    assert_string_equal(prof_cc_at(r, p[1].callees[0].cc)->label, "a");
    assert_string_equal(prof_cc_at(r, p[1].callees[1].cc)->label, "c");
    prof_callers_free(p, n);
    /* a pattern that does not compile: the status and its detail, or
     * the status alone */
    assert_int_equal(prof_callers(r, "(", &p, &n, &err), EV_ERR_PATTERN);
    assert_int_equal(err.status, EV_ERR_PATTERN);
    assert_int_equal(strncmp(err.msg, "'(': ", 5), 0);
    assert_true(err.offset == EV_NO_OFFSET && err.type == -1);
    assert_int_equal(prof_callers(r, "(", &p, &n, NULL), EV_ERR_PATTERN);
    prof_result_destroy(r);
}

/* The CLI's text on a random log: every block's figures are the brute
 * force's, read back from `evprof report --callers`. */
static void test_cli_text(void **state)
{
    (void)state;
    static world w;
    rng = 77;
    make_world(&w);
    size_t len;
    uint8_t *log = write_world(&w, &len);
    char path[] = "/tmp/evprof-callers-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, log, len), (ssize_t)len);
    close(fd);
    const char *pattern = "f[0-4]";
    static expect x;
    count(&w, pattern, 0, &x);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s report --callers '%s' %s", EVPROF_BIN, pattern, path);
    FILE *pp = popen(cmd, "r");
    assert_non_null(pp);
    char line[512];
    int blocks = 0, section = 0, g = -1;
    uint64_t rows_seen = 0, rows_want = 0;
    int namesakes = 0;
    while (fgets(line, sizeof line, pp)) {
        char mod[32], lab[32], src[32];
        unsigned long long a, b;
        double pa, pb;
        int k;
        /* a block: "M0.f3  m.hs:2:1", its source location always */
        if (sscanf(line, "%31[^ .].%31s %31s", mod, lab, src) == 3 && line[0] != ' ' &&
            strstr(line, "ticks in all") == NULL && strncmp(line, "Ticks", 5) &&
            strncmp(line, "a stack", 7)) {
            g = group_named(&w, mod, lab, src);
            assert_true(g >= 0);
            blocks++;
            section = 0;
        } else if (sscanf(line, "  inherited %llu ticks (%lf%%), individual %llu (%lf%%)", &a,
                          &pa, &b, &pb) == 4) {
            assert_int_equal(a, x.inh[g]);
            assert_int_equal(b, x.self[g]);
        } else if (strstr(line, "  callers\n") || strstr(line, "  callees\n")) {
            section = strstr(line, "callers") ? 1 : 2;
            for (int h = 0; h < w.ngroups; h++)
                rows_want += (section == 1 ? x.edge[h][g] : x.edge[g][h]) > 0;
        } else if (sscanf(line, " %llu %lf %31[^.].%31s%n", &a, &pa, mod, lab, &k) == 4) {
            /* a row: "M0.f3", or a namesake's "M0.f3 (m.hs:2:1)" */
            int with_src = sscanf(line + k, " (%31[^)])", src) == 1;
            namesakes += with_src;
            int h = group_named(&w, mod, lab, with_src ? src : NULL);
            assert_true(h >= 0 && section);
            assert_int_equal(a, section == 1 ? x.edge[h][g] : x.edge[g][h]);
            rows_seen++;
        }
    }
    assert_int_equal(pclose(pp), 0);
    int want = 0;
    for (int i = 0; i < w.ngroups; i++)
        want += x.matched[i] && x.inh[i] > 0;
    assert_true(want > 0);
    assert_int_equal(blocks, want);
    assert_int_equal(rows_seen, rows_want);
    assert_true(rows_seen > 2);
    assert_true(namesakes > 0);         /* the seed makes some */
    unlink(path);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_random_logs),
        cmocka_unit_test(test_cli_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
