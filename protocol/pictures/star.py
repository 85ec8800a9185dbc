"""The *Star picture.

Ring ``k`` is drawn as a regular pentagon of radius ``k`` with its corners on
the five arm directions (``*`` at the top, then ``S T A R`` clockwise); a cell
at offset ``y`` of arm ``s`` sits ``y/k`` of the way along the pentagon edge
from corner ``s`` to corner ``s+1``. The lattice edges come from
:attr:`stargtp.engine.star.Geometry.neighbours`, so the picture cannot disagree with
the rules core; ring 1's diagonals form the central star bridge, which is
filled. With ``stars=True`` (the default) the position is scored: each
star's stones are joined by bonds, its owned pericells get a band outside the
perimeter in its colour, dead stones are faded and crossed, and each of the
five quarks is marked with a diamond filled in its owner's colour.

Cells stand where :func:`stargtp.engine.star.diagram.star_layout` puts them, as
on the console's terminal board and in ``showboard``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from stargtp.engine.colour import BLACK, EMPTY, WHITE, colour_name
from stargtp.engine.star.diagram import corner_point, star_layout
from stargtp.protocol.pictures.svg import (
    LAST_MOVE,
    MARK,
    PALETTE,
    STONE_EDGE,
    STONE_FILL,
    Drawing,
    caption as caption_element,
    document,
    element,
    escape,
    number,
    points,
    text_width,
)

BACKGROUND = PALETTE["board"]
LINE = PALETTE["board-line"]
BRIDGE_FILL = PALETTE["board-accent"]
TEXT_ON = {BLACK: PALETTE["label-black"], WHITE: PALETTE["label-white"], EMPTY: PALETTE["label-empty"]}
NEUTRAL_QUARK = BACKGROUND
BOND = {BLACK: STONE_FILL[BLACK], WHITE: PALETTE["bond-white"]}

ARMS = "*STAR"


def _star_bridge(scale: float) -> list[tuple[float, float]]:
    """The pentagram whose points are the five ring-1 cells: outer points on
    the arm directions, inner corners where the diagonals cross."""
    inner = math.cos(math.radians(72)) / math.cos(math.radians(36))
    corners = []
    for arm in range(5):
        x, y = corner_point(scale, arm)
        corners.append((x, y))
        angle = math.radians(-90 + 72 * arm + 36)
        corners.append((scale * inner * math.cos(angle), scale * inner * math.sin(angle)))
    return corners


def draw(position, *, labels: bool = True, last_move: bool = True, stars: bool = True,
         dead: bool | None = None, marks: Sequence[int] = (),
         caption: str | None = None, title: str | None = None, unit: float = 36.0) -> str:
    """The SVG picture of a *Star position (see the module docstring).

    ``labels`` writes each cell's label in it; ``last_move`` rings the last
    stone; ``stars`` adds the scoring overlay; ``dead`` fades and crosses the
    stones of groups that are not stars (default: only once the game is over,
    since mid-game most groups are simply not stars *yet*); ``marks`` are
    extra cells to ring (a hint, say); ``caption`` is a line of text under the
    board, ``title`` the document's title; ``unit`` is the ring spacing in
    pixels. The marks stand on the same cell positions as
    :func:`star_layout`.
    """
    geo = position.geometry
    board = position.board
    rings = geo.rings
    layout = star_layout(rings)
    u = unit

    def at(cell: int) -> tuple[float, float]:
        x, y = layout[cell]
        return x * u, y * u

    analysis = None
    if stars:
        analysis = position.rules.score(position, 0.0)  # komi changes totals only, not stars or ownership

    body: list[str] = []
    # Background pentagon, generously around the perimeter band and quarks.
    body.append(element("polygon", {
        "class": "board", "fill": BACKGROUND, "stroke": "none",
        "points": points(corner_point((rings + 1.45) * u, arm) for arm in range(5))}))
    body.append(element("polygon", {
        "class": "bridge", "fill": BRIDGE_FILL, "stroke": LINE, "stroke-width": 0.03 * u,
        "points": points(_star_bridge(u))}))

    # Lattice edges, straight from the geometry's adjacency.
    edges = []
    for cell in range(geo.cell_count):
        for other in geo.neighbours[cell]:
            if other < cell:
                continue
            perimeter = geo.is_peri[cell] and geo.is_peri[other]
            (x0, y0), (x1, y1) = at(cell), at(other)
            edges.append(element("line", {
                "class": "edge perimeter" if perimeter else "edge",
                "x1": x0, "y1": y0, "x2": x1, "y2": y1,
                "stroke-width": (0.07 if perimeter else 0.035) * u}))
    body.append(element("g", {"class": "lattice", "stroke": LINE, "stroke-linecap": "round"},
                        "".join(edges)))

    # Arm names beyond the corners.
    for arm in range(5):
        x, y = corner_point((rings + 1.1) * u, arm)
        body.append(element("text", {
            "class": "arm", "x": x, "y": y + 0.18 * u, "font-size": 0.5 * u, "text-anchor": "middle",
            "font-weight": "bold", "fill": LINE}, ARMS[arm]))

    star_of_cell: dict[int, int] = {}
    dead_cells: set[int] = set()
    owner_of_peri: dict[int, int] = {}
    if analysis is not None:
        for index, info in enumerate(analysis.stars):
            for cell in info.cells:
                star_of_cell[cell] = index
            for cell in info.pericells:
                owner_of_peri[cell] = info.colour
        if position.is_over() if dead is None else dead:
            for group in analysis.dead_groups:
                dead_cells.update(group)

        # Each star: its owned-pericell band segments and the bonds between its stones.
        for index, info in enumerate(analysis.stars):
            parts = []
            for cell in info.pericells:
                parts.append(element("polygon", {
                    "class": f"owned {colour_name(info.colour)}", "data-cell": geo.labels[cell],
                    "fill": STONE_FILL[info.colour], "stroke": STONE_EDGE[info.colour],
                    "stroke-width": 0.03 * u,
                    "points": points((x * u, y * u) for x, y in _peri_band(geo, layout, cell))}))
            for cell in info.cells:
                for other in geo.neighbours[cell]:
                    if other > cell and star_of_cell.get(other) == index:
                        (x0, y0), (x1, y1) = at(cell), at(other)
                        parts.append(element("line", {
                            "class": "bond", "x1": x0, "y1": y0, "x2": x1, "y2": y1,
                            "stroke": BOND[info.colour],
                            "stroke-width": 0.16 * u, "stroke-linecap": "round"}))
            body.append(element("g", {
                "class": f"star {colour_name(info.colour)} score", "id": f"star-{index + 1}",
                "data-score-item": f"stars.{index}",
                "data-peris": len(info.pericells), "data-quarks": info.quarks}, "".join(parts)))

    # Quarks: a diamond beyond each corner pericell, filled by its owner.
    for corner in geo.corners:
        x, y = layout[corner]
        length = math.hypot(x, y)
        cx, cy = x / length * (rings + 0.62) * u, y / length * (rings + 0.62) * u
        r = 0.2 * u
        owner = owner_of_peri.get(corner)
        body.append(element("polygon", {
            "class": "quark" if owner is None else f"quark {colour_name(owner)}",
            "data-cell": geo.labels[corner],
            "fill": NEUTRAL_QUARK if owner is None else STONE_FILL[owner],
            "stroke": LINE if owner is None else STONE_EDGE[owner], "stroke-width": 0.04 * u,
            "points": points([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)])}))

    # Cells and stones.
    cell_radius = 0.37 * u
    for cell in range(geo.cell_count):
        x, y = at(cell)
        colour = board[cell]
        label = geo.labels[cell]
        if colour == EMPTY:
            body.append(element("circle", {
                "class": "cell corner" if geo.is_corner[cell] else "cell",
                "data-cell": label, "data-point": label, "cx": x, "cy": y, "r": 0.3 * u if not geo.is_peri[cell] else 0.33 * u,
                "fill": BACKGROUND, "stroke": LINE, "stroke-width": 0.035 * u}))
        else:
            faded = cell in dead_cells
            body.append(element("circle", {
                "class": f"stone {colour_name(colour)}" + (" dead" if faded else ""),
                "data-cell": label, "data-point": label, "cx": x, "cy": y, "r": cell_radius,
                "fill": STONE_FILL[colour], "stroke": STONE_EDGE[colour], "stroke-width": 0.04 * u,
                "opacity": 0.45 if faded else None}))
            if faded:
                d = 0.2 * u
                body.append(element("path", {
                    "class": "dead-mark score", "data-cell": label,
                    "d": f"M{number(x - d)},{number(y - d)}L{number(x + d)},{number(y + d)}"
                         f"M{number(x - d)},{number(y + d)}L{number(x + d)},{number(y - d)}",
                    "stroke": LAST_MOVE, "stroke-width": 0.06 * u}))
        if labels:
            body.append(element("text", {
                "class": "label", "x": x, "y": y + 0.1 * u, "font-size": 0.27 * u,
                "text-anchor": "middle", "fill": TEXT_ON[colour]}, escape(label)))

    for cell in marks:
        x, y = at(cell)
        body.append(element("circle", {
            "class": "mark", "data-cell": geo.labels[cell], "cx": x, "cy": y, "r": 0.45 * u,
            "fill": "none", "stroke": MARK, "stroke-width": 0.08 * u, "stroke-dasharray": f"{number(0.15 * u)}"}))

    if last_move and position.history:
        colour, move = position.history[-1]
        if move >= 0:
            x, y = at(move)
            body.append(element("circle", {
                "class": "last-move", "data-cell": geo.labels[move], "cx": x, "cy": y, "r": 0.44 * u,
                "fill": "none", "stroke": LAST_MOVE, "stroke-width": 0.07 * u}))

    # The view box: the background pentagon's extent, plus a caption line.
    extent = [corner_point((rings + 1.45) * u, arm) for arm in range(5)]
    left = min(x for x, _ in extent)
    right = max(x for x, _ in extent)
    top = min(y for _, y in extent)
    bottom = max(y for _, y in extent)
    margin = 0.2 * u
    if caption:
        font = 0.42 * u
        body.append(caption_element(caption, 0.0, bottom + 0.55 * u, font))
        bottom += 0.8 * u
        half = text_width(caption, font) / 2
        left, right = min(left, -half), max(right, half)
    view = (left - margin, top - margin, right - left + 2 * margin, bottom - top + 2 * margin)
    return document(view[2], view[3], view, body, title)


def _peri_band(geo, layout, cell: int) -> list[tuple[float, float]]:
    """The outline of a pericell's segment of the owned band: from the midpoint
    towards the previous pericell, over the cell, to the midpoint towards the
    next, between two pentagons slightly outside the perimeter."""
    rings = geo.rings
    perimeter = geo.perimeter
    index = perimeter.index(cell)
    previous = layout[perimeter[index - 1]]
    following = layout[perimeter[(index + 1) % len(perimeter)]]
    here = layout[cell]

    def middle(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
        return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2

    def scaled(point: tuple[float, float], radius: float) -> tuple[float, float]:
        factor = radius / rings
        return point[0] * factor, point[1] * factor

    path = [middle(previous, here), here, middle(here, following)]
    inner, outer = rings + 0.42, rings + 0.78
    return [scaled(p, inner) for p in path] + [scaled(p, outer) for p in reversed(path)]


def status(position, komi: float = 0.0) -> str:
    """The caption's end: the side to move and the score now, or the result."""
    result = position.rules.score(position, komi).gtp_result()
    if position.is_over():
        return f"game over, {result}"
    return f"{colour_name(position.to_move)} to move, score now {result}"


def geometry_json(rings: int, unit: float = 36.0) -> dict:
    """The board as a front end needs it, in the coordinates of :func:`draw`
    with its default options (``stargtp-geometry``, docs/protocol.md): every
    cell in board order with its label, ring, arm, centre (``star_layout``
    times ``unit``, written as the SVG writes numbers), neighbours (ring 1's
    star bridge included) and whether it is a pericell or a corner; the
    document's view box, width and height; the ring spacing and the stone
    radius for hit-testing.

    >>> data = geometry_json(2)
    >>> len(data["cells"]), data["cells"][0]["label"], data["cells"][0]["neighbours"][:3]
    (15, '*10', ['S10', 'T10', 'A10'])
    """
    from stargtp.engine.star import geometry

    geo = geometry(rings)
    layout = star_layout(rings)
    cells = []
    for cell in range(geo.cell_count):
        x, y = layout[cell]
        cells.append({
            "label": geo.labels[cell], "ring": geo.ring_of[cell],
            "arm": ARMS[geo.position_of[cell] // geo.ring_of[cell]],
            "x": float(number(x * unit)), "y": float(number(y * unit)),
            "neighbours": [geo.labels[other] for other in geo.neighbours[cell]],
            "pericell": geo.is_peri[cell], "corner": geo.is_corner[cell]})
    # draw()'s view box without a caption: the background pentagon plus a margin.
    extent = [corner_point((rings + 1.45) * unit, arm) for arm in range(5)]
    left, right = min(x for x, _ in extent), max(x for x, _ in extent)
    top, bottom = min(y for _, y in extent), max(y for _, y in extent)
    margin = 0.2 * unit
    view = (left - margin, top - margin, right - left + 2 * margin, bottom - top + 2 * margin)
    return {"viewBox": [float(number(v)) for v in view], "width": round(view[2]), "height": round(view[3]),
            "unit": unit, "radius": float(number(0.37 * unit)), "cells": cells}


def contents_json(position) -> dict:
    """The stones on the board: ``{"black": [labels], "white": [labels]}``, board order."""
    labels = position.geometry.labels
    board = position.board
    return {"black": [labels[c] for c, v in enumerate(board) if v == BLACK],
            "white": [labels[c] for c, v in enumerate(board) if v == WHITE]}


DRAWING = Drawing(draw, status, frozenset(
    ("labels", "last_move", "stars", "dead", "marks", "caption", "title", "unit")),
    geometry_json, contents_json)
