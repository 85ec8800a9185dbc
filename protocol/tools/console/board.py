"""The board on a terminal, whatever the game: :data:`BOARDS` is the one
table that finds a game's terminal board (:mod:`protocol.tools.console.star`,
:mod:`protocol.tools.console.amazons`) by the game's name."""

from __future__ import annotations

from typing import Any

from protocol.tools.console import amazons, star
from protocol.tools.console.drawing import Fragments, TerminalBoard

BOARDS: dict[str, TerminalBoard] = {
    "star": star.BOARD,
    "amazons": amazons.BOARD,
}
"""Every game's terminal board, by the game's name."""


def board_for(position: Any) -> TerminalBoard:
    """The terminal board of ``position``'s game; ValueError for a game without one."""
    try:
        return BOARDS[position.game]
    except KeyError:
        raise ValueError(f"no terminal board for the game {position.game!r}") from None


def board_picture(position: Any, *, plain: bool, columns: int = 200, rows: int | None = None,
                  hint: Any = None, komi: float = 0.0) -> Fragments:
    """The board of ``position`` for a terminal ``columns`` wide and ``rows``
    high (None: as high as it takes), leaving a row for the prompt, then its
    status; ``hint`` is a move to mark."""
    return board_for(position).picture(position, plain=plain, columns=columns, rows=rows,
                                       hint=hint, komi=komi)


def board_styles() -> dict[str, str]:
    """The style rules of every game's board (a class two games share keeps
    its first place)."""
    rules: dict[str, str] = {}
    for board in BOARDS.values():
        rules.update(board.styles)
    return rules
