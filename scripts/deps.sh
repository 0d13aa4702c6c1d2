#!/bin/sh
# deps.sh: the Debian packages the build and the tests need, in one list.
# .ci/run, make run and make test call it. As root it installs what is
# missing (apt-get); as another user it prints the one `sudo apt-get install`
# line and exits 1. Nothing missing: silent, exit 0.
set -eu
# build: compilers, CMake, the libraries ixd and libixdb link, readline for
# ixsql, groff for the man page checks
pkgs="build-essential cmake clang libclang-rt-14-dev pkg-config libsqlite3-dev libssl-dev
      python3 python3-dev libreadline-dev groff-base"
# the Python tests of the pool, fetch_arrays, SQLAlchemy and pandas, run
# under /usr/bin/python3 (python/tests/ixdextra.py), and python.pip_install
pkgs="$pkgs python3-sqlalchemy python3-pandas python3-numpy python3-pytest
      python3-venv python3-pip python3-setuptools python3-wheel"
# the ODBC driver (libixodbc) and the clients its tests run: unixODBC's isql,
# pyodbc, Perl DBI + DBD::ODBC, PHP's odbc_* (docs/odbc.md)
pkgs="$pkgs unixodbc unixodbc-dev odbcinst python3-pyodbc libdbd-odbc-perl php-odbc php-cli"

missing=""
for p in $pkgs; do
    dpkg -s "$p" > /dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing
else
    echo "missing Debian packages; install them with:" >&2
    echo "sudo apt-get install$missing" >&2
    exit 1
fi
