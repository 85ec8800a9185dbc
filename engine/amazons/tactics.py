"""Tactics at the split: how an arrow changes the region structure, for the
move ordering of the search (``split_order``; docs/search-amazons.md,
"Tactics at the split").

Late in the middlegame single arrows decide Amazons games: an arrow that
seals off a region the mover's amazons alone can reach, or that shuts an
opponent's amazon in, swings the count by 5 to 10 squares. The cheap arrow
score of the move ordering sees neither, and with narrow widening an arrow
ranked low is never tried. :func:`arrow_tactics` scores each arrow of one
amazon step by the change of a *potential* of the position, in squares::

    F = sum over regions of e (a - b) / (a + b)

the ``e`` empty squares of each region shared out by its *mobile* amazons,
``a`` the mover's and ``b`` the opponent's (0 without any): a region of one
colour counts all its squares for that colour. An amazon is mobile when it
has an empty king neighbour; one without can never move again and claims
nothing. Regions are the 8-connected groups of empty squares and mobile
amazons (:mod:`stargtp.engine.amazons.regions`, immobile amazons left out).

The score of an arrow is ``F`` after it minus ``F`` before it, where before
the arrow its own square is not counted (it is filled in any case), so an
arrow that neither cuts its region nor shuts an amazon in scores 0: the
score is not 0 only where the region structure changes. Sealing the only
link between the mover's region of 17 squares and the opponent's of 11
scores +6; shutting in one of two opponent amazons that share a 30-square
region with one of the mover's scores +10 (-10 before, 0 after); sealing
one's own amazon into a pocket gains the pocket and costs its share of the
rest.

(Two earlier versions, screened and rejected, docs/strength.md: the first
counted only one-colour regions, a contested region 0, which rewarded
sealing one's own amazon into a pocket away from the fight; both added a
trap term ``max(0, 5 - m)`` for every amazon reaching ``m`` squares, which
fired on most arrows of the late middlegame.)

Cost, per amazon step: the mobile amazons (a mask test each); per arrow, a
test whether its at most 8 neighbours in the region are connected round it
(cached per pattern) and, if not, a flood from one of them that stops once
it holds them all; the region is split into its parts only when the arrow
really cuts it or shuts an amazon in.
"""

from __future__ import annotations

from typing import Callable

from stargtp.engine.amazons.position import Position
from stargtp.engine.amazons.regions import components, flood, spread


def arrow_tactics(board: Position, origin: int, target: int) -> Callable[[int], float]:
    """The tactics score of each arrow after the side to move's amazon steps
    ``origin -> target`` on ``board`` (the position before the move): a
    function ``arrow -> float``, the change of the module's potential ``F``
    for the side to move. ``arrow`` must be a legal arrow of that step."""
    geo = board.geometry
    king_masks = geo.king_masks
    after = board.occupied ^ (1 << origin) ^ (1 << target)
    empty = geo.full_mask & ~after
    me = board.to_move
    mine_mask = theirs_mask = 0
    for s in board.amazons(me):
        s = target if s == origin else s
        if king_masks[s] & empty:
            mine_mask |= 1 << s
    for s in board.amazons(3 - me):
        if king_masks[s] & empty:
            theirs_mask |= 1 << s
    region_set = empty | mine_mask | theirs_mask
    cuts = _ring_cuts(geo)
    region = 0

    def share(part: int) -> float:
        """Region ``part``'s empty squares shared out for the mover: ``e (a - b)
        / (a + b)`` with ``a`` and ``b`` the mobile amazons of the mover and of
        the opponent in it."""
        a = (part & mine_mask).bit_count()
        b = (part & theirs_mask).bit_count()
        if a == b:
            return 0
        return (part & empty).bit_count() * (a - b) / (a + b)

    def score(arrow: int) -> float:
        bit = 1 << arrow
        ring = king_masks[arrow] & region_set
        shut = 0  # mobile amazons whose last empty neighbour the arrow fills
        near = ring & (mine_mask | theirs_mask)
        while near:
            low = near & -near
            near ^= low
            if king_masks[low.bit_length() - 1] & empty == bit:
                shut |= low
        if not shut:
            cut = cuts.get(ring)
            if cut is None:
                cut = cuts[ring] = bool(ring) and flood(ring & -ring, ring, geo) != ring
            if not cut or _joined(ring, region_set ^ bit, geo):
                return 0  # the arrow does not cut its region: the structure stays
        nonlocal region
        if not region:
            region = flood(bit, region_set, geo)  # the target's region: every arrow's
        # Before: the region without the arrow's own square, filled in any case.
        before = share(region & ~bit)
        gained = sum(share(part) for part in components(region & ~bit & ~shut, geo))
        return gained - before

    return score


_RING_CUTS: dict[int, dict[int, bool]] = {}
"""Per board size: whether the squares of a ring (the region's squares among
one square's king neighbours, as a bitboard) fall into more than one
8-connected group, so that filling the square in the middle may cut."""


def _joined(ring: int, within: int, geo) -> bool:
    """Whether the squares of ``ring`` all lie in one 8-connected part of
    ``within``: a flood from one of them that stops as soon as it holds them
    all (a detour round an arrow is usually a few steps long)."""
    part = ring & -ring
    while part & ring != ring:
        grown = spread(part, geo) & within
        if grown == part:
            return False
        part = grown
    return True


def _ring_cuts(geo) -> dict[int, bool]:
    return _RING_CUTS.setdefault(geo.size, {})
