#!/bin/bash
# The level ladder: each level against the next, and level 1 against greedy; 20 circles each, sides swapped.
cd "$(dirname "$0")/../results/levels_games"   # from a checkout with patchsolve installed; writes the tables there
for pair in "greedy level:1" "level:1 level:2" "level:2 level:3" "level:3 level:4" "level:4 level:5" "level:5 level:6" "level:6 level:7" "level:7 level:8" "level:8 level:9" "level:9 level:10,nodes=400000"; do
  set -- $pair
  name=$(echo "$1_vs_$2" | tr ':,=' '___')
  python -m patchsolve.cli tournament $1 $2 --one-pairing --pairs 20 --seed 1 --workers 2 -q --games $name.games.csv --markdown $name.md > $name.out 2>&1
  echo "$pair done $(date +%T)" >> progress.txt
done
