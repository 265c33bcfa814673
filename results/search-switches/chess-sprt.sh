# Sourced by this folder's chess scripts (null3.sh, partial-rfp.sh,
# chess-100ms.sh), from the repository root, after results/tune/logged.sh:
# chess_sprt NAME LOAD SEED A B [MAX [PRINTOUT]]: `sprt` of alpha-beta spec
# A against B at chess (royal_guard(royal_powers=false)), H0 0 against H1
# +20 Elo, at most MAX games (800), two threads, game pairs from 100 random
# 4-ply openings, the printout to PRINTOUT.txt (NAME.txt), the games to
# NAME-games.csv.gz, the load to LOAD. A second call with a larger MAX and
# the same NAME extends a run that ended inconclusive at its cap.
chess_sprt() {
  local name=$1 load=$2 seed=$3 a=$4 b=$5 max=${6:-800} dir=results/search-switches
  local printout=${7:-$name}
  logged "$name" "$dir/$load" "$dir/$printout.txt" \
    "$B" sprt --game "royal_guard(royal_powers=false)" --agents "$a" "$b" \
    --elo0 0 --elo1 20 --max-games "$max" --threads 2 --seed "$seed" \
    --openings 100 --opening-plies 4 --quiet --sprt "$dir/sprt.csv" \
    --out "$dir/$name-games.csv.gz"
}
