"""*Star drawn: where each cell stands, in ring units and on a character grid,
and the board as plain text.

Ring ``k`` is a regular pentagon of radius ``k`` with its corners on the five
arm directions (``*`` at the top, then ``S T A R`` clockwise); a cell at
offset ``y`` of arm ``s`` sits ``y/k`` of the way along the pentagon edge from
corner ``s`` to corner ``s+1``. The SVG pictures, the ``stargtp-geometry``
coordinates, the console and ``showboard`` all stand the cells there.

>>> [tuple(round(v, 3) for v in xy) for xy in star_layout(2)[:1]]
[(0.0, -1.0)]
"""

from __future__ import annotations

import math
from functools import lru_cache

from stargtp.engine.colour import BLACK, EMPTY
from stargtp.engine.star.geometry import geometry
from stargtp.engine.star.scoring import score


@lru_cache(maxsize=None)
def star_layout(rings: int) -> tuple[tuple[float, float], ...]:
    """The drawing position of every cell (board order) in ring units: the
    centre at (0, 0), ``y`` growing downwards, ring ``k`` on the pentagon of
    radius ``k`` whose first corner (arm ``*``) points straight up."""
    geo = geometry(rings)
    layout = []
    for cell in range(geo.cell_count):
        ring, position = geo.ring_of[cell], geo.position_of[cell]
        arm, offset = divmod(position, ring)
        x0, y0 = corner_point(ring, arm)
        x1, y1 = corner_point(ring, arm + 1)
        t = offset / ring
        layout.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
    return tuple(layout)


def corner_point(radius: float, arm: int) -> tuple[float, float]:
    """Corner ``arm`` of the pentagon of ``radius`` (arm 0, ``*``, straight up)."""
    angle = math.radians(-90 + 72 * arm)
    return radius * math.cos(angle), radius * math.sin(angle)


# -- the character grid ---------------------------------------------------------

ROWS_PER_RING = 1.5
"""Terminal rows per ring unit. Terminal cells are about twice as tall as
wide, so columns are stretched more; the column scale is the smallest one at
which no two cell tokens on a row touch."""

COMPACT_ROWS_PER_RING = 1.25
COMPACT_COLUMNS_PER_RING = 3.9
"""The scales of the compact labelled board, drawn when the full one does not
fit the terminal: the 10-ring board is 77 columns by 23 rows, so with its
status in the corners and the prompt under it, it fits an 80x24 terminal."""

LABEL_WIDTH = 3
"""A *Star cell label: arm, ring digit, offset digit (``S43``)."""

STAR_LAYOUTS = ("full", "compact", "dots")
"""The ways to draw a *Star board, most preferred first: every label in the
board's true shape; every label, squeezed; one character per cell."""

Grid = tuple[tuple[tuple[int, int], ...], int, int]
"""Where each cell's token goes, ``(row, column)`` of its first character,
then the grid's width and height."""


@lru_cache(maxsize=None)
def star_grid(rings: int, token_width: int) -> Grid:
    """Where each cell's token goes on a character grid: ``(row, column)`` of
    its first character per cell, then the grid's width and height. The cells
    stand where :func:`star_layout` puts them, rounded to the
    grid; tokens on one row are at least one space apart, and every row holds
    a cell."""
    layout = star_layout(rings)
    columns_per_unit = 1.0
    while True:
        placed = [(round(y * ROWS_PER_RING), round(x * columns_per_unit) - token_width // 2)
                  for x, y in layout]
        by_row: dict[int, list[int]] = {}
        for row, column in placed:
            by_row.setdefault(row, []).append(column)
        if all(b - a > token_width for columns in by_row.values()
               for a, b in zip(sorted(columns), sorted(columns)[1:])):
            break
        columns_per_unit += 0.1
    return _normalised(placed, token_width)


@lru_cache(maxsize=None)
def compact_star_grid(rings: int) -> Grid:
    """The labelled board squeezed to :data:`COMPACT_ROWS_PER_RING` rows and
    :data:`COMPACT_COLUMNS_PER_RING` columns per ring unit. Where labels on a
    row would touch, they are pushed apart as little as possible (least
    squares, keeping their order), so the shape bends a little but every label
    stays whole, one space from the next."""
    step = LABEL_WIDTH + 1
    by_row: dict[int, list[tuple[float, int]]] = {}
    for cell, (x, y) in enumerate(star_layout(rings)):
        by_row.setdefault(round(y * COMPACT_ROWS_PER_RING), []).append((x, cell))
    placed: list[tuple[int, int]] = [(0, 0)] * len(star_layout(rings))
    for row, items in by_row.items():
        items.sort()
        # With d_i = column_i - i * step the constraint column_{i+1} - column_i >= step
        # reads d non-decreasing: fit d to the ideal columns, then round (rounding
        # keeps d non-decreasing, so the labels stay apart).
        fitted = _non_decreasing_fit([x * COMPACT_COLUMNS_PER_RING - index * step
                                      for index, (x, _) in enumerate(items)])
        for index, ((_, cell), value) in enumerate(zip(items, fitted)):
            placed[cell] = (row, round(value) + index * step)
    return _normalised(placed, LABEL_WIDTH)


def _non_decreasing_fit(values: list[float]) -> list[float]:
    """The non-decreasing sequence closest to ``values`` in least squares
    (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [total, count]
    for value in values:
        blocks.append([value, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    fitted: list[float] = []
    for total, count in blocks:
        fitted += [total / count] * int(count)
    return fitted


def _normalised(placed: list[tuple[int, int]], token_width: int) -> Grid:
    """Rows renumbered from 0 and columns from the leftmost token. Rows that no
    cell rounds to are dropped: a blank line inside the board would read as
    its end."""
    rows = {row: index for index, row in enumerate(sorted({row for row, _ in placed}))}
    left = min(column for _, column in placed)
    cells = tuple((rows[row], column - left) for row, column in placed)
    width = max(column for _, column in cells) + token_width
    height = max(row for row, _ in cells) + 1
    return cells, width, height


def layout_grid(rings: int, layout: str) -> tuple[Grid, int]:
    """The grid of one of :data:`STAR_LAYOUTS`, and its token width."""
    if layout == "compact":
        return compact_star_grid(rings), LABEL_WIDTH
    width = 1 if layout == "dots" else LABEL_WIDTH
    return star_grid(rings, width), width


# -- the board as plain text ------------------------------------------------------

TEXT_WIDTH = 80
"""``showboard`` draws the board in its true shape when that fits this many
columns, else squeezed (:func:`compact_star_grid`): every size fits."""


def text_tokens(position, hint: int | None = None) -> list[str]:
    """What :func:`text_picture` draws at each cell (board order), three
    characters: an empty cell's label, `` X `` (black) or `` O `` (white),
    ``[X]`` the last move, `` x ``/`` o `` a dead stone once the game is over,
    ``(?)`` the ``hint``."""
    geo = position.geometry
    dead: set[int] = set()
    if position.is_over():
        dead = {cell for group in score(position).dead_groups for cell in group}
    last = position.history[-1][1] if position.history else None
    tokens = []
    for cell in range(geo.cell_count):
        colour = position.board[cell]
        mark = "X" if colour == BLACK else "O"
        if cell == hint:
            tokens.append("(?)")
        elif colour == EMPTY:
            tokens.append(geo.labels[cell])
        elif cell in dead:
            tokens.append(f" {mark.lower()} ")
        elif cell == last:
            tokens.append(f"[{mark}]")
        else:
            tokens.append(f" {mark} ")
    return tokens


def text_picture(position, layout: str | None = None, hint: int | None = None) -> list[str]:
    """The board on a character grid, one string per row, each cell drawn as
    :func:`text_tokens` says. ``layout`` is ``full`` or ``compact`` (None: the
    full one when it fits :data:`TEXT_WIDTH` columns)."""
    geo = position.geometry
    if layout is None:
        layout = "full" if star_grid(geo.rings, LABEL_WIDTH)[1] <= TEXT_WIDTH else "compact"
    (cells, width, height), _ = layout_grid(geo.rings, layout)
    grid = [[" "] * width for _ in range(height)]
    for cell, text in enumerate(text_tokens(position, hint)):
        row, column = cells[cell]
        grid[row][column:column + LABEL_WIDTH] = text
    return ["".join(line).rstrip() for line in grid]


def text_legend(position, hint: int | None = None) -> str:
    """One line naming every kind of symbol :func:`text_picture` draws for
    ``position`` (and only those), in the order of :data:`LEGEND`; at most 79
    characters, as a hint and dead stones are never drawn together.

    >>> from stargtp.engine.star import Position
    >>> board = Position(2)
    >>> board.play(board.parse_move("S20"))
    >>> text_legend(board)
    '[X] last move, labels: empty cells'
    """
    drawn = {token.strip() if token.strip() in LEGEND_MARKS else LABEL for token in text_tokens(position, hint)}
    parts = []
    for marks, meaning in LEGEND:
        shown = [mark for mark in marks if mark in drawn]
        if shown:
            parts.append(f"{' '.join(shown)} {meaning}")
    return ", ".join(parts)


LABEL = "labels:"
"""How a legend names the cell labels (the empty cells)."""


LEGEND: tuple[tuple[tuple[str, ...], str], ...] = (
    (("X",), "black"),
    (("O",), "white"),
    (("[X]", "[O]"), "last move"),
    (("x", "o"), "dead stones"),
    (("(?)",), "hint"),
    ((LABEL,), "empty cells"),
)
"""What each symbol of :func:`text_picture` means, in the order a legend names them."""

LEGEND_MARKS = frozenset(mark for marks, _ in LEGEND for mark in marks) - {LABEL}
