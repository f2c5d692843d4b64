# Sourced by the before/after benchmarks: bench_snapshot DIR copies this
# build's simulator (binary, libraries, backends) to DIR, so that an older
# build can be kept and both run the same way; bench_sim SNAPSHOT COMMAND...
# runs a command (a tool, then $SNAPSHOT/vimana) with the snapshot's own
# libraries and backends.
bench_snapshot() { # DIR
    rm -rf "$1"
    mkdir -p "$1/lib" "$1/backends"
    cp -L "$build/.libs/vimana" "$1/"
    cp -L "$build"/.libs/libvimana_*.so.0 "$1/lib/"
    cp -L "$build"/backends/*/.libs/*.so "$1/backends/"
}

bench_sim() { # SNAPSHOT COMMAND...: COMMAND with the snapshot's libraries and backends
    snap=$1
    shift
    LD_LIBRARY_PATH="$snap/lib" VIMANA_BACKEND_PATH="$snap/backends" "$@"
}
