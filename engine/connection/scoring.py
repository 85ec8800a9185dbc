"""The result of a connection game (Hex, Y): who joined their edges.

A connection game has no margin: the result is ``B+`` or ``W+`` with no
number (SGF's form for a win whose margin is not counted, what HexGui
records and the match referee reads). Before either side has joined its
edges there is no result: :meth:`Score.gtp_result` raises :class:`CannotScore`.

>>> from stargtp.engine.hex import Position
>>> p = Position(1); p.play(0)
>>> score(p).gtp_result()
'B+'
"""

from __future__ import annotations

from dataclasses import dataclass

from stargtp.engine.colour import BLACK, colour_name
from stargtp.engine.errors import GameError


class CannotScore(GameError):
    """The game is not over: nobody has joined their edges yet."""


@dataclass(frozen=True)
class Score:
    """The result of :func:`score`."""

    winner: int | None
    """The colour whose group joins its goal edges; None while nobody's does."""
    reason: str
    """How the game ended, or that it has not."""
    group: tuple[int, ...]
    """The winning group's cells in board order (empty without a winner)."""

    def gtp_result(self) -> str:
        """``B+`` or ``W+``; CannotScore before the end."""
        if self.winner is None:
            raise CannotScore(self.reason)
        return "B+" if self.winner == BLACK else "W+"

    def describe(self, position) -> list[str]:
        """The result and the edges joined (or that the game goes on), then
        the winning group's cells."""
        if self.winner is None:
            return [f"not decided yet: {self.reason}"]
        labels = " ".join(position.format_move(cell) for cell in self.group)
        return [f"result: {self.gtp_result()} ({colour_name(self.winner)} wins: {self.reason})",
                f"  winning group: {labels}"]

    def to_json(self, position) -> dict:
        """``{"reason", "group": [labels]}``."""
        return {"reason": self.reason, "group": [position.format_move(cell) for cell in self.group]}


def score(position, komi: float = 0.0) -> Score:
    """The result of a connection position (komi means nothing here)."""
    geo = position.geometry
    winner = position.winner()
    if winner is None:
        return Score(None, "no side has joined its edges", ())
    own = position.black_bits if winner == BLACK else position.white_bits
    goals = geo.goals[winner]
    left = own
    while left:
        low = left & -left
        group = geo.flood(low, own)
        if all(group & geo.edge_bits[edge] for edge in goals):
            return Score(winner, position.over_reason(), tuple(geo.cells_of(group)))
        left &= ~group
    raise AssertionError("the winner has no winning group")  # pragma: no cover
