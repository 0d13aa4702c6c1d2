#define _DEFAULT_SOURCE /* realpath */
/*
 * ix_file.c: the client files of FILETOBLOB / FILETOCLOB / LOTOFILE with
 * the 'client' location (include/ixdb.h, "client files"): the answers to the
 * server's SQ_FILE requests (layout: src/proto/ix_lob.h), confined to the
 * directory the application allowed with ix_set_client_files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ix_client_int.h"
#include "ix_conn_int.h"
#include "proto/ix_lob.h"

#define FILE_PIECE (1 << 20) /* most bytes one read answer carries */

int ix_set_client_files(ix_conn *c, const char *dir) {
    if (!c) return IX_EMISUSE;
    char real[PATH_MAX];
    struct stat st;
    if (dir && (!realpath(dir, real) || stat(real, &st) || !S_ISDIR(st.st_mode))) return IX_EINVAL;
    char *copy = dir ? ixc_strdup(real) : NULL;
    if (dir && !copy) return IX_ENOMEM;
    ixc_free(c->client_dir);
    c->client_dir = copy;
    return IX_OK;
}

void ixc_file_free(ix_conn *c) {
    if (c->client_fd > 0) close(c->client_fd - 1);
    c->client_fd = 0;
    ixc_free(c->client_dir);
    c->client_dir = NULL;
}

static int inside(const char *real, const char *dir) {
    size_t dl = strlen(dir);
    return !strncmp(real, dir, dl) && (real[dl] == '/' || real[dl] == 0 || dl == 1);
}

/* Opens the file a request names: an fd, or an IXP_FILE_E* code. */
static int open_confined(ix_conn *c, const ixp_bytes *name, int for_write) {
    if (!c->client_dir) return IXP_FILE_EREFUSED;
    if (c->client_fd) return IXP_FILE_ESTATE;
    char full[PATH_MAX], real[PATH_MAX];
    if (memchr(name->p, 0, name->n)) return IXP_FILE_EOUTSIDE;
    int fl = name->p[0] == '/'
                 ? snprintf(full, sizeof full, "%.*s", (int)name->n, (const char *)name->p)
                 : snprintf(full, sizeof full, "%s/%.*s", c->client_dir, (int)name->n,
                            (const char *)name->p);
    if (fl < 0 || fl >= (int)sizeof full) return IXP_FILE_EIO;
    char *slash = strrchr(full, '/');
    if (for_write) {
        if (!slash[1]) return IXP_FILE_EIO;
        *slash = 0;
        const char *parent = *full ? full : "/";
        if (!realpath(parent, real)) return errno == ENOENT ? IXP_FILE_ENOENT : IXP_FILE_EIO;
        *slash = '/';
        if (!inside(real, c->client_dir)) return IXP_FILE_EOUTSIDE;
        size_t rl = strlen(real);
        if (rl + strlen(slash) >= sizeof real) return IXP_FILE_EIO;
        memcpy(real + rl, slash, strlen(slash) + 1);
    } else {
        if (!realpath(full, real)) return errno == ENOENT ? IXP_FILE_ENOENT : IXP_FILE_EIO;
        if (!inside(real, c->client_dir)) return IXP_FILE_EOUTSIDE;
    }
    int fd = for_write ? open(real, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644)
                       : open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? IXP_FILE_ENOENT : IXP_FILE_EIO;
    c->client_fd = fd + 1;
    return fd;
}

/* Reads up to want bytes of the open file into the answer. */
static int answer_read(ix_conn *c, int32_t want) {
    if (!c->client_fd)
        return ixp_enc_file_reply(&c->st.out, IXP_FILE_READ, IXP_FILE_ESTATE, NULL, 0);
    size_t n = (size_t)want < FILE_PIECE ? (size_t)want : FILE_PIECE, got = 0;
    uint8_t *buf = ixc_malloc(n);
    if (!buf) return ixc_kill(c, IX_ENOMEM, "out of memory");
    while (got < n) {
        ssize_t k = read(c->client_fd - 1, buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            ixc_free(buf);
            return ixp_enc_file_reply(&c->st.out, IXP_FILE_READ, IXP_FILE_EIO, NULL, 0);
        }
        if (k == 0) break;
        got += (size_t)k;
    }
    int rc = ixp_enc_file_reply(&c->st.out, IXP_FILE_READ, (int32_t)got, buf, got);
    ixc_free(buf);
    return rc;
}

static int answer_write(ix_conn *c, const ixp_lodata *d) {
    if (!c->client_fd)
        return ixp_enc_file_reply(&c->st.out, IXP_FILE_WRITE, IXP_FILE_ESTATE, NULL, 0);
    size_t pos = 0;
    ixp_bytes ch;
    int32_t st = d->length;
    while (st >= 0 && ixp_lodata_chunk(d, &pos, &ch)) {
        for (size_t w = 0; w < ch.n;) {
            ssize_t k = write(c->client_fd - 1, ch.p + w, ch.n - w);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                st = IXP_FILE_EIO;
                break;
            }
            w += (size_t)k;
        }
    }
    return ixp_enc_file_reply(&c->st.out, IXP_FILE_WRITE, st, NULL, 0);
}

static int answer_close(ix_conn *c) {
    int st = c->client_fd ? 0 : IXP_FILE_ESTATE;
    if (c->client_fd && close(c->client_fd - 1)) st = IXP_FILE_EIO;
    c->client_fd = 0;
    return ixp_enc_file_reply(&c->st.out, IXP_FILE_CLOSE, st, NULL, 0);
}

int ixc_file_answer(ix_conn *c, const ixp_msg *m) {
    const ixp_lodata *d = &m->u.file;
    int rc;
    switch (d->op) {
    case IXP_FILE_OPEN_READ:
    case IXP_FILE_OPEN_WRITE: {
        ixp_bytes name = {d->data.p, (size_t)d->length}; /* without its pad */
        int fd = open_confined(c, &name, d->op == IXP_FILE_OPEN_WRITE);
        rc = ixp_enc_file_reply(&c->st.out, d->op, fd < 0 ? fd : 0, NULL, 0);
        break;
    }
    case IXP_FILE_READ: rc = answer_read(c, d->length); break;
    case IXP_FILE_WRITE: rc = answer_write(c, d); break;
    default: rc = answer_close(c); break;
    }
    if (rc != IX_OK && c->st.dead) return rc;
    if (rc != IX_OK) return ixc_kill(c, rc, "cannot encode the SQ_FILE answer");
    /* no reply comes back: the answer is not a group (no ixc_queued) */
    return ixc_flush(c);
}
