/*
 * hello.c: a complete libixdb program. It connects with the DSN given as its
 * argument (or $IXDB_DSN), creates a table, inserts three rows with bound
 * values, and prints them back; any failure prints the server's SQLCODE and
 * message and exits 1.
 *
 * Build against an installed libixdb (docs/c-api.md "Building a program"):
 *   cc hello.c -o hello $(pkg-config --cflags --libs ixdb) \
 *       -Wl,-rpath,$(pkg-config --variable=libdir ixdb)
 * Run:
 *   ./hello "host=127.0.0.1 port=9088 user=informix password=in4mix database=demo"
 */
#include <ixdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the connection's last error and returns 1 (main's status). */
static int fail(ix_conn *c, const char *what) {
    fprintf(stderr, "%s: SQLCODE %d: %s\n", what, ix_sqlcode(c), ix_errmsg(c));
    ix_close(c);
    return 1;
}

int main(int argc, char **argv) {
    const char *dsn = argc > 1 ? argv[1] : getenv("IXDB_DSN");
    if (!dsn) {
        fprintf(stderr, "usage: hello DSN (or set IXDB_DSN)\n");
        return 2;
    }
    ix_conn *c = NULL;
    if (ix_connect(&c, dsn) != IX_OK) return fail(c, "connect");
    if (ix_exec(c, "create temp table hello (id integer, name varchar(20))") != IX_OK)
        return fail(c, "create");

    /* one prepared INSERT, executed once per row with new values */
    static const char ins[] = "insert into hello values (?, ?)";
    static const char *const names[] = {"Ada", "Grace", "Edsger"};
    ix_stmt *s = NULL;
    if (ix_prepare(c, ins, strlen(ins), &s) != IX_OK) return fail(c, "prepare");
    for (int i = 0; i < 3; i++) {
        if (ix_bind_int(s, 1, i + 1) != IX_OK ||
            ix_bind_text(s, 2, names[i], strlen(names[i]), IX_STATIC) != IX_OK ||
            ix_step(s) != IX_DONE || ix_reset(s) != IX_OK) {
            ix_finalize(s);
            return fail(c, "insert");
        }
    }
    ix_finalize(s);

    static const char sel[] = "select id, name from hello order by id";
    if (ix_prepare(c, sel, strlen(sel), &s) != IX_OK) return fail(c, "select");
    int rc;
    while ((rc = ix_step(s)) == IX_ROW)
        printf("%d %s\n", ix_column_int(s, 0), ix_column_text(s, 1));
    ix_finalize(s);
    if (rc != IX_DONE) return fail(c, "fetch");
    ix_close(c);
    return 0;
}
