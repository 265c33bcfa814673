"""The fewest moves of the random Solitaire Sly layouts against the first-found lines.

Reads results/sly-solitaire/fewest/random-fewest.csv (`solver(plies=fewest)`)
and results/sly-solitaire/random-solver.csv (`solver(plies=any)`, the same
seed 2026, so row i is the same layout in both; the start texts are checked)
and prints Markdown: the distribution of the proven fewest moves, and the
paired comparison with the first-found line of each layout. Standard
library only; run from the repository root:

    python3 results/sly-solitaire/fewest/table.py
"""

import csv
import statistics
from collections import Counter

FEWEST = "results/sly-solitaire/fewest/random-fewest.csv"
ANY = "results/sly-solitaire/random-solver.csv"


def rows(path):
    with open(path, newline="") as f:
        return {int(r["game_index"]): r for r in csv.DictReader(f)}


def main():
    fewest, first = rows(FEWEST), rows(ANY)
    done = sorted(i for i, r in fewest.items() if r["proven"] == "true")
    assert all(fewest[i]["start"] == first[i]["start"] for i in fewest), "layouts differ"
    assert all(fewest[i]["value"] == "-1.0" for i in done), "a layout not won"
    short = [int(fewest[i]["plies"]) for i in done]
    found = [int(first[i]["plies"]) for i in done]
    # A first-found line is a winning line too: never shorter than the fewest.
    assert all(a <= b for a, b in zip(short, found)), "a first-found line beats the fewest"
    every = [int(r["plies"]) for r in first.values()]
    n = len(done)
    print(f"Layouts 0..{max(fewest)} of seed 2026 solved with `plies=fewest`: "
          f"{n} proven (all won: one piece left).\n")
    print("| fewest moves (proven) | layouts | share |")
    print("|---|---|---|")
    for k, c in sorted(Counter(short).items()):
        print(f"| {k} | {c} | {100 * c / n:.1f} % |")
    print()
    print("| | n | mean | sd | median | min | max |")
    print("|---|---|---|---|---|---|---|")

    def line(name, xs):
        sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
        print(f"| {name} | {len(xs)} | {statistics.mean(xs):.2f} | {sd:.2f} | "
              f"{statistics.median(xs):g} | {min(xs)} | {max(xs)} |")

    line("fewest moves (`plies=fewest`), these layouts", short)
    line("first-found line (`plies=any`), the same layouts", found)
    line("first-found line (`plies=any`), all 1,000 layouts", every)
    saved = [a - b for a, b in zip(found, short)]
    line("moves saved on the same layout", saved)
    secs = [int(fewest[i]["wall_ms"]) / 1000 for i in done]
    nodes = [int(fewest[i]["nodes"]) for i in done]
    print()
    print(f"Cost per layout (wall, one thread beside other jobs): mean {statistics.mean(secs):.0f} s, "
          f"median {statistics.median(secs):.0f} s, max {max(secs):.0f} s; "
          f"positions: mean {statistics.mean(nodes):,.0f}, max {max(nodes):,}.")


if __name__ == "__main__":
    main()
