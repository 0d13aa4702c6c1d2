"""`pip install --no-build-isolation .` of the checkout into a venv made
with --system-site-packages (no network, no PyPI): the install works, the
installed ixdb (with its stubs and py.typed) runs a query against ixd, and
the source tree gains nothing (no python/ixdb.egg-info, no build/lib.* or
build/temp.* next to CMake's build/). pyproject.toml declares setuptools
and wheel as build requirements (without wheel, setuptools before 70.1
fails with "invalid command 'bdist_wheel'").

The venv's interpreter is the first of this python3 and /usr/bin/python3
that has setuptools, wheel (or setuptools >= 70.1), pip and Python's
headers; without one the test is skipped."""

import os
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import unittest

import ixdtest

ROOT = ixdtest.ROOT

PROBE = r"""
import importlib.util, os, sys, sysconfig
import setuptools
assert importlib.util.find_spec("pip")
v = tuple(int(x) for x in setuptools.__version__.split(".")[:2])
if v < (70, 1):
    import wheel
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))
"""


def clean_env():
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "LD_PRELOAD", "PYTHONHOME", "PIP_INDEX_URL")}
    env["PIP_NO_INDEX"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def builder():
    for exe in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(exe) and subprocess.run(
                [exe, "-c", PROBE], env=clean_env(), capture_output=True).returncode == 0:
            return exe
    return None


def snapshot():
    """Every path of the source tree outside .git, CMake's build
    directories and __pycache__ (other tests write those)."""
    out = set()
    for d, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        if rel == ".":
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        out |= {os.path.join(rel, f) for f in files + dirs}
    return out


def build_dir_entries():
    out = set()
    for name in os.listdir(ROOT):
        if name.startswith("build") and os.path.isdir(os.path.join(ROOT, name)):
            out |= {os.path.join(name, x) for x in os.listdir(os.path.join(ROOT, name))}
    return out


class PipInstall(unittest.TestCase):
    def test_build_requirements(self):
        with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
            req = tomllib.load(f)["build-system"]["requires"]
        names = {r.split(">")[0].split("=")[0].split("<")[0].strip() for r in req}
        self.assertIn("setuptools", names)
        self.assertIn("wheel", names)

    def test_pip_install_into_venv(self):
        exe = builder()
        if not exe:
            self.skipTest("no interpreter with setuptools, wheel, pip and Python.h")
        env = clean_env()
        before, before_build = snapshot(), build_dir_entries()
        with tempfile.TemporaryDirectory(prefix="ixdpy.venv.") as tmp:
            venv = os.path.join(tmp, "venv")
            # the system's pip (site packages) installs into the venv: no ensurepip
            subprocess.run([exe, "-m", "venv", "--system-site-packages", "--without-pip", venv],
                           check=True, env=env)
            py = os.path.join(venv, "bin", "python")
            r = subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                                "--no-deps", ROOT], cwd=tmp, env=env, capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertNotIn("invalid command", r.stdout + r.stderr)
            srv = ixdtest.server()
            script = (
                "import inspect, os, sys, ixdb\n"
                "pkg = os.path.dirname(ixdb.__file__)\n"
                "assert pkg.startswith(sys.prefix), pkg\n"
                "assert os.path.exists(os.path.join(pkg, 'py.typed'))\n"
                "assert os.path.exists(os.path.join(pkg, '__init__.pyi'))\n"
                "c = ixdb.connect(%r)\n"
                "cu = c.cursor()\n"
                "cu.row_factory = ixdb.rows.dict\n"
                "cu.execute('select tabid from systables where tabid = :1', (1,))\n"
                "print(cu.fetchall(), inspect.signature(ixdb.Cursor.execute))\n"
                "c.close()\n" % srv.dsn("pyt"))
            r = subprocess.run([py, "-c", script], cwd=tmp, env=env, capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(r.stdout.strip(),
                             "[{'tabid': 1}] (self, operation, parameters=None, /)")
        self.assertEqual(snapshot() - before, set())
        new_build = {p for p in build_dir_entries() - before_build
                     if os.path.basename(p).startswith(("lib.", "temp.", "bdist."))}
        self.assertEqual(new_build, set())
        self.assertFalse(os.path.exists(os.path.join(ROOT, "python", "ixdb.egg-info")))


if __name__ == "__main__":
    ixdtest.main()
