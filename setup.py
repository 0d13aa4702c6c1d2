"""Builds the ixdb extension for `pip install .` (metadata is in pyproject.toml).

The extension is compiled from the same C sources the CMake build uses:
the codec (src/base, src/types, src/proto), libixdb (src/client) and the
module itself (python/src/*.c).
"""
import glob

from setuptools import Extension, setup

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
)
