#!/bin/sh
# The compiler launcher of the compile checks (the benchmarks, bench/CMakeLists.txt, and the
# suites this processor cannot run, tests/CMakeLists.txt): runs the compile command it is given
# with -fsyntax-only (parse and instantiate every template used, generate no code), then creates
# the empty object file the build expects, so that an unchanged source is not checked again.
set -e
out=
previous=
for argument in "$@"; do
    [ "$previous" = "-o" ] && out=$argument
    previous=$argument
done
"$@" -fsyntax-only
: >"$out"
