#!/usr/bin/env bash
# Makes this folder: for each two-seat game, `mcts` (its game's defaults)
# against plain `uct` at 50 ms a move in a fixed number of games, 200 (100
# pairs, sides swapped), so that every game's interval rests on at least
# 200 games (the SPRTs of ../ stop as soon as they decide, after 32 to 512).
# Random two-ply openings as in ../run.sh (100; 80 for two-seat Sniggle,
# which has 81; 4 for Blockade from seed 2027, the openings of ../run.sh:
# with seed 2029 the random finder found only 2 or 3), two threads, seed
# 2029 (Blockade 2027). The closest games
# of the SPRTs first. Resumable: a finished game is skipped, an
# interrupted one goes on from its games file.
# Run from the repository root: bash results/mcts-vs-uct/fixed-200/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
B=${BOARDLAB:-target/release/boardlab}
dir=results/mcts-vs-uct/fixed-200
for g in "sniggle(players=2)" bagel "bagel(base=5)" line_up blockade "slingshot(size=7)" \
         slingshot royal_guard spinner catapult kings_colour andalusia gateway empire; do
  name=$(echo "$g" | tr -c 'a-z0-9\n' '-' | sed 's/-*$//; s/--*/-/g')
  [ -f "$dir/$name.txt" ] && continue
  openings=100
  seed=2029
  case "$g" in sniggle*) openings=80 ;; blockade) openings=4 seed=2027 ;; esac
  echo "$name $(date -u +%H:%M) start  $(uptime)" >> "$dir/load.txt"
  "$B" rate --game "$g" --agents "mcts(ms=50)" "uct(iterations=1000000000,ms=50)" \
    --games 200 --threads 2 --seed "$seed" --openings "$openings" --opening-plies 2 \
    --ratings "$dir/$name.csv" --out "$dir/$name-games.csv.gz" --quiet > "$dir/$name.txt.part" &&
    mv "$dir/$name.txt.part" "$dir/$name.txt" ||
    echo "$g: failed (see $dir/$name.txt.part)" >&2
  echo "$name $(date -u +%H:%M) end  $(uptime)" >> "$dir/load.txt"
done
