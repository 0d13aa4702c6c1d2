/*
 * ixd_proc.h: starts a real ixd on a free loopback port with a temporary
 * data directory, for the libixdb integration tests (taken from the server's
 * integration harness).
 */
#ifndef IX_CLIENT_IXD_PROC_H
#define IX_CLIENT_IXD_PROC_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct ixd_proc {
    pid_t pid;
    int port;
    char dir[256];
    char log[300];
} ixd_proc;

/* Waits up to tries x 10 ms for the port ixd writes to portfile (p->port),
 * giving up early when ixd (p->pid) exits. Returns 0 or -1. */
static inline int ixd_wait_port(ixd_proc *p, const char *portfile, int tries) {
    for (int i = 0; i < tries; i++) {
        FILE *f = fopen(portfile, "r");
        if (f) {
            int ok = fscanf(f, "%d", &p->port) == 1;
            fclose(f);
            if (ok && p->port > 0) return 0;
        }
        int st;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) return -1;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return -1;
}

/* Stops ixd (SIGSTOP) and waits until every thread of it is stopped:
 * SIGSTOP is delivered asynchronously, and a thread running on another CPU
 * may still answer a request sent right after kill. */
static inline void ixd_sigstop(const ixd_proc *p) {
    kill(p->pid, SIGSTOP);
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/task", (int)p->pid);
    for (int tries = 0; tries < 2000; tries++) {
        DIR *d = opendir(dir);
        int running = d == NULL;
        for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
            if (e->d_name[0] == '.') continue;
            char path[400];
            snprintf(path, sizeof path, "%s/%s/stat", dir, e->d_name);
            FILE *f = fopen(path, "r");
            char st = 0;
            if (f && fscanf(f, "%*d (%*[^)]) %c", &st) == 1 && st != 'T') running = 1;
            if (f) fclose(f);
        }
        if (d) closedir(d);
        if (!running) return;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
}

/* 1 when the environment has IXDB_TEST_STRICT=1: every ixd a test starts
 * then runs with --strict, a conservative real Informix server
 * (docs/server.md "Strict mode"; tests/CMakeLists.txt ixdb_strict_twin). */
static inline int ixd_test_strict(void) {
    const char *v = getenv("IXDB_TEST_STRICT");
    return v && strcmp(v, "1") == 0;
}

/* Starts ixd on dir (a fresh temp dir when dir is NULL) with up to 8 extra
 * arguments (a NULL-terminated list, or NULL), and --strict when
 * ixd_test_strict(). Returns 0 or -1. */
static inline int ixd_start_args(ixd_proc *p, const char *dir, const char *const *extra) {
    if (!dir) {
        snprintf(p->dir, sizeof p->dir, "/tmp/ixdtest.XXXXXX");
        if (!mkdtemp(p->dir)) return -1;
    } else if (dir != p->dir) {
        snprintf(p->dir, sizeof p->dir, "%s", dir);
    }
    char portfile[300];
    snprintf(portfile, sizeof portfile, "%s/.port", p->dir);
    unlink(portfile);
    snprintf(p->log, sizeof p->log, "%s/.ixd.log", p->dir);
    p->pid = fork();
    if (p->pid < 0) return -1;
    if (p->pid == 0) {
        int fd = open(p->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) { /* the test's stdout must not stay open in the server */
            dup2(fd, 1);
            dup2(fd, 2);
        }
        const char *argv[20] = {IXD_BIN,       "--data",      p->dir,  "--listen",
                                "127.0.0.1:0", "--port-file", portfile};
        int argc = 7;
        for (int i = 0; extra && extra[i] && i < 8; i++)
            argv[argc++] = extra[i];
        if (ixd_test_strict()) argv[argc++] = "--strict";
        argv[argc] = NULL;
        execv(IXD_BIN, (char *const *)argv);
        _exit(127);
    }
    return ixd_wait_port(p, portfile, 500); /* up to 5 s */
}

/* ixd_start_args with one extra argument (or NULL). */
static inline int ixd_start(ixd_proc *p, const char *dir, const char *extra_arg) {
    const char *extra[2] = {extra_arg, NULL};
    return ixd_start_args(p, dir, extra);
}

/* The keyword DSN of p as user informix (the test password), with a read
 * timeout of read_timeout seconds, into buf (n bytes). */
static inline void ixd_dsn(const ixd_proc *p, int read_timeout, char *buf, size_t n) {
    snprintf(buf, n,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd read_timeout=%d",
             p->port, read_timeout);
}

/* Stops ixd with sig (SIGTERM or SIGKILL) and waits. Returns its status. */
static inline int ixd_stop(ixd_proc *p, int sig) {
    int st = 0;
    kill(p->pid, sig);
    waitpid(p->pid, &st, 0);
    return st;
}

static inline void ixd_rmdir(ixd_proc *p) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", p->dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", p->dir);
}

#endif
