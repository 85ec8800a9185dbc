"""The Hex rules core: the N x N rhombus in HexGui's notation, the position
(on the shared connection kernel, :mod:`stargtp.engine.connection`), and the
descriptor :data:`HEX` that tells everything outside this package what Hex
is."""

from stargtp.engine.connection.scoring import CannotScore, Score, score
from stargtp.engine.hex.geometry import DEFAULT_SIZE, SIZES, geometry
from stargtp.engine.hex.position import Position
from stargtp.engine.hex.game import HEX  # also sets Position.rules

__all__ = ["DEFAULT_SIZE", "SIZES", "geometry", "Position", "CannotScore", "Score", "score", "HEX"]
