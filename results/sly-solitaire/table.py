#!/usr/bin/env python3
"""Solitaire Sly: the solver's optimum against what random and MCTS reach.

Reads the committed games and solver files of this folder (see README.md) and prints a Markdown
table: per agent and layout set, the games, the mean return (minus the
pieces left), the share of one-piece wins and the share of games reaching
the solver's proven optimum on the same layout (random layouts: game i of
a one-agent tournament with --seed 2026 is layout i of `boardlab solve`
with --seed 2026; the canonical layout's optimum is -1), each with its
Wilson 95 % interval, the mean gap to the optimum and the mean wall time.
Standard library only: python3 results/sly-solitaire/table.py
"""
import csv
import gzip
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
AGENTS = ["random", "uct100", "uct1000", "uct10000", "uct1000-c14", "uct10000-c14",
          "mcts1000", "mcts10000"]


def wilson(k, n, z=1.959964):
    if n == 0:
        return (0.0, 0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (p, max(0.0, c - h), min(1.0, c + h))


def fmt(k, n):
    p, lo, hi = wilson(k, n)
    return f"{100 * p:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


def rows(name):
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        return None
    with (gzip.open(path, "rt") if name.endswith(".gz") else open(path)) as f:
        return list(csv.DictReader(f))


def main():
    solved = rows("random-solver.csv") or []
    opt = {int(r["game_index"]): float(r["value"]) for r in solved if r["proven"] == "true"}
    print("| layouts | agent | games | mean return | one piece (win) | reaches the optimum | mean gap to optimum | ms per game |")
    print("|---|---|---|---|---|---|---|---|")
    n = len(solved)
    wins = sum(1 for r in solved if float(r["value"]) == -1.0)
    ms = sum(int(r["wall_ms"]) for r in solved) / max(1, n)
    mean = sum(float(r["value"]) for r in solved) / max(1, n)
    print(f"| random | solver (plies=any, {len(opt)} of {n} proven) | {n} | {mean:.3f} | {fmt(wins, n)} | (the optimum) | 0 | {ms:.0f} |")
    for layout in ["random", "canonical"]:
        for a in AGENTS:
            rs = rows(f"{layout}-{a}.csv.gz")
            if not rs:
                continue
            ret = [(int(r["game_index"]), float(r["return_0"])) for r in rs]
            if layout == "canonical":
                best = {i: -1.0 for i, _ in ret}
            else:
                best = {i: opt[i] for i, _ in ret if i in opt}
            comp = [(i, v) for i, v in ret if i in best]
            hit = sum(1 for i, v in comp if v >= best[i])
            gap = sum(best[i] - v for i, v in comp) / max(1, len(comp))
            w = sum(1 for _, v in ret if v == -1.0)
            mean = sum(v for _, v in ret) / len(ret)
            ms = sum(int(r["wall_ms"]) for r in rs) / len(rs)
            print(f"| {layout} | {rs[0]['spec_0']} | {len(ret)} | {mean:.3f} | {fmt(w, len(ret))} | {fmt(hit, len(comp))} (n={len(comp)}) | {gap:.2f} | {ms:.0f} |")


main()
