"""What the pyodbc tests share: an ixd started on a free port with a
temporary data directory, and an odbcinst.ini / odbc.ini there (ODBCSYSINI,
ODBCINI) naming libixodbc and two DSNs: nodb (no database) and pyt (the
logged database start() creates). Environment: IXD_BIN, IXODBC_LIB."""

import os
import shutil
import signal
import subprocess
import tempfile
import time

import pyodbc

DIR = tempfile.mkdtemp(prefix="ixodbc.")
PORT = 0
PROC = None


def start():
    global PORT, PROC
    portfile = os.path.join(DIR, "port")
    log = open(os.path.join(DIR, "ixd.log"), "ab")
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)  # a sanitizer build's ixd carries its own runtime
    PROC = subprocess.Popen([os.environ["IXD_BIN"], "--data", os.path.join(DIR, "db"), "--listen",
                             "127.0.0.1:0", "--port-file", portfile], stdout=log, stderr=log, env=env)
    for _ in range(1000):
        if os.path.exists(portfile) and open(portfile).read().strip():
            PORT = int(open(portfile).read())
            break
        time.sleep(0.01)
    with open(os.path.join(DIR, "odbcinst.ini"), "w") as f:
        f.write("[ixdb]\nDriver = %s\n" % os.environ["IXODBC_LIB"])
    with open(os.path.join(DIR, "odbc.ini"), "w") as f:
        f.write("[nodb]\nDriver = ixdb\nHost = 127.0.0.1\nService = %d\nUID = informix\n"
                "PWD = in4mix\n\n[pyt]\nDriver = ixdb\nHost = 127.0.0.1\nService = %d\n"
                "Database = pyt\nUID = informix\nPWD = in4mix\n" % (PORT, PORT))
    os.environ["ODBCSYSINI"] = DIR
    os.environ["ODBCINI"] = os.path.join(DIR, "odbc.ini")
    c = pyodbc.connect("DSN=nodb", autocommit=True)
    c.execute("CREATE DATABASE pyt WITH LOG")
    c.close()


def stop():
    if PROC and PROC.poll() is None:
        PROC.send_signal(signal.SIGTERM)
        PROC.wait(10)
    shutil.rmtree(DIR, ignore_errors=True)
