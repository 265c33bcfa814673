#!/usr/bin/env bash
# Chess (royal_guard(royal_powers=false)) at equal time, 50 ms a move and
# then 100 ms (the Stockfish ruler's time control): null-move pruning
# with reduction 3 (`null=3`) against the search of chess's defaults of 6
# December without it (`null=0`), by `sprt`, H0 0
# against H1 +20 Elo, at most 800 games, two threads, game pairs from 100
# random 4-ply openings. Timed agents: run it on a quiet machine. The load
# at each start and end goes to null3.load.txt. Resumable: a run whose
# printout exists is skipped; an interrupted SPRT goes on from its games
# file. Run from the repository root: bash results/search-switches/null3.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source results/tune/logged.sh # B (the binary), logged
source results/search-switches/chess-sprt.sh # chess_sprt
check() {
  local name=$1 ms=$2 seed=$3
  chess_sprt "$name" null3.load.txt "$seed" \
    "alphabeta(depth=64,ms=$ms,null=3)" "alphabeta(depth=64,ms=$ms,null=0)"
}
check null3 50 105
check null3-100ms 100 106
