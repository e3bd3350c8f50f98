/* The info-table symbols of a GHC program's executable: an -hi band that
 * no IPE entry names (code built without -finfo-table-map: the libraries,
 * base, the RTS) is named by the `_info` symbol at its address.
 *
 * The ELF file is read with pread, every offset and size checked against
 * the file's size before it is used (a hostile or truncated file gives
 * an error, never a read outside what was read). Only 64-bit ELF of
 * either byte order; executables (ET_EXEC) and position-independent ones
 * (ET_DYN). Both symbol tables (.symtab, .dynsym) are read, a chunk of
 * symbols at a time; each one's string table once, charged to the budget
 * while it is read. What is kept: the `_info` symbols (every info table
 * GHC emits a symbol for: `_info`, `_con_info`, `_static_info`, the RTS's
 * `stg_*_info`), their addresses sorted for binary search and their names
 * in one buffer, all charged.
 *
 * An -hi band is the address of the info table's struct (rts/ProfHeap.c
 * prints get_itbl(c)); the symbol is the info pointer, just past the
 * struct with tables next to code: the address plus sizeof(StgInfoTable),
 * 16 bytes, 32 in the profiled RTS (its StgProfInfo), 0 without tables
 * next to code. A position-independent executable adds its load address,
 * which no event records: only IPE entries, whose names can be looked up
 * here, place it. heap_exe_match (heap/internal.h) finds the distance and
 * checks that the file is the run's program.
 */
#include "evprof/heap.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heap/internal.h"
#include "util/account.h"
#include "util/error.h"

/* One symbol's name longer than this is not a GHC info table's name
 * worth showing: skipped. */
#define MAX_SYMBOL 4096
/* Symbols read from the file at once. */
#define SYM_CHUNK 1024

struct heap_exe {
    int type;                   /* ET_EXEC or ET_DYN */
    size_t n;
    uint64_t *addr;             /* sorted, one symbol per address */
    uint32_t *name;             /* offsets into names, parallel to addr */
    uint32_t *by_name;          /* indices sorted by name */
    char *names;
    size_t names_len, names_cap;
    ev_account mem;
};

/* ---- reading ---------------------------------------------------------- */

typedef struct elf_reader {
    int fd;
    uint64_t size;
    int big;                    /* ELFDATA2MSB */
    const char *path;
    ev_error *err;
} elf_reader;

static uint16_t ld16(const elf_reader *r, const unsigned char *p)
{
    return r->big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t ld32(const elf_reader *r, const unsigned char *p)
{
    return r->big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t ld64(const elf_reader *r, const unsigned char *p)
{
    uint64_t hi = ld32(r, r->big ? p : p + 4), lo = ld32(r, r->big ? p + 4 : p);
    return hi << 32 | lo;
}

/* `len` bytes at `off`, which the caller checked lie inside the file. A
 * file that shrank since is an error. */
static ev_status read_at(elf_reader *r, void *buf, size_t len, uint64_t off, const char *what)
{
    size_t done = 0;
    while (done < len) {
        ssize_t k = pread(r->fd, (char *)buf + done, len - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return ev_error_set(r->err, EV_ERR_IO, "cannot read the %s at byte %llu: %s", what,
                                (unsigned long long)(off + done), strerror(errno));
        if (k == 0)
            return ev_error_set(r->err, EV_ERR_TRUNCATED, "truncated: the file ends at byte "
                                "%llu, inside the %s", (unsigned long long)(off + done), what);
        done += (size_t)k;
    }
    return EV_OK;
}

/* off + count * each inside the file, without overflow. */
static int inside(const elf_reader *r, uint64_t off, uint64_t count, uint64_t each)
{
    if (each && count > UINT64_MAX / each)
        return 0;
    uint64_t len = count * each;
    return off <= r->size && len <= r->size - off;
}

static int charge(heap_exe *x, size_t bytes)
{
    return ev_account_charge(&x->mem, bytes);
}

static int grow(heap_exe *x, void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    if (charge(x, (n - *cap) * elem) != 0)
        return -1;
    void *a = realloc(*arr, n * elem);
    if (!a) {
        ev_account_release(&x->mem, (n - *cap) * elem);
        return -1;
    }
    *arr = a;
    *cap = n;
    return 0;
}

static ev_status nomem(elf_reader *r, heap_exe *x)
{
    if (x->mem.refused)
        return ev_error_set(r->err, EV_ERR_LIMIT, "the memory limit (--memory-limit) stops "
                            "reading its symbols");
    return ev_error_set(r->err, EV_ERR_NOMEM, "out of memory reading its symbols");
}

/* The symbols kept while reading, in the file's order. */
typedef struct sym_list {
    uint64_t *addr;
    uint32_t *name;
    size_t cap;
} sym_list;

static int list_grow(heap_exe *x, sym_list *l, size_t need)
{
    if (need <= l->cap)
        return 0;
    size_t n = l->cap ? 2 * l->cap : 256;
    if (charge(x, (n - l->cap) * (sizeof *l->addr + sizeof *l->name)) != 0)
        return -1;
    uint64_t *a = realloc(l->addr, n * sizeof *a);
    if (a)
        l->addr = a;
    uint32_t *m = a ? realloc(l->name, n * sizeof *m) : NULL;
    if (m)
        l->name = m;
    if (!a || !m) {
        ev_account_release(&x->mem, (n - l->cap) * (sizeof *l->addr + sizeof *l->name));
        return -1;
    }
    l->cap = n;
    return 0;
}

static int ends_info(const char *s, size_t len)
{
    return len > 5 && memcmp(s + len - 5, "_info", 5) == 0;
}

/* The symbols of section `sec` (a SHT_SYMTAB or SHT_DYNSYM whose header
 * is `sh`, `shdrs` every header): the `_info` ones appended to x. */
static ev_status read_symbols(elf_reader *r, heap_exe *x, const unsigned char *shdrs,
                              uint64_t shnum, uint64_t shentsize, uint64_t sec, sym_list *l)
{
    const unsigned char *sh = shdrs + sec * shentsize;
    uint64_t off = ld64(r, sh + offsetof(Elf64_Shdr, sh_offset));
    uint64_t size = ld64(r, sh + offsetof(Elf64_Shdr, sh_size));
    uint64_t entsize = ld64(r, sh + offsetof(Elf64_Shdr, sh_entsize));
    uint32_t link = ld32(r, sh + offsetof(Elf64_Shdr, sh_link));
    if (entsize < sizeof(Elf64_Sym) || entsize > 1024)
        return ev_error_set(r->err, EV_ERR_FORMAT, "section %llu, a symbol table, has entries "
                            "of %llu bytes (an ELF64 symbol has %zu)", (unsigned long long)sec,
                            (unsigned long long)entsize, sizeof(Elf64_Sym));
    uint64_t count = size / entsize;
    if (!inside(r, off, count, entsize))
        return ev_error_set(r->err, EV_ERR_TRUNCATED, "section %llu, a symbol table of %llu "
                            "bytes at byte %llu, goes past the end of the file (%llu bytes)",
                            (unsigned long long)sec, (unsigned long long)size,
                            (unsigned long long)off, (unsigned long long)r->size);
    if (link == 0 || link >= shnum)
        return ev_error_set(r->err, EV_ERR_FORMAT, "section %llu, a symbol table, names "
                            "string table %lu, which is not a section", (unsigned long long)sec,
                            (unsigned long)link);
    const unsigned char *st = shdrs + (uint64_t)link * shentsize;
    if (ld32(r, st + offsetof(Elf64_Shdr, sh_type)) != SHT_STRTAB)
        return ev_error_set(r->err, EV_ERR_FORMAT, "section %llu, a symbol table, names "
                            "section %lu as its strings, which is not a string table",
                            (unsigned long long)sec, (unsigned long)link);
    uint64_t str_off = ld64(r, st + offsetof(Elf64_Shdr, sh_offset));
    uint64_t str_size = ld64(r, st + offsetof(Elf64_Shdr, sh_size));
    if (!inside(r, str_off, str_size, 1) || str_size > SIZE_MAX - 1)
        return ev_error_set(r->err, EV_ERR_TRUNCATED, "section %lu, a string table of %llu "
                            "bytes at byte %llu, goes past the end of the file (%llu bytes)",
                            (unsigned long)link, (unsigned long long)str_size,
                            (unsigned long long)str_off, (unsigned long long)r->size);
    if (count == 0)
        return EV_OK;
    /* the strings and a chunk of symbols, charged while they are read */
    size_t strs_len = (size_t)str_size;
    size_t held = strs_len + 1 + SYM_CHUNK * (size_t)entsize;
    if (charge(x, held) != 0)
        return nomem(r, x);
    char *strs = malloc(strs_len + 1);
    unsigned char *chunk = strs ? malloc(SYM_CHUNK * (size_t)entsize) : NULL;
    ev_status st_ = EV_OK;
    if (!strs || !chunk) {
        st_ = nomem(r, x);
        goto out;
    }
    if ((st_ = read_at(r, strs, strs_len, str_off, "string table")) != EV_OK)
        goto out;
    strs[strs_len] = '\0';
    for (uint64_t i = 0; i < count; i += SYM_CHUNK) {
        size_t k = count - i < SYM_CHUNK ? (size_t)(count - i) : SYM_CHUNK;
        if ((st_ = read_at(r, chunk, k * (size_t)entsize, off + i * entsize,
                           "symbol table")) != EV_OK)
            goto out;
        for (size_t j = 0; j < k; j++) {
            const unsigned char *s = chunk + j * entsize;
            uint32_t nm = ld32(r, s + offsetof(Elf64_Sym, st_name));
            unsigned char info = s[offsetof(Elf64_Sym, st_info)];
            uint16_t shndx = ld16(r, s + offsetof(Elf64_Sym, st_shndx));
            uint64_t value = ld64(r, s + offsetof(Elf64_Sym, st_value));
            int type = ELF64_ST_TYPE(info);
            if (nm == 0 || nm >= strs_len || shndx == SHN_UNDEF || value == 0 ||
                type == STT_SECTION || type == STT_FILE)
                continue;
            const char *p = strs + nm;
            const char *end = memchr(p, '\0', strs_len - nm);
            size_t len = end ? (size_t)(end - p) : strs_len - nm;
            if (len > MAX_SYMBOL || !ends_info(p, len))
                continue;
            if (x->names_len + len + 1 > UINT32_MAX ||
                grow(x, (void **)&x->names, &x->names_cap, x->names_len + len + 1, 1) != 0 ||
                list_grow(x, l, x->n + 1) != 0) {
                st_ = nomem(r, x);
                goto out;
            }
            l->addr[x->n] = value;
            l->name[x->n] = (uint32_t)x->names_len;
            memcpy(x->names + x->names_len, p, len);
            x->names[x->names_len + len] = '\0';
            x->names_len += len + 1;
            x->n++;
        }
    }
out:
    free(chunk);
    free(strs);
    ev_account_release(&x->mem, held);
    return st_;
}

/* ---- sorting ---------------------------------------------------------- */

typedef struct by_addr_item {
    uint64_t addr;
    uint32_t name, seq;
} by_addr_item;

static int by_addr(const void *a, const void *b)
{
    const by_addr_item *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

typedef struct by_name_item {
    const char *name;
    uint32_t index;
} by_name_item;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const by_name_item *)a)->name, ((const by_name_item *)b)->name);
}

/* Sorts by address, one symbol per address (the first the file lists:
 * .symtab's before .dynsym's), and makes the index by name. Takes l's
 * arrays. */
static int finish_table(heap_exe *x, sym_list *l)
{
    size_t n = x->n;
    size_t tmp = n * (sizeof(by_addr_item) + sizeof(by_name_item));
    if (charge(x, tmp) != 0)
        return -1;
    by_addr_item *p = malloc((n ? n : 1) * sizeof *p);
    by_name_item *q = malloc((n ? n : 1) * sizeof *q);
    int rc = -1;
    if (!p || !q)
        goto out;
    for (size_t i = 0; i < n; i++)
        p[i] = (by_addr_item){ l->addr[i], l->name[i], (uint32_t)i };
    qsort(p, n, sizeof *p, by_addr);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && p[i].addr == l->addr[k - 1])
            continue;
        l->addr[k] = p[i].addr;
        l->name[k] = p[i].name;
        k++;
    }
    for (size_t i = 0; i < k; i++)
        q[i] = (by_name_item){ x->names + l->name[i], (uint32_t)i };
    qsort(q, k, sizeof *q, by_name);
    if (charge(x, (k ? k : 1) * sizeof *x->by_name) != 0 ||
        !(x->by_name = malloc((k ? k : 1) * sizeof *x->by_name)))
        goto out;
    for (size_t i = 0; i < k; i++)
        x->by_name[i] = q[i].index;
    x->n = k;
    x->addr = l->addr;
    x->name = l->name;
    l->addr = NULL;
    l->name = NULL;
    rc = 0;
out:
    free(p);
    free(q);
    ev_account_release(&x->mem, tmp);
    return rc;
}

/* ---- opening ---------------------------------------------------------- */

static ev_status read_elf(elf_reader *r, heap_exe *x)
{
    unsigned char eh[sizeof(Elf64_Ehdr)];
    if (r->size < SELFMAG)
        return ev_error_set(r->err, EV_ERR_FORMAT, "not an ELF file (%llu bytes)",
                            (unsigned long long)r->size);
    ev_status st = read_at(r, eh, r->size < sizeof eh ? (size_t)r->size : sizeof eh, 0,
                           "ELF header");
    if (st != EV_OK)
        return st;
    if (memcmp(eh, ELFMAG, SELFMAG) != 0)
        return ev_error_set(r->err, EV_ERR_FORMAT, "not an ELF file");
    if (r->size < sizeof eh)
        return ev_error_set(r->err, EV_ERR_TRUNCATED, "truncated: its ELF header needs %zu "
                            "bytes, the file has %llu", sizeof eh, (unsigned long long)r->size);
    if (eh[EI_CLASS] != ELFCLASS64)
        return ev_error_set(r->err, EV_ERR_FORMAT, "an ELF file of class %u: evprof reads "
                            "64-bit executables (ELFCLASS64) only", eh[EI_CLASS]);
    if (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB)
        return ev_error_set(r->err, EV_ERR_FORMAT, "an ELF file of unknown byte order %u",
                            eh[EI_DATA]);
    r->big = eh[EI_DATA] == ELFDATA2MSB;
    x->type = ld16(r, eh + offsetof(Elf64_Ehdr, e_type));
    if (x->type != ET_EXEC && x->type != ET_DYN)
        return ev_error_set(r->err, EV_ERR_FORMAT, "an ELF file of type %d, not an "
                            "executable (ET_EXEC or ET_DYN)", x->type);
    uint64_t shoff = ld64(r, eh + offsetof(Elf64_Ehdr, e_shoff));
    uint64_t shentsize = ld16(r, eh + offsetof(Elf64_Ehdr, e_shentsize));
    uint64_t shnum = ld16(r, eh + offsetof(Elf64_Ehdr, e_shnum));
    if (shoff == 0)
        return ev_error_set(r->err, EV_ERR_FORMAT, "no section headers: no symbols to read");
    if (shentsize < sizeof(Elf64_Shdr))
        return ev_error_set(r->err, EV_ERR_FORMAT, "section headers of %llu bytes (ELF64's "
                            "have %zu)", (unsigned long long)shentsize, sizeof(Elf64_Shdr));
    if (shnum == 0) {       /* 65280 sections or more: the count is section 0's size */
        unsigned char s0[sizeof(Elf64_Shdr)];
        if (!inside(r, shoff, 1, shentsize))
            return ev_error_set(r->err, EV_ERR_TRUNCATED, "its section headers at byte %llu "
                                "are past the end of the file (%llu bytes)",
                                (unsigned long long)shoff, (unsigned long long)r->size);
        if ((st = read_at(r, s0, sizeof s0, shoff, "section headers")) != EV_OK)
            return st;
        shnum = ld64(r, s0 + offsetof(Elf64_Shdr, sh_size));
    }
    if (!inside(r, shoff, shnum, shentsize) || shnum > (1u << 24))
        return ev_error_set(r->err, EV_ERR_TRUNCATED, "its %llu section headers of %llu bytes "
                            "at byte %llu go past the end of the file (%llu bytes)",
                            (unsigned long long)shnum, (unsigned long long)shentsize,
                            (unsigned long long)shoff, (unsigned long long)r->size);
    size_t sh_bytes = (size_t)(shnum * shentsize);
    if (charge(x, sh_bytes) != 0)
        return nomem(r, x);
    unsigned char *shdrs = malloc(sh_bytes ? sh_bytes : 1);
    if (!shdrs) {
        ev_account_release(&x->mem, sh_bytes);
        return nomem(r, x);
    }
    sym_list l = { NULL, NULL, 0 };
    int tables = 0;
    st = read_at(r, shdrs, sh_bytes, shoff, "section headers");
    for (uint64_t i = 0; i < shnum && st == EV_OK; i++) {
        uint32_t type = ld32(r, shdrs + i * shentsize + offsetof(Elf64_Shdr, sh_type));
        if (type != SHT_SYMTAB && type != SHT_DYNSYM)
            continue;
        tables++;
        st = read_symbols(r, x, shdrs, shnum, shentsize, i, &l);
    }
    free(shdrs);
    ev_account_release(&x->mem, sh_bytes);
    if (st == EV_OK && !tables)
        st = ev_error_set(r->err, EV_ERR_FORMAT, "no symbol table (a stripped executable): "
                          "no names to give");
    else if (st == EV_OK && !x->n)
        st = ev_error_set(r->err, EV_ERR_FORMAT, "no info-table symbols (NAME_info): not a "
                          "GHC program, or stripped");
    if (st == EV_OK && finish_table(x, &l) != 0)
        st = nomem(r, x);
    free(l.addr);
    free(l.name);
    return st;
}

heap_exe *heap_exe_open(const char *path, ev_budget *b, ev_error *err)
{
    ev_error_clear(err);
    heap_exe *x = calloc(1, sizeof *x);
    if (!x) {
        ev_error_set(err, EV_ERR_NOMEM, "out of memory");
        return NULL;
    }
    x->mem.budget = b;
    /* never blocks on a FIFO: a FIFO is no executable */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        ev_error_set(err, EV_ERR_IO, "%s", strerror(errno));
        free(x);
        return NULL;
    }
    struct stat sb;
    ev_status st;
    if (fstat(fd, &sb) != 0) {
        st = ev_error_set(err, EV_ERR_IO, "%s", strerror(errno));
    } else if (!S_ISREG(sb.st_mode)) {
        st = ev_error_set(err, EV_ERR_FORMAT, "not a regular file");
    } else {
        elf_reader r = { fd, (uint64_t)sb.st_size, 0, path, err };
        st = read_elf(&r, x);
    }
    close(fd);
    if (st != EV_OK) {
        heap_exe_close(x);
        return NULL;
    }
    return x;
}

void heap_exe_close(heap_exe *x)
{
    if (!x)
        return;
    free(x->addr);
    free(x->name);
    free(x->by_name);
    free(x->names);
    ev_budget_release(x->mem.budget, x->mem.charged);
    free(x);
}

size_t heap_exe_num_symbols(const heap_exe *x) { return x ? x->n : 0; }
int heap_exe_pie(const heap_exe *x) { return x && x->type == ET_DYN; }
size_t heap_exe_bytes(const heap_exe *x) { return x ? x->mem.charged : 0; }

const char *heap_exe_symbol(const heap_exe *x, uint64_t addr)
{
    size_t lo = 0, hi = x ? x->n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->addr[mid] < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < (x ? x->n : 0) && x->addr[lo] == addr ? x->names + x->name[lo] : NULL;
}

/* The address of the symbol named exactly `s` (len bytes), or 0. */
static uint64_t find_name(const heap_exe *x, const char *s, size_t len)
{
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *m = x->names + x->name[x->by_name[mid]];
        int c = strncmp(m, s, len);
        if (c == 0 && m[len] != '\0')
            c = 1;
        if (c < 0)
            lo = mid + 1;
        else if (c > 0)
            hi = mid;
        else
            return x->addr[x->by_name[mid]];
    }
    return 0;
}

/* ---- z-encoding ------------------------------------------------------- */

/* GHC's Z-encoding (compiler/GHC/Utils/Encoding.hs): letters and digits
 * stand for themselves but z and Z; zx and Zx are punctuation; znnnU a
 * character by its hexadecimal code; ZnT and ZnH tuples. */
static const char lower_codes[] = "zz" "a&" "b|" "c^" "d$" "e=" "g>" "h#" "i." "l<" "m-"
                                  "n!" "p+" "q'" "r\\" "s/" "t*" "u_" "v%";
static const char upper_codes[] = "L(" "R)" "M[" "N]" "C:" "ZZ";

static int put(char *out, size_t cap, size_t *n, const char *s, size_t len)
{
    if (*n + len > cap)
        return -1;
    memcpy(out + *n, s, len);
    *n += len;
    return 0;
}

/* Decodes s[0..len) into out (cap bytes). Returns the length, or -1 when
 * s is not a Z-encoded string (a bad escape, a control character, a
 * tuple of more than 64) or out is too small. */
static long zdecode(const char *s, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        char c = s[i];
        if ((c != 'z' && c != 'Z') || i + 1 >= len) {
            if (c == 'z' || c == 'Z' || (unsigned char)c < 0x21 || (unsigned char)c > 0x7e)
                return -1;
            if (put(out, cap, &n, &c, 1) != 0)
                return -1;
            i++;
            continue;
        }
        char d = s[i + 1];
        if (d >= '0' && d <= '9' && c == 'Z') {            /* Z3T (,,)  Z1H (# #) */
            unsigned v = 0;
            size_t j = i + 1;
            while (j < len && s[j] >= '0' && s[j] <= '9' && v <= 64)
                v = v * 10 + (unsigned)(s[j++] - '0');
            if (j >= len || v > 64 || (s[j] != 'T' && s[j] != 'H') || (s[j] == 'T' && v == 1))
                return -1;
            int unboxed = s[j] == 'H';
            if (put(out, cap, &n, unboxed ? "(#" : "(", unboxed ? 2 : 1) != 0)
                return -1;
            if (unboxed && v == 1 && put(out, cap, &n, " ", 1) != 0)
                return -1;
            for (unsigned k = 1; k < v; k++)
                if (put(out, cap, &n, ",", 1) != 0)
                    return -1;
            if (put(out, cap, &n, unboxed ? "#)" : ")", unboxed ? 2 : 1) != 0)
                return -1;
            i = j + 1;
            continue;
        }
        if (d >= '0' && d <= '9') {                         /* z3bbU: U+03BB */
            unsigned long v = 0;
            size_t j = i + 1;
            for (; j < len && v <= 0x10ffff; j++) {
                char h = s[j];
                int x = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (x < 0)
                    break;
                v = v * 16 + (unsigned long)x;
            }
            if (j >= len || s[j] != 'U' || v > 0x10ffff || v < 0x20 || v == 0x7f ||
                (v >= 0xd800 && v <= 0xdfff))
                return -1;
            char u[4];
            size_t ul;
            if (v < 0x80) {
                u[0] = (char)v;
                ul = 1;
            } else if (v < 0x800) {
                u[0] = (char)(0xc0 | v >> 6);
                u[1] = (char)(0x80 | (v & 0x3f));
                ul = 2;
            } else if (v < 0x10000) {
                u[0] = (char)(0xe0 | v >> 12);
                u[1] = (char)(0x80 | (v >> 6 & 0x3f));
                u[2] = (char)(0x80 | (v & 0x3f));
                ul = 3;
            } else {
                u[0] = (char)(0xf0 | v >> 18);
                u[1] = (char)(0x80 | (v >> 12 & 0x3f));
                u[2] = (char)(0x80 | (v >> 6 & 0x3f));
                u[3] = (char)(0x80 | (v & 0x3f));
                ul = 4;
            }
            if (put(out, cap, &n, u, ul) != 0)
                return -1;
            i = j + 1;
            continue;
        }
        /* zx, Zx: GHC decodes a pair it has no code for as the letter */
        const char *codes = c == 'z' ? lower_codes : upper_codes;
        char r = d;
        for (size_t k = 0; codes[k]; k += 2)
            if (codes[k] == d) {
                r = codes[k + 1];
                break;
            }
        if ((unsigned char)r < 0x21 || (unsigned char)r > 0x7e || put(out, cap, &n, &r, 1) != 0)
            return -1;
        i += 2;
    }
    return (long)n;
}

long heap_exe_zdecode(const char *s, size_t len, char *out, size_t cap)
{
    return zdecode(s, len, out, cap);
}

/* Encodes s[0..len) as GHC does (a leading digit as znnnU). Returns the
 * length, or -1 for a byte outside ASCII (not looked up) or when out is
 * too small. */
static long zencode(const char *s, size_t len, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        char buf[8];
        size_t bl = 0;
        int digit = c >= '0' && c <= '9';
        if (c >= 0x80)
            return -1;
        if ((digit && i > 0) || (c >= 'a' && c <= 'y') || (c >= 'A' && c <= 'Y')) {
            buf[bl++] = (char)c;
        } else {
            for (int t = 0; t < 2 && !bl; t++) {
                const char *codes = t ? lower_codes : upper_codes;
                for (size_t k = 0; codes[k]; k += 2)
                    if ((unsigned char)codes[k + 1] == c && (c != 'Z' || t == 0)) {
                        buf[bl++] = t ? 'z' : 'Z';
                        buf[bl++] = codes[k];
                        break;
                    }
            }
            if (!bl) {
                buf[bl++] = 'z';
                if (c >> 4 >= 10)
                    buf[bl++] = '0';
                if (c >> 4)
                    buf[bl++] = hex[c >> 4];
                buf[bl++] = hex[c & 15];
                buf[bl++] = 'U';
            }
        }
        if (put(out, cap, &n, buf, bl) != 0)
            return -1;
    }
    return (long)n;
}

/* ---- titles ------------------------------------------------------------ */

/* A GHC symbol's parts, Z-encoded: [UNIT_]MODULE_OCC_FLAVOUR, where no part
 * holds a raw '_' (Z-encoding writes it zu) and the flavour is info,
 * con_info or static_info; the main program's unit is left out. */
typedef struct sym_parts {
    const char *unit, *module, *occ, *flavour;
    size_t unit_len, module_len, occ_len;
} sym_parts;

static int parse_symbol(const char *sym, sym_parts *p)
{
    static const char *const flavours[] = { "_con_info", "_static_info", "_info" };
    size_t len = strlen(sym);
    if (strncmp(sym, "stg_", 4) == 0 || strncmp(sym, "__stg_", 6) == 0)
        return 0;
    for (size_t f = 0; f < sizeof flavours / sizeof flavours[0]; f++) {
        size_t fl = strlen(flavours[f]);
        if (len <= fl || memcmp(sym + len - fl, flavours[f], fl) != 0)
            continue;
        size_t rest = len - fl;
        const char *u[3];
        size_t nu = 0;
        for (size_t i = 0; i < rest && nu < 3; i++)
            if (sym[i] == '_')
                u[nu++] = sym + i;
        if (nu != 1 && nu != 2)
            continue;
        memset(p, 0, sizeof *p);
        const char *m = sym;
        if (nu == 2) {
            p->unit = sym;
            p->unit_len = (size_t)(u[0] - sym);
            m = u[0] + 1;
        }
        p->module = m;
        p->module_len = (size_t)(u[nu - 1] - m);
        p->occ = u[nu - 1] + 1;
        p->occ_len = (size_t)(sym + rest - p->occ);
        p->flavour = flavours[f] + 1;
        /* a module's name starts with a capital (:Main, GHC's wrapper of
         * main, is ZCMain) */
        if (!p->module_len || !p->occ_len || (nu == 2 && !p->unit_len) ||
            !((m[0] >= 'A' && m[0] <= 'Y') || (m[0] == 'Z' && p->module_len > 1 && m[1] == 'C')))
            continue;
        return 1;
    }
    return 0;
}

size_t heap_exe_title(const char *sym, char *out, size_t cap)
{
    sym_parts p;
    size_t n = 0;
    long k;
    if (parse_symbol(sym, &p) && (k = zdecode(p.module, p.module_len, out, cap)) >= 0) {
        n = (size_t)k;
        if (put(out, cap, &n, ".", 1) == 0 &&
            (k = zdecode(p.occ, p.occ_len, out + n, cap - n)) >= 0) {
            n += (size_t)k;
            int ok = put(out, cap, &n, " (", 2) == 0 &&
                     put(out, cap, &n, p.flavour, strlen(p.flavour)) == 0;
            if (ok && p.unit) {
                ok = put(out, cap, &n, ", ", 2) == 0 &&
                     (k = zdecode(p.unit, p.unit_len, out + n, cap - n)) >= 0;
                if (ok)
                    n += (size_t)k;
            }
            if (ok && put(out, cap, &n, ", symbol)", 9) == 0)
                return n;
        }
    }
    /* the RTS's (stg_*), and what is not GHC's Z-encoded form: as it is */
    int rts = strncmp(sym, "stg_", 4) == 0 || strncmp(sym, "__stg_", 6) == 0;
    const char *mark = rts ? " (rts symbol)" : " (symbol)";
    n = 0;
    if (put(out, cap, &n, sym, strlen(sym)) != 0 || put(out, cap, &n, mark, strlen(mark)) != 0)
        return 0;
    return n;
}

/* ---- matching --------------------------------------------------------- */

/* 1 when the symbol's occ and flavour, decoded, are an IPE entry's table
 * name ("$fShowExpr_$cshowsPrec_info"). */
static int same_table(const char *sym, const char *table, size_t table_len)
{
    char buf[2 * MAX_SYMBOL];
    sym_parts p;
    if (!parse_symbol(sym, &p))
        return strlen(sym) == table_len && memcmp(sym, table, table_len) == 0;
    long d = zdecode(p.occ, p.occ_len, buf, sizeof buf);
    size_t fl = strlen(p.flavour);
    return d >= 0 && (size_t)d + 1 + fl == table_len && memcmp(buf, table, (size_t)d) == 0 &&
           table[d] == '_' && memcmp(p.flavour, table + d + 1, fl) == 0;
}

/* The address of the symbol an IPE entry names, or 0: MODULE_OCC_FLAVOUR
 * Z-encoded (the unit's name is not in the entry: the main program's
 * symbols have none), the flavour one that its table name ends with. */
static uint64_t ipe_symbol(const heap_exe *x, const heap_exe_ipe *e)
{
    static const char *const flavours[] = { "_con_info", "_static_info", "_info" };
    char name[3 * MAX_SYMBOL];
    for (size_t f = 0; f < sizeof flavours / sizeof flavours[0]; f++) {
        size_t fl = strlen(flavours[f]);
        if (e->table_len <= fl || e->module_len > MAX_SYMBOL || e->table_len > MAX_SYMBOL ||
            memcmp(e->table + e->table_len - fl, flavours[f], fl) != 0)
            continue;
        long m = zencode(e->module, e->module_len, name, sizeof name);
        if (m < 0 || (size_t)m + 1 >= sizeof name)
            continue;
        size_t n = (size_t)m;
        name[n++] = '_';
        long o = zencode(e->table, e->table_len - fl, name + n, sizeof name - n);
        if (o < 0 || n + (size_t)o + fl >= sizeof name)
            continue;
        n += (size_t)o;
        memcpy(name + n, flavours[f], fl);
        n += fl;
        uint64_t a = find_name(x, name, n);
        if (a)
            return a;
    }
    return 0;
}

typedef struct cand {
    uint64_t delta;
    size_t hits, agree, disagree;
    const heap_exe_ipe *bad;    /* the first IPE entry it contradicts */
    const char *bad_sym;
} cand;

void heap_exe_match(const heap_exe *x, const uint64_t *addrs, size_t n,
                    const heap_exe_ipe *ipes, size_t nipe, heap_exe_result *m)
{
    memset(m, 0, sizeof *m);
    m->sample = n;
    cand c[16];
    size_t nc = 0;
    if (x->type == ET_EXEC) {   /* sizeof(StgInfoTable): none, plain, profiled */
        static const uint64_t fixed[] = { 0, 16, 32 };
        for (size_t i = 0; i < 3; i++)
            c[nc++] = (cand){ .delta = fixed[i] };
    }
    /* IPE entries whose names the file has: the distances they give */
    for (size_t i = 0; i < nipe; i++) {
        uint64_t a = ipe_symbol(x, &ipes[i]);
        if (!a)
            continue;
        m->ipe_found++;
        uint64_t d = a - ipes[i].info;
        size_t k = 0;
        while (k < nc && c[k].delta != d)
            k++;
        if (k == nc && nc < sizeof c / sizeof c[0])
            c[nc++] = (cand){ .delta = d };
    }
    if (!nc) {
        snprintf(m->why, sizeof m->why, "it is position-independent (PIE) and no IPE entry "
                 "of the log names one of its symbols: nothing tells where it was loaded");
        return;
    }
    cand *best = NULL;
    long bscore = 0;
    for (size_t k = 0; k < nc; k++) {
        cand *q = &c[k];
        for (size_t i = 0; i < n; i++)
            if (heap_exe_symbol(x, addrs[i] + q->delta))
                q->hits++;
        for (size_t i = 0; i < nipe; i++) {
            const char *s = heap_exe_symbol(x, ipes[i].info + q->delta);
            if (!s)
                continue;
            if (same_table(s, ipes[i].table, ipes[i].table_len)) {
                q->agree++;
            } else {
                q->disagree++;
                if (!q->bad) {
                    q->bad = &ipes[i];
                    q->bad_sym = s;
                }
            }
        }
        /* the bands first (the evidence every log has), then the names */
        long score = (long)q->agree - 4 * (long)q->disagree;
        if (!best || q->hits > best->hits || (q->hits == best->hits && score > bscore)) {
            best = q;
            bscore = score;
        }
    }
    m->delta = best->delta;
    m->hits = best->hits;
    m->ipe_agree = best->agree;
    m->ipe_disagree = best->disagree;
    if (best->disagree * 4 > best->agree && best->bad) {
        snprintf(m->why, sizeof m->why, "its symbol at the address of the log's IPE entry "
                 "%.*s (module %.*s) is %.*s: another build",
                 (int)(best->bad->table_len > 200 ? 200 : best->bad->table_len),
                 best->bad->table,
                 (int)(best->bad->module_len > 200 ? 200 : best->bad->module_len),
                 best->bad->module, 200, best->bad_sym);
        return;
    }
    /* the bands decide; IPE entries alone only when the census has too
     * few bands to tell */
    if (n >= 4 ? best->hits >= 2 && best->hits * 4 >= n : best->agree >= 2 || best->hits == n) {
        m->ok = 1;
        return;
    }
    if (x->type == ET_DYN && !best->agree)
        snprintf(m->why, sizeof m->why, "it is position-independent (PIE) and the log's IPE "
                 "entries do not place it");
    else
        snprintf(m->why, sizeof m->why, "only %zu of the %zu band addresses of the first "
                 "census are its info tables: another build (or one linked with -dynamic, "
                 "whose libraries' tables are not in the executable)", best->hits, n);
}
