"""The Game of the Amazons rules core: geometry and notation, the position
with play/undo and move generation, scoring of finished or settled games, the
fast random playout with its evaluation, and SGF (GM[18]) records."""

from engine.amazons.geometry import ARROW, SIZES, Geometry, geometry
from engine.amazons.playout import evaluate, random_move, random_playout
from engine.amazons.position import Move, Position
from engine.amazons.scoring import CannotScore, Score, score
from engine.amazons.sgf import SgfError, read_sgf, write_sgf

__all__ = ["ARROW", "SIZES", "Geometry", "geometry", "Move", "Position", "CannotScore",
           "Score", "score", "evaluate", "random_move", "random_playout", "SgfError",
           "read_sgf", "write_sgf"]
