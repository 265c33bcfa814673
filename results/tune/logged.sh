# Sourced by this folder's scripts (mcts-spsa.sh, mcts-spsa-50ms.sh),
# from the repository root: the binary B (BOARDLAB, else the release
# build), this folder dir, and
# logged NAME LOAD OUT CMD...: runs CMD with its printout going to OUT (by
# way of OUT.part, so that a printout marks a finished run); skipped when
# OUT exists; NAME's start and end, with the machine's load, appended to
# LOAD.
B=${BOARDLAB:-target/release/boardlab}
dir=results/tune
logged() {
  local name=$1 load=$2 out=$3
  shift 3
  [ -f "$out" ] && return 0
  echo "$name $(date -u +%H:%M) start  $(uptime)" >> "$load"
  "$@" > "$out.part"
  mv "$out.part" "$out"
  echo "$name $(date -u +%H:%M) end  $(uptime)" >> "$load"
}
