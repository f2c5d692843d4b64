# The build keeps the layers (docs/internals.md): scripts/check-layers on
# fixture trees and on this tree, and no source compiled into two libraries.
TESTS += tests/e2e/build_layers.sh
EXTRA_DIST += tests/e2e/build_layers.sh
