"""Amazons scoring: the winner and margin of a finished or settled position,
and each side's territory.

**Regions.** A region is an 8-connected group of squares without arrows
(empty or holding an amazon). Queen paths run over adjacent empty squares, so
an amazon never leaves its region and regions only ever split. A position is
*settled* when no region holds amazons of both colours: from then on the
players cannot touch each other, and each can make exactly its *solo count*,
the longest sequence of moves it could play alone.

**The winner.** A finished game (the side to move has no move) is won by the
opponent. In a settled game the side to move, with solo count ``M``, wins
against the opponent's ``N`` iff ``M > N``: with equal counts it runs out first.

**The margin** is the number of moves the winner still has when the loser runs
out, both playing their longest sequences; the tie-break of tournaments. For a
finished game that is the winner's solo count (the loser's amazons stay as
walls). For a settled game with the side to move winning it is ``M - N - 1``,
otherwise ``N - M``.

**Solo counts** are found by a memoised depth-first search over the region,
which splits into independent parts whenever an arrow cuts it, stops as soon
as a part is filled completely (a region cannot hold more moves than empty
squares: each move fills one), and tries king steps that shoot back first.
A region can be *defective*, holding fewer moves than squares (an amazon on
b2 with only a1 and c1 free has 2 squares but 1 move); the search finds that.
The search has a node budget; past it a count is only known between a greedy
lower bound and the empty-square upper bound. The winner is then given only
if the bounds decide it, and the margin is the proven lower bound, with
``margin_exact`` False.

**Territory** (reported for every position, an approximation of the solo
counts): the empty squares that only one colour's amazons can reach, i.e. the
8-connected groups of empty squares that touch amazons of that colour only.

**Cannot score.** When the game is neither finished nor settled, or the bounds
do not decide it, ``winner`` is None, ``reason`` says why, and
:meth:`Score.gtp_result` raises :class:`CannotScore` with that reason (the
protocol answers ``cannot score: REASON``).
"""

from __future__ import annotations

from dataclasses import dataclass

from stargtp.engine.amazons.geometry import Geometry
from stargtp.engine.bits import iter_bits
from stargtp.engine.amazons.position import Position, queen_reach
from stargtp.engine.colour import BLACK, WHITE, colour_name, opponent
from stargtp.engine.errors import GameError

DEFAULT_NODE_BUDGET = 20_000
"""Search nodes :func:`solo_moves` may spend on one colour's solo count."""


class CannotScore(GameError):
    """The position is not finished or settled, or its solo counts could not
    be found within the budget well enough to name a winner."""


@dataclass(frozen=True)
class Score:
    """The result of :func:`score`."""

    winner: int | None
    """BLACK or WHITE; None when the position cannot be scored honestly."""
    margin: int | None
    """Moves the winner still has when the loser runs out (see the module
    docstring); a proven lower bound when ``margin_exact`` is False; None
    without a winner."""
    margin_exact: bool
    territory: dict[int, int]
    """Empty squares only that colour's amazons reach, per colour."""
    moves_left: dict[int, tuple[int, int]] | None
    """Per colour, ``(lower, upper)`` bounds on its solo count (equal when
    exact); None when the position is neither finished nor settled."""
    over: bool
    """The side to move has no move."""
    settled: bool
    """No region holds amazons of both colours."""
    reason: str
    """How the result was decided, or why it could not be."""

    def gtp_result(self) -> str:
        """``W+12`` or ``B+3`` (W is White, who moved first); CannotScore when
        there is no winner."""
        if self.winner is None:
            raise CannotScore(self.reason)
        return f"{'W' if self.winner == WHITE else 'B'}+{self.margin}"

    def describe(self, position: Position) -> list[str]:
        """For people: the result and how it was decided, else why there is
        none yet; then each colour's territory."""
        if self.winner is None:
            lines = [f"not decided yet: {self.reason}"]
        else:
            lines = [f"result: {self.gtp_result()} ({_NAMES[self.winner]} wins; {self.reason})"]
        lines.append(f"  territory: white {self.territory[WHITE]}, black {self.territory[BLACK]}")
        return lines

    def to_json(self, position: Position) -> dict:
        """JSON-ready data: the margin, whether it is exact, the territories
        and the reason."""
        return {"margin": self.margin, "margin_exact": self.margin_exact,
                "territory": {_NAMES[c]: n for c, n in self.territory.items()},
                "reason": self.reason}


_NAMES = {BLACK: "black", WHITE: "white"}


class _OutOfBudget(Exception):
    pass


def _spread(mask: int, geo: Geometry) -> int:
    """``mask`` and every king neighbour of it."""
    row = mask | ((mask << 1) & geo.landing_masks[0]) | ((mask >> 1) & geo.landing_masks[1])
    return (row | (row << geo.size) | (row >> geo.size)) & geo.full_mask


def components(mask: int, geo: Geometry) -> list[int]:
    """The 8-connected parts of a bitboard, each as a bitboard, lowest first."""
    parts = []
    while mask:
        part = mask & -mask
        while True:
            grown = _spread(part, geo) & mask
            if grown == part:
                break
            part = grown
        parts.append(part)
        mask ^= part
    return parts


class _SoloSearch:
    """Longest move sequence of one colour playing alone; ``empty`` bitboards
    hold the squares it may use, everything else blocks."""

    def __init__(self, geo: Geometry, budget: int) -> None:
        self.geo = geo
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[int, int], int] = {}

    def moves(self, amazons: int, empty: int) -> list[tuple[int, int, int]]:
        """Every move, king steps shooting back first, then fewest onward
        neighbours first (Warnsdorff's rule for walking a region full)."""
        geo = self.geo
        ray_masks = geo.ray_masks
        king_masks = geo.king_masks
        occupied = geo.full_mask & ~empty
        ranked = []
        for origin in iter_bits(amazons):
            origin_bit = 1 << origin
            lifted = occupied ^ origin_bit
            for target in iter_bits(queen_reach(origin, occupied, ray_masks)):
                target_bit = 1 << target
                step = bool(king_masks[origin] & target_bit)
                onward = (king_masks[target] & empty).bit_count()
                for arrow in iter_bits(queen_reach(target, lifted, ray_masks)):
                    back = arrow == origin
                    ranked.append((not (step and back), onward, origin, target, arrow))
        ranked.sort()
        return [(origin, target, arrow) for _, _, origin, target, arrow in ranked]

    def count(self, amazons: int, empty: int) -> int:
        """Exact solo count; _OutOfBudget past the node budget."""
        total = 0
        for part in components(empty | amazons, self.geo):
            if part & amazons:
                total += self._region(part & amazons, part & empty)
        return total

    def _region(self, amazons: int, empty: int) -> int:
        key = (amazons, empty)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        bound = empty.bit_count()
        best = 0
        if bound:
            for origin, target, arrow in self.moves(amazons, empty):
                after = 1 + self.count(amazons ^ (1 << origin) ^ (1 << target),
                                       (empty | (1 << origin)) & ~(1 << target) & ~(1 << arrow))
                if after > best:
                    best = after
                    if best == bound:
                        break
        self.memo[key] = best
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



def solo_moves(position: Position, colour: int,
               node_budget: int = DEFAULT_NODE_BUDGET) -> tuple[int, int]:
    """Bounds ``(lower, upper)`` on the number of moves ``colour`` could make
    in a row if the opponent never moved (its amazons stay as walls); equal
    when the search finished within ``node_budget`` nodes."""
    geo = position.geometry
    amazons = geo.mask_of(position.amazons(colour))
    empty = geo.full_mask & ~position.occupied
    search = _SoloSearch(geo, node_budget)
    try:
        exact = search.count(amazons, empty)
        return exact, exact
    except _OutOfBudget:
        pass
    usable = 0
    for part in components(empty | amazons, geo):
        if part & amazons:
            usable |= part & empty
    return search.greedy(amazons, empty), usable.bit_count()


def territory(position: Position) -> dict[int, int]:
    """Empty squares only one colour's amazons can reach, per colour."""
    geo = position.geometry
    empty = geo.full_mask & ~position.occupied
    owners = {colour: geo.mask_of(position.amazons(colour)) for colour in (BLACK, WHITE)}
    result = {BLACK: 0, WHITE: 0}
    for part in components(empty, geo):
        touched = _spread(part, geo)
        black = bool(touched & owners[BLACK])
        white = bool(touched & owners[WHITE])
        if black != white:
            result[BLACK if black else WHITE] += part.bit_count()
    return result


def is_settled(position: Position) -> bool:
    """No region (8-connected squares without arrows) holds both colours."""
    geo = position.geometry
    black = geo.mask_of(position.amazons(BLACK))
    white = geo.mask_of(position.amazons(WHITE))
    free = (geo.full_mask & ~position.occupied) | black | white
    return not any(part & black and part & white for part in components(free, geo))


def score(position: Position, node_budget: int = DEFAULT_NODE_BUDGET) -> Score:
    """Winner, margin and territories of ``position`` (see the module docstring)."""
    over = position.is_over()
    settled = is_settled(position)
    areas = territory(position)
    if not over and not settled:
        return Score(winner=None, margin=None, margin_exact=False, territory=areas,
                     moves_left=None, over=False, settled=False,
                     reason=f"the game is not over ({colour_name(position.to_move)} has moves)"
                            " and the amazons are not separated")
    mover = position.to_move
    other = opponent(mover)
    # Solo counts share one budget, the mover's first (it is smaller when over).
    bounds = {mover: (0, 0)} if over else {mover: solo_moves(position, mover, node_budget)}
    bounds[other] = solo_moves(position, other, node_budget)
    (mover_low, mover_high), (other_low, other_high) = bounds[mover], bounds[other]
    exact = mover_low == mover_high and other_low == other_high
    if mover_low > other_high:
        winner, margin = mover, mover_low - other_high - 1
    elif mover_high <= other_low:
        winner, margin = other, other_low - mover_high
    else:
        return Score(winner=None, margin=None, margin_exact=False, territory=areas,
                     moves_left=bounds, over=over, settled=settled,
                     reason=f"solo counts not found within {node_budget} nodes: "
                            f"{mover_low}..{mover_high} against {other_low}..{other_high}")
    reason = "game over" if over else "settled"
    if not exact:
        reason += " (margin is a lower bound)"
    return Score(winner=winner, margin=margin, margin_exact=exact, territory=areas,
                 moves_left=bounds, over=over, settled=settled, reason=reason)
