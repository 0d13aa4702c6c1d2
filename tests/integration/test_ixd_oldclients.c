/*
 * Old clients against a real ixd, in raw SQLI bytes: the exchanges of nmap's
 * nselib/informix.lua (tested against IDS 11.50: the 7-byte capability
 * offer, i16 SQL lengths, NUL-terminated even-length SQL texts, an i16
 * NFETCH buffer size, SQ_DBLIST), a client that sends no SQ_PROTOCOLS at
 * all, JDD's NUL-counted SQ_COMMAND, RELEASE/CLOSE of ids that are no
 * longer prepared, and DBINFO('version', ...) against the login banner.
 *
 * Requests are written byte by byte here (ixb_put_*), not with the codec's
 * message encoders, so that they are what those clients send; replies are
 * decoded with the codec and, where the exact bytes matter, compared as hex.
 */
#include "harness.h"
#include "tap.h"

#include "base/ix_hex.h"

static const char *U = "informix", *P = "in4mix";

/* One reply group: its messages re-encoded as hex, and what they say. */
typedef struct group {
    char hex[16384];
    int ntags, tags[512];
    int sqlcode, offset;
    int ntuples;
    ixb_wbuf tuples; /* payloads, each preceded by a u32 length (as treply) */
    int extended;    /* the DESCRIBE's layout: 1 extended, 0 old, -1 none */
    char banner[256];
} group;

static int has_tag(const group *g, int tag) {
    for (int i = 0; i < g->ntags; i++)
        if (g->tags[i] == tag) return 1;
    return 0;
}

/* Sends w, then reads one reply group (up to EOT or EXIT) into *g. Returns
 * 0, or -1 when the connection failed or closed first. */
static int xfer(tconn *c, ixb_wbuf *w, group *g) {
    ixb_wbuf keep = g->tuples;
    memset(g, 0, sizeof *g);
    g->tuples = keep;
    if (!g->tuples.data) ixb_wbuf_init(&g->tuples, NULL);
    ixb_wbuf_reset(&g->tuples);
    g->extended = -1;
    ixb_put_bytes(&c->out, w->data, w->len);
    ixb_wbuf_reset(w);
    if (tconn_flush(c)) return -1;
    ixb_wbuf enc, hex;
    ixb_wbuf_init(&enc, NULL);
    ixb_wbuf_init(&hex, NULL);
    ixp_msg m;
    int rc = -1;
    while (tconn_next(c, &m) == IX_OK) {
        if (g->ntags < 512) g->tags[g->ntags++] = m.tag;
        ixb_wbuf_reset(&enc);
        ixp_msg_encode(&enc, IXP_FROM_SERVER, &c->caps, &m);
        ixb_hex_encode(enc.data, enc.len, &hex);
        if (m.tag == IXP_SQ_DESCRIBE) g->extended = m.u.describe.extended;
        if (m.tag == IXP_SQ_ERR) {
            g->sqlcode = m.u.err.sqlcode;
            g->offset = m.u.err.offset;
        } else if (m.tag == IXP_SQ_TUPLE) {
            uint8_t l[4];
            ixb_st32(l, (uint32_t)m.u.tuple.data.n);
            ixb_put_bytes(&g->tuples, l, 4);
            ixb_put_bytes(&g->tuples, m.u.tuple.data.p, m.u.tuple.data.n);
            g->ntuples++;
        } else if (m.tag == IXP_MSG_LOGIN) {
            ixp_conacc acc;
            if (ixp_conacc_decode(m.u.login.packet.p, m.u.login.packet.n, NULL, &acc, NULL, NULL,
                                  NULL) == IX_OK)
                snprintf(g->banner, sizeof g->banner, "%.*s", (int)acc.version.n,
                         (const char *)acc.version.p);
            rc = 0;
            break;
        }
        if (m.tag == IXP_SQ_EOT || m.tag == IXP_SQ_EXIT) {
            rc = 0;
            break;
        }
    }
    snprintf(g->hex, sizeof g->hex, "%.*s", (int)hex.len, (const char *)hex.data);
    ixb_wbuf_free(&enc);
    ixb_wbuf_free(&hex);
    return rc;
}

/* Appends the bytes of a hex string (spaces ignored). */
static void put_hex(ixb_wbuf *w, const char *hex) {
    char clean[1024];
    size_t n = 0;
    for (const char *p = hex; *p && n < sizeof clean - 1; p++)
        if (*p != ' ') clean[n++] = *p;
    ixb_hex_decode(clean, n, w, NULL);
}

/* NMAP's login: CONREQ with caps 0x133, its twelve environment variables,
 * no process-info or misc items (§2.3). */
static void nmap_conreq(ixb_wbuf *w) {
    static const char *env[][2] = {{"LOCKDOWN", "no"},
                                   {"DBDATE", "Y4MD-"},
                                   {"SINGLELEVEL", "no"},
                                   {"NODEFDAC", "no"},
                                   {"CLNT_PAM_CAPABLE", "1"},
                                   {"SKALL", "0"},
                                   {"LKNOTIFY", "yes"},
                                   {"SKSHOW", "0"},
                                   {"IFX_UPDDESC", "1"},
                                   {"DBPATH", "."},
                                   {"CLIENT_LOCALE", "en_US.8859-1"},
                                   {"SKINHIBIT", "0"}};
    ixp_conreq req;
    ixp_conreq_defaults(&req, U, P, "ixd");
    req.cap[0] = 0x133;
    req.has_pinfo = req.has_misc = 0;
    req.nenv = 12;
    for (int i = 0; i < 12; i++) {
        req.env[i].name = ixp_ascstr_of(env[i][0]);
        req.env[i].value = ixp_ascstr_of(env[i][1]);
    }
    ixp_conreq_encode(&req, w);
}

/* SQ_PREPARE of exactly n bytes of text (i16 length), then NDESCRIBE,
 * WANTDONE, EOT. */
static void prepare_raw(ixb_wbuf *w, const char *sql, size_t n) {
    ixb_put_i16(w, IXP_SQ_PREPARE);
    ixb_put_i16(w, 0);
    ixb_put_i16(w, (int)n);
    ixb_put_bytes(w, sql, n);
    ixb_put_pad(w, n);
    put_hex(w, "0016 0031 000c");
}

/* NMAP's SQ_PREPARE (1) or SQ_COMMAND (0): the tag, then i16 0 and the i16
 * length written as one u32, the text with a NUL appended and counted when
 * its length is even, one pad byte, then NDESCRIBE + WANTDONE (PREPARE) or
 * NDESCRIBE + EXECUTE + RELEASE (COMMAND), EOT. */
static void nmap_sql(ixb_wbuf *w, int prepare, const char *sql) {
    size_t n = strlen(sql);
    int nul = (n & 1) == 0;
    ixb_put_i16(w, prepare ? IXP_SQ_PREPARE : IXP_SQ_COMMAND);
    ixb_put_i32(w, (int64_t)(n + (size_t)nul));
    ixb_put_bytes(w, sql, n);
    if (nul) ixb_put_u8(w, 0);
    ixb_put_u8(w, 0);
    put_hex(w, prepare ? "0016 0031 000c" : "0016 0007 000b 000c");
}

/* Creates the test database with JDBC-style sessions: table t holds 60 rows
 * of (INTEGER, CHAR(100)), about 6 KB, more than one 4096-byte fetch. */
static void setup(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, NULL) == 0, "setup login");
    treply r = {0};
    tconn_command(&c, "CREATE DATABASE olddb WITH LOG", &r);
    tconn_command(&c, "DATABASE olddb", &r);
    tconn_command(&c, "CREATE TABLE t (id INTEGER, name CHAR(100))", &r);
    CHECK(r.sqlcode == 0, "setup table: %d", r.sqlcode);
    for (int i = 1; i <= 60; i++) {
        char sql[100];
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, 'row %d')", i, i);
        tconn_command(&c, sql, &r);
    }
    CHECK(r.sqlcode == 0, "setup rows: %d", r.sqlcode);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* Fetches with NMAP's groups: "begin" (ID, CURNAME, OPEN, ID, NFETCH i16
 * 4096, EOT), then "continue" (ID, NFETCH i16 4096, EOT) after each reply
 * that ends with EOT, until DONE; "end" (ID, CLOSE, EOT). Returns the rows. */
static int nmap_fetch_all(tconn *c, int id, group *g, int *replies, ixb_wbuf *all) {
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    char hex[200];
    snprintf(hex, sizeof hex,
             "0004 %04x 0003 0012 5f6966786330303030303030303030303031 0006 0004 %04x"
             " 0009 1000 0000 000c",
             id, id);
    put_hex(&w, hex);
    int rows = 0, n = 0;
    while (xfer(c, &w, g) == 0 && g->sqlcode == 0 && n < 100) {
        rows += g->ntuples;
        if (all) ixb_put_bytes(all, g->tuples.data, g->tuples.len);
        n++;
        if (has_tag(g, IXP_SQ_DONE)) break;
        snprintf(hex, sizeof hex, "0004 %04x 0009 1000 0000 000c", id);
        put_hex(&w, hex);
    }
    *replies = n;
    snprintf(hex, sizeof hex, "0004 %04x 000a 000c", id);
    put_hex(&w, hex);
    group e = {0};
    CHECK(xfer(c, &w, &e) == 0 && strcmp(e.hex, "000c") == 0, "NMAP's CLOSE gets a bare EOT (%s)",
          e.hex);
    ixb_wbuf_free(&e.tuples);
    ixb_wbuf_free(&w);
    return rows;
}

/* Statement id of the DESCRIBE in g's hex (the i16 after tag and type). */
static int described_id(const group *g) {
    unsigned v = 0;
    return strncmp(g->hex, "0008", 4) == 0 && sscanf(g->hex + 8, "%4x", &v) == 1 ? (int)v : -1;
}

static void test_nmap(ixd_proc *p) {
    tconn c;
    CHECK(tconn_open(&c, p->port) == 0, "connect");
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    group g = {0};
    nmap_conreq(&w);
    CHECK(xfer(&c, &w, &g) == 0 && g.banner[0], "NMAP's CONREQ is accepted");
    /* The 7-byte offer, padded: ixd answers 10 bytes, without f62/f63. */
    put_hex(&w, "007e 0007 fffc7ffc3c8c8a 00 000c");
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, "007e000afffc7ffc3c0002000000000c") == 0,
          "SQ_PROTOCOLS answer to the NMAP offer (%s)", g.hex);
    CHECK(!c.caps.f62 && !c.caps.f63 && c.caps.f54, "NMAP offer: f54 only");
    put_hex(&w, "0051 0006 0026 000c 0004 0006 444254454d50 0004 2f746d70"
                " 000b 535542514341434845535a00 0002 3130 0000 0000 000c");
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, "000c") == 0, "SQ_INFO gets a bare EOT");
    /* SQ_DBLIST before any database is open. */
    const char *dblist = "001a00056f6c6464620000097379736d617374657200"
                         "0000000c";
    put_hex(&w, "001a 000c");
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, dblist) == 0,
          "SQ_DBLIST before DBOPEN lists olddb, sysmaster (%s)", g.hex);
    /* NMAP's DBOPEN: the name padded with a NUL to even length. */
    put_hex(&w, "0024 0005 6f6c646462 00 0000 000c");
    CHECK(xfer(&c, &w, &g) == 0 && has_tag(&g, IXP_SQ_DONE) && !g.sqlcode, "DBOPEN olddb");
    put_hex(&w, "001a 000c");
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, dblist) == 0, "SQ_DBLIST after DBOPEN (%s)",
          g.hex);
    /* An even-length SELECT: NMAP counts a NUL into its i16 length. */
    const char *sel = "SELECT id, name FROM t ORDER BY id";
    CHECK((strlen(sel) & 1) == 0, "the SELECT has an even length");
    nmap_sql(&w, 1, sel);
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == 0 && has_tag(&g, IXP_SQ_DESCRIBE) &&
              has_tag(&g, IXP_SQ_DONE),
          "PREPARE of a NUL-terminated SELECT is described (sqlcode %d)", g.sqlcode);
    int id = described_id(&g);
    CHECK(id >= 0 && g.extended == 0, "old DESCRIBE layout without f63 (%s)", g.hex);
    int replies = 0;
    treply tr = {0};
    ixb_wbuf_init(&tr.tuples, NULL);
    int rows = nmap_fetch_all(&c, id, &g, &replies, &tr.tuples);
    CHECK(rows == 60 && replies >= 2, "NFETCH with the i16 size: %d rows in %d replies", rows,
          replies);
    CHECK(has_tag(&g, IXP_SQ_DONE) && has_tag(&g, IXP_SQ_COST),
          "the last reply ends with DONE, COST");
    char v1[200], v60[200];
    tr.ncols = 2;
    tr.cols[0] = (ixt_vtype){IX_T_INTEGER, 4};
    tr.cols[1] = (ixt_vtype){IX_T_CHAR, 100};
    CHECK(strcmp(treply_value(&tr, 0, 0, v1, sizeof v1), "1") == 0 &&
              strcmp(treply_value(&tr, 59, 0, v60, sizeof v60), "60") == 0,
          "the tuples are rows 1 to 60 (%s, %s)", v1, v60);
    ixb_wbuf_free(&tr.tuples);
    /* RELEASE, and RELEASE again: both a bare EOT (§3.11). */
    char hex[64];
    snprintf(hex, sizeof hex, "0004 %04x 000b 000c", id);
    put_hex(&w, hex);
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, "000c") == 0, "RELEASE: bare EOT (%s)", g.hex);
    put_hex(&w, hex);
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, "000c") == 0,
          "RELEASE of a released id: bare EOT (%s)", g.hex);
    put_hex(&w, "0004 0777 000b 000c");
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, "000c") == 0,
          "RELEASE of an id never prepared: bare EOT (%s)", g.hex);
    snprintf(hex, sizeof hex, "0004 %04x 000a 000c", id);
    put_hex(&w, hex);
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, "000c") == 0,
          "CLOSE of a released id: bare EOT (%s)", g.hex);
    /* Other uses of an unknown id stay -410. */
    snprintf(hex, sizeof hex, "0004 %04x 0009 1000 0000 000c", id);
    put_hex(&w, hex);
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == -410, "NFETCH on a released id: -410 (%d)",
          g.sqlcode);
    snprintf(hex, sizeof hex, "0004 %04x 0007 000c", id);
    put_hex(&w, hex);
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == -410, "EXECUTE on a released id: -410 (%d)",
          g.sqlcode);
    snprintf(hex, sizeof hex, "0004 %04x 0003 0003 637572 00 0006 000c", id);
    put_hex(&w, hex);
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == -410, "CURNAME + OPEN on a released id: -410");
    /* Syntax errors in NUL-terminated texts: the offsets of the texts alone. */
    static const char *const bad[] = {"SELECT id FROM t WHERE id = = 1 ", "SELECT id FROM t WHERE"};
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(bad[i]);
        CHECK((n & 1) == 0, "even length");
        prepare_raw(&w, bad[i], n + 1); /* the NUL counted, as NMAP sends it */
        xfer(&c, &w, &g);
        int with_nul = g.offset, code_nul = g.sqlcode;
        prepare_raw(&w, bad[i], n);
        xfer(&c, &w, &g);
        CHECK(code_nul == -201 && g.sqlcode == -201 && with_nul == g.offset && g.offset > 0,
              "\"%s\": syntax error offsets with and without the NUL agree (%d, %d)", bad[i],
              with_nul, g.offset);
    }
    /* NMAP's SQ_COMMAND (text with ";" appended, NUL when even). */
    nmap_sql(&w, 0, "UPDATE t SET id = id WHERE id = 1;");
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == 0 && has_tag(&g, IXP_SQ_DONE),
          "NMAP's COMMAND runs (sqlcode %d)", g.sqlcode);
    /* Only one NUL is dropped: a second one is part of the text. */
    prepare_raw(&w, "SELECT id FROM t\0", 17);
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == 0, "one trailing NUL: prepared (%d)", g.sqlcode);
    prepare_raw(&w, "SELECT id FROM t\0\0", 18);
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == -201, "two trailing NULs: -201 (%d)", g.sqlcode);
    put_hex(&w, "0038");
    CHECK(xfer(&c, &w, &g) == 0 && strcmp(g.hex, "0038") == 0, "SQ_EXIT");
    ixb_wbuf_free(&g.tuples);
    ixb_wbuf_free(&w);
    tconn_close(&c);
}

/* A client that sends no SQ_PROTOCOLS: the base protocol (i16 widths). */
static void test_no_protocols(ixd_proc *p) {
    tconn c;
    CHECK(tconn_open(&c, p->port) == 0, "connect");
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    group g = {0};
    nmap_conreq(&w);
    CHECK(xfer(&c, &w, &g) == 0 && g.banner[0], "login");
    put_hex(&w, "0024 0005 6f6c646462 00 0000 000c");
    CHECK(xfer(&c, &w, &g) == 0 && has_tag(&g, IXP_SQ_DONE), "DBOPEN without SQ_PROTOCOLS");
    nmap_sql(&w, 1, "SELECT id FROM t WHERE id < 4");
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == 0, "PREPARE with an i16 SQL length");
    int id = described_id(&g), replies = 0;
    CHECK(g.extended == 0 && nmap_fetch_all(&c, id, &g, &replies, NULL) == 3,
          "three rows through an i16 NFETCH");
    ixb_wbuf_free(&g.tuples);
    ixb_wbuf_free(&w);
    tconn_close(&c);
}

/* JDD's SET ISOLATION: SQ_COMMAND whose i32 length counts a NUL (f62). */
static void test_jdd_command(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, "olddb") == 0, "JDBC-style login");
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    group g = {0};
    const char *sql = "set isolation to committed read";
    ixb_put_i16(&w, IXP_SQ_COMMAND);
    ixb_put_i16(&w, 0);
    ixb_put_i32(&w, (int64_t)strlen(sql) + 1);
    ixb_put_bytes(&w, sql, strlen(sql) + 1);
    ixb_put_pad(&w, strlen(sql) + 1);
    put_hex(&w, "0016 0007 000b 000c");
    CHECK(xfer(&c, &w, &g) == 0 && g.sqlcode == 0 && has_tag(&g, IXP_SQ_DONE),
          "a NUL counted in an i32 SQL length is accepted (sqlcode %d)", g.sqlcode);
    ixb_wbuf_free(&g.tuples);
    ixb_wbuf_free(&w);
    tconn_close(&c);
}

/* DBINFO('version', ...) agrees with the banner of the login accept. */
static void test_dbinfo(ixd_proc *p) {
    tconn c;
    CHECK(tconn_open(&c, p->port) == 0, "connect");
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    group g = {0};
    nmap_conreq(&w);
    xfer(&c, &w, &g);
    char banner[256];
    snprintf(banner, sizeof banner, "%s", g.banner);
    tconn_close(&c);
    ixb_wbuf_free(&w);
    ixb_wbuf_free(&g.tuples);
    CHECK(tconn_login(&c, p->port, U, P, "olddb") == 0, "login");
    /* The parts IBM documents, cut from the banner "<type> Version M.m.Ol". */
    char type[256] = "", major[16] = "", minor[16] = "", os[4] = "", level[16] = "";
    const char *v = strstr(banner, " Version ");
    CHECK(v != NULL, "the banner names a version (%s)", banner);
    if (v) {
        snprintf(type, sizeof type, "%.*s", (int)(v - banner), banner);
        CHECK(sscanf(v + 9, "%15[0-9].%15[0-9].%1[A-Z]%15s", major, minor, os, level) == 4,
              "the version is major.minor.<os><level> (%s)", v + 9);
    }
    const struct {
        const char *part, *want;
    } parts[] = {{"full", banner}, {"server-type", type}, {"major", major}, {"minor", minor},
                 {"os", os},       {"level", level}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char sql[200], got[256];
        snprintf(sql, sizeof sql, "SELECT dbinfo('version','%s') FROM systables WHERE tabid=1",
                 parts[i].part);
        treply r = {0};
        CHECK(tconn_select(&c, sql, 4096, &r, NULL) == 0 && r.ntuples == 1, "%s runs", sql);
        treply_value(&r, 0, 0, got, sizeof got);
        CHECK(strcmp(got, parts[i].want) == 0, "dbinfo('version','%s') = \"%s\", want \"%s\"",
              parts[i].part, got, parts[i].want);
        ixb_wbuf_free(&r.tuples);
    }
    treply r = {0};
    CHECK(tconn_select(&c, "SELECT dbinfo('version') FROM systables WHERE tabid=1", 4096, &r,
                       NULL) != 0 &&
              r.sqlcode == -728,
          "dbinfo('version') without a part: -728 (%d)", r.sqlcode);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    setup(&p);
    test_nmap(&p);
    test_no_protocols(&p);
    test_jdd_command(&p);
    test_dbinfo(&p);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
    return tap_done();
}
