#!/bin/bash
# The level ladder published in the manual: each level against the next, and
# level 1 against greedy; 50 circles each, every circle played twice with
# sides swapped (100 games a rung), seed 1. Levels 1-9 are depth-limited and
# level 10 node-limited (one thread each), so the games do not depend on the
# load. Then benchmarks/tools/levels_ladder_table.py chains the rungs.
set -eu
cd "$(dirname "$0")/../results/levels_ladder"   # from a checkout with patchsolve installed
for pair in "greedy level:1" "level:1 level:2" "level:2 level:3" "level:3 level:4" "level:4 level:5" "level:5 level:6" "level:6 level:7" "level:7 level:8" "level:8 level:9" "level:9 level:10,nodes=400000,workers=1"; do
  set -- $pair
  name=$(echo "$1_vs_$2" | tr ':,=' '___')
  python3 -m patchsolve.cli tournament $1 $2 --one-pairing --pairs 50 --seed 1 --workers 2 -q --games $name.games.csv --markdown $name.md > $name.out 2>&1
  xz -9 -f $name.games.csv   # kept compressed (levels_ladder_table.py reads .xz)
  echo "$pair done $(date -u +%T)" >> progress.txt
done
