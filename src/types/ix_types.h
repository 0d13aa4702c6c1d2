/*
 * ix_types.h: SQLI type codes (sqli-protocol.md §4.1), flag bits, names, and
 * the (code, encoded_length) pair that describes one value type (§3.2.1).
 */
#ifndef IXT_TYPES_H
#define IXT_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "ixdb.h"

/* The type codes are ix_type in include/ixdb.h (one enumeration for every
 * layer and client). */

/* Flag bits in the high byte of the type field (IBMH, §4.1). */
#define IXT_TF_NOTNULL      0x0100
#define IXT_TF_HOSTVAR      0x0200
#define IXT_TF_FLOAT2DEC    0x0400
#define IXT_TF_DISTINCT     0x0800
#define IXT_TF_NAMEDROW     0x1000
#define IXT_TF_DISTLVARCHAR 0x2000
#define IXT_TF_DISTBOOLEAN  0x4000
#define IXT_T_BASE(t)       ((t)&0xff)

/* A value type: base code (after ixt_vtype_resolve) and the describe
 * encoded_length: n for CHAR/VARCHAR, p<<8|s for DECIMAL/MONEY (s = 0xff
 * floating), digits<<8|start<<4|end for DATETIME/INTERVAL, the fixed width
 * for numbers, 1 for BOOLEAN, the maximum length for LVARCHAR. */
typedef struct ixt_vtype {
    int code;
    uint32_t enclen;
} ixt_vtype;

/* Returns the static upper-case name of a type code ("DECIMAL", ...); flag
 * bits are ignored. Unknown codes give "UNKNOWN". Never NULL, never freed. */
const char *ixt_type_name(int code);
/* The name of a qualifier unit (IXT_TU_YEAR ... IXT_TU_SECOND, "FRACTION" for
 * IXT_TU_FRACTION), NULL for a code that is no unit. */
const char *ixt_tu_name(int u);

/* Returns the type code for an SQL type name (case-insensitive, surrounding
 * blanks ignored; NUMERIC -> DECIMAL, REAL -> SMALLFLOAT, DOUBLE PRECISION ->
 * FLOAT, INT -> INTEGER, ...), or -1 if the name is unknown. */
int ixt_type_from_name(const char *name);

/* Maps a described code plus its extended type name to the code the value
 * codec uses: 40 + "lvarchar" -> IX_T_LVARCHAR, 41 + "boolean" ->
 * IX_T_BOOLEAN (case-insensitive); every other pair returns IXT_T_BASE(code).
 * ext_name may be NULL. */
int ixt_vtype_resolve(int code, const char *ext_name);

/* Writes the declared type of a column described with (code, enclen) as
 * SQL spells it, NUL-terminated, into buf[0..cap) (cut to fit):
 *
 *   | type                        | text                                  |
 *   |-----------------------------|---------------------------------------|
 *   | CHAR, NCHAR, LVARCHAR       | CHAR(n) from enclen n                 |
 *   | VARCHAR, NVARCHAR           | VARCHAR(max) or VARCHAR(max,min):     |
 *   |                             | enclen min<<8 | max                   |
 *   | DECIMAL, MONEY              | DECIMAL(p,s); DECIMAL(p) for s 0xff   |
 *   | DATETIME                    | DATETIME YEAR TO FRACTION(3)          |
 *   | INTERVAL                    | INTERVAL DAY(3) TO SECOND: the leading |
 *   |                             | precision when it is not the default  |
 *   |                             | (YEAR 4, the other fields 2)          |
 *   | every other type            | its name (INTEGER, SET, ...)          |
 *
 * Flag bits of code are ignored. Returns the length of the full text (as
 * snprintf), or -1 for an illegal DATETIME / INTERVAL qualifier. */
int ixt_type_decl(int code, uint32_t enclen, char *buf, size_t cap);

#endif /* IXT_TYPES_H */
