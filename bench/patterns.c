/* patterns: the matcher of user patterns (include/evprof/pattern.h)
 * against glibc's regexec (REG_EXTENDED | REG_NOSUB), which --focus used
 * before: CPU time on 200 000 names "Data.ModuleN.Sub.someFunctionN_go"
 * of about 40 bytes for ordinary patterns, then the largest patterns the
 * matcher takes on a 64 KiB name (docs/BENCH.md, "Patterns").
 *
 *     build/bench/patterns [PATTERN...]
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evprof/pattern.h"

enum { NAMES = 200000 };

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char mods[NAMES][32], labels[NAMES][48];

static void ordinary(const char *pattern)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) {
        printf("%-28s glibc refuses it\n", pattern);
        return;
    }
    ev_pattern *p;
    ev_error err;
    if (ev_pattern_compile(&p, pattern, NULL, &err) != EV_OK) {
        printf("%-28s %s\n", pattern, err.msg);
        regfree(&re);
        return;
    }
    char buf[128];
    int g = 0, m = 0;
    double t0 = cpu_s();
    for (int i = 0; i < NAMES; i++) {
        size_t a = strlen(mods[i]), b = strlen(labels[i]);    /* "Module.label" */
        memcpy(buf, mods[i], a);
        buf[a] = '.';
        memcpy(buf + a + 1, labels[i], b + 1);
        g += regexec(&re, buf, 0, NULL, 0) == 0;
    }
    double tg = cpu_s() - t0;
    t0 = cpu_s();
    for (int i = 0; i < NAMES; i++) {
        const char *parts[3] = { mods[i], ".", labels[i] };
        size_t lens[3] = { strlen(mods[i]), 1, strlen(labels[i]) };
        m += ev_pattern_match_parts(p, parts, lens, 3);
    }
    double tm = cpu_s() - t0;
    printf("%-28s glibc %6.1f ms  evprof %6.1f ms  (%d names match%s)\n", pattern, tg * 1e3,
           tm * 1e3, m, m == g ? "" : ", NOT AS GLIBC");
    ev_pattern_destroy(p);
    regfree(&re);
}

static void largest(const char *pattern, const char *text, size_t n)
{
    ev_pattern *p;
    ev_error err;
    double t0 = cpu_s();
    if (ev_pattern_compile(&p, pattern, NULL, &err) != EV_OK) {
        printf("%-28s %s\n", pattern, err.msg);
        return;
    }
    double tc = cpu_s() - t0;
    t0 = cpu_s();
    int m = ev_pattern_match(p, text, n);
    double tm = cpu_s() - t0;
    printf("%-28s compiled in %.3f ms, %zu bytes; 64 KiB matched (%d) in %.3f s\n", pattern,
           tc * 1e3, ev_pattern_bytes(p), m, tm);
    ev_pattern_destroy(p);
}

int main(int argc, char **argv)
{
    static const char *const pats[] = { "fib", "Module1\\.", "^Data\\.Module4[0-9]\\.", "loop",
                                        "go$", "(go|loop)", "[[:digit:]]{3}_",
                                        "Sub\\.some.*9_go$", "^$", ".*" };
    srand(1);
    for (int i = 0; i < NAMES; i++) {
        snprintf(mods[i], sizeof mods[i], "Data.Module%d.Sub", rand() % 500);
        snprintf(labels[i], sizeof labels[i], "someFunction%d_%s", i, i % 3 ? "go" : "loop'");
    }
    printf("%d names of about 40 bytes, CPU time:\n", NAMES);
    if (argc > 1)
        for (int i = 1; i < argc; i++)
            ordinary(argv[i]);
    else
        for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
            ordinary(pats[i]);

    static const char *const big[] = { "((.?){249}){4}y", "(.*){1,255}y",
                                       "(.*){1,249}(.*){1,249}y", "(a|aa)*c" };
    size_t n = 64 << 10;
    char *text = malloc(n);
    if (!text)
        return 1;
    memset(text, 'x', n);
    printf("\nthe largest patterns taken, on a name of 64 KiB of 'x':\n");
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        largest(big[i], text, n);
    free(text);
    return 0;
}
