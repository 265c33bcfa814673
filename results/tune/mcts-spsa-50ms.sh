#!/usr/bin/env bash
# Checks at equal time, 50 ms a move, each `mcts` θ that SPSA moved on the
# games whose studies play alpha-beta (../tune/mcts-spsa.sh, seeds 81 on):
# `sprt` of the final θ (c to 3 decimals, scale to 1, cutoff rounded as
# the tuner plays it) against the game's defaults, H0 0 against H1 +20 Elo,
# at most 400 games, two threads, random two-ply openings. Timed agents:
# run it on a quiet machine. The load at each start and end goes to
# mcts-spsa-50ms.load.txt. Resumable: a game whose printout exists is
# skipped; an interrupted SPRT goes on from its games file.
# Run from the repository root: bash results/tune/mcts-spsa-50ms.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source results/tune/logged.sh # B (the binary), dir, logged
check() {
  local name=$1 game=$2 theta=$3 seed=$4 openings=${5:-100}
  logged "$name" "$dir/mcts-spsa-50ms.load.txt" "$dir/$name-mcts-spsa-50ms.txt" \
    "$B" sprt --game "$game" --agents "mcts(ms=50,$theta)" "mcts(ms=50)" \
    --elo0 0 --elo1 20 --max-games 400 --threads 2 --seed "$seed" \
    --openings "$openings" --opening-plies 2 --quiet --sprt "$dir/mcts-spsa-sprt.csv" \
    --out "$dir/$name-mcts-spsa-50ms-games.csv.gz"
}
check slingshot7 "slingshot(size=7)" "c=0.491,cutoff=3,scale=12.5" 91
check slingshot9 slingshot "c=0.352,cutoff=3,scale=6.9" 92
check line-up line_up "c=0.818,cutoff=6,scale=33.5" 93
check kings-colour kings_colour "c=0.177,cutoff=7,scale=133.0" 94
check empire empire "c=0.1,cutoff=10,scale=76.3" 95
