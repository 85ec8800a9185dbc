"""SVG pictures of positions, in pure Python.

:func:`position_svg` draws any position of a game that has a picture and
returns the SVG document as one line of text (no newline inside, so it can
travel as a single protocol response line). Every meaningful element carries
a ``class`` (and a ``data-cell`` / ``data-square`` naming its point), so
programs and tests can find them; docs/pictures.md lists the classes.

Each game's drawing is in its own module (:mod:`stargtp.protocol.pictures.star`,
:mod:`stargtp.protocol.pictures.amazons`), on the shared primitives of
:mod:`stargtp.protocol.pictures.svg`; :data:`DRAWINGS` is the one table that finds a
game's drawing by the game's name.

>>> from stargtp.engine.star import Position
>>> text = position_svg(Position(3))
>>> text.startswith("<svg") and "\\n" not in text
True
"""

from __future__ import annotations

from typing import Any

from stargtp.engine.colour import colour_name
from stargtp.engine.hex.geometry import geometry as hex_board
from stargtp.engine.y.geometry import geometry as y_board
from stargtp.protocol.pictures import amazons, connection, star
from stargtp.protocol.pictures.svg import Drawing
from stargtp.protocol.tools import plural

DRAWINGS: dict[str, Drawing] = {
    "star": star.DRAWING,
    "amazons": amazons.DRAWING,
    "hex": connection.drawing(hex_board),
    "y": connection.drawing(y_board),
}
"""Every game's picture (and the board data front ends draw their own from),
by the game's name."""


def drawing_for(position: Any) -> Drawing:
    """The picture of ``position``'s game; ValueError for a game without one."""
    try:
        return DRAWINGS[position.game]
    except KeyError:
        raise ValueError(f"no picture for the game {position.game!r}") from None


def position_svg(position: Any, **options: Any) -> str:
    """The picture of a position as ONE line of SVG (no newline, no blank
    line). ``options`` are those of the game's ``draw`` (``drawing_for(position).options``);
    an option the game does not know is a TypeError."""
    return drawing_for(position).draw(position, **options)


def describe(position: Any, komi: float = 0.0) -> str:
    """A one-line caption: moves played, the last move, then the game's own
    status: the side to move and for *Star the current result (``B+3``), for
    Amazons the winner once the game is over."""
    status = drawing_for(position).status
    parts = [plural(len(position.history), "move")]
    if position.history:
        colour, move = position.history[-1]
        parts.append(f"last {colour_name(colour)} {position.format_move(move)}")
    parts.append(status(position, komi))
    return ", ".join(parts)


__all__ = ["DRAWINGS", "Drawing", "describe", "drawing_for", "position_svg"]
