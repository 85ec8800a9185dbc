"""The picture of a connection board of hexagonal cells: Hex's rhombus and
Y's triangle, and any board built on the same kernel
(:mod:`stargtp.engine.connection.geometry`).

Everything is drawn from the board's geometry, never from the game's name:

* **Cells** are pointy-topped regular hexagons around the centres the
  geometry gives (neighbouring centres one ``unit`` apart), so they tile
  the board.
* **Edges.** The cells of each edge lie on a straight line; a band in the
  colour of the edge's owner runs along it, from the line through the
  cells' centres (hidden under the cells) to a parallel line ``0.9`` of a
  unit further out. Neighbouring bands meet on the line from the corner
  cell's centre to the corner of the frame, so a corner cell's outer sides
  are shared between its two edges as HexGui draws them (at an acute corner
  on a vertex, at an obtuse one in the middle of a side). An edge is its
  owner's when only one colour's goal names it (Hex: north and south are
  black's, west and east white's) and neutral when both colours must reach
  it (Y's three edges). The edges' order around the board and the frame's
  corners come from the lines themselves.
* **Labels** stand outside the bands, HexGui style: along an edge whose
  cells share one row, the column letters, straight out from the edge (Hex:
  above and below; Y: below); along the others the row numbers, level with
  their row (Hex: left and right; Y: at both ends of every row).
* **Stones** are discs, the **last move** a red dot on its stone (after
  ``swap-pieces``, on the stone the swap took), and once the game is won
  the **winning group**'s cells are outlined in green (``group=True``).

A one-cell board has no line to draw its edges along: it borrows their
directions from the two-cell-a-side board of the same game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from stargtp.engine.colour import BLACK, EMPTY, WHITE, colour_name
from stargtp.protocol.pictures.svg import (
    EDGE_NEUTRAL,
    LAST_MOVE,
    MARK,
    MARK_GREEN,
    PALETTE,
    STONE_EDGE,
    STONE_FILL,
    Drawing,
    caption as caption_element,
    document,
    element,
    number,
    points,
    text_width,
)

CELL_FILL = PALETTE["board"]
LINE = PALETTE["board-line"]
LABEL = PALETTE["frame"]

BAND = 0.9
"""How far beyond the line of an edge's centres its band reaches, in units
(a cell reaches ``1/sqrt(3)``, about 0.58, beyond it)."""
LABEL_OFFSET = BAND + 0.4
"""Where the coordinates stand beyond an edge's line, in units."""
STONE_RADIUS = 0.4
CELL_RADIUS = 1 / math.sqrt(3)
"""A cell's corner-to-centre distance, in units (the cells are one unit wide)."""
MARGIN = 0.2

Point = tuple[float, float]


# -- the board's frame, from the geometry ---------------------------------------------


@dataclass(frozen=True)
class Edge:
    """One edge of the board as drawn, in units."""

    name: str
    owners: tuple[int, ...]
    """The colours whose goal names it (one: it is that colour's; two: neutral)."""
    band: tuple[Point, ...]
    """The band's outline: the two inner corners (centres of the corner
    cells) and the two outer ones."""
    normal: Point
    """The unit vector pointing away from the board."""
    letters: bool
    """Whether its coordinates are column letters (else row numbers)."""
    cells: tuple[int, ...]


@dataclass(frozen=True)
class Frame:
    """A board's edges in their order around it, and the extent of the picture."""

    edges: tuple[Edge, ...]
    labels: tuple[tuple[float, float, str], ...]
    """``(x, y, text)`` of every coordinate, in units."""
    extent: tuple[float, float, float, float]
    """``(left, top, right, bottom)`` of the frame and the labels, in units."""


def _line(board, edge: str) -> tuple[Point, Point] | None:
    """A point of the edge's line and its direction (unit vector, from the
    edge's first cell to its last), or None when the edge has one cell."""
    cells = [cell for cell in board.cells if edge in cell.edges]
    first, last = cells[0], cells[-1]
    dx, dy = last.x - first.x, last.y - first.y
    length = math.hypot(dx, dy)
    if length == 0:
        return None
    return (first.x, first.y), (dx / length, dy / length)


def _intersection(p: Point, d: Point, q: Point, e: Point) -> Point:
    """Where the line through ``p`` along ``d`` meets the one through ``q`` along ``e``."""
    cross = d[0] * e[1] - d[1] * e[0]
    t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
    return p[0] + t * d[0], p[1] + t * d[1]


@lru_cache(maxsize=None)
def frame(board, reference=None) -> Frame:
    """The edges of ``board`` as drawn (see the module docstring).
    ``reference`` is a larger board of the same game whose edges have the
    same directions, for a board whose edges have one cell each."""
    centre = (sum(c.x for c in board.cells) / board.cell_count, sum(c.y for c in board.cells) / board.cell_count)
    lines: dict[str, tuple[Point, Point, Point]] = {}  # edge -> (point, direction, outward normal)
    for name in board.edges:
        found = _line(board, name)
        if found is None:
            if reference is None:
                raise ValueError(f"the edge {name} has one cell: a reference board is needed")
            origin = next((c.x, c.y) for c in board.cells if name in c.edges)
            _, direction, normal = frame_lines(reference)[name]
            lines[name] = (origin, direction, normal)
            continue
        origin, direction = found
        normal = (-direction[1], direction[0])
        if (origin[0] - centre[0]) * normal[0] + (origin[1] - centre[1]) * normal[1] < 0:
            normal = (-normal[0], -normal[1])
        lines[name] = (origin, direction, normal)
    order = sorted(board.edges, key=lambda name: math.atan2(lines[name][2][1], lines[name][2][0]))

    def shifted(name: str, distance: float) -> tuple[Point, Point]:
        (x, y), direction, (nx, ny) = lines[name]
        return (x + distance * nx, y + distance * ny), direction

    def corner(a: str, b: str, distance: float) -> Point:
        return _intersection(*shifted(a, distance), *shifted(b, distance))

    reference_letters = _letter_edges(reference) if reference is not None else set()
    edges = []
    for index, name in enumerate(order):
        before, after = order[index - 1], order[(index + 1) % len(order)]
        band = (corner(before, name, 0.0), corner(before, name, BAND), corner(name, after, BAND),
                corner(name, after, 0.0))
        owners = tuple(colour for colour in (BLACK, WHITE) if name in board.goals[colour])
        cells = tuple(c.index for c in board.cells if name in c.edges)
        letters = name in (_letter_edges(board) if len(cells) > 1 else reference_letters)
        edges.append(Edge(name, owners, band, lines[name][2], letters, cells))
    labels = []
    for edge in edges:
        nx, ny = edge.normal
        if edge.letters:  # straight out from the edge, under or over its cell
            dx, dy = LABEL_OFFSET * nx, LABEL_OFFSET * ny
        else:  # along the row (rows are level), as far out as the letters
            dx, dy = math.copysign(LABEL_OFFSET / max(abs(nx), 0.5), nx), 0.0
        for index in edge.cells:
            cell = board.cells[index]
            text = cell.label[0] if edge.letters else cell.label[1:]
            labels.append((cell.x + dx, cell.y + dy, text))
    xs = [x for edge in edges for x, _ in edge.band] + [x for x, _, _ in labels]
    ys = [y for edge in edges for _, y in edge.band] + [y for _, y, _ in labels]
    extent = (min(xs) - 0.3, min(ys) - 0.3, max(xs) + 0.3, max(ys) + 0.3)
    return Frame(tuple(edges), tuple(labels), extent)


def frame_lines(board) -> dict[str, tuple[Point, Point, Point]]:
    """Each edge's line of ``board`` (a board whose edges have two cells or
    more): ``(point, direction, outward normal)``."""
    found = {}
    for edge in frame(board).edges:
        line = _line(board, edge.name)
        assert line is not None
        found[edge.name] = (line[0], line[1], edge.normal)
    return found


def _letter_edges(board) -> set[str]:
    """The edges whose cells share one row: their coordinates are letters."""
    return {name for name in board.edges if len({c.row for c in board.cells if name in c.edges}) == 1}


def board_frame(board_of: Callable[[int], Any], size: int) -> tuple[Any, Frame]:
    """The board of ``size`` (``board_of`` is the game's geometry function)
    and its frame."""
    board = board_of(size)
    small = any(len([c for c in board.cells if name in c.edges]) < 2 for name in board.edges)
    return board, frame(board, board_of(2) if small else None)


def hexagon(x: float, y: float, radius: float) -> list[Point]:
    """The corners of the pointy-topped hexagon around ``(x, y)``, from the top clockwise."""
    return [(x + radius * math.cos(math.radians(-90 + 60 * k)), y + radius * math.sin(math.radians(-90 + 60 * k)))
            for k in range(6)]


def edge_fill(owners: tuple[int, ...]) -> str:
    """An edge's colour: its owner's stone colour, or the neutral edge colour."""
    return STONE_FILL[owners[0]] if len(owners) == 1 else EDGE_NEUTRAL


def edge_class(edge: Edge) -> str:
    owner = colour_name(edge.owners[0]) if len(edge.owners) == 1 else "neutral"
    return f"edge {edge.name} {owner}"


# -- the picture ---------------------------------------------------------------------------


def draw(board_of: Callable[[int], Any], position, *, labels: bool = True, last_move: bool = True,
         group: bool = True, marks: Sequence[int] = (), caption: str | None = None,
         title: str | None = None, unit: float = 32.0) -> str:
    """The SVG picture of a connection position (see the module docstring).

    ``labels`` writes the coordinates around the board; ``last_move`` marks
    the last move; ``group`` outlines the winning group's cells once the
    game is won; ``marks`` are cells to ring (a hint, say); ``caption`` is a line
    of text under the board, ``title`` the document's title; ``unit`` is
    the distance between neighbouring centres in pixels.
    """
    board, outline = board_frame(board_of, position.size)
    u = unit
    cells = board.cells

    def at(index: int) -> Point:
        return cells[index].x * u, cells[index].y * u

    body: list[str] = []
    for edge in outline.edges:
        body.append(element("polygon", {
            "class": edge_class(edge), "data-edge": edge.name,
            "data-owner": " ".join(colour_name(c) for c in edge.owners),
            "fill": edge_fill(edge.owners), "stroke": LINE, "stroke-width": 0.03 * u,
            "stroke-linejoin": "round", "points": points((x * u, y * u) for x, y in edge.band)}))

    hexagons = []
    for cell in cells:
        x, y = at(cell.index)
        hexagons.append(element("polygon", {
            "class": "cell", "data-cell": cell.label, "data-point": cell.label,
            "points": points(hexagon(x, y, CELL_RADIUS * u))}))
    body.append(element("g", {"class": "cells", "fill": CELL_FILL, "stroke": LINE,
                               "stroke-width": 0.04 * u, "stroke-linejoin": "round"}, "".join(hexagons)))

    if labels:
        for x, y, text in outline.labels:
            body.append(element("text", {
                "class": "coordinate", "x": x * u, "y": y * u + 0.13 * u, "font-size": 0.36 * u,
                "text-anchor": "middle", "fill": LABEL}, text))

    for cell in cells:
        colour = position.board[cell.index]
        if colour != EMPTY:
            x, y = at(cell.index)
            body.append(element("circle", {
                "class": f"stone {colour_name(colour)}", "data-cell": cell.label, "data-point": cell.label,
                "cx": x, "cy": y, "r": STONE_RADIUS * u,
                "fill": STONE_FILL[colour], "stroke": STONE_EDGE[colour], "stroke-width": 0.04 * u}))

    if group:
        body.extend(_winning_group(position, at, u))

    for index in marks:
        x, y = at(index)
        body.append(element("circle", {
            "class": "mark", "data-cell": cells[index].label, "cx": x, "cy": y, "r": 0.3 * u,
            "fill": "none", "stroke": MARK, "stroke-width": 0.08 * u, "stroke-dasharray": number(0.13 * u),
            "pointer-events": "none"}))

    if last_move and position.history:
        index, swapped = _last_cell(position)
        if index is not None:
            x, y = at(index)
            body.append(element("circle", {
                "class": "last-move swap" if swapped else "last-move", "data-cell": cells[index].label,
                "cx": x, "cy": y, "r": 0.13 * u, "fill": LAST_MOVE, "stroke": "none",
                "pointer-events": "none"}))

    left, top, right, bottom = (v * u for v in _extent(outline, labels))
    if caption:
        font = 0.42 * u
        body.append(caption_element(caption, (left + right) / 2, bottom + 0.45 * u, font))
        bottom += 0.75 * u
        overflow = max(0.0, text_width(caption, font) + 0.4 * u - (right - left))
        left, right = left - overflow / 2, right + overflow / 2
    margin = MARGIN * u
    view = (left - margin, top - margin, right - left + 2 * margin, bottom - top + 2 * margin)
    return document(view[2], view[3], view, body, title)


def _extent(outline: Frame, labels: bool) -> tuple[float, float, float, float]:
    """The picture's extent in units: the frame, and the labels when drawn."""
    if labels:
        return outline.extent
    xs = [x for edge in outline.edges for x, _ in edge.band]
    ys = [y for edge in outline.edges for _, y in edge.band]
    return min(xs), min(ys), max(xs), max(ys)


def _last_cell(position) -> tuple[int | None, bool]:
    """The cell the last move is shown on, and whether it was a swap (shown
    on the stone it took); None for a move that is no cell."""
    colour, move = position.history[-1]
    if 0 <= move < len(position.board):
        return move, False
    if len(position.history) >= 2:
        earlier = position.history[-2][1]
        if 0 <= earlier < len(position.board):
            return earlier, True
    return None, False


def _winning_group(position, at: Callable[[int], Point], u: float) -> list[str]:
    """The winning group's cells outlined, once the game is won."""
    report = position.rules.score(position, 0.0)
    if report.winner is None:
        return []
    labels = position.geometry.labels
    outlines = []
    for index in report.group:
        x, y = at(index)
        outlines.append(element("polygon", {"class": "winning", "data-cell": labels[index],
                                            "points": points(hexagon(x, y, 0.86 * CELL_RADIUS * u))}))
    return [element("g", {
        "class": f"winning-group {colour_name(report.winner)} score", "data-score-item": "group",
        "fill": "none", "stroke": MARK_GREEN, "stroke-width": 0.09 * u, "stroke-linejoin": "round",
        "pointer-events": "none"}, "".join(outlines))]


def status(position, komi: float = 0.0) -> str:
    """The caption's end: the side to move, or the winner and the edges joined."""
    report = position.rules.score(position, komi)
    if report.winner is not None:
        return f"game over, {report.reason}"
    return f"{colour_name(position.to_move)} to move"


def geometry_json(board_of: Callable[[int], Any], size: int, unit: float = 32.0) -> dict:
    """The board as a front end needs it, in the coordinates of :func:`draw`
    with its default options (``stargtp-geometry``, docs/protocol.md): the
    board's ``shape``; every cell in board order with its ``label``,
    ``column`` and ``row`` (from 0, HexGui's), centre ``x``, ``y``,
    ``neighbours`` (labels) and the ``edges`` it touches; the ``edges`` in
    their order around the board, each with its ``name``, ``owners`` (the
    colours that must reach it) and its band's outline ``points``; the
    ``goals`` of each colour; the document's view box, width and height;
    the distance between neighbouring centres (``unit``), a cell's
    corner-to-centre distance (``cell_radius``) and the stone radius.
    """
    board, outline = board_frame(board_of, size)
    cells = board.cells
    cells_data = [{
        "label": c.label, "column": c.column, "row": c.row,
        "x": float(number(c.x * unit)), "y": float(number(c.y * unit)),
        "neighbours": [cells[n].label for n in c.neighbours],
        "edges": [e for e in board.edges if e in c.edges]} for c in cells]
    edges = [{"name": edge.name, "owners": [colour_name(c) for c in edge.owners],
              "points": [[float(number(x * unit)), float(number(y * unit))] for x, y in edge.band]}
             for edge in outline.edges]
    left, top, right, bottom = (v * unit for v in outline.extent)
    margin = MARGIN * unit
    view = (left - margin, top - margin, right - left + 2 * margin, bottom - top + 2 * margin)
    return {"viewBox": [float(number(v)) for v in view], "width": round(view[2]), "height": round(view[3]),
            "unit": unit, "radius": float(number(STONE_RADIUS * unit)),
            "cell_radius": float(number(CELL_RADIUS * unit)), "shape": board.shape,
            "goals": {colour_name(c): list(board.goals[c]) for c in (BLACK, WHITE)},
            "edges": edges, "cells": cells_data}


def contents_json(position) -> dict:
    """The stones on the board: ``{"black": [labels], "white": [labels]}``, board order."""
    labels = position.geometry.labels
    board = position.board
    return {"black": [labels[c] for c, v in enumerate(board) if v == BLACK],
            "white": [labels[c] for c, v in enumerate(board) if v == WHITE]}


OPTIONS = frozenset(("labels", "last_move", "group", "marks", "caption", "title", "unit"))


def drawing(board_of: Callable[[int], Any]) -> Drawing:
    """The picture of a connection game whose boards ``board_of(size)`` builds
    (the game's geometry function)."""
    return Drawing(partial(draw, board_of), status, OPTIONS, partial(geometry_json, board_of), contents_json)
