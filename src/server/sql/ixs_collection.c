/* ixs_collection.c: the collection types SET, MULTISET and LIST.
 *
 * Type: an ityp with code IX_T_SET, IX_T_MULTISET or IX_T_LIST and len =
 * COLL_TYPED | element type code << 16 | element length (16 bits); len 0:
 * the element type is not known yet (a literal before it meets a column).
 * The catalog keeps that len as the column's collength.
 *
 * Storage: TEXT in Informix's literal form, canonical: the kind, then the
 * elements between braces, separated by ',' without blanks, each in the
 * element type's text form (numbers bare, other values in '..' with '
 * doubled), e.g. SET{1,2} or LIST{'a','b'}. A SET keeps the first of equal
 * elements, MULTISET and LIST keep all, in the order given.
 *
 * Clients see such a column as LVARCHAR holding that text (ixs_select and
 * set_desc_cols in ixs_query.c): the tuple layout of Informix's collection
 * types (codes 19-21) is not established by public evidence
 * (docs/server-sql.md).
 *
 * Runtime (SQLite functions): ixd_coll(x, code, len) the canonical text of
 * x as that collection type, ixd_coll_has(coll, code, len, v) 1 when an
 * element of coll equals v (stored form of the element type), 0 if not,
 * NULL for a NULL operand, ixd_coll_count(coll) its number of elements
 * (CARDINALITY). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_parse.h"

enum {
    IXS_E_COLL_NULL = IXV_E_NULL_COLUMN, /* Cannot insert a null into column (%s): a NULL element */
    IXS_E_COLL_TEXT =
        IXV_E_TYPE_CONVERT,        /* It is not possible to convert between the specified types. */
    IXS_E_NO_CAST = IXV_E_NO_CAST, /* No cast from %s to %s. */
};

#define COLL_MAX_TEXT 32739      /* the longest LVARCHAR */
#define COLL_TYPED    (1u << 24) /* len carries the element type */

static const struct {
    const char *kw;
    int code;
} kinds[] = {{"set", IX_T_SET}, {"multiset", IX_T_MULTISET}, {"list", IX_T_LIST}};

int ixs_coll_is(int code) {
    return code == IX_T_SET || code == IX_T_MULTISET || code == IX_T_LIST;
}

ityp ixs_coll_elem(ityp t) {
    return ixv_t((int)(t.len >> 16 & 0xff), t.len & 0xffff);
}

static int kind_at(px *p, int i) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (ixs_px_kw_str(p, i, kinds[k].kw)) return kinds[k].code;
    return 0;
}

static const char *kind_name(int code) {
    return code == IX_T_SET ? "SET" : code == IX_T_MULTISET ? "MULTISET" : "LIST";
}

/* ---- types ------------------------------------------------------------------------------ */

int ixs_coll_type_at(px *p) {
    return kind_at(p, p->i) && ixs_px_op(p, p->i + 1, "(");
}

/* coll_type := {SET | MULTISET | LIST} ( element_type NOT NULL )
 * element_type: a built-in type other than SERIAL, SERIAL8, BIGSERIAL,
 * BYTE and TEXT, or another collection (not supported: -201). */
int ixs_coll_parse_type(px *p, ityp *t, uint32_t *collen) {
    int code = kind_at(p, p->i);
    p->i += 2;
    if (ixs_coll_type_at(p)) return ixs_px_fail(p);
    ityp e;
    int serial;
    int64_t start;
    uint32_t cl;
    int at = p->i;
    if (ixs_parse_type(p, &e, &serial, &start, &cl)) return -1;
    if (serial || e.code == IX_T_BYTE || e.code == IX_T_TEXT || e.len > 0xffff) {
        p->i = at;
        return ixs_px_fail(p);
    }
    if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_NULL) || ixs_px_expect_op(p, ")"))
        return -1;
    *t = ixv_t(code, COLL_TYPED | (uint32_t)e.code << 16 | e.len);
    *collen = t->len;
    return 0;
}

/* ---- the literal text ------------------------------------------------------------------- */

static void skip_blanks(const char *s, size_t n, size_t *i) {
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
        (*i)++;
}

/* A ROW(...) element at s[*i] as written into out (up to its closing
 * parenthesis, quoted parentheses skipped). */
static int read_row(const char *s, size_t n, size_t *i, sb *out) {
    size_t st = *i;
    int depth = 0;
    char q = 0;
    for (; *i < n; (*i)++) {
        char c = s[*i];
        if (q) {
            if (c == q) q = 0; /* a doubled quote closes and opens again */
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (c == '(') {
            depth++;
        } else if (c == ')' && --depth == 0) {
            (*i)++;
            ixv_sb_addn(out, s + st, *i - st);
            skip_blanks(s, n, i);
            return 0;
        }
    }
    return IXS_E_COLL_TEXT;
}

/* One element of a literal at s[*i] into out (quotes removed); *null when
 * it is the word NULL. Returns 0 or IXS_E_COLL_TEXT. */
static int read_elem(const char *s, size_t n, size_t *i, sb *out, int *null) {
    skip_blanks(s, n, i);
    *null = 0;
    if (*i < n && (s[*i] == '\'' || s[*i] == '"')) {
        char q = s[(*i)++];
        for (;;) {
            if (*i >= n) return IXS_E_COLL_TEXT;
            if (s[*i] == q) {
                if (*i + 1 < n && s[*i + 1] == q) {
                    ixv_sb_addc(out, q);
                    *i += 2;
                    continue;
                }
                (*i)++;
                break;
            }
            ixv_sb_addc(out, s[(*i)++]);
        }
    } else if (n - *i > 3 && !strncasecmp(s + *i, "row", 3)) {
        return read_row(s, n, i, out);
    } else {
        size_t st = *i;
        while (*i < n && s[*i] != ',' && s[*i] != '}' && s[*i] != ' ' && s[*i] != '\'' &&
               s[*i] != '"' && s[*i] != '{')
            (*i)++;
        if (*i == st) return IXS_E_COLL_TEXT;
        *null = *i - st == 4 && !strncasecmp(s + st, "null", 4);
        ixv_sb_addn(out, s + st, *i - st);
    }
    skip_blanks(s, n, i);
    return 0;
}

static int elem_quoted(int code) {
    return !ixv_is_numeric(code) && code != IX_T_ROW; /* ROW(...) as it is */
}

/* Element text e (n bytes) as element type et in canonical form into out. */
static int canon_elem(sqlite3 *h, ityp et, const char *e, size_t n, sb *out) {
    if (et.code == IX_T_ROW) return ixs_row_canon(h, (int)et.len, e, n, out);
    sval v;
    int rc = ixv_text_to_sval(et, e, n, &v);
    if (rc) return rc;
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    rc = ixv_sval_to_text(et, &v, &b);
    ixv_sval_free(&v);
    if (rc == 1) rc = IXS_E_COLL_NULL;
    if (!rc && b.err) rc = IXV_E_NOMEM;
    if (!rc && elem_quoted(et.code))
        ixv_sb_strlit(out, (const char *)b.data, b.len);
    else if (!rc)
        ixv_sb_addn(out, (const char *)b.data, b.len);
    ixb_wbuf_free(&b);
    return rc;
}

/* 1 when the canonical element at out->p + at equals one of the earlier
 * elements (out->p + 0.. at, separated by ',' after the opening brace at
 * open). Elements are compared by their canonical text. */
static int seen_before(const sb *out, size_t at, const size_t *starts, int n) {
    size_t len = out->n - at;
    for (int k = 0; k < n; k++) {
        size_t e = k + 1 < n ? starts[k + 1] - 1 : at - 1;
        if (e - starts[k] == len && !memcmp(out->p + starts[k], out->p + at, len)) return 1;
    }
    return 0;
}

int ixs_coll_canon(sqlite3 *h, ityp t, const char *s, size_t n, sb *out) {
    size_t i = 0;
    skip_blanks(s, n, &i);
    size_t kw = i;
    while (i < n && ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z'))
        i++;
    const char *name = kind_name(t.code);
    int kind = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (i - kw == strlen(kinds[k].kw) && !strncasecmp(s + kw, kinds[k].kw, i - kw))
            kind = kinds[k].code;
    if (!kind) return IXS_E_COLL_TEXT;
    if (kind != t.code) return IXS_E_NO_CAST;
    skip_blanks(s, n, &i);
    if (i >= n || s[i++] != '{') return IXS_E_COLL_TEXT;
    ixv_sb_printf(out, "%s{", name);
    size_t *starts = NULL;
    int ne = 0, rc = 0;
    ityp et = ixs_coll_elem(t);
    skip_blanks(s, n, &i);
    while (!rc && i < n && s[i] != '}') {
        if (ne && s[i++] != ',') {
            rc = IXS_E_COLL_TEXT;
            break;
        }
        sb e = {0};
        int null;
        rc = read_elem(s, n, &i, &e, &null);
        if (!rc && null) rc = IXS_E_COLL_NULL;
        size_t at = out->n + (ne ? 1 : 0);
        if (!rc && ne) ixv_sb_addc(out, ',');
        if (!rc)
            rc = (t.len & COLL_TYPED) ? canon_elem(h, et, e.p ? e.p : "", e.n, out)
                                      : IXS_E_COLL_TEXT;
        ixv_sb_free(&e);
        if (rc) break;
        if (t.code == IX_T_SET && seen_before(out, at, starts, ne)) {
            out->n = at - (ne ? 1 : 0); /* a SET keeps one of equal elements */
            out->p[out->n] = 0;
            continue;
        }
        size_t *ns = realloc(starts, sizeof *starts * (size_t)(ne + 1));
        if (!ns) {
            rc = IXV_E_NOMEM;
            break;
        }
        starts = ns;
        starts[ne++] = at;
    }
    free(starts);
    if (rc) return rc;
    if (i >= n || s[i++] != '}') return IXS_E_COLL_TEXT;
    skip_blanks(s, n, &i);
    if (i != n) return IXS_E_COLL_TEXT;
    ixv_sb_addc(out, '}');
    if (out->oom) return IXV_E_NOMEM;
    return out->n > COLL_MAX_TEXT ? IXS_E_COLL_TEXT : 0;
}

/* ---- expressions ------------------------------------------------------------------------ */

/* coll_literal := {SET | MULTISET | LIST} { [element {, element}] }
 * element      := [+ | -] number | string | NULL
 * at the kind keyword (the lexer makes `{` after it a token): a literal of
 * the kind with its element type not known yet, as the text written with
 * strings in '..' (the elements are checked and converted when the literal
 * meets a collection type: ixs_coll_to_type). */
int ixs_coll_literal(px *p, xv *out) {
    int code = kind_at(p, p->i);
    if (!code) return ixs_px_fail(p);
    p->i += 2;
    sb txt = {0};
    ixv_sb_printf(&txt, "%s{", kind_name(code));
    for (int n = 0; !ixs_px_op(p, p->i, "}"); n++) {
        if (n && ixs_px_expect_op(p, ",")) goto fail;
        if (n) ixv_sb_addc(&txt, ',');
        if (ixs_px_op(p, p->i, "-") || ixs_px_op(p, p->i, "+")) {
            if (ixs_px_op(p, p->i, "-")) ixv_sb_addc(&txt, '-');
            p->i++;
            if (p->i >= p->nt || (p->t[p->i].k != T_INT && p->t[p->i].k != T_NUM)) goto syntax;
        }
        tok *t = &p->t[p->i];
        if (t->k == T_INT || t->k == T_NUM)
            ixv_sb_addn(&txt, p->sql + t->pos, (size_t)t->len);
        else if (t->k == T_STR) {
            sb e = {0};
            ixs_px_tokstr(p, p->i, &e);
            ixv_sb_strlit(&txt, e.p ? e.p : "", e.n);
            ixv_sb_free(&e);
        } else if (ixs_px_kw(p, p->i, IXK_NULL))
            ixv_sb_add(&txt, "NULL");
        else if (ixs_px_kw(p, p->i, IXK_ROW) && ixs_px_op(p, p->i + 1, "(")) {
            int from = p->t[p->i].pos, depth = 0;
            do { /* ROW(...) of constants: its text, read when typed */
                if (p->i >= p->nt || p->t[p->i].k == T_EOF) goto syntax;
                depth += ixs_px_op(p, p->i, "(") - ixs_px_op(p, p->i, ")");
                p->i++;
            } while (depth > 0 || ixs_px_kw(p, p->i - 1, IXK_ROW));
            ixv_sb_addn(&txt, p->sql + from,
                        (size_t)(p->t[p->i - 1].pos + p->t[p->i - 1].len - from));
            continue;
        } else
            goto syntax;
        p->i++;
    }
    p->i++;
    ixv_sb_addc(&txt, '}');
    if (txt.oom) {
        ixv_sb_free(&txt);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    out->k = XK_STR;
    out->lk = LB_CONST;
    out->litn = txt.n;
    ixv_sb_strlit(&out->s, txt.p, txt.n);
    out->lit = ixv_sb_take(&txt);
    out->t = ixv_t(code, 0);
    return out->lit ? 0 : ixs_px_failc(p, IXV_E_NOMEM, NULL);
syntax:
    ixs_px_fail(p);
fail:
    ixv_sb_free(&txt);
    return -1;
}

static void set_sql(xv *v, sb *n) {
    ixv_sb_free(&v->s);
    v->s = *n;
    v->k = XK_EXPR;
}

void ixs_coll_to_type(px *p, xv *v, ityp t) {
    sb n = {0};
    if (v->k == XK_NULL) {
        v->t = t;
        return;
    }
    if (v->k == XK_PARAM) {
        if (p->ptypes[v->pidx].code < 0) p->ptypes[v->pidx] = ixv_t(IX_T_LVARCHAR, 2048);
        ixv_sb_printf(&n, "ixd_coll(?%d,%d,%u)", v->pidx + 1, t.code, t.len);
    } else if (v->k == XK_STR) {
        /* a literal or a string in the literal form: converted now */
        int rc = ixs_coll_canon(p->db->h, t, v->lit ? v->lit : "", v->litn, &n);
        if (!rc) {
            sb q = {0};
            ixv_sb_strlit(&q, n.p, n.n);
            ixv_sb_free(&n);
            n = q;
        }
        if (rc) {
            ixv_sb_free(&n);
            char a[64], b[64];
            ixv_type_text(v->t.code >= 0 ? v->t : ixv_t(IX_T_CHAR, 1), a, sizeof a);
            snprintf(b, sizeof b, "%s", kind_name(t.code));
            ixs_px_failc(p, rc, rc == IXS_E_NO_CAST ? "%s,%s" : NULL, a, b);
            return;
        }
    } else if (v->t.code == t.code && v->t.len == t.len) {
        return;
    } else if (ixs_coll_is(v->t.code) || ixv_is_char(v->t.code)) {
        ixv_sb_printf(&n, "ixd_coll(%s,%d,%u)", v->s.p ? v->s.p : "NULL", t.code, t.len);
    } else {
        char a[64];
        ixv_type_text(v->t, a, sizeof a);
        ixs_px_failc(p, IXS_E_NO_CAST, "%s,%s", a, kind_name(t.code));
        return;
    }
    set_sql(v, &n);
    v->t = t;
}

/* The element type of a literal whose elements are not typed yet: INTEGER
 * when all are integers, DECIMAL(32) when all are numbers, else CHAR of the
 * longest element (as Informix types a constructor's constants). */
static ityp literal_elem(const xv *v) {
    const char *s = v->lit ? v->lit : "";
    size_t n = v->litn, i = 0, longest = 1;
    int num = 1, integer = 1, any = 0;
    while (i < n && s[i] != '{')
        i++;
    for (i++; i < n && s[i] != '}';) {
        sb e = {0};
        int null, quoted = s[i] == '\'';
        if (read_elem(s, n, &i, &e, &null)) {
            ixv_sb_free(&e);
            break;
        }
        any = 1;
        if (e.n > longest) longest = e.n;
        if (quoted)
            num = integer = 0;
        else if (e.p && strpbrk(e.p, ".eE"))
            integer = 0;
        ixv_sb_free(&e);
        if (i < n && s[i] == ',') i++;
    }
    if (!any || integer) return ixv_t(IX_T_INTEGER, 4);
    if (num) return ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    return ixv_t(IX_T_CHAR, (uint32_t)(longest > 32767 ? 32767 : longest));
}

int ixs_coll_typed(px *p, xv *v) {
    if (v->k == XK_STR && ixs_coll_is(v->t.code) && !(v->t.len & COLL_TYPED)) {
        ityp e = literal_elem(v);
        ixs_coll_to_type(p, v, ixv_t(v->t.code, COLL_TYPED | (uint32_t)e.code << 16 | e.len));
    }
    if (p->failed) return -1;
    return ixs_coll_is(v->t.code) && (v->t.len & COLL_TYPED) ? 0 : ixs_px_fail(p);
}

int ixs_coll_in(px *p, xv *x, xv *coll, int neg, sb *out) {
    if (!ixs_coll_is(coll->t.code)) return ixs_px_fail(p);
    if (x->t.code < 0 && x->k != XK_PARAM && x->k != XK_NULL) x->t = ixs_lit_type(x);
    ityp ct = coll->t;
    if (!(ct.len & COLL_TYPED)) {
        /* a literal: its elements take the type of the value sought */
        if (x->t.code < 0) return ixs_px_fail(p);
        ct = ixv_t(ct.code, COLL_TYPED | (uint32_t)x->t.code << 16 | (x->t.len & 0xffff));
        ixs_coll_to_type(p, coll, ct);
    }
    ityp et = ixs_coll_elem(ct);
    ixs_to_type(p, x, et);
    if (p->failed) return -1;
    ixv_sb_printf(out, "(%sixd_coll_has(%s,%d,%u,%s))", neg ? "NOT " : "", coll->s.p, ct.code,
                  ct.len, x->s.p ? x->s.p : "NULL");
    return 0;
}

/* ---- SQLite functions --------------------------------------------------------------------- */

static void coll_err(sqlite3_context *ctx, int code) {
    ixv_fn_err(ctx, code, NULL);
}

static int arg_type(sqlite3_value **argv, ityp *t) {
    *t = ixv_t(sqlite3_value_int(argv[1]), (uint32_t)sqlite3_value_int64(argv[2]));
    return ixs_coll_is(t->code) && (t->len & COLL_TYPED) ? 0 : IXS_E_COLL_TEXT;
}

/* ixd_coll(x, code, len) */
static void f_coll(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    ityp t;
    int rc = arg_type(argv, &t);
    sb out = {0};
    if (!rc)
        rc = ixs_coll_canon(sqlite3_context_db_handle(ctx), t,
                            (const char *)sqlite3_value_text(argv[0]),
                            (size_t)sqlite3_value_bytes(argv[0]), &out);
    if (rc)
        coll_err(ctx, rc);
    else
        sqlite3_result_text(ctx, out.p, (int)out.n, SQLITE_TRANSIENT);
    ixv_sb_free(&out);
}

static int sval_eq(const sval *a, const sval *b) {
    if (a->kind != b->kind) return 0;
    if (a->kind == SQLITE_INTEGER) return a->i == b->i;
    if (a->kind == SQLITE_FLOAT) return a->d == b->d;
    return a->n == b->n && (a->n == 0 || !memcmp(a->p, b->p, a->n));
}

/* Element text e of type et as its storage value (a ROW's: its packed row). */
static int elem_sval(sqlite3 *h, ityp et, const sb *e, sval *v) {
    if (et.code == IX_T_ROW) return ixs_row_from_text(h, (int)et.len, e->p ? e->p : "", e->n, v);
    return ixv_text_to_sval(et, e->p ? e->p : "", e->n, v);
}

/* ixd_coll_has(coll, code, len, v): the elements of a canonical collection
 * are read back into the element type's storage form and compared with v. */
static void f_coll_has(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[3]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    ityp t;
    int rc = arg_type(argv, &t);
    if (rc) {
        coll_err(ctx, rc);
        return;
    }
    ityp et = ixs_coll_elem(t);
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]), i = 0;
    sval want;
    ixv_sval_from_sqlite(&want, argv[3]);
    while (i < n && s[i] != '{')
        i++;
    int found = 0;
    for (i++; !rc && !found && i < n && s[i] != '}';) {
        sb e = {0};
        int null;
        rc = read_elem(s, n, &i, &e, &null);
        sval v;
        if (!rc) rc = elem_sval(sqlite3_context_db_handle(ctx), et, &e, &v);
        ixv_sb_free(&e);
        if (rc) break;
        found = sval_eq(&v, &want);
        ixv_sval_free(&v);
        if (i < n && s[i] == ',') i++;
    }
    if (rc)
        coll_err(ctx, rc);
    else
        sqlite3_result_int(ctx, found);
}

/* ixd_coll_count(coll): the number of elements of a canonical collection
 * (CARDINALITY), NULL for NULL. */
static void f_coll_count(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]), i = 0;
    int count = 0, rc = 0;
    while (i < n && s[i] != '{')
        i++;
    for (i++; !rc && i < n && s[i] != '}'; count++) {
        sb e = {0};
        int null;
        rc = read_elem(s, n, &i, &e, &null);
        ixv_sb_free(&e);
        if (i < n && s[i] == ',') i++;
    }
    if (rc)
        coll_err(ctx, rc);
    else
        sqlite3_result_int(ctx, count);
}

/* ---- the table-valued function ixd_coll_each(coll, code, len) ------------------------------
 * The elements of a canonical collection as rows of one column, value, in
 * the element type's storage form (the collection-derived table TABLE(x)). */

typedef struct each_cur {
    sqlite3_vtab_cursor base;
    sval *v;
    int n, cap, i;
} each_cur;

enum { EACH_VALUE, EACH_COLL, EACH_CODE, EACH_LEN };

typedef struct each_vtab {
    sqlite3_vtab base;
    sqlite3 *h; /* the connection (row elements read the row type catalogue) */
} each_vtab;

static int each_connect(sqlite3 *h, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **out, char **err) {
    (void)aux;
    (void)argc;
    (void)argv;
    (void)err;
    int rc = sqlite3_declare_vtab(h, "CREATE TABLE x(value, coll HIDDEN, code HIDDEN, len HIDDEN)");
    if (rc != SQLITE_OK) return rc;
    each_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->h = h;
    *out = &v->base;
    return SQLITE_OK;
}

static int each_disconnect(sqlite3_vtab *v) {
    sqlite3_free(v);
    return SQLITE_OK;
}

/* The three hidden arguments must all be given (as equality constraints). */
static int each_best(sqlite3_vtab *v, sqlite3_index_info *info) {
    (void)v;
    int got = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->iColumn < EACH_COLL || c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (!c->usable) return SQLITE_CONSTRAINT;
        info->aConstraintUsage[i].argvIndex = c->iColumn;
        info->aConstraintUsage[i].omit = 1;
        got |= 1 << c->iColumn;
    }
    if (got != (1 << EACH_COLL | 1 << EACH_CODE | 1 << EACH_LEN)) return SQLITE_CONSTRAINT;
    info->estimatedCost = 10;
    info->estimatedRows = 10;
    return SQLITE_OK;
}

static void each_clear(each_cur *c) {
    for (int i = 0; i < c->n; i++)
        ixv_sval_free(&c->v[i]);
    c->n = c->i = 0;
}

static int each_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out) {
    (void)v;
    each_cur *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int each_close(sqlite3_vtab_cursor *cur) {
    each_cur *c = (each_cur *)cur;
    each_clear(c);
    free(c->v);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int each_fail(sqlite3_vtab_cursor *cur, int code) {
    (void)cur;
    ixv_err e;
    ixv_seterr(&e, code, 0, 0, NULL);
    return ixv_vtab_raise(&e);
}

static int each_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs, int argc,
                       sqlite3_value **argv) {
    (void)idx;
    (void)idxs;
    each_cur *c = (each_cur *)cur;
    each_clear(c);
    if (argc != 3 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
    ityp t = ixv_t(sqlite3_value_int(argv[1]), (uint32_t)sqlite3_value_int64(argv[2]));
    if (!ixs_coll_is(t.code) || !(t.len & COLL_TYPED)) return each_fail(cur, IXS_E_COLL_TEXT);
    ityp et = ixs_coll_elem(t);
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]), i = 0;
    while (i < n && s[i] != '{')
        i++;
    for (i++; i < n && s[i] != '}';) {
        if (c->n == c->cap) {
            int nc = c->cap ? c->cap * 2 : 8;
            sval *nv = realloc(c->v, sizeof *nv * (size_t)nc);
            if (!nv) return SQLITE_NOMEM;
            c->v = nv;
            c->cap = nc;
        }
        sb e = {0};
        int null;
        int rc = read_elem(s, n, &i, &e, &null);
        if (!rc) rc = elem_sval(((each_vtab *)cur->pVtab)->h, et, &e, &c->v[c->n]);
        ixv_sb_free(&e);
        if (rc) return each_fail(cur, rc);
        c->n++;
        if (i < n && s[i] == ',') i++;
    }
    return SQLITE_OK;
}

static int each_next(sqlite3_vtab_cursor *cur) {
    ((each_cur *)cur)->i++;
    return SQLITE_OK;
}

static int each_eof(sqlite3_vtab_cursor *cur) {
    each_cur *c = (each_cur *)cur;
    return c->i >= c->n;
}

static int each_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col) {
    each_cur *c = (each_cur *)cur;
    if (col == EACH_VALUE)
        ixv_sval_result(&c->v[c->i], ctx);
    else
        sqlite3_result_null(ctx);
    return SQLITE_OK;
}

static int each_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
    *rowid = ((each_cur *)cur)->i + 1;
    return SQLITE_OK;
}

static sqlite3_module each_module = {
    .iVersion = 0,
    .xConnect = each_connect,
    .xBestIndex = each_best,
    .xDisconnect = each_disconnect,
    .xOpen = each_open,
    .xClose = each_close,
    .xFilter = each_filter,
    .xNext = each_next,
    .xEof = each_eof,
    .xColumn = each_column,
    .xRowid = each_rowid,
};

int ixs_coll_register(sqlite3 *h) {
    int det = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc = sqlite3_create_function(h, "ixd_coll", 3, det, NULL, f_coll, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_coll_has", 4, det, NULL, f_coll_has, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_coll_count", 1, det, NULL, f_coll_count, NULL, NULL);
    rc |= sqlite3_create_module(h, "ixd_coll_each", &each_module, NULL);
    return rc;
}
