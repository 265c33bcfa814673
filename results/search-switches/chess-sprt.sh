# Sourced by this folder's chess scripts (null3.sh, partial-rfp.sh,
# chess-100ms.sh), from the repository root, after results/tune/logged.sh:
# chess_sprt NAME LOAD SEED A B: `sprt` of alpha-beta spec A against B at
# chess (royal_guard(royal_powers=false)), H0 0 against H1 +20 Elo, at most
# 800 games, two threads, game pairs from 100 random 4-ply openings, the
# printout to NAME.txt, the games to NAME-games.csv.gz, the load to LOAD.
chess_sprt() {
  local name=$1 load=$2 seed=$3 a=$4 b=$5 dir=results/search-switches
  logged "$name" "$dir/$load" "$dir/$name.txt" \
    "$B" sprt --game "royal_guard(royal_powers=false)" --agents "$a" "$b" \
    --elo0 0 --elo1 20 --max-games 800 --threads 2 --seed "$seed" \
    --openings 100 --opening-plies 4 --quiet --sprt "$dir/sprt.csv" \
    --out "$dir/$name-games.csv.gz"
}
