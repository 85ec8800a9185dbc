"""The Game of the Amazons rules core: geometry and notation, the position
with play/undo and move generation, scoring of finished or settled games, the
fast random playout with its evaluation, the Amazons search, SGF (GM[18])
records, and the descriptor :data:`AMAZONS` that tells everything outside
this package what the Amazons are."""

from stargtp.engine.amazons.geometry import ARROW, SIZES, Geometry, geometry
from stargtp.engine.amazons.evaluation import evaluate
from stargtp.engine.amazons.playout import random_move, random_playout
from stargtp.engine.amazons.position import Move, Position
from stargtp.engine.amazons.scoring import CannotScore, Score, score
from stargtp.engine.amazons.sgf import SgfError, read_sgf, write_sgf
from stargtp.engine.amazons.game import AMAZONS  # also sets Position.rules

__all__ = ["ARROW", "SIZES", "Geometry", "geometry", "Move", "Position", "CannotScore",
           "Score", "score", "evaluate", "random_move", "random_playout", "SgfError",
           "read_sgf", "write_sgf", "AMAZONS"]
