"""Tactics at the split: how much an arrow changes the region structure and
the opponent's trapped amazons, for the move ordering of the search
(``split_order``; docs/search-amazons.md, "Tactics at the split").

Late in the middlegame single arrows decide Amazons games: an arrow that
seals off a region the mover's amazons alone can reach, or that shuts an
opponent's amazon in, swings the count by 5 to 10 squares. The cheap arrow
score of the move ordering sees neither, and with narrow widening an arrow
ranked low is never tried. :func:`arrow_tactics` scores each arrow of one
amazon step by the change of a *potential* of the position, in squares::

    F = owned(mover) - owned(opponent) + sum(trap(m) for opponent amazons)
                                       - sum(trap(m) for the mover's amazons)

* ``owned(c)``: the empty squares of the regions where only colour ``c``
  has *mobile* amazons (amazons with an empty king neighbour; an amazon
  without one can never move again and claims nothing). Regions are the
  8-connected groups of empty squares and mobile amazons
  (:mod:`stargtp.engine.amazons.regions`, with immobile amazons left out).
* ``trap(m) = max(0, TRAP_REACH - m)``, ``m`` the number of squares the
  amazon reaches by a queen move: 5 for a shut-in amazon, 0 from 5 squares on.

The score of an arrow is ``F`` after it minus ``F`` before it, where before
the arrow its own square is not counted (it is filled in any case: an arrow
that changes nothing scores 0, not -1). Sealing a region of 7 squares off
for the mover scores +7; shutting in an opponent's amazon that had 2 squares
scores +3 (plus whatever region it then leaves to the mover).

Cost: the reaches of the amazons once per step; per arrow, a bit test for
each amazon whose reach could fall below ``TRAP_REACH`` and a flood of the
arrow's at most 8 neighbours; the region flood only when the arrow can cut
(its neighbours in the region are not connected around it) or shuts an
amazon in.
"""

from __future__ import annotations

from typing import Callable

from stargtp.engine.amazons.position import Position, queen_reach
from stargtp.engine.amazons.regions import components, flood, spread

TRAP_REACH = 5
"""An amazon reaching fewer squares than this counts as (partly) trapped."""


def trap(mobility: int) -> int:
    """The trap term of an amazon reaching ``mobility`` squares.

    >>> [trap(m) for m in (0, 1, 4, 5, 9)]
    [5, 4, 1, 0, 0]
    """
    return TRAP_REACH - mobility if mobility < TRAP_REACH else 0


def arrow_tactics(board: Position, origin: int, target: int) -> Callable[[int], int]:
    """The tactics score of each arrow after the side to move's amazon steps
    ``origin -> target`` on ``board`` (the position before the move): a
    function ``arrow -> int``, the change of the module's potential ``F``
    for the side to move. ``arrow`` must be a legal arrow of that step."""
    geo = board.geometry
    ray_masks, king_masks = geo.ray_masks, geo.king_masks
    after = board.occupied ^ (1 << origin) ^ (1 << target)
    empty = geo.full_mask & ~after
    me = board.to_move
    mine = [target if s == origin else s for s in board.amazons(me)]
    theirs = list(board.amazons(3 - me))
    mine_mask = theirs_mask = 0
    for s in mine:
        if king_masks[s] & empty:
            mine_mask |= 1 << s
    for s in theirs:
        if king_masks[s] & empty:
            theirs_mask |= 1 << s
    region_set = empty | mine_mask | theirs_mask
    # The trap terms an arrow changes: an arrow on an amazon's ray cuts off
    # the rest of that ray, so the k-th square of a ray the amazon reaches
    # ``n`` squares along takes ``n - k + 1`` squares from its mobility.
    trapping: dict[int, int] = {}
    rays = geo.rays
    safe = TRAP_REACH + geo.size - 1  # no ray is longer than size - 1 squares
    for sign, squares in ((1, theirs), (-1, mine)):
        for s in squares:
            reach = queen_reach(s, after, ray_masks)
            mobility = reach.bit_count()
            if mobility >= safe:
                continue
            for d in range(8):
                along = (reach & ray_masks[(s << 3) + d]).bit_count()
                if mobility - along >= TRAP_REACH:
                    continue  # no arrow on this ray traps the amazon
                ray = rays[(s << 3) + d]
                for k in range(along):
                    change = sign * (trap(mobility - along + k) - trap(mobility))
                    if change:
                        trapping[ray[k]] = trapping.get(ray[k], 0) + change
    cuts = _ring_cuts(geo)
    region = 0

    def owned(part: int) -> int:
        """The empty squares of region ``part`` counted for the mover."""
        if part & mine_mask:
            return 0 if part & theirs_mask else (part & empty).bit_count()
        return -(part & empty).bit_count() if part & theirs_mask else 0

    def score(arrow: int) -> int:
        bit = 1 << arrow
        total = trapping.get(arrow, 0)
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
                return total  # the arrow does not cut its region: the structure stays
        nonlocal region
        if not region:
            region = flood(bit, region_set, geo)  # the target's region: every arrow's
        # Before: the region without the arrow's own square, filled in any case.
        before = owned(region & ~bit)
        gained = sum(owned(part) for part in components(region & ~bit & ~shut, geo))
        return total + gained - before

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
