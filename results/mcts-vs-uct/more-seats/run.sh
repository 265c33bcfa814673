#!/usr/bin/env bash
# Makes this folder: on the three- and four-seat forms of Sniggle, Empire
# and Gateway, `mcts` against plain `uct` at 50 ms a move, about 200 games
# a form. One seat is `mcts`, the others `uct` (teams: `mcts` and its
# partner against two `uct`); `tournament` rotates the agents through the
# seats (game g: seat s gets agent (s + g) mod k), so each random two-ply
# opening is played with `mcts` in every seat (teams: its team first and
# second twice each). `uct` in the same seat would take the fair share 1/k
# (1/2 for a team), so `mcts` is at least level where its share is at
# least that. Two threads, seed 2031. Timed agents: run it on a quiet
# machine; the load at each run's start and end goes to load.txt.
# Resumable: a run whose printout exists is skipped; an interrupted one
# goes on from its games file.
#
# `mcts` plays with each form's defaults: the generic values on Empire and
# Gateway; on Sniggle `cutoff=end,c=1.4,solver=false`, found by the runs
# on its three-seat form that README.md lists (with the solver on, `mcts`
# stayed below `uct` there).
# Run from the repository root: bash results/mcts-vs-uct/more-seats/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
source results/tune/logged.sh # B (the binary), logged
dir=results/mcts-vs-uct/more-seats
M="mcts(ms=50)"
U="uct(iterations=1000000000,ms=50)"
# run NAME GAME GAMES OPENINGS AGENT...
run() {
  local name=$1 g=$2 games=$3 openings=$4
  shift 4
  logged "$name" "$dir/load.txt" "$dir/$name.txt" \
    "$B" tournament --game "$g" --agents "$@" --games "$games" --threads 2 --seed 2031 \
    --openings "$openings" --opening-plies 2 --quiet --out "$dir/$name-games.csv.gz"
}
# Three-seat Sniggle's row is the run that found its default
# (`cutoff=end,c=1.4,solver=false`, spelled out there: the same agent
# string), so it keeps that run's name.
run sniggle-players-3-c-1.4-no-solver "sniggle(players=3)" 201 67 "$M" "$U" "$U"
run sniggle-players-4 "sniggle(players=4)" 200 50 "$M" "$U" "$U" "$U"
run sniggle-players-4-teams-true "sniggle(players=4,teams=true)" 200 50 "$M" "$U" "$M" "$U"
for game in empire gateway; do
  run "$game-players-3" "$game(players=3)" 201 67 "$M" "$U" "$U"
  run "$game-players-4" "$game(players=4)" 200 50 "$M" "$U" "$U" "$U"
  run "$game-players-4-teams-true" "$game(players=4,teams=true)" 200 50 "$M" "$U" "$M" "$U"
done
