#!/usr/bin/env python3
"""Summarises move-loss.py's rows: each side's mean loss and the share of
moves losing 100 and 300 centipawns or more, by phase; and, in each game
that boardlab ended below -200 (its own view), the phase and level where
it fell below -200 for good. Usage: python3 move-loss-summary.py CSV..."""
import csv
import gzip
import sys
from collections import defaultdict


def bucket(phase):
    p = int(phase)
    return "opening/middlegame (10-14 pieces)" if p >= 10 else ("late middlegame (5-9)" if p >= 5 else "endgame (0-4)")


for path in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(path, "rt") if path.endswith(".gz") else open(path)))
    print(f"== {path}: {len(rows)} moves")
    agg = defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        keys = [(r["mover"], "all"), (r["mover"], bucket(r["phase"]))]
        for key in keys + [(r["mover"], "against UCI_Elo " + r["level"])]:
            a = agg[key]
            loss = int(r["loss"])
            a[0] += 1
            a[1] += loss
            a[2] += loss >= 100
            a[3] += loss >= 300
    for key in sorted(agg):
        n, s, b1, b3 = agg[key]
        print(f"  {key[0]:9} {key[1]:34} moves {n:5}  mean loss {s / n:6.1f}  >=100 {100 * b1 / n:5.1f}%  >=300 {100 * b3 / n:5.1f}%")
    games = defaultdict(list)
    for r in rows:
        games[r["game"]].append(r)
    # In each game, the ply after which boardlab's score (its own view,
    # Stockfish's depth) stays below -200 to the end: where it was lost.
    lost = defaultdict(int)
    plies = []
    for g, rs in games.items():
        rs.sort(key=lambda r: int(r["ply"]))
        own = [(int(r["ply"]), int(r["before"]), r["phase"], r["level"]) for r in rs if r["mover"] == "boardlab"]
        if not own or own[-1][1] > -200:
            continue
        k = len(own) - 1
        while k > 0 and own[k - 1][1] <= -200:
            k -= 1
        lost[(bucket(own[k][2]), own[k][3])] += 1
        plies.append(own[k][0])
    print("  games boardlab ended below -200: where it fell for good (phase, level): count")
    for k in sorted(lost):
        print(f"    {k}: {lost[k]}")
    if plies:
        plies.sort()
        print(f"  ply of the fall: median {plies[len(plies) // 2]}, quartiles {plies[len(plies) // 4]}, {plies[3 * len(plies) // 4]}")
