"""The Hex board: an N x N rhombus of hexagonal cells, N from 1 to 19
(default 11), in HexGui's conventions (``hexgui/hex/HexPoint.java``,
``gui/GuiBoard.java``, ``gui/BoardDrawerDiamond.java``):

* cell ``(column, row)`` is labelled with the column letter and the row
  number, ``a1`` .. ``s19``; ``a1`` is the top-left (acute) corner;
* each row is drawn half a cell to the right of the row above, so a cell's
  neighbours are ``(c-1, r)``, ``(c+1, r)``, ``(c, r-1)``, ``(c+1, r-1)``,
  ``(c-1, r+1)``, ``(c, r+1)``;
* the edges are ``north`` (row 1), ``south`` (row N), ``west`` (column a) and
  ``east`` (the last column); black owns north and south, white west and east
  (HexGui colours the north and south edges black).

>>> geo = geometry(3)
>>> [cell.label for cell in geo.cells][:4], geo.goals
(['a1', 'b1', 'c1', 'a2'], {1: ('north', 'south'), 2: ('west', 'east')})
>>> [geo.cells[n].label for n in geo.cells[geo.parse("b2")].neighbours]
['b1', 'c1', 'a2', 'c2', 'a3', 'b3']
>>> sorted(geo.cells[0].edges), (geo.cells[4].x, geo.cells[4].y == geo.cells[1].y + ROW_HEIGHT)
(['north', 'west'], (1.5, True))
"""

from __future__ import annotations

from functools import lru_cache

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.connection.geometry import ROW_HEIGHT, Board, make_board
from stargtp.engine.errors import BadSize

MIN_SIZE = 1
MAX_SIZE = 19
"""HexGui's largest board (``HexPoint.MAX_WIDTH``)."""
DEFAULT_SIZE = 11
SIZES = tuple(range(MIN_SIZE, MAX_SIZE + 1))

EDGES = ("north", "east", "south", "west")
GOALS = {BLACK: ("north", "south"), WHITE: ("west", "east")}
STEPS = ((-1, 0), (1, 0), (0, -1), (1, -1), (-1, 1), (0, 1))


@lru_cache(maxsize=None)
def geometry(size: int) -> Board:
    """The Hex board of ``size`` x ``size`` cells; BadSize for other sizes."""
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise BadSize(f"Hex boards are {MIN_SIZE} to {MAX_SIZE} cells a side, not {size}")
    points = [(column, row) for row in range(size) for column in range(size)]

    def centre(column: int, row: int) -> tuple[float, float]:
        return column + row / 2, row * ROW_HEIGHT

    def edges_of(column: int, row: int) -> list[str]:
        found = []
        if row == 0:
            found.append("north")
        if column == size - 1:
            found.append("east")
        if row == size - 1:
            found.append("south")
        if column == 0:
            found.append("west")
        return found

    return make_board("rhombus", size, points, STEPS, centre, edges_of, EDGES, GOALS)
