"""The kernel shared by the connection games on hexagonal cells (Hex, Y):
the game-neutral board geometry (:mod:`.geometry`), the position with
play/undo and incremental winner detection (:mod:`.position`), the text
diagram, the result (:mod:`.scoring`) and the random playout with the search
hooks (:mod:`.playout`). Each game (``engine/hex``, ``engine/y``) builds its
geometry and descriptor on it."""

from stargtp.engine.connection.geometry import Board, Cell, make_board
from stargtp.engine.connection.position import ConnectionPosition

__all__ = ["Board", "Cell", "make_board", "ConnectionPosition"]
