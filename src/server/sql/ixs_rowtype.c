/* ixs_rowtype.c: ROW types, named (CREATE ROW TYPE) and unnamed (ROW(...)).
 *
 * Catalogue (one for every row type, TimeSeries ones included):
 *   _ixd_xtdtypes(extended_id, mode, owner, name, type)  a row per type:
 *       mode 'R' named (type 4118), 'C' unnamed (type 22, name NULL)
 *   _ixd_attrtypes(extended_id, fieldno, fieldname, type, length)  a row per
 *       field: type its IXT_T_* code (| IXT_TF_NOTNULL), length its ityp len
 * shown as sysxtdtypes and sysattrtypes, and as _ixd_rowtypes (name, owner,
 * fields "name code len;...") for the TimeSeries engine.
 *
 * Type: ityp {IX_T_ROW, extended_id}; a ROW(...) constructor whose fields
 * have their own types is {IX_T_ROW, ROW_LIT | number of fields}.
 * A column's coltype is 22 (| 4096 for a named type), collength its id.
 *
 * Storage: a BLOB, self-describing, canonical (equal rows have equal bytes,
 * so = and <> compare blobs):
 *
 *   offset  size  field
 *   0       1     ROW_MAGIC
 *   1       2     n, the number of fields (big-endian)
 *   then n times:
 *           1     the field's IX_T_* code
 *           4     the field's ityp len (big-endian)
 *           1     storage kind: SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT,
 *                 SQLITE_BLOB, SQLITE_NULL
 *           8     INTEGER: two's complement, FLOAT: IEEE 754 (big-endian)
 *           4+m   TEXT, BLOB: m (big-endian), then m bytes
 *
 * Runtime (SQLite functions):
 *   ixd_row_pack(desc, v1, ..., vn)  the row of storage values v1..vn
 *   ixd_row_in(text, desc)           the row of text "ROW(1,'x')"
 *   ixd_row_cast(row, desc)          a row's fields converted to desc's types
 *   ixd_row_field(row, k)            field k (0-based) as its storage value
 *   ixd_row_text(row)                the text "ROW(1,'x')"
 * desc: a BLOB of 5 bytes per field, its code and len (big-endian).
 * ixd_row_field walks the headers of the fields before k: no text is
 * parsed and nothing is converted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_parse.h"

enum {
    IXS_E_ROW_NO_FIELD = IXV_E_NO_COLUMN, /* Column (%s) not found in any table in the query. */
    IXS_E_ROW_TEXT =
        IXV_E_TYPE_CONVERT, /* It is not possible to convert between the specified types. */
    IXS_E_ROW_NOT_IMPL = IXV_E_NOT_IMPLEMENTED,   /* Not implemented yet. */
    IXS_E_ROW_USED = IXV_E_TEXT,                  /* %s: the type is used by a column */
    IXS_E_ROW_TYPE_NF = IXV_E_ROW_TYPE_NOT_FOUND, /* Type (%s) not found. */
    IXS_E_ROW_EXISTS = IXV_E_ROW_TYPE_EXISTS,     /* type (%s) already exists in database. */
    IXS_E_ROW_NO_CAST = IXV_E_NO_CAST,            /* No cast from %s to %s. */
    IXS_E_ROW_NO_ORDER =
        IXV_E_ROW_ORDER, /* ORDER BY, DISTINCT ... not allowed on row-type columns */
};

#define ROW_MAGIC      0x52
#define ROW_LIT        (1u << 31)
#define ROW_MAX_FIELDS IXS_ROW_MAX_FIELDS
#define ROW_FIRST_ID   2049
#define ROW_T_NAMED    4118 /* sysxtdtypes.type / syscolumns.coltype of a named row */
#define ROW_F_NAMED    4096

typedef struct rfield {
    char name[IXS_NAME_MAX + 1];
    ityp t;
    int notnull;
} rfield;

typedef struct rtype {
    int id;
    int named;
    char name[IXS_NAME_MAX + 1];
    int nf;
    rfield f[ROW_MAX_FIELDS];
} rtype;

/* ---- catalogue ------------------------------------------------------------------------- */

static const char cat_sql[] =
    "CREATE TABLE IF NOT EXISTS _ixd_xtdtypes(extended_id INTEGER PRIMARY KEY, mode TEXT,"
    " owner TEXT, name TEXT, type INTEGER);"
    "CREATE TABLE IF NOT EXISTS _ixd_attrtypes(extended_id INTEGER, fieldno INTEGER,"
    " fieldname TEXT, type INTEGER, length INTEGER, PRIMARY KEY(extended_id, fieldno));"
    "DROP VIEW IF EXISTS sysxtdtypes; DROP VIEW IF EXISTS sysattrtypes;"
    "CREATE VIEW sysxtdtypes AS SELECT extended_id, 'C' AS domain, mode, owner, name, type,"
    " 0 AS source, 0 AS maxlen, 0 AS length, 'F' AS byvalue, 'T' AS cannothash, 4 AS align,"
    " 0 AS locator FROM _ixd_xtdtypes;"
    "CREATE VIEW sysattrtypes AS SELECT extended_id, fieldno AS seqno, 1 AS levelno,"
    " 0 AS parent_no, fieldname, fieldno, type, length, 0 AS xtd_type_id FROM _ixd_attrtypes;";

static const char ts_view_sql[] =
    "CREATE VIEW _ixd_rowtypes AS SELECT x.name AS name, x.owner AS owner,"
    " (SELECT group_concat(f, ';') FROM (SELECT a.fieldname || ' ' || (a.type & 255) || ' ' ||"
    " a.length AS f FROM _ixd_attrtypes a WHERE a.extended_id = x.extended_id"
    " ORDER BY a.fieldno)) AS fields FROM _ixd_xtdtypes x WHERE x.mode = 'R';";

int ixs_row_cat_init(sqlite3 *h) {
    sb q = {0};
    ixv_sb_add(&q, cat_sql);
    ixv_sb_add(&q, ts_view_sql);
    int rc = q.oom ? SQLITE_NOMEM : sqlite3_exec(h, q.p, NULL, NULL, NULL);
    ixv_sb_free(&q);
    return rc;
}

/* Row types of a file made before this catalogue: kept by the TimeSeries
 * engine in a table _ixd_rowtypes(name, owner, fields). */
static int migrate_old(sqlite3 *h) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, "SELECT name, owner, fields FROM _ixd_rowtypes", -1, &st, NULL))
        return SQLITE_ERROR;
    sb q = {0};
    int id = ROW_FIRST_ID;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *nm = (const char *)sqlite3_column_text(st, 0);
        const char *ow = (const char *)sqlite3_column_text(st, 1);
        const char *fs = (const char *)sqlite3_column_text(st, 2);
        ixv_sb_printf(&q, "INSERT INTO _ixd_xtdtypes VALUES(%d,'R',", id);
        ixv_sb_strlit(&q, ow ? ow : "", ow ? strlen(ow) : 0);
        ixv_sb_addc(&q, ',');
        ixv_sb_strlit(&q, nm ? nm : "", nm ? strlen(nm) : 0);
        ixv_sb_printf(&q, ",%d);", ROW_T_NAMED);
        for (int k = 1; fs && *fs; k++) {
            char fn[IXS_NAME_MAX + 1];
            int code;
            unsigned len;
            if (sscanf(fs, "%128s %d %u", fn, &code, &len) != 3) break;
            ixv_sb_printf(&q, "INSERT INTO _ixd_attrtypes VALUES(%d,%d,", id, k);
            ixv_sb_strlit(&q, fn, strlen(fn));
            ixv_sb_printf(&q, ",%d,%u);", code, len);
            fs = strchr(fs, ';');
            if (fs) fs++;
        }
        id++;
    }
    sqlite3_finalize(st);
    ixv_sb_add(&q, "DROP TABLE _ixd_rowtypes;");
    int rc = q.oom ? SQLITE_NOMEM : sqlite3_exec(h, q.p, NULL, NULL, NULL);
    ixv_sb_free(&q);
    return rc;
}

void ixs_row_cat_upgrade(sqlite3 *h) {
    sqlite3_stmt *st;
    int have = 0, oldtab = 0;
    if (sqlite3_prepare_v2(h,
                           "SELECT (SELECT count(*) FROM sqlite_master WHERE name = "
                           "'_ixd_xtdtypes'), (SELECT count(*) FROM sqlite_master WHERE name = "
                           "'_ixd_rowtypes' AND type = 'table')",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    if (sqlite3_step(st) == SQLITE_ROW) {
        have = sqlite3_column_int(st, 0);
        oldtab = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    if (have && !oldtab) return;
    if (sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return;
    int rc = sqlite3_exec(h, cat_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK && oldtab) rc = migrate_old(h);
    if (rc == SQLITE_OK) rc = sqlite3_exec(h, ts_view_sql, NULL, NULL, NULL);
    sqlite3_exec(h, rc == SQLITE_OK ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
}

/* Loads row type id (id > 0) or the named type name: 1, 0 not found, -1. */
static int rt_load(sqlite3 *h, int id, const char *name, rtype *out) {
    sqlite3_stmt *st;
    memset(out, 0, sizeof *out);
    if (sqlite3_prepare_v2(h,
                           id ? "SELECT extended_id, mode, name FROM _ixd_xtdtypes WHERE "
                                "extended_id = ?1"
                              : "SELECT extended_id, mode, name FROM _ixd_xtdtypes WHERE "
                                "name = ?2 AND mode = 'R'",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int(st, 1, id);
    sqlite3_bind_text(st, 2, name ? name : "", -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int(st, 0);
        const char *m = (const char *)sqlite3_column_text(st, 1);
        out->named = m && *m == 'R';
        const char *n = (const char *)sqlite3_column_text(st, 2);
        snprintf(out->name, sizeof out->name, "%s", n ? n : "");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return rc == SQLITE_DONE ? 0 : -1;
    if (sqlite3_prepare_v2(h,
                           "SELECT fieldname, type, length FROM _ixd_attrtypes WHERE "
                           "extended_id = ?1 ORDER BY fieldno",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int(st, 1, out->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && out->nf < ROW_MAX_FIELDS) {
        rfield *f = &out->f[out->nf++];
        const char *n = (const char *)sqlite3_column_text(st, 0);
        snprintf(f->name, sizeof f->name, "%s", n ? n : "");
        int ct = sqlite3_column_int(st, 1);
        f->t = ixv_t(ct & 0xff, (uint32_t)sqlite3_column_int64(st, 2));
        f->notnull = (ct & IXT_TF_NOTNULL) != 0;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 1 : -1;
}

static rtype *rt_get(px *p, int id, const char *name) {
    rtype *r = malloc(sizeof *r);
    if (!r) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    int f = rt_load(p->db->h, id, name, r);
    if (f <= 0) {
        free(r);
        if (f < 0) ixs_px_failc(p, IXV_E_NOMEM, NULL);
        if (!f) ixs_px_failc(p, IXS_E_ROW_TYPE_NF, "%s", name ? name : "row");
        return NULL;
    }
    return r;
}

/* Records r (fields set, id not yet) with the next id. */
static int rt_store(px *p, rtype *r) {
    sqlite3 *h = p->db->h;
    sqlite3_stmt *st;
    r->id = ROW_FIRST_ID;
    if (sqlite3_prepare_v2(h, "SELECT max(extended_id) FROM _ixd_xtdtypes", -1, &st, NULL))
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        r->id = sqlite3_column_int(st, 0) + 1;
    sqlite3_finalize(st);
    sb q = {0};
    ixv_sb_printf(&q, "INSERT INTO _ixd_xtdtypes VALUES(%d,'%s',", r->id, r->named ? "R" : "C");
    ixv_sb_strlit(&q, p->db->user, strlen(p->db->user));
    ixv_sb_addc(&q, ',');
    if (r->named)
        ixv_sb_strlit(&q, r->name, strlen(r->name));
    else
        ixv_sb_add(&q, "NULL");
    ixv_sb_printf(&q, ",%d);", r->named ? ROW_T_NAMED : IX_T_ROW);
    for (int k = 0; k < r->nf; k++) {
        ixv_sb_printf(&q, "INSERT INTO _ixd_attrtypes VALUES(%d,%d,", r->id, k + 1);
        ixv_sb_strlit(&q, r->f[k].name, strlen(r->f[k].name));
        ixv_sb_printf(&q, ",%d,%u);", r->f[k].t.code | (r->f[k].notnull ? IXT_TF_NOTNULL : 0),
                      r->f[k].t.len);
    }
    int rc = q.oom ? IXV_E_NOMEM : ixs_exec(p->db, q.p, p->err);
    ixv_sb_free(&q);
    if (rc == IXV_E_NOMEM) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (rc) p->failed = 1;
    return rc ? -1 : 0;
}

struct ixs_rowref {
    char name[IXS_NAME_MAX + 1]; /* a named type's */
    rtype *r;                    /* an unnamed type's fields, else NULL */
};

void ixs_row_ref_free(ixs_rowref *r) {
    if (!r) return;
    free(r->r);
    free(r);
}

ixs_rowref *ixs_row_ref_take(px *p) {
    ixs_rowref *r = p->dry_row;
    p->dry_row = NULL;
    return r;
}

/* A dry parse's lookup of the type named name, or of unnamed type u (its
 * fields copied), skipped: p->dry_row says which. 0, or -1 with -208. */
static int rt_defer(px *p, const char *name, const rtype *u) {
    p->dry_deferred = 1;
    ixs_row_ref_free(ixs_row_ref_take(p));
    ixs_rowref *r = calloc(1, sizeof *r);
    if (r && u && (r->r = malloc(sizeof *u))) *r->r = *u;
    if (!r || (u && !r->r)) {
        ixs_row_ref_free(r);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    if (name) snprintf(r->name, sizeof r->name, "%s", name);
    p->dry_row = r;
    return 0;
}

/* An unnamed type with r's fields: an existing one of the same structure,
 * else a new one (not in a syntax check: id 0). */
static int rt_unnamed_id(px *p, rtype *r) {
    if (p->dry) return rt_defer(p, NULL, r);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(p->db->h,
                           "SELECT extended_id FROM _ixd_xtdtypes WHERE mode = 'C' ORDER BY 1", -1,
                           &st, NULL))
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    rtype *o = malloc(sizeof *o);
    int found = 0;
    while (o && !found && sqlite3_step(st) == SQLITE_ROW) {
        if (rt_load(p->db->h, sqlite3_column_int(st, 0), NULL, o) != 1 || o->nf != r->nf) continue;
        found = o->id;
        for (int k = 0; k < r->nf && found; k++)
            if (strcmp(o->f[k].name, r->f[k].name) || o->f[k].t.code != r->f[k].t.code ||
                o->f[k].t.len != r->f[k].t.len || o->f[k].notnull != r->f[k].notnull)
                found = 0;
    }
    sqlite3_finalize(st);
    free(o);
    if (found) {
        r->id = found;
        return 0;
    }
    return rt_store(p, r);
}

/* ---- types ----------------------------------------------------------------------------- */

/* ( field type [NOT NULL] {, field type [NOT NULL]} ) into r */
static int parse_fields(px *p, rtype *r) {
    if (ixs_px_expect_op(p, "(")) return -1;
    do {
        if (r->nf >= ROW_MAX_FIELDS) return ixs_px_fail(p);
        rfield *f = &r->f[r->nf++];
        int serial;
        int64_t start;
        uint32_t collen;
        if (ixs_px_newname(p, f->name, sizeof f->name)) return -1;
        for (int k = 0; k < r->nf - 1; k++)
            if (!strcmp(r->f[k].name, f->name))
                return ixs_px_failc(p, IXV_E_COLUMN_EXISTS, "%s", f->name);
        int at = p->i;
        if (ixs_parse_type(p, &f->t, &serial, &start, &collen)) return -1;
        if (serial || f->t.code == IX_T_BYTE || f->t.code == IX_T_TEXT || f->t.code == IX_T_ROW ||
            ixs_coll_is(f->t.code)) {
            p->i = at; /* nested rows and collections in rows: not supported */
            return ixs_px_fail(p);
        }
        if (ixs_px_acc(p, IXK_NOT)) {
            if (ixs_px_expect(p, IXK_NULL)) return -1;
            f->notnull = 1;
        }
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

int ixs_row_type_at(px *p) {
    return ixs_px_kw(p, p->i, IXK_ROW) && ixs_px_op(p, p->i + 1, "(");
}

/* unnamed_row := ROW ( field type [NOT NULL] {, ...} ) */
int ixs_row_parse_type(px *p, ityp *t, uint32_t *collen) {
    p->i++;
    rtype *r = calloc(1, sizeof *r);
    if (!r) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    int rc = parse_fields(p, r);
    if (!rc) rc = rt_unnamed_id(p, r);
    if (!rc) {
        *t = ixv_t(IX_T_ROW, (uint32_t)r->id);
        *collen = t->len;
    }
    free(r);
    return rc;
}

int ixs_row_named_type(px *p, const char *name, ityp *t, uint32_t *collen) {
    if (p->dry) {
        *t = ixv_t(IX_T_ROW, 0);
        *collen = 0;
        return rt_defer(p, name, NULL);
    }
    rtype *r = rt_get(p, 0, name);
    if (!r) return -1;
    *t = ixv_t(IX_T_ROW, (uint32_t)r->id);
    *collen = t->len;
    free(r);
    return 0;
}

int ixs_row_ref_id(px *p, const ixs_rowref *ref) {
    rtype *r = ref->r ? malloc(sizeof *r) : rt_get(p, 0, ref->name);
    if (!r) return ref->r ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : -1;
    int rc = 0;
    if (ref->r) {
        *r = *ref->r;
        rc = rt_unnamed_id(p, r);
    }
    int id = r->id;
    free(r);
    return rc ? -1 : id;
}

int ixs_row_coltype(int code, uint32_t len, sqlite3 *h) {
    if (code != IX_T_ROW || !len) return code;
    sqlite3_stmt *st;
    int named = 0;
    if (sqlite3_prepare_v2(h, "SELECT mode FROM _ixd_xtdtypes WHERE extended_id = ?1", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_int(st, 1, (int)len);
        if (sqlite3_step(st) == SQLITE_ROW) {
            const char *m = (const char *)sqlite3_column_text(st, 0);
            named = m && *m == 'R';
        }
        sqlite3_finalize(st);
    }
    return code | (named ? ROW_F_NAMED : 0);
}

/* The descriptor blob of r's fields as X'..' into out. */
static void desc_sql(const rtype *r, sb *out) {
    ixv_sb_add(out, "X'");
    for (int k = 0; k < r->nf; k++)
        ixv_sb_printf(out, "%02X%08X", (unsigned)r->f[k].t.code & 0xff, r->f[k].t.len);
    ixv_sb_addc(out, '\'');
}

static void type_name(px *p, ityp t, char *buf, size_t n) {
    if (t.code != IX_T_ROW) {
        ixv_type_text(t.code >= 0 ? t : ixv_t(IX_T_CHAR, 1), buf, n);
        return;
    }
    rtype r;
    if (!(t.len & ROW_LIT) && t.len && rt_load(p->db->h, (int)t.len, NULL, &r) == 1 && r.named)
        snprintf(buf, n, "%s", r.name);
    else
        snprintf(buf, n, "row");
}

void ixs_row_to_type(px *p, xv *v, ityp t) {
    if (p->failed) return;
    if (v->k == XK_NULL) {
        v->t = t;
        return;
    }
    if (v->t.code == IX_T_ROW && v->t.len == t.len) return;
    if (!t.len || (t.len & ROW_LIT)) return; /* a syntax check: no type yet */
    char a[IXS_NAME_MAX + 1], b[IXS_NAME_MAX + 1];
    rtype *r = rt_get(p, (int)t.len, NULL);
    if (!r) return;
    sb n = {0};
    if (v->k == XK_PARAM) {
        if (p->ptypes[v->pidx].code < 0) p->ptypes[v->pidx] = ixv_t(IX_T_LVARCHAR, 2048);
        ixv_sb_printf(&n, "ixd_row_in(?%d,", v->pidx + 1);
    } else if (v->k == XK_STR || ixv_is_char(v->t.code)) {
        ixv_sb_printf(&n, "ixd_row_in(%s,", ixs_xs(v));
    } else if (v->t.code == IX_T_ROW) {
        rtype o;
        int named_src =
            !(v->t.len & ROW_LIT) && rt_load(p->db->h, (int)v->t.len, NULL, &o) == 1 && o.named;
        int nsrc = (v->t.len & ROW_LIT) ? (int)(v->t.len & 0xffff) : named_src ? o.nf : -1;
        if ((named_src && r->named) || (nsrc >= 0 && nsrc != r->nf)) goto no_cast;
        ixv_sb_printf(&n, "ixd_row_cast(%s,", ixs_xs(v));
    } else {
        goto no_cast;
    }
    desc_sql(r, &n);
    ixv_sb_addc(&n, ')');
    free(r);
    ixs_xv_set_sql(v, &n);
    v->k = XK_EXPR;
    v->t = t;
    return;
no_cast:
    type_name(p, v->t, a, sizeof a);
    type_name(p, t, b, sizeof b);
    free(r);
    ixs_px_failc(p, IXS_E_ROW_NO_CAST, "%s,%s", a, b);
}

int ixs_row_cmp(px *p, xv *l, xv *r) {
    if (l->t.code != IX_T_ROW && r->t.code != IX_T_ROW) return 0;
    xv *row = l->t.code == IX_T_ROW && !(l->t.len & ROW_LIT) ? l : r;
    xv *other = row == l ? r : l;
    if (row->t.code == IX_T_ROW && !(row->t.len & ROW_LIT)) ixs_row_to_type(p, other, row->t);
    return 1;
}

/* ---- expressions ----------------------------------------------------------------------- */

ityp ixs_row_lit_type(int nfields) {
    return ixv_t(IX_T_ROW, ROW_LIT | (uint32_t)nfields);
}

int ixs_row_field(px *p, xv *out, const char *field) {
    if (out->t.code != IX_T_ROW || (out->t.len & ROW_LIT))
        return ixs_px_failc(p, IXS_E_ROW_NO_FIELD, "%s", field);
    rtype *r = rt_get(p, (int)out->t.len, NULL);
    if (!r) return -1;
    int k = 0;
    while (k < r->nf && strcmp(r->f[k].name, field))
        k++;
    if (k == r->nf) {
        free(r);
        return ixs_px_failc(p, IXS_E_ROW_NO_FIELD, "%s", field);
    }
    sb n = {0};
    ixv_sb_printf(&n, "ixd_row_field(%s,%d)", ixs_xs(out), k);
    ixs_xv_set_sql(out, &n);
    out->t = r->f[k].t;
    out->k = XK_EXPR;
    out->lk = LB_COL;
    out->notnull = 0;
    snprintf(out->label, sizeof out->label, "%s", field);
    free(r);
    return 0;
}

int ixs_row_colref(px *p, const char *q, const char *name) {
    for (scope *sc = p->sc; sc; sc = sc->up)
        for (int ti = 0; ti < sc->n; ti++) {
            tref *t = sc->t[ti];
            int match = !strcmp(t->alias, q ? q : name) || !strcmp(t->tab.name, q ? q : name);
            if (!q && match) return 0; /* name is a table: table.column */
            if (q && !match) continue;
            for (int ci = 0; ci < t->tab.ncols; ci++)
                if (!strcmp(t->tab.cols[ci].name, name) && t->tab.cols[ci].t.code == IX_T_ROW)
                    return 1;
        }
    return 0;
}

void ixs_row_out(px *p, sb *list, size_t start, ityp t) {
    if (t.code != IX_T_ROW || !p->row_top || p->depth != 1) return;
    size_t n = list->n - start;
    char *e = malloc(n + 1);
    if (!e) {
        list->oom = 1;
        return;
    }
    memcpy(e, list->p + start, n);
    e[n] = 0;
    list->n = start;
    ixv_sb_printf(list, "ixd_row_text(%s)", e);
    free(e);
}

int ixs_row_order_check(px *p, ityp t) {
    if (t.code == IX_T_ROW) return ixs_px_failc(p, IXS_E_ROW_NO_ORDER, NULL);
    return 0;
}

/* ---- statements ------------------------------------------------------------------------ */

/* CREATE ROW TYPE, parsed: the type (its id assigned when it runs). */
typedef struct row_create {
    rtype *r;
    int ine;   /* IF NOT EXISTS */
    int under; /* UNDER supertype: refused when it runs */
} row_create;

static void row_create_free(void *tree) {
    row_create *c = tree;
    free(c->r);
    free(c);
}

static int row_create_run(px *p, const void *tree) {
    const row_create *c = tree;
    rtype *r = c->r;
    if (c->under) return ixs_px_failc(p, IXS_E_ROW_NOT_IMPL, "UNDER (type inheritance)");
    rtype old;
    int f = rt_load(p->db->h, 0, r->name, &old);
    if (f) {
        if (f < 0) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return c->ine ? 0 : ixs_px_failc(p, IXS_E_ROW_EXISTS, "%s", r->name);
    }
    if (ixs_ddl_begin(p)) return -1;
    int ok = rt_store(p, r) == 0;
    return ixs_ddl_end(p, ok);
}

/* CREATE ROW TYPE [IF NOT EXISTS] [owner.]name ( field type [NOT NULL], ... )
 *     [UNDER supertype]                                       after CREATE */
static int create_row(px *p, ixs_plan *pl) {
    row_create c = {0};
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -1;
        c.ine = 1;
    }
    rtype *r = calloc(1, sizeof *r);
    if (!r) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    r->named = 1;
    int rc = ixs_px_newname(p, r->name, sizeof r->name);
    if (!rc && ixs_px_acc_op(p, ".")) rc = ixs_px_newname(p, r->name, sizeof r->name);
    if (!rc) rc = parse_fields(p, r);
    if (!rc && ixs_px_acc(p, IXK_UNDER)) {
        char sup[IXS_NAME_MAX + 1];
        rc = ixs_px_ident(p, sup, sizeof sup);
        c.under = 1;
    }
    c.r = r;
    if (!rc) rc = ixs_plan_keep(p, pl, &c, sizeof c, row_create_run, row_create_free);
    if (rc) free(r);
    return rc;
}

/* The first column typed with row type id (or TIMESERIES of it) into buf:
 * 1, 0 none. */
static int row_user(px *p, const rtype *r, char *buf, size_t n) {
    static const char *const q[] = {
        "SELECT t.tabname, c.colname FROM _ixd_columns c JOIN _ixd_tables t ON t.tabid = c.tabid"
        " WHERE c.coltype & 255 = 22 AND c.collength = ?1",
        "SELECT t.tabname, c.colname FROM temp._ixd_tcolumns c JOIN temp._ixd_ttables t"
        " ON t.tabid = c.tabid WHERE c.coltype & 255 = 22 AND c.collength = ?1",
        "SELECT tab, col FROM _ixd_ts_columns WHERE rowtype = ?2",
    };
    for (size_t k = 0; k < sizeof q / sizeof q[0]; k++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(p->db->h, q[k], -1, &st, NULL) != SQLITE_OK) continue;
        sqlite3_bind_int(st, 1, r->id);
        sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
        int hit = sqlite3_step(st) == SQLITE_ROW;
        if (hit) snprintf(buf, n, "%s.%s", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1));
        sqlite3_finalize(st);
        if (hit) return 1;
    }
    return 0;
}

/* DROP ROW TYPE, parsed */
typedef struct row_drop {
    char name[IXS_NAME_MAX + 1];
    int ife; /* IF EXISTS */
} row_drop;

static int row_drop_run(px *p, const void *tree) {
    const row_drop *d = tree;
    rtype *r = malloc(sizeof *r);
    if (!r) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    int f = rt_load(p->db->h, 0, d->name, r);
    if (f <= 0) {
        free(r);
        if (f < 0) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return d->ife ? 0 : ixs_px_failc(p, IXS_E_ROW_TYPE_NF, "%s", d->name);
    }
    char user[2 * IXS_NAME_MAX + 2];
    if (row_user(p, r, user, sizeof user)) {
        free(r);
        return ixs_px_failc(p, IXS_E_ROW_USED, "Row type %s is used by %s", d->name, user);
    }
    sb q = {0};
    ixv_sb_printf(&q,
                  "DELETE FROM _ixd_attrtypes WHERE extended_id = %d;"
                  "DELETE FROM _ixd_xtdtypes WHERE extended_id = %d;",
                  r->id, r->id);
    free(r);
    if (q.oom || ixs_ddl_begin(p)) {
        ixv_sb_free(&q);
        return p->failed ? -1 : ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    int ok = ixs_exec(p->db, q.p, p->err) == 0;
    ixv_sb_free(&q);
    if (!ok) p->failed = 1;
    return ixs_ddl_end(p, ok);
}

/* DROP ROW TYPE [IF EXISTS] [owner.]name [RESTRICT]                    after DROP */
static int drop_row(px *p, ixs_plan *pl) {
    row_drop d = {0};
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_EXISTS)) return -1;
        d.ife = 1;
    }
    if (ixs_px_ident(p, d.name, sizeof d.name)) return -1;
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, d.name, sizeof d.name)) return -1;
    ixs_px_acc(p, IXK_RESTRICT);
    return ixs_plan_keep(p, pl, &d, sizeof d, row_drop_run, NULL);
}

int ixs_row_stmt(px *p, int create, int *stype, ixs_plan *pl) {
    if (!ixs_px_kw(p, p->i, IXK_ROW) || !ixs_px_kw(p, p->i + 1, IXK_TYPE)) return 0;
    p->i += 2;
    *stype = create ? IX_STMTTYPE_CREATE_ROWTYPE : IX_STMTTYPE_DROP_ROWTYPE;
    return (create ? create_row(p, pl) : drop_row(p, pl)) ? -1 : 1;
}

/* ---- SQLite functions ------------------------------------------------------------------ */

static void row_err(sqlite3_context *ctx, int code) {
    ixv_fn_err(ctx, code, NULL);
}

static uint32_t get_u32(const uint8_t *b) {
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void put_u32(ixb_wbuf *w, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    ixb_put_bytes(w, b, 4);
}

static void put_u64(ixb_wbuf *w, uint64_t v) {
    put_u32(w, (uint32_t)(v >> 32));
    put_u32(w, (uint32_t)v);
}

/* Appends one field (type t, storage value v) to w. */
static void put_field(ixb_wbuf *w, ityp t, const sval *v) {
    uint8_t h[2] = {(uint8_t)t.code, 0};
    ixb_put_bytes(w, h, 1);
    put_u32(w, t.len);
    h[0] = (uint8_t)v->kind;
    ixb_put_bytes(w, h, 1);
    if (v->kind == SQLITE_INTEGER)
        put_u64(w, (uint64_t)v->i);
    else if (v->kind == SQLITE_FLOAT) {
        uint64_t u;
        memcpy(&u, &v->d, sizeof u);
        put_u64(w, u);
    } else if (v->kind == SQLITE_TEXT || v->kind == SQLITE_BLOB) {
        put_u32(w, (uint32_t)v->n);
        if (v->n) ixb_put_bytes(w, v->p, v->n);
    }
}

static void put_head(ixb_wbuf *w, int n) {
    uint8_t h[3] = {ROW_MAGIC, (uint8_t)(n >> 8), (uint8_t)n};
    ixb_put_bytes(w, h, 3);
}

static void result_wbuf(sqlite3_context *ctx, ixb_wbuf *w) {
    if (w->err)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_blob(ctx, w->data, (int)w->len, SQLITE_TRANSIENT);
    ixb_wbuf_free(w);
}

/* The field at b[*at..n] into t and v (borrowed): 0, or -1 when malformed. */
static int get_field(const uint8_t *b, size_t n, size_t *at, ityp *t, sval *v) {
    size_t i = *at;
    memset(v, 0, sizeof *v);
    if (n - i < 6) return -1;
    *t = ixv_t(b[i], get_u32(b + i + 1));
    v->kind = b[i + 5];
    i += 6;
    if (v->kind == SQLITE_INTEGER || v->kind == SQLITE_FLOAT) {
        if (n - i < 8) return -1;
        uint64_t u = (uint64_t)get_u32(b + i) << 32 | get_u32(b + i + 4);
        if (v->kind == SQLITE_INTEGER)
            v->i = (int64_t)u;
        else
            memcpy(&v->d, &u, sizeof u);
        i += 8;
    } else if (v->kind == SQLITE_TEXT || v->kind == SQLITE_BLOB) {
        if (n - i < 4) return -1;
        size_t m = get_u32(b + i);
        i += 4;
        if (n - i < m) return -1;
        v->p = b + i;
        v->n = m;
        i += m;
    } else if (v->kind != SQLITE_NULL) {
        return -1;
    }
    *at = i;
    return 0;
}

/* The number of fields of a row blob, or -1 when it is not one. */
static int row_head(sqlite3_value *x, const uint8_t **b, size_t *n) {
    if (sqlite3_value_type(x) != SQLITE_BLOB) return -1;
    *b = sqlite3_value_blob(x);
    *n = (size_t)sqlite3_value_bytes(x);
    if (*n < 3 || (*b)[0] != ROW_MAGIC) return -1;
    return (*b)[1] << 8 | (*b)[2];
}

static int desc_get(sqlite3_value *d, int k, ityp *t) {
    const uint8_t *b = sqlite3_value_blob(d);
    size_t n = (size_t)sqlite3_value_bytes(d);
    if ((size_t)(k + 1) * 5 > n || !b) return -1;
    *t = ixv_t(b[k * 5], get_u32(b + k * 5 + 1));
    return 0;
}

/* ixd_row_pack(desc, v1, ..., vn) */
static void f_pack(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    put_head(&w, argc - 1);
    for (int k = 1; k < argc; k++) {
        ityp t;
        if (desc_get(argv[0], k - 1, &t)) {
            ixb_wbuf_free(&w);
            row_err(ctx, IXS_E_ROW_TEXT);
            return;
        }
        sval v;
        ixv_sval_from_sqlite(&v, argv[k]);
        put_field(&w, t, &v);
    }
    result_wbuf(ctx, &w);
}

int ixs_row_convert(sqlite3 *h, ityp from, const sval *v, ityp to, sval *out) {
    if (from.code != IX_T_ROW || to.code != IX_T_ROW || v->kind != SQLITE_BLOB ||
        (to.len & ROW_LIT) || from.len == to.len)
        return ixv_convert(from, v, to, out);
    memset(out, 0, sizeof *out);
    const uint8_t *b = v->p;
    size_t n = v->n, at = 3;
    if (n < 3 || b[0] != ROW_MAGIC) return IXS_E_ROW_TEXT;
    rtype r;
    if (rt_load(h, (int)to.len, NULL, &r) != 1) return IXS_E_ROW_TEXT;
    int nf = b[1] << 8 | b[2];
    if (nf != r.nf) return IXS_E_ROW_NO_CAST;
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    put_head(&w, nf);
    int rc = 0;
    for (int k = 0; k < nf && !rc; k++) { /* as ixd_row_cast */
        ityp ft;
        sval fv, c;
        rc = get_field(b, n, &at, &ft, &fv) ? IXS_E_ROW_TEXT : 0;
        if (!rc && fv.kind != SQLITE_NULL) rc = ixv_convert(ft, &fv, r.f[k].t, &c);
        if (rc) break;
        put_field(&w, r.f[k].t, fv.kind == SQLITE_NULL ? &fv : &c);
        if (fv.kind != SQLITE_NULL) ixv_sval_free(&c);
    }
    if (rc || w.err) {
        ixb_wbuf_free(&w);
        return rc ? rc : IXV_E_NOMEM;
    }
    out->kind = SQLITE_BLOB; /* the buffer's bytes become the value's own */
    out->own = w.data;
    out->p = w.data;
    out->n = w.len;
    return 0;
}

/* ixd_row_cast(row, desc): each field converted to desc's type. */
static void f_cast(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    const uint8_t *b;
    size_t n, at = 3;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    int nf = row_head(argv[0], &b, &n);
    if (nf < 0 || (size_t)nf * 5 != (size_t)sqlite3_value_bytes(argv[1])) {
        row_err(ctx, nf < 0 ? IXS_E_ROW_TEXT : IXS_E_ROW_NO_CAST);
        return;
    }
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    put_head(&w, nf);
    for (int k = 0; k < nf; k++) {
        ityp from, to;
        sval v, c;
        int rc = get_field(b, n, &at, &from, &v) || desc_get(argv[1], k, &to) ? IXS_E_ROW_TEXT : 0;
        if (!rc) rc = v.kind == SQLITE_NULL ? 0 : ixv_convert(from, &v, to, &c);
        if (rc) {
            ixb_wbuf_free(&w);
            row_err(ctx, rc);
            return;
        }
        put_field(&w, to, v.kind == SQLITE_NULL ? &v : &c);
        if (v.kind != SQLITE_NULL) ixv_sval_free(&c);
    }
    result_wbuf(ctx, &w);
}

static void skip_blanks(const char *s, size_t n, size_t *i) {
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
        (*i)++;
}

/* One field of the text form at s[*i] into out (quotes removed); *null for
 * the word NULL. */
static int read_field(const char *s, size_t n, size_t *i, sb *out, int *null) {
    skip_blanks(s, n, i);
    *null = 0;
    if (*i < n && (s[*i] == '\'' || s[*i] == '"')) {
        char q = s[(*i)++];
        for (;;) {
            if (*i >= n) return IXS_E_ROW_TEXT;
            if (s[*i] == q && !(*i + 1 < n && s[*i + 1] == q)) break;
            if (s[*i] == q) (*i)++;
            ixv_sb_addc(out, s[(*i)++]);
        }
        (*i)++;
    } else {
        size_t st = *i;
        while (*i < n && s[*i] != ',' && s[*i] != ')' && s[*i] != ' ')
            (*i)++;
        if (*i == st) return IXS_E_ROW_TEXT;
        *null = *i - st == 4 && !strncasecmp(s + st, "null", 4);
        ixv_sb_addn(out, s + st, *i - st);
    }
    skip_blanks(s, n, i);
    return 0;
}

/* The text form ROW(f1, ..., fn) for desc into w: 0 or an SQLCODE. */
static int parse_text(const char *s, size_t n, const uint8_t *desc, size_t dn, ixb_wbuf *w) {
    size_t i = 0;
    int nf = (int)(dn / 5);
    skip_blanks(s, n, &i);
    if (n - i < 4 || strncasecmp(s + i, "row", 3)) return IXS_E_ROW_TEXT;
    i += 3;
    skip_blanks(s, n, &i);
    if (i >= n || s[i++] != '(') return IXS_E_ROW_TEXT;
    put_head(w, nf);
    for (int k = 0; k < nf; k++) {
        if (k && (i >= n || s[i++] != ',')) return IXS_E_ROW_NO_CAST;
        sb e = {0};
        int null;
        ityp t;
        int rc = read_field(s, n, &i, &e, &null);
        if (!rc) t = ixv_t(desc[k * 5], get_u32(desc + k * 5 + 1));
        sval v;
        memset(&v, 0, sizeof v);
        if (!rc && !null) rc = ixv_text_to_sval(t, e.p ? e.p : "", e.n, &v);
        ixv_sb_free(&e);
        if (rc) return rc;
        put_field(w, t, &v);
        ixv_sval_free(&v);
    }
    if (i >= n || s[i++] != ')') return IXS_E_ROW_NO_CAST;
    skip_blanks(s, n, &i);
    return i == n ? 0 : IXS_E_ROW_TEXT;
}

/* ixd_row_in(text, desc) */
static void f_in(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    const uint8_t *d = sqlite3_value_blob(argv[1]);
    int rc =
        parse_text((const char *)sqlite3_value_text(argv[0]), (size_t)sqlite3_value_bytes(argv[0]),
                   d, d ? (size_t)sqlite3_value_bytes(argv[1]) : 0, &w);
    if (rc) {
        ixb_wbuf_free(&w);
        row_err(ctx, rc);
        return;
    }
    result_wbuf(ctx, &w);
}

/* ixd_row_field(row, k) */
static void f_field(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    const uint8_t *b;
    size_t n, at = 3;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    int nf = row_head(argv[0], &b, &n), k = sqlite3_value_int(argv[1]);
    if (nf < 0 || k < 0 || k >= nf) {
        row_err(ctx, IXS_E_ROW_TEXT);
        return;
    }
    ityp t;
    sval v;
    for (int j = 0; j <= k; j++)
        if (get_field(b, n, &at, &t, &v)) {
            row_err(ctx, IXS_E_ROW_TEXT);
            return;
        }
    ixv_sval_result(&v, ctx);
}

/* The text ROW(1,'x') of packed row b[0..n) into out: numbers bare, NULL
 * fields as NULL, CHAR(n) with its n characters. 0 or an SQLCODE. */
static int row_to_text(const uint8_t *b, size_t n, sb *out) {
    size_t at = 3;
    int nf = n < 3 || b[0] != ROW_MAGIC ? -1 : b[1] << 8 | b[2], rc = nf < 0 ? IXS_E_ROW_TEXT : 0;
    ixv_sb_add(out, "ROW(");
    for (int k = 0; !rc && k < nf; k++) {
        ityp t;
        sval v;
        if (get_field(b, n, &at, &t, &v)) return IXS_E_ROW_TEXT;
        if (k) ixv_sb_addc(out, ',');
        if (v.kind == SQLITE_NULL) {
            ixv_sb_add(out, "NULL");
            continue;
        }
        ixb_wbuf w;
        ixb_wbuf_init(&w, NULL);
        rc = ixv_sval_to_text(t, &v, &w);
        if (rc == 1) rc = 0;
        size_t width = t.code == IX_T_CHAR || t.code == IX_T_NCHAR ? (t.len & 0xffff) : 0;
        while (!rc && w.len < width && !w.err)
            ixb_put_u8(&w, ' '); /* CHAR(n) shows its n characters */
        if (!rc && ixv_is_numeric(t.code))
            ixv_sb_addn(out, (const char *)w.data, w.len);
        else if (!rc)
            ixv_sb_strlit(out, (const char *)w.data, w.len);
        ixb_wbuf_free(&w);
    }
    ixv_sb_addc(out, ')');
    return !rc && out->oom ? IXV_E_NOMEM : rc;
}

/* ixd_row_text(row) */
static void f_text(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    sb out = {0};
    int rc =
        sqlite3_value_type(argv[0]) == SQLITE_BLOB
            ? row_to_text(sqlite3_value_blob(argv[0]), (size_t)sqlite3_value_bytes(argv[0]), &out)
            : IXS_E_ROW_TEXT;
    if (rc)
        row_err(ctx, rc);
    else
        sqlite3_result_text(ctx, out.p, (int)out.n, SQLITE_TRANSIENT);
    ixv_sb_free(&out);
}

/* The row of type id for text s as a packed row (own bytes) into out. */
int ixs_row_from_text(sqlite3 *h, int id, const char *s, size_t n, sval *out) {
    rtype *r = malloc(sizeof *r);
    if (!r) return IXV_E_NOMEM;
    int rc = rt_load(h, id, NULL, r) == 1 ? 0 : IXS_E_ROW_TEXT;
    sb d = {0};
    for (int k = 0; !rc && k < r->nf; k++) {
        uint8_t f[5] = {(uint8_t)r->f[k].t.code, (uint8_t)(r->f[k].t.len >> 24),
                        (uint8_t)(r->f[k].t.len >> 16), (uint8_t)(r->f[k].t.len >> 8),
                        (uint8_t)r->f[k].t.len};
        ixv_sb_addn(&d, (const char *)f, 5);
    }
    free(r);
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    if (!rc) rc = d.oom ? IXV_E_NOMEM : parse_text(s, n, (const uint8_t *)d.p, d.n, &w);
    ixv_sb_free(&d);
    if (!rc && w.err) rc = IXV_E_NOMEM;
    memset(out, 0, sizeof *out);
    if (!rc) {
        out->kind = SQLITE_BLOB;
        out->own = w.data;
        out->p = w.data;
        out->n = w.len;
    } else {
        ixb_wbuf_free(&w);
    }
    return rc;
}

int ixs_row_canon(sqlite3 *h, int id, const char *s, size_t n, sb *out) {
    sval v;
    int rc = ixs_row_from_text(h, id, s, n, &v);
    if (!rc) rc = row_to_text(v.p, v.n, out);
    if (!rc) ixv_sval_free(&v);
    return rc;
}

int ixs_row_register(sqlite3 *h) {
    int det = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc = sqlite3_create_function(h, "ixd_row_pack", -1, det, NULL, f_pack, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_row_cast", 2, det, NULL, f_cast, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_row_in", 2, det, NULL, f_in, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_row_field", 2, det, NULL, f_field, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_row_text", 1, det, NULL, f_text, NULL, NULL);
    return rc;
}
