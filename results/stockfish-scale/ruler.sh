#!/usr/bin/env bash
# The ruler: one boardlab agent against Stockfish 15.1 at six UCI_Elo
# levels (1350, 1700, 1850, 2000, 2150, 2300), each at 100 ms a move, 26
# games a level (13 random 4-ply openings, each with both seatings), two
# games at a time, seed 30 (or SEED); the levels held at their stated Elo and the
# agent's Elo fitted (`rate --gauntlet --fixed`). The same command as the
# `ab-search`, `ab-see`, `ab-spsa`, `ab-cm` and `ab-null` rows of
# README.md, with the agent and the name as arguments.
# Usage, from the repository root:
#   bash results/stockfish-scale/ruler.sh NAME "AGENT" [SEED]
# (SEED, default 30, draws other openings: a second run of the same agent
# with another seed adds 156 games of its own)
# writes NAME-games.csv.gz (+ .config.json), NAME.csv (the ratings),
# NAME.txt (the printout) and NAME.load.txt (uptime before and after).
# Timed agents: run it on a quiet machine. Needs Stockfish
# (scripts/system-packages stockfish). A run whose printout exists is
# skipped; an interrupted one goes on from its games file.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: ruler.sh NAME AGENT [SEED]" >&2; exit 2; }
name=$1 agent=$2 seed=${3:-30} dir=results/stockfish-scale
B=${BOARDLAB:-target/release/boardlab}
sf=/usr/games/stockfish
[ -x "$sf" ] || { echo "ruler.sh: $sf is missing (scripts/system-packages stockfish)" >&2; exit 2; }
[ -f "$dir/$name.txt" ] && exit 0
levels=(1350 1700 1850 2000 2150 2300)
agents=("$agent") fixed=()
for i in "${!levels[@]}"; do
  agents+=("external(cmd=$sf,protocol=uci,ms=100,option.UCI_LimitStrength=true,option.UCI_Elo=${levels[$i]})")
  fixed+=(--fixed "$((i + 1))=${levels[$i]}")
done
echo "$name $(date -u +%H:%M) start  $(uptime)" >> "$dir/$name.load.txt"
"$B" rate --game "royal_guard(royal_powers=false)" --gauntlet --threads 2 --seed "$seed" --quiet \
  --agents "${agents[@]}" "${fixed[@]}" --games 26 --openings 13 --opening-plies 4 \
  --out "$dir/$name-games.csv.gz" --ratings "$dir/$name.csv" > "$dir/$name.txt.part"
mv "$dir/$name.txt.part" "$dir/$name.txt"
echo "$name $(date -u +%H:%M) end  $(uptime)" >> "$dir/$name.load.txt"
