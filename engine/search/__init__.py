"""The game-agnostic searches: random, flat Monte Carlo and UCT with RAVE,
with what they share (limits, results, budgets, tree reuse). A search sees a
game only through its descriptor (``position.rules``) and the position API;
this package imports no game. Every player by name, the games' own included,
is in :mod:`stargtp.engine.players`.
"""

from __future__ import annotations

from stargtp.engine.search.base import Limits, Player, SearchResult
from stargtp.engine.search.simple import FlatPlayer, RandomPlayer
from stargtp.engine.search.uct import UctPlayer

GENERIC_PLAYERS: dict[str, type[Player]] = {
    "uct": UctPlayer,
    "flat": FlatPlayer,
    "random": RandomPlayer,
}
"""The players that play any game."""

__all__ = ["GENERIC_PLAYERS", "Limits", "Player", "SearchResult"]

