"""*Star on a terminal: the board in its true shape, a cell label at each
cell's place (as :func:`stargtp.engine.star.diagram.star_layout` puts it), with
the stars' owned pericells, the quarks, the last move and the hint marked;
the completion of cell labels; the list of the empty cells.

The board comes in three layouts (:data:`stargtp.engine.star.diagram.STAR_LAYOUTS`),
and the status in a
line below it or in its empty corners: :func:`choose_star_layout` picks the
first that fits the terminal, so that the default 10-ring board is whole and
labelled on 80x24.
"""

from __future__ import annotations

from typing import Any

from stargtp.engine.colour import BLACK, EMPTY, WHITE, colour_name
from stargtp.engine.star.diagram import STAR_LAYOUTS, layout_grid, text_legend, text_picture
from stargtp.protocol.tools.console.drawing import HINT_STYLE, Fragments, TerminalBoard, grid_fragments, style, wrap_parts
from stargtp.protocol.tools import plural

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

COLOUR_MARKS = {BLACK: "red", WHITE: "blue"}
"""How the labelled board in colour shows each side's stones: the label on a
red (black) or blue (white) background, the colours the seed article uses."""

TEXT_MARKS = {BLACK: "X", WHITE: "O"}
"""How plain text and the one-character-a-cell board show each side's stones."""


def stone_marks(plain: bool, layout: str) -> dict[int, str]:
    """What the status names each side's stones by, as the board draws them:
    :data:`TEXT_MARKS` in plain text and the ``dots`` layout, else :data:`COLOUR_MARKS`."""
    return TEXT_MARKS if plain or layout == "dots" else COLOUR_MARKS


def star_picture(position, *, plain: bool, layout: str = "full", status_in_corners: bool = False,
                 hint: Any = None, komi: float = 0.0, columns: int = 200) -> Fragments:
    """The *Star board drawn on a character grid, then the status, in lines
    of at most ``columns`` characters.

    In colour, every cell shows its label: grey when empty, in the owner's
    colour when it is a pericell a star owns, on a red (black) or blue (white)
    background for a stone; quark corners are underlined, the last move too,
    dead stones turn grey once the game is over and the hint is green.
    ``layout`` is one of :data:`STAR_LAYOUTS`: ``compact`` squeezes the
    labelled board, ``dots`` draws one character per cell (`` X ``, ``O``).
    The status names each side by its stones' look (``black (red)``, or
    ``black (X)`` where ``X`` is drawn). With ``status_in_corners`` the status
    goes into the board's empty corners instead of lines below (when it fits
    there). In ``plain`` text (``full`` or ``compact`` only) the cells are
    :func:`stargtp.engine.star.diagram.text_tokens`, and a legend line
    (:func:`stargtp.engine.star.diagram.text_legend`) follows the board.
    """
    marks = stone_marks(plain, layout)
    if plain:
        lines = text_picture(position, layout, hint) + [text_legend(position, hint)]
        lines += wrap_parts(star_status(position, komi, marks), columns)
        return [("", "\n".join(lines[:-1]) + "\n"), (style("info"), lines[-1])]
    geo = position.geometry
    analysis = position.rules.score(position, komi)
    owner = {cell: star.colour for star in analysis.stars for cell in star.pericells}
    dead = {cell for group in analysis.dead_groups for cell in group} if position.is_over() else set()
    last = position.history[-1][1] if position.history else None
    (cells, width, height), token_width = layout_grid(geo.rings, layout)
    grid: list[list[tuple[str, str]]] = [[("", " ")] * width for _ in range(height)]
    for cell in range(geo.cell_count):
        row, column = cells[cell]
        colour = position.board[cell]
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
            text = "·" if colour == EMPTY else marks[colour]
        else:
            text = geo.labels[cell]
        for offset, char in enumerate(text):
            grid[row][column + offset] = (look, char)
    placement = None
    if status_in_corners:
        texts = star_corner_texts(position, komi, hint, marks)
        placement = corner_placement(cells, width, height, token_width, texts)
    for row, column, text in placement or ():
        for offset, char in enumerate(text):
            grid[row][column + offset] = (style("info"), char)
    fragments = grid_fragments(grid)
    if placement is None:
        fragments.append((style("info"), "\n".join(wrap_parts(star_status(position, komi, marks), columns))))
    elif fragments:
        fragments.pop()  # the board's last newline: the status line it ended is not there
    return fragments


def star_status(position, komi: float = 0.0, marks: dict[int, str] = TEXT_MARKS) -> list[str]:
    """The status, in parts for :func:`wrap_parts`: each colour's stars, peris
    and quarks now (each side named with its stones' ``marks``), the result
    so far and the last move."""
    analysis = position.rules.score(position, komi)
    parts = []
    for colour in (BLACK, WHITE):
        totals = analysis.of(colour)
        parts.append(f"{colour_name(colour)} ({marks[colour]}): {plural(totals.stars, 'star')}, "
                     f"{plural(totals.peris, 'peri')}, {plural(totals.quarks, 'quark')}")
    parts.append(f"score {analysis.gtp_result()}")
    if position.history:
        colour, move = position.history[-1]
        parts.append(f"last: {colour_name(colour)} {position.format_move(move)}")
    return parts


CornerTexts = dict[str, list[str]]
"""Lines of text for the corners of a board: ``top-left``, ``top-right``,
``bottom-left`` and ``bottom-right``."""


def star_corner_texts(position, komi: float = 0.0, hint: Any = None,
                      marks: dict[int, str] = TEXT_MARKS) -> CornerTexts:
    """What :func:`star_status` says, as short lines for the board's corners:
    black's tally top left, white's top right, the score (after the hint, if
    any) bottom left and the last move bottom right."""
    analysis = position.rules.score(position, komi)
    texts: CornerTexts = {}
    for colour, corner in ((BLACK, "top-left"), (WHITE, "top-right")):
        totals = analysis.of(colour)
        texts[corner] = [f"{colour_name(colour)} ({marks[colour]})", plural(totals.stars, "star"),
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
    the prompt under it, with the status lines below it or, when that is too
    many rows, in the board's corners; and whether the status goes into the
    corners. When none fits, the labelled layout with the fewest rows that
    fits the width (else one character per cell): the board scrolls."""
    rings = position.geometry.rings
    fitting: list[tuple[bool, int, str, bool]] = []
    for layout in STAR_LAYOUTS:
        (cells, width, height), token_width = layout_grid(rings, layout)
        if width > columns:
            continue
        marks = stone_marks(False, layout)
        status_rows = len(wrap_parts(star_status(position, komi, marks), columns))
        texts = star_corner_texts(position, komi, hint, marks)
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


def plain_layout(position, columns: int) -> str:
    """The plain-text layout: the board's true shape when it fits ``columns``, else squeezed."""
    return "full" if layout_grid(position.geometry.rings, "full")[0][1] <= columns else "compact"


def picture(position, *, plain: bool, columns: int = 200, rows: int | None = None,
            hint: Any = None, komi: float = 0.0) -> Fragments:
    """The board for a terminal ``columns`` wide and ``rows`` high, leaving a
    row for the prompt (see :func:`choose_star_layout`); in plain text the
    full layout when it fits ``columns``, else the compact one, with a legend
    and the status below."""
    if plain:
        return star_picture(position, plain=True, layout=plain_layout(position, columns), hint=hint,
                            komi=komi, columns=columns)
    layout, in_corners = choose_star_layout(position, columns, rows, komi, hint)
    return star_picture(position, plain=False, layout=layout, status_in_corners=in_corners,
                        hint=hint, komi=komi, columns=columns)


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
