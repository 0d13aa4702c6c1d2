/*
 * ixdb.h: the public C API of libixdb, a native client for IBM Informix (SQLI).
 *
 * This header is the specification. Every function says what it returns, who
 * owns each pointer, and how long a borrowed pointer stays valid.
 *
 * Conventions
 *   - Public names use the ix_ / IX_ prefix; handles are opaque.
 *   - Functions return an int status: IX_OK (0) or a positive informational
 *     code on success, a negative IX_E* code on failure.
 *   - The library never calls exit() and never prints.
 *
 * The connection and statement API is added by the client library; until
 * then this header defines the status codes and the version that every part
 * (codec, server, shell) shares.
 */
#ifndef IXDB_H
#define IXDB_H

#ifdef __cplusplus
extern "C" {
#endif

#define IXDB_VERSION_MAJOR 0
#define IXDB_VERSION_MINOR 1
#define IXDB_VERSION_PATCH 0
#define IXDB_VERSION_STRING "0.1.0"

/* Status codes. Never renumbered; new codes are appended. */
typedef enum ix_rc {
    IX_OK = 0,          /* success */
    IX_NEED_MORE = 1,   /* decoder: the input ends inside a message; feed more bytes */
    IX_NULL_VALUE = 2,  /* value codec: the value is the type's NULL form */
    IX_EMALFORMED = -1, /* bytes that no valid message or value has */
    IX_ELIMIT = -2,     /* a length on the wire exceeds a configured limit */
    IX_ENOMEM = -3,     /* an allocation failed */
    IX_EINVAL = -4,     /* an argument is out of range (bad type, bad text, misuse) */
    IX_ERANGE = -5,     /* a value does not fit the target type */
    IX_ESPACE = -6,     /* a caller-supplied output buffer is too small */
} ix_rc;

/* Returns a static, NUL-terminated English name for rc ("malformed input",
 * ...). Never NULL; unknown codes give "unknown status". The caller must not
 * free it. */
const char *ix_rc_str(int rc);

#ifdef __cplusplus
}
#endif
#endif /* IXDB_H */
