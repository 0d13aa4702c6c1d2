/* ixd_errtext.c: the standard Informix message texts of the SQLCODEs and
 * ISAM codes ixd reports (one table, used by tests, logs and the session). */
#include <stddef.h>

#include "server/sql/ixs.h"

static const struct {
    int code;
    const char *text;
} texts[] = {
    {100, "No matching records found."},
    {-83, "Savepoint does not exist."},
    {-100, "ISAM error: duplicate value for a record with unique key."},
    {-107, "ISAM error: record is locked."},
    {-111, "ISAM error: no record found."},
    {-143, "ISAM error: deadlock detected"},
    {-154, "ISAM error: Lock Timeout Expired"},
    {-201, "A syntax error has occurred."},
    {-206, "The specified table (%s) is not in the database."},
    {-208, "Memory allocation failed during query processing."},
    {-213, "Statement interrupted by user."},
    {-217, "Column (%s) not found in any table in the query (or SLV is undefined)."},
    {-218, "Synonym (%s) not found."},
    {-236, "Number of columns in INSERT does not match number of VALUES."},
    {-239, "Could not insert new row - duplicate value in a UNIQUE INDEX column (%s)."},
    {-240, "Could not delete a row."},
    {-243, "Could not position within a table (%s)."},
    {-244, "Could not do a physical-order read to fetch next row."},
    {-255, "Not in transaction."},
    {-256, "Transaction not available."},
    {-260, "Cannot execute a SELECT statement that is PREPAREd - must use cursor."},
    {-268, "Unique constraint (%s) violated."},
    {-271, "Could not insert new row into the table."},
    {-273, "No UPDATE permission."},
    {-284, "A subquery has returned not exactly one row."},
    {-294, "The column (%s) must be in the GROUP BY list."},
    {-310, "Table (%s) already exists in database."},
    {-316, "Index (%s) already exists in database."},
    {-319, "Index (%s) does not exist in the database."},
    {-324, "Ambiguous column (%s)."},
    {-328, "Column (%s) already exists in the table."},
    {-329, "Database not found or no system permission."},
    {-330, "Cannot create or rename the database."},
    {-346, "Could not update a row in the table."},
    {-349, "Database not selected yet."},
    {-354, "Incorrect database or cursor name format."},
    {-360, "Cannot modify table or view used in subquery."},
    {-377, "Must terminate transaction before closing database."},
    {-387, "No connect permission."},
    {-391, "Cannot insert a null into column (%s)."},
    {-404, "The cursor or statement is not available."},
    {-425, "Database is currently opened by another user."},
    {-530, "Check constraint (%s) failed."},
    {-535, "Already in transaction."},
    {-577, "A constraint of the same type already exists on the column set."},
    {-608, "Illegal attempt to convert Text/Byte blob type."},
    {-623, "Unable to find CONSTRAINT (%s)."},
    {-674, "Routine (%s) can not be resolved."},
    {-691, "Missing key in referenced table for referential constraint (%s)."},
    {-692, "Key value for constraint (%s) is still being referenced."},
    {-728, "Unknown first argument of dbinfo(%s)."},
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
    {-1262, "Non-numeric character in datetime or interval."},
    {-1263, "A field in a datetime or interval value is incorrect or an illegal operation "
            "specified on datetime field."},
    {-1264, "Extra characters at the end of a datetime or interval."},
    {-1265, "Overflow occurred on a datetime or interval operation."},
};

const char *ixd_errtext(int sqlcode) {
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (texts[i].code == sqlcode) return texts[i].text;
    return "Unknown error.";
}
