/*
 * ix_ts.c: the TimeSeries helpers of libixdb (include/ixdb.h, "TimeSeries
 * helpers"; docs/timeseries.md, "Clients"): a buffered series writer over
 * oni_ts_write_many, sent as pipelined batches, and readers over oni_ts_read
 * (JSON pages, followed through "next") and oni_ts_read_rows (a statement).
 *
 * Writer state: one buffer per key, found through an open-addressing hash
 * table of slot indexes. A buffer holds element lines joined by '\n' (no
 * newline after the last one), at most IX_TS_MAX_TEXT bytes and `flush`
 * elements. A flush is one ix_batch_execute: batch row k binds the key and
 * the buffer of the k-th chosen slot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h"
#include "types/ix_datetime.h"

#define TS_FLUSH_DEFAULT 1000
#define TS_FLUSH_MAX     100000
#define TS_VALUES_MAX    64
#define TS_LINE_MAX      (32 + TS_VALUES_MAX * 26) /* timestamp + fields, each at most 25 */
#define TS_KEY_MAX       4096

typedef struct ts_slot {
    char *key;
    char *buf; /* element lines, '\n' between them */
    size_t len, cap;
    int64_t n;     /* elements in buf */
    int64_t added; /* elements ever added for this key */
    int chosen;    /* in the batch being sent */
} ts_slot;

struct ix_ts_writer {
    ix_conn *conn;
    ix_stmt *stmt;
    char *table, *column;
    int64_t flush_at;
    int dup_error;
    ts_slot *slots;
    size_t nslots, slots_cap;
    size_t *hash; /* slot index + 1, 0 = empty; hash_cap a power of two */
    size_t hash_cap;
    int64_t written, pending;
    /* the batch being sent: slot indexes in row order */
    size_t *rows;
    size_t rows_cap;
    /* a failure stops the writer: kept to be recorded again */
    int failed_rc;
    int failed_sqlcode, failed_isam;
    char failed_msg[512]; /* the size of ix_conn's errmsg */
    size_t failed_slot;
    int64_t failed_element;
};

/* ---- options ------------------------------------------------------------------ */

/* Parses "name=value,..." (flush=N, dup=replace|error). */
static int parse_options(ix_ts_writer *w, const char *opt) {
    w->flush_at = TS_FLUSH_DEFAULT;
    if (!opt) return IX_OK;
    const char *p = opt;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p) break;
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if (!eq || eq > end)
            return ixc_fail(w->conn, IX_EINVAL, "writer option without '=': %.*s", (int)(end - p),
                            p);
        size_t nl = (size_t)(eq - p), vl = (size_t)(end - eq - 1);
        const char *v = eq + 1;
        if (nl == 5 && memcmp(p, "flush", 5) == 0) {
            int64_t n = 0;
            size_t k = 0;
            for (; k < vl && v[k] >= '0' && v[k] <= '9' && n <= TS_FLUSH_MAX; k++)
                n = n * 10 + (v[k] - '0');
            if (k != vl || vl == 0 || n < 1 || n > TS_FLUSH_MAX)
                return ixc_fail(w->conn, IX_EINVAL, "flush=%.*s: 1 .. %d elements", (int)vl, v,
                                TS_FLUSH_MAX);
            w->flush_at = n;
        } else if (nl == 3 && memcmp(p, "dup", 3) == 0) {
            if (vl == 7 && memcmp(v, "replace", 7) == 0)
                w->dup_error = 0;
            else if (vl == 5 && memcmp(v, "error", 5) == 0)
                w->dup_error = 1;
            else
                return ixc_fail(w->conn, IX_EINVAL, "dup=%.*s: replace or error", (int)vl, v);
        } else {
            return ixc_fail(w->conn, IX_EINVAL, "unknown writer option: %.*s", (int)nl, p);
        }
        p = end;
    }
    return IX_OK;
}

/* ---- open / close ---------------------------------------------------------------- */

static char *dup_text(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = ixc_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static void writer_free(ix_ts_writer *w) {
    for (size_t i = 0; i < w->nslots; i++) {
        ixc_free(w->slots[i].key);
        ixc_free(w->slots[i].buf);
    }
    ixc_free(w->slots);
    ixc_free(w->hash);
    ixc_free(w->rows);
    ixc_free(w->table);
    ixc_free(w->column);
    ix_finalize(w->stmt);
    ixc_free(w);
}

int ix_ts_writer_open(ix_conn *conn, const char *table, const char *column, const char *options,
                      ix_ts_writer **out) {
    if (out) *out = NULL;
    if (!conn) return IX_EMISUSE;
    if (!table || !column || !out)
        return ixc_fail(conn, IX_EMISUSE, "ix_ts_writer_open: NULL argument");
    ix_ts_writer *w = ixc_calloc(1, sizeof *w);
    if (!w) return ixc_fail(conn, IX_ENOMEM, "out of memory");
    w->conn = conn;
    int rc = parse_options(w, options);
    if (rc != IX_OK) {
        ixc_free(w);
        return rc;
    }
    w->table = dup_text(table);
    w->column = dup_text(column);
    if (!w->table || !w->column) {
        writer_free(w);
        return ixc_fail(conn, IX_ENOMEM, "out of memory");
    }
    const char *sql = w->dup_error ? "EXECUTE PROCEDURE oni_ts_write_many(?, ?, ?, ?, ?)"
                                   : "EXECUTE PROCEDURE oni_ts_write_many(?, ?, ?, ?)";
    rc = ix_prepare(conn, sql, -1, &w->stmt);
    if (rc == IX_OK) rc = ix_bind_text(w->stmt, 1, w->table, -1, IX_STATIC);
    if (rc == IX_OK) rc = ix_bind_text(w->stmt, 2, w->column, -1, IX_STATIC);
    if (rc == IX_OK && w->dup_error) rc = ix_bind_text(w->stmt, 5, "dup=error", -1, IX_STATIC);
    if (rc != IX_OK) {
        writer_free(w);
        return rc;
    }
    *out = w;
    return IX_OK;
}

int ix_ts_writer_close(ix_ts_writer *w) {
    if (!w) return IX_OK;
    int rc = ix_ts_writer_flush(w);
    writer_free(w);
    return rc;
}

int64_t ix_ts_writer_written(const ix_ts_writer *w) {
    return w ? w->written : 0;
}

int64_t ix_ts_writer_pending(const ix_ts_writer *w) {
    return w ? w->pending : 0;
}

int ix_ts_writer_failure(const ix_ts_writer *w, const char **key, int64_t *element) {
    if (key) *key = NULL;
    if (element) *element = -1;
    if (!w || !w->failed_rc || w->failed_slot >= w->nslots) return 0;
    if (key) *key = w->slots[w->failed_slot].key;
    if (element) *element = w->failed_element;
    return 1;
}

/* A failed writer records its failure again and returns it. */
static int writer_refail(ix_ts_writer *w) {
    ix_conn *c = w->conn;
    c->st.err = w->failed_rc;
    c->st.sqlcode = w->failed_sqlcode;
    c->st.isamcode = w->failed_isam;
    c->st.erroffset = 0;
    memcpy(c->st.errmsg, w->failed_msg, sizeof c->st.errmsg);
    return w->failed_rc;
}

/* ---- keys -------------------------------------------------------------------------- */

static size_t hash_key(const char *k) { /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

static int hash_grow(ix_ts_writer *w) {
    size_t cap = w->hash_cap ? w->hash_cap * 2 : 64;
    size_t *h = ixc_calloc(cap, sizeof *h);
    if (!h) return IX_ENOMEM;
    for (size_t i = 0; i < w->nslots; i++) {
        size_t at = hash_key(w->slots[i].key) & (cap - 1);
        while (h[at])
            at = (at + 1) & (cap - 1);
        h[at] = i + 1;
    }
    ixc_free(w->hash);
    w->hash = h;
    w->hash_cap = cap;
    return IX_OK;
}

/* The slot of key, made when it is new; NULL with the failure recorded. */
static ts_slot *slot_for(ix_ts_writer *w, const char *key) {
    if (!key[0]) {
        ixc_fail(w->conn, IX_EINVAL, "empty series key");
        return NULL;
    }
    if (w->hash_cap) {
        size_t at = hash_key(key) & (w->hash_cap - 1);
        for (; w->hash[at]; at = (at + 1) & (w->hash_cap - 1))
            if (strcmp(w->slots[w->hash[at] - 1].key, key) == 0) return &w->slots[w->hash[at] - 1];
    }
    size_t klen = strnlen(key, TS_KEY_MAX + 1);
    if (klen > TS_KEY_MAX) {
        ixc_fail(w->conn, IX_EINVAL, "series key longer than %d bytes", TS_KEY_MAX);
        return NULL;
    }
    if ((w->nslots + 1) * 2 > w->hash_cap && hash_grow(w) != IX_OK) goto oom;
    if (w->nslots == w->slots_cap) {
        size_t cap = w->slots_cap ? w->slots_cap * 2 : 16;
        ts_slot *s = ixc_realloc(w->slots, cap * sizeof *s);
        if (!s) goto oom;
        w->slots = s;
        w->slots_cap = cap;
    }
    ts_slot *s = &w->slots[w->nslots];
    memset(s, 0, sizeof *s);
    if (!(s->key = dup_text(key))) goto oom;
    size_t at = hash_key(key) & (w->hash_cap - 1);
    while (w->hash[at])
        at = (at + 1) & (w->hash_cap - 1);
    w->hash[at] = ++w->nslots;
    return s;
oom:
    ixc_fail(w->conn, IX_ENOMEM, "out of memory");
    return NULL;
}

/* ---- flushing ------------------------------------------------------------------------ */

static int bind_row(ix_stmt *stmt, int64_t row, void *ud) {
    ix_ts_writer *w = ud;
    ts_slot *s = &w->slots[w->rows[row]];
    int rc = ix_bind_text(stmt, 3, s->key, -1, IX_STATIC);
    if (rc == IX_OK) rc = ix_bind_text(stmt, 4, s->buf, (int)s->len, IX_STATIC);
    return rc;
}

/* The element the server blamed: "line N" in its message, N 1-based within
 * the batch row's elements; -1 when there is none. */
static int64_t blamed_element(const ts_slot *s, const char *msg) {
    const char *p = strstr(msg, "line ");
    if (!p) return -1;
    int64_t n = 0;
    p += 5;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9' && n <= s->n; p++)
        n = n * 10 + (*p - '0');
    if (n < 1 || n > s->n) return -1;
    return s->added - s->n + (n - 1);
}

/* Records the failure of batch row `row` (sqlcodes from the batch) as the
 * writer's: "series KEY: <server message>". */
static int writer_fail_row(ix_ts_writer *w, size_t slot, int rc) {
    ix_conn *c = w->conn;
    ts_slot *s = &w->slots[slot];
    char *cut = strstr(c->st.errmsg, " (batch row ");
    if (cut) *cut = 0;
    w->failed_element = blamed_element(s, c->st.errmsg);
    snprintf(w->failed_msg, sizeof w->failed_msg, "series %.80s: %.420s", s->key, c->st.errmsg);
    w->failed_rc = rc;
    w->failed_sqlcode = c->st.sqlcode;
    w->failed_isam = c->st.isamcode;
    w->failed_slot = slot;
    return writer_refail(w);
}

/* Sends the chosen slots (s->chosen) in one batch and empties them. */
static int send_chosen(ix_ts_writer *w) {
    size_t nrows = 0;
    for (size_t i = 0; i < w->nslots; i++)
        if (w->slots[i].chosen) nrows++;
    if (nrows == 0) return IX_OK;
    if (nrows > w->rows_cap) {
        size_t *r = ixc_realloc(w->rows, nrows * sizeof *r);
        if (!r) return ixc_fail(w->conn, IX_ENOMEM, "out of memory");
        w->rows = r;
        w->rows_cap = nrows;
    }
    size_t k = 0;
    for (size_t i = 0; i < w->nslots; i++)
        if (w->slots[i].chosen) w->rows[k++] = i;
    int *codes = ixc_calloc(nrows, sizeof *codes);
    if (!codes) return ixc_fail(w->conn, IX_ENOMEM, "out of memory");
    int64_t nfailed = 0;
    int rc = ix_batch_execute(w->stmt, (int64_t)nrows, bind_row, w, codes, &nfailed);
    int64_t replied = ix_batch_replied(w->stmt);
    w->written += ix_changes(w->stmt);
    size_t first_bad = nrows;
    for (k = 0; k < nrows && k < (size_t)replied; k++) {
        ts_slot *s = &w->slots[w->rows[k]];
        if (codes[k] && first_bad == nrows && rc == IX_ESQL) {
            first_bad = k; /* the batch's error is this row's */
            writer_fail_row(w, w->rows[k], rc);
        }
        w->pending -= s->n; /* written, or refused: gone either way */
        s->len = 0;
        s->n = 0;
        s->chosen = 0;
    }
    for (; k < nrows; k++)
        w->slots[w->rows[k]].chosen = 0;
    ixc_free(codes);
    ix_bind_null(w->stmt, 3); /* nothing keeps pointing into the buffers */
    ix_bind_null(w->stmt, 4);
    if (rc == IX_OK) return IX_OK;
    if (first_bad < nrows) return writer_refail(w);
    /* A connection failure: what was not answered is unknown. */
    w->failed_rc = rc;
    w->failed_slot = (size_t)-1;
    w->failed_sqlcode = w->conn->st.sqlcode;
    w->failed_isam = w->conn->st.isamcode;
    memcpy(w->failed_msg, w->conn->st.errmsg, sizeof w->failed_msg);
    return rc;
}

int ix_ts_writer_flush(ix_ts_writer *w) {
    if (!w) return IX_EMISUSE;
    if (w->failed_rc) return writer_refail(w);
    for (size_t i = 0; i < w->nslots; i++)
        w->slots[i].chosen = w->slots[i].n > 0;
    return send_chosen(w);
}

/* A flush started by slot `full`: it goes with every buffer at least half
 * full, so that keys written in turn travel in the same batch. */
static int flush_from(ix_ts_writer *w, ts_slot *full) {
    for (size_t i = 0; i < w->nslots; i++) {
        const ts_slot *s = &w->slots[i];
        w->slots[i].chosen =
            s->n > 0 && (s == full || s->n * 2 >= w->flush_at || s->len * 2 >= IX_TS_MAX_TEXT);
    }
    return send_chosen(w);
}

/* ---- adding -------------------------------------------------------------------------- */

/* Appends line[0..n) to key's buffer, flushing before (it would not fit)
 * and after (the buffer is full) as needed. */
static int add_line(ix_ts_writer *w, const char *key, const char *line, size_t n) {
    if (w->failed_rc) return writer_refail(w);
    if (n > IX_TS_MAX_TEXT)
        return ixc_fail(w->conn, IX_EINVAL, "element of %zu bytes: at most %d", n, IX_TS_MAX_TEXT);
    if (memchr(line, '\n', n) || memchr(line, '\r', n))
        return ixc_fail(w->conn, IX_EINVAL, "a newline in element text");
    size_t at = 0;
    ts_slot *s = slot_for(w, key);
    if (!s) return ix_errcode(w->conn);
    at = (size_t)(s - w->slots);
    if (s->n > 0 && s->len + 1 + n > IX_TS_MAX_TEXT) {
        int rc = flush_from(w, s);
        if (rc != IX_OK) return rc;
        s = &w->slots[at];
    }
    size_t need = s->len + (s->n > 0) + n + 1;
    if (need > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < need)
            cap *= 2;
        if (cap > IX_TS_MAX_TEXT + 1) cap = IX_TS_MAX_TEXT + 1;
        char *b = ixc_realloc(s->buf, cap);
        if (!b) return ixc_fail(w->conn, IX_ENOMEM, "out of memory");
        s->buf = b;
        s->cap = cap;
    }
    if (s->n > 0) s->buf[s->len++] = '\n';
    memcpy(s->buf + s->len, line, n);
    s->len += n;
    s->buf[s->len] = 0;
    s->n++;
    s->added++;
    w->pending++;
    if (s->n >= w->flush_at) return flush_from(w, s);
    return IX_OK;
}

int ix_ts_writer_add(ix_ts_writer *w, const char *key, const char *element, size_t len) {
    if (!w) return IX_EMISUSE;
    if (!key || !element) return ixc_fail(w->conn, IX_EMISUSE, "ix_ts_writer_add: NULL argument");
    size_t n = IXC_IS_NTS(len) ? strlen(element) : len;
    return add_line(w, key, element, n);
}

/* ---- formatting ------------------------------------------------------------------------ */

/* Writes the decimal digits of v (< 10^19) at p; returns the count. */
static size_t put_uint(char *p, uint64_t v) {
    char t[20];
    size_t n = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t k = 0; k < n; k++)
        p[k] = t[n - 1 - k];
    return n;
}

static void put2(char *p, int v) {
    p[0] = (char)('0' + v / 10);
    p[1] = (char)('0' + v % 10);
}

#define US_PER_DAY   86400000000LL
#define US_YEAR1     (-62135596800000000LL) /* 0001-01-01 00:00:00 */
#define US_YEAR10000 253402300800000000LL   /* 10000-01-01 00:00:00 */

/* "YYYY-MM-DD HH:MI:SS[.fffff[f]]" of us at p; returns the length, 0 when
 * the year is outside 1 .. 9999. */
static size_t put_timestamp(char *p, int64_t us) {
    if (us < US_YEAR1 || us >= US_YEAR10000) return 0;
    int64_t days = us >= 0 ? us / US_PER_DAY : -((-us + US_PER_DAY - 1) / US_PER_DAY);
    int64_t rest = us - days * US_PER_DAY;
    int y, m, d;
    ixt_date_to_ymd((int32_t)(days + IXT_DATE_UNIX_EPOCH), &y, &m, &d);
    int secs = (int)(rest / 1000000), frac = (int)(rest % 1000000);
    put2(p, y / 100);
    put2(p + 2, y % 100);
    p[4] = '-';
    put2(p + 5, m);
    p[7] = '-';
    put2(p + 8, d);
    p[10] = ' ';
    put2(p + 11, secs / 3600);
    p[13] = ':';
    put2(p + 14, secs / 60 % 60);
    p[16] = ':';
    put2(p + 17, secs % 60);
    if (frac == 0) return 19;
    p[19] = '.';
    int digits = frac % 10 ? 6 : 5;
    int f = digits == 6 ? frac : frac / 10;
    for (int k = digits; k > 0; k--, f /= 10)
        p[19 + k] = (char)('0' + f % 10);
    return (size_t)(20 + digits);
}

static const double pow10_tab[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/*
 * The shortest text that reads back as v, at p (at most 25 bytes). Fast
 * path: the smallest k in 0..15 with m = round(v * 10^k) an integer below
 * 2^53 and m / 10^k == v is the fixed-point text with the fewest digits
 * (m and 10^k are exact, so the division rounds as strtod of that text
 * does). Otherwise %.15g, %.16g, %.17g, the first that reads back.
 */
static size_t put_double(char *p, double v) {
    if (isnan(v)) {
        memcpy(p, "nan", 3);
        return 3;
    }
    if (isinf(v)) {
        memcpy(p, v < 0 ? "-inf" : "inf", v < 0 ? 4 : 3);
        return v < 0 ? 4 : 3;
    }
    size_t n = 0;
    double a = fabs(v);
    if (signbit(v)) p[n++] = '-';
    if (a < 9e15) {
        for (int k = 0; k <= 15; k++) {
            double s = a * pow10_tab[k];
            if (s >= 9007199254740992.0) break;
            double r = nearbyint(s);
            if (r / pow10_tab[k] != a) continue;
            uint64_t mv = (uint64_t)r;
            char digits[24];
            size_t nd = put_uint(digits, mv);
            if (k == 0) {
                memcpy(p + n, digits, nd);
                return n + nd;
            }
            if (nd <= (size_t)k) { /* 0.000ddd */
                p[n++] = '0';
                p[n++] = '.';
                for (size_t z = nd; z < (size_t)k; z++)
                    p[n++] = '0';
                memcpy(p + n, digits, nd);
                return n + nd;
            }
            memcpy(p + n, digits, nd - (size_t)k);
            n += nd - (size_t)k;
            p[n++] = '.';
            memcpy(p + n, digits + nd - (size_t)k, (size_t)k);
            return n + (size_t)k;
        }
    }
    char t[32];
    int len = snprintf(t, sizeof t, "%.15g", v);
    if (strtod(t, NULL) == v) { /* the fewest digits that still read back */
        int lo = 1, hi = 15;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            char u[32];
            snprintf(u, sizeof u, "%.*g", mid, v);
            if (strtod(u, NULL) == v)
                hi = mid;
            else
                lo = mid + 1;
        }
        if (hi < 15) len = snprintf(t, sizeof t, "%.*g", hi, v);
    } else if (len = snprintf(t, sizeof t, "%.16g", v), strtod(t, NULL) != v) {
        len = snprintf(t, sizeof t, "%.17g", v);
    }
    memcpy(p, t, (size_t)len);
    return (size_t)len;
}

int ix_ts_writer_add_values(ix_ts_writer *w, const char *key, const char *ts, int64_t us,
                            const double *values, const unsigned char *is_null, int nvalues) {
    if (!w) return IX_EMISUSE;
    if (!key || (nvalues > 0 && !values))
        return ixc_fail(w->conn, IX_EMISUSE, "ix_ts_writer_add_values: NULL argument");
    if (nvalues < 0 || nvalues > TS_VALUES_MAX)
        return ixc_fail(w->conn, IX_EINVAL, "%d values: 0 .. %d", nvalues, TS_VALUES_MAX);
    char line[TS_LINE_MAX];
    size_t n;
    if (ts) {
        n = strlen(ts);
        if (n > 40 || memchr(ts, '|', n))
            return ixc_fail(w->conn, IX_EINVAL, "not a timestamp: \"%.40s\"", ts);
        memcpy(line, ts, n);
    } else if (!(n = put_timestamp(line, us))) {
        return ixc_fail(w->conn, IX_EINVAL, "timestamp of %lld microseconds outside years 1..9999",
                        (long long)us);
    }
    for (int k = 0; k < nvalues; k++) {
        line[n++] = '|';
        if (!(is_null && is_null[k])) n += put_double(line + n, values[k]);
    }
    /* a NULL last value is an empty field: the loader format's closing '|'
     * keeps it (the server drops one trailing '|', docs/timeseries.md) */
    if (nvalues > 0 && is_null && is_null[nvalues - 1]) line[n++] = '|';
    return add_line(w, key, line, n);
}

/* ---- JSON pages ------------------------------------------------------------------------- */

struct ix_ts_reader {
    ix_conn *conn;
    ix_stmt *stmt;
    char *from;
    char *page;
    size_t page_len;
    int64_t pages;
    int done;
};

int ix_ts_reader_open(ix_conn *conn, const char *table, const char *column, const char *key,
                      const char *from, const char *to, const char *options, ix_ts_reader **out) {
    if (out) *out = NULL;
    if (!conn) return IX_EMISUSE;
    if (!table || !column || !key || !out)
        return ixc_fail(conn, IX_EMISUSE, "ix_ts_reader_open: NULL argument");
    ix_ts_reader *r = ixc_calloc(1, sizeof *r);
    if (!r) return ixc_fail(conn, IX_ENOMEM, "out of memory");
    r->conn = conn;
    int rc = ix_prepare(conn, "EXECUTE FUNCTION oni_ts_read(?, ?, ?, ?, ?, ?)", -1, &r->stmt);
    if (rc == IX_OK) rc = ix_bind_text(r->stmt, 1, table, -1, IX_TRANSIENT);
    if (rc == IX_OK) rc = ix_bind_text(r->stmt, 2, column, -1, IX_TRANSIENT);
    if (rc == IX_OK) rc = ix_bind_text(r->stmt, 3, key, -1, IX_TRANSIENT);
    if (rc == IX_OK && from) rc = ix_bind_text(r->stmt, 4, from, -1, IX_TRANSIENT);
    if (rc == IX_OK && to) rc = ix_bind_text(r->stmt, 5, to, -1, IX_TRANSIENT);
    if (rc == IX_OK && options) rc = ix_bind_text(r->stmt, 6, options, -1, IX_TRANSIENT);
    if (rc == IX_OK && from && !(r->from = dup_text(from)))
        rc = ixc_fail(conn, IX_ENOMEM, "out of memory");
    if (rc != IX_OK) {
        ix_ts_reader_close(r);
        return rc;
    }
    *out = r;
    return IX_OK;
}

void ix_ts_reader_close(ix_ts_reader *r) {
    if (!r) return;
    ix_finalize(r->stmt);
    ixc_free(r->from);
    ixc_free(r->page);
    ixc_free(r);
}

int64_t ix_ts_reader_pages(const ix_ts_reader *r) {
    return r ? r->pages : 0;
}

/*
 * The page's "next": the last member of the document, `"next":null` or
 * `"next":"<timestamp>"` just before the closing brace. Returns 0 with
 * *next NULL (null) or [*next, *next + *n) (the timestamp), or -1 when the
 * page does not end that way.
 */
static int page_next(const char *j, size_t len, const char **next, size_t *n) {
    *next = NULL;
    *n = 0;
    while (len > 0 && (j[len - 1] == ' ' || j[len - 1] == '\n' || j[len - 1] == '\r'))
        len--;
    if (len < 10 || j[0] != '{' || j[len - 1] != '}') return -1;
    size_t e = len - 1;
    if (e >= 11 && memcmp(j + e - 11, "\"next\":null", 11) == 0) return 0;
    if (j[e - 1] != '"') return -1;
    size_t q = e - 1; /* closing quote */
    size_t b = q;
    while (b > 0 && j[b - 1] != '"')
        b--;
    if (b < 8 || memcmp(j + b - 8, "\"next\":\"", 8) != 0 || q == b) return -1;
    *next = j + b;
    *n = q - b;
    return 0;
}

/* Keeps the text of the current row's column 0 as the page. */
static int keep_page(ix_ts_reader *r) {
    size_t n = 0;
    const char *t = ix_column_text(r->stmt, 0);
    if (!t) {
        r->done = 1;
        if (ix_column_is_null(r->stmt, 0))
            return ixc_fail(r->conn, IX_EPROTO, "oni_ts_read returned NULL");
        return ix_errcode(r->conn);
    }
    n = ix_column_text_len(r->stmt, 0);
    char *p = ixc_realloc(r->page, n + 1);
    if (!p) return ixc_fail(r->conn, IX_ENOMEM, "out of memory");
    memcpy(p, t, n);
    p[n] = 0;
    r->page = p;
    r->page_len = n;
    return IX_OK;
}

int ix_ts_reader_next(ix_ts_reader *r, const char **json, size_t *len) {
    if (json) *json = NULL;
    if (len) *len = 0;
    if (!r) return IX_EMISUSE;
    if (r->done) return IX_DONE;
    int rc = ix_step(r->stmt);
    if (rc != IX_ROW) {
        r->done = 1;
        if (rc == IX_DONE) return ixc_fail(r->conn, IX_EPROTO, "oni_ts_read returned no row");
        return rc;
    }
    rc = keep_page(r);
    ix_reset(r->stmt);
    if (rc != IX_OK) {
        r->done = 1;
        return rc;
    }
    const char *next;
    size_t nn;
    if (page_next(r->page, r->page_len, &next, &nn) != 0) {
        r->done = 1;
        return ixc_fail(r->conn, IX_EPROTO, "oni_ts_read page without \"next\"");
    }
    if (next) {
        if (r->from && strlen(r->from) == nn && memcmp(r->from, next, nn) == 0) {
            r->done = 1;
            return ixc_fail(r->conn, IX_EPROTO, "oni_ts_read page does not move on (next %.*s)",
                            (int)nn, next);
        }
        char *f = ixc_realloc(r->from, nn + 1);
        if (!f) {
            r->done = 1;
            return ixc_fail(r->conn, IX_ENOMEM, "out of memory");
        }
        memcpy(f, next, nn);
        f[nn] = 0;
        r->from = f;
        rc = ix_bind_text(r->stmt, 4, r->from, (int)nn, IX_STATIC);
        if (rc != IX_OK) {
            r->done = 1;
            return rc;
        }
    } else {
        r->done = 1;
    }
    r->pages++;
    if (json) *json = r->page;
    if (len) *len = r->page_len;
    return IX_ROW;
}

/* ---- rows ----------------------------------------------------------------------------- */

/* Appends s as an SQL string literal (quotes doubled). */
static void put_literal(ixb_wbuf *b, const char *s) {
    ixb_put_u8(b, '\'');
    for (; *s; s++) {
        if (*s == '\'') ixb_put_u8(b, '\'');
        ixb_put_u8(b, (uint8_t)*s);
    }
    ixb_put_u8(b, '\'');
}

int ix_ts_rows_open(ix_conn *conn, const char *table, const char *column, const char *key,
                    const char *from, const char *to, ix_stmt **out) {
    if (out) *out = NULL;
    if (!conn) return IX_EMISUSE;
    if (!table || !column || !key || !out)
        return ixc_fail(conn, IX_EMISUSE, "ix_ts_rows_open: NULL argument");
    ixb_wbuf sql;
    ixb_wbuf_init(&sql, ixc_mem());
    static const char head[] = "SELECT * FROM TABLE(oni_ts_read_rows(";
    ixb_put_bytes(&sql, head, sizeof head - 1);
    put_literal(&sql, table);
    ixb_put_bytes(&sql, ", ", 2);
    put_literal(&sql, column);
    static const char tail[] = ", ?, ?, ?))";
    ixb_put_bytes(&sql, tail, sizeof tail - 1);
    if (sql.err) {
        ixb_wbuf_free(&sql);
        return ixc_fail(conn, IX_ENOMEM, "out of memory");
    }
    ix_stmt *s = NULL;
    int rc = ix_prepare(conn, (const char *)sql.data, (int)sql.len, &s);
    ixb_wbuf_free(&sql);
    if (rc == IX_OK) rc = ix_bind_text(s, 1, key, -1, IX_TRANSIENT);
    if (rc == IX_OK && from) rc = ix_bind_text(s, 2, from, -1, IX_TRANSIENT);
    if (rc == IX_OK && to) rc = ix_bind_text(s, 3, to, -1, IX_TRANSIENT);
    if (rc != IX_OK) {
        ix_finalize(s);
        return rc;
    }
    *out = s;
    return IX_OK;
}
