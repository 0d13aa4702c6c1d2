/*
 * ix_conn_int.h: what the connection's files share and nothing else sees:
 * ix_conn.c (login, error record, tracing), ix_dsn.c, ix_reply.c,
 * ix_cluster.c and ix_txn.c.
 */
#ifndef IXC_CONN_INT_H
#define IXC_CONN_INT_H

#include "ix_client_int.h"

/* The options of a connection, from the DSN, the environment and sqlhosts
 * (ix_dsn.c). */
typedef struct dsn_opts {
    char *host, *port, *server, *database, *user, *password;
    char *client_locale, *db_locale, *dbdate, *tls_ca, *sqlhosts;
    int addr_given;       /* host or port came from the DSN */
    int32_t fetch_buffer; /* bytes, or IX_FETCH_AUTO */
    int readahead;
    int connect_timeout_ms, read_timeout_ms;
    int keepalive_s;
    int tls, tls_verify;
    int deferred_prepare, optofc, pipeline_login;
    int compat;              /* IXC_COMPAT_* */
    int watchdog_ms;         /* DSN key watchdog */
    int contime_s, conretry; /* INFORMIXCONTIME / INFORMIXCONRETRY; -1: not set */
} dsn_opts;

/* Results of a login attempt beside the IX_* codes. */
#define IXC_CONNECTED  1001
#define IXC_REDIRECTED 1000

ix_conn *ixc_conn_new(void);
int ixc_dead_rc(ix_conn *c);
char *ixc_dupstr(const char *s, size_t n);
void ixc_emit_line(ix_conn *c, const char *dir);
void ixc_name_forms(ix_conn *c);
void ixc_open_session_send(ix_conn *c, const dsn_opts *o);
void ixc_opts_free(dsn_opts *o);
int ixc_opts_load(dsn_opts *o, const char *dsn, char *err, size_t errlen);
void ixc_queue_dbopen(ix_conn *c, const dsn_opts *o);
void ixc_queue_info(ix_conn *c);
int ixc_read_conacc(ix_conn *c, const dsn_opts *o, ixp_redirect_target *redir);
int ixc_send_conreq(ix_conn *c, const dsn_opts *o);
int ixc_send_group(ix_conn *c, size_t mark);
int ixc_set_str(char **dst, const char *v, size_t n);
int ixc_tracing(const ix_conn *c);

#endif
