"""The players: random, flat Monte Carlo, UCT with RAVE (any game), MCTS with
an evaluation cut-off (Amazons), and ``auto``, the strongest for each game.

>>> from engine.star import Position
>>> player = make_player("flat", seed=1, playouts="50")
>>> result = player.genmove(Position(3), Limits())
>>> result.playouts
50
"""

from __future__ import annotations

from engine.search.base import Limits, Player, SearchResult
from engine.search.simple import FlatPlayer, RandomPlayer

from engine.search.amazons_mcts import AmazonsMcts
from engine.search.auto import AutoPlayer
from engine.search.uct import UctPlayer

_PLAYERS: dict[str, type[Player]] = {
    "auto": AutoPlayer,
    "uct": UctPlayer,
    "amazons-mcts": AmazonsMcts,
    "flat": FlatPlayer,
    "random": RandomPlayer,
}

PLAYERS: tuple[str, ...] = tuple(_PLAYERS)


def make_player(name: str, seed: int | None = None, **params: str) -> Player:
    """A fresh player by name; ValueError for an unknown name or parameter."""
    if name not in _PLAYERS:
        raise ValueError(f"unknown player {name!r} (known: {', '.join(PLAYERS)})")
    return _PLAYERS[name](seed, **params)


def check_plays(name: str, game: str) -> None:
    """ValueError unless the player ``name`` can play ``game``."""
    if name not in _PLAYERS:
        raise ValueError(f"unknown player {name!r} (known: {', '.join(PLAYERS)})")
    if not _PLAYERS[name].plays(game):
        able = ", ".join(p for p in PLAYERS if _PLAYERS[p].plays(game))
        raise ValueError(f"player {name} cannot play {game} (players for {game}: {able})")


__all__ = ["Limits", "Player", "SearchResult", "PLAYERS", "check_plays", "make_player"]
