"""SQLAlchemy's own dialect compliance suite (sqlalchemy.testing.suite,
run with pytest by sa_suite/run_sa_suite.py against a fresh ixd) passes
for informix+ixdb, but for the tests listed in
sa_suite/known_failures.txt. Runs under an interpreter with Debian's
python3-sqlalchemy and python3-pytest (ixdextra.py)."""

import os
import re
import subprocess
import sys
import unittest

import ixdextra

MISSING = ixdextra.need("sqlalchemy", "pytest")
if MISSING:
    ixdextra.skip_all(MISSING)

import ixdtest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class SuiteTest(unittest.TestCase):
    def test_suite(self):
        r = subprocess.run([sys.executable, os.path.join(HERE, "sa_suite", "run_sa_suite.py"),
                            "-p", "no:randomly"], capture_output=True, text=True, timeout=600)
        out = r.stdout + r.stderr
        print(out[-3000:])
        self.assertEqual(r.returncode, 0, "SQLAlchemy's suite failed (see above)")
        m = re.search(r"(\d+) passed", out)
        self.assertTrue(m and int(m.group(1)) >= 240, "at least 240 of the suite's tests pass")


if __name__ == "__main__":
    ixdtest.main()
