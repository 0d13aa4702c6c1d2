#!/usr/bin/env python3
"""Latency of a cancel from Python: SIGINT while a long query runs on ixd,
to the KeyboardInterrupt the call raises (the server stops the statement
with -213 and answers). Median and IQR over 15 rounds.

usage: IXD_BIN=build/ixd PYTHONPATH=build/python python3 bench/bench_cancel.py
"""
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tests"))
import ixdtest  # noqa: E402

ROUNDS = 15


def main():
    srv = ixdtest.server()
    c = srv.connect(autocommit=True)
    cu = c.cursor()
    cu.execute("create table n (i integer)")
    cu.executemany("insert into n values (?)", [(i,) for i in range(2000)])
    lat = []
    for _ in range(ROUNDS):
        sent = [0.0]

        def fire():
            sent[0] = time.monotonic()
            os.kill(os.getpid(), signal.SIGINT)

        t = threading.Timer(0.2, fire)
        t.start()
        try:
            cu.execute("select count(*) from n a, n b, n c")  # minutes without a cancel
            cu.fetchone()
        except KeyboardInterrupt:
            lat.append((time.monotonic() - sent[0]) * 1000)
        t.join()
    lat.sort()
    q = lambda f: lat[int(f * (len(lat) - 1))]  # noqa: E731
    print("SIGINT -> KeyboardInterrupt: median %.1f ms, IQR %.1f-%.1f ms, %d rounds"
          % (q(0.5), q(0.25), q(0.75), len(lat)))
    c.close()
    srv.stop()


main()
