"""What every game's picture shares: a tiny SVG writer (coordinates,
escaping, elements), the document around a drawing, the caption under it,
the stone colours, and :class:`Drawing`, what a game's picture module
offers to the table in :mod:`stargtp.protocol.pictures`.

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

STONE_FILL = {BLACK: "#1b1b1b", WHITE: "#fafafa"}
STONE_EDGE = {BLACK: "#000000", WHITE: "#3a3a3a"}
LAST_MOVE = "#d62828"
CAPTION_FILL = "#333333"


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
