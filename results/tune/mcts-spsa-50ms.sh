#!/usr/bin/env bash
# Checks at equal time, 50 ms a move, each `mcts` θ that SPSA moved on the
# games whose studies play alpha-beta (../tune/mcts-spsa.sh, seeds 81 on):
# `sprt` of the final θ (c to 3 decimals, scale to 1, cutoff rounded as
# the tuner plays it) against the generic values (the game's defaults when
# the check ran; spelled, as the games it won have them as defaults now), H0 0 against H1 +20 Elo,
# at most 400 games, two threads, random two-ply openings. Timed agents:
# run it on a quiet machine. The load at each start and end goes to
# mcts-spsa-50ms.load.txt. Resumable: a game whose printout exists is
# skipped; an interrupted SPRT goes on from its games file.
# Run from the repository root: bash results/tune/mcts-spsa-50ms.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source results/tune/logged.sh # B (the binary), dir, logged
check() {
  local name=$1 game=$2 theta=$3 seed=$4 openings=${5:-100} ms=${6:-50}
  logged "$name" "$dir/mcts-spsa-50ms.load.txt" "$dir/$name-mcts-spsa-${ms}ms.txt" \
    "$B" sprt --game "$game" --agents "mcts(ms=$ms,$theta)" "mcts(ms=$ms,c=0.7,cutoff=4,scale=auto)" \
    --elo0 0 --elo1 20 --max-games 400 --threads 2 --seed "$seed" \
    --openings "$openings" --opening-plies 2 --quiet --sprt "$dir/mcts-spsa-sprt.csv" \
    --out "$dir/$name-mcts-spsa-${ms}ms-games.csv.gz"
}
check slingshot7 "slingshot(size=7)" "c=0.491,cutoff=3,scale=12.5" 91
check slingshot9 slingshot "c=0.352,cutoff=3,scale=6.9" 92
check line-up line_up "c=0.818,cutoff=6,scale=33.5" 93
check kings-colour kings_colour "c=0.177,cutoff=7,scale=133.0" 94
check empire empire "c=0.1,cutoff=10,scale=76.3" 95
check catapult-40k catapult "c=0.458,cutoff=0,scale=90.2" 97
# Catapult's SPSA at 1,000 iterations lost at 100 ms a move (README), so
# this one is checked there too (the sixth field: ms a move).
check catapult-40k catapult "c=0.458,cutoff=0,scale=90.2" 98 100 100
# Gateway's SPSA barely moved θ (80 of its 100 pairs even); its games run
# about 30 s each on a thread at 50 ms a move (400 games: some 100 minutes),
# so this check needs a long quiet slot.
check andalusia andalusia "c=0.509,cutoff=0,scale=152.0" 99
check royal-guard royal_guard "c=0.407,cutoff=0,scale=204.0" 100
check blockade blockade "c=0.424,cutoff=4,scale=103.8" 101 33
check gateway gateway "c=0.666,cutoff=6,scale=86.3" 96
