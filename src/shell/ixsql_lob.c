/*
 * ixsql_lob.c: smart large objects in ixsql (ixsql_lob.h): printing, and
 * the LOB files of UNLOAD and LOAD.
 */
#include "ixsql_lob.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <unistd.h>

#include "ixsql.h"

/* What dbaccess prints for a BLOB or CLOB (Informix Guide to SQL:
 * Reference, "BLOB data type"). */
static const char PLACEHOLDER[] = "<SBlob value>";
enum { CHUNK = 1 << 16, MAX_NAME_TRIES = 1 << 16 };

int ixsql_lob_show = IXSQL_LOB_PLACEHOLDER;

static const char *const mode_names[] = {"placeholder", "size", "text"};

int ixsql_lob_parse(const char *name) {
    for (int m = 0; m < (int)(sizeof mode_names / sizeof *mode_names); m++)
        if (strcasecmp(name, mode_names[m]) == 0) return m;
    return -1;
}

const char *ixsql_lob_name(int mode) {
    return mode_names[mode];
}

int ixsql_lob_column(ix_stmt *s, int i) {
    return ix_column_type(s, i) == IX_T_UDTFIXED && ix_column_enclen(s, i) == IX_LOCATOR_LEN;
}

/* ---- printing ---------------------------------------------------------------------------- */

/* What the last call for each column returned, freed by the next one. */
static char **shown;
static void **lobmem;
static int nshown;

static void drop(int i) {
    free(shown[i]);
    ix_lob_free(lobmem[i]);
    shown[i] = NULL;
    lobmem[i] = NULL;
}

void ixsql_lob_end(void) {
    for (int i = 0; i < nshown; i++)
        drop(i);
    free(shown);
    free(lobmem);
    shown = NULL;
    lobmem = NULL;
    nshown = 0;
}

static int hold(int i) {
    if (i < nshown) {
        drop(i);
        return 0;
    }
    char **s = realloc(shown, (size_t)(i + 1) * sizeof *s);
    if (s) shown = s;
    void **m = s ? realloc(lobmem, (size_t)(i + 1) * sizeof *m) : NULL;
    if (!m) return -1;
    lobmem = m;
    for (; nshown <= i; nshown++)
        shown[nshown] = NULL, lobmem[nshown] = NULL;
    return 0;
}

/* The placeholder with the size (or a failure to get it). */
static const char *sized(ix_stmt *s, int i, size_t *n) {
    ix_lob *b = NULL;
    int64_t size = -1;
    if (ix_lob_open_column(s, i, IX_LO_RDONLY, &b) != IX_OK || ix_lob_size(b, &size) != IX_OK)
        size = -1;
    ix_lob_close(b);
    char t[64];
    if (size < 0)
        snprintf(t, sizeof t, "<SBlob value: unreadable>");
    else
        snprintf(t, sizeof t, "<SBlob value: %" PRId64 " bytes>", size);
    if (!(shown[i] = strdup(t))) return *n = strlen(PLACEHOLDER), PLACEHOLDER;
    *n = strlen(shown[i]);
    return shown[i];
}

const char *ixsql_col_text(ix_stmt *s, int i, size_t *n) {
    *n = 0;
    if (ix_column_is_null(s, i)) return NULL;
    int kind = ixsql_lob_column(s, i) ? ix_column_lob_type(s, i) : 0;
    if (!kind) {
        const char *t = ix_column_text(s, i);
        if (t) *n = ix_column_text_len(s, i);
        return t;
    }
    *n = strlen(PLACEHOLDER);
    if (ixsql_lob_show == IXSQL_LOB_PLACEHOLDER || hold(i) != 0) return PLACEHOLDER;
    if (ixsql_lob_show == IXSQL_LOB_SIZE || kind != IX_T_CLOB) {
        if (ixsql_lob_show == IXSQL_LOB_TEXT) return PLACEHOLDER; /* a BLOB */
        return sized(s, i, n);
    }
    size_t len = 0;
    if (ix_column_lob(s, i, &lobmem[i], &len) != IX_OK) {
        *n = strlen("<SBlob value: unreadable>");
        return "<SBlob value: unreadable>";
    }
    *n = len;
    return lobmem[i];
}

/* ---- UNLOAD ------------------------------------------------------------------------------ */

typedef struct lob_file {
    FILE *f;
    char *path; /* as the unload file records it */
    int64_t off;
} lob_file;

struct ixsql_lob_unl {
    char *dir; /* "" or the unload file's directory with its '/' */
    int ncols;
    lob_file col[];
};

ixsql_lob_unl *ixsql_lob_unl_new(const char *unl_file, int ncols) {
    ixsql_lob_unl *u = calloc(1, sizeof *u + (size_t)ncols * sizeof(lob_file));
    if (!u) return NULL;
    const char *slash = strrchr(unl_file, '/');
    size_t dl = slash ? (size_t)(slash - unl_file) + 1 : 0;
    if (!(u->dir = malloc(dl + 1))) {
        free(u);
        return NULL;
    }
    memcpy(u->dir, unl_file, dl);
    u->dir[dl] = 0;
    u->ncols = ncols;
    return u;
}

static int file_error(const char *what, const char *path) {
    fflush(stdout);
    fprintf(stderr, "\nixsql: %s %s: %s\n", what, path, strerror(errno));
    return -3;
}

/* The column's file, made at its first value: blob<8 hex digits> or
 * clob..., the first such name that does not exist yet. */
static int open_col(ixsql_lob_unl *u, lob_file *lf, int kind) {
    size_t cap = strlen(u->dir) + 16;
    if (!(lf->path = malloc(cap))) return -1;
    for (unsigned k = 1; k < MAX_NAME_TRIES; k++) {
        snprintf(lf->path, cap, "%s%s%08x", u->dir, kind == IX_T_CLOB ? "clob" : "blob", k);
        int fd = open(lf->path, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0 || !(lf->f = fdopen(fd, "w"))) {
            if (fd >= 0) close(fd);
            return file_error("cannot create", lf->path);
        }
        return 0;
    }
    errno = EEXIST;
    return file_error("no free LOB file name in", *u->dir ? u->dir : ".");
}

/* Copies the LO of column i to f: its length in *len. */
static int copy_out(ix_stmt *s, int i, lob_file *lf, int64_t *len) {
    ix_lob *b;
    if (ix_lob_open_column(s, i, IX_LO_RDONLY, &b) != IX_OK) return -2;
    char *buf = malloc(CHUNK);
    int rc = buf ? 0 : -1;
    *len = 0;
    while (rc == 0) {
        size_t got = 0;
        if (ix_lob_read(b, buf, CHUNK, &got) != IX_OK) rc = -2;
        if (rc || got == 0) break;
        if (fwrite(buf, 1, got, lf->f) != got) rc = file_error("write error on", lf->path);
        *len += (int64_t)got;
    }
    free(buf);
    if (ix_lob_close(b) != IX_OK && rc == 0) rc = -2;
    return rc;
}

int ixsql_lob_put(ixsql_lob_unl *u, ix_stmt *s, int i, ixsql_buf *b, char delim, int hex) {
    lob_file *lf = &u->col[i];
    int rc;
    if (!lf->f && (rc = open_col(u, lf, ix_column_lob_type(s, i))) != 0) return rc;
    int64_t len = 0;
    if ((rc = copy_out(s, i, lf, &len)) != 0) return rc;
    size_t pl = strlen(lf->path);
    char *field = malloc(pl + 40);
    if (!field) return -1;
    int k = snprintf(field, pl + 40, "%" PRIx64 ",%" PRIx64 ",%s", lf->off, len, lf->path);
    lf->off += len;
    rc = ixsql_unl_put_text(b, field, (size_t)k, delim, hex);
    free(field);
    return rc;
}

int ixsql_lob_unl_close(ixsql_lob_unl *u) {
    if (!u) return 0;
    int rc = 0;
    for (int i = 0; i < u->ncols; i++) {
        if (u->col[i].f && fclose(u->col[i].f) != 0 && rc == 0)
            rc = file_error("write error on", u->col[i].path);
        free(u->col[i].path);
    }
    free(u->dir);
    free(u);
    return rc;
}

/* ---- LOAD -------------------------------------------------------------------------------- */

int ixsql_lob_kind(ix_conn *conn, const char *table, size_t tlen, const char *col) {
    /* the table's own name: after any database: and owner. prefix, unquoted */
    const char *t = table, *end = table + tlen;
    for (const char *p = table; p < end; p++)
        if (*p == '.' || *p == ':') t = p + 1;
    char name[256];
    size_t k = 0;
    for (; t < end && k + 1 < sizeof name; t++)
        if (*t != '"') name[k++] = (char)tolower((unsigned char)*t);
    name[k] = 0;
    ix_stmt *s = NULL;
    int kind = IX_T_BLOB;
    static const char q[] = "SELECT c.extended_id FROM syscolumns c, systables t"
                            " WHERE c.tabid = t.tabid AND t.tabname = ? AND c.colname = ?";
    if (ix_prepare(conn, q, sizeof q - 1, &s) == IX_OK &&
        ix_bind_text(s, 1, name, (int)k, IX_TRANSIENT) == IX_OK &&
        ix_bind_text(s, 2, col, (int)strlen(col), IX_TRANSIENT) == IX_OK && ix_step(s) == IX_ROW &&
        ix_column_int(s, 0) == 11) /* extended id of clob */
        kind = IX_T_CLOB;
    ix_finalize(s);
    return kind;
}

/* A hexadecimal number of text[0..n): 0, or -1. */
static int hexnum(const char *t, size_t n, int64_t *out) {
    if (n == 0 || n > 15) return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)t[i])) return -1;
        v = v * 16 + (isdigit((unsigned char)t[i]) ? t[i] - '0' : tolower(t[i]) - 'a' + 10);
    }
    *out = v;
    return 0;
}

static int bad_field(const char *why, const char *text, size_t n) {
    fflush(stdout);
    fprintf(stderr, "\nixsql: %s: %.*s\n", why, (int)n, text);
    return -3;
}

/* Copies len bytes (-1: to the end) of f into b. */
static int copy_in(FILE *f, ix_lob *b, int64_t len, const char *path) {
    char *buf = malloc(CHUNK);
    if (!buf) return -1;
    int rc = 0;
    while (rc == 0 && len != 0) {
        size_t want = len < 0 || len > CHUNK ? CHUNK : (size_t)len;
        size_t got = fread(buf, 1, want, f);
        if (got == 0) {
            if (len > 0) rc = bad_field("LOB file shorter than its field says", path, strlen(path));
            break;
        }
        if (ix_lob_write(b, buf, got) != IX_OK) rc = -2;
        if (len > 0) len -= (int64_t)got;
    }
    free(buf);
    return rc;
}

int ixsql_lob_load(ix_conn *conn, int kind, const char *text, size_t n, ix_locator *loc) {
    int64_t off = 0, len = -1;
    const char *c1 = memchr(text, ',', n);
    const char *c2 = c1 ? memchr(c1 + 1, ',', n - (size_t)(c1 + 1 - text)) : NULL;
    const char *path = text;
    if (c2 && hexnum(text, (size_t)(c1 - text), &off) == 0 &&
        hexnum(c1 + 1, (size_t)(c2 - c1 - 1), &len) == 0)
        path = c2 + 1;
    size_t pl = n - (size_t)(path - text);
    if (pl == 0 || memchr(path, 0, pl)) return bad_field("bad LOB reference", text, n);
    char *p = strndup(path, pl);
    if (!p) return -1;
    FILE *f = fopen(p, "rb");
    int rc = 0;
    if (!f) rc = file_error("cannot open", p);
    if (!rc && off > 0 && fseeko(f, (off_t)off, SEEK_SET) != 0) rc = file_error("cannot seek", p);
    ix_lob *b = NULL;
    if (!rc && ix_lob_create(conn, kind, &b) != IX_OK) rc = -2;
    if (!rc) rc = copy_in(f, b, len, p);
    if (!rc) ix_lob_locator(b, loc);
    if (b && ix_lob_close(b) != IX_OK && rc == 0) rc = -2;
    if (f) fclose(f);
    free(p);
    return rc;
}
