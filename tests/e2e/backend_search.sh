#!/bin/sh
# Where vimana looks for a network backend given by name: the build tree
# only when vimana runs from it, never folders that do not exist; and what
# it says when a module exists but cannot be loaded (the missing library,
# not libltdl's "file not found").
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
B=$VIMANA_BUILDDIR
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$TEST_TMP/ar" >/dev/null
sim() { # VIMANA BACKEND
    "$1" --workload-configuration="$TEST_TMP/ar" --system-configuration="$VIMANA_SRCDIR/inputs/system/ring.json" \
        --network-configuration="$VIMANA_SRCDIR/inputs/network/ring8.yml" --network-backend="$2"
}
# The install directory is searched last, when it exists.
installed=""
[ -d "$VIMANA_BACKENDDIR" ] && installed=", $VIMANA_BACKENDDIR"

# The build tree's vimana finds the build tree's backends by name.
unset VIMANA_BACKEND_PATH
expect_ok sim "$VIMANA" analytical
expect_eq "$(grep -c 'finished, 117780 cycles' "$TEST_TMP/out")" 8 "uninstalled vimana, analytical from the build tree"
expect_error "vimana: error: network backend 'nosuch' not found (looked in: $B/backends/analytical, $B/backends/congestion_aware, $B/backends/ns3_shim, $B/backends/garnet_stub$installed; there: analytical, congestion_aware, garnet, ns3_shim); set VIMANA_BACKEND_PATH or give a path with --network-backend=./nosuch.so" \
    sim "$VIMANA" nosuch
# The shipped backends also answer to their folder's name and to the name
# the module gives itself (issue 29 §4: garnet_stub and ns3 were "not found").
for alias in garnet_stub:garnet ns3:ns3_shim congestion_unaware:analytical; do
    expect_ok sim "$VIMANA" "${alias%%:*}"
    cp "$TEST_TMP/out" "$TEST_TMP/out.alias"
    expect_ok sim "$VIMANA" "${alias#*:}"
    cmp -s "$TEST_TMP/out" "$TEST_TMP/out.alias" || fail "--network-backend=${alias%%:*} differs from ${alias#*:}"
done

# A copy of the program outside the build tree is an installed vimana: it
# never looks in the build tree, and skips folders that do not exist.
mkdir -p "$TEST_TMP/bin" "$TEST_TMP/empty"
cp "$B/.libs/vimana" "$TEST_TMP/bin/vimana"
LD_LIBRARY_PATH="$B/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
VIMANA_BACKEND_PATH="$TEST_TMP/no-such-dir:$TEST_TMP/empty"
export VIMANA_BACKEND_PATH
there="no module"
[ -n "$installed" ] && there=$(ls "$VIMANA_BACKENDDIR" | sed -n 's/\.[sl][oa]$//p' | sort -u | paste -sd, - | sed 's/,/, /g')
expect_error "vimana: error: network backend 'nosuch' not found (looked in: $TEST_TMP/empty$installed; there: $there); set VIMANA_BACKEND_PATH or give a path with --network-backend=./nosuch.so" \
    sim "$TEST_TMP/bin/vimana" nosuch
VIMANA_BACKEND_PATH="$TEST_TMP/empty:$B/backends/congestion_aware"
expect_ok sim "$TEST_TMP/bin/vimana" congestion_aware
expect_eq "$(grep -c 'finished, ' "$TEST_TMP/out")" 8 "installed vimana, backend from VIMANA_BACKEND_PATH"

# A module that needs a library nobody can find: the dynamic linker's reason.
missing="libvimana_test_missing.so: cannot open shared object file: No such file or directory"
expect_error "vimana: error: $B/tests/backends/needs_missing.so: cannot load network backend: $missing" \
    sim "$VIMANA" "$B/tests/backends/needs_missing.so"
VIMANA_BACKEND_PATH="$B/tests/backends"
expect_error "vimana: error: $B/tests/backends/needs_missing.so: cannot load network backend: $missing" \
    sim "$VIMANA" needs_missing
expect_error "vimana: error: $TEST_TMP/nothing.so: cannot load network backend: file not found (check the path)" \
    sim "$VIMANA" "$TEST_TMP/nothing.so"
finish
