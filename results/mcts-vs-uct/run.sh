#!/usr/bin/env bash
# Makes this folder: for each game, `mcts` (its game's defaults) against
# plain `uct` at 50 ms a move, one thread, an SPRT of Elo -20 against +20
# with at most 200 games, from 100 random two-ply openings (80 for
# two-seat Sniggle, which has 81; 4 for Blockade, where the opening
# finder found 4 to 6 in two tries) played
# with both seatings. Resumable: a game whose row is in sprt.csv is skipped; an
# interrupted game's SPRT resumes from its games file.
# Run from the repository root: bash results/mcts-vs-uct/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BOARDLAB:-target/release/boardlab}
dir=results/mcts-vs-uct
for g in bagel "bagel(base=5)" line_up spinner "sniggle(players=2)" "slingshot(size=7)" \
         slingshot blockade catapult kings_colour andalusia royal_guard gateway empire; do
  name=$(echo "$g" | tr -c 'a-z0-9\n' '-' | sed 's/-*$//; s/--*/-/g')
  if [ -f "$dir/sprt.csv" ] && grep -q "$dir/$name-games.csv.gz" "$dir/sprt.csv"; then
    continue
  fi
  # Two-seat Sniggle has 81 distinct two-ply openings, Blockade a few.
  openings=100
  case "$g" in sniggle*) openings=80 ;; blockade) openings=4 ;; esac
  "$B" sprt --game "$g" --agents "mcts(ms=50)" "uct(iterations=1000000000,ms=50)" \
    --elo0 -20 --elo1 20 --max-games 200 --threads 1 --seed 2027 \
    --openings "$openings" --opening-plies 2 --sprt "$dir/sprt.csv" \
    --out "$dir/$name-games.csv.gz" --quiet > "$dir/$name.txt" ||
    echo "$g: failed (see $dir/$name.txt)" >&2
done
