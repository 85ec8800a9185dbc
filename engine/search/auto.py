"""``auto``: the strongest search for whichever game it is asked to play.

A session can switch games (``game amazons``), and the best search differs by
game: UCT-RAVE for *Star, MCTS with an evaluation cut-off for the Amazons.
This player holds one of each and hands every ``genmove`` to the one for the
position's game. A parameter goes to every sub-player that has it.
"""

from __future__ import annotations

from typing import Callable

from engine.search.amazons_mcts import AmazonsMcts
from engine.search.base import Limits, Player, SearchResult, never_stop
from engine.search.uct import UctPlayer

SEARCH_FOR_GAME: dict[str, type[Player]] = {"star": UctPlayer, "amazons": AmazonsMcts}


class AutoPlayer(Player):
    """UCT-RAVE for *Star, AmazonsMcts for the Amazons."""

    name = "auto"

    def __init__(self, seed: int | None = None, **params: str) -> None:
        self.seed = seed
        self.players: dict[str, Player] = {game: kind(seed) for game, kind in SEARCH_FOR_GAME.items()}
        self.PARAMS = {}
        for player in self.players.values():
            for name, spec in player.PARAMS.items():
                self.PARAMS.setdefault(name, spec)
        self.values = {}
        for name, value in params.items():
            self.set_param(name, value)

    def set_param(self, name: str, value: str) -> None:
        takers = [p for p in self.players.values() if name in p.PARAMS]
        if not takers:
            known = ", ".join(sorted(self.PARAMS))
            raise ValueError(f"unknown parameter {name!r} for player auto (known: {known})")
        before = [p.params()[name] for p in takers]
        try:
            for player in takers:
                player.set_param(name, value)
        except ValueError:
            for player, old in zip(takers, before):  # all or nothing
                player.set_param(name, old)
            raise

    def params(self) -> dict[str, str]:
        merged: dict[str, str] = {}
        for player in self.players.values():
            for name, value in player.params().items():
                merged.setdefault(name, value)
        return merged

    def genmove(self, position, limits: Limits, should_stop: Callable[[], bool] = never_stop) -> SearchResult:
        return self.players[position.game].genmove(position, limits, should_stop)
