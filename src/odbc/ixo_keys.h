/*
 * ixo_keys.h: the keywords of a connection (odbc.ini or a connection
 * string) and the libixdb DSN made of them (ixo_keys.c).
 */
#ifndef IXO_KEYS_H
#define IXO_KEYS_H

#include <stddef.h>

#define IXO_KEY_MAX 256 /* bytes of a keyword's value, NUL included */

/* the keywords of a connection, from odbc.ini or a connection string */
typedef struct ixo_keys {
    char dsn[IXO_KEY_MAX], host[IXO_KEY_MAX], service[IXO_KEY_MAX], server[IXO_KEY_MAX],
        database[IXO_KEY_MAX];
    char uid[IXO_KEY_MAX], pwd[IXO_KEY_MAX], protocol[IXO_KEY_MAX], client_locale[IXO_KEY_MAX],
        db_locale[IXO_KEY_MAX];
    char sqlhosts[IXO_KEY_MAX], tls[IXO_KEY_MAX], tls_verify[IXO_KEY_MAX], tls_ca[IXO_KEY_MAX];
} ixo_keys;

/* "KEY=value;KEY={value;with;semicolons};..." (n bytes) into k: IBM's
 * keywords and libixdb's (unknown ones are skipped, a value is cut to
 * IXO_KEY_MAX - 1 bytes). 1, or 0 for a malformed string (a keyword without
 * "=", a "{" without "}"). */
int ixo_keys_parse(ixo_keys *k, const char *s, size_t n);

/* The keys of the DSN k->dsn from odbc.ini, only those k does not have. */
void ixo_keys_from_ini(ixo_keys *k);

/* Appends "key='val' " to the libixdb DSN out (cap bytes, NUL-terminated;
 * \ and ' escaped; cut when it does not fit); nothing for an empty val. */
void ixo_dsn_add(char *out, size_t cap, const char *key, const char *val);

#endif
