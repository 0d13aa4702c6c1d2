/* install_prog.c: a tiny program built against an installed libixdb (by
 * test_install.sh, with pkg-config). It checks the header's version against
 * the library and that a refused connection is reported, not fatal. */
#include <ixdb.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    ix_conn *c = NULL;
    int rc = ix_connect(&c, "host=127.0.0.1 port=1 connect_timeout=2");
    int ok = rc == IX_ECONN && ix_conn_is_dead(c) && strcmp(ix_sqlstate(c), "08001") == 0 &&
             strcmp(ix_locale_codeset("en_US.819"), "ISO-8859-1") == 0;
    printf("libixdb %s: connect to port 1: %s (%s) -> %s\n", IXDB_VERSION_STRING, ix_rc_str(rc),
           ix_errmsg(c), ok ? "ok" : "WRONG");
    ix_close(c);
    return ok ? 0 : 1;
}
