/* ix_print.c: one decoded line per SQLI message. */
#include "ix_print.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ix_login.h"
#include "proto/ix_blob.h"
#include "proto/ix_fastpath.h"
#include "proto/ix_lob.h"
#include "types/ix_types.h"

void ixp_printf(ixb_wbuf *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        ixb_put_bytes(out, tmp, (size_t)n);
        return;
    }
    if (ixb_wbuf_reserve(out, (size_t)n + 1)) return;
    va_start(ap, fmt);
    vsnprintf((char *)out->data + out->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    out->len += (size_t)n;
}

void ixp_print_quoted(ixb_wbuf *out, const void *s, size_t n) {
    const uint8_t *p = s;
    ixb_put_u8(out, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"' || p[i] == '\\') {
            ixb_put_u8(out, '\\');
            ixb_put_u8(out, p[i]);
        } else if (p[i] < 0x20 || p[i] == 0x7f) {
            ixp_printf(out, "\\x%02x", p[i]);
        } else {
            ixb_put_u8(out, p[i]);
        }
    }
    ixb_put_u8(out, '"');
}

void ixp_printer_init(ixp_printer *p, const ixb_alloc *alloc) {
    memset(p, 0, sizeof *p);
    ixb_wbuf_init(&p->cols, alloc);
}

void ixp_printer_free(ixp_printer *p) {
    ixb_wbuf_free(&p->cols);
}

static const char *stmt_type_name(int t) {
    switch (t) {
    case IX_STMTTYPE_DATABASE: return "DATABASE";
    case IX_STMTTYPE_SELECT: return "SELECT";
    case IX_STMTTYPE_UPDATE: return "UPDATE";
    case IX_STMTTYPE_DELETE: return "DELETE";
    case IX_STMTTYPE_INSERT: return "INSERT";
    case IX_STMTTYPE_CREATE_DB: return "CREATE DATABASE";
    case IX_STMTTYPE_CREATE_TABLE: return "CREATE TABLE";
    case IX_STMTTYPE_CLOSE_DB: return "CLOSE DATABASE";
    case IX_STMTTYPE_START_DB: return "START DATABASE";
    default: return NULL;
    }
}

/* "INTEGER", "DECIMAL(8,4)", "VARCHAR(10)", "DATETIME YEAR TO SECOND", with
 * flags and extended names. */
static void print_type(ixb_wbuf *out, int type, int32_t enclen, ixp_bytes xname) {
    int base = type & 0xff;
    const char *name = ixt_type_name(base);
    if (xname.n) {
        ixb_put_bytes(out, xname.p, xname.n);
        ixp_printf(out, "(%d)", base);
    } else if (name) {
        ixp_printf(out, "%s", name);
    } else {
        ixp_printf(out, "type%d", base);
    }
    ixp_printf(out, " len=0x%x", (unsigned)enclen);
    if (type & 0x100) ixp_printf(out, " NOT NULL");
    if (type & ~0x1ff) ixp_printf(out, " flags=0x%x", (unsigned)(type & ~0x1ff));
}

static void print_value(ixp_printer *p, ixt_vtype t, const uint8_t *v, size_t n, ixb_wbuf *out) {
    size_t mark = out->len;
    int rc = ixt_value_format(t, v, n, &p->fmt, out);
    if (rc == IX_NULL_VALUE) {
        ixp_printf(out, "NULL");
    } else if (rc != IX_OK) {
        out->len = mark;
        out->err = IX_OK;
        ixp_printf(out, "<bad %s value>", ixt_type_name(t.code) ? ixt_type_name(t.code) : "?");
    } else {
        int text = t.code == IX_T_CHAR || t.code == IX_T_NCHAR || t.code == IX_T_VARCHAR ||
                   t.code == IX_T_NVARCHAR || t.code == IX_T_LVARCHAR;
        if (text) { /* quote strings so blanks and empties are visible */
            size_t len = out->len - mark;
            char tmp[512];
            if (len < sizeof tmp) {
                memcpy(tmp, out->data + mark, len);
                out->len = mark;
                ixp_print_quoted(out, tmp, len);
            }
        }
    }
}

/* Tuple values, walked with the last DESCRIBE's columns. */
static void print_tuple(ixp_printer *p, ixp_bytes data, ixb_wbuf *out) {
    const ixt_vtype *cols = (const ixt_vtype *)(void *)p->cols.data;
    size_t pos = 0;
    ixb_put_u8(out, '(');
    for (int i = 0; i < p->ncols; i++) {
        size_t used = 0;
        int rc = ixt_value_extent(cols[i], data.p + pos, data.n - pos, data.n, p->caps.f70, &used);
        if (i) ixp_printf(out, ", ");
        if (rc != IX_OK) {
            ixp_printf(out, "<column %d does not fit the payload>", i + 1);
            break;
        }
        print_value(p, cols[i], data.p + pos, used, out);
        pos += used;
    }
    if (p->ncols && pos != data.n) ixp_printf(out, " +%zu bytes", data.n - pos);
    ixb_put_u8(out, ')');
}

static void print_describe(ixp_printer *p, const ixp_msg *m, ixb_wbuf *out) {
    const char *st = stmt_type_name(m->u.describe.stmt_type);
    ixp_printf(out, " stmt_type=%d%s%s%s id=%d est_rows=%d tuple_size=%d ncols=%d%s",
               m->u.describe.stmt_type, st ? "(" : "", st ? st : "", st ? ")" : "",
               m->u.describe.stmt_id, m->u.describe.est_rows, m->u.describe.tuple_size,
               m->u.describe.ncols, m->u.describe.extended ? "" : " layout=old");
    ixb_wbuf_reset(&p->cols);
    p->ncols = 0;
    size_t pos = 0;
    ixp_column c;
    while (ixp_describe_next(m, &pos, &c)) {
        ixp_printf(out, "%s", p->ncols ? ", " : " [");
        ixb_put_bytes(out, c.name.p, c.name.n);
        ixb_put_u8(out, ' ');
        print_type(out, c.type, c.enclen, c.xname);
        ixp_printf(out, " start=%d", c.start);
        char xn[32] = {0};
        memcpy(xn, c.xname.p ? (const char *)c.xname.p : "",
               c.xname.n < sizeof xn - 1 ? c.xname.n : sizeof xn - 1);
        ixt_vtype t = {ixt_vtype_resolve(c.type & 0xff, xn), (uint32_t)c.enclen};
        ixb_put_bytes(&p->cols, &t, sizeof t);
        p->ncols++;
    }
    if (p->ncols) ixb_put_u8(out, ']');
    if (p->cols.err) p->ncols = 0;
}

/* A BYTE/TEXT descriptor bound for SQ_BBIND data: its size (or NULL). */
static void print_blobdesc(const ixp_bindval *v, ixb_wbuf *out) {
    uint32_t size = 0;
    int is_null = 0;
    (void)ixp_blobdesc_get(v->value.p, v->value.n, &size, &is_null);
    if (is_null)
        ixp_printf(out, "<descriptor: NULL>");
    else
        ixp_printf(out, "<descriptor: %u bytes follow>", (unsigned)size);
}

static void print_bind(ixp_printer *p, const ixp_msg *m, ixb_wbuf *out) {
    ixp_printf(out, " count=%d", m->u.bind.count);
    size_t pos = 0;
    ixp_bindval v;
    int i = 0;
    while (ixp_bind_next(m, &pos, &v)) {
        ixp_printf(out, "%s", i++ ? ", " : " [");
        print_type(out, v.type, v.slot, v.xname);
        ixb_put_u8(out, ' ');
        if (v.indicator == IXP_IND_NULL) {
            ixp_printf(out, "NULL");
        } else if (v.indicator == IXP_IND_DEFAULT) {
            ixp_printf(out, "DEFAULT");
        } else if (ixp_bind_is_blobdesc(&v)) {
            print_blobdesc(&v, out);
        } else {
            ixt_vtype t = ixp_bind_vtype(&v);
            ixb_wbuf tuple;
            ixb_wbuf_init(&tuple, p->cols.alloc);
            if (ixt_value_from_bind(t, v.value.p, v.value.n, &tuple) == IX_OK)
                print_value(p, t, tuple.data, tuple.len, out);
            else
                ixp_printf(out, "<%zu bytes>", v.value.n);
            ixb_wbuf_free(&tuple);
        }
    }
    if (i) ixb_put_u8(out, ']');
}

/* A server's database list: the count, then the names. */
static void print_dblist(const ixp_msg *m, ixb_wbuf *out) {
    ixp_printf(out, " count=%d", m->u.dblist.count);
    size_t pos = 0;
    ixp_bytes name;
    int i = 0;
    while (ixp_dblist_next(m, &pos, &name)) {
        ixp_printf(out, "%s", i++ ? ", " : " [");
        ixp_print_quoted(out, name.p, name.n);
    }
    if (i) ixb_put_u8(out, ']');
}

int ixp_print_msg(ixp_printer *p, ixp_role role, const ixp_msg *m, ixb_wbuf *out) {
    if (m->tag == IXP_MSG_LOGIN) {
        ixp_login_print(m->u.login.packet.p, m->u.login.packet.n, out);
        return out->err;
    }
    const char *name = ixp_tag_name(m->tag);
    ixp_printf(out, "%s", name ? name : "SQ_?");
    switch (m->tag) {
    case IXP_SQ_COMMAND:
    case IXP_SQ_PREPARE:
        if (m->tag == IXP_SQ_PREPARE) ixp_printf(out, " nparams=%d", m->u.stmt.nparams);
        ixp_printf(out, " sql=");
        ixp_print_quoted(out, m->u.stmt.sql.p, m->u.stmt.sql.n);
        break;
    case IXP_SQ_CURNAME:
    case IXP_SQ_RELSVPOINT:
    case IXP_SQ_RBSVPOINT:
        ixb_put_u8(out, ' ');
        ixp_print_quoted(out, m->u.name.p, m->u.name.n);
        break;
    case IXP_SQ_ID: ixp_printf(out, " %d", m->u.id); break;
    case IXP_SQ_BIND: print_bind(p, m, out); break;
    case IXP_SQ_NFETCH:
        ixp_printf(out, " bufsize=%d arraysize=%d", m->u.nfetch.bufsize, m->u.nfetch.arraysize);
        break;
    case IXP_SQ_SFETCH:
        ixp_printf(out, " direction=%d position=%d bufsize=%d", m->u.sfetch.direction,
                   m->u.sfetch.position, m->u.sfetch.bufsize);
        break;
    case IXP_SQ_RBWORK:
        if (m->u.rbwork.has_flag) ixp_printf(out, " flag=0");
        break;
    case IXP_SQ_DBOPEN:
        ixb_put_u8(out, ' ');
        ixp_print_quoted(out, m->u.dbopen.name.p, m->u.dbopen.name.n);
        ixp_printf(out, " flags=%d", m->u.dbopen.flags);
        break;
    case IXP_SQ_FETCHBLOB: ixp_printf(out, " descriptor=%zu bytes", m->u.blobdesc.n); break;
    case IXP_SQ_LODATA: ixp_lob_print(&m->u.lodata, role, out); break;
    case IXP_SQ_FILE: ixp_file_print(&m->u.file, role, out); break;
    case IXP_SQ_GETROUTINE:
    case IXP_SQ_EXFPROUTINE:
    case IXP_SQ_FPROUTINE: ixp_fastpath_print(m, role, out); break;
    case IXP_SQ_INFO: {
        ixp_printf(out, " subtype=%d total=%d max_key=%d max_value=%d", m->u.info.subtype,
                   m->u.info.total, m->u.info.max_key, m->u.info.max_value);
        size_t pos = 0;
        ixp_bytes k, v;
        int i = 0;
        while (ixp_info_next(m, &pos, &k, &v)) {
            ixp_printf(out, "%s", i++ ? ", " : " {");
            ixb_put_bytes(out, k.p, k.n);
            ixb_put_u8(out, '=');
            ixp_print_quoted(out, v.p, v.n);
        }
        if (i) ixb_put_u8(out, '}');
        break;
    }
    case IXP_SQ_RET_TYPE: {
        ixp_printf(out, " one=%d ncols=%d", m->u.ret_type.one, m->u.ret_type.ncols);
        size_t pos = 0;
        ixp_rtcol c;
        int i = 0;
        while (ixp_ret_type_next(m, &pos, &c)) {
            ixp_printf(out, "%s", i++ ? ", " : " [");
            print_type(out, c.type, c.length, c.xname);
        }
        if (i) ixb_put_u8(out, ']');
        break;
    }
    case IXP_SQ_PROTOCOLS: {
        ixp_printf(out, " %zu bytes ", m->u.protocols.n);
        for (size_t i = 0; i < m->u.protocols.n; i++)
            ixp_printf(out, "%02x", m->u.protocols.p[i]);
        ixp_caps c = ixp_caps_from_bits(m->u.protocols.p, m->u.protocols.n);
        ixp_printf(out, " (%s%s%s%s%s%s)", c.f44 ? " f44" : "", c.f54 ? " f54" : "",
                   c.f62 ? " f62" : "", c.f63 ? " f63" : "", c.f69 ? " f69" : "",
                   c.f70 ? " f70" : "");
        break;
    }
    case IXP_SQ_RESPONSE: ixp_printf(out, " %zu bytes", m->u.response.n); break;
    case IXP_SQ_GENKEYS: ixp_printf(out, " %d", m->u.genkeys); break;
    case IXP_SQ_SVPOINT:
        ixb_put_u8(out, ' ');
        ixp_print_quoted(out, m->u.svpoint.name.p, m->u.svpoint.name.n);
        ixp_printf(out, " unique=%d", m->u.svpoint.unique);
        break;
    case IXP_SQ_DESCRIBE: print_describe(p, m, out); break;
    case IXP_SQ_TUPLE:
        ixp_printf(out, " warnings=%d len=%zu ", m->u.tuple.warnings, m->u.tuple.data.n);
        print_tuple(p, m->u.tuple.data, out);
        break;
    case IXP_SQ_DONE:
        ixp_printf(out, " warnings=0x%02x rows=%lld rowid=%lld serial=%d",
                   (unsigned)(uint16_t)m->u.done.warnings, (long long)m->u.done.rows,
                   (long long)m->u.done.rowid, m->u.done.serial);
        break;
    case IXP_SQ_COST:
        ixp_printf(out, " est_rows=%d est_cost=%d", m->u.cost.est_rows, m->u.cost.est_cost);
        break;
    case IXP_SQ_XACTSTAT:
        ixp_printf(out, " event=%d new_level=%d old_level=%d", m->u.xactstat.event,
                   m->u.xactstat.new_level, m->u.xactstat.old_level);
        break;
    case IXP_SQ_INSERTDONE:
        ixp_printf(out, " serial8=%lld", (long long)m->u.insertdone.serial8);
        if (m->u.insertdone.has_bigserial)
            ixp_printf(out, " bigserial=%lld", (long long)m->u.insertdone.bigserial);
        break;
    case IXP_SQ_ERR:
        ixp_printf(out, " sqlcode=%d isam=%d offset=%d", m->u.err.sqlcode, m->u.err.isamcode,
                   m->u.err.offset);
        if (m->u.err.has_msg) {
            ixp_printf(out, " msg=");
            ixp_print_quoted(out, m->u.err.msg.p, m->u.err.msg.n);
        }
        break;
    case IXP_SQ_BLOB: ixp_printf(out, " %zu bytes", m->u.blob.n); break;
    case IXP_SQ_BBIND: ixp_printf(out, " count=%d", m->u.bbind); break;
    case IXP_SQ_TUPID: ixp_printf(out, " %d", m->u.tupid); break;
    case IXP_SQ_CHALLENGE:
        ixp_printf(out, " style=%d prompt=", m->u.challenge.style);
        ixp_print_quoted(out, m->u.challenge.prompt.p, m->u.challenge.prompt.n);
        break;
    case IXP_SQ_GENKEYS_REPLY: ixp_printf(out, " %zu bytes", m->u.genkey.n); break;
    case IXP_SQ_DBLIST:
        if (role == IXP_FROM_SERVER) print_dblist(m, out);
        break;
    default: break;
    }
    return out->err;
}
