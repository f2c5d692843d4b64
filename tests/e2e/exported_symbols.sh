#!/bin/sh
# Every symbol an installed library exports starts with vet_ or vimana_
# (libvimana_util exported arena_alloc, slab_init and 24 more: a program
# linking libvimana_et and defining its own arena_alloc took over the
# library's allocator), and a backend module exports only its entry.
# Symbols the linker itself defines (_init, _fini, __bss_start, ...) start
# with an underscore and are left out.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
B="$VIMANA_BUILDDIR"

# exports FILE: the defined dynamic symbols, one per line
exports() {
    nm -D --defined-only "$1" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | grep -v '^_'
}

for lib in libvimana_util libvimana_et libvimana_backend; do
    so="$B/.libs/$lib.so"
    [ -f "$so" ] || { fail "$so not built"; continue; }
    n=$(exports "$so" | wc -l)
    [ "$n" -gt 0 ] || fail "$lib exports nothing"
    bad=$(exports "$so" | grep -vE '^(vet_|vimana_)' | tr '\n' ' ')
    expect_eq "$bad" "" "$lib: symbols without the vet_ or vimana_ prefix"
done
for mod in analytical/analytical congestion_aware/congestion_aware garnet_stub/garnet ns3_shim/ns3_shim; do
    so="$B/backends/$(dirname "$mod")/.libs/$(basename "$mod").so"
    [ -f "$so" ] || continue # ns3_shim only with ns-3
    expect_eq "$(exports "$so" | tr '\n' ' ')" "vimana_backend_entry " "$mod exports"
done

finish
