"""ixdops.py: what the tests of ixd's operator features share: check(),
starting ixd on a temporary directory, and running ixsql against it."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("not ok - %s\n%s" % (name, detail))


def finish():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


def wait_file(path, proc=None, tries=200):
    """Waits until path is a non-empty file (or proc has exited)."""
    for _ in range(tries):
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return True
        if proc is not None and proc.poll() is not None:
            return False
        time.sleep(0.025)
    return False


def wait_for(pred, tries=200):
    for _ in range(tries):
        if pred():
            return True
        time.sleep(0.025)
    return False


class Ixd:
    """ixd on 127.0.0.1 and a free port over data directory `data`, with
    extra arguments; its standard error in self.stderr_path."""

    def __init__(self, ixd, tmp, args, data=None, tag="ixd"):
        self.data = data or os.path.join(tmp, "db")
        self.portfile = os.path.join(tmp, tag + ".port")
        self.stderr_path = os.path.join(tmp, tag + ".stderr")
        if os.path.exists(self.portfile):
            os.unlink(self.portfile)
        self.err = open(self.stderr_path, "w")
        argv = [ixd]
        if self.data:
            argv += ["--data", self.data]
        argv += ["--listen", "127.0.0.1:0", "--port-file", self.portfile] + args
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.err)
        self.port = None
        if wait_file(self.portfile, self.proc):
            self.port = int(open(self.portfile).read())

    def url(self, db=""):
        return "informix://informix:in4mix@127.0.0.1:%d/%s" % (self.port, db)

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        rc = self.proc.wait(timeout=20)
        self.err.close()
        return rc

    def stderr(self):
        return open(self.stderr_path).read()


def ixsql(path, url, *sql, password=None):
    argv = [path, url]
    for s in sql:
        argv += ["-c", s]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": "/nonexistent"}
    if password is not None:
        env["IXPASSWORD"] = password
    return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=env, timeout=60)


def scratch(prefix):
    tmp = tempfile.mkdtemp(prefix=prefix)
    return tmp, lambda: shutil.rmtree(tmp, ignore_errors=True)
