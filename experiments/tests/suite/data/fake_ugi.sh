#!/bin/sh
# A scripted UGI engine that misbehaves at its first `go`, for the external
# agent's forfeit tests: `fake_ugi.sh crash|hang|cheat|flood|chatter|ugi-only`.
#   crash: exits without an answer; hang: never answers; cheat: answers a
#   move that is not legal (`bestmove zz99`); flood: writes bytes without
#   end and no newline; chatter: writes `info` lines without end. It greets
#   `uci` with `uciok` too (the same faults under protocol=uci), except in
#   ugi-only mode, where it answers `uci` with `ugiok`.
mode="$1"
while IFS= read -r line; do
  case "$line" in
    ugi)
      echo "id name fake-$mode"; echo "id author boardlab tests"; echo ugiok ;;
    uci)
      echo "id name fake-$mode"
      if [ "$mode" = ugi-only ]; then echo ugiok; else echo uciok; fi ;;
    isready) echo readyok ;;
    go*)
      case "$mode" in
        crash) exit 3 ;;
        hang) sleep 30 ;;
        cheat) echo "info depth 1"; echo "bestmove zz99" ;;
        flood) exec tr -d '\n' < /dev/zero ;;
        chatter) exec yes "info depth 1 score cp 0" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
