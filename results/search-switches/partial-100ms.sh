#!/usr/bin/env bash
# Chess (royal_guard(royal_powers=false)) at equal time, 100 ms a move
# (the Stockfish ruler's time): partial iterations as of 054876d
# (`partial=true`: iterations go on to the end of the move's budget, and
# an interrupted iteration's root move that beat the previous best is
# played) against chess's defaults (`partial=false`: no iteration starts
# past half the budget, and an interrupted one is thrown away). `sprt`,
# H0 0 against H1 +20 Elo, at most 800 games, two threads, game pairs
# from 100 random 4-ply openings. Timed agents: run it on a quiet
# machine. The load at the start and end goes to partial-100ms.load.txt.
# Resumable: the printout marks a finished run; an interrupted SPRT goes
# on from its games file.
# Run from the repository root: bash results/search-switches/partial-100ms.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source results/tune/logged.sh # B (the binary), logged
source results/search-switches/chess-sprt.sh # chess_sprt
chess_sprt partial-100ms partial-100ms.load.txt 109 \
  "alphabeta(depth=64,ms=100,partial=true)" "alphabeta(depth=64,ms=100,partial=false)"
