/*
 * ix_errtext.c: the built-in catalogue of standard Informix message texts
 * (sqli-protocol.md §6 and the usual companions), and the SQLSTATE classes
 * derived from SQLCODEs as Informix JDBC classes them. All tables are const.
 *
 * A text may contain one %s: the insertion text the server sends in SQ_ERR
 * (a table, column, constraint or user name).
 */
#include <stddef.h>

#include "ix_client_int.h"

typedef struct errtext {
    int code;
    const char *text;
} errtext;

static const errtext sql_texts[] = {
    {100, "No matching records found."},
    {-107, "ISAM error: record is locked."},
    {-154, "ISAM error: Lock Timeout Expired."},
    {-201, "A syntax error has occurred."},
    {-202, "An illegal character has been found in the statement."},
    {-206, "The specified table (%s) is not in the database."},
    {-211, "Cannot read system catalog (%s)."},
    {-217, "Column (%s) not found in any table in the query (or SLV is undefined)."},
    {-236, "Number of columns in INSERT does not match number of VALUES."},
    {-239, "Could not insert new row - duplicate value in a UNIQUE INDEX column (%s)."},
    {-240, "Could not delete a row."},
    {-243, "Could not position within a table (%s)."},
    {-244, "Could not do a physical-order read to fetch next row."},
    {-254, "Too many or too few host variables given."},
    {-255, "Not in transaction."},
    {-256, "Transaction not available."},
    {-260, "Cannot execute a SELECT statement that is PREPAREd - must use cursor."},
    {-268, "Unique constraint (%s) violated."},
    {-271, "Could not insert new row into the table."},
    {-284, "A subquery has returned not exactly one row."},
    {-310, "Table (%s) already exists in database."},
    {-316, "Index (%s) already exists in database."},
    {-329, "Database not found or no system permission."},
    {-330, "Cannot create or rename the database."},
    {-346, "Could not update a row in the table."},
    {-349, "Database not selected yet."},
    {-368, "Incompatible sqlexec module."},
    {-387, "No connect permission."},
    {-391, "Cannot insert a null into column (%s)."},
    {-404, "The cursor or statement is not available."},
    {-408, "Invalid message type received from the sqlexec process."},
    {-410, "Prepare statement failed or was not executed."},
    {-481, "Invalid statement name or statement was not prepared."},
    {-482, "Invalid operation on a non-SCROLL cursor."},
    {-530, "Check constraint (%s) failed."},
    {-535, "Already in transaction."},
    {-691, "Missing key in referenced table for referential constraint (%s)."},
    {-692, "Key value for constraint (%s) is still being referenced."},
    {-703, "Primary key on table (%s) has a field with a null key value."},
    {-761, "INFORMIXSERVER does not match either DBSERVERNAME or DBSERVERALIASES."},
    {-908, "Attempt to connect to database server (%s) failed."},
    {-951, "Incorrect password or user %s is not known on the database server."},
    {-952, "User (%s)'s password is not correct for the database server."},
    {-1202, "An attempt was made to divide by zero."},
    {-1204, "Invalid year in date."},
    {-1205, "Invalid month in date."},
    {-1206, "Invalid day in date."},
    {-1213, "A character to numeric conversion process failed."},
    {-1215, "Value exceeds limit of INTEGER precision."},
    {-1218, "String to date conversion error."},
    {-1226, "Decimal or money value exceeds maximum precision."},
    {-1261, "Too many digits in the first field of datetime or interval."},
    {-1262, "Non-numeric character in datetime or interval."},
    {-1263, "A field in a datetime or interval value is incorrect or an illegal operation "
            "specified on datetime field."},
    {-1264, "Extra characters at the end of a datetime or interval."},
    {-25580, "System error occurred in network function."},
    {-25582, "Network connection is broken."},
};

static const errtext isam_texts[] = {
    {-100, "ISAM error: duplicate value for a record with unique key."},
    {-107, "ISAM error: record is locked."},
    {-111, "ISAM error: no record found."},
    {-143, "ISAM error: deadlock detected."},
    {-154, "ISAM error: Lock Timeout Expired."},
};

static const char *find(const errtext *t, size_t n, int code) {
    for (size_t i = 0; i < n; i++)
        if (t[i].code == code) return t[i].text;
    return NULL;
}

const char *ix_errtext(int sqlcode) {
    return find(sql_texts, sizeof sql_texts / sizeof sql_texts[0], sqlcode);
}

const char *ix_isam_errtext(int isamcode) {
    if (isamcode > 0) isamcode = -isamcode;
    return find(isam_texts, sizeof isam_texts / sizeof isam_texts[0], isamcode);
}

typedef struct sqlstate {
    int code;
    const char *state;
} sqlstate;

static const sqlstate states[] = {
    {100, "02000"},   {-201, "42000"},  {-202, "42000"},  {-236, "42000"},   {-254, "42000"},
    {-349, "42000"},  {-404, "42000"},  {-410, "42000"},  {-481, "42000"},   {-206, "42S02"},
    {-217, "42S22"},  {-310, "42S01"},  {-316, "42S11"},  {-239, "23000"},   {-268, "23000"},
    {-391, "23000"},  {-530, "23000"},  {-691, "23000"},  {-692, "23000"},   {-703, "23000"},
    {-1213, "22018"}, {-1215, "22003"}, {-1226, "22003"}, {-1262, "22007"},  {-1263, "22007"},
    {-1264, "22007"}, {-1202, "22012"}, {-1204, "22008"}, {-1205, "22008"},  {-1206, "22008"},
    {-255, "25000"},  {-256, "25000"},  {-535, "25000"},  {-107, "40001"},   {-143, "40001"},
    {-154, "40001"},  {-243, "40001"},  {-244, "40001"},  {-951, "28000"},   {-952, "28000"},
    {-387, "28000"},  {-908, "08001"},  {-761, "08001"},  {-25580, "08001"}, {-329, "08004"},
    {-408, "08004"},
};

const char *ixc_sqlstate_for(int ixrc, int sqlcode, int logged_in) {
    if (ixrc == IX_OK) return "00000";
    if (ixrc == IX_ESQL && sqlcode) {
        for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
            if (states[i].code == sqlcode) return states[i].state;
        return "IX000";
    }
    switch (ixrc) {
    case IX_ECONN:
    case IX_ETIMEOUT: return logged_in ? "08006" : "08001";
    case IX_EPROTO: return "08S01";
    case IX_ETLS: return "08000";
    default: return "HY000";
    }
}
