/*
 * ixd_lock.c: the data directory's lock file, DIR/ixd.lock. ixd holds an
 * fcntl write lock on it for as long as it runs, so that a second ixd on the
 * same directory (two writers of the same SQLite files, each believing it
 * owns the sysmaster catalogue) refuses to start. The kernel drops the lock
 * when the process ends, however it ends (kill -9 included), so a lock file
 * left behind is never stale: only a live process can hold the lock. The
 * file holds the holder's pid, for the message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ixd_server.h"

int ixd_lock_data_dir(const char *dir, char *err, size_t errlen) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, IXD_LOCK_FILE) >= sizeof path) {
        snprintf(err, errlen, "data directory name too long");
        return -1;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create data directory %s: %s", dir, strerror(errno));
        return -1;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open lock file %s: %s", path, strerror(errno));
        return -1;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(fd, F_SETLK, &fl) != 0) {
        int e = errno;
        long pid = 0;
        if (e == EACCES || e == EAGAIN) {
            char buf[32] = {0};
            if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK) pid = (long)fl.l_pid;
            if (!pid && pread(fd, buf, sizeof buf - 1, 0) > 0) sscanf(buf, "%ld", &pid);
            snprintf(err, errlen, "data directory %s is in use by another ixd (pid %ld, lock %s)",
                     dir, pid, path);
        } else {
            snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
        }
        close(fd);
        return e == EACCES || e == EAGAIN ? IXD_LOCK_BUSY : -1;
    }
    char line[32];
    int n = snprintf(line, sizeof line, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)n, 0) != n) {
        snprintf(err, errlen, "cannot write lock file %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}
