"""examples/amazons_strength.py's openings: under a playout limit the Amazons
search is nearly deterministic, so the match script starts each pair of
games from a seeded random opening, colours swapped."""

from __future__ import annotations

import sys
from pathlib import Path

from stargtp.engine.amazons import Position
from stargtp.engine.search.base import Limits

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import amazons_strength  # noqa: E402


def test_random_openings_are_legal_seeded_and_differ_by_seed():
    opening = amazons_strength.random_opening(8, 2, 1001)
    assert opening == amazons_strength.random_opening(8, 2, 1001) and len(opening) == 2
    position = Position(8)
    for move in opening:
        position.play(move)  # IllegalMove if not legal
    assert len({amazons_strength.random_opening(8, 2, seed) for seed in range(10)}) == 10


def test_each_pair_of_games_shares_an_opening_with_colours_swapped(monkeypatch):
    played = []

    def fake_play_game(players, size, limits, adjudicate=True, opening=()):
        played.append(opening)
        return amazons_strength.GameRecord(winner=2, plies=len(opening), reason="no move",
                                           iterations={1: [], 2: []}, seconds={1: 0.0, 2: 0.0})

    monkeypatch.setattr(amazons_strength, "play_game", fake_play_game)
    spec = amazons_strength.PlayerSpec("amazons-mcts", {})
    result = amazons_strength.run_match(spec, spec, 6, 8, Limits(playouts=10), seed=3, log=None,
                                        random_plies=2)
    assert played[0] == played[1] and played[2] == played[3] and played[4] == played[5]
    assert len({played[0], played[2], played[4]}) == 3
    assert played[0] == amazons_strength.random_opening(8, 2, 3000)
    # White (2) wins every game: the first player is White in the even games.
    assert result.first_as_white == [3, 3] and result.first_as_black == [0, 3]
    played.clear()
    amazons_strength.run_match(spec, spec, 2, 8, Limits(playouts=10), log=None)
    assert played == [(), ()]


def test_the_summary_counts_colour_swapped_pairs(monkeypatch):
    winners = iter([2, 2, 2, 2, 2, 1, 1, 1])  # by game (2 is White, 1 Black)

    def fake_play_game(players, size, limits, adjudicate=True, opening=()):
        return amazons_strength.GameRecord(winner=next(winners), plies=40, reason="no move",
                                           iterations={1: [], 2: []}, seconds={1: 0.0, 2: 0.0})

    monkeypatch.setattr(amazons_strength, "play_game", fake_play_game)
    spec = amazons_strength.PlayerSpec("amazons-mcts", {})
    result = amazons_strength.run_match(spec, spec, 8, 8, Limits(playouts=10), log=None,
                                        random_plies=2)
    # The first player is White in the even games: it wins games 0, 2, 4, 5 and 7, so
    # pairs 0, 1 and 3 are split and pair 2 is won.
    assert result.scores == [1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    assert result.tally().pairs == (0, 0, 3, 0, 1)
    text = amazons_strength.summary(spec, spec, result, 8, Limits(playouts=10), 1.0)
    # Pair scores 1/2, 1/2, 1, 1/2: mean 0.625, +89 Elo; variance 0.046875 a pair, so
    # 0.625 -+ 1.96 * sqrt(0.046875 / 4) = [0.413, 0.837]: [-61, +284].
    assert "won / split / lost: 1 / 3 / 0; Elo +89 [-61, +284] (pentanomial)" in text
    assert "first player: 5/8 = 62.5%" in text
