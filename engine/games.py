"""The games this engine plays: every game's descriptor, found by name.

Everything outside a game's package reaches the game through its descriptor
(:class:`stargtp.engine.game.Game`): from a position (``position.rules``) or from
here by name. Adding a game means adding its descriptor to :data:`GAME_LIST`.

>>> [game.name for game in GAME_LIST]
['star', 'amazons', 'hex', 'y']
>>> new_position("amazons", 6).size
6
"""

from __future__ import annotations

import re

from stargtp.engine.amazons import AMAZONS
from stargtp.engine.errors import GameError
from stargtp.engine.game import Game
from stargtp.engine.hex import HEX
from stargtp.engine.star import STAR
from stargtp.engine.y import Y

BUILT_IN: tuple[Game, ...] = (STAR, AMAZONS, HEX, Y)
"""The games that come with the engine, the default (``star``) first."""

GAME_LIST: list[Game] = list(BUILT_IN)
"""Every game: the built-in ones, then any registered at run time."""


def games() -> tuple[str, ...]:
    """The names of every registered game, in order."""
    return tuple(game.name for game in GAME_LIST)


def find_game(name: str) -> Game:
    """The descriptor of the game called ``name``; GameError if none is."""
    for game in GAME_LIST:
        if game.name == name:
            return game
    raise GameError(f"unknown game {name!r} (known: {', '.join(games())})")


def register(game: Game) -> None:
    """Add a game (for a third game defined outside the engine, as the tests do)."""
    if game.name in games():
        raise ValueError(f"a game called {game.name!r} is already registered")
    GAME_LIST.append(game)


def registered_games() -> list[Game]:
    """The games registered at run time, beyond the built-in ones."""
    return [game for game in GAME_LIST if game not in BUILT_IN]


def adopt_games(extra: list[Game]) -> None:
    """Register the games of ``extra`` that this process does not know yet (a
    worker process receiving its server's registered games)."""
    for game in extra:
        if game.name not in games():
            register(game)


def read_record(text: str):
    """The position at the end of an SGF record, read by the game its ``GM[n]``
    names (where games share the number, the first that claims the record:
    ``GM[11]`` is Hex's, or Y's with ``BOARD[Y]``); a record without ``GM``
    goes to each game that has records in turn (the Amazons' readers take a
    missing ``GM`` as theirs). GameError when no game reads it.

    >>> position = read_record("(;GM[18]SZ[6];B[efdedf])")
    >>> position.game, position.format_move(position.history[0][1])
    ('amazons', 'e1-d2/d1')
    >>> read_record("(;GM[11]SZ[5]BOARD[Y];B[c5])").game
    'y'
    >>> read_record("(;GM[1]SZ[19])")
    Traceback (most recent call last):
    ...
    stargtp.engine.errors.GameError: GM[1] is no game of this engine (star: GM[2004], amazons: GM[18], hex: GM[11], y: GM[11])
    """
    return _read_by_game(text, [game for game in GAME_LIST if game.read_record is not None],
                         lambda game: game.read_record(text))


def read_tree(text: str):
    """The game tree of an SGF record with every variation, as
    ``(game, RecordTree)`` (:func:`stargtp.engine.sgf.read_tree`), the game
    found as :func:`read_record` finds it among the games that read trees.

    >>> game, tree = read_tree("(;GM[18]SZ[6](;B[efdedf]C[main])(;B[bfbdcd]))")
    >>> game.name, [(node.move, node.props) for node in tree.children]
    ('amazons', [('e1-d2/d1', {'C': ['main']}), ('b1-b3/c3', {})])
    """
    from stargtp.engine.sgf import read_tree as read_game_tree

    readers = [game for game in GAME_LIST if game.record_codec is not None]
    return _read_by_game(text, readers, lambda game: (game, read_game_tree(text, game.record_codec)))


def _read_by_game(text: str, readers: list[Game], read):
    """``read(game)`` for the game of the record among ``readers``."""
    if not readers:
        raise GameError("no game of this engine reads records")
    found = re.search(r"GM\s*\[\s*([0-9]+)\s*\]", text)
    if found:
        number = int(found.group(1))
        numbered = [game for game in readers if game.sgf_number == number]
        claimed = [game for game in numbered if game.claims_record is None or game.claims_record(text)]
        if numbered:
            return read((claimed or numbered)[0])
        known = ", ".join(f"{game.name}: GM[{game.sgf_number}]" for game in readers)
        raise GameError(f"GM[{number}] is no game of this engine ({known})")
    failure: GameError | None = None
    for game in readers:
        try:
            return read(game)
        except GameError as error:
            failure = error
    assert failure is not None
    raise failure


def new_position(game: str, size: int | None = None, options: dict[str, bool] | None = None):
    """An empty position of ``game`` on a board of ``size`` (the game's default
    when None), with ``options`` (:attr:`Game.options`) where given. Raises
    GameError for an unknown game or option and BadSize for a size the game
    does not support."""
    return find_game(game).new_position(size, options)

