"""Every registered game (:data:`stargtp.engine.games.GAME_LIST`) held to one
contract, on a few sizes each: the seeded random games of
tests/conformance.py, which states the contract and each game's own end rule
(*Star: over exactly when the board is full or after two passes in a row, and
a pass is legal whenever the game is on; Amazons: over exactly when the side
to move has no move, and the opponent wins).
"""

from __future__ import annotations

import random

import pytest

from stargtp.engine.errors import GameError
from stargtp.engine.game import Game
from stargtp.engine.games import GAME_LIST, find_game
from tests.conformance import ENDINGS, check_game, sizes_of

CASES = [pytest.param(game, size, id=f"{game.name}-{size}") for game in GAME_LIST for size in sizes_of(game)]
OPTION_CASES = [pytest.param(game, size, option.name, id=f"{game.name}-{size}-{option.name}")
                for game in GAME_LIST for option in game.options for size in sorted(game.sizes)[:3]]
"""Each game with each of its options turned the other way from its default,
on the three smallest boards (where the option's moves come up most often)."""


@pytest.fixture(autouse=True)
def seeded_global_random():
    """The games use their own seeded Random; the global one is seeded too,
    so nothing in a run depends on the time."""
    state = random.getstate()
    random.seed(12345)
    yield
    random.setstate(state)


@pytest.mark.parametrize("game, size", CASES)
def test_random_games(game: Game, size: int) -> None:
    endings = check_game(game, size)
    if size == sizes_of(game)[0] and game.name in ENDINGS:
        assert endings >= ENDINGS[game.name]  # the games ended every way they can


@pytest.mark.parametrize("game, size, name", OPTION_CASES)
def test_random_games_with_an_option(game: Game, size: int, name: str) -> None:
    """The contract holds with the option changed, and the position says it is."""
    value = not game.option(name).default
    check_game(game, size, options={name: value})
    assert game.options_of(game.new_position(size, {name: value}))[name] is value
    assert game.options_of(game.new_position(size))[name] is game.option(name).default


def test_every_game_has_one_descriptor() -> None:
    """One Game per name; the position of each size points back to it."""
    names = [game.name for game in GAME_LIST]
    assert len(names) == len(set(names)) and {"star", "amazons"} <= set(names)
    for game in GAME_LIST:
        assert find_game(game.name) is game
        assert game.default_size in game.sizes
        for size in sizes_of(game):
            position = game.new_position(size)
            assert position.rules is game and type(position).rules is game
        with pytest.raises(GameError):
            game.new_position(max(game.sizes) + 1)
        with pytest.raises(GameError):
            game.new_position(None, {"no such option": True})
        assert set(game.options_of(game.new_position())) == {option.name for option in game.options}
    with pytest.raises(GameError):
        find_game("no such game")
