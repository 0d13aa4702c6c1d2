#!/bin/sh
# Fails if a library archive refers to a function that exits or prints:
# the library never calls exit and never prints (the caller decides).
set -eu
lib=$1
bad=$(nm -A --undefined-only "$lib" 2>/dev/null |
      grep -E ' U (exit|_exit|_Exit|abort|printf|puts|putchar|fputs|fprintf|perror|fwrite|vprintf)$' || true)
if [ -n "$bad" ]; then
    echo "$lib refers to functions a library must not call:"
    echo "$bad"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
