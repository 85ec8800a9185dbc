"""The game state of one session: the position, komi and the clock.

The first of a session's three parts (as gomill splits its engine): this one
knows nothing of searching or of command lines. Commands read and change it;
the search service receives a :class:`~stargtp.protocol.server.workers.GameState`
snapshot of it.
"""

from __future__ import annotations

from typing import Any

from stargtp.engine.games import new_position
from stargtp.protocol.clock import Clock
from stargtp.protocol.server.workers import GameState


class GtpState:
    """The position, komi and clock a controller has set up."""

    def __init__(self, game: str, size: int | None = None) -> None:
        self.position: Any = new_position(game, size)
        self.komi = 0.0
        self.clock = Clock()

    def new_game(self, game: str | None = None, size: int | None = None) -> None:
        """A cleared board of ``game`` (default: the current one) and ``size``;
        nothing changes if the game or size is refused (GameError, BadSize)."""
        self.position = new_position(self.position.game if game is None else game, size)
        self.clock.set_control(self.clock.control)  # full clocks for the new game

    def adopt(self, position: Any) -> None:
        """Continue from ``position`` (a loaded record) with full clocks."""
        self.position = position
        self.clock.set_control(self.clock.control)

    def snapshot(self) -> GameState:
        """What a worker needs to rebuild the position: game, size, the moves
        as text, the set-up they start from and the game's options (Hex's
        swap rule, from the descriptor's ``options_of``)."""
        position = self.position
        moves = tuple((colour, position.format_move(move)) for colour, move in position.history)
        options = tuple(sorted(position.rules.options_of(position).items()))
        return GameState(position.game, position.size, moves, position.setup(), options)
