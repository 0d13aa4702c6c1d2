"""Runs SQLAlchemy's dialect compliance suite (sqlalchemy.testing.suite)
against a fresh ixd with pytest:

    IXD_BIN=build/ixd PYTHONPATH=build/python \
        /usr/bin/python3 python/tests/sa_suite/run_sa_suite.py [--all] [pytest args]

The tests of known_failures.txt are deselected unless --all is given.
Needs an interpreter with SQLAlchemy and pytest (Debian: python3-sqlalchemy,
python3-pytest under /usr/bin/python3)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ixdtest  # noqa: E402
import pytest  # noqa: E402


def main():
    s = ixdtest.Server()
    try:
        c = ixdtest.ixdb.connect(s.dsn(), autocommit=True)
        c.cursor().execute("create database sasuite with log")
        c.close()
        uri = "informix+ixdb://informix:in4mix@127.0.0.1:%d/sasuite?server=ixd" % s.port
        os.chdir(HERE)
        args = sys.argv[1:]
        if "--all" in args:
            args.remove("--all")
        else:
            with open(os.path.join(HERE, "known_failures.txt")) as f:
                for line in f:
                    if line.strip() and not line.startswith("#"):
                        args += ["--deselect", line.strip()]
        rc = pytest.main(["--dburi", uri, "-q", "-rfE", "test_suite.py"] + args)
    finally:
        s.stop()
    sys.exit(rc)


if __name__ == "__main__":
    main()
