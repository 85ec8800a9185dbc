"""*Star on a terminal: the board in its true shape, a cell label at each
cell's place (as :func:`protocol.pictures.star.star_layout` puts it), with
the stars' owned pericells, the quarks, the last move and the hint marked;
the completion of cell labels; the list of the empty cells.

The board comes in three layouts (:data:`STAR_LAYOUTS`), and the status in a
line below it or in its empty corners: :func:`choose_star_layout` picks the
first that fits the terminal, so that the default 10-ring board is whole and
labelled on 80x24.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.colour import BLACK, EMPTY, WHITE, colour_name
from protocol.pictures.star import star_layout
from protocol.tools.console.drawing import HINT_STYLE, Fragments, TerminalBoard, plural, style

STYLES: dict[str, str] = {
    "empty": "#8a8a8a",
    "quark": "underline",
    "owned-black": "#ff7b7b bold",
    "owned-white": "#7ba7ff bold",
    "stone-black": "bg:#b22222 #ffffff bold",
    "stone-white": "bg:#1f4fbf #ffffff bold",
    "dead": "bg:#5a5a5a #d0d0d0",
    "last": "underline",
    "hint": HINT_STYLE,
}

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
    stand where :func:`protocol.pictures.star.star_layout` puts them, rounded to the
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


def star_picture(position, *, plain: bool, layout: str = "full", status_in_corners: bool = False,
                 hint: Any = None, komi: float = 0.0) -> Fragments:
    """The *Star board drawn on a character grid, then one status line.

    In colour, every cell shows its label: grey when empty, in the owner's
    colour when it is a pericell a star owns, on a red (black) or blue (white)
    background for a stone; quark corners are underlined, the last move too,
    dead stones turn grey once the game is over and the hint is green.
    ``layout`` is one of :data:`STAR_LAYOUTS`: ``compact`` squeezes the
    labelled board, ``dots`` draws one character per cell. With
    ``status_in_corners`` the status goes into the board's empty corners
    instead of a line below (when it fits there). In ``plain`` text, always
    the full layout, stones are `` X `` (black) and `` O `` (white), ``[X]``
    the last move, `` x ``/`` o `` dead stones, ``(?)`` the hint.
    """
    geo = position.geometry
    analysis = position.rules.score(position, komi)
    owner = {cell: star.colour for star in analysis.stars for cell in star.pericells}
    dead = {cell for group in analysis.dead_groups for cell in group} if position.is_over() else set()
    last = position.history[-1][1] if position.history else None
    layout = "full" if plain else layout
    (cells, width, height), token_width = layout_grid(geo.rings, layout)
    grid: list[list[tuple[str, str]]] = [[("", " ")] * width for _ in range(height)]
    for cell in range(geo.cell_count):
        row, column = cells[cell]
        colour = position.board[cell]
        label = geo.labels[cell]
        if plain:
            if cell == hint:
                text = "(?)"
            elif colour == EMPTY:
                text = label
            elif cell in dead:
                text = " x " if colour == BLACK else " o "
            elif cell == last:
                text = "[X]" if colour == BLACK else "[O]"
            else:
                text = " X " if colour == BLACK else " O "
            look = ""
        else:
            names = []
            if cell == hint:
                names.append("hint")
            elif colour == EMPTY:
                names.append(f"owned-{colour_name(owner[cell])}" if cell in owner else "empty")
            else:
                names.append("dead" if cell in dead else f"stone-{colour_name(colour)}")
            if geo.is_corner[cell]:
                names.append("quark")
            if cell == last:
                names.append("last")
            look = style(*names)
            if token_width == 1:
                text = "·" if colour == EMPTY else ("X" if colour == BLACK else "O")
            else:
                text = label
        for offset, char in enumerate(text):
            grid[row][column + offset] = (look, char)
    placement = None
    if status_in_corners:
        texts = star_corner_texts(position, komi, hint)
        placement = corner_placement(cells, width, height, token_width, texts)
    for row, column, text in placement or ():
        for offset, char in enumerate(text):
            grid[row][column + offset] = (style("info"), char)
    fragments: Fragments = []
    for line in grid:
        # Merge runs of one style; trailing blanks are dropped.
        while line and line[-1] == ("", " "):
            line = line[:-1]
        for look, char in line:
            if fragments and fragments[-1][0] == look and not fragments[-1][1].endswith("\n"):
                fragments[-1] = (look, fragments[-1][1] + char)
            else:
                fragments.append((look, char))
        fragments.append(("", "\n"))
    if placement is None:
        fragments.append((style("info"), star_status(position, komi)))
    elif fragments:
        fragments.pop()  # the board's last newline: the status line it ended is not there
    return fragments


def star_status(position, komi: float = 0.0) -> str:
    """One line: each colour's stars, peris and quarks now, the result so far
    and the last move."""
    analysis = position.rules.score(position, komi)
    parts = []
    for colour, mark in ((BLACK, "X"), (WHITE, "O")):
        totals = analysis.of(colour)
        parts.append(f"{colour_name(colour)} ({mark}): {plural(totals.stars, 'star')}, "
                     f"{plural(totals.peris, 'peri')}, {plural(totals.quarks, 'quark')}")
    text = " | ".join(parts) + f" | score {analysis.gtp_result()}"
    if position.history:
        colour, move = position.history[-1]
        text += f" | last: {colour_name(colour)} {position.format_move(move)}"
    return text


CornerTexts = dict[str, list[str]]
"""Lines of text for the corners of a board: ``top-left``, ``top-right``,
``bottom-left`` and ``bottom-right``."""


def star_corner_texts(position, komi: float = 0.0, hint: Any = None) -> CornerTexts:
    """What :func:`star_status` says, as short lines for the board's corners:
    black's tally top left, white's top right, the score (after the hint, if
    any) bottom left and the last move bottom right."""
    analysis = position.rules.score(position, komi)
    texts: CornerTexts = {}
    for colour, mark, corner in ((BLACK, "X", "top-left"), (WHITE, "O", "top-right")):
        totals = analysis.of(colour)
        texts[corner] = [f"{colour_name(colour)} ({mark})", plural(totals.stars, "star"),
                         plural(totals.peris, "peri"), plural(totals.quarks, "quark")]
    texts["bottom-left"] = ["score", analysis.gtp_result()]
    if hint is not None:
        texts["bottom-left"].insert(0, f"hint {position.format_move(hint)}")
    texts["bottom-right"] = []
    if position.history:
        colour, move = position.history[-1]
        texts["bottom-right"] = ["last", f"{colour_name(colour)} {position.format_move(move)}"]
    return texts


def corner_placement(cells: tuple[tuple[int, int], ...], width: int, height: int, token_width: int,
                     texts: CornerTexts) -> list[tuple[int, int, str]] | None:
    """``(row, column, text)`` for every line of ``texts`` in the empty
    corners of a grid, two spaces clear of the board; None when one does not
    fit (the board is too small, or a text too long)."""
    first = [width] * height
    end = [0] * height
    for row, column in cells:
        first[row] = min(first[row], column)
        end[row] = max(end[row], column + token_width)
    placement = []
    taken: set[tuple[int, bool]] = set()  # (row, left side): a top and a bottom text must not meet
    for corner, lines in texts.items():
        top, left = corner.startswith("top"), corner.endswith("left")
        if len(lines) > height:
            return None
        for index, text in enumerate(lines):
            row = index if top else height - len(lines) + index
            if left:
                column = 0
                fits = len(text) + 2 <= first[row]
            else:
                column = width - len(text)
                fits = column >= end[row] + 2
            if not fits or (row, left) in taken:
                return None
            taken.add((row, left))
            placement.append((row, column, text))
    return placement


def choose_star_layout(position, columns: int, rows: int | None, komi: float = 0.0,
                       hint: Any = None) -> tuple[str, bool]:
    """The first of :data:`STAR_LAYOUTS` that fits ``columns`` x ``rows`` with
    the prompt under it, with the status line below it or, when that is one
    row too many, in the board's corners; and whether the status goes into
    the corners. When none fits, the labelled layout with the fewest rows
    that fits the width (else one character per cell): the board scrolls."""
    rings = position.geometry.rings
    status_rows = -(-len(star_status(position, komi)) // max(columns, 1))
    texts = star_corner_texts(position, komi, hint)
    fitting: list[tuple[bool, int, str, bool]] = []
    for layout in STAR_LAYOUTS:
        (cells, width, height), token_width = layout_grid(rings, layout)
        if width > columns:
            continue
        corners = corner_placement(cells, width, height, token_width, texts) is not None
        if rows is None or height + status_rows + 1 <= rows:
            return layout, False
        if corners and height + 1 <= rows:
            return layout, True
        fitting.append((layout == "dots", height, layout, corners))
    if fitting:
        _, _, layout, corners = min(fitting)
        return layout, corners
    return "dots", False


def picture(position, *, plain: bool, columns: int = 200, rows: int | None = None,
            hint: Any = None, komi: float = 0.0) -> Fragments:
    """The board for a terminal ``columns`` wide and ``rows`` high, leaving a
    row for the prompt (see :func:`choose_star_layout`); in plain text always
    the full layout with the status below."""
    if plain:
        return star_picture(position, plain=True, hint=hint, komi=komi)
    layout, in_corners = choose_star_layout(position, columns, rows, komi, hint)
    return star_picture(position, plain=False, layout=layout, status_in_corners=in_corners,
                        hint=hint, komi=komi)


def complete(position, prefix: str) -> list[str]:
    """The labels of the empty cells that start with ``prefix``, and ``pass``."""
    labels = position.geometry.labels
    found = [labels[cell] for cell in position.legal_moves() if labels[cell].lower().startswith(prefix)]
    if "pass".startswith(prefix):
        found.append("pass")
    return found


def list_moves(position) -> str:
    moves = position.legal_moves()
    return f"{plural(len(moves), 'empty cell')}, and pass: " + " ".join(position.format_move(m) for m in moves)


def heading(size: int) -> str:
    return f"*Star, {size} rings"


BOARD = TerminalBoard(picture, complete, list_moves, heading, STYLES)
