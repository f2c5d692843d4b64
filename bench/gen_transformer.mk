# `vimana-et generate transformer` benchmark (issue 13): bench/gen_transformer_bench.sh
# times the 1024-rank GPT-3 iteration (wall, CPU, peak RSS, nodes/s); not run by
# `make check`:   sh $(srcdir)/bench/gen_transformer_bench.sh [VIMANA_ET [BEFORE]]
EXTRA_DIST += bench/gen_transformer_bench.sh
