"""SGF game records of Hex (``GM[11]``, as HexGui writes them): the
connection games' records (:mod:`stargtp.engine.connection.sgf`, where the
format is described) for the Hex position.

>>> from stargtp.engine.hex.position import Position
>>> p = Position(3, swap=True); p.play(p.parse_move("a1")); p.play(p.parse_move("swap-pieces"))
>>> print(write_sgf(p), end="")
(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[3]RU[swap]
;B[a1]
;W[swap-pieces]
)
>>> read_sgf(write_sgf(p)).history == p.history
True
"""

from __future__ import annotations

from stargtp.engine.connection import sgf as connection_sgf
from stargtp.engine.connection.sgf import GM_NUMBER, SgfError
from stargtp.engine.hex.position import Position

__all__ = ["GM_NUMBER", "SgfError", "read_sgf", "write_sgf", "is_mine", "CODEC"]

MARK = ""
"""What the root of a Hex record adds to HexGui's (see the kernel's module docstring)."""


CODEC = connection_sgf.codec(Position, y_board=False, mark=MARK)
"""What a record means (:mod:`stargtp.engine.sgf` reads and writes trees with it)."""


def write_sgf(position: Position, result: str | None = None, komi: float = 0.0,
              properties: dict[str, str] | None = None) -> str:
    """The record of ``position`` (komi means nothing in Hex)."""
    return connection_sgf.write_record(position, result, properties, MARK)


def read_sgf(text: str) -> Position:
    """The position at the end of a Hex record's main line; SgfError when unreadable."""
    return connection_sgf.read_record(text, CODEC)


def is_mine(text: str) -> bool:
    """Whether a ``GM[11]`` record is Hex's by its root (``BOARD[Y]``: Y's)."""
    return connection_sgf.claims_record(text, y_board=False)
