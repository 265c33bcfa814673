"""A few thousand random calls with bad arguments: each raises an
exception (ValueError, TypeError or OverflowError) or succeeds; none
crashes the interpreter or raises anything else (a Rust panic would be a
PanicException)."""

import random

import numpy as np

import boardlab

WORDS = ["catapult", "slingshot(size=7)", "pie(catapult)", "spinner", "(", ")", "=", ",", "size", "9", "-1",
         "bagel(base=5)", "x" * 300, "\x00", "é", "pie(pie(catapult))", "royal_guard(royal_powers=maybe)",
         "mcts(ms=1)", "random", "mcts(iterations=-5)", "alphabeta(depth=1)", "solver", "uct(c=nan)", ""]


def junk(rng):
    k = rng.randrange(7)
    if k == 0:
        return "".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 4)))
    if k == 1:
        return rng.choice([-(2**70), -1, 0, 1, 2**31, 2**63 - 1, 2**64, 10**30])
    if k == 2:
        return rng.choice([None, 1.5, float("nan"), [], [1, "a"], {}, b"bytes"])
    if k == 3:
        return np.array([rng.randrange(-5, 10**5) for _ in range(rng.randrange(0, 5))])
    if k == 4:
        return "".join(chr(rng.randrange(1, 0x250)) for _ in range(rng.randrange(0, 20)))
    if k == 5:
        return rng.randrange(0, 30000)
    return rng.choice(WORDS)


ALLOWED = (ValueError, TypeError, OverflowError)


def test_random_bad_calls_never_crash():
    rng = random.Random(36)
    states = [boardlab.Game(g).new_initial_state(1) for g in ["catapult(dagger=true)", "spinner", "bagel", "royal_guard"]]
    vec = boardlab.VectorGames("catapult", 3, 0)
    calls = [
        lambda: boardlab.Game(junk(rng)),
        lambda: boardlab.Agent(junk(rng), junk(rng)),
        lambda: boardlab.Game("catapult").new_initial_state(junk(rng)),
        lambda: rng.choice(states).apply(junk(rng)),
        lambda: rng.choice(states).apply_action(junk(rng)),
        lambda: rng.choice(states).move_to_actions(junk(rng)),
        lambda: rng.choice(states).team(junk(rng)),
        lambda: boardlab.replay(junk(rng), [junk(rng)], junk(rng)),
        lambda: boardlab.Game("line_up").parse_position(junk(rng)),
        lambda: boardlab.VectorGames(junk(rng), junk(rng), junk(rng)),
        lambda: vec.step(junk(rng)),
        lambda: vec.step([junk(rng), junk(rng), junk(rng)]),
        lambda: boardlab.Agent("random").select(rng.choice(states)),
    ]
    outcomes = {"ok": 0, "refused": 0}
    for _ in range(3000):
        try:
            rng.choice(calls)()
            outcomes["ok"] += 1
        except ALLOWED:
            outcomes["refused"] += 1
    assert outcomes["refused"] > 1000, outcomes
