#!/bin/sh
# stores-data.sh STORES_TEST: the data section of tests/sql/stores.test (the
# records between "# ---- the data" and "# ---- counts") as a .sql file on
# stdout, one statement a line, each ended by ';' -- the file
# tests/sql/data/stores_data.sql, which ixsql loads in tests/shell. Make it
# again after changing the data of stores.test:
#   sh scripts/stores-data.sh tests/sql/stores.test > tests/sql/data/stores_data.sql
# (the test shell.stores fails while the two differ).
set -eu
echo '{ The rows of the stores demonstration database: made by scripts/stores-data.sh'
echo '  from tests/sql/stores.test; do not edit by hand. }'
awk '
/^# ---- the data/ { on = 1; next }
/^# ---- counts/   { on = 0 }
!on { next }
/^statement ok$/ { next }
/^#/ { next }
/^$/ { if (sql != "") print sql ";"; sql = ""; next }
{ sql = (sql == "" ? $0 : sql "\n" $0) }
END { if (sql != "") print sql ";" }
' "$1"
