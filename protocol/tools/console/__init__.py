"""``stargtp play``: a human against the engine, or a raw protocol console.

**Human against the engine** (the default). The console starts ``stargtp
serve`` as a subprocess (or talks to ``--vs ENGINE``, any command line or
``tcp:HOST:PORT``) and speaks the protocol to it through
:class:`protocol.controller.GtpController`. It keeps its own position with
the rules core: the human's input is checked there before it is sent, the
engine's answers are played there (an answer the rules reject ends the
session: console and engine no longer agree), and the board is drawn from
it after every move. At the end the *Star score is broken down in all three
systems (:func:`engine.star.scoring.score`).

**Raw console** (``--engine CMD`` or ``--connect HOST:PORT``). Every line
typed is sent as a command and the answer printed as the protocol frames it
(``=id result`` and a blank line). The console follows ``game``,
``boardsize``, ``clear_board``, ``play``, ``genmove`` and ``undo`` in a
position of its own, so it can complete legal vertices and draw the board.

On a terminal the console uses prompt_toolkit: Tab completes command names,
colours and the moves legal now; the history is kept across runs in
``~/.stargtp_history`` (``--history FILE`` or ``$STARGTP_HISTORY`` to move
it); the board is coloured. When stdin or stdout is not a terminal the
console reads plain lines instead, draws without colour and echoes each
line after its prompt, so a scripted session reads as a transcript.
docs/console.md is the user's guide.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TextIO

from engine.colour import BLACK, EMPTY, WHITE, colour_name, opponent, parse_colour
from engine.errors import GameError
from engine.games import DEFAULT_SIZE, GAMES, new_position
from engine.star import PASS
from engine.star.scoring import format_number
from engine.star.scoring import score as star_score
from engine.search import PLAYERS, make_player
from protocol.cli import OptionError, finite_float, positive_float, positive_int, report_option_error
from protocol.controller import (
    DEFAULT_COMMAND_TIMEOUT,
    ControllerError,
    EngineError,
    EngineSpec,
    GtpController,
)
from protocol.pictures import star_layout

Fragments = list[tuple[str, str]]
"""prompt_toolkit formatted text: ``(style, text)`` pairs."""

NO_LIMIT = 86400.0
"""Seconds allowed for an answer when no timeout is given: a day, i.e. none."""

HISTORY_ENVIRONMENT = "STARGTP_HISTORY"
DEFAULT_HISTORY = "~/.stargtp_history"

STYLE_RULES: dict[str, str] = {
    "empty": "#8a8a8a",
    "quark": "underline",
    "owned-black": "#ff7b7b bold",
    "owned-white": "#7ba7ff bold",
    "stone-black": "bg:#b22222 #ffffff bold",
    "stone-white": "bg:#1f4fbf #ffffff bold",
    "dead": "bg:#5a5a5a #d0d0d0",
    "last": "underline",
    "hint": "bg:#2e8b57 #ffffff bold",
    "amazon-black": "#ff7b7b bold",
    "amazon-white": "#7ba7ff bold",
    "arrow": "#d4a017 bold",
    "last-from": "bg:#4a4a4a",
    "last-to": "reverse",
    "coordinate": "#8a8a8a",
    "info": "#a0a0a0",
    "error": "#ff5f5f bold",
    "engine": "#e0c060",
    "title": "bold",
}

COLOUR_WORDS = ("black", "white", "b", "w")


def _style(*names: str) -> str:
    return " ".join(f"class:{name}" for name in names if name)


# -- the board on a terminal ------------------------------------------------------------


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
    stand where :func:`protocol.pictures.star_layout` puts them, rounded to the
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
    analysis = star_score(position, komi)
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
            style = ""
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
            style = _style(*names)
            if token_width == 1:
                text = "·" if colour == EMPTY else ("X" if colour == BLACK else "O")
            else:
                text = label
        for offset, char in enumerate(text):
            grid[row][column + offset] = (style, char)
    placement = None
    if status_in_corners:
        texts = star_corner_texts(position, komi, hint)
        placement = corner_placement(cells, width, height, token_width, texts)
    for row, column, text in placement or ():
        for offset, char in enumerate(text):
            grid[row][column + offset] = (_style("info"), char)
    fragments: Fragments = []
    for line in grid:
        # Merge runs of one style; trailing blanks are dropped.
        while line and line[-1] == ("", " "):
            line = line[:-1]
        for style, char in line:
            if fragments and fragments[-1][0] == style and not fragments[-1][1].endswith("\n"):
                fragments[-1] = (style, fragments[-1][1] + char)
            else:
                fragments.append((style, char))
        fragments.append(("", "\n"))
    if placement is None:
        fragments.append((_style("info"), star_status(position, komi)))
    elif fragments:
        fragments.pop()  # the board's last newline: the status line it ended is not there
    return fragments


def star_status(position, komi: float = 0.0) -> str:
    """One line: each colour's stars, peris and quarks now, the result so far
    and the last move."""
    analysis = star_score(position, komi)
    parts = []
    for colour, mark in ((BLACK, "X"), (WHITE, "O")):
        totals = analysis.of(colour)
        parts.append(f"{colour_name(colour)} ({mark}): {_plural(totals.stars, 'star')}, "
                     f"{_plural(totals.peris, 'peri')}, {_plural(totals.quarks, 'quark')}")
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
    analysis = star_score(position, komi)
    texts: CornerTexts = {}
    for colour, mark, corner in ((BLACK, "X", "top-left"), (WHITE, "O", "top-right")):
        totals = analysis.of(colour)
        texts[corner] = [f"{colour_name(colour)} ({mark})", _plural(totals.stars, "star"),
                         _plural(totals.peris, "peri"), _plural(totals.quarks, "quark")]
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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def amazons_picture(position, *, plain: bool, hint: Any = None) -> Fragments:
    """The Amazons board, rank 1 at the bottom: ``W``/``B`` amazons (blue and
    red in colour), ``x`` arrows; in colour the last move's squares and the
    hint's are highlighted. A status line follows."""
    from engine.amazons.geometry import ARROW

    geo = position.geometry
    size = geo.size
    last = position.history[-1][1] if position.history else None
    files = "    " + " ".join(geo.names[c][0] for c in range(size))
    fragments: Fragments = [(_style("coordinate"), files + "\n")]
    for rank in range(size, 0, -1):
        fragments.append((_style("coordinate"), f"{rank:2d}  "))
        for column in range(size):
            square = (rank - 1) * size + column
            contents = position.board[square]
            symbol = {EMPTY: ".", WHITE: "W", BLACK: "B", ARROW: "x"}[contents]
            names = []
            if contents in (BLACK, WHITE):
                names.append(f"amazon-{colour_name(contents)}")
            elif contents == ARROW:
                names.append("arrow")
            if hint is not None and square in hint:
                names.append("hint")
            elif last is not None and square == last[0]:
                names.append("last-from")
            elif last is not None and square in (last[1], last[2]):
                names.append("last-to")
            fragments.append(("" if plain else _style(*names), symbol))
            if column < size - 1:
                fragments.append(("", " "))
        fragments.append((_style("coordinate"), f"  {rank}\n"))
    fragments.append((_style("coordinate"), files + "\n"))
    status = f"{colour_name(position.to_move)} to move, {_plural(len(position.history), 'move')} played"
    if last is not None:
        status += f" | last: {colour_name(position.history[-1][0])} {position.format_move(last)}"
    if hint is not None:
        status += f" | hint: {position.format_move(hint)}"
    fragments.append((_style("info"), status))
    return fragments


def board_picture(position, *, plain: bool, columns: int = 200, rows: int | None = None,
                  hint: Any = None, komi: float = 0.0) -> Fragments:
    """The board of either game for a terminal ``columns`` wide and ``rows``
    high (None: as high as it takes), leaving a row for the prompt. *Star:
    see :func:`choose_star_layout`."""
    if position.game == "star":
        if plain:
            return star_picture(position, plain=True, hint=hint, komi=komi)
        layout, in_corners = choose_star_layout(position, columns, rows, komi, hint)
        return star_picture(position, plain=False, layout=layout, status_in_corners=in_corners,
                            hint=hint, komi=komi)
    hint_squares = None if hint is None else tuple(hint)
    return amazons_picture(position, plain=plain, hint=hint_squares)


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


def plain_text(fragments: Fragments) -> str:
    return "".join(text for _, text in fragments)


# -- the final score ----------------------------------------------------------------------


def star_score_report(position, komi: float = 0.0) -> list[str]:
    """The *Star score in all three systems, each star's owned pericells, the
    dead groups, and the result."""
    analysis = star_score(position, komi)
    label = position.geometry.labels
    lines = [f"score (komi {format_number(komi)}): conventional, simplified and Schmittberger",
             f"  {'':<7}{'stars':>6}{'peris':>6}{'quarks':>7}{'quark peri':>11}"
             f"{'conventional':>13}{'simplified':>11}{'Schmittberger':>14}"]
    for colour in (BLACK, WHITE):
        totals = analysis.of(colour)
        schmittberger = analysis.schmittberger[colour]
        lines.append(f"  {colour_name(colour):<7}{totals.stars:>6}{totals.peris:>6}{totals.quarks:>7}"
                     f"{totals.quark_peri:>11}{format_number(analysis.conventional[colour]):>13}"
                     f"{format_number(analysis.simplified[colour]):>11}"
                     f"{('+' if schmittberger > 0 else '') + format_number(schmittberger):>14}")
    for star in analysis.stars:
        cells = " ".join(label[c] for c in star.pericells)
        lines.append(f"  {colour_name(star.colour)} star: {_plural(len(star.pericells), 'peri')}, "
                     f"{_plural(star.quarks, 'quark')}: {cells}")
    if analysis.dead_groups:
        groups = ", ".join(" ".join(label[c] for c in group) for group in analysis.dead_groups)
        lines.append(f"  dead (not stars): {groups}")
    if analysis.winner is None:
        verdict = "a tie"
    else:
        verdict = f"{colour_name(analysis.winner)} wins"
        if analysis.margin == 0:
            verdict += " on quarks"
    lines.append(f"  result: {analysis.gtp_result()} ({verdict})")
    return lines


def amazons_score_report(position) -> list[str]:
    """The winner and margin of a finished or settled Amazons game, else the
    current territories (empty squares only one colour reaches)."""
    from engine.amazons.scoring import CannotScore, score, territory

    try:
        result = score(position)
        if result.winner is None:
            raise CannotScore(result.reason)
        lines = [f"result: {result.gtp_result()} ({colour_name(result.winner)} wins; {result.reason})"]
    except CannotScore as error:
        lines = [f"not decided yet ({error})"]
    areas = territory(position)
    lines.append(f"  territory: white {areas[WHITE]}, black {areas[BLACK]}")
    return lines


# -- completion ---------------------------------------------------------------------------


def move_completions(position, word: str, colour: int | None = None) -> list[str]:
    """The legal moves (for ``colour``, default the side to move) that start
    with ``word``, ignoring case. *Star: cell labels and ``pass``. Amazons are
    completed one part at a time: an amazon's square and ``-``, then the
    destination and ``/``, then the arrow's square."""
    if position.is_over():
        return []
    board = position
    if colour is not None and colour != position.to_move:
        board = position.copy()
        board.to_move = colour
    prefix = word.lower()
    if board.game == "star":
        labels = board.geometry.labels
        found = [labels[cell] for cell in board.legal_moves() if labels[cell].lower().startswith(prefix)]
        if "pass".startswith(prefix):
            found.append("pass")
        return found
    names = board.geometry.names
    moves = board.legal_moves()
    if "/" in prefix:
        candidates = [f"{names[m[0]]}-{names[m[1]]}/{names[m[2]]}" for m in moves]
    elif "-" in prefix:
        candidates = list(dict.fromkeys(f"{names[m[0]]}-{names[m[1]]}/" for m in moves))
    else:
        candidates = list(dict.fromkeys(f"{names[m[0]]}-" for m in moves))
    return [c for c in candidates if c.startswith(prefix)]


def _split_for_completion(text: str) -> tuple[list[str], str]:
    """The words before the cursor's word, and the (possibly empty) word itself."""
    words = text.split()
    if not text or text[-1].isspace():
        return words, ""
    return words[:-1], words[-1]


def _make_completer(source: Callable[[list[str], str], list[str]]):
    from prompt_toolkit.completion import Completer, Completion

    class ConsoleCompleter(Completer):
        """Completes the word at the cursor from ``source(words_before, word)``."""

        def get_completions(self, document, complete_event):
            before, word = _split_for_completion(document.text_before_cursor)
            for text in source(before, word):
                yield Completion(text, start_position=-len(word))

    return ConsoleCompleter()


def _matching(options: Iterable[str], word: str) -> list[str]:
    prefix = word.lower()
    return [option for option in options if option.lower().startswith(prefix)]


# -- input and output ---------------------------------------------------------------------


def history_path(option: str | None) -> str:
    """``--history`` if given, else ``$STARGTP_HISTORY``, else ``~/.stargtp_history``."""
    return os.path.expanduser(option or os.environ.get(HISTORY_ENVIRONMENT) or DEFAULT_HISTORY)


class LineUI:
    """Plain line mode, for when stdin or stdout is not a terminal: one line
    read at a time, echoed after its prompt (when ``echo``); no colour."""

    plain = True

    def __init__(self, stdin: TextIO, stdout: TextIO, echo: bool = True) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.echo = echo
        self.columns = 200
        self.rows: int | None = None  # a transcript: the board is drawn in full

    async def read(self, prompt: str) -> str | None:
        # A blocking read on the loop is deliberate: nothing else may happen
        # while the console waits for its user, and it works on files, pipes
        # and sockets alike (the event loop cannot watch regular files).
        line = self.stdin.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        if self.echo:
            self.say(prompt + line)
        return line

    def show(self, fragments: Fragments) -> None:
        self.stdout.write(plain_text(fragments).rstrip("\n") + "\n")
        self.stdout.flush()

    def say(self, text: str, style: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()


class TerminalUI:
    """prompt_toolkit on a terminal: completion, history, colour.

    ``pt_input`` / ``pt_output`` replace the terminal (tests use a pipe input).
    """

    plain = False

    def __init__(self, completer_source: Callable[[list[str], str], list[str]], history_file: str,
                 pt_input: Any = None, pt_output: Any = None) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory
        from prompt_toolkit.shortcuts import CompleteStyle
        from prompt_toolkit.styles import Style

        self.style = Style.from_dict(STYLE_RULES)
        try:
            history: Any = FileHistory(history_file)
            with open(history_file, "a", encoding="utf-8"):
                pass  # fail now, not at the first line, if it cannot be written
        except OSError as error:
            print(f"stargtp play: history not kept ({error})", file=sys.stderr)
            history = InMemoryHistory()
        self.session: Any = PromptSession(
            history=history, completer=_make_completer(completer_source), complete_while_typing=False,
            complete_style=CompleteStyle.MULTI_COLUMN, style=self.style, input=pt_input, output=pt_output)
        self.output = self.session.output

    @property
    def columns(self) -> int:
        try:
            return self.output.get_size().columns
        except Exception:  # noqa: BLE001 - a dummy output has no size; draw in full
            return 200

    @property
    def rows(self) -> int | None:
        try:
            return self.output.get_size().rows
        except Exception:  # noqa: BLE001 - a dummy output has no size; draw in full
            return None

    async def read(self, prompt: str) -> str | None:
        try:
            return await self.session.prompt_async(prompt)
        except EOFError:
            return None
        except KeyboardInterrupt:
            self.say("(Ctrl-D or 'quit' leaves)", "class:info")
            return ""

    def show(self, fragments: Fragments) -> None:
        from prompt_toolkit.formatted_text import FormattedText
        from prompt_toolkit.shortcuts import print_formatted_text

        print_formatted_text(FormattedText(fragments), style=self.style, output=self.output)

    def say(self, text: str, style: str = "") -> None:
        self.show([(style, text)])


# -- a human against the engine --------------------------------------------------------------


class ConsoleError(Exception):
    """The session cannot go on (engine gone, or engine and console disagree)."""


HUMAN_COMMANDS: dict[str, str] = {
    "undo": "take back your last move (and the engine's answer)",
    "hint": "ask the engine which move it would play for you",
    "board": "draw the board again",
    "score": "the score as it stands (Amazons: territories)",
    "moves": "list the legal moves",
    "new": "start a new game",
    "resign": "give up this game",
    "help": "this list",
    "quit": "leave (also: exit, Ctrl-D)",
}


class HumanGame:
    """One human against one engine, both following the same position."""

    def __init__(self, engine: GtpController, ui: Any, *, game: str, size: int | None, human: int,
                 komi: float = 0.0, move_timeout: float | None = None) -> None:
        self.engine = engine
        self.ui = ui
        self.game = game
        self.size = size if size is not None else DEFAULT_SIZE[game]
        self.human = human
        self.komi = komi
        self.move_timeout = NO_LIMIT if move_timeout is None else move_timeout
        self.position: Any = new_position(game, self.size)
        self.resigned: int | None = None
        """The colour that resigned this game, if any."""
        self.announced = False
        self.hint: Any = None

    @property
    def engine_colour(self) -> int:
        return opponent(self.human)

    def is_over(self) -> bool:
        return self.resigned is not None or self.position.is_over()

    # -- talking to the engine ----------------------------------------------------------
    async def send(self, command: str, timeout: float | None = None) -> str:
        try:
            return await self.engine.send(command, timeout=timeout)
        except EngineError:
            raise
        except ControllerError as error:
            raise ConsoleError(f"the engine stopped answering: {error}") from None

    async def setup(self) -> None:
        """Tell the engine the game, size and komi, on a cleared board."""
        try:
            if await self.engine.known_command("game"):
                await self.send(f"game {self.game}")
            await self.send(f"boardsize {self.size}")
            await self.send("clear_board")
            await self.send(f"komi {self.komi:g}")
        except EngineError as error:
            raise ConsoleError(f"the engine refused the game setup: {error.message}") from None
        except ControllerError as error:
            raise ConsoleError(f"the engine stopped answering: {error}") from None

    # -- the session --------------------------------------------------------------------
    async def run(self) -> int:
        await self.setup()
        self.ui.say(f"{self.title()} -- you play {colour_name(self.human)}; "
                    f"'help' lists the commands, Tab completes moves.", "class:title")
        self.draw()
        while True:
            if not self.is_over() and self.position.to_move == self.engine_colour:
                await self.engine_move()
                continue
            if self.is_over() and not self.announced:
                await self.announce()
            line = await self.ui.read(self.prompt())
            if line is None:
                return 0
            words = line.split()
            if not words:
                continue
            if words[0].lower() in ("quit", "exit"):
                return 0
            await self.command(words)

    def title(self) -> str:
        if self.game == "star":
            return f"*Star, {self.size} rings"
        return f"Amazons, {self.size}x{self.size}"

    def prompt(self) -> str:
        if self.is_over():
            return "game over> "
        return f"{colour_name(self.human)} {len(self.position.history) + 1}> "

    def draw(self) -> None:
        self.ui.show(board_picture(self.position, plain=self.ui.plain, columns=self.ui.columns,
                                   rows=self.ui.rows, hint=self.hint, komi=self.komi))

    async def engine_move(self) -> None:
        colour = self.engine_colour
        self.ui.say(f"{colour_name(colour)} (engine) is thinking...", "class:info")
        try:
            answer = await self.send(f"genmove {colour_name(colour)}", timeout=self.move_timeout)
        except EngineError as error:
            raise ConsoleError(f"genmove failed: {error.message}") from None
        answer = answer.strip()
        if answer.lower() == "resign":
            self.resigned = colour
            self.ui.say(f"{colour_name(colour)} (engine) resigns.", "class:engine")
            return
        try:
            move = self.position.parse_move(answer)
            self.position.play(move, colour)
        except GameError as error:
            raise ConsoleError(f"the engine played {answer!r}, which the rules here reject ({error}); "
                               f"engine and console no longer agree") from None
        self.hint = None
        self.ui.say(f"{colour_name(colour)} (engine) plays {self.position.format_move(move)}", "class:engine")
        self.draw()

    async def human_move(self, text: str) -> None:
        position = self.position
        if self.is_over():
            self.ui.say("the game is over: 'undo', 'new' or 'quit'", "class:error")
            return
        try:
            move = position.parse_move(text)
            position.play(move, self.human)
        except GameError as error:
            self.ui.say(f"illegal move: {error}", "class:error")
            return
        canonical = position.format_move(move)
        try:
            await self.send(f"play {colour_name(self.human)} {canonical}")
        except EngineError as error:
            position.undo()
            self.ui.say(f"the engine refused {canonical}: {error.message}", "class:error")
            return
        self.hint = None
        self.draw()

    async def command(self, words: list[str]) -> None:
        name = words[0].lower()
        if name not in HUMAN_COMMANDS:
            if len(words) == 1 and name != "pass" and not any(ch.isdigit() for ch in name):
                # Every cell label and Amazons move has a digit: this was meant as a command.
                self.ui.say(f"unknown command {words[0]!r} ('help' lists the commands)", "class:error")
                return
            await self.human_move(" ".join(words))
            return
        if name == "help":
            for command, text in HUMAN_COMMANDS.items():
                self.ui.say(f"  {command:<8}{text}")
            self.ui.say("  or a move: " + ("a cell label such as S43, or pass" if self.game == "star"
                                            else "from-to/arrow such as d1-d7/g7"))
        elif name == "board":
            self.draw()
        elif name == "score":
            self.report()
        elif name == "moves":
            self.list_moves()
        elif name == "undo":
            await self.undo()
        elif name == "hint":
            await self.ask_hint()
        elif name == "resign":
            if self.is_over():
                self.ui.say("the game is already over", "class:error")
            else:
                self.resigned = self.human
        elif name == "new":
            await self.setup()
            self.position = new_position(self.game, self.size)
            self.resigned, self.announced, self.hint = None, False, None
            self.ui.say("new game", "class:title")
            self.draw()

    def report(self) -> None:
        if self.game == "star":
            lines = star_score_report(self.position, self.komi)
        else:
            lines = amazons_score_report(self.position)
        for line in lines:
            self.ui.say(line)

    def list_moves(self) -> None:
        if self.is_over():
            self.ui.say("no moves: the game is over")
            return
        moves = self.position.legal_moves()
        if self.game == "star":
            self.ui.say(f"{_plural(len(moves), 'empty cell')}, and pass: "
                        + " ".join(self.position.format_move(m) for m in moves))
        else:
            origins = sorted({self.position.format_square(m[0]) for m in moves})
            by = "the amazon" if len(origins) == 1 else "amazons"
            self.ui.say(f"{_plural(len(moves), 'legal move')}, by {by} on {' '.join(origins)}; "
                        f"type a square and press Tab for its moves")

    async def undo(self) -> None:
        """Undo back to before the human's last move: the engine's answer too."""
        history = self.position.history
        if not any(colour == self.human for colour, _ in history):
            self.ui.say("cannot undo: you have not moved yet", "class:error")
            return
        while True:
            colour, _ = history[-1]
            try:
                await self.send("undo")
            except EngineError as error:
                raise ConsoleError(f"the engine could not undo: {error.message}") from None
            self.position.undo()
            if colour == self.human:
                break
        self.resigned, self.announced, self.hint = None, False, None
        self.ui.say("undone", "class:info")
        self.draw()

    async def ask_hint(self) -> None:
        if self.is_over():
            self.ui.say("the game is over", "class:error")
            return
        try:
            answer = (await self.send(f"reg_genmove {colour_name(self.human)}",
                                      timeout=self.move_timeout)).strip()
        except EngineError as error:
            self.ui.say(f"no hint: {error.message}", "class:error")
            return
        if answer.lower() == "resign":
            self.ui.say("hint: the engine would resign here", "class:engine")
            return
        try:
            move = self.position.parse_move(answer)
        except GameError:
            self.ui.say(f"the engine hinted {answer!r}, which is not a move here", "class:error")
            return
        self.hint = None if self.game == "star" and move == PASS else move
        self.ui.say(f"hint: {self.position.format_move(move)}", "class:engine")
        self.draw()  # last, so that on a small terminal the board stays whole above the prompt

    async def announce(self) -> None:
        """The end of the game: who won, and the full score."""
        self.announced = True
        position = self.position
        if self.resigned is not None:
            winner = opponent(self.resigned)
            self.ui.say(f"{colour_name(self.resigned)} resigned: {colour_name(winner)} wins", "class:title")
        elif self.game == "amazons":
            self.ui.say(f"game over: {colour_name(position.to_move)} has no move, "
                        f"{colour_name(opponent(position.to_move))} wins", "class:title")
        else:
            self.ui.say("game over", "class:title")
        if self.game == "star" or self.resigned is None:
            self.report()  # a resigned Amazons game has nothing to score
        if self.resigned is None:
            try:
                self.ui.say(f"  the engine's final_score: {(await self.send('final_score')).strip()}", "class:info")
            except EngineError as error:
                self.ui.say(f"  the engine's final_score failed: {error.message}", "class:info")

    # -- completion ---------------------------------------------------------------------
    def completions(self, before: list[str], word: str) -> list[str]:
        if before:
            return []
        found = [] if self.is_over() else move_completions(self.position, word, self.human)
        return found + _matching(list(HUMAN_COMMANDS) + ["exit"], word)


# -- the raw protocol console ------------------------------------------------------------------


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_COMMAND_ID = re.compile(r"(\d+)\s+(.*)")
COLOUR_COMMANDS = ("play", "genmove", "reg_genmove", "list_stars", "time_left")


class RawConsole:
    """Lines typed go to the engine as commands; answers come back framed.

    The console mirrors the engine's position from the commands that change
    it, once it knows the board: after ``game NAME`` (which sets the game's
    default size), ``boardsize N``, or ``--game`` / ``--size`` at start.
    Without them the board size of a server is unknown (the protocol has no
    command to ask it), so there is no board and no vertex completion.
    """

    def __init__(self, engine: GtpController, ui: Any, *, game: str | None = None, size: int | None = None,
                 show_board: bool = True, timeout: float | None = None) -> None:
        self.engine = engine
        self.ui = ui
        self.wanted_game = game
        """``--game``: sent as ``game NAME`` at start."""
        self.game = game
        self.size = size
        """``--size``: sent as ``boardsize N`` and ``clear_board`` at start."""
        self.show_board = show_board
        self.timeout = NO_LIMIT if timeout is None else timeout
        self.mirror: Any = None
        self.commands: list[str] = []
        self.last_command = ""

    async def run(self) -> int:
        try:
            self.commands = (await self.engine.send("list_commands")).split()
        except EngineError:
            self.commands = []
        except ControllerError as error:
            self.problem(f"stargtp play: {error}")
            return 1
        if self.game is None and "game" in self.commands:
            try:
                self.game = (await self.engine.send("game")).strip() or None
            except ControllerError:
                self.game = None
        start = []
        if self.wanted_game is not None:
            start.append(f"game {self.wanted_game}")
        if self.size is not None:
            start += [f"boardsize {self.size}", "clear_board"]
        for command in start:
            if not await self.execute(command, echo=True):
                return 1
        if not self.ui.plain:
            self.ui.say(f"connected to {self.engine.description}; lines are sent as commands "
                        f"(Tab completes, Ctrl-D leaves)", "class:info")
            if self.mirror is None:
                self.ui.say("the board appears once the size is known: after 'boardsize N' or "
                            "'game NAME' (or start with --size N)", "class:info")
        while True:
            line = await self.ui.read("" if self.ui.plain else "gtp> ")
            if line is None:
                return 0
            if not await self.execute(line):
                return 1
            if self.last_command == "quit":
                return 0

    async def execute(self, line: str, echo: bool = False) -> bool:
        """Send one line; False when the connection is gone."""
        text = _CONTROL.sub("", line.replace("\t", " ")).split("#", 1)[0].strip()
        if not text:
            return True
        command_id = ""
        match = _COMMAND_ID.fullmatch(text)
        if match:
            command_id, text = match.group(1), match.group(2)
        words = text.split()
        self.last_command = words[0]
        if echo and not self.ui.plain:  # plain output stays a pure protocol transcript
            self.ui.say(text, "class:info")
        try:
            answer = await self.engine.send(text, timeout=self.timeout)
        except EngineError as error:
            self.ui.say(f"?{command_id} {error.message}\n", "class:error")
            return True
        except ControllerError as error:
            self.problem(f"stargtp play: {error}")
            return False
        self.ui.say(f"={command_id} {answer}\n" if answer else f"={command_id}\n")
        changed = self.follow(words, answer)
        if changed and self.show_board and not self.ui.plain and self.mirror is not None:
            self.ui.show(board_picture(self.mirror, plain=False, columns=self.ui.columns, rows=self.ui.rows))
        return True

    def follow(self, words: list[str], answer: str) -> bool:
        """Update the mirror after a successful command; True if the board changed."""
        name, args = words[0], words[1:]
        try:
            if name == "game" and args:
                self.game = args[0].lower()
                self.mirror = new_position(self.game)
            elif name == "boardsize" and len(args) == 1:
                self.mirror = new_position(self.game or "star", int(args[0]))
            elif name == "clear_board" and self.mirror is not None:
                self.mirror = new_position(self.mirror.game, self.mirror.size)
            elif self.mirror is None:
                return False
            elif name == "play" and len(args) == 2:
                self.mirror.play(self.mirror.parse_move(args[1]), parse_colour(args[0]))
            elif name == "genmove" and len(args) == 1 and answer.strip().lower() != "resign":
                self.mirror.play(self.mirror.parse_move(answer.strip()), parse_colour(args[0]))
            elif name == "undo":
                self.mirror.undo()
            elif name in ("loadsgf", "set_position", "setup"):
                self.mirror = None  # cannot follow this one
                return False
            else:
                return False
        except (GameError, ValueError) as error:
            self.problem(f"(the console lost track of the board: {error})")
            self.mirror = None
            return False
        return True

    def problem(self, text: str) -> None:
        """A message of the console's own: on stderr in plain mode, where
        stdout carries only the engine's answers."""
        if self.ui.plain:
            print(text, file=sys.stderr, flush=True)
        else:
            self.ui.say(text, "class:error")

    def completions(self, before: list[str], word: str) -> list[str]:
        if before and before[0].isdigit():
            before = before[1:]
        if not before:
            return _matching(self.commands, word)
        name = before[0]
        if name == "known_command" and len(before) == 1:
            return _matching(self.commands, word)
        if name == "game" and len(before) == 1:
            return _matching(GAMES, word)
        if name in COLOUR_COMMANDS and len(before) == 1:
            return _matching(("black", "white"), word)
        if name == "play" and len(before) == 2 and self.mirror is not None:
            try:
                colour = parse_colour(before[1])
            except ValueError:
                return []
            return move_completions(self.mirror, word, colour)
        return []


# -- the command line ----------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    human = parser.add_argument_group("a human against the engine (the default)")
    human.add_argument("--game", choices=GAMES, default=None,
                       help="the game (default star; raw console: sent as 'game NAME' at start)")
    human.add_argument("--size", type=int, help="board size: *Star rings 2..10, Amazons 6/8/10 "
                                                "(default: the game's; raw console: sent at start)")
    human.add_argument("--colour", "--color", dest="colour", type=colour_option, default=None,
                       help="your colour, black or white (default: the side that moves first)")
    human.add_argument("--komi", type=finite_float, default=0.0, help="komi for white (default 0)")
    human.add_argument("--player", choices=PLAYERS,
                       help="the engine's move generator (stargtp serve --player)")
    human.add_argument("--seed", type=int, help="seed the engine, for repeatable games")
    human.add_argument("--playouts", type=positive_int, metavar="N", help="engine playouts per move")
    human.add_argument("--seconds", type=positive_float, metavar="S", help="engine seconds per move")
    human.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                       help="engine player parameter (repeatable)")
    human.add_argument("--vs", metavar="ENGINE",
                       help="play against this engine instead of stargtp serve: a command line or tcp:HOST:PORT")
    human.add_argument("--move-timeout", type=positive_float, default=None, metavar="SECONDS",
                       help="longest wait for an engine move (default: no limit)")
    raw = parser.add_argument_group("raw protocol console")
    raw.add_argument("--engine", metavar="CMD", help="start CMD and talk to it")
    raw.add_argument("--connect", metavar="HOST:PORT", help="connect to a protocol server on TCP")
    raw.add_argument("--no-board", dest="board", action="store_false",
                     help="do not draw the board after moves")
    raw.add_argument("--timeout", type=positive_float, default=None, metavar="SECONDS",
                     help="longest wait for any answer (default: no limit)")
    common = parser.add_argument_group("input")
    common.add_argument("--history", metavar="FILE",
                        help=f"history file (default ${HISTORY_ENVIRONMENT} or {DEFAULT_HISTORY})")
    common.add_argument("--plain", action="store_true",
                        help="plain line mode even on a terminal (no completion, no colour)")


def serve_command(args: argparse.Namespace) -> list[str]:
    """The ``stargtp serve`` command line for a human game's engine."""
    argv = [sys.executable, "-m", "protocol.cli", "serve", "--game", args.game]
    if args.size is not None:
        argv += ["--size", str(args.size)]
    for option, value in (("--player", args.player), ("--seed", args.seed),
                          ("--playouts", args.playouts), ("--seconds", args.seconds)):
        if value is not None:
            argv += [option, str(value)]
    for item in args.param:
        argv += ["--param", item]
    return argv


def colour_option(text: str) -> int:
    """An argparse ``type``: ``black``, ``white``, ``b`` or ``w``, any case."""
    try:
        return parse_colour(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected black or white (or b, w), not {text!r}") from None


def _engine_spec(args: argparse.Namespace) -> tuple[EngineSpec, bool]:
    """What to talk to, and whether it is a raw console; OptionError names
    the option at fault."""
    if args.engine is not None and args.connect is not None:
        raise OptionError("--engine", "give --engine or --connect, not both")
    raw_option = "--engine" if args.engine is not None else "--connect" if args.connect is not None else None
    if raw_option is not None and args.vs is not None:
        raise OptionError("--vs", f"plays a game against ENGINE; it does not combine with {raw_option} "
                                  f"(the raw console)")
    if args.connect is not None:
        host, sep, port = args.connect.strip().rpartition(":")
        if not (sep and host and port.isdigit() and 0 < int(port) < 65536):
            raise OptionError("--connect", f"expected HOST:PORT (a port 1..65535), not {args.connect!r}")
        return EngineSpec.parse("tcp:" + args.connect.strip()), True
    for option, text, raw in (("--engine", args.engine, True), ("--vs", args.vs, False)):
        if text is not None:
            try:
                return EngineSpec.parse(text), raw
            except ValueError as error:
                raise OptionError(option, str(error)) from None
    return EngineSpec(text="stargtp serve", argv=tuple(serve_command(args))), False


def check_options(args: argparse.Namespace) -> tuple[EngineSpec, bool, int | None]:
    """The engine to talk to, whether it is a raw console, and the human's
    colour (None in a raw console); OptionError for a bad option, before any
    engine is started. Fills in ``args.game`` for a game."""
    raw = args.engine is not None or args.connect is not None
    if not raw:
        args.game = args.game or "star"
    spec, raw = _engine_spec(args)
    human = None
    if not raw:
        human = args.colour if args.colour is not None else (BLACK if args.game == "star" else WHITE)
        try:
            new_position(args.game, args.size)
        except GameError as error:
            raise OptionError("--size", str(error)) from None
        if args.vs is None:
            _check_params(args)
    if args.history is not None:
        _check_history_file(os.path.expanduser(args.history))
    return spec, raw, human


def _check_params(args: argparse.Namespace) -> None:
    """``--param NAME=VALUE`` items as ``stargtp serve`` will take them."""
    params = {}
    for item in args.param:
        name, equals, value = item.partition("=")
        if not equals or not name:
            raise OptionError("--param", f"expected NAME=VALUE, not {item!r}")
        params[name] = value
    try:
        make_player(args.player or "auto", seed=args.seed, **params)
    except ValueError as error:
        raise OptionError("--param", str(error)) from None


def _check_history_file(path: str) -> None:
    if os.path.isdir(path):
        raise OptionError("--history", f"{path} is a directory, not a file")
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        raise OptionError("--history", f"cannot create {path}: there is no directory {directory}")


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(main(args))
    except KeyboardInterrupt:
        # Ctrl-C while the engine thinks: the engine has been closed on the way out.
        print("stargtp play: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Whoever read our output has gone (``| head``): leave quietly, as
        # Unix tools do; stdout goes to /dev/null so the final flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


async def main(args: argparse.Namespace) -> int:
    """The console on the process's terminal or standard streams."""
    try:
        spec, raw, human = check_options(args)
    except OptionError as error:
        return report_option_error("play", error)
    holder: dict[str, Any] = {}

    def complete(before: list[str], word: str) -> list[str]:
        owner = holder.get("console")
        return owner.completions(before, word) if owner is not None else []

    if not args.plain and _is_terminal(sys.stdin) and _is_terminal(sys.stdout):
        ui: Any = TerminalUI(complete, history_path(args.history))
    else:
        ui = LineUI(sys.stdin, sys.stdout, echo=not raw)
    try:
        engine = await GtpController.open(spec, command_timeout=DEFAULT_COMMAND_TIMEOUT)
    except ControllerError as error:
        print(f"stargtp play: {error}", file=sys.stderr)
        return 1
    try:
        if raw:
            console: Any = RawConsole(engine, ui, game=args.game, size=args.size, show_board=args.board,
                                      timeout=args.timeout)
        else:
            console = HumanGame(engine, ui, game=args.game, size=args.size, human=human, komi=args.komi,
                                move_timeout=args.move_timeout)
        holder["console"] = console
        try:
            return await console.run()
        except ConsoleError as error:
            ui.say(f"stargtp play: {error}", "class:error")
            tail = engine.stderr_tail().strip()
            if tail:
                print(f"stargtp play: the engine's last words:\n{tail}", file=sys.stderr)
            return 1
    finally:
        await engine.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


