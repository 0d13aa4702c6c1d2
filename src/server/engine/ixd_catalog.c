/* ixd_catalog.c: ixd's own catalog inside each database file (_ixd_* tables)
 * and the Informix system catalog views built on it (systables, syscolumns,
 * sysindexes, sysindices, sysusers, sysconstraints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ixd_int.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_priv.h"

#define IXS_SYN_DEPTH 8 /* synonyms of synonyms followed by the lookup */

static const char *cat_ddl =
    "CREATE TABLE _ixd_meta(k TEXT PRIMARY KEY, v);"
    "CREATE TABLE _ixd_tables(tabid INTEGER PRIMARY KEY, tabname TEXT UNIQUE NOT NULL,"
    " owner TEXT, created INTEGER, tabtype TEXT DEFAULT 'T', rowsize INTEGER DEFAULT 0,"
    " serial_next INTEGER DEFAULT 1, serial8_next INTEGER DEFAULT 1, site TEXT,"
    " nrows INTEGER DEFAULT 0);"
    "CREATE TABLE _ixd_views(tabid INTEGER, seqno INTEGER, viewtext TEXT,"
    " PRIMARY KEY(tabid, seqno));"
    "CREATE TABLE _ixd_columns(tabid INTEGER, colno INTEGER, colname TEXT, coltype INTEGER,"
    " collength INTEGER, serial INTEGER DEFAULT 0, defsql TEXT, deftype TEXT, deftext TEXT,"
    " PRIMARY KEY(tabid, colno));"
    "CREATE TABLE _ixd_indexes(idxname TEXT PRIMARY KEY, owner TEXT, tabid INTEGER,"
    " idxtype TEXT, clustered TEXT DEFAULT '-', is_constraint INTEGER DEFAULT 0, cols TEXT,"
    " part1 INTEGER DEFAULT 0, part2 INTEGER DEFAULT 0, part3 INTEGER DEFAULT 0,"
    " part4 INTEGER DEFAULT 0, part5 INTEGER DEFAULT 0, part6 INTEGER DEFAULT 0,"
    " part7 INTEGER DEFAULT 0, part8 INTEGER DEFAULT 0, part9 INTEGER DEFAULT 0,"
    " part10 INTEGER DEFAULT 0, part11 INTEGER DEFAULT 0, part12 INTEGER DEFAULT 0,"
    " part13 INTEGER DEFAULT 0, part14 INTEGER DEFAULT 0, part15 INTEGER DEFAULT 0,"
    " part16 INTEGER DEFAULT 0);"
    "CREATE TABLE _ixd_constraints(constrid INTEGER PRIMARY KEY, constrname TEXT UNIQUE,"
    " owner TEXT, tabid INTEGER, constrtype TEXT, idxname TEXT, cols TEXT, reftabid INTEGER,"
    " refcols TEXT, ondelete TEXT, checktext TEXT, ifxtext TEXT);"
    "CREATE TABLE _ixd_users(username TEXT PRIMARY KEY, usertype TEXT, defrole TEXT);"
    /* a collection's collength holds its element type (ixs_collection.c) */
    /* BLOB and CLOB (stored as ix_type 102/101) are coltype 41 with the
     * extended ids 10/11, as Informix records them */
    "CREATE VIEW syscolumns AS SELECT colname, tabid, colno,"
    " CASE WHEN coltype & 255 IN (101, 102) THEN coltype - (coltype & 255) + 41 ELSE coltype END"
    " AS coltype,"
    " CASE WHEN coltype & 255 BETWEEN 19 AND 21 THEN 2048 ELSE collength END AS collength,"
    " 0 AS colmin, 0 AS colmax, CASE coltype & 255 WHEN 43 THEN 1 WHEN 45 THEN 5 WHEN 102 THEN 10"
    " WHEN 101 THEN 11 WHEN 22 THEN"
    " collength ELSE 0 END"
    " AS extended_id FROM _ixd_columns;"
    "CREATE VIEW sysindexes AS SELECT idxname, owner, tabid, idxtype, clustered, part1, part2,"
    " part3, part4, part5, part6, part7, part8, part9, part10, part11, part12, part13, part14,"
    " part15, part16, 1 AS levels, 1 AS leaves, 0 AS nunique, 0 AS clust FROM _ixd_indexes;"
    "CREATE VIEW sysindices AS SELECT idxname, owner, tabid, idxtype, clustered, 1 AS levels,"
    " 1 AS leaves, 0 AS nunique, 0 AS clust, 0.0 AS nrows FROM _ixd_indexes;"
    "CREATE VIEW sysconstraints AS SELECT constrid, constrname, owner, tabid, constrtype,"
    " idxname FROM _ixd_constraints;";

/* sysdatabases reads the eponymous virtual table _ixd_databases
 * (ixd_catalog_vt.c). Files made before it had its internal name read
 * "ixd_databases" (ixd_cat_upgrade replaces that view). */
static const char *sysdatabases_ddl =
    "CREATE VIEW sysdatabases AS SELECT name, 1048576 + rowid AS partnum, 'informix' AS owner,"
    " created, CASE WHEN logmode > 0 THEN 1 ELSE 0 END AS is_logging,"
    " CASE WHEN logmode = 2 THEN 1 ELSE 0 END AS is_buff_log,"
    " CASE WHEN logmode = 3 THEN 1 ELSE 0 END AS is_ansi, 0 AS is_nls, 0 AS flags"
    " FROM " IXV_INTERNAL_PREFIX "databases ORDER BY name;";
#define OLD_SYSDATABASES_FROM " FROM ixd_databases "

/* The catalog tables as Informix types them: name, type code, length. */
typedef struct catcol {
    const char *name;
    int code;
    uint32_t len;
} catcol;
#define VC(n)  IX_T_VARCHAR, n
#define DT_YF5 IX_T_DATETIME, 0 /* DATETIME YEAR TO FRACTION(5) (length set at init) */
#define CH(n)  IX_T_CHAR, n
#define INT    IX_T_INTEGER, 4
#define SMALL  IX_T_SMALLINT, 2
#define SER    IX_T_SERIAL, 4
#define I8     IX_T_INT8, 10
#define FLT    IX_T_FLOAT, 8
#define BOOL   IX_T_BOOLEAN, 1
#define LVC    IX_T_LVARCHAR, 2048
static const catcol c_systables[] = {
    {"tabname", VC(128)},  {"owner", CH(32)},    {"partnum", INT},
    {"tabid", SER},        {"rowsize", SMALL},   {"ncols", SMALL},
    {"nindexes", SMALL},   {"nrows", FLT},       {"created", IX_T_DATE, 4},
    {"version", INT},      {"tabtype", CH(1)},   {"locklevel", CH(1)},
    {"npused", FLT},       {"fextsize", INT},    {"nextsize", INT},
    {"flags", SMALL},      {"site", VC(128)},    {"dbname", VC(128)},
    {"type_xid", INT},     {"am_id", INT},       {"pagesize", INT},
    {"ustlowts", DT_YF5},  {"secpolicyid", INT}, {"protgranularity", CH(1)},
    {"statchange", SMALL}, {"statlevel", CH(1)}, {NULL, 0, 0}};
static const catcol c_syscolumns[] = {
    {"colname", VC(128)},          {"tabid", IX_T_INTEGER, 4},       {"colno", IX_T_SMALLINT, 2},
    {"coltype", IX_T_SMALLINT, 2}, {"collength", IX_T_SMALLINT, 2},  {"colmin", IX_T_INTEGER, 4},
    {"colmax", IX_T_INTEGER, 4},   {"extended_id", IX_T_INTEGER, 4}, {NULL, 0, 0}};
static const catcol c_sysindexes[] = {{"idxname", VC(128)},         {"owner", IX_T_CHAR, 32},
                                      {"tabid", IX_T_INTEGER, 4},   {"idxtype", IX_T_CHAR, 1},
                                      {"clustered", IX_T_CHAR, 1},  {"part1", IX_T_SMALLINT, 2},
                                      {"part2", IX_T_SMALLINT, 2},  {"part3", IX_T_SMALLINT, 2},
                                      {"part4", IX_T_SMALLINT, 2},  {"part5", IX_T_SMALLINT, 2},
                                      {"part6", IX_T_SMALLINT, 2},  {"part7", IX_T_SMALLINT, 2},
                                      {"part8", IX_T_SMALLINT, 2},  {"part9", IX_T_SMALLINT, 2},
                                      {"part10", IX_T_SMALLINT, 2}, {"part11", IX_T_SMALLINT, 2},
                                      {"part12", IX_T_SMALLINT, 2}, {"part13", IX_T_SMALLINT, 2},
                                      {"part14", IX_T_SMALLINT, 2}, {"part15", IX_T_SMALLINT, 2},
                                      {"part16", IX_T_SMALLINT, 2}, {"levels", IX_T_SMALLINT, 2},
                                      {"leaves", IX_T_INTEGER, 4},  {"nunique", IX_T_INTEGER, 4},
                                      {"clust", IX_T_INTEGER, 4},   {NULL, 0, 0}};
static const catcol c_sysindices[] = {{"idxname", VC(128)},
                                      {"owner", IX_T_CHAR, 32},
                                      {"tabid", IX_T_INTEGER, 4},
                                      {"idxtype", IX_T_CHAR, 1},
                                      {"clustered", IX_T_CHAR, 1},
                                      {"levels", IX_T_SMALLINT, 2},
                                      {"leaves", IX_T_INTEGER, 4},
                                      {"nunique", IX_T_INTEGER, 4},
                                      {"clust", IX_T_INTEGER, 4},
                                      {"nrows", IX_T_FLOAT, 8},
                                      {NULL, 0, 0}};
static const catcol c_sysusers[] = {{"username", IX_T_CHAR, 32},    {"usertype", IX_T_CHAR, 1},
                                    {"priority", IX_T_SMALLINT, 2}, {"password", IX_T_CHAR, 16},
                                    {"defrole", IX_T_CHAR, 32},     {NULL, 0, 0}};
static const catcol c_sysconstraints[] = {{"constrid", IX_T_SERIAL, 4},
                                          {"constrname", VC(128)},
                                          {"owner", IX_T_CHAR, 32},
                                          {"tabid", IX_T_INTEGER, 4},
                                          {"constrtype", IX_T_CHAR, 1},
                                          {"idxname", VC(128)},
                                          {NULL, 0, 0}};

static const catcol c_sysdatabases[] = {{"name", VC(128)},
                                        {"partnum", IX_T_INTEGER, 4},
                                        {"owner", IX_T_CHAR, 32},
                                        {"created", IX_T_DATE, 4},
                                        {"is_logging", IX_T_INTEGER, 4},
                                        {"is_buff_log", IX_T_INTEGER, 4},
                                        {"is_ansi", IX_T_INTEGER, 4},
                                        {"is_nls", IX_T_INTEGER, 4},
                                        {"flags", IX_T_SMALLINT, 2},
                                        {NULL, 0, 0}};

static const catcol c_systabauth[] = {
    {"grantor", CH(32)}, {"grantee", CH(32)}, {"tabid", INT}, {"tabauth", CH(9)}, {NULL, 0, 0}};
static const catcol c_syscolauth[] = {{"grantor", CH(32)}, {"grantee", CH(32)}, {"tabid", INT},
                                      {"colno", SMALL},    {"colauth", CH(3)},  {NULL, 0, 0}};
static const catcol c_sysviews[] = {
    {"tabid", INT}, {"seqno", SMALL}, {"viewtext", CH(64)}, {NULL, 0, 0}};
static const catcol c_sysdepend[] = {
    {"btabid", INT}, {"btype", CH(1)}, {"dtabid", INT}, {"dtype", CH(1)}, {NULL, 0, 0}};
static const catcol c_sysreferences[] = {
    {"constrid", INT},  {"primary", INT},     {"ptabid", INT},    {"updrule", CH(1)},
    {"delrule", CH(1)}, {"matchtype", CH(1)}, {"pendant", CH(1)}, {NULL, 0, 0}};
static const catcol c_syschecks[] = {
    {"constrid", INT}, {"type", CH(1)}, {"seqno", SMALL}, {"checktext", CH(32)}, {NULL, 0, 0}};
static const catcol c_sysdefaults[] = {{"tabid", INT},       {"colno", SMALL}, {"type", CH(1)},
                                       {"default", CH(256)}, {"class", CH(1)}, {NULL, 0, 0}};
static const catcol c_syscoldepend[] = {
    {"constrid", INT}, {"tabid", INT}, {"colno", SMALL}, {NULL, 0, 0}};
static const catcol c_sysprocplan[] = {
    {"procid", INT},   {"planid", INT},           {"datakey", CH(1)},
    {"seqno", INT},    {"created", IX_T_DATE, 4}, {"datasize", INT},
    {"data", CH(256)}, {"collation", CH(32)},     {NULL, 0, 0}};
static const catcol c_sysprocauth[] = {
    {"grantor", CH(32)}, {"grantee", CH(32)}, {"procid", INT}, {"procauth", CH(1)}, {NULL, 0, 0}};
static const catcol c_sysblobs[] = {
    {"spacename", VC(128)}, {"type", CH(1)}, {"tabid", INT}, {"colno", SMALL}, {NULL, 0, 0}};
static const catcol c_sysopclstr[] = {
    {"owner", CH(32)},    {"clstrname", VC(128)}, {"clstrsize", INT},
    {"tabid", INT},       {"blobcol1", SMALL},    {"blobcol2", SMALL},
    {"clstrkey1", SMALL}, {"clstrkey2", SMALL},   {NULL, 0, 0}};
static const catcol c_sysdistrib[] = {
    {"tabid", INT},  {"colno", SMALL},    {"seqno", INT},      {"constructed", IX_T_DATE, 4},
    {"mode", CH(1)}, {"resolution", FLT}, {"confidence", FLT}, {"encdat", LVC},
    {NULL, 0, 0}};
static const catcol c_sysfragments[] = {
    {"fragtype", CH(1)}, {"tabid", INT},      {"indexname", VC(128)}, {"colno", SMALL},
    {"partn", INT},      {"strategy", CH(1)}, {"location", CH(1)},    {"servername", VC(128)},
    {"evalpos", INT},    {"exprtext", LVC},   {"dbspace", VC(128)},   {"levels", SMALL},
    {"npused", FLT},     {"nrows", FLT},      {"clust", INT},         {"partition", VC(128)},
    {NULL, 0, 0}};
static const catcol c_sysobjstate[] = {{"objtype", CH(1)}, {"owner", CH(32)}, {"name", VC(128)},
                                       {"tabid", INT},     {"state", CH(1)},  {NULL, 0, 0}};
static const catcol c_sysviolations[] = {
    {"targettid", INT}, {"viotid", INT}, {"diatid", INT}, {"maxrows", INT}, {NULL, 0, 0}};
static const catcol c_sysfragauth[] = {{"grantor", CH(32)},   {"grantee", CH(32)}, {"tabid", INT},
                                       {"fragment", VC(128)}, {"fragauth", CH(6)}, {NULL, 0, 0}};
static const catcol c_sysroleauth[] = {
    {"rolename", CH(32)}, {"grantee", CH(32)}, {"is_grantable", CH(1)}, {NULL, 0, 0}};
static const catcol c_sysxtdtypes[] = {
    {"extended_id", SER}, {"domain", CH(1)},  {"mode", CH(1)},       {"owner", CH(32)},
    {"name", VC(128)},    {"type", SMALL},    {"source", INT},       {"maxlen", INT},
    {"length", INT},      {"byvalue", CH(1)}, {"cannothash", CH(1)}, {"align", SMALL},
    {"locator", INT},     {NULL, 0, 0}};
static const catcol c_sysattrtypes[] = {
    {"extended_id", INT},   {"seqno", SMALL},   {"levelno", SMALL}, {"parent_no", SMALL},
    {"fieldname", VC(128)}, {"fieldno", SMALL}, {"type", SMALL},    {"length", SMALL},
    {"xtd_type_id", INT},   {NULL, 0, 0}};
static const catcol c_sysxtddesc[] = {
    {"extended_id", INT}, {"seqno", SMALL}, {"description", CH(256)}, {NULL, 0, 0}};
static const catcol c_sysinherits[] = {
    {"child", INT}, {"parent", INT}, {"class", CH(1)}, {NULL, 0, 0}};
static const catcol c_syscolattribs[] = {{"tabid", INT}, {"colno", SMALL}, {"extentsize", INT},
                                         {"flags", INT}, {"flags1", INT},  {"sbspace", VC(128)},
                                         {NULL, 0, 0}};
static const catcol c_syslogmap[] = {
    {"tabloc", INT}, {"tabid", INT}, {"fragid", INT}, {NULL, 0, 0}};
static const catcol c_syscasts[] = {
    {"owner", CH(32)},         {"argument_type", SMALL}, {"argument_xid", INT},
    {"result_type", SMALL},    {"result_xid", INT},      {"routine_name", VC(128)},
    {"routine_owner", CH(32)}, {"class", CH(1)},         {NULL, 0, 0}};
static const catcol c_sysxtdtypeauth[] = {
    {"grantor", CH(32)}, {"grantee", CH(32)}, {"type", INT}, {"auth", CH(2)}, {NULL, 0, 0}};
static const catcol c_sysroutinelangs[] = {{"langid", SER},           {"langname", CH(30)},
                                           {"langinitfunc", VC(128)}, {"langpath", CH(255)},
                                           {"langclass", CH(128)},    {NULL, 0, 0}};
static const catcol c_syslangauth[] = {
    {"grantor", CH(32)}, {"grantee", CH(32)}, {"langid", INT}, {"langauth", CH(1)}, {NULL, 0, 0}};
static const catcol c_sysams[] = {{"am_name", VC(128)}, {"am_owner", CH(32)}, {"am_id", INT},
                                  {"am_type", CH(1)},   {"am_sptype", CH(3)}, {NULL, 0, 0}};
static const catcol c_systabamdata[] = {
    {"tabid", INT}, {"am_param", LVC}, {"am_space", VC(128)}, {NULL, 0, 0}};
static const catcol c_sysopclasses[] = {
    {"opclassname", VC(128)}, {"owner", CH(32)}, {"amid", INT}, {"opclassid", SER}, {"ops", LVC},
    {"support", LVC},         {NULL, 0, 0}};
static const catcol c_syserrors[] = {{"sqlstate", CH(5)}, {"locale", CH(36)},   {"level", SMALL},
                                     {"seqno", SMALL},    {"message", VC(255)}, {NULL, 0, 0}};
static const catcol c_systraceclasses[] = {{"name", CH(18)}, {"classid", SER}, {NULL, 0, 0}};
static const catcol c_systracemsgs[] = {{"name", VC(128)}, {"msgid", SER},       {"locale", CH(36)},
                                        {"seqno", SMALL},  {"message", VC(255)}, {NULL, 0, 0}};
static const catcol c_sysaggregates[] = {
    {"name", VC(128)},       {"owner", CH(32)},      {"aggid", SER},
    {"init_func", VC(128)},  {"iter_func", VC(128)}, {"combine_func", VC(128)},
    {"final_func", VC(128)}, {"handlesnulls", BOOL}, {NULL, 0, 0}};
static const catcol c_sysdual[] = {{"dummy", CH(1)}, {NULL, 0, 0}};

/* The views over ixd's catalog tables; a catalogue table without one is an
 * empty view with its columns (ixd has no such objects: no privileges,
 * fragments, extended types, ...). */
static const char v_systables[] =
    "SELECT tabname, owner, 1048576 + tabid AS partnum, tabid, rowsize,"
    " (SELECT count(*) FROM _ixd_columns c WHERE c.tabid = t.tabid) AS ncols,"
    " (SELECT count(*) FROM _ixd_indexes i WHERE i.tabid = t.tabid) AS nindexes,"
    " CAST(nrows AS REAL) AS nrows, created, tabid * 65536 AS version, tabtype,"
    " CASE WHEN tabtype = 'T' THEN 'P' ELSE NULL END AS locklevel, 0.0 AS npused,"
    " 16 AS fextsize, 16 AS nextsize, 0 AS flags, site, NULL AS dbname, 0 AS type_xid,"
    " 0 AS am_id, 2048 AS pagesize, NULL AS ustlowts, 0 AS secpolicyid,"
    " NULL AS protgranularity, NULL AS statchange, NULL AS statlevel"
    " FROM _ixd_tables t ORDER BY tabid";
static const char v_sysviews[] =
    "SELECT tabid, seqno, viewtext FROM _ixd_views ORDER BY tabid, seqno";
static const char v_sysreferences[] =
    "SELECT c.constrid, (SELECT k.constrid FROM _ixd_constraints k WHERE k.tabid = c.reftabid"
    " AND k.constrtype IN ('P', 'U') AND k.cols = c.refcols) AS \"primary\","
    " c.reftabid AS ptabid, 'R' AS updrule, CASE WHEN c.ondelete IS NULL THEN 'R' ELSE 'C' END"
    " AS delrule, 'N' AS matchtype, 'N' AS pendant FROM _ixd_constraints c"
    " WHERE c.constrtype = 'R'";
static const char v_syscoldepend[] =
    "SELECT k.constrid, k.tabid, c.colno FROM _ixd_constraints k JOIN _ixd_columns c"
    " ON c.tabid = k.tabid AND instr(k.checktext, ixd_ident(c.colname)) > 0"
    " WHERE k.constrtype = 'C'";
/* the DEFAULT of every column that has one (type L literal, N NULL, T TODAY,
 * C CURRENT, U USER), of a table (class T) */
static const char v_sysdefaults[] =
    "SELECT tabid, colno, deftype AS type, deftext AS \"default\", 'T' AS class"
    " FROM _ixd_columns WHERE deftype IS NOT NULL";
/* a CHECK condition as written, in 32-byte pieces of type 'T' (the text) */
static const char v_syschecks[] =
    "WITH RECURSIVE ch(constrid, seqno, rest) AS (SELECT constrid, 0, ifxtext FROM"
    " _ixd_constraints WHERE constrtype = 'C' AND ifxtext IS NOT NULL UNION ALL SELECT"
    " constrid, seqno + 1, substr(rest, 33) FROM ch WHERE length(rest) > 32)"
    " SELECT constrid, 'T' AS type, seqno, substr(rest, 1, 32) AS checktext FROM ch";
static const char v_sysdual[] = "SELECT 'x' AS dummy";
/* privileges (ixs_priv.c) */
static const char v_systabauth[] = "SELECT grantor, grantee, tabid, tabauth FROM _ixd_tabauth";
static const char v_syscolauth[] =
    "SELECT grantor, grantee, tabid, colno, colauth FROM _ixd_colauth";
/* users and roles (usertype 'G'), roles granted (ixs_role.c) */
static const char v_sysusers[] = "SELECT username, usertype, 0 AS priority, NULL AS password,"
                                 " defrole FROM _ixd_users";
static const char v_sysroleauth[] = "SELECT rolename, grantee, is_grantable FROM _ixd_roleauth";

/* The catalogue tables with the tabids of IBM's Guide to SQL: Reference
 * (systables 1 ... sysaggregates 46). The tables of routines and triggers
 * (sysprocedures 16, sysprocbody 17, systriggers 22, systrigbody 23) are made
 * by ixs_spl_cat.c, those of synonyms and sequences (syssynonyms 9,
 * syssyntable 10, syssequences 47) by ixs_seq.c, each with its systables
 * and syscolumns rows. ixd adds sysindexes (50, the
 * compatibility view of sysindices), sysdatabases and sysdual (60 and 61,
 * sysmaster tables that every ixd database has). */
static const struct {
    const char *name;
    int tabid;
    const char *type;
    const catcol *cols;
    const char *view; /* NULL: made by cat_ddl, "": empty */
} cat_tabs[] = {
    {"systables", 1, "T", c_systables, v_systables},
    {"syscolumns", 2, "T", c_syscolumns, NULL},
    {"sysindices", 3, "T", c_sysindices, NULL},
    {"systabauth", 4, "T", c_systabauth, v_systabauth},
    {"syscolauth", 5, "T", c_syscolauth, v_syscolauth},
    {"sysviews", 6, "T", c_sysviews, v_sysviews},
    {"sysusers", 7, "T", c_sysusers, v_sysusers},
    {"sysdepend", 8, "T", c_sysdepend, ""},
    {"sysconstraints", 11, "T", c_sysconstraints, NULL},
    {"sysreferences", 12, "T", c_sysreferences, v_sysreferences},
    {"syschecks", 13, "T", c_syschecks, v_syschecks},
    {"sysdefaults", 14, "T", c_sysdefaults, v_sysdefaults},
    {"syscoldepend", 15, "T", c_syscoldepend, v_syscoldepend},
    {"sysprocplan", 18, "T", c_sysprocplan, ""},
    {"sysprocauth", 19, "T", c_sysprocauth, ""},
    {"sysblobs", 20, "T", c_sysblobs, ""},
    {"sysopclstr", 21, "T", c_sysopclstr, ""},
    {"sysdistrib", 24, "T", c_sysdistrib, ""},
    {"sysfragments", 25, "T", c_sysfragments, ""},
    {"sysobjstate", 26, "T", c_sysobjstate, ""},
    {"sysviolations", 27, "T", c_sysviolations, ""},
    {"sysfragauth", 28, "T", c_sysfragauth, ""},
    {"sysroleauth", 29, "T", c_sysroleauth, v_sysroleauth},
    {"sysxtdtypes", 30, "T", c_sysxtdtypes, NULL}, /* views of ixs_rowtype.c */
    {"sysattrtypes", 31, "T", c_sysattrtypes, NULL},
    {"sysxtddesc", 32, "T", c_sysxtddesc, ""},
    {"sysinherits", 33, "T", c_sysinherits, ""},
    {"syscolattribs", 34, "T", c_syscolattribs, ""},
    {"syslogmap", 35, "T", c_syslogmap, ""},
    {"syscasts", 36, "T", c_syscasts, ""},
    {"sysxtdtypeauth", 37, "T", c_sysxtdtypeauth, ""},
    {"sysroutinelangs", 38, "T", c_sysroutinelangs, ""},
    {"syslangauth", 39, "T", c_syslangauth, ""},
    {"sysams", 40, "T", c_sysams, ""},
    {"systabamdata", 41, "T", c_systabamdata, ""},
    {"sysopclasses", 42, "T", c_sysopclasses, ""},
    {"syserrors", 43, "T", c_syserrors, ""},
    {"systraceclasses", 44, "T", c_systraceclasses, ""},
    {"systracemsgs", 45, "T", c_systracemsgs, ""},
    {"sysaggregates", 46, "T", c_sysaggregates, ""},
    {"sysindexes", 50, "V", c_sysindexes, NULL},
    {"sysdatabases", 60, "V", c_sysdatabases, NULL},
    {"sysdual", 61, "T", c_sysdual, v_sysdual},
};
#define CAT_VERSION 5 /* _ixd_meta 'catversion': the catalogue above */
/* _ixd_meta 'stnames': the file's names are storage names (cat_upgrade_names) */
#define CAT_STNAMES_DONE "INSERT OR REPLACE INTO _ixd_meta VALUES('stnames', 1);"

/* The SQL that makes catalogue table i (its view unless cat_ddl does, its
 * systables and syscolumns rows) into q, replacing an older one. */
static void cat_table_sql(sb *q, size_t i, int32_t today) {
    const char *v = cat_tabs[i].view;
    if (v) {
        ixv_sb_add(q, "DROP VIEW IF EXISTS ");
        ixv_sb_add(q, cat_tabs[i].name);
        ixv_sb_printf(q, "; CREATE VIEW %s AS ", cat_tabs[i].name);
        if (*v)
            ixv_sb_add(q, v);
        else {
            ixv_sb_add(q, "SELECT ");
            for (const catcol *c = cat_tabs[i].cols; c->name; c++)
                ixv_sb_printf(q, "%sNULL AS \"%s\"", c == cat_tabs[i].cols ? "" : ", ", c->name);
            ixv_sb_add(q, " WHERE 0");
        }
        ixv_sb_addc(q, ';');
    }
    ixv_sb_printf(q, "DELETE FROM _ixd_columns WHERE tabid = %d;", cat_tabs[i].tabid);
    int ncol = 0, rowsize = 0;
    for (const catcol *c = cat_tabs[i].cols; c->name; c++) {
        uint32_t len = c->code == IX_T_DATETIME ? ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5)) : c->len;
        ncol++;
        ixv_sb_printf(q,
                      "INSERT INTO _ixd_columns(tabid,colno,colname,coltype,collength)"
                      " VALUES(%d,%d,'%s',%d,%u);",
                      cat_tabs[i].tabid, ncol, c->name, c->code, len);
        rowsize += c->code == IX_T_VARCHAR ? (int)c->len + 1 : (int)c->len;
    }
    ixv_sb_printf(q,
                  "INSERT OR REPLACE INTO _ixd_tables(tabid,tabname,owner,created,tabtype,rowsize)"
                  " VALUES(%d,'%s','informix',%d,'%s',%d);",
                  cat_tabs[i].tabid, cat_tabs[i].name, (int)today, cat_tabs[i].type, rowsize);
}

static int xexec(sqlite3 *h, const char *sql, ixv_err *err) {
    char *msg = NULL;
    int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (ixd_no_space(h, rc)) {
        ixv_seterr(err, IXS_E_CREATE_DB, IXS_ISAM_NO_SPACE, 0, NULL);
        sqlite3_free(msg);
        return -1;
    }
    if (rc != SQLITE_OK) {
        ixv_seterr(err, IXV_E_NOT_IMPLEMENTED, 0, 0, "%s", msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int ixd_cat_init(sqlite3 *h, int logmode, const char *user, ixv_err *err) {
    if (xexec(h, "BEGIN IMMEDIATE", err)) return -1;
    if (xexec(h, cat_ddl, err) || xexec(h, sysdatabases_ddl, err) || ixs_cat_init(h, err))
        goto fail;
    sb q = {0};
    int32_t today = ixv_today();
    ixv_sb_printf(&q, "INSERT INTO _ixd_meta VALUES('logmode', %d), ('created', %d);", logmode,
                  (int)today);
    for (size_t i = 0; i < sizeof cat_tabs / sizeof cat_tabs[0]; i++)
        cat_table_sql(&q, i, today);
    ixv_sb_printf(&q, "INSERT INTO _ixd_meta VALUES('catversion', %d);", CAT_VERSION);
    ixv_sb_add(&q, CAT_STNAMES_DONE);
    ixv_sb_printf(&q,
                  "INSERT INTO _ixd_tables(tabid,tabname,owner,created,tabtype,site) VALUES"
                  "(90,' GL_COLLATE','informix',%d,'L','en_US.819'),"
                  "(91,' GL_CTYPE','informix',%d,'L','en_US.819');",
                  (int)today, (int)today);
    ixv_sb_add(&q, "INSERT INTO _ixd_users(username, usertype) VALUES('informix','D');");
    if (user && *user && strcmp(user, "informix")) {
        ixv_sb_add(&q, "INSERT OR IGNORE INTO _ixd_users(username, usertype) VALUES(");
        ixv_sb_strlit(&q, user, strlen(user));
        ixv_sb_add(&q, ",'D');");
    }
    if (q.oom) {
        ixv_sb_free(&q);
        ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
        goto fail;
    }
    int r = xexec(h, q.p, err);
    ixv_sb_free(&q);
    if (r) goto fail;
    return xexec(h, "COMMIT", err);
fail:
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* Brings a catalogue older than CAT_VERSION up to it: the nrows column,
 * _ixd_views, and every catalogue table of cat_tabs (best effort, in one
 * transaction: on failure the file keeps its older catalogue). */
static void cat_upgrade_tables(sqlite3 *h) {
    sqlite3_stmt *st;
    int ver = 0;
    if (sqlite3_prepare_v2(h, "SELECT v FROM _ixd_meta WHERE k = 'catversion'", -1, &st, NULL) !=
        SQLITE_OK)
        return;
    if (sqlite3_step(st) == SQLITE_ROW) ver = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (ver >= CAT_VERSION || sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return;
    sqlite3_exec(h, "ALTER TABLE _ixd_tables ADD COLUMN nrows INTEGER DEFAULT 0", NULL, NULL,
                 NULL); /* fails when it is there */
    sqlite3_exec(h, "ALTER TABLE _ixd_constraints ADD COLUMN ifxtext TEXT", NULL, NULL,
                 NULL); /* version 3; these fail when they are there */
    sqlite3_exec(h, "ALTER TABLE _ixd_columns ADD COLUMN deftype TEXT", NULL, NULL, NULL);
    sqlite3_exec(h, "ALTER TABLE _ixd_columns ADD COLUMN deftext TEXT", NULL, NULL, NULL);
    sqlite3_exec(h, "ALTER TABLE _ixd_users ADD COLUMN defrole TEXT", NULL, NULL,
                 NULL); /* version 5: default roles */
    sb q = {0};
    ixv_sb_add(&q,
               "CREATE TABLE IF NOT EXISTS _ixd_views(tabid INTEGER, seqno INTEGER, viewtext TEXT,"
               " PRIMARY KEY(tabid, seqno));");
    ixv_sb_add(&q, ixs_priv_cat_ddl()); /* version 4 */
    if (ver < 4) ixs_priv_upgrade_sql(&q, ixd_cat_logmode(h));
    for (size_t i = 0; i < sizeof cat_tabs / sizeof cat_tabs[0]; i++)
        cat_table_sql(&q, i, ixv_today());
    ixv_sb_printf(&q, "INSERT OR REPLACE INTO _ixd_meta VALUES('catversion', %d);", CAT_VERSION);
    int ok = !q.oom && sqlite3_exec(h, q.p, NULL, NULL, NULL) == SQLITE_OK;
    ixv_sb_free(&q);
    sqlite3_exec(h, ok ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    if (!sqlite3_get_autocommit(h)) sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- storage names of older files -------------------------------------------------
 * An ixd before storage names (ixv_stname) kept a name written "MyTab"
 * under that name in SQLite too. On open, the tables, columns and indexes
 * of such a file that the catalogue names with an upper-case letter take
 * their storage names (SQLite's RENAME follows them in views, triggers and
 * indexes; CHECK texts are rewritten here): best effort, in one
 * transaction, once: _ixd_meta 'stnames' records it (a file made with
 * storage names has it from the start). Views are left as they are
 * (docs/server-sql.md). */

/* The SQL that gives the objects query finds their storage names: columns
 * (table, column), indexes (name, SQL) or tables (name). Returns 0, or -1
 * when the catalogue cannot be read. */
static int names_sql(sqlite3 *h, const char *query, char kind, sb *q) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, query, -1, &st, NULL) != SQLITE_OK) return -1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *a = (const char *)sqlite3_column_text(st, 0);
        const char *b = (const char *)sqlite3_column_text(st, 1);
        if (!a || (kind != 't' && !b)) continue;
        if (kind == 'c') { /* the column, and the CHECK texts that name it */
            ixv_sb_add(q, "ALTER TABLE ");
            ixv_sb_quoted(q, a);
            ixv_sb_add(q, " RENAME COLUMN ");
            ixv_sb_quoted(q, b);
            ixv_sb_add(q, " TO ");
            ixv_sb_ident(q, b);
            ixv_sb_add(q, "; UPDATE _ixd_constraints SET checktext = replace(checktext, '\"' || ");
            ixv_sb_strlit(q, b, strlen(b));
            ixv_sb_add(q, " || '\"', ixd_ident(");
            ixv_sb_strlit(q, b, strlen(b));
            ixv_sb_add(q, ")) WHERE tabid = (SELECT tabid FROM _ixd_tables WHERE tabname = ");
            ixv_sb_strlit(q, a, strlen(a));
            ixv_sb_add(q, ");");
        } else if (kind == 'x') { /* the index made again under its storage name */
            sb old = {0};
            ixv_sb_quoted(&old, a);
            const char *at = old.p ? strstr(b, old.p) : NULL;
            if (at) {
                ixv_sb_add(q, "DROP INDEX ");
                ixv_sb_add(q, old.p);
                ixv_sb_add(q, "; ");
                ixv_sb_addn(q, b, (size_t)(at - b));
                ixv_sb_ident(q, a);
                ixv_sb_add(q, at + old.n);
                ixv_sb_add(q, ";");
            }
            ixv_sb_free(&old);
        } else {
            ixv_sb_add(q, "ALTER TABLE ");
            ixv_sb_quoted(q, a);
            ixv_sb_add(q, " RENAME TO ");
            ixv_sb_ident(q, a);
            ixv_sb_add(q, ";");
        }
    }
    sqlite3_finalize(st);
    return 0;
}

/* Runs the SQL that names_sql makes for query: 0 or -1. */
static int names_run(sqlite3 *h, const char *query, char kind) {
    sb q = {0};
    int rc = names_sql(h, query, kind, &q);
    if (!rc && q.oom) rc = -1;
    if (!rc && q.p) rc = sqlite3_exec(h, q.p, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    ixv_sb_free(&q);
    return rc;
}

static void cat_upgrade_names(sqlite3 *h) {
    static const char cols[] =
        "SELECT t.tabname, p.name FROM _ixd_tables t JOIN sqlite_master m ON m.type = 'table'"
        " AND m.name = t.tabname, pragma_table_info(m.name) p WHERE t.tabid >= 100 AND"
        " p.name GLOB '*[A-Z]*'";
    static const char idx[] =
        "SELECT i.idxname, m.sql FROM _ixd_indexes i JOIN sqlite_master m ON m.type = 'index'"
        " AND m.name = i.idxname WHERE i.idxname GLOB '*[A-Z]*'";
    static const char tabs[] =
        "SELECT t.tabname FROM _ixd_tables t JOIN sqlite_master m ON m.type = 'table' AND"
        " m.name = t.tabname WHERE t.tabid >= 100 AND t.tabname GLOB '*[A-Z]*'";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, "SELECT 1 FROM _ixd_meta WHERE k = 'stnames'", -1, &st, NULL) !=
        SQLITE_OK)
        return;
    int done = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    if (done || sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return;
    int ok = names_run(h, cols, 'c') == 0 && names_run(h, idx, 'x') == 0 &&
             names_run(h, tabs, 't') == 0 &&
             sqlite3_exec(h, CAT_STNAMES_DONE, NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_exec(h, ok ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    if (!sqlite3_get_autocommit(h)) sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

void ixd_cat_upgrade(sqlite3 *h) {
    cat_upgrade_tables(h);
    ixs_cat_upgrade(h);
    cat_upgrade_names(h);
    sqlite3_stmt *st;
    int old = 0;
    if (sqlite3_prepare_v2(h,
                           "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = "
                           "'sysdatabases'",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *sql = (const char *)sqlite3_column_text(st, 0);
        old = sql && strstr(sql, OLD_SYSDATABASES_FROM) != NULL;
    }
    sqlite3_finalize(st);
    if (!old) return;
    if (sqlite3_exec(h, "BEGIN IMMEDIATE; DROP VIEW sysdatabases;", NULL, NULL, NULL) ==
            SQLITE_OK &&
        sqlite3_exec(h, sysdatabases_ddl, NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return;
    if (!sqlite3_get_autocommit(h)) sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

int ixd_cat_logmode(sqlite3 *h) {
    sqlite3_stmt *st;
    int mode = -1;
    if (sqlite3_prepare_v2(h, "SELECT v FROM _ixd_meta WHERE k = 'logmode'", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW) mode = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return mode;
}

int ixd_temp_catalog(ixd_db *db, ixv_err *err) {
    if (db->x.has_temp) return 0;
    if (ixd_exec(db,
                 "CREATE TEMP TABLE IF NOT EXISTS _ixd_ttables(tabid INTEGER PRIMARY KEY,"
                 " tabname TEXT UNIQUE, owner TEXT, tabtype TEXT DEFAULT 'T', serial_next INTEGER"
                 " DEFAULT 1, serial8_next INTEGER DEFAULT 1);"
                 "CREATE TEMP TABLE IF NOT EXISTS _ixd_tcolumns(tabid INTEGER, colno INTEGER,"
                 " colname TEXT, coltype INTEGER, collength INTEGER, serial INTEGER DEFAULT 0,"
                 " defsql TEXT, PRIMARY KEY(tabid, colno));",
                 err))
        return -1;
    db->x.has_temp = 1;
    return 0;
}

/* The catalog lookups every statement that names a table makes, prepared
 * once per connection (SQLite prepares them again by itself after a schema
 * change) and reset after each use, so that they hold no read transaction. */
static const char *const CAT_SQL[IXD_CAT_NSTMT] = {
    "SELECT tabid, owner, tabtype FROM _ixd_ttables WHERE tabname = ?",
    "SELECT tabid, owner, tabtype FROM _ixd_tables WHERE tabname = ?",
    "SELECT colno, colname, coltype, collength, serial, defsql FROM _ixd_tcolumns WHERE tabid = ? "
    "ORDER BY colno",
    "SELECT colno, colname, coltype, collength, serial, defsql FROM _ixd_columns WHERE tabid = ? "
    "ORDER BY colno",
};
enum { CAT_TTAB, CAT_TAB, CAT_TCOLS, CAT_COLS };

static sqlite3_stmt *cat_stmt(ixd_db *db, int k) {
    if (!db->cat_st[k] && sqlite3_prepare_v3(db->x.h, CAT_SQL[k], -1, SQLITE_PREPARE_PERSISTENT,
                                             &db->cat_st[k], NULL) != SQLITE_OK)
        db->cat_st[k] = NULL;
    return db->cat_st[k];
}

static void cat_done(sqlite3_stmt *st) {
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

void ixd_cat_close(ixd_db *db) {
    for (int k = 0; k < IXD_CAT_NSTMT; k++) {
        sqlite3_finalize(db->cat_st[k]);
        db->cat_st[k] = NULL;
    }
}

unsigned ixd_data_version(ixd_db *db, int fresh) {
    sqlite3_stmt *st;
    if (fresh && sqlite3_get_autocommit(db->x.h) && (st = cat_stmt(db, CAT_TAB)) != NULL) {
        sqlite3_bind_text(st, 1, "", 0, SQLITE_STATIC);
        (void)sqlite3_step(st); /* a read transaction: sees other connections' commits */
        cat_done(st);
    }
    unsigned v = 0;
    if (sqlite3_file_control(db->x.h, "main", SQLITE_FCNTL_DATA_VERSION, &v) != SQLITE_OK) v = 0;
    return v;
}

/* The columns of table tabid into out (statement st, bound, stepped here).
 * Returns the last step's result. */
static int cat_columns(sqlite3_stmt *st, itab *out) {
    int rc, cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->ncols == cap) {
            cap = cap ? cap * 2 : 16;
            icol *nc = realloc(out->cols, sizeof(icol) * (size_t)cap);
            if (!nc) return SQLITE_NOMEM;
            out->cols = nc;
        }
        icol *c = &out->cols[out->ncols++];
        memset(c, 0, sizeof *c);
        c->colno = sqlite3_column_int(st, 0);
        const char *cn = (const char *)sqlite3_column_text(st, 1);
        snprintf(c->name, sizeof c->name, "%s", cn ? cn : "");
        int ct = sqlite3_column_int(st, 2);
        c->notnull = (ct & IXT_TF_NOTNULL) != 0;
        c->t = ixv_t(ct & 0xff, (uint32_t)sqlite3_column_int64(st, 3));
        if (c->t.code == IX_T_VARCHAR || c->t.code == IX_T_NVARCHAR) c->t.len &= 0xff;
        c->serial = sqlite3_column_int(st, 4);
        const char *ds = (const char *)sqlite3_column_text(st, 5);
        if (ds) c->defsql = strdup(ds);
    }
    return rc;
}

/* The lookup of ixd_cat_table; depth counts the synonyms followed. */
static int cat_lookup(ixd_db *db, const char *name, itab *out, ixv_err *err, int depth) {
    memset(out, 0, sizeof *out);
    if (ixv_internal_name(name)) return 0; /* never a table of user SQL */
    sqlite3_stmt *st;
    int temp = 0;
    if (db->x.has_temp && (st = cat_stmt(db, CAT_TTAB)) != NULL) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        temp = sqlite3_step(st) == SQLITE_ROW;
        cat_done(st);
    }
    if (!(st = cat_stmt(db, temp ? CAT_TTAB : CAT_TAB)))
        return ixd_sqlite_err(db, sqlite3_errcode(db->x.h), 0, name, err);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        cat_done(st);
        if (rc == SQLITE_DONE) return 0;
        return ixd_sqlite_err(db, rc, IX_STMTTYPE_SELECT, name, err);
    }
    out->tabid = sqlite3_column_int(st, 0);
    const char *ow = (const char *)sqlite3_column_text(st, 1);
    snprintf(out->owner, sizeof out->owner, "%s", ow ? ow : "");
    const char *tt = (const char *)sqlite3_column_text(st, 2);
    char ttc = tt ? tt[0] : 'T';
    if (ttc == 'S' || ttc == 'P' || ttc == 'Q') { /* synonym or sequence (ixs_synonym.c) */
        cat_done(st);
        char base[IXS_NAME_MAX + 1];
        int r = depth < IXS_SYN_DEPTH
                    ? ixs_syn_base(&db->x, out->tabid, ttc, out->owner, base, sizeof base)
                    : 0;
        memset(out, 0, sizeof *out);
        if (r < 0) return ixd_sqlite_err(db, sqlite3_errcode(db->x.h), 0, name, err);
        return r ? cat_lookup(db, base, out, err, depth + 1) : 0;
    }
    out->is_view = out->tabid < 100 || (tt && tt[0] == 'V');
    snprintf(out->name, sizeof out->name, "%s", name);
    cat_done(st);
    if (!(st = cat_stmt(db, temp ? CAT_TCOLS : CAT_COLS)))
        return ixd_sqlite_err(db, sqlite3_errcode(db->x.h), 0, name, err);
    sqlite3_bind_int(st, 1, out->tabid);
    rc = cat_columns(st, out);
    cat_done(st);
    if (rc == SQLITE_NOMEM) {
        ixs_itab_free(out);
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    if (rc != SQLITE_DONE) {
        ixs_itab_free(out);
        return ixd_sqlite_err(db, rc, IX_STMTTYPE_SELECT, name, err);
    }
    return 1;
}

int ixd_cat_table(ixd_db *db, const char *name, itab *out, ixv_err *err) {
    return cat_lookup(db, name, out, err, 0);
}

int64_t ixd_serial_next(ixd_db *db, int tabid, int kind, int64_t v, int *ok) {
    *ok = 0;
    const char *col = kind == 1 ? "serial_next" : "serial8_next";
    char sql[200];
    const char *tab = tabid >= IXS_TEMP_TABID ? "_ixd_ttables" : "_ixd_tables";
    snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE tabid = %d", col, tab, tabid);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->x.h, sql, -1, &st, NULL) != SQLITE_OK) return 0;
    int64_t next = 1;
    if (sqlite3_step(st) == SQLITE_ROW) next = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    int64_t r = v > 0 ? v : next;
    int64_t lim = kind == 1 ? INT32_MAX : INT64_MAX;
    if (r > lim || r <= 0) return 0;
    if (r >= next) {
        snprintf(sql, sizeof sql, "UPDATE %s SET %s = %lld WHERE tabid = %d", tab, col,
                 (long long)(r == INT64_MAX ? r : r + 1), tabid);
        if (sqlite3_exec(db->x.h, sql, NULL, NULL, NULL) != SQLITE_OK) return 0;
    }
    *ok = 1;
    return r;
}
