"""The Y board: a triangle of hexagonal cells, N a side (1 to 19, default
13), in HexGui's conventions (``hexgui/gui/GuiBoard.java`` builds the Y
board, ``gui/BoardDrawerY.java`` draws it):

* row ``r`` (from 0 at the apex) holds the cells ``(0, r)`` .. ``(r, r)``;
  cell ``(column, row)`` is labelled with the column letter and the row
  number (HexPoint's names), so the apex is ``a1``, the second row ``a2 b2``
  and the bottom row of a 13 board ``a13`` .. ``m13``;
* each row is drawn half a cell to the left of the row above (HexGui:
  ``x = centre - row*width/2 + column*width``), so a cell's neighbours are
  ``(c-1, r)``, ``(c+1, r)``, ``(c-1, r-1)``, ``(c, r-1)``, ``(c, r+1)``,
  ``(c+1, r+1)``;
* the edges are ``west`` (column a), ``east`` (the last cell of each row)
  and ``south`` (the bottom row); each corner touches two; both colours must
  join all three with one group.

>>> geo = geometry(3)
>>> [cell.label for cell in geo.cells]
['a1', 'a2', 'b2', 'a3', 'b3', 'c3']
>>> [geo.cells[n].label for n in geo.cells[geo.parse("a2")].neighbours]
['a1', 'b2', 'a3', 'b3']
>>> [sorted(geo.cells[c].edges) for c in (0, 3, 5)]
[['east', 'west'], ['south', 'west'], ['east', 'south']]
"""

from __future__ import annotations

from functools import lru_cache

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.connection.geometry import ROW_HEIGHT, Board, make_board
from stargtp.engine.errors import BadSize

MIN_SIZE = 1
MAX_SIZE = 19
"""HexGui's largest board (``HexPoint.MAX_HEIGHT``)."""
DEFAULT_SIZE = 13
SIZES = tuple(range(MIN_SIZE, MAX_SIZE + 1))

EDGES = ("west", "east", "south")
GOALS = {BLACK: EDGES, WHITE: EDGES}
STEPS = ((-1, 0), (1, 0), (-1, -1), (0, -1), (0, 1), (1, 1))


@lru_cache(maxsize=None)
def geometry(size: int) -> Board:
    """The Y board of ``size`` cells a side; BadSize for other sizes."""
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise BadSize(f"Y boards are {MIN_SIZE} to {MAX_SIZE} cells a side, not {size}")
    points = [(column, row) for row in range(size) for column in range(row + 1)]

    def centre(column: int, row: int) -> tuple[float, float]:
        return column - row / 2, row * ROW_HEIGHT

    def edges_of(column: int, row: int) -> list[str]:
        found = []
        if column == 0:
            found.append("west")
        if column == row:
            found.append("east")
        if row == size - 1:
            found.append("south")
        return found

    return make_board("triangle", size, points, STEPS, centre, edges_of, EDGES, GOALS)
