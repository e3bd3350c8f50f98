/* Output files (-o), written where a shell's `>` would write, but never
 * half and never over what evprof does not own (docs/ARCHITECTURE.md,
 * "Output files"). */
#ifndef EVPROF_CLI_OUTFILE_H
#define EVPROF_CLI_OUTFILE_H

#include <stdio.h>

#include "cli/cli.h"

/* -o FILE, bound to the command's variable. */
#define CLI_OUTPUT_OPT(var)                                                          \
    OPT_STRING('o', "output", "FILE", var, "write to FILE instead of standard output, " \
               "whole or not at all (devices and FIFOs: straight)")

/* An output, opened as a shell's `>` would find it but never half-written:
 * stdout ("-" or NULL); a device, FIFO or socket (also at the end of a
 * symlink): written straight; a regular file or a new path (also at the end
 * of a symlink, which stays): a temp file beside it that is renamed over it
 * on success, with the old file's mode and owner; a regular file with other
 * hard links: the temp file's content copied into it on success. A fatal
 * signal (INT, TERM, HUP, PIPE, XFSZ) removes the temp file. */
typedef struct cli_out {
    FILE *f;
    cli_ctx *ctx;       /* the run's (its signal guard, its names) */
    const char *path;   /* as given (a copy: the caller may reuse its buffer) */
    char *own;          /* that copy */
    char *target;       /* the file the symlinks of path lead to */
    char *tmp;          /* the temp file, or NULL when written straight */
    int in_place;       /* copy tmp into target instead of renaming */
    int quiet;          /* a discarded output is not worth a message */
    char *buf;          /* f's buffer (a temp file's), freed after fclose */
} cli_out;

/* Returns 0, or -1 with a message on stderr. */
int cli_out_open(cli_ctx *c, cli_out *o, const char *path);
/* The name messages give an output path (-o): its display path, or
 * "standard output" for NULL and "-". */
const char *cli_out_name(cli_ctx *c, const char *path);
/* ok: flush, check and publish; !ok: discard (what went straight into a
 * device or FIFO stays). Returns 0, or -1 with a message on stderr (a write
 * error: nothing is published). */
int cli_out_close(cli_out *o, int ok);
/* 1 when the path `output` names the file `input` ("-": standard input)
 * under any name (the same device and inode, through symlinks and hard
 * links); 0 otherwise, also when `output` does not exist yet. The one
 * check of every output against the input: -o (below) and all's files. */
int cli_out_is_input(const char *output, const char *input);
/* 1 after a usage error when `output` (-o) is the file `input` under any
 * name (cli_out_is_input); 0 otherwise. */
int cli_out_same_file(cli_ctx *c, const cli_cmd_help *cmd, const char *output,
                      const char *input);

#endif
