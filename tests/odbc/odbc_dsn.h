/* odbc_dsn.h: what the C tests of libixodbc share: an odbcinst.ini naming
 * the driver (IXODBC_LIB) with Threading = 0 as the installed one has it
 * (unixODBC then serializes no call: the driver's own locks do), and an odbc.ini with one DSN for
 * ixd p's port and database, both in p's directory, and ODBCSYSINI / ODBCINI pointing unixODBC at
 * them. Returns 0, or -1 when a file cannot be written. */
#ifndef ODBC_DSN_H
#define ODBC_DSN_H

#include <stdio.h>
#include <stdlib.h>

#include "ixd_proc.h"

static int odbc_write_dsn(const ixd_proc *p, const char *dsn, const char *database) {
    static char ini[400];
    char inst[400];
    snprintf(inst, sizeof inst, "%s/odbcinst.ini", p->dir);
    snprintf(ini, sizeof ini, "%s/odbc.ini", p->dir);
    FILE *f = fopen(inst, "w");
    if (!f) return -1;
    fprintf(f, "[ixdb]\nDriver = %s\nThreading = 0\n", IXODBC_LIB);
    if (fclose(f) != 0 || !(f = fopen(ini, "w"))) return -1;
    fprintf(f,
            "[%s]\nDriver = ixdb\nHost = 127.0.0.1\nService = %d\nDatabase = %s\nUID = "
            "informix\nPWD = in4mix\n",
            dsn, p->port, database);
    if (fclose(f) != 0) return -1;
    setenv("ODBCSYSINI", p->dir, 1);
    setenv("ODBCINI", ini, 1);
    return 0;
}

#endif
