# The short names the generator tests (gen_*.sh) write their checks with.
# Source it in place of lib.sh, which it sources:
#   . "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP
S=$VIMANA_SRCDIR
# what vimana-et generate's one-line errors start with
P="vimana-et generate"
