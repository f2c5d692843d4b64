#!/bin/sh
# with-ranks.sh FILE NPUS: an nccl-tests table that lists no ranks (NVIDIA's
# published DGX H100 sweep) with the "#  Rank N ..." lines nccl-tests
# prints, so that `vimana calibrate` reads its rank count from it; on stdout.
set -eu
sed -n '1,/^# *size/p' "$1" | sed '$d'
r=0
while [ "$r" -lt "$2" ]; do
    echo "#  Rank  $r Group  0 Pid 1 on dgx device  $r [0x00] NVIDIA H100 80GB HBM3"
    r=$((r + 1))
done
sed -n '/^# *size/,$p' "$1"
