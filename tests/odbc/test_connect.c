/* test_connect.c: how libixodbc finds and reaches a server, through
 * unixODBC's driver manager, against two real ixd (one plain, one with a
 * TLS certificate made here with the openssl command):
 *   (a) Server=name resolved through an sqlhosts file, with no Host or
 *       Service: the file named by INFORMIXSQLHOSTS, and by libixdb's
 *       sqlhosts= key (connection string and odbc.ini); an unknown name is
 *       08001 with the file named in the message
 *   (b) TLS with IBM's Protocol=onsocssl / olsocssl and with libixdb's
 *       tls=1; the certificate verified against tls_ca; a wrong CA, no CA
 *       (the system store) and Protocol=onsoctcp against the TLS port fail
 *       with 08001, without a crash
 *   (c) sqlhosts entries of nettype onsocssl and olsocssl (TLS from the
 *       file alone), verified, and with the wrong CA
 *   (d) 4 threads connecting through TLS at the same time (one
 *       environment), by Protocol and by sqlhosts, 3 times each
 *   (e) a server not reached is 08001 with the SQLCODE IBM's clients give
 *       as the native error: -25596 (a name sqlhosts does not list), -930
 *       (a host name that does not resolve), -908 (refused, TLS, the rest)
 * Exit status 77 (skipped) when openssl cannot make a certificate. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define SKIPPED 77

static ixd_proc plain, tls;
static SQLHENV env;
static char certdir[256], cert[300], key[300], other[300], otherkey[300], hosts[300];

/* a self-signed certificate for localhost and 127.0.0.1 */
static int make_cert(const char *crt, const char *k) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
             "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout %s -out %s "
             ">/dev/null 2>&1",
             k, crt);
    return system(cmd) == 0 ? 0 : -1;
}

/* the outcome of one connection attempt */
typedef struct outcome {
    SQLRETURN rc;
    char state[6];
    SQLINTEGER native;
    char msg[512];
    char server[64]; /* SQL_SERVER_NAME once connected */
    int count;       /* SELECT COUNT(*) FROM systables > 0 ran */
} outcome;

/* connects with cs (SQLDriverConnect) or with DSN dsn (SQLConnect), runs a
 * query, disconnects */
static outcome attempt(const char *cs, const char *dsn) {
    outcome o = {0};
    SQLHDBC dbc;
    SQLHSTMT st;
    SQLSMALLINT len;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)10, 0);
    if (cs)
        o.rc =
            SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
    else
        o.rc = SQLConnect(dbc, (SQLCHAR *)dsn, SQL_NTS, NULL, 0, NULL, 0);
    if (!SQL_SUCCEEDED(o.rc)) {
        SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, (SQLCHAR *)o.state, &o.native, (SQLCHAR *)o.msg,
                      sizeof o.msg, &len);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        return o;
    }
    SQLGetInfo(dbc, SQL_SERVER_NAME, o.server, sizeof o.server, &len);
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLINTEGER n = 0;
    SQLLEN ind;
    if (SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)"SELECT COUNT(*) FROM systables", SQL_NTS)) &&
        SQL_SUCCEEDED(SQLFetch(st)) && SQL_SUCCEEDED(SQLGetData(st, 1, SQL_C_SLONG, &n, 0, &ind)))
        o.count = n > 0;
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    return o;
}

#define LOGIN "UID=informix;PWD=in4mix;DATABASE=sysmaster"

/* a connection that works, on server name want (SQL_SERVER_NAME is
 * libixdb's NAME@HOST:PORT) */
static void works(const char *what, const char *cs, const char *dsn, const char *want) {
    outcome o = attempt(cs, dsn);
    size_t n = strlen(want);
    CHECK(SQL_SUCCEEDED(o.rc) && o.count && strncmp(o.server, want, n) == 0 &&
              (o.server[n] == 0 || o.server[n] == '@'),
          "%s: rc %d %s %d %s; server '%s', query %d", what, o.rc, o.state, (int)o.native, o.msg,
          o.server, o.count);
}

/* the native errors of a server not reached, as IBM's clients give them */
#define SQLCODE_CONNECT_FAILED  (-908)
#define SQLCODE_NO_HOST         (-930)
#define SQLCODE_NOT_IN_SQLHOSTS (-25596)

/* a connection refused with 08001 and native error code, its message
 * holding text */
static void fails_with(const char *what, const char *cs, int code, const char *text) {
    outcome o = attempt(cs, NULL);
    CHECK(o.rc == SQL_ERROR && strcmp(o.state, "08001") == 0 && o.native == code &&
              strstr(o.msg, text),
          "%s: rc %d %s %d %s", what, o.rc, o.state, (int)o.native, o.msg);
    printf("# %s: %s native %d: %s\n", what, o.state, (int)o.native, o.msg);
}

static void through_sqlhosts(void) {
    char cs[1200];
    /* INFORMIXSQLHOSTS names the file */
    setenv("INFORMIXSQLHOSTS", hosts, 1);
    works("Server=ol_plain through INFORMIXSQLHOSTS", "DRIVER={ixdb};SERVER=ol_plain;" LOGIN, NULL,
          "ol_plain");
    snprintf(cs, sizeof cs, "DRIVER={ixdb};SERVER=ol_nosuch;%s", LOGIN);
    fails_with("an unknown server (INFORMIXSQLHOSTS)", cs, SQLCODE_NOT_IN_SQLHOSTS,
               "ol_nosuch is not listed in the sqlhosts");
    unsetenv("INFORMIXSQLHOSTS");
    /* libixdb's sqlhosts= key: in the connection string, and in odbc.ini */
    snprintf(cs, sizeof cs, "DRIVER={ixdb};SERVER=ol_plain;SQLHOSTS=%s;%s", hosts, LOGIN);
    works("Server=ol_plain through the sqlhosts key", cs, NULL, "ol_plain");
    works("a DSN of odbc.ini with Server and sqlhosts", NULL, "byname", "ol_plain");
    snprintf(cs, sizeof cs, "DRIVER={ixdb};SERVER=ol_nosuch;sqlhosts=%s;%s", hosts, LOGIN);
    fails_with("an unknown server (sqlhosts key)", cs, SQLCODE_NOT_IN_SQLHOSTS,
               "ol_nosuch is not listed in the sqlhosts");
    snprintf(cs, sizeof cs, "DRIVER={ixdb};SERVER=ol_plain;SQLHOSTS=%s/missing;%s", certdir, LOGIN);
    fails_with("a missing sqlhosts file", cs, SQLCODE_CONNECT_FAILED,
               "cannot read the sqlhosts file");
}

static void with_tls(void) {
    char cs[1200];
    const char *base = "DRIVER={ixdb};HOST=localhost;SERVER=ol_tls;" LOGIN;
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;PROTOCOL=onsocssl;TLS_CA=%s", base, tls.port, cert);
    works("Protocol=onsocssl with tls_ca", cs, NULL, "ol_tls");
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;PROTOCOL=olsocssl;TLS_CA=%s", base, tls.port, cert);
    works("Protocol=olsocssl with tls_ca", cs, NULL, "ol_tls");
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;TLS=1;TLS_CA=%s", base, tls.port, cert);
    works("tls=1 with tls_ca", cs, NULL, "ol_tls");
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;PROTOCOL=onsocssl;TLS_VERIFY=0", base, tls.port);
    works("Protocol=onsocssl, tls_verify=0", cs, NULL, "ol_tls");
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;PROTOCOL=onsocssl;TLS_CA=%s", base, tls.port, other);
    fails_with("Protocol=onsocssl with the wrong CA", cs, SQLCODE_CONNECT_FAILED, "verif");
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;PROTOCOL=onsocssl", base, tls.port);
    fails_with("Protocol=onsocssl, the system store", cs, SQLCODE_CONNECT_FAILED, "verif");
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;TLS=1;TLS_CA=%s", base, tls.port, other);
    fails_with("tls=1 with the wrong CA", cs, SQLCODE_CONNECT_FAILED, "verif");
    /* plain SQLI to the TLS port: no TLS without one of the keys */
    snprintf(cs, sizeof cs, "%s;SERVICE=%d;PROTOCOL=onsoctcp", base, tls.port);
    fails_with("Protocol=onsoctcp to the TLS port", cs, SQLCODE_CONNECT_FAILED, "");
}

/* a loopback port nothing listens on (bound, then closed); 0 on failure */
static int closed_port(void) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t n = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), port = 0;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &n) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0) close(fd);
    return port;
}

/* servers not reached: the native errors IBM's clients give */
static void unreached(void) {
    char cs[600];
    snprintf(cs, sizeof cs, "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;%s", closed_port(), LOGIN);
    fails_with("a port nothing listens on", cs, SQLCODE_CONNECT_FAILED, "refused");
    fails_with("a host name that does not resolve",
               "DRIVER={ixdb};HOST=nosuch.invalid;SERVICE=9088;" LOGIN, SQLCODE_NO_HOST,
               "cannot resolve");
}

static void sqlhosts_tls(void) {
    char cs[1200];
    snprintf(cs, sizeof cs, "DRIVER={ixdb};SERVER=ol_tls;SQLHOSTS=%s;TLS_CA=%s;%s", hosts, cert,
             LOGIN);
    works("an onsocssl entry of sqlhosts", cs, NULL, "ol_tls");
    snprintf(cs, sizeof cs, "DRIVER={ixdb};SERVER=ol_tls_ol;SQLHOSTS=%s;TLS_CA=%s;%s", hosts, cert,
             LOGIN);
    outcome o = attempt(cs, NULL);
    CHECK(SQL_SUCCEEDED(o.rc) && o.count, "an olsocssl entry of sqlhosts: rc %d %s %s", o.rc,
          o.state, o.msg);
    snprintf(cs, sizeof cs, "DRIVER={ixdb};SERVER=ol_tls;SQLHOSTS=%s;TLS_CA=%s;%s", hosts, other,
             LOGIN);
    fails_with("an onsocssl entry with the wrong CA", cs, SQLCODE_CONNECT_FAILED, "verif");
}

#define NTLS_THREADS 4
#define TLS_ROUNDS   3

static void *tls_connects(void *arg) {
    int *bad = arg;
    char cs[2][1200];
    snprintf(cs[0], sizeof cs[0],
             "DRIVER={ixdb};HOST=localhost;SERVICE=%d;SERVER=ol_tls;PROTOCOL=onsocssl;TLS_CA=%s;%s",
             tls.port, cert, LOGIN);
    snprintf(cs[1], sizeof cs[1], "DRIVER={ixdb};SERVER=ol_tls;SQLHOSTS=%s;TLS_CA=%s;%s", hosts,
             cert, LOGIN);
    for (int i = 0; i < TLS_ROUNDS * 2; i++) {
        outcome o = attempt(cs[i % 2], NULL);
        *bad += !SQL_SUCCEEDED(o.rc) || !o.count;
    }
    return NULL;
}

static void tls_in_threads(void) {
    pthread_t t[NTLS_THREADS];
    int bad[NTLS_THREADS] = {0};
    for (int i = 0; i < NTLS_THREADS; i++)
        pthread_create(&t[i], NULL, tls_connects, &bad[i]);
    int total = 0;
    for (int i = 0; i < NTLS_THREADS; i++) {
        pthread_join(t[i], NULL);
        total += bad[i];
    }
    CHECK(total == 0, "%d threads connecting through TLS at once: %d of %d failed", NTLS_THREADS,
          total, NTLS_THREADS * TLS_ROUNDS * 2);
}

static int write_files(void) {
    snprintf(hosts, sizeof hosts, "%s/sqlhosts", certdir);
    FILE *f = fopen(hosts, "w");
    if (!f) return -1;
    fprintf(f,
            "# dbservername nettype hostname service options\n"
            "ol_plain   onsoctcp  127.0.0.1  %d\n"
            "ol_tls     onsocssl  localhost  %d\n"
            "ol_tls_ol  olsocssl  localhost  %d\n",
            plain.port, tls.port, tls.port);
    if (fclose(f) != 0 || odbc_write_dsn(&plain, "t", "sysmaster") != 0) return -1;
    /* a second DSN that names the server only */
    char ini[400];
    snprintf(ini, sizeof ini, "%s/odbc.ini", plain.dir);
    if (!(f = fopen(ini, "a"))) return -1;
    fprintf(f,
            "[byname]\nDriver = ixdb\nServer = ol_plain\nsqlhosts = %s\nDatabase = sysmaster\n"
            "UID = informix\nPWD = in4mix\n",
            hosts);
    return fclose(f);
}

int main(void) {
    snprintf(certdir, sizeof certdir, "/tmp/ixodbctls.XXXXXX");
    if (!mkdtemp(certdir)) return 1;
    snprintf(cert, sizeof cert, "%s/cert.pem", certdir);
    snprintf(key, sizeof key, "%s/key.pem", certdir);
    snprintf(other, sizeof other, "%s/other.pem", certdir);
    snprintf(otherkey, sizeof otherkey, "%s/otherkey.pem", certdir);
    if (make_cert(cert, key) != 0 || make_cert(other, otherkey) != 0) {
        printf("# openssl cannot make a certificate: skipped\n");
        return SKIPPED;
    }
    const char *plain_args[] = {"--server-name", "ol_plain", NULL};
    const char *tls_args[] = {"--server-name", "ol_tls",     "--server-aliases",
                              "ol_tls_ol",     "--tls-cert", cert,
                              "--tls-key",     key,          NULL};
    if (ixd_start_args(&plain, NULL, plain_args) != 0 ||
        ixd_start_args(&tls, NULL, tls_args) != 0) {
        printf("ixd did not start\n0 passed, 1 failed\n");
        return 1;
    }
    CHECK(write_files() == 0, "the sqlhosts, odbc.ini and odbcinst.ini files");
    env = odbc_test_env();
    through_sqlhosts();
    with_tls();
    sqlhosts_tls();
    tls_in_threads();
    unreached();
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&plain, SIGTERM);
    ixd_stop(&tls, SIGTERM);
    ixd_rmdir(&plain);
    ixd_rmdir(&tls);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", certdir);
    if (system(cmd) != 0) printf("# cannot remove %s\n", certdir);
    return tap_done();
}
