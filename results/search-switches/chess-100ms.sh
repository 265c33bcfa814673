#!/usr/bin/env bash
# Chess (royal_guard(royal_powers=false)) at equal time, 100 ms a move
# (the Stockfish ruler's time), each run by `sprt`, H0 0 against H1 +20
# Elo, at most 800 games, two threads, game pairs from 100 random 4-ply
# openings (chess_sprt):
#  1. partial-100ms: partial iterations as of 054876d (`partial=true`:
#     iterations go on to the end of the move's budget, and an interrupted
#     iteration's root move that beat the previous best is played) against
#     chess's defaults of the day (`partial=false`: no iteration starts
#     past half the budget, and an interrupted one is thrown away).
#  2. king-100ms: the king-safety weights of the 5 December node-budget
#     run (`w_king_attack=8,w_shield=10`: +16.5 [-2.6, +35.7] at 40,000
#     nodes a move, inconclusive after 800 games) against chess's
#     defaults (both 0), which now have `partial=true`.
#  3. twofold-100ms: two-fold repetition in the search (`twofold=true`: a
#     position below the root seen before in the game scores as a draw)
#     against chess's defaults (`twofold=false`: only the game's third
#     occurrence is a draw), both with king safety.
#  4. qtt-100ms: the quiescence table (`qtt=true`: the quiescence
#     search answers from the transposition table where an entry's bound
#     settles its window, and stores its results at depth 0) against
#     chess's defaults (`qtt=false`), both with `twofold=true`.
#  5. threat-100ms: the threat weight set by hand (`w_threat=30`: 30
#     centipawns per enemy piece attacked by a less valuable own piece)
#     against chess's defaults (0), both with `twofold=true`; stopped
#     unfinished after 577 games (6 December), resumed from its games
#     file by the next run of this script.
#  6. queenless-100ms: a position without queens counted as a middlegame
#     while seven knights, bishops and rooks or more are left
#     (`w_queenless_middlegame=7`; the King's shelter and the
#     middlegame's pawn tables hold) against chess's defaults (0: every
#     position without queens is an endgame), both with `twofold=true`.
#     Inconclusive at its cap of 800 games (queenless-100ms-800.txt),
#  7. extended to at most 1200 games by the same test (queenless-100ms.txt).
#  8. texel-100ms: material and placement from the tapered piece-square
#     tables fitted by `tune --texel` to this folder's chess games
#     (`w_texel=1`; engine/src/royal_guard/texel.csv) against chess's
#     defaults (0: the SPSA-tuned material weights and the hand-made
#     piece-square formulas, one table switched at the endgame).
#  9. texel2-100ms: the second Texel model (`w_texel=2`;
#     engine/src/royal_guard/texel2.csv: the tables and a middlegame and an
#     endgame weight for each chess term, fitted together to the same
#     games) against chess's defaults (`texel` 1: the tables alone fitted,
#     the other terms at their hand-set and SPSA weights, switched at the
#     endgame).
# 10. lmp-quiets-100ms: late-move pruning counting quiet moves (`lmp=3`:
#     at a non-PV node of depth d <= 3, the quiet moves after the first
#     3 + d*d quiet ones are not searched) against chess's defaults (`lmp`
#     0), both with the second Texel model; inconclusive at 800 games.
# Timed agents: run it on a quiet machine. The load at each start and end
# goes to NAME.load.txt. Resumable: a run whose printout exists is
# skipped; an interrupted SPRT goes on from its games file.
# Run from the repository root: bash results/search-switches/chess-100ms.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source results/tune/logged.sh # B (the binary), logged
source results/search-switches/chess-sprt.sh # chess_sprt
chess_sprt partial-100ms partial-100ms.load.txt 109 \
  "alphabeta(depth=64,ms=100,partial=true)" "alphabeta(depth=64,ms=100,partial=false)"
chess_sprt king-100ms king-100ms.load.txt 110 \
  "alphabeta(depth=64,ms=100,w_king_attack=8,w_shield=10)" "alphabeta(depth=64,ms=100)"
chess_sprt twofold-100ms twofold-100ms.load.txt 111 \
  "alphabeta(depth=64,ms=100,twofold=true)" "alphabeta(depth=64,ms=100,twofold=false)"
chess_sprt qtt-100ms qtt-100ms.load.txt 113 \
  "alphabeta(depth=64,ms=100,qtt=true)" "alphabeta(depth=64,ms=100,qtt=false)"
chess_sprt threat-100ms threat-100ms.load.txt 112 \
  "alphabeta(depth=64,ms=100,w_threat=30)" "alphabeta(depth=64,ms=100)"
chess_sprt queenless-100ms queenless-100ms.load.txt 114 \
  "alphabeta(depth=64,ms=100,w_queenless_middlegame=7)" "alphabeta(depth=64,ms=100)" \
  800 queenless-100ms-800
chess_sprt queenless-100ms queenless-100ms.load.txt 114 \
  "alphabeta(depth=64,ms=100,w_queenless_middlegame=7)" "alphabeta(depth=64,ms=100)" \
  1200
chess_sprt texel-100ms texel-100ms.load.txt 115 \
  "alphabeta(depth=64,ms=100,w_texel=1)" "alphabeta(depth=64,ms=100)"
chess_sprt texel2-100ms texel2-100ms.load.txt 116 \
  "alphabeta(depth=64,ms=100,w_texel=2)" "alphabeta(depth=64,ms=100)"
chess_sprt lmp-quiets-100ms lmp-quiets-100ms.load.txt 117 \
  "alphabeta(depth=64,ms=100,lmp=3)" "alphabeta(depth=64,ms=100)"
