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

**Solo counts** are the sums of the values of a colour's regions, found by
the region solver of :mod:`stargtp.engine.amazons.regions` (exact within a
node budget per region; past it a region is only known between a greedy
lower bound and its empty squares). A region can be *defective*, holding
fewer moves than squares (an amazon on b2 with only a1 and c1 free has 2
squares but 1 move); the solver finds that. With bounds, the winner is given
only if they decide it, and the margin is the proven lower bound, with
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

from stargtp.engine.amazons.position import Position
from stargtp.engine.amazons.regions import RegionSolver, components, separated, spread
from stargtp.engine.colour import BLACK, WHITE, colour_name, opponent
from stargtp.engine.errors import GameError

DEFAULT_NODE_BUDGET = 20_000
"""Solver nodes :func:`solo_moves` may spend on each region of a colour."""


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


def solo_moves(position: Position, colour: int,
               node_budget: int = DEFAULT_NODE_BUDGET) -> tuple[int, int]:
    """Bounds ``(lower, upper)`` on the number of moves ``colour`` could make
    in a row if the opponent never moved (its amazons stay as walls); equal
    when the solver of :mod:`stargtp.engine.amazons.regions` finished each
    region within ``node_budget`` nodes."""
    return RegionSolver(position.geometry, node_budget).colour_bounds(position, colour)


def territory(position: Position) -> dict[int, int]:
    """Empty squares only one colour's amazons can reach, per colour."""
    geo = position.geometry
    empty = geo.full_mask & ~position.occupied
    owners = {colour: geo.mask_of(position.amazons(colour)) for colour in (BLACK, WHITE)}
    result = {BLACK: 0, WHITE: 0}
    for part in components(empty, geo):
        touched = spread(part, geo)
        black = bool(touched & owners[BLACK])
        white = bool(touched & owners[WHITE])
        if black != white:
            result[BLACK if black else WHITE] += part.bit_count()
    return result


def is_settled(position: Position) -> bool:
    """No region (8-connected squares without arrows) holds both colours."""
    return separated(position)


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
