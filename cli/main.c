/* evprof: command-line front end. Finds the subcommand and runs it with
 * the run's context (cli/ctx.h), which main owns; only this file exits
 * (by returning from main). */
#include <errno.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

typedef struct command {
    const char *name;
    int (*run)(cli_ctx *c, int argc, char **argv);
    const char *summary;
} command;

/* One line per subcommand, in the order `evprof --help` lists them. A
 * command named "report" becomes the default: `evprof FILE`. */
static const command commands[] = {
    { "report", cmd_report, "the time profile as GHC's .prof report (or -pj JSON)" },
    { "folded", cmd_folded, "folded stacks for flamegraph.pl, inferno and speedscope" },
    { "speedscope", cmd_speedscope, "speedscope JSON: a timeline per capability" },
    { "pprof", cmd_pprof, "pprof profile.proto (.pb.gz) for go tool pprof, Pyroscope" },
    { "html", cmd_html, "one self-contained HTML page with every view of the log" },
    { "graph", cmd_graph, "the call graph of cost centres as SVG, PNG, PDF or DOT" },
    { "ticky", cmd_ticky, "ticky-ticky counters as GHC's +RTS -r table, CSV, JSON, series" },
    { "gc", cmd_gc, "the +RTS -s memory and GC summary, for the run or a window" },
    { "threads", cmd_threads, "each Haskell thread: label, running time, why it stopped" },
    { "heap", cmd_heap, "heap profile: GHC's .hp file or a summary of its bands" },
    { "phases", cmd_phases, "the run cut at its traceMarker marks: ticks, cost centres, GC" },
    { "diff", cmd_diff, "compare two runs: time profile, GC, heap or ticky, with deltas" },
    { "top", cmd_top, "a running program live: top cost centres, memory, GC, heap, ticky" },
    { "metrics", cmd_metrics, "the figures of top as a Prometheus exposition (textfile collector)" },
    { "merge", cmd_merge, "one eventlog from several runs (ghc-events' merge)" },
    { "info", cmd_info, "what the log holds: program, RTS, time span, event counts" },
    { "dump", cmd_dump, "print every event, one per line" },
    { "all", cmd_all, "one read, every output the log supports, into a directory" },
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])
#define DEFAULT_COMMAND "report"

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void print_help(FILE *out)
{
    const command *def = find_command(DEFAULT_COMMAND);
    fprintf(out,
            "Usage: evprof COMMAND [OPTIONS] FILE\n"
            "%s"
            "       evprof --help | --version\n"
            "\n"
            "Turns a GHC eventlog (written by a program run with +RTS -l) into\n"
            "profile reports. FILE may be '-' for standard input.\n"
            "\n"
            "Commands:\n",
            def ? "       evprof [OPTIONS] FILE  (same as: evprof " DEFAULT_COMMAND
                  " [OPTIONS] FILE)\n"
                : "");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "Run 'evprof help COMMAND' or 'evprof COMMAND --help' for its options.\n"
            "Exit status: 0 ok, 1 unreadable or damaged input, 2 usage error.\n");
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("evprof: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nTry 'evprof --help'.\n", stderr);
    va_end(ap);
    return CLI_USAGE;
}

static int help_command(cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2) {
        print_help(stdout);
        return CLI_OK;
    }
    if (argc > 2)
        return usage_error("help takes one command name, got '%s' too", argv[2]);
    const command *c = find_command(argv[1]);
    if (!c)
        return usage_error("unknown command '%s'", argv[1]);
    char help_flag[] = "--help";
    char *args[] = { (char *)c->name, help_flag, NULL };
    return c->run(ctx, 2, args);
}

static int dispatch(cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2) {
        fputs("evprof: missing command or file\n", stderr);
        fputs("Try 'evprof --help'.\n", stderr);
        return CLI_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
        print_help(stdout);
        return CLI_OK;
    }
    if (strcmp(first, "--version") == 0) {
        printf("evprof %s\n", EVPROF_VERSION);
        return CLI_OK;
    }
    if (strcmp(first, "help") == 0)
        return help_command(ctx, argc - 1, argv + 1);
    const command *c = find_command(first);
    if (c)
        return c->run(ctx, argc - 1, argv + 1);
    /* `evprof FILE ...` and `evprof --json FILE`: the default command, if
     * there is one, with every argument; a word that is neither a command
     * nor an existing file is a mistyped command */
    c = find_command(DEFAULT_COMMAND);
    int option = first[0] == '-' && first[1] != '\0';
    if (!c)
        return usage_error(option ? "unknown option '%s'" : "unknown command '%s'", first);
    if (!option && strcmp(first, "-") != 0 && access(first, F_OK) != 0 && errno == ENOENT &&
        !strchr(first, '/') && !strchr(first, '.'))
        return usage_error("'%s' is neither a command nor a file", first);
    char default_name[] = DEFAULT_COMMAND;
    argv[0] = default_name;
    return c->run(ctx, argc, argv);
}

int main(int argc, char **argv)
{
#ifdef M_MMAP_THRESHOLD
    /* Blocks of 1 MiB and more (the aggregates' growing arrays) get pages
     * of their own, returned when freed. glibc otherwise raises this
     * threshold after the first such free, and later arrays grow inside
     * the heap, where each outgrown copy stays resident: after a dropped
     * parallel read that was 50 MB more peak RSS under --memory-limit
     * 256M (302 MB, now 250 MB), and 25 MB more on a 1 GB log at -j 2. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    cli_ctx ctx;
    cli_ctx_init(&ctx);
    int code = dispatch(&ctx, argc, argv);
    /* a report that could not be written is a failed run */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "evprof: standard output: cannot write: %s\n", strerror(errno));
        if (code == CLI_OK)
            code = CLI_FAIL;
    }
    cli_ctx_free(&ctx);
    return code;
}
