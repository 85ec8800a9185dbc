"""SVG pictures of *Star and Amazons positions, in pure Python.

:func:`position_svg` draws any position of either game and returns the SVG
document as one line of text (no newline inside, so it can travel as a single
protocol response line). Every meaningful element carries a ``class`` (and a
``data-cell`` / ``data-square`` naming its point), so programs and tests can
find them; docs/pictures.md lists the classes.

*Star: ring ``k`` is drawn as a regular pentagon of radius ``k`` with its
corners on the five arm directions (``*`` at the top, then ``S T A R``
clockwise); a cell at offset ``y`` of arm ``s`` sits ``y/k`` of the way along
the pentagon edge from corner ``s`` to corner ``s+1``. The lattice edges come
from :attr:`engine.star.Geometry.neighbours`, so the picture cannot disagree
with the rules core; ring 1's diagonals form the central star bridge, which
is filled. With ``stars=True`` (the default) the position is scored with
:func:`engine.star.scoring.score`: each star's stones are joined by bonds, its
owned pericells get a band outside the perimeter in its colour, dead stones
are faded and crossed, and each of the five quarks is marked with a diamond
filled in its owner's colour.

Amazons: a chequered board with rank 1 at the bottom, amazons as crowns,
arrows as red discs, and the last move as highlighted squares joined by the
amazon's path and the arrow's flight.

>>> from engine.star import Position
>>> text = position_svg(Position(3))
>>> text.startswith("<svg") and "\\n" not in text
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from engine.colour import BLACK, EMPTY, WHITE, colour_name

# -- colours -------------------------------------------------------------------
BACKGROUND = "#ecd3a0"
LINE = "#6b5234"
BRIDGE_FILL = "#d9a93c"
STONE_FILL = {BLACK: "#1b1b1b", WHITE: "#fafafa"}
STONE_EDGE = {BLACK: "#000000", WHITE: "#3a3a3a"}
TEXT_ON = {BLACK: "#f0f0f0", WHITE: "#202020", EMPTY: "#7a6445"}
LAST_MOVE = "#d62828"
NEUTRAL_QUARK = "#ecd3a0"

LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"
ARROW_FILL = "#a4262c"
HIGHLIGHT = "#f6e05e"

ARMS = "*STAR"


# -- a tiny SVG writer ---------------------------------------------------------


def _number(value: float) -> str:
    """Coordinates with at most two decimals and no float noise."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _escape(text: str) -> str:
    """Text safe inside an element or an attribute; control characters
    (newlines too) become spaces, so the document stays one line."""
    text = _CONTROL.sub(" ", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _element(name: str, attributes: dict[str, object], content: str | None = None) -> str:
    """One element; floats are formatted as coordinates, None values dropped."""
    parts = [name]
    for key, value in attributes.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = _number(value)
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{_escape(str(value))}"')
    if content is None:
        return "<" + " ".join(parts) + "/>"
    return "<" + " ".join(parts) + ">" + content + f"</{name}>"


def _text_width(text: str, font_size: float) -> float:
    """A generous estimate of a sans-serif line's width, to keep captions inside the view."""
    return len(text) * font_size * 0.58


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in points)


def _document(width: float, height: float, view: tuple[float, float, float, float],
              body: list[str], title: str | None) -> str:
    attributes = _element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": float(round(width)), "height": float(round(height)),
        "viewBox": " ".join(_number(v) for v in view),
        "font-family": "DejaVu Sans, Verdana, sans-serif",
    })
    header = attributes[:-2] + ">"  # the open tag of the root element
    parts = [header]
    if title:
        parts.append(_element("title", {}, _escape(title)))
    parts.extend(body)
    parts.append("</svg>")
    return "".join(parts)


# -- *Star -----------------------------------------------------------------------


@lru_cache(maxsize=None)
def star_layout(rings: int) -> tuple[tuple[float, float], ...]:
    """The drawing position of every cell (board order) in ring units: the
    centre at (0, 0), ``y`` growing downwards, ring ``k`` on the pentagon of
    radius ``k`` whose first corner (arm ``*``) points straight up.

    >>> [tuple(round(v, 3) for v in xy) for xy in star_layout(2)[:1]]
    [(0.0, -1.0)]
    """
    from engine.star import geometry

    geo = geometry(rings)
    layout = []
    for cell in range(geo.cell_count):
        ring, position = geo.ring_of[cell], geo.position_of[cell]
        arm, offset = divmod(position, ring)
        x0, y0 = _corner(ring, arm)
        x1, y1 = _corner(ring, arm + 1)
        t = offset / ring
        layout.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
    return tuple(layout)


def _corner(radius: float, arm: int) -> tuple[float, float]:
    angle = math.radians(-90 + 72 * arm)
    return radius * math.cos(angle), radius * math.sin(angle)


def _star_bridge(scale: float) -> list[tuple[float, float]]:
    """The pentagram whose points are the five ring-1 cells: outer points on
    the arm directions, inner corners where the diagonals cross."""
    inner = math.cos(math.radians(72)) / math.cos(math.radians(36))
    points = []
    for arm in range(5):
        x, y = _corner(scale, arm)
        points.append((x, y))
        angle = math.radians(-90 + 72 * arm + 36)
        points.append((scale * inner * math.cos(angle), scale * inner * math.sin(angle)))
    return points


def star_svg(position, *, labels: bool = True, last_move: bool = True, stars: bool = True,
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
        from engine.star.scoring import score

        analysis = score(position)  # komi changes totals only, not stars or ownership

    body: list[str] = []
    # Background pentagon, generously around the perimeter band and quarks.
    body.append(_element("polygon", {
        "class": "board", "fill": BACKGROUND, "stroke": "none",
        "points": _points(_corner((rings + 1.45) * u, arm) for arm in range(5))}))
    body.append(_element("polygon", {
        "class": "bridge", "fill": BRIDGE_FILL, "stroke": LINE, "stroke-width": 0.03 * u,
        "points": _points(_star_bridge(u))}))

    # Lattice edges, straight from the geometry's adjacency.
    edges = []
    for cell in range(geo.cell_count):
        for other in geo.neighbours[cell]:
            if other < cell:
                continue
            perimeter = geo.is_peri[cell] and geo.is_peri[other]
            (x0, y0), (x1, y1) = at(cell), at(other)
            edges.append(_element("line", {
                "class": "edge perimeter" if perimeter else "edge",
                "x1": x0, "y1": y0, "x2": x1, "y2": y1,
                "stroke-width": (0.07 if perimeter else 0.035) * u}))
    body.append(_element("g", {"class": "lattice", "stroke": LINE, "stroke-linecap": "round"},
                         "".join(edges)))

    # Arm names beyond the corners.
    for arm in range(5):
        x, y = _corner((rings + 1.1) * u, arm)
        body.append(_element("text", {
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
                parts.append(_element("polygon", {
                    "class": f"owned {colour_name(info.colour)}", "data-cell": geo.labels[cell],
                    "fill": STONE_FILL[info.colour], "stroke": STONE_EDGE[info.colour],
                    "stroke-width": 0.03 * u,
                    "points": _points((x * u, y * u) for x, y in _peri_band(geo, layout, cell))}))
            for cell in info.cells:
                for other in geo.neighbours[cell]:
                    if other > cell and star_of_cell.get(other) == index:
                        (x0, y0), (x1, y1) = at(cell), at(other)
                        parts.append(_element("line", {
                            "class": "bond", "x1": x0, "y1": y0, "x2": x1, "y2": y1,
                            "stroke": STONE_FILL[info.colour] if info.colour == BLACK else "#9a9a9a",
                            "stroke-width": 0.16 * u, "stroke-linecap": "round"}))
            body.append(_element("g", {
                "class": f"star {colour_name(info.colour)}", "id": f"star-{index + 1}",
                "data-peris": len(info.pericells), "data-quarks": info.quarks}, "".join(parts)))

    # Quarks: a diamond beyond each corner pericell, filled by its owner.
    for corner in geo.corners:
        x, y = layout[corner]
        length = math.hypot(x, y)
        cx, cy = x / length * (rings + 0.62) * u, y / length * (rings + 0.62) * u
        r = 0.2 * u
        owner = owner_of_peri.get(corner)
        body.append(_element("polygon", {
            "class": "quark" if owner is None else f"quark {colour_name(owner)}",
            "data-cell": geo.labels[corner],
            "fill": NEUTRAL_QUARK if owner is None else STONE_FILL[owner],
            "stroke": LINE if owner is None else STONE_EDGE[owner], "stroke-width": 0.04 * u,
            "points": _points([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)])}))

    # Cells and stones.
    cell_radius = 0.37 * u
    for cell in range(geo.cell_count):
        x, y = at(cell)
        colour = board[cell]
        label = geo.labels[cell]
        if colour == EMPTY:
            body.append(_element("circle", {
                "class": "cell corner" if geo.is_corner[cell] else "cell",
                "data-cell": label, "cx": x, "cy": y, "r": 0.3 * u if not geo.is_peri[cell] else 0.33 * u,
                "fill": BACKGROUND, "stroke": LINE, "stroke-width": 0.035 * u}))
        else:
            dead = cell in dead_cells
            body.append(_element("circle", {
                "class": f"stone {colour_name(colour)}" + (" dead" if dead else ""),
                "data-cell": label, "cx": x, "cy": y, "r": cell_radius,
                "fill": STONE_FILL[colour], "stroke": STONE_EDGE[colour], "stroke-width": 0.04 * u,
                "opacity": 0.45 if dead else None}))
            if dead:
                d = 0.2 * u
                body.append(_element("path", {
                    "class": "dead-mark", "data-cell": label,
                    "d": f"M{_number(x - d)},{_number(y - d)}L{_number(x + d)},{_number(y + d)}"
                         f"M{_number(x - d)},{_number(y + d)}L{_number(x + d)},{_number(y - d)}",
                    "stroke": LAST_MOVE, "stroke-width": 0.06 * u}))
        if labels:
            body.append(_element("text", {
                "class": "label", "x": x, "y": y + 0.1 * u, "font-size": 0.27 * u,
                "text-anchor": "middle", "fill": TEXT_ON[colour]}, _escape(label)))

    for cell in marks:
        x, y = at(cell)
        body.append(_element("circle", {
            "class": "mark", "data-cell": geo.labels[cell], "cx": x, "cy": y, "r": 0.45 * u,
            "fill": "none", "stroke": "#1f6feb", "stroke-width": 0.08 * u, "stroke-dasharray": f"{_number(0.15 * u)}"}))

    if last_move and position.history:
        colour, move = position.history[-1]
        if move >= 0:
            x, y = at(move)
            body.append(_element("circle", {
                "class": "last-move", "data-cell": geo.labels[move], "cx": x, "cy": y, "r": 0.44 * u,
                "fill": "none", "stroke": LAST_MOVE, "stroke-width": 0.07 * u}))

    # The view box: the background pentagon's extent, plus a caption line.
    extent = [_corner((rings + 1.45) * u, arm) for arm in range(5)]
    left = min(x for x, _ in extent)
    right = max(x for x, _ in extent)
    top = min(y for _, y in extent)
    bottom = max(y for _, y in extent)
    margin = 0.2 * u
    if caption:
        font = 0.42 * u
        body.append(_element("text", {
            "class": "caption", "x": 0.0, "y": bottom + 0.55 * u, "font-size": font,
            "text-anchor": "middle", "fill": "#333333"}, _escape(caption)))
        bottom += 0.8 * u
        half = _text_width(caption, font) / 2
        left, right = min(left, -half), max(right, half)
    view = (left - margin, top - margin, right - left + 2 * margin, bottom - top + 2 * margin)
    return _document(view[2], view[3], view, body, title)


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


# -- Amazons -----------------------------------------------------------------------


def _crown(x: float, y: float, size: float) -> str:
    """A crown in the square whose top-left corner is (x, y)."""
    def p(a: float, b: float) -> str:
        return f"{_number(x + a * size)},{_number(y + b * size)}"

    return (f"M{p(0.22, 0.74)}L{p(0.78, 0.74)}L{p(0.86, 0.28)}L{p(0.66, 0.5)}L{p(0.5, 0.16)}"
            f"L{p(0.34, 0.5)}L{p(0.14, 0.28)}Z"
            f"M{p(0.22, 0.79)}L{p(0.78, 0.79)}L{p(0.78, 0.87)}L{p(0.22, 0.87)}Z")


def amazons_svg(position, *, labels: bool = True, last_move: bool = True, marks: Sequence = (),
                caption: str | None = None, title: str | None = None, unit: float = 40.0) -> str:
    """The SVG picture of an Amazons position: ``labels`` adds the file and rank
    names around the board, ``last_move`` highlights the last move, ``marks``
    outlines extra moves (each a Move: from, to and arrow squares)."""
    from engine.amazons.geometry import ARROW

    geo = position.geometry
    size = geo.size
    u = unit
    border = 0.6 * u if labels else 0.15 * u

    def corner(square: int) -> tuple[float, float]:
        """Top-left corner of a square: rank 1 is drawn at the bottom."""
        column, row = geo.column(square), geo.row(square)
        return column * u, (size - 1 - row) * u

    def centre(square: int) -> tuple[float, float]:
        x, y = corner(square)
        return x + u / 2, y + u / 2

    body: list[str] = []
    squares = []
    for square in range(geo.square_count):
        x, y = corner(square)
        light = (geo.column(square) + geo.row(square)) % 2 == 1
        squares.append(_element("rect", {
            "class": "square light" if light else "square dark", "data-square": geo.names[square],
            "x": x, "y": y, "width": u, "height": u, "fill": LIGHT_SQUARE if light else DARK_SQUARE}))
    body.append(_element("g", {"class": "squares"}, "".join(squares)))
    body.append(_element("rect", {"class": "frame", "x": 0.0, "y": 0.0, "width": size * u, "height": size * u,
                                  "fill": "none", "stroke": "#5a4126", "stroke-width": 0.04 * u}))

    last = position.history[-1][1] if (last_move and position.history) else None
    if last is not None:
        for square, kind in ((last[0], "from"), (last[1], "to")):
            x, y = corner(square)
            body.append(_element("rect", {
                "class": f"last-move {kind}", "data-square": geo.names[square], "x": x, "y": y,
                "width": u, "height": u, "fill": HIGHLIGHT, "opacity": 0.55 if kind == "from" else 0.8}))

    if labels:
        for column in range(size):
            for y in (size * u + 0.42 * u, -0.18 * u):
                body.append(_element("text", {
                    "class": "coordinate", "x": column * u + u / 2, "y": y, "font-size": 0.34 * u,
                    "text-anchor": "middle", "fill": "#5a4126"}, geo.names[column][0]))
        for row in range(size):
            for x in (-0.3 * u, size * u + 0.3 * u):
                body.append(_element("text", {
                    "class": "coordinate", "x": x, "y": (size - 1 - row) * u + u / 2 + 0.12 * u,
                    "font-size": 0.34 * u, "text-anchor": "middle", "fill": "#5a4126"}, str(row + 1)))

    for square in range(geo.square_count):
        contents = position.board[square]
        x, y = corner(square)
        cx, cy = centre(square)
        if contents == ARROW:
            body.append(_element("circle", {
                "class": "arrow", "data-square": geo.names[square], "cx": cx, "cy": cy, "r": 0.3 * u,
                "fill": ARROW_FILL, "stroke": "#5c1014", "stroke-width": 0.04 * u}))
        elif contents in (BLACK, WHITE):
            body.append(_element("path", {
                "class": f"amazon {colour_name(contents)}", "data-square": geo.names[square],
                "d": _crown(x, y, u), "fill": STONE_FILL[contents], "stroke": STONE_EDGE[contents],
                "stroke-width": 0.045 * u, "stroke-linejoin": "round"}))

    def flight(a: int, b: int, kind: str, dashed: bool) -> str:
        (x0, y0), (x1, y1) = centre(a), centre(b)
        return _element("line", {
            "class": f"move-line {kind}", "x1": x0, "y1": y0, "x2": x1, "y2": y1,
            "stroke": "#1f6feb" if kind != "marked" else "#2f9e44", "stroke-width": 0.07 * u,
            "stroke-linecap": "round", "opacity": 0.75,
            "stroke-dasharray": f"{_number(0.12 * u)},{_number(0.1 * u)}" if dashed else None})

    for move in marks:
        body.append(flight(move[0], move[1], "marked", False))
        body.append(flight(move[1], move[2], "marked", True))
        x, y = corner(move[2])
        body.append(_element("rect", {
            "class": "mark", "data-square": geo.names[move[2]], "x": x + 0.08 * u, "y": y + 0.08 * u,
            "width": 0.84 * u, "height": 0.84 * u, "fill": "none", "stroke": "#2f9e44", "stroke-width": 0.08 * u}))

    if last is not None:
        body.append(flight(last[0], last[1], "amazon-path", False))
        body.append(flight(last[1], last[2], "arrow-flight", True))
        cx, cy = centre(last[2])
        body.append(_element("circle", {
            "class": "last-move shot", "data-square": geo.names[last[2]], "cx": cx, "cy": cy, "r": 0.4 * u,
            "fill": "none", "stroke": LAST_MOVE, "stroke-width": 0.06 * u}))

    top, left = -border, -border
    width = size * u + 2 * border
    height = size * u + 2 * border
    if caption:
        font = 0.4 * u
        body.append(_element("text", {
            "class": "caption", "x": size * u / 2, "y": size * u + border + 0.45 * u, "font-size": font,
            "text-anchor": "middle", "fill": "#333333"}, _escape(caption)))
        height += 0.7 * u
        overflow = max(0.0, _text_width(caption, font) + 0.4 * u - width)
        left -= overflow / 2
        width += overflow
    view = (left, top, width, height)
    return _document(width, height, view, body, title)


# -- either game -----------------------------------------------------------------------


def position_svg(position, **options) -> str:
    """The picture of a position of either game as ONE line of SVG (no
    newline, no blank line). ``options`` are those of :func:`star_svg` or
    :func:`amazons_svg`; an option the game does not know is a TypeError."""
    if position.game == "star":
        return star_svg(position, **options)
    if position.game == "amazons":
        return amazons_svg(position, **options)
    raise ValueError(f"no picture for the game {position.game!r}")


def describe(position, komi: float = 0.0) -> str:
    """A one-line caption: moves played, the last move, the side to move, and
    for *Star the current result (``B+3``) or for Amazons the winner."""
    parts = [f"{len(position.history)} moves"]
    if position.history:
        colour, move = position.history[-1]
        parts.append(f"last {colour_name(colour)} {position.format_move(move)}")
    if position.game == "star":
        from engine.star.scoring import score

        if position.is_over():
            parts.append(f"game over, {score(position, komi).gtp_result()}")
        else:
            parts.append(f"{colour_name(position.to_move)} to move, score now {score(position, komi).gtp_result()}")
    elif position.is_over():
        parts.append(f"game over, {colour_name(3 - position.to_move)} wins")
    else:
        parts.append(f"{colour_name(position.to_move)} to move")
    return ", ".join(parts)


__all__ = ["position_svg", "star_svg", "amazons_svg", "star_layout", "describe"]
