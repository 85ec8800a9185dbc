"""Strength: the UCT search beats the baselines it is measured against.

Deterministic (every player seeded, fixed playout counts) and small (the
6-ring board), so the results are exact; the margins asked for leave room
below what the engine scores today, so that a harmless change to the search
does not fail them, while a broken search (one that picks moves at random, or
plays for the wrong side) fails them by far. Games are played in-process with
a small loop, colours alternating. docs/strength.md has the real matches.
"""

from __future__ import annotations

from engine.colour import BLACK, WHITE
from engine.players import make_player
from engine.search import Limits
from engine.star import Position, score

RINGS = 6


def play_game(black, white, playouts: int) -> int | None:
    """Play one game to the end (a full board, two passes or a resignation);
    return the winner."""
    position = Position(RINGS)
    players = {BLACK: black, WHITE: white}
    limits = Limits(playouts=playouts)
    while not position.is_over():
        mover = position.to_move
        result = players[mover].genmove(position, limits)
        if result.move is None:
            return WHITE if mover == BLACK else BLACK
        position.play(result.move)
    return score(position).winner


def match(first: tuple[str, dict], second: tuple[str, dict], games: int, playouts: int) -> float:
    """Points of ``first`` (a tie counts one half) over ``games`` games; it
    plays black in the even games. Seeds depend only on the game number."""
    points = 0.0
    for game in range(games):
        a = make_player(first[0], seed=1000 + 2 * game, **first[1])
        b = make_player(second[0], seed=1001 + 2 * game, **second[1])
        a_colour = BLACK if game % 2 == 0 else WHITE
        winner = play_game(a, b, playouts) if a_colour == BLACK else play_game(b, a, playouts)
        points += 1.0 if winner == a_colour else 0.5 if winner is None else 0.0
    return points


def test_uct_beats_random():
    # Random play wins 1 game in 20 against UCT only if UCT is broken.
    assert match(("uct", {}), ("random", {}), games=20, playouts=60) >= 19


def test_uct_rave_beats_flat_monte_carlo_at_equal_playouts():
    # Margin: at least 15 of 20 games (75%) at 100 playouts per move each.
    assert match(("uct", {}), ("flat", {}), games=20, playouts=100) >= 15


def test_rave_beats_plain_uct_at_equal_playouts():
    # Margin: at least 12 of 16 games (75%) at 100 playouts per move each.
    assert match(("uct", {}), ("uct", {"rave": "off"}), games=16, playouts=100) >= 12
