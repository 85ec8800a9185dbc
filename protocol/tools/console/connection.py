"""Hex and Y (any connection board of hexagonal cells) on a terminal, drawn
from the board's geometry as the SVG picture is
(:mod:`stargtp.protocol.pictures.connection`), never from the game's name.

Each cell is one character, two columns from its neighbours in its row,
each row one line and half a cell to the side of the one above, so the
board keeps its shape (Hex's rhombus, Y's triangle): ``.`` empty, ``X``
black, ``O`` white. The coordinates stand where the picture puts them:
column letters beyond an edge whose cells share a row, row numbers at the
ends of the rows, each in the colour of its edge's owner (black's edges
red, white's blue, an edge both must reach grey), so the edges show whose
they are. In colour the stones are red and blue, the last move is
underlined and the hint green; once the game is won the winning group is
highlighted. In plain text the last move is bracketed ``(X)`` and the hint
is ``?``. The status under the board says which edges each side joins, who
moves or who won, the last move and the hint. A 19x19 Hex board is 62
columns wide and 21 lines high (Y's side 19: 45 by 20); when the terminal is
too low for the board, its status and the prompt, the second line of
letters goes.
"""

from __future__ import annotations

import math
from typing import Any

from stargtp.engine.colour import BLACK, EMPTY, WHITE, colour_name
from stargtp.protocol.pictures.connection import Frame, board_frame
from stargtp.protocol.tools import plural
from stargtp.protocol.tools.console.drawing import HINT_STYLE, Fragments, TerminalBoard, grid_fragments, style, wrap_parts

STYLES: dict[str, str] = {
    "hint": HINT_STYLE,
    "cell-empty": "#8a8a8a",
    "cell-black": "#ff7b7b bold",
    "cell-white": "#7ba7ff bold",
    "edge-black": "#ff7b7b",
    "edge-white": "#7ba7ff",
    "edge-neutral": "#a0a0a0",
    "winning": "bg:#2f5f2f",
    "last": "underline",
}

MARKS = {EMPTY: ".", BLACK: "X", WHITE: "O"}
"""Each cell's character (in colour and in plain text)."""

Grid = dict[tuple[int, int], tuple[str, str]]
"""``(row, column) -> (style, character)``: the board's characters, rows and
columns from anywhere (they are shifted to start at 0 when drawn)."""


def position_frame(position) -> Frame:
    """The frame of ``position``'s board (a one-cell board borrows its
    edges' directions from its game's two-cell board)."""
    def board_of(size: int):
        return position.geometry if size == position.size else position.rules.new_position(size).geometry

    return board_frame(board_of, position.size)[1]


def _grid(position, *, plain: bool, hint: Any, letter_lines: int | None) -> Grid:
    """The board's characters; ``letter_lines`` limits the edges whose
    letters get a line of their own (None: every one)."""
    geo = position.geometry
    outline = position_frame(position)
    left = min(cell.x for cell in geo.cells)

    def column_of(cell) -> int:
        return round(2 * (cell.x - left))

    last = position.history[-1][1] if position.history else None
    winning: set[int] = set()
    if not plain and position.is_over():
        winning = set(position.rules.score(position, 0.0).group)
    grid: Grid = {}
    for cell in geo.cells:
        colour = position.board[cell.index]
        row, column = cell.row, column_of(cell)
        names = [f"cell-{colour_name(colour)}" if colour != EMPTY else "cell-empty"]
        if cell.index == hint:
            names = ["hint"]
        elif cell.index in winning:
            names.append("winning")
        if cell.index == last and not plain:
            names.append("last")
        mark = "?" if plain and cell.index == hint else MARKS[colour]
        grid[row, column] = (style(*names), mark)
        if plain and cell.index == last:
            grid[row, column - 1], grid[row, column + 1] = ("", "("), ("", ")")
    letter_edges = 0
    for edge in outline.edges:
        owner = colour_name(edge.owners[0]) if len(edge.owners) == 1 else "neutral"
        look = "" if plain else style(f"edge-{owner}")
        nx, ny = edge.normal
        if edge.letters:
            letter_edges += 1
            if letter_lines is not None and letter_edges > letter_lines:
                continue
        for index in edge.cells:
            cell = geo.cells[index]
            row, column = cell.row, column_of(cell)
            if edge.letters:
                place = [(row + round(math.copysign(1, ny)), column + round(2 * nx), cell.label[0])]
            else:
                text = cell.label[1:]
                start = column + 3 if nx > 0 else column - 2 - len(text)
                place = [(row, start + offset, char) for offset, char in enumerate(text)]
            for at_row, at_column, char in place:
                grid.setdefault((at_row, at_column), (look, char))
    return grid


def _lines(grid: Grid) -> list[list[tuple[str, str]]]:
    """The grid's rows, shifted to start at row and column 0, trailing blanks dropped."""
    top = min(row for row, _ in grid)
    first = min(column for _, column in grid)
    height = max(row for row, _ in grid) - top + 1
    lines: list[list[tuple[str, str]]] = [[] for _ in range(height)]
    for (row, column), piece in sorted(grid.items()):
        line = lines[row - top]
        line.extend([("", " ")] * (column - first - len(line)))
        line.append(piece)
    return lines


def status(position, hint: Any = None) -> list[str]:
    """The status in parts for :func:`wrap_parts`: which edges each side
    joins, who moves (or who joined what), the last move, the hint."""
    goals = position.geometry.goals

    def joined(edges) -> str:
        return ", ".join(edges[:-1]) + " and " + edges[-1] if len(edges) > 1 else edges[0]

    if goals[BLACK] == goals[WHITE]:
        parts = [f"black (X) and white (O) each join {joined(goals[BLACK])}"]
    else:
        parts = [f"{colour_name(c)} ({MARKS[c]}) joins {joined(goals[c])}" for c in (BLACK, WHITE)]
    report = position.rules.score(position, 0.0)
    if report.winner is not None:
        parts.append(f"game over: {report.reason}")
    else:
        parts.append(f"{colour_name(position.to_move)} to move")
    if position.history:
        colour, move = position.history[-1]
        parts.append(f"last: {colour_name(colour)} {position.format_move(move)}")
    if hint is not None:
        parts.append(f"hint: {position.format_move(hint)}")
    return parts


def picture(position, *, plain: bool, columns: int = 200, rows: int | None = None,
            hint: Any = None, komi: float = 0.0) -> Fragments:
    """The board for a terminal ``columns`` wide and ``rows`` high (None: as
    high as it takes), leaving a row for the prompt, then its status (see
    the module docstring); ``hint`` is a cell to show."""
    status_lines = wrap_parts(status(position, hint), columns)
    cell = hint if hint is not None and 0 <= hint < position.geometry.cell_count else None  # not swap-pieces
    lines = _lines(_grid(position, plain=plain, hint=cell, letter_lines=None))
    if rows is not None and len(lines) + len(status_lines) + 1 > rows:
        lines = _lines(_grid(position, plain=plain, hint=cell, letter_lines=1))
    fragments = grid_fragments(lines)
    fragments.append((style("info"), "\n".join(status_lines)))
    return fragments


def complete(position, prefix: str) -> list[str]:
    """The labels of the empty cells that start with ``prefix``, and
    ``swap-pieces`` where the swap is a legal move."""
    texts = (position.format_move(move) for move in position.legal_moves())
    return [text for text in texts if text.lower().startswith(prefix)]


def list_moves(position) -> str:
    moves = position.legal_moves()
    cells = [m for m in moves if 0 <= m < position.geometry.cell_count]
    text = f"{plural(len(cells), 'empty cell')}: " + " ".join(position.format_move(m) for m in cells)
    others = [position.format_move(m) for m in moves if m not in cells]
    return text + "".join(f", or {other}" for other in others)


def board(game: Any) -> TerminalBoard:
    """The terminal board of the connection game ``game`` (its descriptor)."""
    def heading(size: int) -> str:
        return f"{game.title}, {size} {game.size_word}"

    return TerminalBoard(picture, complete, list_moves, heading, STYLES)
