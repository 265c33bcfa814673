"""boardlab's games as PettingZoo AEC environments: ``env("catapult")``.

Agents are ``player_0`` .. ``player_{n-1}`` (the game's seats). Each
observation is a dict: ``observation``, float32 ``(planes, height, width)``
from the view of the seat to move (docs/python.md), and ``action_mask``,
int8 ``(num_actions,)``, the legal actions of the agent to move (all zero
for the others). Actions are the game's action ids. Chance outcomes (the
spinner's spins) are drawn inside the environment from the reset seed. A
move of several decisions (Catapult's dagger turn) is several steps of the
same agent. Rewards come at the end: each seat's return (1 win, -1 loss, 0
draw; a one-seat game's score). In team games ``infos[agent]`` has
``team`` and ``teammates``.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import Game

__all__ = ["env", "raw_env"]


def env(game="catapult", render_mode=None):
    """The AEC environment of ``game`` (a game string)."""
    return raw_env(game, render_mode=render_mode)


class raw_env(AECEnv):
    """A boardlab game as an AEC environment (see the module docs)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "boardlab_v0", "is_parallelizable": False}

    def __init__(self, game="catapult", render_mode=None):
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r}: expected None, 'ansi' or 'human'")
        self.game = Game(game)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name="boardlab_" + self.game.name.split("(")[0] + "_v0")
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_seats)]
        shape = self.game.observation_shape
        n = self.game.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state_ = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _draw_chance(self):
        while self.state_.is_chance_node():
            outcomes = self.state_.chance_outcomes()
            ids = [a for a, _ in outcomes]
            p = np.array([q for _, q in outcomes], dtype=np.float64)
            self.state_.apply_action(int(self._rng.choice(ids, p=p / p.sum())))

    def _infos(self):
        infos = {}
        for i, a in enumerate(self.possible_agents):
            team = self.state_.team(i)
            if team is None:
                infos[a] = {}
            else:
                mates = [b for j, b in enumerate(self.possible_agents) if self.state_.team(j) == team and b != a]
                infos[a] = {"team": team, "teammates": mates}
        return infos

    def reset(self, seed=None, options=None):
        self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**63)) if seed is not None else 0
        self.state_ = self.game.new_initial_state(game_seed)
        self._draw_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = self._infos()
        self.agent_selection = self.possible_agents[max(self.state_.current_player(), 0)]

    def observe(self, agent):
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.state_.is_terminal():
            mask[self.state_.legal_actions()] = 1
        return {"observation": self.state_.observation(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self.state_.apply_action(int(action))
        self._draw_chance()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state_.is_terminal():
            for i, r in enumerate(self.state_.returns()):
                self.rewards[self.possible_agents[i]] = float(r)
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.state_.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The board as text (``ansi``), printed as well in ``human`` mode."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() without a render_mode: give env(game, render_mode='ansi')")
            return None
        text = self.state_.board()
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass
