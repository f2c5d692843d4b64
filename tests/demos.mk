# The tutorials as demos (inputs/demos/NAME, ./scripts/demo NAME; docs/tutorials.md).
#
# The C example of HOTI'24 demo 1 (examples/et-generate: ETs written with
# <vimana/et.h>) is built in the tree for the demo. It goes into in-tree/,
# not beside et_generate.c, where the example's own Makefile builds it
# against an installed Vimana (scripts/test-install does).
noinst_PROGRAMS += examples/et-generate/in-tree/et-generate
examples_et_generate_in_tree_et_generate_SOURCES = examples/et-generate/et_generate.c
examples_et_generate_in_tree_et_generate_LDADD = libvimana_et.la
EXTRA_DIST += examples/et-generate/Makefile examples/et-generate/README.md \
	examples/et-generate/network.yml examples/et-generate/system.json

# Every demo, run as scripts/demo runs it, its key numbers compared with
# inputs/demos/NAME/expected; and scripts/demo's --list, --help and errors.
SHELL_TESTS += tests/e2e/demos.sh
