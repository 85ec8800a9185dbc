"""A Y position: the connection position
(:class:`stargtp.engine.connection.position.ConnectionPosition`) on the Y
board (:func:`stargtp.engine.y.geometry.geometry`).

>>> p = Position(3)
>>> p.play(p.parse_move("b2")); p.format_move(p.history[0][1]), p.to_move
('b2', 2)
"""

from __future__ import annotations

from stargtp.engine.connection.position import ConnectionPosition
from stargtp.engine.y.geometry import geometry


class Position(ConnectionPosition):
    """A Y board of 1..19 cells a side. Black moves first."""

    game = "y"
    __slots__ = ()
    make_geometry = staticmethod(geometry)
    swap_recolours = True  # HexGui turns the stone over on a Y board
