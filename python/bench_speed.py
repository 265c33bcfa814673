"""Environment steps per second, side by side in one run: random play
through boardlab's VectorGames (sample_actions then step, observations
returned by every step) against PettingZoo's chess_v6 and OpenSpiel's
chess in a plain Python loop. boardlab plays Royal Guard with its powers
off, which is FIDE chess. Run by hand (not in CI), after
`scripts/python-env --bench`:

    .venv/bin/python python/bench_speed.py [--seconds 5] [--n 256]

Prints a Markdown table (docs/python.md keeps the one measured) and the
cost of legal_action_mask() per step.
"""

import argparse
import os
import time

import numpy as np

import boardlab

CHESS = "royal_guard(royal_powers=false)"


def boardlab_vector(seconds, n, mask):
    v = boardlab.VectorGames(CHESS, n, seed=1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            if mask:
                v.legal_action_mask()
            obs, rewards, dones = v.step(v.sample_actions())
            steps += n
    return steps / (time.perf_counter() - start)


def boardlab_state(seconds):
    """The State API in a plain Python loop, one game at a time."""
    game = boardlab.Game(CHESS)
    rng = np.random.default_rng(1)
    state, steps, start = game.new_initial_state(), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        state.observation()
        steps += 1
    return steps / (time.perf_counter() - start)


def pyspiel_loop(seconds):
    import pyspiel

    game = pyspiel.load_game("chess")
    rng = np.random.default_rng(1)
    state, steps, start = game.new_initial_state(), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_loop(seconds):
    from pettingzoo.classic import chess_v6

    env = chess_v6.env()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.integers(len(legal)))]))
        steps += 1
    return steps / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--n", type=int, default=256, help="games in the VectorGames batch")
    args = ap.parse_args()
    load = os.getloadavg()
    rows = []
    vec = boardlab_vector(args.seconds, args.n, mask=False)
    vec_mask = boardlab_vector(args.seconds, args.n, mask=True)
    rows.append((f"boardlab VectorGames({args.n}): sample_actions + step", vec))
    rows.append((f"boardlab VectorGames({args.n}): legal_action_mask + sample_actions + step", vec_mask))
    rows.append(("boardlab State API, Python loop (apply_action + observation)", boardlab_state(args.seconds)))
    for label, fn in [("OpenSpiel pyspiel chess, Python loop (no observation)", pyspiel_loop),
                      ("PettingZoo chess_v6, Python loop (observation every step)", pettingzoo_loop)]:
        try:
            rows.append((label, fn(args.seconds)))
        except ImportError as e:
            rows.append((label + f": not installed ({e.name})", float("nan")))
    spiel = next((r for l, r in rows if l.startswith("OpenSpiel")), float("nan"))
    pz = next((r for l, r in rows if l.startswith("PettingZoo")), float("nan"))
    print(f"load average before: {load[0]:.2f} (1 min), {load[1]:.2f} (5 min); after: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}; {args.seconds:g} s per row")
    print()
    print("| loop | steps/s | × pyspiel | × PettingZoo |")
    print("|---|---:|---:|---:|")
    for label, r in rows:
        print(f"| {label} | {r:,.0f} | {r / spiel:.1f} | {r / pz:.0f} |")
    print()
    print(f"legal_action_mask() per step: {1e6 / vec_mask - 1e6 / vec:.3f} µs (n={args.n}, mask of 16,384 actions)")


if __name__ == "__main__":
    main()
