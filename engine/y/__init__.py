"""The rules core of Y: the triangular board in HexGui's notation, the
position (on the shared connection kernel, :mod:`stargtp.engine.connection`),
and the descriptor :data:`Y` that tells everything outside this package what
Y is."""

from stargtp.engine.connection.scoring import CannotScore, Score, score
from stargtp.engine.y.geometry import DEFAULT_SIZE, SIZES, geometry
from stargtp.engine.y.position import Position
from stargtp.engine.y.game import Y  # also sets Position.rules

__all__ = ["DEFAULT_SIZE", "SIZES", "geometry", "Position", "CannotScore", "Score", "score", "Y"]
