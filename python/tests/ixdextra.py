"""Tests that need modules the build interpreter may lack (NumPy, pandas,
SQLAlchemy: Debian's python3-numpy, python3-pandas, python3-sqlalchemy,
importable by /usr/bin/python3 but not by a pyenv or venv python3 on PATH).

need("sqlalchemy", ...) returns at once when this interpreter imports them;
otherwise it runs the calling script again (os.execve, same arguments and
environment) under the first interpreter that imports them and has the
same extension ABI (SOABI) as this one, so that the ixdb extension built
for this one loads in it: $IXDB_EXTRA_PYTHON, /usr/bin/python3,
/usr/local/bin/python3, then every python3 on PATH. When none has them it
returns the names missing: the caller skips what needs them, or calls
skip_all() (exit status 77, which CTest reports as skipped)."""

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig

SKIP = 77


def _missing(mods):
    return [m for m in mods if importlib.util.find_spec(m) is None]


def _candidates():
    seen = set()
    names = [os.environ.get("IXDB_EXTRA_PYTHON"), "/usr/bin/python3", "/usr/local/bin/python3"]
    for d in os.environ.get("PATH", "").split(os.pathsep):
        names.append(os.path.join(d, "python3"))
    names.append(shutil.which("python3"))
    me = os.path.realpath(sys.executable)
    for n in names:
        if not n or not os.access(n, os.X_OK):
            continue
        r = os.path.realpath(n)
        if r in seen or r == me:
            continue
        seen.add(r)
        yield n


def need(*mods):
    missing = _missing(mods)
    if not missing or os.environ.get("IXDB_EXTRA_REEXEC"):
        return missing
    soabi = sysconfig.get_config_var("SOABI")
    probe = "import sysconfig; import %s; print(sysconfig.get_config_var('SOABI'))" % \
        ", ".join(mods)
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)  # the probe needs no sanitizer runtime
    for py in _candidates():
        try:
            out = subprocess.run([py, "-c", probe], capture_output=True, text=True, timeout=60,
                                 env=env)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and out.stdout.strip() == soabi:
            sys.stdout.flush()
            sys.stderr.flush()
            env2 = dict(os.environ, IXDB_EXTRA_REEXEC="1")
            print("ixdextra: running under %s (it imports %s)" % (py, ", ".join(mods)),
                  flush=True)
            os.execve(py, [py, os.path.abspath(sys.argv[0])] + sys.argv[1:], env2)
    return missing


def skip_all(missing):
    print("SKIPPED: no Python interpreter with the ixdb extension's ABI (%s) imports %s; "
          "install Debian's python3-%s (as .ci/run does)"
          % (sysconfig.get_config_var("SOABI"), ", ".join(missing),
             " python3-".join(missing)))
    sys.exit(SKIP)
