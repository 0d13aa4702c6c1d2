/*
 * ixv_codes.h: the list of the SQLCODEs and ISAM codes ixd reports. Every
 * error a server file reports names its code here (IXV_E_* for SQLCODEs,
 * IXV_ISAM_* for ISAM codes); a layer's own names for a code in its context
 * (IXS_E_ROW_NO_FIELD, TS_E_NOMEM, ...) are defined as one of these.
 * scripts/check-layers.py fails on a bare negative number passed to an
 * error-reporting function. The standard texts are the shared catalogue's
 * (src/proto/ix_errcat.c, ixv_errtext); include/ixdb.h keeps the few
 * IX_SQLCODE_* names the client API documents (the same values).
 */
#ifndef IXV_CODES_H
#define IXV_CODES_H

/* ---- SQLCODEs ------------------------------------------------------------------------ */
#define IXV_E_NO_SAVEPOINT       (-83)   /* Savepoint does not exist. */
#define IXV_E_SYNTAX             (-201)  /* A syntax error has occurred. */
#define IXV_E_NO_TABLE           (-206)  /* The specified table (%s) is not in the database. */
#define IXV_E_NOMEM              (-208)  /* Memory allocation failed during query processing. */
#define IXV_E_TOO_MANY_STMTS     (-210)  /* Too many statements prepared. */
#define IXV_E_ADD_INDEX          (-212)  /* Cannot add index. */
#define IXV_E_INTERRUPTED        (-213)  /* Statement interrupted by user. */
#define IXV_E_OPEN_FILE          (-215)  /* Cannot open file for table (%s). */
#define IXV_E_NO_COLUMN          (-217)  /* Column (%s) not found in any table in the query. */
#define IXV_E_VALUES_COUNT       (-236)  /* Number of columns in INSERT does not match VALUES. */
#define IXV_E_DUP_INDEX          (-239)  /* Duplicate value in a UNIQUE INDEX column (%s). */
#define IXV_E_DELETE             (-240)  /* Could not delete a row. */
#define IXV_E_POSITION           (-243)  /* Could not position within a table (%s). */
#define IXV_E_READ_NEXT          (-244)  /* Could not do a physical-order read to fetch next row. */
#define IXV_E_HOST_VARS          (-254)  /* Too many or too few host variables given. */
#define IXV_E_NOT_IN_TXN         (-255)  /* Not in transaction. */
#define IXV_E_NO_TXN             (-256)  /* Transaction not available. */
#define IXV_E_CUR_NOT_OPEN       (-259)  /* Cursor not open. */
#define IXV_E_SELECT_NEEDS_CUR   (-260)  /* Cannot execute a PREPAREd SELECT - must use cursor. */
#define IXV_E_CREATE_FILE        (-261)  /* Cannot create file for table (%s). */
#define IXV_E_TEMP_WRITE         (-264)  /* Could not write to a temporary file. */
#define IXV_E_CUR_NO_ROW         (-266)  /* There is no current row for UPDATE/DELETE cursor. */
#define IXV_E_UNIQUE             (-268)  /* Unique constraint (%s) violated. */
#define IXV_E_INSERT             (-271)  /* Could not insert new row into the table. */
#define IXV_E_NO_UPDATE_PERM     (-273)  /* No UPDATE permission. */
#define IXV_E_CUR_TABLE          (-277)  /* The table of the cursor is not the one named. */
#define IXV_E_SUBQUERY_ROWS      (-284)  /* A subquery has returned not exactly one row. */
#define IXV_E_CUR_NOT_UPDATE     (-290)  /* Cursor not declared with FOR UPDATE clause. */
#define IXV_E_NOT_GROUPED        (-294)  /* The column (%s) must be in the GROUP BY list. */
#define IXV_E_TABLE_EXISTS       (-310)  /* Table (%s) already exists in database. */
#define IXV_E_CATALOG_UPDATE     (-312)  /* Cannot update system catalog (%s). */
#define IXV_E_INDEX_EXISTS       (-316)  /* Index (%s) already exists in database. */
#define IXV_E_NO_INDEX           (-319)  /* Index (%s) does not exist in the database. */
#define IXV_E_AMBIGUOUS_COLUMN   (-324)  /* Ambiguous column (%s). */
#define IXV_E_COLUMN_EXISTS      (-328)  /* Column (%s) already exists in the table. */
#define IXV_E_NO_DATABASE        (-329)  /* Database not found or no system permission. */
#define IXV_E_CREATE_DB          (-330)  /* Cannot create or rename the database. */
#define IXV_E_UPDATE             (-346)  /* Could not update a row in the table. */
#define IXV_E_NO_DB_SELECTED     (-349)  /* Database not selected yet. */
#define IXV_E_DB_NAME            (-354)  /* Incorrect database or cursor name format. */
#define IXV_E_DROP_CURRENT_DB    (-359)  /* Cannot drop or rename the current database. */
#define IXV_E_UNIQUE_INDEX_DUPS  (-371)  /* Cannot create unique index on duplicate data. */
#define IXV_E_CLOSE_IN_TXN       (-377)  /* Must terminate transaction before closing database. */
#define IXV_E_NULL_COLUMN        (-391)  /* Cannot insert a null into column (%s). */
#define IXV_E_NOT_AVAILABLE      (-404)  /* The cursor or statement is not available. */
#define IXV_E_BAD_MESSAGE        (-408)  /* Invalid message type received. */
#define IXV_E_NO_STMT            (-410)  /* Prepare statement failed or was not executed. */
#define IXV_E_DB_IN_USE          (-425)  /* Database is currently opened by another user. */
#define IXV_E_STMT_LONG          (-460)  /* Statement length exceeds maximum. */
#define IXV_E_NO_STMT_NAME       (-481)  /* Invalid statement name or statement not prepared. */
#define IXV_E_NOT_SCROLL         (-482)  /* Invalid operation on a non-SCROLL cursor. */
#define IXV_E_CUR_NOT_FOUND      (-507)  /* Cursor (%s) not found. */
#define IXV_E_CATALOG_MODIFY     (-511)  /* Cannot modify system catalog (%s). */
#define IXV_E_CHECK              (-530)  /* Check constraint (%s) failed. */
#define IXV_E_IN_TXN             (-535)  /* Already in transaction. */
#define IXV_E_CATALOG_RENAME     (-584)  /* Cannot rename system catalog. */
#define IXV_E_CATALOG_RENCOL     (-585)  /* Cannot rename column in system catalog. */
#define IXV_E_BLOB_WRITE         (-605)  /* Cannot write blob. */
#define IXV_E_BLOB_CONVERT       (-608)  /* Illegal attempt to convert Text/Byte blob type. */
#define IXV_E_BLOB_HOSTVAR       (-609)  /* Illegal attempt to use Text/Byte host variable. */
#define IXV_E_NO_CONSTRAINT      (-623)  /* Unable to find CONSTRAINT (%s). */
#define IXV_E_NO_OBJECT          (-634)  /* Object does not exist. */
#define IXV_E_SYSTEM_CMD         (-668)  /* The system command cannot be executed. */
#define IXV_E_ROUTINE_EXISTS     (-673)  /* Function (%s) already exists in database. */
#define IXV_E_ROUTINE_UNRESOLVED (-674)  /* Routine (%s) can not be resolved. */
#define IXV_E_SPL_DML_STMT       (-675)  /* Illegal SQL statement in SPL routine (called from DML). */
#define IXV_E_MANY_ROWS          (-686)  /* Function (%s) has returned more than one row. */
#define IXV_E_FK_NO_PARENT       (-691)  /* Missing key in referenced table for constraint (%s). */
#define IXV_E_FK_REFERENCED      (-692)  /* Key value for constraint (%s) is still referenced. */
#define IXV_E_STACK              (-722)  /* Out of stack space. */
#define IXV_E_DBINFO             (-728)  /* Unknown first argument of dbinfo(%s). */
#define IXV_E_OBJECT_EXISTS      (-743)  /* Object (%s) already exists in database. */
#define IXV_E_TEXT               (-746)  /* %s: the text is the whole message. */
#define IXV_E_TRIGGER_CASCADE    (-748)  /* Exceeded limit on cascaded triggers. */
#define IXV_E_SERVER_NAME        (-761)  /* INFORMIXSERVER does not match DBSERVERNAME. */
#define IXV_E_DROP_DEPENDENT     (-886)  /* Cannot drop table or view: existing dependencies. */
#define IXV_E_COMMIT_FAILED      (-942)  /* Transaction commit failed - will be rolled back. */
#define IXV_E_LOGIN              (-951)  /* Incorrect password or user %s is not known. */
#define IXV_E_NOT_IMPLEMENTED    (-999)  /* Not implemented yet. */
#define IXV_E_DIV_ZERO           (-1202) /* An attempt was made to divide by zero. */
#define IXV_E_BAD_YEAR           (-1204) /* Invalid year in date. */
#define IXV_E_BAD_MONTH          (-1205) /* Invalid month in date. */
#define IXV_E_BAD_DAY            (-1206) /* Invalid day in date. */
#define IXV_E_CONVERT            (-1213) /* A character to numeric conversion process failed. */
#define IXV_E_SMALLINT_RANGE     (-1214) /* Value too large to fit in a SMALLINT. */
#define IXV_E_INT_RANGE          (-1215) /* Value exceeds limit of INTEGER precision. */
#define IXV_E_NOT_DATE           (-1218) /* String to date conversion error. */
#define IXV_E_DEC_PREC           (-1226) /* Decimal or money value exceeds maximum precision. */
#define IXV_E_ROW_TOO_WIDE       (-1248) /* The row is too wide to describe. */
#define IXV_E_TYPE_CONVERT       (-1260) /* Not possible to convert between the types. */
#define IXV_E_DT_CHAR            (-1262) /* Non-numeric character in datetime or interval. */
#define IXV_E_DT_FIELD           (-1263) /* A field in a datetime or interval is incorrect. */
#define IXV_E_DT_EXTRA           (-1264) /* Extra characters at the end of a datetime. */
#define IXV_E_DT_OVERFLOW        (-1265) /* Overflow on a datetime or interval operation. */
#define IXV_E_DT_INCOMPATIBLE    (-1266) /* Intervals or Datetimes are incompatible. */
#define IXV_E_FMT_MISMATCH       (-1277) /* Input does not match format specification. */
#define IXV_E_SEQ_NOT_FOUND      (-8300) /* The sequence object (%s) is not in the database. */
#define IXV_E_SEQ_EXISTS         (-8301) /* Sequence (%s) already exists in the database. */
#define IXV_E_SEQ_VALUE          (-8302) /* A Sequence definition value is invalid. */
#define IXV_E_SEQ_DUP            (-8303) /* Duplicate or conflicting (%s) specification. */
#define IXV_E_SEQ_MINMAX         (-8304) /* MAXVALUE cannot be less than MINVALUE. */
#define IXV_E_SEQ_INC0           (-8305) /* INCREMENT 0 is not allowed in sequences. */
#define IXV_E_SEQ_CACHE          (-8307) /* CACHE size should be less than one cycle. */
#define IXV_E_SEQ_START          (-8308) /* START value outside MINVALUE..MAXVALUE. */
#define IXV_E_SEQ_RESTART        (-8309) /* RESTART value outside MINVALUE..MAXVALUE. */
#define IXV_E_SEQ_NO_OPTS        (-8312) /* No options specified for ALTER SEQUENCE. */
#define IXV_E_SEQ_MAX            (-8313) /* Sequence (%s) exceeds its MAXVALUE. */
#define IXV_E_SEQ_MIN            (-8314) /* Sequence (%s) goes below its MINVALUE. */
#define IXV_E_SEQ_CURRVAL        (-8315) /* Sequence (%s) CURRVAL is not yet defined. */
#define IXV_E_ROW_TYPE_NOT_FOUND (-9628) /* Type (%s) not found. */
#define IXV_E_ROW_TYPE_EXISTS    (-9631) /* Type (%s) already exists in database. */
#define IXV_E_NO_CAST            (-9634) /* No cast from %s. */
#define IXV_E_ROUTINE_AMBIGUOUS  (-9700) /* Routine (%s) ambiguous. */
#define IXV_E_NOT_PROCEDURE      (-9750) /* Routine (%s) cannot be executed as one. */
#define IXV_E_TOO_MANY_ARGS      (-9753) /* More arguments than the routine's parameters. */
#define IXV_E_RETURN_COUNT       (-9762) /* RETURN gives a different number of values. */
#define IXV_E_LO                 (-9810) /* Smart-large-object error. */
#define IXV_E_ROW_ORDER          (-9926) /* ORDER BY, DISTINCT ... not allowed on row types. */
#define IXV_E_ROLE_EXISTS        (-19804) /* Role or user name (%s) already exists. */
#define IXV_E_ROLE_UNKNOWN       (-19805) /* Role (%s) does not exist or is not granted. */
#define IXV_E_THREAD             (-25571) /* Cannot create a user thread (over the cap). */

/* ---- ISAM codes ---------------------------------------------------------------------- */
#define IXV_ISAM_DUP_KEY      (-100) /* ISAM error: duplicate value for a unique key. */
#define IXV_ISAM_LOCKED       (-107) /* ISAM error: record is locked. */
#define IXV_ISAM_NO_RECORD    (-111) /* ISAM error: no record found. */
#define IXV_ISAM_NO_SPACE     (-131) /* ISAM error: no free disk space. */
#define IXV_ISAM_LOCK_TIMEOUT (-154) /* ISAM error: Lock Timeout Expired. */

#endif
