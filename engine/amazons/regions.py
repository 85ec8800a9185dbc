"""Regions of an Amazons position and the number of moves each is worth.

**Regions.** A region is an 8-connected group of squares without arrows
(empty squares and the amazons on them): the amazons of a region are the
ones that touch its empty squares by king steps. Queen paths run over
adjacent empty squares, so an amazon never leaves its region, and regions
only ever split. A region holding amazons of one colour only is that
colour's: the other side can never enter it. The position is *separated*
when every region is (no region holds both colours).

**The value of a region** is the number of moves (turns) its owner can make
in it, the opponent never interfering: the longest sequence of moves of its
amazons there. Each move fills one square (the amazon leaves one, takes one,
its arrow fills one), so the value is at most the region's empty squares; it
can be less, in a *defective* region (an amazon on b2 with a1 and c1 free
holds 2 squares but 1 move). A colour's moves left in a separated position
are the sum of its regions' values.

**The solver** (:class:`RegionSolver`) counts a region exactly by a
depth-first search with a transposition table keyed by ``(amazons, empty)``
bitboards: a region that an arrow cuts in two is counted as two independent
parts, a part is done as soon as a line filling it completely is found (its
upper bound), and the moves most likely to fill a region are tried first
(king steps that shoot back onto the square left, then the destination with
the fewest empty neighbours, Warnsdorff's rule). Each region gets a node
budget; past it, its value is only bounded: below by a greedy fill (always
the first move of that order), above by its empty squares. The table and
the bounds of regions that ran out stay in the solver for later calls (the
search keeps one solver per tree); entries are never wrong, so a later call
can only know more.

**Who wins a separated position** (:meth:`RegionSolver.outcome`): the side
to move, with ``M`` moves left against the opponent's ``N``, wins iff
``M > N`` (with equal counts it runs out first). With bounds, the outcome is
known when ``M``'s lower bound exceeds ``N``'s upper bound, or ``M``'s upper
bound is at most ``N``'s lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass

from stargtp.engine.amazons.geometry import Geometry
from stargtp.engine.amazons.position import Position, queen_reach
from stargtp.engine.bits import iter_bits
from stargtp.engine.colour import BLACK, WHITE

DEFAULT_NODE_BUDGET = 2_000
"""Solver nodes one region may cost before the solver settles for bounds."""
TABLE_LIMIT = 500_000
"""Transposition-table entries a solver keeps; past this it starts afresh."""


def spread(mask: int, geo: Geometry) -> int:
    """``mask`` and every king neighbour of it."""
    row = mask | ((mask << 1) & geo.landing_masks[0]) | ((mask >> 1) & geo.landing_masks[1])
    return (row | (row << geo.size) | (row >> geo.size)) & geo.full_mask


def flood(seed: int, within: int, geo: Geometry) -> int:
    """The squares of ``within`` connected to ``seed`` by king steps inside
    ``within`` (``seed`` must be in it)."""
    part = seed
    while True:
        grown = spread(part, geo) & within
        if grown == part:
            return part
        part = grown


def components(mask: int, geo: Geometry) -> list[int]:
    """The 8-connected parts of a bitboard, each as a bitboard, lowest first."""
    parts = []
    while mask:
        part = flood(mask & -mask, mask, geo)
        parts.append(part)
        mask ^= part
    return parts


@dataclass(frozen=True)
class Region:
    """One region: its empty squares and each colour's amazons in it (bitboards)."""

    empty: int
    black: int
    white: int

    @property
    def owner(self) -> int | None:
        """BLACK or WHITE when only that colour has amazons here; None when
        both have (contested) or neither (dead squares)."""
        if self.black and not self.white:
            return BLACK
        if self.white and not self.black:
            return WHITE
        return None

    def amazons(self, colour: int) -> int:
        return self.black if colour == BLACK else self.white


def regions(position: Position) -> list[Region]:
    """Every region of ``position``, lowest square first."""
    geo = position.geometry
    black = geo.mask_of(position.amazons(BLACK))
    white = geo.mask_of(position.amazons(WHITE))
    empty = geo.full_mask & ~position.occupied
    return [Region(part & empty, part & black, part & white)
            for part in components(empty | black | white, geo)]


def separated(position: Position) -> bool:
    """No region holds amazons of both colours. A flood from one colour's
    amazons over the squares without arrows, which is cheaper than listing
    the regions."""
    geo = position.geometry
    black = geo.mask_of(position.amazons(BLACK))
    white = geo.mask_of(position.amazons(WHITE))
    free = (geo.full_mask & ~position.occupied) | black | white
    return not flood(black, free, geo) & white


class _OutOfBudget(Exception):
    pass


class RegionSolver:
    """Values of one-colour regions (see the module docstring), exact within
    ``node_budget`` nodes a region, else bounds; remembers what it found."""

    def __init__(self, geo: Geometry, node_budget: int = DEFAULT_NODE_BUDGET) -> None:
        self.geo = geo
        self.node_budget = node_budget
        self.table: dict[tuple[int, int], int] = {}
        """``(amazons, empty) -> exact value`` of connected parts."""
        self.bounded: dict[tuple[int, int], tuple[int, int]] = {}
        """``(amazons, empty) -> (lower, upper)`` of parts that ran out of budget."""
        self.nodes = 0
        """Nodes the current region has cost."""

    # -- values ------------------------------------------------------------------
    def bounds(self, amazons: int, empty: int) -> tuple[int, int]:
        """``(lower, upper)`` on the moves the amazons of ``amazons`` can make
        alone over the squares of ``empty`` (everything else blocks); equal when
        exact. The squares may form several regions; each is solved on its own."""
        low = high = 0
        for part in components(empty | amazons, self.geo):
            if part & amazons:
                part_low, part_high = self.region_bounds(part & amazons, part & empty)
                low += part_low
                high += part_high
        return low, high

    def region_bounds(self, amazons: int, empty: int) -> tuple[int, int]:
        """:meth:`bounds` of one connected region."""
        key = (amazons, empty)
        known = self.table.get(key)
        if known is not None:
            return known, known
        bounded = self.bounded.get(key)
        if bounded is not None:
            return bounded
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
            self.bounded.clear()
        self.nodes = 0
        try:
            value = self._solve(amazons, empty)
            return value, value
        except _OutOfBudget:
            bounded = (self.greedy(amazons, empty), empty.bit_count())
            self.bounded[key] = bounded
            return bounded

    def colour_bounds(self, position: Position, colour: int) -> tuple[int, int]:
        """Bounds on the moves ``colour`` could make in a row if the opponent
        never moved (its amazons stay as walls)."""
        geo = self.geo
        return self.bounds(geo.mask_of(position.amazons(colour)), geo.full_mask & ~position.occupied)

    def outcome(self, position: Position) -> int | None:
        """In a separated position: +1 if the side to move wins under best
        play, -1 if it loses, None if the bounds do not decide it. None also
        when the position is not separated."""
        if not separated(position):
            return None
        mover = position.to_move
        mover_low, mover_high = self.colour_bounds(position, mover)
        other_low, other_high = self.colour_bounds(position, 3 - mover)
        if mover_low > other_high:
            return 1
        if mover_high <= other_low:
            return -1
        return None

    def territory_correction(self, position: Position) -> int:
        """For the side to move: the exact values of its one-colour regions
        minus their empty squares, minus the same for the opponent's (0 for a
        region only bounded). Added to a territory count that gives each
        one-colour region's squares to its owner, it counts moves instead of
        squares there."""
        mover = position.to_move
        correction = 0
        for region in regions(position):
            owner = region.owner
            if owner is None or not region.empty:
                continue
            low, high = self.region_bounds(region.amazons(owner), region.empty)
            if low == high:
                loss = low - region.empty.bit_count()
                correction += loss if owner == mover else -loss
        return correction

    # -- the search ----------------------------------------------------------------
    def moves(self, amazons: int, empty: int) -> list[tuple[int, int, int]]:
        """Every move, king steps shooting back first, then fewest onward
        neighbours first (Warnsdorff's rule for walking a region full)."""
        geo = self.geo
        ray_masks = geo.ray_masks
        king_masks = geo.king_masks
        occupied = geo.full_mask & ~empty
        ranked = []
        for origin in iter_bits(amazons):
            lifted = occupied ^ (1 << origin)
            for target in iter_bits(queen_reach(origin, occupied, ray_masks)):
                step = bool(king_masks[origin] >> target & 1)
                onward = (king_masks[target] & empty).bit_count()
                for arrow in iter_bits(queen_reach(target, lifted, ray_masks)):
                    ranked.append((not (step and arrow == origin), onward, origin, target, arrow))
        ranked.sort()
        return [(origin, target, arrow) for _, _, origin, target, arrow in ranked]

    def _count(self, amazons: int, empty: int) -> int:
        """Exact value of a set of squares that may hold several regions."""
        total = 0
        for part in components(empty | amazons, self.geo):
            if part & amazons:
                total += self._solve(part & amazons, part & empty)
        return total

    def _solve(self, amazons: int, empty: int) -> int:
        """Exact value of one connected region; _OutOfBudget past the budget."""
        key = (amazons, empty)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise _OutOfBudget
        bound = empty.bit_count()
        best = 0
        if bound:
            for origin, target, arrow in self.moves(amazons, empty):
                after = 1 + self._count(amazons ^ (1 << origin) ^ (1 << target),
                                        (empty | (1 << origin)) & ~(1 << target) & ~(1 << arrow))
                if after > best:
                    best = after
                    if best == bound:
                        break
        self.table[key] = best
        return best

    def greedy(self, amazons: int, empty: int) -> int:
        """A lower bound: play the first move of :meth:`moves` until none is left."""
        played = 0
        while True:
            moves = self.moves(amazons, empty)
            if not moves:
                return played
            origin, target, arrow = moves[0]
            amazons ^= (1 << origin) ^ (1 << target)
            empty = (empty | (1 << origin)) & ~(1 << target) & ~(1 << arrow)
            played += 1
