/* test_env.c: what libixdb takes from the Informix environment, against a
 * real ixd: the sqlhosts file (INFORMIXSQLHOSTS; server lines, service names,
 * onsocssl, groups that fail over past a dead member), DB_LOCALE code-set
 * conversion (a Latin-1 database seen from a UTF-8 client), and the session
 * variables in the login (DBMONEY, DELIMIDENT). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define USER "informix"
#define PASS "in4mix"

static ixd_proc P;
static char dir[256];

/* A loopback port bound but not listening: connecting is refused. */
static int dead_port(int *fd_out) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &l) != 0)
        return -1;
    *fd_out = fd;
    return ntohs(a.sin_port);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_sqlhosts_parse(void) {
    char path[300], text[2048];
    snprintf(path, sizeof path, "%s/sqlhosts.parse", dir);
    snprintf(text, sizeof text,
             "# comment line\n"
             "\n"
             "web      onsoctcp  *example.org   http     # a service name\n"
             "sec      onsocssl  db.example.org 9089\n"
             "tli      ontlitcp  h1             1526  k=1,s=0\n"
             "shm      onipcshm  h1             shm1\n"
             "g1       group     -              -        i=10\n"
             "m1       onsoctcp  a              1001     g=g1\n"
             "m2       onipcshm  b              x        g=g1\n"
             "m3       drsoctcp  c              1003     s=0,g=g1\n"
             "nosvc    onsoctcp  h              no-such-service-here\n");
    write_file(path, text);
    ixc_hostent e[8];
    char err[300] = "";
    int n = ixc_sqlhosts_lookup(path, "web", e, 8, err, sizeof err);
    CHECK(n == 1 && strcmp(e[0].host, "example.org") == 0 && strcmp(e[0].port, "80") == 0 &&
              !e[0].tls,
          "service name resolved, '*' dropped: n=%d %s %s:%s", n, err, n > 0 ? e[0].host : "",
          n > 0 ? e[0].port : "");
    n = ixc_sqlhosts_lookup(path, "sec", e, 8, err, sizeof err);
    CHECK(n == 1 && e[0].tls && strcmp(e[0].port, "9089") == 0, "onsocssl is TLS");
    n = ixc_sqlhosts_lookup(path, "tli", e, 8, err, sizeof err);
    CHECK(n == 1 && !e[0].tls && strcmp(e[0].port, "1526") == 0, "ontlitcp is TCP");
    n = ixc_sqlhosts_lookup(path, "shm", e, 8, err, sizeof err);
    CHECK(n == -2 && strstr(err, "onipcshm"), "shared memory is refused: %d %s", n, err);
    n = ixc_sqlhosts_lookup(path, "g1", e, 8, err, sizeof err);
    CHECK(n == 2 && strcmp(e[0].server, "m1") == 0 && strcmp(e[1].server, "m3") == 0 &&
              strcmp(e[1].port, "1003") == 0,
          "group: usable members in file order: n=%d", n);
    n = ixc_sqlhosts_lookup(path, "nosvc", e, 8, err, sizeof err);
    CHECK(n == -2 && strstr(err, "no-such-service-here"), "unknown service: %d %s", n, err);
    n = ixc_sqlhosts_lookup(path, "absent", e, 8, err, sizeof err);
    CHECK(n == 0 && strstr(err, "not listed"), "absent name: %d %s", n, err);
    n = ixc_sqlhosts_lookup("/nonexistent/sqlhosts", "web", e, 8, err, sizeof err);
    CHECK(n == -1, "missing file: %d", n);
}

static void test_sqlhosts_connect(void) {
    int dfd = -1;
    int dport = dead_port(&dfd);
    CHECK(dport > 0, "a dead port");
    char path[300], text[2048];
    snprintf(path, sizeof path, "%s/sqlhosts", dir);
    snprintf(text, sizeof text,
             "# test sqlhosts\n"
             "grp1   group    -          -      i=10\n"
             "dead1  onsoctcp 127.0.0.1  %d     g=grp1\n"
             "ixd    onsoctcp 127.0.0.1  %d     g=grp1\n"
             "grp2   group    -          -\n"
             "dead2  onsoctcp 127.0.0.1  %d     g=grp2\n"
             "dead3  onsoctcp 127.0.0.1  %d     g=grp2\n",
             dport, P.port, dport, dport);
    write_file(path, text);
    setenv("INFORMIXSQLHOSTS", path, 1);
    setenv("USER", USER, 1);

    /* A server line: INFORMIXSERVER and no host/port. */
    setenv("INFORMIXSERVER", "ixd", 1);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, "password=" PASS);
    CHECK(rc == IX_OK && strcmp(ix_server_name(c), "ixd") == 0,
          "server=ixd from sqlhosts: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);

    /* A group whose first member is dead: the second one answers. */
    setenv("INFORMIXSERVER", "grp1", 1);
    rc = ix_connect(&c, "password=" PASS);
    CHECK(rc == IX_OK && strcmp(ix_server_name(c), "ixd") == 0,
          "group fails over to the live member: rc=%d %s", rc, ix_errmsg(c));
    if (rc == IX_OK) CHECK(ix_exec(c, "create database envdb") == IX_OK, "usable");
    ix_close(c);
    unsetenv("INFORMIXSERVER");

    /* server= in a URL without host and port. */
    rc = ix_connect(&c, "informix://" USER ":" PASS "@/envdb?server=grp1");
    CHECK(rc == IX_OK, "URL without host: sqlhosts group: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);

    /* An explicit host wins over sqlhosts. */
    char dsn[600];
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d server=ixd password=" PASS, P.port);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "host/port given: sqlhosts not consulted: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);

    /* Every member dead. */
    rc = ix_connect(&c, "server=grp2 password=" PASS " connect_timeout=5");
    CHECK(rc == IX_ECONN && strstr(ix_errmsg(c), "grp2"), "all members dead: rc=%d %s", rc,
          ix_errmsg(c));
    ix_close(c);

    /* Not listed in a named file. */
    rc = ix_connect(&c, "server=nosuch password=" PASS);
    CHECK(rc == IX_ECONN && strstr(ix_errmsg(c), "not listed"), "not listed: rc=%d %s", rc,
          ix_errmsg(c));
    ix_close(c);

    /* sqlhosts= in the DSN overrides the environment. */
    unsetenv("INFORMIXSQLHOSTS");
    snprintf(dsn, sizeof dsn, "server=grp1 password=" PASS " sqlhosts='%s'", path);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "sqlhosts= key: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);
    close(dfd);
}

/* ---- code sets ------------------------------------------------------------------ */

static void test_codeset_table(void) {
    CHECK(strcmp(ix_locale_codeset("en_US.8859-1"), "ISO-8859-1") == 0, "8859-1");
    CHECK(strcmp(ix_locale_codeset("en_US.819"), "ISO-8859-1") == 0, "819");
    CHECK(strcmp(ix_locale_codeset("en_US.CP1252"), "CP1252") == 0, "CP1252");
    CHECK(strcmp(ix_locale_codeset("en_US.utf8"), "UTF-8") == 0, "utf8");
    CHECK(strcmp(ix_locale_codeset("de_DE.8859-15@euro"), "ISO-8859-15") == 0, "@modifier");
    CHECK(ix_locale_codeset("en_US.klingon") == NULL, "unknown");
    ix_conn *c = NULL;
    int rc = ix_connect(&c, "host=127.0.0.1 port=1 db_locale=en_US.klingon");
    CHECK(rc == IX_EINVAL && strstr(ix_errmsg(c), "DB_LOCALE"), "unknown DB_LOCALE: %d %s", rc,
          ix_errmsg(c));
    ix_close(c);
}

/* DBMONEY in the client's environment reaches ixd with the login: a string
 * written with its symbols converts to MONEY; without it, the default "$."
 * applies and the same string is -1213. */
static void test_dbmoney(void) {
    char dsn[300];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d server=ixd user=" USER " password=" PASS " database=envdb",
             P.port);
    for (int with = 1; with >= 0; with--) {
        if (with)
            setenv("DBMONEY", "DM,", 1);
        else
            unsetenv("DBMONEY");
        ix_conn *c = NULL;
        int rc = ix_connect(&c, dsn);
        CHECK(rc == IX_OK, "connect (DBMONEY %s): %s", with ? "DM," : "unset", ix_errmsg(c));
        if (rc == IX_OK && with) {
            ix_exec(c, "drop table mon");
            CHECK(ix_exec(c, "create table mon (m money(8,2))") == IX_OK, "create: %s",
                  ix_errmsg(c));
        }
        rc = rc == IX_OK ? ix_exec(c, "insert into mon values ('DM12,50')") : rc;
        CHECK(with ? rc == IX_OK : rc == IX_ESQL && ix_sqlcode(c) == -1213,
              "'DM12,50' into MONEY with DBMONEY %s: rc=%d sqlcode=%d", with ? "DM," : "unset", rc,
              ix_sqlcode(c));
        ix_close(c);
    }
    /* a database opened by the DATABASE statement gets it too */
    setenv("DBMONEY", "DM,", 1);
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d server=ixd user=" USER " password=" PASS,
             P.port);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    if (rc == IX_OK) rc = ix_exec(c, "database envdb");
    if (rc == IX_OK) rc = ix_exec(c, "insert into mon values ('DM7,25')");
    CHECK(rc == IX_OK, "'DM7,25' after DATABASE with DBMONEY DM,: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);
    unsetenv("DBMONEY");
}

/* DELIMIDENT=Y in the client's environment reaches ixd with the login: a
 * double-quoted name is a delimited identifier (case kept, names that differ
 * by case distinct), described as written; without it the same token is a
 * string. */
static void test_delimident(void) {
    char dsn[300];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d server=ixd user=" USER " password=" PASS " database=envdb",
             P.port);
    setenv("DELIMIDENT", "Y", 1);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "connect (DELIMIDENT=Y): %s", ix_errmsg(c));
    if (rc == IX_OK)
        rc = ix_exec(c, "create table \"Delim T\" (\"TEST\" int, \"test\" int, \"Test\" int)");
    CHECK(rc == IX_OK, "create with case-distinct names: rc=%d %s", rc, ix_errmsg(c));
    if (rc == IX_OK) rc = ix_exec(c, "insert into \"Delim T\" values (1, 2, 3)");
    CHECK(rc == IX_OK, "insert: rc=%d %s", rc, ix_errmsg(c));
    ix_stmt *s = NULL;
    if (rc == IX_OK)
        rc = ix_prepare(c, "select \"Test\", test, \"TEST\" as \"Upper Case\" from \"Delim T\"", -1,
                        &s);
    CHECK(rc == IX_OK, "select prepare: rc=%d %s", rc, ix_errmsg(c));
    if (rc == IX_OK) {
        const char *n0 = ix_column_name(s, 0), *n1 = ix_column_name(s, 1),
                   *n2 = ix_column_name(s, 2);
        CHECK(n0 && n1 && n2 && !strcmp(n0, "Test") && !strcmp(n1, "test") &&
                  !strcmp(n2, "Upper Case"),
              "described as written: %s, %s, %s", n0 ? n0 : "-", n1 ? n1 : "-", n2 ? n2 : "-");
        rc = ix_step(s);
        CHECK(rc == IX_ROW && ix_column_int(s, 0) == 3 && ix_column_int(s, 1) == 2 &&
                  ix_column_int(s, 2) == 1,
              "row: rc=%d %s", rc, ix_errmsg(c));
        ix_finalize(s);
    }
    ix_close(c);
    /* DELIMIDENT=n: the same token is a string */
    setenv("DELIMIDENT", "n", 1);
    c = NULL;
    rc = ix_connect(&c, dsn);
    s = NULL;
    if (rc == IX_OK) rc = ix_prepare(c, "select \"Test\" from \"Delim T\"", -1, &s);
    CHECK(rc == IX_OK && ix_step(s) == IX_ROW &&
              !strcmp((const char *)ix_column_text(s, 0), "Test"),
          "DELIMIDENT=n: a string: rc=%d %s", rc, ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);
    unsetenv("DELIMIDENT");
}

static void test_latin1(void) {
    char base[256], dsn[400];
    snprintf(base, sizeof base,
             "host=127.0.0.1 port=%d server=ixd user=" USER " password=" PASS " database=envdb",
             P.port);
    snprintf(dsn, sizeof dsn, "%s db_locale=en_US.8859-1", base);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "Latin-1 connect: rc=%d %s", rc, ix_errmsg(c));
    if (rc != IX_OK) {
        ix_close(c);
        return;
    }
    rc = ix_exec(c, "create table l1 (id int, v varchar(20), f char(6))");
    CHECK(rc == IX_OK, "create: %s", ix_errmsg(c));
    /* 'café' in UTF-8 SQL text, and once more as a bound value. */
    rc = ix_exec(c, "insert into l1 values (1, 'caf\xc3\xa9', 'na\xc3\xafve')");
    CHECK(rc == IX_OK, "insert literal: rc=%d %s", rc, ix_errmsg(c));
    ix_stmt *s = NULL;
    rc = ix_prepare(c, "insert into l1 values (?, ?, ?)", -1, &s);
    CHECK(rc == IX_OK, "prepare: %s", ix_errmsg(c));
    ix_bind_int(s, 1, 2);
    ix_bind_text(s, 2, "caf\xc3\xa9", -1, IX_STATIC);
    ix_bind_text(s, 3, "\xc3\xa0 la", -1, IX_TRANSIENT);
    CHECK(ix_step(s) == IX_DONE, "insert bound: %s", ix_errmsg(c));
    /* A character Latin-1 does not have. */
    rc = ix_bind_text(s, 2, "\xe2\x82\xac", -1, IX_STATIC); /* the euro sign */
    CHECK(rc == IX_EINVAL, "euro sign refused for Latin-1: rc=%d", rc);
    ix_finalize(s);

    rc = ix_prepare(c, "select id, v, f from l1 where v = 'caf\xc3\xa9' order by id", -1, &s);
    CHECK(rc == IX_OK, "select prepare: %s", ix_errmsg(c));
    int rows = 0;
    while ((rc = ix_step(s)) == IX_ROW) {
        rows++;
        const unsigned char *raw = ix_column_raw(s, 1);
        size_t nb = ix_column_bytes(s, 1);
        CHECK(nb == 5 && raw[0] == 4 && memcmp(raw + 1, "caf\xe9", 4) == 0,
              "row %d: wire bytes are Latin-1 (len byte 4, e9): %zu bytes", rows, nb);
        const char *t = ix_column_text(s, 1);
        CHECK(t && strcmp(t, "caf\xc3\xa9") == 0 && ix_column_text_len(s, 1) == 5,
              "row %d: ix_column_text is UTF-8: \"%s\"", rows, t ? t : "(null)");
        size_t bn = 0;
        const char *b = ix_column_blob(s, 1, &bn);
        CHECK(b && bn == 4 && (unsigned char)b[3] == 0xe9, "blob keeps the database bytes");
        t = ix_column_text(s, 2);
        const char *want = ix_column_int(s, 0) == 1 ? "na\xc3\xafve " : "\xc3\xa0 la  ";
        CHECK(t && strcmp(t, want) == 0, "CHAR(6) converted, padding kept: \"%s\"", t ? t : "");
    }
    CHECK(rc == IX_DONE && rows == 2, "two rows matched the UTF-8 literal: %d (%s)", rows,
          ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);

    /* The same rows from a UTF-8 connection (no DB_LOCALE): raw Latin-1. */
    rc = ix_connect(&c, base);
    CHECK(rc == IX_OK, "UTF-8 connect: %s", ix_errmsg(c));
    rc = ix_prepare(c, "select v from l1 where id = 1", -1, &s);
    if (rc == IX_OK && ix_step(s) == IX_ROW) {
        const char *t = ix_column_text(s, 0);
        CHECK(t && strcmp(t, "caf\xe9") == 0, "unconverted: the stored bytes are Latin-1");
    } else {
        CHECK(0, "select on the UTF-8 connection: %s", ix_errmsg(c));
    }
    ix_finalize(s);
    ix_close(c);

    /* CP1252 and utf8 DB locales connect too. */
    snprintf(dsn, sizeof dsn, "%s client_locale=en_US.utf8 db_locale=en_US.CP1252", base);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "CP1252: %s", ix_errmsg(c));
    if (rc == IX_OK) {
        ix_prepare(c, "select v from l1 where id = 1", -1, &s);
        if (s && ix_step(s) == IX_ROW) {
            const char *t = ix_column_text(s, 0);
            CHECK(t && strcmp(t, "caf\xc3\xa9") == 0, "CP1252 e9 is also e-acute");
        }
        ix_finalize(s);
    }
    ix_close(c);
    snprintf(dsn, sizeof dsn, "%s db_locale=en_US.utf8", base);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK && c->st.cv_to_db == (iconv_t)-1, "utf8 database: no conversion");
    ix_close(c);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    unsetenv("INFORMIXSERVER");
    unsetenv("DB_LOCALE");
    unsetenv("CLIENT_LOCALE");
    unsetenv("INFORMIXSQLHOSTS");
    unsetenv("DELIMIDENT");
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    snprintf(dir, sizeof dir, "%s", P.dir);
    test_sqlhosts_parse();
    test_sqlhosts_connect();
    test_codeset_table();
    test_latin1();
    test_dbmoney();
    test_delimident();
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
