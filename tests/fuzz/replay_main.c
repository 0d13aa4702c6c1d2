/* replay_main.c: replays a fuzz target over files, without libFuzzer.
 * Usage: fuzz_X_replay DIR_OR_FILE...  Every regular file is one input.
 * Exits 0 when every input ran (a crash aborts the process instead). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        if (n == 0) break;
        len += n;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", len);
    free(buf);
    return 1;
}

static int run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        n += run_path(sub);
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv) {
    int n = 0;
    for (int i = 1; i < argc; i++)
        n += run_path(argv[i]);
    /* The empty input always runs too. */
    LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
    printf("%d passed, 0 failed\n", n + 1);
    return 0;
}
