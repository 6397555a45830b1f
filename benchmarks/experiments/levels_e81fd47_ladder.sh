#!/bin/bash
# The level ladder rerun at e81fd47 (the leather squares pruned): each level against the next, and level 1
# against greedy; 20 circles each, sides swapped. PY: a python with that build (default: python).
cd "$(dirname "$0")/../results/levels_e81fd47"   # writes the tables there
PY=${PY:-python}
for pair in "greedy level:1" "level:1 level:2" "level:2 level:3" "level:3 level:4" "level:4 level:5" "level:5 level:6" "level:6 level:7" "level:7 level:8" "level:8 level:9" "level:9 level:10,nodes=400000"; do
  set -- $pair
  name=$(echo "$1_vs_$2" | tr ':,=' '___')
  $PY -m patchsolve.cli tournament $1 $2 --one-pairing --pairs 20 --seed 1 --workers 2 -q --games $name.games.csv --markdown $name.md > $name.out 2>&1
  echo "$pair done $(date +%T)" >> progress.txt
done
