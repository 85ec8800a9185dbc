"""The *Star rules core: geometry and labels, the position, scoring, the
fast random playout used by the search, SGF (GM[2004]) records, and the
descriptor :data:`STAR` that tells everything outside this package what *Star
is."""

from stargtp.engine.star.geometry import Geometry, geometry
from stargtp.engine.star.position import PASS, Position
from stargtp.engine.star.scoring import ColourScore, Score, StarInfo, score
from stargtp.engine.star.sgf import SgfError, read_sgf, write_sgf
from stargtp.engine.star.game import STAR  # also sets Position.rules

__all__ = ["Geometry", "geometry", "PASS", "Position", "ColourScore", "Score", "StarInfo", "score",
           "SgfError", "read_sgf", "write_sgf", "STAR"]
