#!/bin/sh
# Regenerates the build system from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf -fi
# autoconf's tests clean up a crashed test's core dump with `rm -f core`,
# which meets our core/ folder and prints "rm: cannot remove 'core': Is a
# directory" some 50 times; a test here dumps no core, so the word goes.
sed 's/rm -f core /rm -f /' configure > configure.tmp
cat configure.tmp > configure
rm -f configure.tmp
