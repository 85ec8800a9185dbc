"""What every game's picture shares: a tiny SVG writer (coordinates,
escaping, elements), the document around a drawing, the caption under it,
the one table of colours (:data:`PALETTE`), and :class:`Drawing`, what a
game's picture module offers to the table in :mod:`stargtp.protocol.pictures`.

Every colour of every picture comes from :data:`PALETTE` and is written
twice, so that it is both plain and themeable: as the presentation attribute
(``fill="#1b1b1b"``, what any SVG viewer draws) and, in the document's
``<style>``, as a rule that sets the same colour from a CSS variable with
that colour as its fallback (``[fill="#1b1b1b"]{fill:var(--stargtp-stone-black,#1b1b1b)}``).
Standalone the picture looks the same either way; inside a page that sets
the variables (the browser page's ``palette.css``, :func:`palette_css`) the
page's colours win.

>>> number(1.005), number(-0.001), number(2.5)
('1', '0', '2.5')
>>> element("circle", {"class": "cell", "cx": 1.0, "r": None, "stroke_width": 0.5})
'<circle class="cell" cx="1" stroke-width="0.5"/>'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from stargtp.engine.colour import BLACK, WHITE

PALETTE: dict[str, str] = {
    "stone-black": "#1b1b1b",
    "stone-white": "#fafafa",
    "stone-edge-black": "#000000",
    "stone-edge-white": "#3a3a3a",
    "bond-white": "#9a9a9a",
    "label-black": "#f0f0f0",
    "label-white": "#202020",
    "label-empty": "#7a6445",
    "last-move": "#d62828",
    "caption": "#333333",
    "mark": "#1f6feb",
    "mark-green": "#2f9e44",
    "board": "#ecd3a0",
    "board-line": "#6b5234",
    "board-accent": "#d9a93c",
    "square-light": "#f0d9b5",
    "square-dark": "#b58863",
    "frame": "#5a4126",
    "arrow": "#a4262c",
    "arrow-edge": "#5c1014",
    "highlight": "#f6e05e",
    "edge-neutral": "#8a7f72",
}
"""Every colour the pictures use, by name: the CSS variable ``--stargtp-NAME``
(docs/pictures.md). Each colour is written once, here; two names never share
a colour, so that each can be changed on its own."""

assert len(set(PALETTE.values())) == len(PALETTE), "two palette names share a colour"

STONE_FILL = {BLACK: PALETTE["stone-black"], WHITE: PALETTE["stone-white"]}
STONE_EDGE = {BLACK: PALETTE["stone-edge-black"], WHITE: PALETTE["stone-edge-white"]}
LAST_MOVE = PALETTE["last-move"]
CAPTION_FILL = PALETTE["caption"]
MARK = PALETTE["mark"]
MARK_GREEN = PALETTE["mark-green"]
EDGE_NEUTRAL = PALETTE["edge-neutral"]
"""A board edge both colours must reach (Y's three), in the connection picture."""

PAINTED = ("fill", "stroke")
"""The attributes whose colours the style sheet ties to the variables."""


def variable(name: str) -> str:
    """The CSS variable of a palette colour, with the colour as its fallback.

    >>> variable("last-move")
    'var(--stargtp-last-move,#d62828)'
    """
    return f"var(--stargtp-{name},{PALETTE[name]})"


def palette_style() -> str:
    """The picture's style sheet: each palette colour, where an element is
    painted with it, taken from its variable instead.

    >>> palette_style().split("}")[0]
    '[fill="#1b1b1b"]{fill:var(--stargtp-stone-black,#1b1b1b)'
    """
    return "".join(f'[{attribute}="{colour}"]{{{attribute}:{variable(name)}}}'
                   for name, colour in PALETTE.items() for attribute in PAINTED)


def palette_css() -> str:
    """A style sheet that sets every palette variable to its colour (the
    browser page's ``palette.css``: the page's own styles use the same
    variables, and a theme changes them in one place).

    >>> palette_css().splitlines()[1]
    '  --stargtp-stone-black: #1b1b1b;'
    """
    lines = [":root {"] + [f"  --stargtp-{name}: {colour};" for name, colour in PALETTE.items()] + ["}"]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Drawing:
    """One game's picture, as the table of :mod:`stargtp.protocol.pictures` holds it."""

    draw: Callable[..., str]
    """``(position, **options) -> str``: the SVG document, on one line."""
    status: Callable[[Any, float], str]
    """``(position, komi) -> str``: the end of the one-line caption, after
    the moves and the last move (the side to move, a result)."""
    options: frozenset[str]
    """The keyword options ``draw`` takes."""
    geometry: Callable[[int], dict[str, Any]]
    """``size -> data``: every point's name and drawing centre, and the
    picture's view box, as JSON-ready data (``stargtp-geometry``)."""
    contents: Callable[[Any], dict[str, list[str]]]
    """``position -> data``: the points each kind of piece is on
    (``stargtp-position``)."""
    territory: Callable[[Any], dict[str, list[str]]] | None = None
    """``position -> {"black": [...], "white": [...]}``: the empty points each
    colour is expected to own, for a game whose score counts territory
    (``stargtp-position``'s ``territory``); None for a game without."""


# -- a tiny SVG writer ---------------------------------------------------------


def number(value: float) -> str:
    """Coordinates with at most two decimals and no float noise."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def escape(text: str) -> str:
    """Text safe inside an element or an attribute; control characters
    (newlines too) become spaces, so the document stays one line."""
    text = _CONTROL.sub(" ", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def element(name: str, attributes: dict[str, object], content: str | None = None) -> str:
    """One element; floats are formatted as coordinates, None values dropped."""
    parts = [name]
    for key, value in attributes.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = number(value)
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{escape(str(value))}"')
    if content is None:
        return "<" + " ".join(parts) + "/>"
    return "<" + " ".join(parts) + ">" + content + f"</{name}>"


def points(coordinates: Iterable[tuple[float, float]]) -> str:
    """A ``points`` attribute: ``x,y x,y ...``."""
    return " ".join(f"{number(x)},{number(y)}" for x, y in coordinates)


def document(width: float, height: float, view: tuple[float, float, float, float],
             body: list[str], title: str | None) -> str:
    """The whole SVG document around ``body``, on one line."""
    attributes = element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": float(round(width)), "height": float(round(height)),
        "viewBox": " ".join(number(v) for v in view),
        "font-family": "DejaVu Sans, Verdana, sans-serif",
    })
    header = attributes[:-2] + ">"  # the open tag of the root element
    parts = [header]
    if title:
        parts.append(element("title", {}, escape(title)))
    parts.append(element("style", {}, palette_style()))
    parts.extend(body)
    parts.append("</svg>")
    return "".join(parts)


# -- the caption ---------------------------------------------------------------


def text_width(text: str, font_size: float) -> float:
    """A generous estimate of a sans-serif line's width, to keep captions inside the view."""
    return len(text) * font_size * 0.58


def caption(text: str, x: float, y: float, font_size: float) -> str:
    """The caption line under a board, centred on ``x``."""
    return element("text", {
        "class": "caption", "x": x, "y": y, "font-size": font_size,
        "text-anchor": "middle", "fill": CAPTION_FILL}, escape(text))
