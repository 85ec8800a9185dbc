"""The shape of a connection board made of hexagonal cells (Hex, Y), in one
game-neutral form that the position, the playout, the text diagram and any
picture module read.

A :class:`Board` is a list of cells (:class:`Cell`), numbered ``0 .. n-1`` in
board order (row by row from the top row, left to right: HexGui's order), each
with:

* ``label``: its name in moves (``a1``: column letter, row number, as HexGui
  and the Hex engines write it);
* ``column``, ``row``: HexGui's ``HexPoint`` coordinates (``x``, ``y``), both
  from 0; the label is ``chr(ord('a') + column) + str(row + 1)``;
* ``x``, ``y``: the cell's drawing centre in unit coordinates: cells are
  pointy-topped regular hexagons one unit wide (corner to corner ``2/sqrt(3)``
  tall), ``x`` grows to the right and ``y`` downwards, neighbouring centres are
  exactly 1 apart, and the top-left-most centre is at ``(0, 0)`` (``x`` may be
  negative on the Y board, whose apex is at ``x = 0``);
* ``neighbours``: the indices of its adjacent cells, ascending;
* ``edges``: the names of the board edges it touches (a corner touches two).

The board also names its ``edges`` (in a fixed order) and, per colour, the
edges that colour must join with one group to win (``goals``): Hex's black
joins ``north`` and ``south``, white ``west`` and ``east``; in Y both colours
join all three of ``west``, ``east`` and ``south``.

For the fast code the board also has a bit layout: cell ``i`` is bit
``bit_of[i]`` (one bit per cell, with a spare column so that shifts find
neighbours, see :attr:`Board.shifts`).

Moves are cell indices, plus one more: the swap move (``swap-pieces``,
:attr:`Board.swap_move`, numbered ``cell_count``, just past the cells), which
``bit_of`` also gives a bit, a spare one that no cell uses, so that a search
can keep statistics for it like any other move.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from stargtp.engine.errors import IllegalMove

ROW_HEIGHT = math.sqrt(3) / 2
"""Vertical distance between the centres of two neighbouring rows (cells one unit wide)."""

MAX_COLUMNS = 26
"""Column letters run ``a`` .. ``z``: no board is wider."""


@dataclass(frozen=True)
class Cell:
    """One cell of a connection board (see the module docstring)."""

    index: int
    label: str
    column: int
    row: int
    x: float
    y: float
    neighbours: tuple[int, ...]
    edges: frozenset[str]


@dataclass(frozen=True, eq=False)
class Board:
    """The geometry of one board: cells, edges, and each colour's goal.

    Use :func:`make_board` to build one; the game packages cache theirs
    (``stargtp.engine.hex.geometry.geometry(size)``).
    """

    shape: str
    """``rhombus`` (Hex) or ``triangle`` (Y)."""
    size: int
    """Cells along a side."""
    cells: tuple[Cell, ...]
    edges: tuple[str, ...]
    """The board's edges, in a fixed order."""
    goals: dict[int, tuple[str, ...]]
    """Colour (BLACK=1, WHITE=2) -> the edges it must join with one group."""
    stride: int
    """Bits per row in the bit layout (``size + 1``: one spare column)."""
    bit_of: tuple[int, ...] = field(repr=False)
    """Move -> its bit (a power of two) in the bit layout: each cell's, and
    for the swap move (:attr:`swap_move`) a spare bit no cell has."""
    cell_of_bit: dict[int, int] = field(repr=False)
    """Bit position -> cell index."""
    shifts: tuple[int, ...] = field(repr=False)
    """The six bit-position offsets of a cell's neighbours (negative: down)."""
    all_bits: int = field(repr=False)
    """The mask of every cell."""
    edge_bits: dict[str, int] = field(repr=False)
    """Edge name -> the mask of the cells touching it."""
    neighbour_bits: tuple[int, ...] = field(repr=False)
    """Cell index -> the mask of its neighbours."""
    _by_label: dict[str, int] = field(repr=False)

    @property
    def cell_count(self) -> int:
        return len(self.cells)

    @property
    def swap_move(self) -> int:
        """The move number of ``swap-pieces``: ``cell_count``, past every cell."""
        return len(self.cells)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(cell.label for cell in self.cells)

    @property
    def bits(self) -> int:
        """Width of the bit layout: every cell's bit is below this."""
        return self.stride * self.size

    def parse(self, text: str) -> int:
        """The index of the cell labelled ``text`` (any case, surrounding
        blanks ignored); IllegalMove when no cell has that label."""
        index = self._by_label.get(text.strip().lower())
        if index is None:
            raise IllegalMove(f"no cell {text.strip()!r} on this board")
        return index

    def mask_of(self, cells) -> int:
        """The bit mask of some cells."""
        mask = 0
        for cell in cells:
            mask |= self.bit_of[cell]
        return mask

    def cells_of(self, mask: int) -> list[int]:
        """The cells of a bit mask, in board order."""
        return sorted(self.cell_of_bit[bit] for bit in _bit_positions(mask))

    def spread(self, mask: int) -> int:
        """``mask`` with every neighbour of its cells added (one step of a flood)."""
        grown = mask
        for shift in self.shifts:
            grown |= (mask << shift) if shift > 0 else (mask >> -shift)
        return grown & self.all_bits

    def flood(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to the cells of ``seed & within``
        (through cells of ``within``)."""
        return self.grow(seed & within, within)

    @cached_property
    def grow(self) -> Callable[[int, int], int]:
        """``grow(region, within)``: :meth:`flood` for a ``region`` already
        inside ``within``, the fast form the position and the playouts call.
        The six shifts are ``+-1`` (the row), ``+-stride`` and ``+-(stride +
        d)`` (the rows below and above), ``d`` being -1 or +1 by the board's
        shape, so the two shifts to a row are one shift of a two-cell pair;
        tests/test_connection_games.py checks it against :meth:`spread`."""
        stride = self.stride
        shifts = set(self.shifts)
        d = 1 if stride + 1 in shifts else -1
        if shifts != {1, -1, stride, -stride, stride + d, -(stride + d)}:
            raise ValueError(f"unexpected neighbour shifts {sorted(shifts)}")
        if d == -1:
            def grow(region: int, within: int) -> int:
                while True:
                    grown = (region | region << 1 | region >> 1 | (region | region << 1) >> stride
                             | (region | region >> 1) << stride) & within
                    if grown == region:
                        return region
                    region = grown
        else:
            def grow(region: int, within: int) -> int:
                while True:
                    grown = (region | region << 1 | region >> 1 | (region | region >> 1) >> stride
                             | (region | region << 1) << stride) & within
                    if grown == region:
                        return region
                    region = grown
        return grow

    def __getstate__(self) -> dict:
        """Pickled without the cached fast functions (rebuilt on first use)."""
        state = dict(self.__dict__)
        state.pop("grow", None)
        state.pop("goal_bits", None)
        return state

    @cached_property
    def goal_bits(self) -> dict[int, tuple[int, ...]]:
        """Colour -> the masks of the edges it must join (:attr:`goals`)."""
        return {colour: tuple(self.edge_bits[edge] for edge in edges)
                for colour, edges in self.goals.items()}

    def describe(self) -> dict:
        """The geometry as JSON-ready data: ``{"shape", "size", "edges",
        "goals": {"black": [...], "white": [...]}, "cells": [{"index",
        "label", "column", "row", "x", "y", "neighbours", "edges"}, ...]}``."""
        return {
            "shape": self.shape, "size": self.size, "edges": list(self.edges),
            "goals": {"black": list(self.goals[1]), "white": list(self.goals[2])},
            "cells": [{"index": c.index, "label": c.label, "column": c.column, "row": c.row,
                       "x": c.x, "y": c.y, "neighbours": list(c.neighbours),
                       "edges": [e for e in self.edges if e in c.edges]} for c in self.cells],
        }


def _bit_positions(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def label(column: int, row: int) -> str:
    """HexGui's name of the cell at ``(column, row)`` (both from 0): ``a1``.

    >>> label(0, 0), label(10, 10), label(18, 0)
    ('a1', 'k11', 's1')
    """
    return f"{chr(ord('a') + column)}{row + 1}"


def make_board(shape: str, size: int, points: list[tuple[int, int]],
               neighbour_steps: tuple[tuple[int, int], ...],
               centre, edges_of, edges: tuple[str, ...],
               goals: dict[int, tuple[str, ...]]) -> Board:
    """Build a :class:`Board` from its cells' ``(column, row)`` points in board
    order, the six ``(dcolumn, drow)`` steps to a neighbour, ``centre(column,
    row) -> (x, y)``, ``edges_of(column, row) -> edge names``, the edge order
    and the goals."""
    if size > MAX_COLUMNS:
        raise ValueError(f"no more than {MAX_COLUMNS} columns")
    stride = size + 1
    index_of = {point: i for i, point in enumerate(points)}
    cells = []
    for i, (column, row) in enumerate(points):
        near = sorted(index_of[(column + dc, row + dr)] for dc, dr in neighbour_steps
                      if (column + dc, row + dr) in index_of)
        x, y = centre(column, row)
        cells.append(Cell(i, label(column, row), column, row, x, y, tuple(near),
                          frozenset(edges_of(column, row))))
    bit_pos = [row * stride + column for column, row in points]
    cell_bits = tuple(1 << b for b in bit_pos)
    bit_of = (*cell_bits, 1 << size)  # the swap move: row 0's spare column
    shifts = tuple(dr * stride + dc for dc, dr in neighbour_steps)
    all_bits = sum(cell_bits)
    edge_bits = {edge: sum(bit_of[c.index] for c in cells if edge in c.edges) for edge in edges}
    neighbour_bits = tuple(sum(bit_of[n] for n in c.neighbours) for c in cells)
    return Board(shape, size, tuple(cells), edges, goals, stride, bit_of,
                 {b: i for i, b in enumerate(bit_pos)}, shifts, all_bits, edge_bits,
                 neighbour_bits, {c.label: c.index for c in cells})
