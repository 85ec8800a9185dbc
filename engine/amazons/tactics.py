"""Tactics at the split: how much an arrow changes the region structure and
the opponent's trapped amazons, for the move ordering of the search
(``split_order``; docs/search-amazons.md, "Tactics at the split").

Late in the middlegame single arrows decide Amazons games: an arrow that
seals off a region the mover's amazons alone can reach, or that shuts an
opponent's amazon in, swings the count by 5 to 10 squares. The cheap arrow
score of the move ordering sees neither, and with narrow widening an arrow
ranked low is never tried. :func:`arrow_tactics` scores each arrow of one
amazon step by the change of a *potential* of the position, in squares::

    F = sum over regions of share(region)
        + sum(trap(m) for the opponent's amazons) - sum(trap(m) for the mover's)

* ``share(region) = e (a - b) / (a + b)``: the region's ``e`` empty squares
  shared out by its *mobile* amazons, ``a`` the mover's and ``b`` the
  opponent's (0 without any). A region of one colour counts all its squares
  for that colour. An amazon is mobile when it has an empty king neighbour;
  one without can never move again and claims nothing. Regions are the
  8-connected groups of empty squares and mobile amazons
  (:mod:`stargtp.engine.amazons.regions`, with immobile amazons left out).
* ``trap(m) = max(0, TRAP_REACH - m)``, ``m`` the number of squares the
  amazon reaches by a queen move: 5 for a shut-in amazon, 0 from 5 squares on.

The score of an arrow is ``F`` after it minus ``F`` before it, where before
the arrow its own square is not counted (it is filled in any case: an arrow
that changes nothing scores 0, not -1). Sealing the only link between the
mover's region of 17 squares and the opponent's of 11 scores +6; shutting
in one of two opponent amazons that share a 30-square region with one of
the mover's scores +10 for the region (-10 before, 0 after) plus its trap
change. Sealing one's own amazon into a pocket costs its share of the rest.

(A first version counted only one-colour regions, a contested region 0. It
rewarded sealing one's own amazon into a pocket, away from the fight, and
lost its screen 1-7: docs/strength.md.)

Cost: the reaches of the amazons once per step, and the trap changes along
the rays where an arrow could bring an amazon below ``TRAP_REACH``; per
arrow a look-up and a connectivity test of its at most 8 neighbours in the
region (a flood round the arrow, stopped once they are joined); the region
split into parts only when the arrow cuts it or shuts an amazon in.
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


def arrow_tactics(board: Position, origin: int, target: int) -> Callable[[int], float]:
    """The tactics score of each arrow after the side to move's amazon steps
    ``origin -> target`` on ``board`` (the position before the move): a
    function ``arrow -> float``, the change of the module's potential ``F``
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

    def owned(part: int) -> float:
        """Region ``part``'s empty squares shared out for the mover: ``e (a - b)
        / (a + b)`` with ``a`` and ``b`` the mobile amazons of the mover and of
        the opponent in it."""
        a = (part & mine_mask).bit_count()
        b = (part & theirs_mask).bit_count()
        if a == b:
            return 0
        return (part & empty).bit_count() * (a - b) / (a + b)

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
