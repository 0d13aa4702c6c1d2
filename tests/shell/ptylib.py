"""What the pseudo-terminal tests of ixsql share: TAP-style checks, ixsql on
a pty (Term), and a real ixd on a temporary data directory (Server)."""
import contextlib
import os
import pty
import select
import shutil
import signal
import subprocess
import tempfile
import time


class Checks:
    """ok/not ok lines; done() prints the counts and returns the exit status."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print("ok - " + name)
        else:
            self.failed += 1
            print("not ok - %s\n%r" % (name, detail))

    def done(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


class Term:
    """ixsql on a pty; out holds everything it wrote since the last send."""

    def __init__(self, ixsql, args, env, timeout=3.0):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(ixsql, [ixsql] + args, env)
        self.out = ""
        self.timeout = timeout

    def until(self, want, timeout=None):
        end = time.monotonic() + (self.timeout if timeout is None else timeout)
        while want not in self.out:
            left = end - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                self.out += data.decode("utf-8", "replace")
        return True

    def send(self, text):
        self.out = ""
        os.write(self.fd, text.encode())

    def tab(self, prefix, want):
        """Types prefix and Tab; whether the line then reads ...want."""
        self.send(prefix + "\t")
        return self.until(want)

    def status(self, timeout=3.0):
        """The exit status, or None if ixsql did not end (it is killed)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.until("\0", 0.05)  # drain the terminal
            p, st = os.waitpid(self.pid, os.WNOHANG)
            if p == self.pid:
                os.close(self.fd)
                return os.WEXITSTATUS(st) if os.WIFEXITED(st) else -1
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return None


@contextlib.contextmanager
def server(ixd, prefix):
    """A real ixd on a new temporary directory: yields (tmp, port, url), url
    without a database; stops ixd and removes the directory afterwards."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    portfile = os.path.join(tmp, "port")
    log = open(os.path.join(tmp, "ixd.log"), "w")
    proc = subprocess.Popen([ixd, "--data", os.path.join(tmp, "db"), "--listen",
                             "127.0.0.1:0", "--port-file", portfile], stderr=log)
    try:
        for _ in range(200):
            if os.path.exists(portfile) and os.path.getsize(portfile) > 0:
                break
            time.sleep(0.05)
        port = open(portfile).read().strip()
        yield tmp, port, "informix://informix:in4mix@127.0.0.1:%s" % port
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
