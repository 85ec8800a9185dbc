"""The board on a terminal, whatever the game: :data:`BOARDS` is the one
table that finds a game's terminal board (:mod:`stargtp.protocol.tools.console.star`,
:mod:`stargtp.protocol.tools.console.amazons`, :mod:`stargtp.protocol.tools.console.connection`
for Hex and Y) by the game's name."""

from __future__ import annotations

from typing import Any

from stargtp.engine.hex import HEX
from stargtp.engine.y import Y
from stargtp.protocol.tools.console import amazons, connection, star
from stargtp.protocol.tools.console.drawing import Fragments, TerminalBoard

BOARDS: dict[str, TerminalBoard] = {
    "star": star.BOARD,
    "amazons": amazons.BOARD,
    "hex": connection.board(HEX),
    "y": connection.board(Y),
}
"""Every game's terminal board, by the game's name."""


def _plain_picture(position: Any, *, plain: bool, columns: int = 200, rows: int | None = None,
                   hint: Any = None, komi: float = 0.0) -> Fragments:
    text = position.render_text()
    if hint is not None:
        text += f"\nhint: {position.format_move(hint)}"
    return [("", text + "\n")]


def _plain_complete(position: Any, prefix: str) -> list[str]:
    texts = (position.format_move(move) for move in position.legal_moves())
    return [text for text in texts if text.lower().startswith(prefix)]


def _plain_moves(position: Any) -> str:
    return " ".join(position.format_move(move) for move in position.legal_moves())


def _plain_heading(size: int) -> str:
    return f"size {size}"


PLAIN_BOARD = TerminalBoard(_plain_picture, _plain_complete, _plain_moves, _plain_heading, {})
"""A game without a terminal board of its own: its ``render_text`` picture,
its legal moves as text."""


def board_for(position: Any) -> TerminalBoard:
    """The terminal board of ``position``'s game; for a game without one, the
    game's own text picture (:data:`PLAIN_BOARD`)."""
    return BOARDS.get(position.game, PLAIN_BOARD)


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
