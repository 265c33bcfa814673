"""boardlab from Python: every game by its game string, states with moves as
text and as action ids, observations as numpy arrays, agents by spec,
tournaments, a PettingZoo environment (``boardlab.pettingzoo``) and batched
stepping in Rust (``VectorGames``). See docs/python.md.
"""

import csv as _csv
import gzip as _gzip
import os as _os
import tempfile as _tempfile

from ._boardlab import (
    Agent,
    Game,
    State,
    VectorGames,
    agents,
    games,
    replay,
    tournament_csv,
)

__all__ = [
    "Agent",
    "Game",
    "State",
    "VectorGames",
    "agents",
    "games",
    "replay",
    "tournament",
    "tournament_csv",
]


def _number(text):
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def tournament(game, agents, games=10, seed=0, out=None, threads=0):
    """Plays a tournament (as ``boardlab tournament``) and returns its rows:
    a list of dicts, one per game in the order of ``game_index`` (the CSV
    keeps the order in which the games finished), with the CSV's columns
    (docs/results-format.md), numbers as int or float and empty cells as
    None, so that ``pandas.DataFrame(rows)`` reads them as
    ``pandas.read_csv`` reads the CSV. ``out`` keeps the CSV (and its
    ``.config.json``) at that path, gzip-compressed if it ends in ``.gz``; otherwise a temporary folder holds them
    and is removed."""
    if isinstance(agents, str):
        raise ValueError("agents: expected a list of agent specs, e.g. ['mcts(ms=100)', 'random']")
    if out is not None:
        return _read_rows(tournament_csv(game, list(agents), games, str(out), seed, threads))
    with _tempfile.TemporaryDirectory(prefix="boardlab-") as folder:
        path = tournament_csv(game, list(agents), games, _os.path.join(folder, "tournament.csv"), seed, threads)
        return _read_rows(path)


def _read_rows(path):
    # A games file named *.gz is gzip-compressed (docs/results-format.md).
    opener = _gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = [{k: _number(v) for k, v in row.items()} for row in _csv.DictReader(f)]
    return sorted(rows, key=lambda row: row["game_index"])
