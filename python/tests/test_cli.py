"""The Python API against the `boardlab` command line: a game played from
Python replays in the command to the same position and result, and bad
input gives the command's own one-line message as the ValueError's text.

The command is the binary `$BOARDLAB_CLI` (.ci/run sets it to the one
`cargo test --workspace` builds), else `boardlab` under the target
folder (`$CARGO_TARGET_DIR` or `target/`), release before debug; without
one these tests skip, saying how to build it."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

import boardlab

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _find_cli():
    given = os.environ.get("BOARDLAB_CLI")
    if given:
        if not os.access(given, os.X_OK):
            pytest.fail(f"BOARDLAB_CLI={given} is not an executable")
        return given
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ["release", "debug"]:
        path = target / profile / "boardlab"
        if os.access(path, os.X_OK):
            return str(path)
    pytest.skip("no boardlab binary: cargo build --release (or set BOARDLAB_CLI)")


@pytest.fixture(scope="module")
def cli():
    path = _find_cli()

    def run(*args):
        done = subprocess.run([path, *args], capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout, done.stderr

    return run


def test_mcts_against_a_python_random_agent_replays_in_the_command(cli):
    """boardlab's mcts against a random agent written in Python, to the end;
    the command (`boardlab moves`, `boardlab show`) replays the record to the
    same returns, position text and board."""
    game = "catapult(dagger=true)"
    mcts = boardlab.Agent("mcts(iterations=100)", seed=3)
    rng = np.random.default_rng(4)
    state = boardlab.Game(game).new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply(mcts.select(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    record = " ".join(state.history())
    code, out, err = cli("moves", "--game", game, "--moves", record)
    assert code == 0, err
    returns = " ".join(str(int(r)) for r in state.returns())
    assert out.strip() == f"game over: 0 legal moves; returns per seat {returns}"
    code, out, err = cli("show", "--game", game, "--moves", record)
    assert code == 0, err
    assert out.rstrip("\n") == f"{state.board()}\nposition: {state.position()}"


BAD = [
    (lambda: boardlab.Game("chess"), ["moves", "--game", "chess"]),
    (lambda: boardlab.Game("slingshot(size=8)"), ["moves", "--game", "slingshot(size=8)"]),
    (lambda: boardlab.Game("slingshot(colour=1)"), ["moves", "--game", "slingshot(colour=1)"]),
    (lambda: boardlab.Game("slingshot("), ["moves", "--game", "slingshot("]),
    (lambda: boardlab.Agent("deep_blue"), ["play", "--game", "slingshot", "--agents", "deep_blue", "random"]),
    (lambda: boardlab.Agent("mcts(iters=3)"), ["play", "--game", "slingshot", "--agents", "mcts(iters=3)", "random"]),
]


@pytest.mark.parametrize("call, command", BAD, ids=[" ".join(c) for _, c in BAD])
def test_bad_input_gives_the_commands_message(cli, call, command):
    code, _, err = cli(*command)
    assert code != 0 and err.startswith("error: ") and err.count("\n") == 1, err
    with pytest.raises(ValueError) as e:
        call()
    assert err[len("error: "):].strip() == str(e.value)
