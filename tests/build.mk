# The build keeps the layers (docs/internals.md): scripts/check-layers on
# fixture trees and on this tree, and no source compiled into two libraries.
SHELL_TESTS += tests/e2e/build_layers.sh
# configure says nothing about the core/ folder (autogen.sh).
SHELL_TESTS += tests/e2e/configure_quiet.sh
# Every command creates the folder of the file it writes.
SHELL_TESTS += tests/e2e/output_folders.sh
