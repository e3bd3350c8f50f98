/* The spool: bytes readable by offset, for what can be read only once
 * (private to the library and its CLI).
 *
 * The one spool of standard input and of live streams: the order stage
 * writes a pipe's records into one as they are read, to replay them in
 * time order after the read (driver/order.h); ticky copies standard input
 * (it peeks at the first bytes, and --series reads twice) and a live read's
 * bytes into one, and reads it again through the driver
 * (ev_driver_run_spool). In memory up to EV_SPOOL_MEM bytes, past that in
 * an unlinked temporary file ($TMPDIR, else /tmp). */
#ifndef EVPROF_DRIVER_SPOOL_H
#define EVPROF_DRIVER_SPOOL_H

#include <stdint.h>
#include <stdio.h>

#include "evprof/driver.h"

#define EV_SPOOL_MEM ((uint64_t)32 << 20)

/* Bytes readable by offset: a file descriptor (pread) or memory. */
typedef struct ev_spool {
    int fd;                     /* -1: memory */
    int own_fd;                 /* close it at the end */
    uint8_t *mem;               /* the bytes when fd < 0 */
    uint64_t size;              /* bytes held (memory: allocated up to cap) */
    uint64_t cap;
    int own_mem;
    uint8_t *wbuf;              /* file mode: records not yet written, */
    uint64_t wbuf_off;          /* from this offset on */
    size_t wlen;
    const char *what;           /* what it holds, for messages ("standard input") */
    const char *error;          /* why spooling failed, or NULL */
    char error_buf[160];
} ev_spool;

void ev_spool_init_fd(ev_spool *s, int fd, int own);
void ev_spool_init_mem(ev_spool *s, const void *mem, uint64_t size);
/* Empty; written by ev_spool_put. `what` (a static string) names what it
 * holds in its errors: "cannot write the spool file for WHAT (disk
 * full?)"; NULL: "standard input". */
void ev_spool_init_pipe(ev_spool *s, const char *what);
/* Writes bytes at offset `off` (records arrive in file order; s->size
 * appends). Returns 0, or -1 with s->error set. */
int ev_spool_put(ev_spool *s, uint64_t off, const void *p, uint32_t len);
/* Writes what is buffered; before reading. Returns 0, or -1 (s->error). */
int ev_spool_flush(ev_spool *s);
void ev_spool_free(ev_spool *s);

/* Up to len bytes at offset off (after ev_spool_flush): the count read,
 * or -1 with errno. */
int64_t ev_spool_pread(const ev_spool *s, void *buf, size_t len, uint64_t off);
/* A stream of its bytes from the start, of its own (fclose it), or NULL
 * with errno. */
FILE *ev_spool_fopen(const ev_spool *s);

/* Reads the spool's bytes (after ev_spool_flush) as ev_driver_run_fd reads
 * a file, from the start; `name` names it in the stream. */
const ev_stream *ev_driver_run_spool(ev_driver *d, const ev_spool *s, const char *name);

#endif
