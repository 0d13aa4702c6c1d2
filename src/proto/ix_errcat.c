/*
 * ix_errcat.c: the catalogue of standard Informix message texts, shared by
 * libixdb (ix_errtext, ix_isam_errtext, ix_errmsg) and ixd (logs, tests).
 * Texts come from sqli-protocol.md §6 and the Informix message catalogue.
 * A text may contain one %s: the insertion text the server sends in SQ_ERR
 * (a table, column, constraint or user name). All tables are const.
 */
#include <stddef.h>

#include "ixdb.h"

typedef struct errtext {
    int code;
    const char *text;
} errtext;

static const errtext sql_texts[] = {
    {100, "No matching records found."},
    {-83, "Savepoint does not exist."},
    {-107, "ISAM error: record is locked."},
    {-154, "ISAM error: Lock Timeout Expired."},
    {-201, "A syntax error has occurred."},
    {-202, "An illegal character has been found in the statement."},
    {-206, "The specified table (%s) is not in the database."},
    {-208, "Memory allocation failed during query processing."},
    {-210, "Too many statements prepared."},
    {-211, "Cannot read system catalog (%s)."},
    {-212, "Cannot add index."},
    {-213, "Statement interrupted by user."},
    {-215, "Cannot open file for table (%s)."},
    {-217, "Column (%s) not found in any table in the query (or SLV is undefined)."},
    {-218, "Synonym (%s) not found."},
    {-236, "Number of columns in INSERT does not match number of VALUES."},
    {-239, "Could not insert new row - duplicate value in a UNIQUE INDEX column (%s)."},
    {-240, "Could not delete a row."},
    {-243, "Could not position within a table (%s)."},
    {-244, "Could not do a physical-order read to fetch next row."},
    {-254, "Too many or too few host variables given."},
    {-255, "Not in transaction."},
    {-256, "Transaction not available."},
    {-260, "Cannot execute a SELECT statement that is PREPAREd - must use cursor."},
    {-261, "Cannot create file for table (%s)."},
    {-264, "Could not write to a temporary file."},
    {-268, "Unique constraint (%s) violated."},
    {-271, "Could not insert new row into the table."},
    {-273, "No UPDATE permission."},
    {-284, "A subquery has returned not exactly one row."},
    {-294, "The column (%s) must be in the GROUP BY list."},
    {-310, "Table (%s) already exists in database."},
    {-312, "Cannot update system catalog (%s)."},
    {-316, "Index (%s) already exists in database."},
    {-319, "Index (%s) does not exist in the database."},
    {-324, "Ambiguous column (%s)."},
    {-328, "Column (%s) already exists in the table."},
    {-329, "Database not found or no system permission."},
    {-330, "Cannot create or rename the database."},
    {-346, "Could not update a row in the table."},
    {-349, "Database not selected yet."},
    {-354, "Incorrect database or cursor name format."},
    {-359, "Cannot drop or rename the current database or any open database."},
    {-360, "Cannot modify table or view used in subquery."},
    {-368, "Incompatible sqlexec module."},
    {-371, "Cannot create unique index on column with duplicate data."},
    {-377, "Must terminate transaction before closing database."},
    {-387, "No connect permission."},
    {-391, "Cannot insert a null into column (%s)."},
    {-404, "The cursor or statement is not available."},
    {-408, "Invalid message type received from the sqlexec process."},
    {-410, "Prepare statement failed or was not executed."},
    {-425, "Database is currently opened by another user."},
    {-460, "Statement length exceeds maximum."},
    {-481, "Invalid statement name or statement was not prepared."},
    {-482, "Invalid operation on a non-SCROLL cursor."},
    {-511, "Cannot modify system catalog (%s)."},
    {-530, "Check constraint (%s) failed."},
    {-535, "Already in transaction."},
    {-577, "A constraint of the same type already exists on the column set."},
    {-584, "Cannot rename system catalog."},
    {-585, "Cannot rename column in system catalog."},
    {-605, "Cannot write blob."},
    {-608, "Illegal attempt to convert Text/Byte blob type."},
    {-609, "Illegal attempt to use Text/Byte host variable."},
    {-623, "Unable to find CONSTRAINT (%s)."},
    {-634, "Object does not exist."},
    {-674, "Routine (%s) can not be resolved."},
    {-691, "Missing key in referenced table for referential constraint (%s)."},
    {-692, "Key value for constraint (%s) is still being referenced."},
    {-703, "Primary key on table (%s) has a field with a null key value."},
    {-722, "Out of stack space."},
    {-728, "Unknown first argument of dbinfo(%s)."},
    {-743, "Object (%s) already exists in database."},
    {-746, "%s"},
    {-761, "INFORMIXSERVER does not match either DBSERVERNAME or DBSERVERALIASES."},
    {-886, "Cannot drop table or view because of existing dependencies."},
    {-908, "Attempt to connect to database server (%s) failed."},
    {-930, "Cannot connect to database server (%s)."},
    {-25596, "The INFORMIXSERVER value is not listed in the sqlhosts file or the Registry."},
    {-942, "Transaction commit failed - transaction will be rolled back."},
    {-951, "Incorrect password or user %s is not known on the database server."},
    {-952, "User (%s)'s password is not correct for the database server."},
    {-999, "Not implemented yet."},
    {-1202, "An attempt was made to divide by zero."},
    {-1204, "Invalid year in date."},
    {-1205, "Invalid month in date."},
    {-1206, "Invalid day in date."},
    {-1213, "A character to numeric conversion process failed."},
    {-1214, "Value too large to fit in a SMALLINT."},
    {-1215, "Value exceeds limit of INTEGER precision."},
    {-1218, "String to date conversion error."},
    {-1226, "Decimal or money value exceeds maximum precision."},
    {-1260, "It is not possible to convert between the specified types."},
    {-1261, "Too many digits in the first field of datetime or interval."},
    {-1262, "Non-numeric character in datetime or interval."},
    {-1263, "A field in a datetime or interval value is incorrect or an illegal operation "
            "specified on datetime field."},
    {-1264, "Extra characters at the end of a datetime or interval."},
    {-1266, "Intervals or Datetimes are incompatible for the operation."},
    {-1265, "Overflow occurred on a datetime or interval operation."},
    {-8300, "The specified sequence object (%s) is not in the database."},
    {-8301, "Sequence (%s) already exists in the database."},
    {-8302, "A Sequence object definition value is invalid or out of range."},
    {-8303, "Duplicate or conflicting (%s) specification in sequence definition."},
    {-8304, "MAXVALUE cannot be less than MINVALUE."},
    {-8305, "INCREMENT 0 is not allowed in sequences."},
    {-8307, "CACHE size should be less than one cycle. The default CACHE size is 20."},
    {-8308, "Cannot set START value less than MINVALUE or greater than MAXVALUE."},
    {-8309, "Cannot RESTART the sequence at a value less than MINVALUE or greater than MAXVALUE."},
    {-8312, "No options specified for ALTER SEQUENCE."},
    {-8313, "Sequence (%s) exceeds its MAXVALUE."},
    {-8314, "Sequence (%s) goes below its MINVALUE."},
    {-8315, "Sequence (%s) CURRVAL is not yet defined in this session."},
    {-9634, "No cast from %s."},
    {-19804, "Role or user name (%s) already exists in the database."},
    {-19805, "Role (%s) does not exist or has not been granted to the user."},
    {-25571, "Cannot create a user thread."},
    {-25580, "System error occurred in network function."},
    {-25582, "Network connection is broken."},
};

static const errtext isam_texts[] = {
    {-100, "ISAM error: duplicate value for a record with unique key."},
    {-107, "ISAM error: record is locked."},
    {-111, "ISAM error: no record found."},
    {-131, "ISAM error: no free disk space."},
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
