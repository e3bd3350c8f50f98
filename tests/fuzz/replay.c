/* Runs the fuzz target over files, without libFuzzer: a regression test for
 * the corpus and for every crash the fuzzer ever found.
 *
 *   replay [-e SUFFIX] PATH...
 *
 * A PATH that is a directory contributes its regular files (only those whose
 * names end in SUFFIX, when -e is given); a file is always replayed. Exits 0
 * when every file was read and replayed (decoding errors are expected: the
 * target aborts only on a real bug), 1 when a file could not be read or no
 * file was found.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "%s: out of memory\n", path);
            fclose(f);
            return -1;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        uint8_t *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return -1;
    }
    /* exact-size copy, so ASan catches a read one past the end */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays the directory's files in name order. Returns files replayed, or
 * -1 on an error. */
static int replay_dir(const char *dir, const char *suffix)
{
    DIR *dp = opendir(dir);
    if (!dp) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.' || (suffix && !ends_with(de->d_name, suffix)))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **more = realloc(names, cap * sizeof *names);
            if (!more)
                break;
            names = more;
        }
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            break;
        snprintf(names[n], len, "%s/%s", dir, de->d_name);
        n++;
    }
    closedir(dp);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (count >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            count = replay_file(names[i]) == 0 ? count + 1 : -1;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    const char *suffix = NULL;
    int files = 0, i = 1;
    if (argc > 2 && strcmp(argv[1], "-e") == 0) {
        suffix = argv[2];
        i = 3;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: %s [-e SUFFIX] FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    for (; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        int n = S_ISDIR(st.st_mode) ? replay_dir(argv[i], suffix)
                                    : (replay_file(argv[i]) == 0 ? 1 : -1);
        if (n < 0)
            return 1;
        printf("%s: %d file%s replayed\n", argv[i], n, n == 1 ? "" : "s");
        files += n;
    }
    if (files == 0) {
        fprintf(stderr, "replay: no files found\n");
        return 1;
    }
    printf("replay: %d files, no crash\n", files);
    return 0;
}
