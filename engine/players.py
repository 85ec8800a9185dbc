"""Every player by name: the game-agnostic searches of :mod:`stargtp.engine.search`,
the players a game brings (its descriptor's ``players``), and ``auto``, which
plays each game with that game's strongest player.

>>> from stargtp.engine.star import Position
>>> player = make_player("flat", seed=1, playouts="50")
>>> player.genmove(Position(3), Limits()).playouts
50
"""

from __future__ import annotations

from typing import Callable

from stargtp.engine.games import GAME_LIST
from stargtp.engine.search import GENERIC_PLAYERS, Limits, Player, SearchResult
from stargtp.engine.search.base import never_stop


class AutoPlayer(Player):
    """The strongest search of whichever game it is asked to play.

    A session can switch games (``game amazons``), and the best search differs
    by game; the descriptor names it (``rules.strongest_player``). This player
    holds one of each and hands every ``genmove`` to the one for the
    position's game. A parameter goes to every sub-player that has it.
    """

    name = "auto"

    def __init__(self, seed: int | None = None, **params: str) -> None:
        self.seed = seed
        self.players: dict[str, Player] = {}
        for game in GAME_LIST:
            kind = game.strongest_player
            if kind not in self.players:
                self.players[kind] = make_player(kind, seed)
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
        return self.players[position.rules.strongest_player].genmove(position, limits, should_stop)


def _all_players() -> dict[str, type[Player]]:
    """``auto``, each game's strongest player, then the others."""
    known: dict[str, type[Player]] = dict(GENERIC_PLAYERS)
    for game in GAME_LIST:
        known.update(game.players)
    order = ["auto"] + [game.strongest_player for game in GAME_LIST] + list(known)
    every: dict[str, type[Player]] = {"auto": AutoPlayer}
    for name in order:
        if name not in every:
            every[name] = known[name]
    return every


def players() -> tuple[str, ...]:
    """Every player's name: ``auto``, each game's strongest, then the others."""
    return tuple(_all_players())


PLAYERS: tuple[str, ...] = players()


def make_player(name: str, seed: int | None = None, **params: str) -> Player:
    """A fresh player by name; ValueError for an unknown name or parameter."""
    known = _all_players()
    if name not in known:
        raise ValueError(f"unknown player {name!r} (known: {', '.join(known)})")
    return known[name](seed, **params)


def check_plays(name: str, game: str) -> None:
    """ValueError unless the player ``name`` can play ``game``."""
    known = _all_players()
    if name not in known:
        raise ValueError(f"unknown player {name!r} (known: {', '.join(known)})")
    if not known[name].plays(game):
        able = ", ".join(p for p, kind in known.items() if kind.plays(game))
        raise ValueError(f"player {name} cannot play {game} (players for {game}: {able})")


__all__ = ["AutoPlayer", "PLAYERS", "check_plays", "make_player", "players"]
