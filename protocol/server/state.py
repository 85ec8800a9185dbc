"""The game state of one session: the position, its rules, komi and the clock.

The first of a session's three parts (as gomill splits its engine): this one
knows nothing of searching or of command lines. Commands read and change it;
the search service receives a :class:`~stargtp.protocol.server.workers.GameState`
snapshot of it.
"""

from __future__ import annotations

from typing import Any

from stargtp.engine.errors import GameError
from stargtp.engine.games import find_game, new_position
from stargtp.protocol.clock import Clock
from stargtp.protocol.server.workers import GameState


class GtpState:
    """The position, the rules asked for, komi and clock a controller has set up."""

    def __init__(self, game: str, size: int | None = None,
                 rules: dict[str, bool] | None = None) -> None:
        self.rules: dict[str, bool] = dict(rules or {})
        """The game options asked for (``stargtp serve --rule``,
        ``stargtp-rules``), by name; every new board of a game that has the
        option is played with it, the others keep their defaults."""
        self.position: Any = new_position(game, size, self.options_for(game))
        self.komi = 0.0
        self.clock = Clock()

    def options_for(self, game: str) -> dict[str, bool]:
        """The asked-for options that ``game`` has (the rest do not apply to it)."""
        known = {option.name for option in find_game(game).options}
        return {name: value for name, value in self.rules.items() if name in known}

    def new_game(self, game: str | None = None, size: int | None = None) -> None:
        """A cleared board of ``game`` (default: the current one) and ``size``,
        with the session's rules; nothing changes if the game or size is
        refused (GameError, BadSize)."""
        game = self.position.game if game is None else game
        self.position = new_position(game, size, self.options_for(game))
        self.clock.set_control(self.clock.control)  # full clocks for the new game

    def set_rule(self, name: str, text: str) -> None:
        """Play the current game's option ``name`` on or off (``text``: on/off)
        from now on. The game goes on: its moves are played again under the
        new rule; GameError (nothing changed) for an option the game does not
        have, a value that is not on or off, a game that starts from a set-up
        position, or a move that the new rule makes illegal."""
        position = self.position
        rules = position.rules
        value = rules.option(name).parse(text)
        if position.setup() is not None:
            raise GameError("the rules of a game that starts from a set-up cannot change; clear_board first")
        options = {**rules.options_of(position), name: value}
        replayed = rules.new_position(position.size, options)
        for colour, move in position.history:
            replayed.play(move, colour)  # IllegalMove: the rule forbids a move already played
        self.rules[name] = value
        self.position = replayed

    def adopt(self, position: Any) -> None:
        """Continue from ``position`` (a loaded record) with full clocks."""
        self.position = position
        self.clock.set_control(self.clock.control)

    def snapshot(self) -> GameState:
        """What a worker needs to rebuild the position: game, size, the moves
        as text, the set-up they start from and the game's options."""
        position = self.position
        moves = tuple((colour, position.format_move(move)) for colour, move in position.history)
        options = tuple(sorted(position.rules.options_of(position).items()))
        return GameState(position.game, position.size, moves, position.setup(), options)
