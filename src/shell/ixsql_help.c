/*
 * ixsql_help.c: the shell's help: the list of its commands (help, \?) and a
 * short syntax summary of the SQL statements (\h [statement]).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ixsql.h"

void ixsql_help_commands(void) {
    fputs("Type SQL statements ending with ';' (a statement may span lines).\n"
          "  help, \\?          this list;  \\h [STATEMENT]  SQL syntax in short\n"
          "  quit, exit, \\q    leave (also Ctrl-D, or Ctrl-C twice at an empty prompt)\n"
          "  Ctrl-C            cancel the running statement, or drop what is typed\n"
          "  Up / Down         recall earlier lines (kept in ~/.ixsql_history)\n"
          "  LOAD FROM 'file' [DELIMITER 'c'] INSERT INTO table [(columns)]\n"
          "  UNLOAD TO 'file' [DELIMITER 'c'] SELECT ...\n"
          "  INFO TABLES | COLUMNS FOR t | INDEXES FOR t | PRIVILEGES FOR t | STATUS FOR t\n"
          "  LOAD SERIES FROM 'file' INTO table(column) [DELIMITER 'c']\n"
          "  OUTPUT TO 'file' | PIPE 'cmd' [WITHOUT HEADINGS] SELECT ...\n"
          "  \\pset format aligned|unaligned|csv|json|markdown|vertical, \\pset null STR\n"
          "  \\pset pager [on|off], \\o [file | |command]  where results go\n"
          "  \\pset lob placeholder|size|text   how BLOB and CLOB values print\n"
          "  \\x [on|off|auto]   vertical display;  \\timing [on|off]  time each statement\n"
          "  Tab               complete a keyword, table or column\n"
          "  \\set [NAME [VALUE]], \\unset NAME   variables, used as :NAME or :'NAME'\n"
          "  \\i FILE           run a script file;  \\e  edit the statement in $EDITOR\n"
          "  \\c DB  DATABASE DB;  \\l  databases\n"
          "  \\d, \\dt  tables;  \\d TABLE  its columns;  \\d+ TABLE  with its indexes\n"
          "  CONNECT TO 'db@server' [AS 'name'] [USER 'u' USING 'p'], SET CONNECTION,\n"
          "  DISCONNECT        several connections, as dbaccess\n",
          stdout);
    fflush(stdout);
}

/* One statement's summary: its name (the words \h matches) and its forms. */
typedef struct {
    const char *name;
    const char *syntax;
} sql_help;

static const sql_help statements[] = {
    {"ALTER TABLE", "ALTER TABLE t ADD (col type [DEFAULT v] [NOT NULL] [BEFORE col], ...)\n"
                    "  | DROP (col, ...) | MODIFY (col type ...) | ADD CONSTRAINT ...\n"
                    "  | DROP CONSTRAINT name | LOCK MODE (ROW | PAGE)"},
    {"BEGIN WORK", "BEGIN [WORK]"},
    {"COMMIT WORK", "COMMIT [WORK]"},
    {"CONNECT", "CONNECT TO 'db@server' | DEFAULT [AS 'name'] [USER 'u' USING 'p']"},
    {"CREATE DATABASE",
     "CREATE DATABASE db [IN dbspace] [WITH [BUFFERED] LOG | WITH LOG MODE ANSI]"},
    {"CREATE INDEX",
     "CREATE [UNIQUE | DISTINCT] [CLUSTER] INDEX name ON t (col [ASC | DESC], ...)"},
    {"CREATE PROCEDURE", "CREATE PROCEDURE | FUNCTION name ([param type, ...])\n"
                         "  [RETURNING type, ...]; statements; END PROCEDURE | FUNCTION"},
    {"CREATE ROLE", "CREATE ROLE name"},
    {"CREATE ROW TYPE", "CREATE ROW TYPE name (field type, ...) [UNDER supertype]"},
    {"CREATE SEQUENCE", "CREATE SEQUENCE name [INCREMENT BY n] [START WITH n]\n"
                        "  [MAXVALUE n | NOMAXVALUE] [MINVALUE n] [CYCLE | NOCYCLE]"},
    {"CREATE SYNONYM", "CREATE [PUBLIC | PRIVATE] SYNONYM name FOR t"},
    {"CREATE TABLE",
     "CREATE [TEMP] TABLE [IF NOT EXISTS] t (col type [DEFAULT v] [NOT NULL]\n"
     "  [PRIMARY KEY | UNIQUE | REFERENCES t2 (col)] [CHECK (cond)], ...\n"
     "  [, PRIMARY KEY (cols) | UNIQUE (cols) | FOREIGN KEY (cols) REFERENCES t2])\n"
     "  [WITH NO LOG] [LOCK MODE ROW | PAGE]"},
    {"CREATE TRIGGER",
     "CREATE TRIGGER name INSERT | DELETE | UPDATE [OF cols] ON t\n"
     "  [REFERENCING NEW AS n OLD AS o] [BEFORE (...)] FOR EACH ROW (...) [AFTER (...)]"},
    {"CREATE VIEW", "CREATE VIEW name [(cols)] AS SELECT ... [WITH CHECK OPTION]"},
    {"DATABASE", "DATABASE db [EXCLUSIVE]"},
    {"DELETE", "DELETE FROM t [WHERE cond]"},
    {"DROP", "DROP TABLE | VIEW | INDEX | SEQUENCE | SYNONYM | TRIGGER | ROLE name\n"
             "  | DROP PROCEDURE | FUNCTION name [(types)] | DROP DATABASE db"},
    {"EXECUTE PROCEDURE", "EXECUTE PROCEDURE | FUNCTION name ([args]) [INTO vars]"},
    {"GRANT",
     "GRANT CONNECT | RESOURCE | DBA TO user, ...\n"
     "  | GRANT ALL | SELECT | INSERT | UPDATE | DELETE | ... ON t TO user | role | PUBLIC\n"
     "  | GRANT role TO user | PUBLIC"},
    {"INFO", "INFO TABLES | COLUMNS FOR t | INDEXES FOR t | PRIVILEGES FOR t | STATUS FOR t"},
    {"INSERT", "INSERT INTO t [(cols)] VALUES (v, ...) | SELECT ..."},
    {"LOAD", "LOAD FROM 'file' [DELIMITER 'c'] INSERT INTO t [(cols)]   (ixsql)"},
    {"LOCK TABLE", "LOCK TABLE t IN SHARE | EXCLUSIVE MODE;  UNLOCK TABLE t"},
    {"MERGE", "MERGE INTO t [alias] USING source [alias] ON cond\n"
              "  WHEN MATCHED THEN UPDATE SET col = v, ... | DELETE\n"
              "  WHEN NOT MATCHED THEN INSERT [(cols)] VALUES (v, ...)"},
    {"RENAME", "RENAME TABLE t TO t2 | COLUMN t.c TO c2 | INDEX i TO i2 | SEQUENCE s TO s2"},
    {"REVOKE", "REVOKE privileges ON t FROM user | role | PUBLIC;  REVOKE role FROM user"},
    {"ROLLBACK WORK", "ROLLBACK [WORK] [TO SAVEPOINT name]"},
    {"SAVEPOINT", "SAVEPOINT name [UNIQUE];  RELEASE SAVEPOINT name"},
    {"SELECT", "SELECT [SKIP n] [FIRST n | LIMIT n] [DISTINCT] cols FROM t [alias], ...\n"
               "  [[LEFT | RIGHT | FULL] [OUTER] JOIN t2 ON cond] [WHERE cond]\n"
               "  [GROUP BY cols [HAVING cond]] [UNION [ALL] SELECT ...]\n"
               "  [ORDER BY cols [ASC | DESC]] [INTO TEMP t [WITH NO LOG]] [FOR UPDATE]"},
    {"SET", "SET ISOLATION TO DIRTY READ | COMMITTED READ | CURSOR STABILITY | REPEATABLE READ\n"
            "  | SET LOCK MODE TO [NOT] WAIT [n] | SET ROLE name | NONE | DEFAULT\n"
            "  | SET CONSTRAINTS ALL | names DEFERRED | IMMEDIATE | SET EXPLAIN ON | OFF"},
    {"TRUNCATE", "TRUNCATE [TABLE] t"},
    {"UNLOAD", "UNLOAD TO 'file' [DELIMITER 'c'] SELECT ...   (ixsql)"},
    {"UPDATE", "UPDATE t SET col = v, ... | (cols) = (values) [WHERE cond]"},
    {"UPDATE STATISTICS", "UPDATE STATISTICS [LOW | MEDIUM | HIGH] [FOR TABLE t | FOR PROCEDURE]"},
};

enum { NSTATEMENTS = sizeof statements / sizeof *statements };

/* 1 when the topic begins the statement's name (case and runs of blanks
 * ignored): "create" matches every CREATE, "create t" CREATE TABLE and
 * CREATE TRIGGER. */
static int matches(const char *name, const char *topic, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (isspace((unsigned char)topic[i])) {
            if (*name != ' ') return 0;
            while (i < n && isspace((unsigned char)topic[i]))
                i++;
            name++;
            continue;
        }
        if (!*name || toupper((unsigned char)*name) != toupper((unsigned char)topic[i])) return 0;
        name++, i++;
    }
    return 1;
}

int ixsql_help_sql(const char *topic, size_t n) {
    while (n && isspace((unsigned char)*topic))
        topic++, n--;
    while (n && isspace((unsigned char)topic[n - 1]))
        n--;
    int found = 0;
    for (int i = 0; i < NSTATEMENTS; i++) {
        if (!n) {
            printf("%-20s%s", statements[i].name, i % 4 == 3 || i == NSTATEMENTS - 1 ? "\n" : "");
            continue;
        }
        if (!matches(statements[i].name, topic, n)) continue;
        printf("%s%s\n", found ? "\n" : "", statements[i].syntax);
        found = 1;
    }
    fflush(stdout);
    if (n && !found) {
        fprintf(stderr, "\nixsql: no help for %.*s (\\h lists the statements)\n\n", (int)n, topic);
        return IXSQL_FAILED;
    }
    return IXSQL_OK;
}
