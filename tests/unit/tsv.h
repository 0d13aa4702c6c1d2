/* tsv.h: reads a tab-separated file with one header line, for the tests that
 * run every row of tests/vectors. Fields are NUL-terminated in place. */
#ifndef IX_TSV_H
#define IX_TSV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TSV_MAXCOLS 16

typedef struct tsv_row {
    int line; /* 1-based line number in the file */
    int ncols;
    char *col[TSV_MAXCOLS];
} tsv_row;

typedef struct tsv_file {
    char *text;
    int nrows;
    tsv_row *rows;
    tsv_row header;
} tsv_file;

/* Loads path; returns 0 on success, -1 if the file cannot be read. */
static inline int tsv_load(tsv_file *t, const char *path) {
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    t->text = malloc((size_t)n + 1);
    if (!t->text || fread(t->text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        return -1;
    }
    fclose(f);
    t->text[n] = 0;
    int lines = 0;
    for (long i = 0; i < n; i++)
        lines += t->text[i] == '\n';
    t->rows = calloc((size_t)lines + 1, sizeof(tsv_row));
    char *p = t->text;
    int lineno = 0;
    while (*p) {
        char *eol = strchr(p, '\n');
        if (eol) *eol = 0;
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r') p[len - 1] = 0;
        lineno++;
        if (*p) {
            tsv_row *r = lineno == 1 ? &t->header : &t->rows[t->nrows++];
            r->line = lineno;
            char *c = p;
            while (c && r->ncols < TSV_MAXCOLS) {
                r->col[r->ncols++] = c;
                c = strchr(c, '\t');
                if (c) *c++ = 0;
            }
        }
        if (!eol) break;
        p = eol + 1;
    }
    return 0;
}

/* Index of the header column named `name`, or -1. */
static inline int tsv_colidx(const tsv_file *t, const char *name) {
    for (int i = 0; i < t->header.ncols; i++)
        if (strcmp(t->header.col[i], name) == 0) return i;
    return -1;
}

static inline void tsv_free(tsv_file *t) {
    free(t->text);
    free(t->rows);
}

#endif
