"""Games, states, agents and tournaments through the Python API."""

import numpy as np
import pytest

import boardlab

GAMES = [name for name, _ in boardlab.games() if name != "pie"] + [
    "pie(catapult)",
    "catapult(dagger=true)",
    "royal_guard(royal_powers=false)",
    "sniggle(players=4,teams=true)",
]


@pytest.mark.parametrize("name", GAMES)
def test_random_play_by_action_ids(name):
    game = boardlab.Game(name)
    rng = np.random.default_rng(1)
    state = game.new_initial_state(3)
    shape = game.observation_shape
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(outcomes[0][0])
            continue
        legal = state.legal_actions()
        mask = state.legal_action_mask()
        assert mask.shape == (game.num_actions,) and mask.dtype == bool
        assert list(np.flatnonzero(mask)) == legal
        obs = state.observation()
        assert obs.shape == shape and obs.dtype == np.float32
        if not state.pending_actions():
            moves = state.legal_moves()
            firsts = sorted({state.move_to_actions(m)[0] for m in moves})
            assert firsts == legal
        state.apply_action(int(rng.choice(legal)))
    assert len(state.returns()) == game.num_seats
    copy = state.clone()
    assert copy.position() == state.position()
    assert state.svg() is None or state.svg().startswith("<svg")


def test_moves_by_text_round_trip_through_replay():
    state = boardlab.Game("slingshot(size=7)").new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal() and state.ply() < 40:
        state.apply(str(rng.choice(state.legal_moves())))
    again = boardlab.replay("slingshot(size=7)", state.history())
    assert again.position() == state.position()


def test_mcts_against_a_python_random_agent_replays_in_rust():
    """boardlab's mcts plays a Python random agent; the moves replayed in
    Rust (the engine's record replay) give the same position and result."""
    mcts = boardlab.Agent("mcts(iterations=200)", seed=1)
    rng = np.random.default_rng(2)
    game = "catapult(dagger=true)"
    state = boardlab.Game(game).new_initial_state()
    while not state.is_terminal() and state.ply() < 400:
        if state.current_player() == 0:
            state.apply(mcts.select(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    replayed = boardlab.replay(game, state.history())
    assert replayed.position() == state.position()
    assert replayed.returns() == state.returns()
    assert replayed.is_terminal() == state.is_terminal()


def test_agents_play_chance_and_multi_seat_games():
    agent = boardlab.Agent("mcts(iterations=20)")
    for game in ["spinner", "sniggle(players=3)"]:
        state = boardlab.Game(game).new_initial_state()
        for _ in range(30):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply(state.chance_moves()[0][0])
            else:
                state.apply(agent.select(state))


def test_an_agent_read_in_a_game_takes_its_evaluation_weights():
    # Catapult's evaluation names `attack` (its default, 20, is listed by
    # `boardlab games`); a spec naming it is read in that game only.
    agent = boardlab.Agent("alphabeta(depth=1,w_attack=16)", game="catapult")
    assert "w_attack=16" in agent.spec
    state = boardlab.Game("catapult").new_initial_state()
    assert agent.select(state) in state.legal_moves()
    with pytest.raises(ValueError, match="no named weights"):
        boardlab.Agent("alphabeta(w_attack=16)")
    with pytest.raises(ValueError, match="no named weights"):
        boardlab.Agent("alphabeta(w_attack=16)", game="slingshot")
    with pytest.raises(ValueError, match="unknown evaluation weight"):
        boardlab.Agent("alphabeta(w_rook=1)", game="catapult")


def test_tournament_rows():
    rows = boardlab.tournament("slingshot(size=7)", ["random", "mcts(iterations=10)"], games=2, seed=4)
    # games=2 per pairing: two rows, seats alternated, in game order.
    assert len(rows) == 2
    assert {"game", "game_index", "seed", "agent_0", "agent_1"} <= set(rows[0])
    assert [r["game_index"] for r in rows] == [0, 1]
    assert all(v is None or isinstance(v, (int, float, str)) for v in rows[0].values())


@pytest.mark.parametrize("name", ["t.csv", "t.csv.gz"])
def test_tournament_rows_in_pandas(tmp_path, name):
    """The rows make a DataFrame with the CSV's columns and kinds, equal to
    what pandas.read_csv reads from the games file the run wrote, plain or
    gzip-compressed."""
    import pandas as pd

    out = tmp_path / name
    agents = ["random", "mcts(iterations=10)"]
    rows = boardlab.tournament("slingshot(size=7)", agents, games=4, seed=4, out=out)
    df = pd.DataFrame(rows)
    # The CSV is in the order the games finished; the rows in game order.
    csv = pd.read_csv(out, dtype={"seed": str}).sort_values("game_index", ignore_index=True)
    assert list(df.columns) == list(csv.columns)
    assert len(df) == 4 and sorted(df["game_index"]) == [0, 1, 2, 3]
    for column in ["game_index", "agent_0", "agent_1", "draw", "plies", "turns", "first_mover_seat"]:
        assert df[column].dtype.kind == "i", column
    for column in ["return_0", "return_1"]:
        assert df[column].dtype.kind in "if", column
    # Two seats, zero-sum: one wins what the other loses.
    assert ((df["return_0"] + df["return_1"]) == 0).all()
    # The same numbers as read_csv reads, row for row.
    numbers = ["game_index", "agent_0", "agent_1", "winner_seat", "winner_agent", "draw", "return_0", "return_1", "plies", "turns"]
    pd.testing.assert_frame_equal(df[numbers].astype(float), csv[numbers].astype(float))
    assert (df["seed"] == csv["seed"]).all() and (df["moves"] == csv["moves"]).all()
    # Every game is stored once, with the position its moves start from.
    assert (df["start"] == csv["start"]).all() and csv["start"].notna().all()
    wins = df.groupby("winner_agent").size()
    assert wins.sum() + df["draw"].sum() == 4


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: boardlab.Game("chess"), 'unknown game "chess"'),
        (lambda: boardlab.Game("slingshot(size=8)"), 'size="8"'),
        (lambda: boardlab.Agent("mcst"), 'unknown agent "mcst"'),
        (lambda: boardlab.Agent("mcts(iterations=x)"), "iterations"),
        (lambda: boardlab.Agent("human"), "human"),
        (lambda: boardlab.Game("catapult").new_initial_state().apply("z9-z10"), "z9"),
        (lambda: boardlab.Game("catapult").new_initial_state().apply_action(-1), "action -1"),
        (lambda: boardlab.Game("catapult").new_initial_state().apply_action(10**6), "not legal"),
        (lambda: boardlab.Game("catapult").parse_position("nonsense"), ""),
        (lambda: boardlab.replay("catapult", ["a1-a2", "x"]), "move 1 of the record"),
        (lambda: boardlab.VectorGames("catapult", 0), "n must be at least 1"),
        (lambda: boardlab.Agent("alphabeta").select(boardlab.Game("sniggle(players=3)").new_initial_state()), "two-seat"),
        (lambda: boardlab.tournament("catapult", ["random"], games=0), "at least 1"),
    ],
)
def test_bad_input_raises_value_error_with_one_line(call, message):
    with pytest.raises(ValueError) as e:
        call()
    text = str(e.value)
    assert message in text
    assert "\n" not in text.strip()
