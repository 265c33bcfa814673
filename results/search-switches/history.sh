#!/usr/bin/env bash
# Chess (royal_guard(royal_powers=false)) at equal time, 50 ms a move: the
# history maluses (`malus=true`) and then countermoves (`countermove=true`)
# against the search of today's chess defaults, each by `sprt`, H0 0
# against H1 +20 Elo, at most 800 games, two threads, game pairs from 100
# random 4-ply openings. Timed agents: run it on a quiet machine. The load
# at each start and end goes to history.load.txt. Resumable: a run whose
# printout exists is skipped; an interrupted SPRT goes on from its games
# file. Run from the repository root: bash results/search-switches/history.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source results/tune/logged.sh # B (the binary), logged
dir=results/search-switches
chess="royal_guard(royal_powers=false)"
check() {
  local name=$1 switch=$2 seed=$3
  logged "$name" "$dir/history.load.txt" "$dir/$name.txt" \
    "$B" sprt --game "$chess" --agents "alphabeta(depth=64,ms=50,$switch=true)" "alphabeta(depth=64,ms=50,$switch=false)" \
    --elo0 0 --elo1 20 --max-games 800 --threads 2 --seed "$seed" \
    --openings 100 --opening-plies 4 --quiet --sprt "$dir/sprt.csv" \
    --out "$dir/$name-games.csv.gz"
}
check malus malus 102
check countermove countermove 103
