"""The fast random playout of a connection game (Hex, Y), its bridge-save
reply, the priors for new tree nodes, and the tree search's hooks
(:class:`stargtp.engine.game.TreeHooks`) built on them.

Everything works on whole-board bit masks (Python ints) in the geometry's
bit layout (:attr:`Board.bit_of`): one bit per cell, rows ``stride`` bits
apart with a spare column, so the six neighbour shifts never wrap a row onto
the next one (a shifted bit that leaves the board lands in the spare column
or outside the rows, and every mask is cut back to real cells).

**The fill.** The empty cells are shared at random, the side to move taking
the larger half (the cells of a random game played to a full board): random
bits, then uniformly chosen cells added or dropped until the count is right
(:func:`random_subset`).

**The winner.** On a full board exactly one side has a winning group, so one
flood decides: from black's stones on black's first goal edge, shifting
through black's stones until the region stops growing. With two goal edges
(Hex) black wins when the region reaches the other one; with three (Y) each
black group on the first edge is flooded on its own until one touches every
edge.

**The bridge-save reply.** A bridge is two stones of a colour with two empty
cells (its carriers) that are both neighbours of each: the opponent taking
one is answered by the other. The playout plays that reply (as *Star's
``playout_bridges`` does): where the fill gave both carriers of a bridge
between stones placed before the playout to the opponent, the owner gets one
of them back, and in exchange the opponent gets another cell of the owner's
fill, at random, so that each side keeps its share.

**The priors** (:data:`PRIOR_SAVE`, :data:`PRIOR_NEAR`): the cell that
completes a bridge the opponent's last move intruded into, and the cells next
to that move, get virtual AMAF wins in a new tree node.

**The batch** (:func:`batch_playouts`, the search's ``playouts`` hook): k
playouts of one position in one integer, each board in a field with a spare
row (:class:`Pack`), so that one fill draw, one bridge search and one flood
per goal edge serve all k boards.

The AMAF owner masks are the cells each colour holds on the full board.
tests/test_connection_playout.py checks the winner and the bridge code against
slow references over neighbour lists. This module is the search's: the rules
(position, geometry) do not use it.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Callable

from stargtp.engine.bits import settle
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.connection.geometry import Board
from stargtp.engine.game import TreeHooks
from stargtp.engine.packing import Packing

SMALL_FILL = 24
"""At or below this many empty cells the fill samples a list of them
instead of drawing random bits (fewer wasted draws)."""

PRIOR_SAVE = (40, 72)
"""Virtual AMAF (playouts, half-point wins) of the cell that completes a
bridge of the side to move that the opponent's last move intruded into: 90%."""
PRIOR_NEAR = (10, 12)
"""... of a cell next to the opponent's last move: 60%."""


def random_subset(mask: int, count: int, cell_bits: tuple[int, ...], width: int,
                  rng: random.Random) -> int:
    """A uniformly random subset of ``count`` of the set bits of ``mask``
    (``count`` at most their number). ``cell_bits`` lists every bit that
    ``mask`` may hold; ``width`` bounds them (all below ``1 << width``).

    Random bits first (or none of the cells when ``count`` is under a
    quarter of them, or all of them when it is over three quarters), then
    cells drawn uniformly from ``cell_bits`` (misses skipped) are dropped or
    added until the count is right; the process does not depend on how the
    cells are numbered, so every subset of the right size is equally likely."""
    total = mask.bit_count()
    if total <= SMALL_FILL:
        cells = []
        rest = mask
        while rest:
            low = rest & -rest
            cells.append(low)
            rest ^= low
        return sum(rng.sample(cells, count))
    if 4 * count < total:
        chosen, have = 0, 0
    elif 4 * count > 3 * total:
        chosen, have = mask, total
    else:
        chosen = rng.getrandbits(width) & mask
        have = chosen.bit_count()
    return settle(chosen, have, mask, count, cell_bits, rng)


def _at(mask: int, shift: int) -> int:
    """The bits ``p`` with bit ``p + shift`` set in ``mask``."""
    return mask >> shift if shift > 0 else mask << -shift


class Kit:
    """What the fast code needs of one board, computed once (:func:`kit`)."""

    __slots__ = ("geometry", "all_bits", "width", "cell_bits", "flood", "black_wins", "bridges")

    def __init__(self, geo: Board) -> None:
        self.geometry = geo
        self.all_bits = geo.all_bits
        self.width = geo.bits
        self.cell_bits = geo.bit_of[:geo.cell_count]
        self.flood = geo.grow
        self.black_wins = _make_black_wins(geo, self.flood)
        self.bridges = bridge_shifts(geo)
        """``(to_stone, carrier1, carrier2)`` bit shifts of three bridge
        directions; the other three are the same bridges seen from the other
        stone."""


@lru_cache(maxsize=None)
def kit(geo: Board) -> Kit:
    """The :class:`Kit` of a board."""
    return Kit(geo)


def _make_black_wins(geo: Board, flood: Callable[[int, int], int]) -> Callable[[int], bool]:
    """``black_wins(black)``: whether black's cells on a full board hold a
    group joining black's goal edges (else white has won)."""
    first, *others = (geo.edge_bits[edge] for edge in geo.goals[BLACK])
    if len(others) == 1:
        (target,) = others

        def two_edges(black: int) -> bool:
            return bool(flood(black & first, black) & target)
        return two_edges

    def every_edge(black: int) -> bool:
        seeds = black & first
        while seeds:
            group = flood(seeds & -seeds, black)
            if all(group & edge for edge in others):
                return True
            seeds &= ~group
        return False
    return every_edge


def full_board_winner(black: int, white: int, geo: Board) -> int:
    """The winner of a full board (``black | white`` is every cell): black
    when a black group joins black's goal edges, else white."""
    return BLACK if kit(geo).black_wins(black) else WHITE


def bridge_shifts(geo: Board) -> tuple[tuple[int, int, int], ...]:
    """The bridge directions of the board's bit layout as ``(to_stone,
    carrier1, carrier2)`` shifts: two neighbour shifts ``a``, ``b`` whose
    difference is a neighbour shift (the two carriers touch) make a bridge
    ``a + b``; one of each opposite pair (``to_stone > 0``) is kept. A bridge
    that would wrap a row has a carrier in the spare column, which is never
    an empty cell, so it is never seen."""
    shifts = geo.shifts
    found = set()
    for a in shifts:
        for b in shifts:
            if a < b and b - a in shifts and a + b > 0:
                found.add((a + b, a, b))
    return tuple(sorted(found))


def _broken_bridges(stones: int, empty: int, taken: int, shifts, choice: int) -> tuple[int, int]:
    """For ``stones`` of one colour and the ``empty`` cells before a fill in
    which the opponent took ``taken``: the carrier cells that save each bridge
    whose two carriers both went to the opponent (one of the two per bridge,
    picked by the random bits ``choice``), and every carrier cell of the
    colour's bridges."""
    saves = carriers = 0
    for to_stone, c1, c2 in shifts:
        anchors = stones & _at(stones, to_stone) & _at(empty, c1) & _at(empty, c2)
        if anchors:
            carriers |= _at(anchors, -c1) | _at(anchors, -c2)
            broken = anchors & _at(taken, c1) & _at(taken, c2)
            if broken:
                saves |= _at(broken & choice, -c1) | _at(broken & ~choice, -c2)
    return saves & empty, carriers & empty


def save_bridges(black: int, white: int, empty: int, black_fill: int, k: Kit,
                 rng: random.Random) -> int:
    """The black part of a fill of ``empty`` after each side has answered the
    opponent's intrusions into its bridges (see the module docstring): black's
    bridges are mended first, then white's. A cell given away in exchange is
    taken from the owner's fill outside its bridges' carriers when there are
    enough such cells, else anywhere in its fill."""
    shifts = k.bridges
    for own_stones, side in ((black, BLACK), (white, WHITE)):
        own_fill = black_fill if side == BLACK else empty ^ black_fill
        saves, carriers = _broken_bridges(own_stones, empty, empty & ~own_fill, shifts,
                                          rng.getrandbits(k.width))
        if not saves:
            continue
        own_fill = mend(own_fill, saves, carriers, k, rng)
        black_fill = own_fill if side == BLACK else empty ^ own_fill
    return black_fill


def mend(own_fill: int, saves: int, carriers: int, k: Kit, rng: random.Random) -> int:
    """One side's fill of one board after it takes back its ``saves`` (the
    carriers of its broken bridges, :func:`_broken_bridges`) and gives the
    opponent as many cells of its fill in exchange, at random: from outside
    its bridges' ``carriers`` when there are enough such cells, else
    anywhere in its fill (unchanged when even that is too few)."""
    count = saves.bit_count()
    pool = own_fill & ~carriers
    if pool.bit_count() < count:
        pool = own_fill
        if pool.bit_count() < count:
            return own_fill
    given = random_subset(pool, count, k.cell_bits, k.width, rng)
    return (own_fill | saves) & ~given


def _fill(position, rng: random.Random, k: Kit, bridges: bool) -> tuple[int, int, int]:
    black, white = position.black_bits, position.white_bits
    if position.won is not None:
        return position.won, black, white
    empty = k.all_bits & ~(black | white)
    mine = random_subset(empty, (empty.bit_count() + 1) // 2, k.cell_bits, k.width, rng)
    black_fill = mine if position.to_move == BLACK else empty ^ mine
    if bridges:
        black_fill = save_bridges(black, white, empty, black_fill, k, rng)
    black |= black_fill
    white |= empty ^ black_fill
    return (BLACK if k.black_wins(black) else WHITE), black, white


def random_fill(position, rng: random.Random) -> tuple[int, int, int]:
    """Fill ``position``'s empty cells at random, the side to move taking the
    larger half: ``(winner, black_mask, white_mask)`` of the full board, or
    the current winner and masks when the game is already over."""
    return _fill(position, rng, kit(position.geometry), False)


def bridge_playout(position, rng: random.Random) -> tuple[int, int, int]:
    """:func:`random_fill` with the bridge-save reply (:func:`save_bridges`)
    for the bridges of the stones already placed: the tree search's playout."""
    return _fill(position, rng, kit(position.geometry), True)


class Pack(Packing):
    """``count`` boards of one geometry side by side in one integer
    (:class:`stargtp.engine.packing.Packing`, which does the spreading,
    joining and splitting; ``split`` cuts to the board's cells): board
    ``j`` is the board's bit layout shifted up by ``j * stride``. A field
    is the layout plus one spare row (``geo.bits + geo.stride`` bits), so a
    neighbour shift (at most ``geo.stride + 1``) out of a board's top or
    bottom row lands in a spare row or a spare column, never on a cell of
    the next board: every mask is cut back to cells, and a flood, a bridge
    or a shift then serves all the boards at once
    (tests/test_connection_playout.py checks each packed step against the
    one-board function for every place in the pack)."""

    __slots__ = ("kit", "goals")

    def __init__(self, k: Kit, count: int) -> None:
        geo = k.geometry
        super().__init__(geo.bits + geo.stride, count, geo.all_bits)
        self.kit = k
        self.goals = tuple(self.spread(geo.edge_bits[edge]) for edge in geo.goals[BLACK])
        """Black's goal edges, in every field."""

    def black_connects(self, black: int) -> int:
        """The cells, field by field, of black groups that join black's goal
        edges (nonzero in a field: black has won that full board). Flooding
        from the first edge through black's cells keeps the groups touching
        it; flooding again from the next edge inside those keeps the groups
        touching both, and so on; the last edge's cells of what is left are
        the winning groups' (Hex: one flood, Y: two)."""
        flood = self.kit.flood
        *firsts, last = self.goals
        region = black
        for edge in firsts:
            region = flood(region & edge, region)
        return region & last


@lru_cache(maxsize=None)
def pack(geo: Board, count: int) -> Pack:
    """The :class:`Pack` of ``count`` boards of ``geo``."""
    return Pack(kit(geo), count)


def batch_playouts(position, rng: random.Random, count: int,
                   bridges: bool = True) -> list[tuple[int, int, int]]:
    """``count`` independent playouts of ``position`` done together, each
    of the same distribution as :func:`bridge_playout` (``bridges`` False:
    :func:`random_fill`): ``[(winner, black_mask, white_mask), ...]`` in the
    one-board layout. The fill's random bits for all boards come from one
    draw and each board's count is then made exact (:func:`stargtp.engine.bits.settle`, a board
    at a time; a small fill samples its cells as :func:`random_subset`
    does); the broken bridges of every board are found at once and mended
    board by board (:func:`mend`); one packed flood per goal edge but the
    last names every board's winner."""
    black, white = position.black_bits, position.white_bits
    if position.won is not None:
        return [(position.won, black, white)] * count
    k = kit(position.geometry)
    p = pack(position.geometry, count)
    all_bits, cell_bits = k.all_bits, k.cell_bits
    empty = all_bits & ~(black | white)
    total = empty.bit_count()
    share = (total + 1) // 2
    if total <= SMALL_FILL:
        mine = [random_subset(empty, share, cell_bits, k.width, rng) for _ in range(count)]
    else:
        # p.split written out, here and below: the call and the list would
        # cost more than the loop (the packing module's docstring).
        drawn = rng.getrandbits(p.width)
        mine = []
        for offset in p.offsets:
            chosen = drawn >> offset & empty
            mine.append(settle(chosen, chosen.bit_count(), empty, share, cell_bits, rng))
    fill = p.join(mine)
    empty_all = p.spread(empty)
    black_fill = fill if position.to_move == BLACK else empty_all ^ fill
    if bridges:
        black_fill = _save_packed(black, white, empty_all, black_fill, p, rng)
    black_all = p.spread(black) | black_fill
    won = p.black_connects(black_all)
    results = []
    for offset in p.offsets:
        black_cells = black_all >> offset & all_bits
        results.append((BLACK if won >> offset & all_bits else WHITE, black_cells,
                        all_bits ^ black_cells))
    return results


def _save_packed(black: int, white: int, empty_all: int, black_fill: int, p: Pack,
                 rng: random.Random) -> int:
    """:func:`save_bridges` for every board of a pack: each side's broken
    bridges found in all boards at once, then mended board by board."""
    k = p.kit
    shifts = k.bridges
    all_bits = k.all_bits
    for own_stones, side in ((black, BLACK), (white, WHITE)):
        if not own_stones:
            continue
        own_fill = black_fill if side == BLACK else empty_all ^ black_fill
        saves, carriers = _broken_bridges(p.spread(own_stones), empty_all, empty_all & ~own_fill,
                                          shifts, rng.getrandbits(p.width))
        if not saves:
            continue
        for offset in p.offsets:
            board_saves = saves >> offset & all_bits
            if board_saves:
                board_fill = own_fill >> offset & all_bits
                mended = mend(board_fill, board_saves, carriers >> offset & all_bits, k, rng)
                own_fill ^= (board_fill ^ mended) << offset
        black_fill = own_fill if side == BLACK else empty_all ^ own_fill
    return black_fill


def playout_winner(position, rng: random.Random, komi: float) -> int:
    """The winner of one random playout, without the bridge reply (komi means
    nothing here)."""
    return random_fill(position, rng)[0]


def _neighbours(mask: int, k: Kit) -> int:
    """The cells next to the cells of ``mask``."""
    grown = 0
    for shift in k.geometry.shifts:
        grown |= _at(mask, -shift)
    return grown & k.all_bits


def answers(black: int, white: int, to_move: int, last: int, k: Kit) -> tuple[int, int]:
    """For the side to move, after the opponent's stone on bit ``last``: the
    cells that complete a bridge of its own into whose carriers that stone
    intruded (the other carrier still empty), and the other empty cells next
    to that stone."""
    own = black if to_move == BLACK else white
    empty = k.all_bits & ~(black | white)
    before = empty | last
    saves = 0
    for to_stone, c1, c2 in k.bridges:
        anchors = own & _at(own, to_stone) & _at(before, c1) & _at(before, c2)
        if anchors:
            saves |= _at(anchors & _at(last, c1), -c2) | _at(anchors & _at(last, c2), -c1)
    saves &= empty
    return saves, _neighbours(last, k) & empty & ~saves


@lru_cache(maxsize=None)
def _hooks_for(geo: Board) -> TreeHooks:
    k = kit(geo)
    bit_index = tuple(bit.bit_length() - 1 for bit in geo.bit_of)
    bit_of = geo.bit_of
    swap_move = geo.swap_move

    def playout(position, rng: random.Random, komi: float) -> tuple[int | None, int, int]:
        return _fill(position, rng, k, True)

    def playouts(position, rng: random.Random, komi: float, count: int) -> list[tuple[int, int, int]]:
        return batch_playouts(position, rng, count)

    def prior(position) -> tuple[tuple[int, int, int], ...]:
        if not position.history:
            return ()
        last = position.history[-1][1]
        if last == swap_move:
            return ()
        saves, near = answers(position.black_bits, position.white_bits, position.to_move,
                              bit_of[last], k)
        return ((saves, *PRIOR_SAVE), (near, *PRIOR_NEAR))

    return TreeHooks(geo.bits, bit_index.__getitem__, playout, black_cells,
                     tuple((cell.index, bit_index[cell.index]) for cell in geo.cells), prior=prior,
                     playouts=playouts, amaf_bits=sum(bit_of))


def black_cells(black: int, white: int) -> int:
    """For analysis: what black owns at the end of a playout, its cells
    (the board is full, so white owns the rest)."""
    return black


def tree_hooks(position) -> TreeHooks:
    """The hooks for ``position``'s board: the bridge playout, the priors,
    AMAF masks that are the cells' bits, and ownership reported for every
    cell, in board order."""
    return _hooks_for(position.geometry)
