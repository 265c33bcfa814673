#!/usr/bin/env bash
# Chess (royal_guard(royal_powers=false)) at equal time, 50 ms a move:
# partial iterations (`partial=true`: where the clock interrupts an
# iteration after a root move searched in full beat the previous
# iteration's move, that move is played) against chess's defaults of 6
# December (`partial=false`), then reverse futility down to 6 plies from
# the horizon (`rfp=6`, with chess's `futility=100`) against the same
# defaults (`rfp=0`: 3 plies). Each by `sprt`, H0 0 against H1 +20 Elo,
# at most 800 games, two threads, game pairs from 100 random 4-ply
# openings. Timed agents: run it on a quiet machine. The load at each
# start and end goes to partial-rfp.load.txt. Resumable: a run whose
# printout exists is skipped; an interrupted SPRT goes on from its games
# file. Run from the repository root: bash results/search-switches/partial-rfp.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source results/tune/logged.sh # B (the binary), logged
source results/search-switches/chess-sprt.sh # chess_sprt
check() {
  local name=$1 on=$2 off=$3 seed=$4
  chess_sprt "$name" partial-rfp.load.txt "$seed" \
    "alphabeta(depth=64,ms=50,$on)" "alphabeta(depth=64,ms=50,$off)"
}
check partial partial=true partial=false 107
check rfp6 rfp=6 rfp=0 108
