"""Builds the ixdb extension for `pip install .` (metadata is in pyproject.toml).

The extension is compiled from the same C sources the CMake build uses:
the codec (src/base, src/types, src/proto), libixdb (src/client) and the
module itself (python/src/*.c).

Nothing is written into the source tree: the build directory (build_base:
build/lib.*, build/temp.*, the wheel's staging area) and the egg-info
(egg_base) go to a temporary directory removed when setup.py exits, so the
CMake build directory build/ and python/ stay untouched.
"""
import atexit
import glob
import os
import shutil
import tempfile

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)

SCRATCH = tempfile.mkdtemp(prefix="ixdb-build.")
atexit.register(shutil.rmtree, SCRATCH, True)

SOURCES = sorted(
    glob.glob("src/base/*.c")
    + glob.glob("src/types/*.c")
    + glob.glob("src/proto/*.c")
    + glob.glob("src/client/*.c")
) + sorted(glob.glob("python/src/*.c"))

setup(
    ext_modules=[
        Extension(
            "ixdb._ixdb",
            sources=SOURCES,
            include_dirs=["include", "src", "src/client", "python/src"],
            define_macros=[("_POSIX_C_SOURCE", "200809L")],
            extra_compile_args=["-std=c17", "-fvisibility=hidden"],
            libraries=["ssl", "crypto", "m"],
        )
    ],
    options={
        "build": {"build_base": os.path.join(SCRATCH, "build")},
        "egg_info": {"egg_base": SCRATCH},
        "build_ext": {"parallel": os.cpu_count() or 1},
    },
)
