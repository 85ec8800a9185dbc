"""The *Star rules core: geometry and labels, the position, scoring, and the
fast random playout used by the search."""

from engine.star.geometry import Geometry, geometry
from engine.star.position import PASS, Position
from engine.star.scoring import ColourScore, Score, StarInfo, score

__all__ = ["Geometry", "geometry", "PASS", "Position", "ColourScore", "Score", "StarInfo", "score"]
