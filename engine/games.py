"""The games this engine plays, by name: how to make a position of each.

The protocol and the match runner create positions only through
:func:`new_position`, so adding a game means adding one entry here.
"""

from __future__ import annotations

import importlib

from engine.errors import GameError

GAMES: tuple[str, ...] = ("star", "amazons")
DEFAULT_SIZE: dict[str, int] = {"star": 10, "amazons": 10}
_MODULES = {"star": "engine.star", "amazons": "engine.amazons"}


def game_module(game: str):
    """The rules package of ``game``; GameError if it is unknown or not built."""
    if game not in _MODULES:
        raise GameError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    try:
        module = importlib.import_module(_MODULES[game])
        module.Position  # noqa: B018 - the package must provide its position
    except (ImportError, AttributeError) as exc:
        raise GameError(f"the game {game!r} is not available in this build") from exc
    return module


def new_position(game: str, size: int | None = None):
    """An empty position of ``game`` on a board of ``size`` (the game's default
    when None). Raises GameError for an unknown game and BadSize for a size the
    game does not support."""
    module = game_module(game)
    return module.Position(DEFAULT_SIZE[game] if size is None else size)
