"""Every game through PettingZoo's own api_test."""

import pytest
from pettingzoo.test import api_test

import boardlab
import boardlab.pettingzoo

GAMES = [name for name, _ in boardlab.games() if name != "pie"] + [
    "pie(catapult)",
    "catapult(dagger=true)",
    "royal_guard(royal_powers=false)",
    "sniggle(players=4,teams=true)",
    "empire(players=4,teams=true)",
]


@pytest.mark.parametrize("game", GAMES)
def test_api_test(game):
    env = boardlab.pettingzoo.env(game, render_mode="ansi")
    api_test(env, num_cycles=200)


def test_render_and_team_infos():
    env = boardlab.pettingzoo.env("sniggle(players=4,teams=true)", render_mode="ansi")
    env.reset(seed=3)
    assert isinstance(env.render(), str) and env.render()
    assert env.infos["player_0"] == {"team": 0, "teammates": ["player_2"]}
    assert env.infos["player_1"]["teammates"] == ["player_3"]


def test_chance_is_drawn_inside():
    env = boardlab.pettingzoo.env("spinner")
    env.reset(seed=1)
    for _ in range(50):
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        assert obs["action_mask"].any()
        env.step(int(obs["action_mask"].nonzero()[0][0]))
