"""The Amazons picture: a chequered board with rank 1 at the bottom, amazons
as crowns, arrows as red discs, and the last move as highlighted squares
joined by the amazon's path and the arrow's flight."""

from __future__ import annotations

from collections.abc import Sequence

from stargtp.engine.colour import BLACK, WHITE, colour_name
from stargtp.protocol.pictures.svg import (
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
    text_width,
)

LIGHT_SQUARE = PALETTE["square-light"]
DARK_SQUARE = PALETTE["square-dark"]
FRAME = PALETTE["frame"]
ARROW_FILL = PALETTE["arrow"]
ARROW_EDGE = PALETTE["arrow-edge"]
HIGHLIGHT = PALETTE["highlight"]


def _crown(x: float, y: float, size: float) -> str:
    """A crown in the square whose top-left corner is (x, y)."""
    def p(a: float, b: float) -> str:
        return f"{number(x + a * size)},{number(y + b * size)}"

    return (f"M{p(0.22, 0.74)}L{p(0.78, 0.74)}L{p(0.86, 0.28)}L{p(0.66, 0.5)}L{p(0.5, 0.16)}"
            f"L{p(0.34, 0.5)}L{p(0.14, 0.28)}Z"
            f"M{p(0.22, 0.79)}L{p(0.78, 0.79)}L{p(0.78, 0.87)}L{p(0.22, 0.87)}Z")


def draw(position, *, labels: bool = True, last_move: bool = True, marks: Sequence = (),
         caption: str | None = None, title: str | None = None, unit: float = 40.0) -> str:
    """The SVG picture of an Amazons position: ``labels`` adds the file and rank
    names around the board, ``last_move`` highlights the last move, ``marks``
    outlines extra moves (each a Move: from, to and arrow squares)."""
    from stargtp.engine.amazons.geometry import ARROW

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
        squares.append(element("rect", {
            "class": "square light" if light else "square dark", "data-square": geo.names[square],
            "data-point": geo.names[square],
            "x": x, "y": y, "width": u, "height": u, "fill": LIGHT_SQUARE if light else DARK_SQUARE}))
    body.append(element("g", {"class": "squares"}, "".join(squares)))
    body.append(element("rect", {"class": "frame", "x": 0.0, "y": 0.0, "width": size * u, "height": size * u,
                                 "fill": "none", "stroke": FRAME, "stroke-width": 0.04 * u}))

    last = position.history[-1][1] if (last_move and position.history) else None
    if last is not None:
        for square, kind in ((last[0], "from"), (last[1], "to")):
            x, y = corner(square)
            body.append(element("rect", {
                "class": f"last-move {kind}", "data-square": geo.names[square], "x": x, "y": y,
                "width": u, "height": u, "fill": HIGHLIGHT, "opacity": 0.55 if kind == "from" else 0.8}))

    if labels:
        for column in range(size):
            for y in (size * u + 0.42 * u, -0.18 * u):
                body.append(element("text", {
                    "class": "coordinate", "x": column * u + u / 2, "y": y, "font-size": 0.34 * u,
                    "text-anchor": "middle", "fill": FRAME}, geo.names[column][0]))
        for row in range(size):
            for x in (-0.3 * u, size * u + 0.3 * u):
                body.append(element("text", {
                    "class": "coordinate", "x": x, "y": (size - 1 - row) * u + u / 2 + 0.12 * u,
                    "font-size": 0.34 * u, "text-anchor": "middle", "fill": FRAME}, str(row + 1)))

    for square in range(geo.square_count):
        contents = position.board[square]
        x, y = corner(square)
        cx, cy = centre(square)
        if contents == ARROW:
            body.append(element("circle", {
                "class": "arrow", "data-square": geo.names[square], "data-point": geo.names[square], "cx": cx, "cy": cy, "r": 0.3 * u,
                "fill": ARROW_FILL, "stroke": ARROW_EDGE, "stroke-width": 0.04 * u}))
        elif contents in (BLACK, WHITE):
            body.append(element("path", {
                "class": f"amazon {colour_name(contents)}", "data-square": geo.names[square],
                "data-point": geo.names[square],
                "d": _crown(x, y, u), "fill": STONE_FILL[contents], "stroke": STONE_EDGE[contents],
                "stroke-width": 0.045 * u, "stroke-linejoin": "round"}))

    def flight(a: int, b: int, kind: str, dashed: bool) -> str:
        (x0, y0), (x1, y1) = centre(a), centre(b)
        return element("line", {
            "class": f"move-line {kind}", "x1": x0, "y1": y0, "x2": x1, "y2": y1,
            "stroke": MARK if kind != "marked" else MARK_GREEN, "stroke-width": 0.07 * u,
            "stroke-linecap": "round", "opacity": 0.75,
            "stroke-dasharray": f"{number(0.12 * u)},{number(0.1 * u)}" if dashed else None})

    for move in marks:
        body.append(flight(move[0], move[1], "marked", False))
        body.append(flight(move[1], move[2], "marked", True))
        x, y = corner(move[2])
        body.append(element("rect", {
            "class": "mark", "data-square": geo.names[move[2]], "x": x + 0.08 * u, "y": y + 0.08 * u,
            "width": 0.84 * u, "height": 0.84 * u, "fill": "none", "stroke": MARK_GREEN, "stroke-width": 0.08 * u}))

    if last is not None:
        body.append(flight(last[0], last[1], "amazon-path", False))
        body.append(flight(last[1], last[2], "arrow-flight", True))
        cx, cy = centre(last[2])
        body.append(element("circle", {
            "class": "last-move shot", "data-square": geo.names[last[2]], "cx": cx, "cy": cy, "r": 0.4 * u,
            "fill": "none", "stroke": LAST_MOVE, "stroke-width": 0.06 * u}))

    top, left = -border, -border
    width = size * u + 2 * border
    height = size * u + 2 * border
    if caption:
        font = 0.4 * u
        body.append(caption_element(caption, size * u / 2, size * u + border + 0.45 * u, font))
        height += 0.7 * u
        overflow = max(0.0, text_width(caption, font) + 0.4 * u - width)
        left -= overflow / 2
        width += overflow
    view = (left, top, width, height)
    return document(width, height, view, body, title)


def status(position, komi: float = 0.0) -> str:
    """The caption's end: the side to move, or the winner (komi means nothing here)."""
    if position.is_over():
        return f"game over, {colour_name(3 - position.to_move)} wins"
    return f"{colour_name(position.to_move)} to move"


def geometry_json(size: int, unit: float = 40.0) -> dict:
    """The board as a front end needs it, in the coordinates of :func:`draw`
    with its default options (``stargtp-geometry``, docs/protocol.md): every
    square in board order (a1, b1, ... rank by rank) with its name, column
    and row (from 0, row 0 is rank 1) and centre; the document's view box,
    width and height; and the side of a square, ``unit``. Square ``(column,
    row)`` covers ``column*unit <= x < (column+1)*unit`` and
    ``(size-1-row)*unit <= y < (size-row)*unit``.

    >>> geometry_json(6)["squares"][0]
    {'name': 'a1', 'column': 0, 'row': 0, 'x': 20.0, 'y': 220.0}
    """
    from stargtp.engine.amazons.geometry import geometry

    geo = geometry(size)
    squares = [{"name": geo.names[s], "column": geo.column(s), "row": geo.row(s),
                "x": float(number(geo.column(s) * unit + unit / 2)),
                "y": float(number((size - 1 - geo.row(s)) * unit + unit / 2))}
               for s in range(geo.square_count)]
    border = 0.6 * unit  # draw()'s border with labels, no caption
    side = size * unit + 2 * border
    view = (-border, -border, side, side)
    return {"viewBox": [float(number(v)) for v in view], "width": round(side), "height": round(side),
            "unit": unit, "squares": squares}


def contents_json(position) -> dict:
    """The board's pieces: ``{"black": [...], "white": [...], "arrows": [...]}``,
    square names in board order."""
    from stargtp.engine.amazons.geometry import ARROW

    names = position.geometry.names
    board = position.board
    found: dict[str, list[str]] = {"black": [], "white": [], "arrows": []}
    keys = {BLACK: "black", WHITE: "white", ARROW: "arrows"}
    for square, contents in enumerate(board):
        key = keys.get(contents)
        if key is not None:
            found[key].append(names[square])
    return found


def territory_json(position) -> dict[str, list[str]]:
    """The expected territory, square by square: the empty squares each
    colour's amazons reach in fewer queen moves than the other's (ties and
    squares nobody reaches count for nobody): the masks of
    :func:`stargtp.engine.amazons.evaluation.queen_territory_masks`, whose
    counts are the analysis's ``territory`` field; once the regions are
    separated they are the score's territories.

    >>> from stargtp.engine.amazons import Position
    >>> {colour: len(squares) for colour, squares in territory_json(Position(6)).items()}
    {'black': 4, 'white': 4}
    """
    from stargtp.engine.amazons.evaluation import queen_territory_masks

    names = position.geometry.names
    return {colour_name(colour): [names[s] for s in range(len(names)) if mask >> s & 1]
            for colour, mask in queen_territory_masks(position).items()}


DRAWING = Drawing(draw, status, frozenset(("labels", "last_move", "marks", "caption", "title", "unit")),
                  geometry_json, contents_json, territory_json)
