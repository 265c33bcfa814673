#!/bin/sh
# A UCI-only program for the external agent's protocol test: it answers
# `ugi` with `uciok` (as a chess engine that greets every hello the same
# way would) and then exits at its first `go` with `fake_uci_only.sh crash`.
mode="$1"
while IFS= read -r line; do
  case "$line" in
    ugi|uci) echo "id name fake-uci-only"; echo uciok ;;
    isready) echo readyok ;;
    go*) [ "$mode" = crash ] && exit 3 ;;
    quit) exit 0 ;;
  esac
done
