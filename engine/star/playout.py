"""The fast random playout: fill every empty cell at random and score the full
board, with Python ints as bitboards.

This is the one clever module of the *Star core; :mod:`stargtp.engine.star.scoring`
is the plain scorer it must agree with (the tests check them against each
other and against a slow reference on thousands of boards).

**The layout** (:func:`stargtp.engine.star.geometry.layout`) gives each cell a bit of
a hexagonal grid, so adjacency is six constant shifts.

**The fill.** Each empty cell is black or white with one random bit, then a
few random cells are flipped until each side has exactly its share. That
process does not depend on how the cells are numbered, so every fill with the
right counts is equally likely.

**The score.** On a full board a dead group's pericells go to the opponent, so
only the groups that touch the perimeter matter, and only black's are
flood-filled (:func:`_full_board_counts`). White's follow from black's
because the board is planar: going round the perimeter, the black runs and
the white runs alternate, each colour's groups split its runs without
crossing the other's, and so white's groups touching the perimeter number
``runs + 1`` minus black's; a white pericell is a group on its own (dead)
exactly when the pericells on both sides of it belong to one black group.
The seam keeps the board planar (it is a cone); the star bridge does not
when ring 1 holds two runs of each colour (then both colours join across
it). So black is flooded on the sheet, without the star, and the star is
put back from black's floods alone (:func:`_join_across_ring1`): when
black's two runs of ring 1 end in two groups that touch the perimeter,
the star joins them, and then white's two runs lie in two such groups as
well, which it joins too (:func:`_with_white`).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import NamedTuple

from stargtp.engine.bits import settle
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star.geometry import Layout, layout


class FullBoardScore(NamedTuple):
    """The score of a full board, per colour (index 0 black, 1 white)."""

    stars: tuple[int, int]
    peris: tuple[int, int]
    quarks: tuple[int, int]
    conventional: tuple[float, float]
    """With komi added to white."""
    winner: int | None


class _Walk(NamedTuple):
    """Tables for walking the perimeter of one board size (board order is
    clockwise along it), used by :func:`_full_board_counts`."""

    ahead: tuple[tuple[int, int], ...]
    """Three ``(pericells, shift)``: ``(mask & pericells) << shift`` moves
    each of those pericells onto the next one (the five sides, the seam)."""
    behind: tuple[tuple[int, int], ...]
    """The three others, by a right shift."""
    beside: dict[int, int]
    """Pericell bit -> the bits of the pericells before and after it."""
    crossing: frozenset[int]
    """The ring-1 black stones (``black & ring1``) that make two black runs
    and two white runs around ring 1: the star bridge then joins both
    colours across each other, which no planar board can do."""


@lru_cache(maxsize=None)
def _walk(rings: int) -> _Walk:
    lay = layout(rings)
    pericells = [lay.bit_of[c] for c in range(len(lay.bit_of) - 5 * rings, len(lay.bit_of))]
    count = len(pericells)
    by_shift: dict[int, int] = {}
    for i, here in enumerate(pericells):
        shift = pericells[(i + 1) % count].bit_length() - here.bit_length()
        by_shift[shift] = by_shift.get(shift, 0) | here
    beside = {here: pericells[i - 1] | pericells[(i + 1) % count] for i, here in enumerate(pericells)}
    ring1 = lay.bit_of[:5]
    crossing = set()
    for subset in range(32):
        black = [subset >> i & 1 for i in range(5)]
        if sum(black[i] and not black[(i + 1) % 5] for i in range(5)) == 2:
            crossing.add(sum(bit for i, bit in enumerate(ring1) if black[i]))
    ahead = tuple((cells, shift) for shift, cells in sorted(by_shift.items()) if shift > 0)
    behind = tuple((cells, -shift) for shift, cells in sorted(by_shift.items()) if shift < 0)
    assert len(ahead) == len(behind) == 3
    return _Walk(ahead, behind, beside, frozenset(crossing))


def _forward(mask: int, walk: _Walk) -> int:
    """The pericells that come right after a pericell of ``mask``."""
    (a, i), (b, j), (c, k) = walk.ahead
    (d, x), (e, y), (f, z) = walk.behind
    return ((mask & a) << i | (mask & b) << j | (mask & c) << k
            | (mask & d) >> x | (mask & e) >> y | (mask & f) >> z)


def _backward(mask: int, walk: _Walk) -> int:
    """The pericells that come right before a pericell of ``mask``."""
    (a, i), (b, j), (c, k) = walk.ahead
    (d, x), (e, y), (f, z) = walk.behind
    return (mask >> i & a | mask >> j & b | mask >> k & c
            | mask << x & d | mask << y & e | mask << z & f)


def _flood(group: int, mask: int, lay: Layout) -> int:
    """The cells of ``mask`` connected to ``group`` on the sheet, across the
    seam (``mask`` holds the ghosts of its ray cells)."""
    width = lay.width
    ray, ghost = lay.ray, lay.ghost
    across = ray | ghost
    ray_to_ghost, ghost_to_ray = lay.ray_to_ghost, lay.ghost_to_ray
    step = width - 1
    seam = 0
    while True:
        # The six neighbours in three shifts: (+1) then (+W-1) then (-W).
        grown = group | group << 1
        grown |= grown << step
        grown = (grown | grown >> width) & mask
        if grown & across != seam:  # new cells on the seam: copy them across
            grown |= ray_to_ghost[grown & ray] | ghost_to_ray[grown & ghost]
            seam = grown & across
        if grown == group:
            return group
        group = grown


def _full_board_counts(black: int, lay: Layout) -> tuple[int, int, int]:
    """For a full board (black's stones as a bitboard, no ghosts; white has
    every other cell): black's stars, white's stars, and the pericells black
    owns (white owns the others)."""
    walk = _walk(lay.rings)
    peri = lay.peri
    # Only black is flooded, on the sheet (without the star bridge): its
    # groups that touch the perimeter, one at a time.
    mask = black | lay.ray_to_ghost[black & lay.ray]
    seeds = mask & peri
    # A pericell with no neighbour of its colour is a dead group on its own.
    near = _neighbours(mask, lay.width)
    near |= lay.ray_to_ghost[near & lay.ray] | lay.ghost_to_ray[near & lay.ghost]
    dead = seeds & ~near
    seeds ^= dead
    groups = dead.bit_count()
    stars_black = 0
    star_peris = 0
    blocks = []
    ring1 = lay.ring1 if black & lay.ring1 in walk.crossing else 0
    on_ring1 = 0
    joined = None
    while seeds:
        group = _flood(seeds & -seeds, mask, lay)
        groups += 1
        owned = group & peri
        if owned & (owned - 1):
            stars_black += 1
            star_peris |= owned
            blocks.append(owned)
        if group & ring1:
            if on_ring1:
                stars_black += _join_across_ring1(on_ring1, owned, blocks)
                groups -= 1
                star_peris |= on_ring1 | owned
                joined = (on_ring1, owned)
            else:
                on_ring1 = owned
        seeds &= ~group
    return _with_white(black, groups, stars_black, star_peris, blocks, lay, walk, joined)


def _join_across_ring1(first: int, second: int, blocks: list[int]) -> int:
    """Black's two runs of ring 1, when ring 1 holds two runs of each
    colour, lie in two groups of the sheet that both touch the perimeter,
    with the pericells ``first`` and ``second``: the star bridge makes them
    one group, and a star. Puts it in ``blocks`` (each star's pericells) in
    place of the two; returns the change in black's stars."""
    change = 1
    for owned in (first, second):
        if owned & (owned - 1):
            blocks.remove(owned)
            change -= 1
    blocks.append(first | second)
    return change


def _between(single_white: int, first: int, second: int, walk: _Walk) -> int:
    """``single_white`` (white pericells on their own) less those whose two
    neighbours on the perimeter are one in ``first`` and one in ``second``,
    black's two groups that the star joins across ring 1 (see
    :func:`_with_white`)."""
    beside = walk.beside
    rest = single_white
    while rest:
        cell = rest & -rest
        rest ^= cell
        sides = beside[cell]
        if sides & first and sides & second:
            single_white ^= cell
    return single_white


def _with_white(black: int, groups: int, stars_black: int, star_peris: int,
                blocks: list[int], lay: Layout, walk: _Walk,
                joined: tuple[int, int] | None = None) -> tuple[int, int, int]:
    """The end of :func:`_full_board_counts`, from black's groups that touch
    the perimeter: their number (dead ones included), the stars among them,
    the stars' pericells and each star's pericells (``blocks``), the star
    bridge included; ``joined``, the pericells of black's two groups of the
    sheet that the star joined across ring 1 (or None). Returns black's
    stars, white's stars, and the pericells black owns."""
    peri = lay.peri
    # White, from black's groups: with the board planar, each colour's
    # groups split its perimeter runs without crossing, and white's groups
    # that touch the perimeter number runs + 1 - black's. A white pericell
    # is a group on its own exactly when the pericells on both sides of it
    # belong to one black group.
    black_peri = black & peri
    white_peri = peri ^ black_peri
    after_black = _forward(black_peri, walk)
    groups_white = (after_black & white_peri).bit_count() + 1 - groups
    lonely = white_peri & after_black & _backward(black_peri, walk)
    single_white = 0
    while lonely:
        cell = lonely & -lonely
        lonely ^= cell
        sides = walk.beside[cell]
        for owned in blocks:
            if owned & sides:
                if owned & sides == sides:
                    single_white |= cell
                break
    if joined:
        # Black's two runs of ring 1 lie in two groups of the sheet that
        # both touch the perimeter, so white's two do as well (neither
        # colour can go round ring 1 between the other's two groups), and
        # the star joins those too: one group fewer. A white pericell
        # between black's two groups is the only pericell of the part of
        # the board between them that holds one of white's runs, so it was
        # that run's group: not on its own.
        groups_white -= 1
        single_white = _between(single_white, *joined, walk)
    stars_white = groups_white - single_white.bit_count()
    return stars_black, stars_white, star_peris | single_white


def score_full(black: int, white: int, lay: Layout, komi: float = 0.0) -> FullBoardScore:
    """Score a full board given each colour's stones as bitboards (no ghosts)."""
    stars_b, stars_w, owned_b = _full_board_counts(black, lay)
    return score_from_counts(owned_b, stars_b, stars_w, lay, komi)


def score_from_counts(owned_b: int, stars_b: int, stars_w: int, lay: Layout, komi: float) -> FullBoardScore:
    """The score of a full board from black's owned pericells and each
    colour's stars (white owns the other pericells and quarks)."""
    peris_b = owned_b.bit_count()
    peris_w = 5 * lay.rings - peris_b
    quarks_b = (owned_b & lay.corners).bit_count()
    quarks_w = 5 - quarks_b
    conv_b = peris_b + (quarks_b >= 3) + 2 * (stars_w - stars_b)
    conv_w = peris_w + (quarks_w >= 3) + 2 * (stars_b - stars_w) + komi
    return FullBoardScore(
        stars=(stars_b, stars_w),
        peris=(peris_b, peris_w),
        quarks=(quarks_b, quarks_w),
        conventional=(conv_b, conv_w),
        winner=_winner(conv_b, conv_w, quarks_b, quarks_w),
    )


def _winner(conv_b: int, conv_w: float, quarks_b: int, quarks_w: int) -> int | None:
    if conv_b != conv_w:
        return BLACK if conv_b > conv_w else WHITE
    if quarks_b != quarks_w:
        return BLACK if quarks_b > quarks_w else WHITE
    return None


def winner_from_counts(owned_b: int, stars_b: int, stars_w: int, lay: Layout, komi: float) -> int | None:
    """:func:`score_from_counts`'s winner alone, without the rest of the
    score (what a playout needs): the same numbers, the same sums."""
    peris_b = owned_b.bit_count()
    quarks_b = (owned_b & lay.corners).bit_count()
    return _winner(peris_b + (quarks_b >= 3) + 2 * (stars_w - stars_b),
                   5 * lay.rings - peris_b + (quarks_b <= 2) + 2 * (stars_b - stars_w) + komi,
                   quarks_b, 5 - quarks_b)


def peri_owners(black: int, white: int, lay: Layout) -> int:
    """The pericells black owns on a full board (stones as bitboards, no
    ghosts): those of its stars and those of white's dead groups. White owns
    the other pericells."""
    return _full_board_counts(black, lay)[2]


def random_fill(empty: int, first_share: int, lay: Layout, rng: random.Random) -> int:
    """A uniformly random subset of the bitboard ``empty`` with exactly
    ``first_share`` cells: the cells the side to move gets."""
    count = empty.bit_count()
    if count <= lay.small_fill:
        cells = []
        rest = empty
        while rest:
            low = rest & -rest
            cells.append(low)
            rest ^= low
        chosen = 0
        for low in rng.sample(cells, first_share):
            chosen |= low
        return chosen
    # Each cell a fair coin, then cells dropped or added until the count is right.
    chosen = rng.getrandbits(lay.bits) & empty
    return settle(chosen, chosen.bit_count(), empty, first_share, lay.bit_of, rng)


class PlayoutResult(NamedTuple):
    """One playout: who won, and which cells each colour got (bitboards of the
    layout, for AMAF/RAVE)."""

    winner: int | None
    black: int
    white: int


def playout_bits(black: int, white: int, to_move: int, lay: Layout, rng: random.Random,
                 komi: float = 0.0) -> PlayoutResult:
    """Fill the empty cells of the bitboards ``black``/``white`` at random, the
    side ``to_move`` taking the first (larger) share, and score."""
    black, white = fill(black, white, to_move, lay, rng)
    stars_b, stars_w, owned_b = _full_board_counts(black, lay)
    return PlayoutResult(winner_from_counts(owned_b, stars_b, stars_w, lay, komi), black, white)


def fill(black: int, white: int, to_move: int, lay: Layout, rng: random.Random) -> tuple[int, int]:
    """The stones ``(black, white)`` after a random fill of the empty cells,
    the side ``to_move`` taking the first (larger) share."""
    empty = lay.board & ~(black | white)
    mine = random_fill(empty, (empty.bit_count() + 1) // 2, lay, rng)
    if to_move == BLACK:
        return black | mine, white | empty ^ mine
    return black | empty ^ mine, white | mine


def _at(mask: int, shift: int) -> int:
    """The bits ``p`` with bit ``p + shift`` set in ``mask``."""
    return mask >> shift if shift > 0 else mask << -shift


@lru_cache(maxsize=None)
def _bridge_shifts_of(width: int) -> tuple[tuple[int, int, int], ...]:
    w = width
    return ((w + 1, 1, w), (2 - w, 1, 1 - w), (1 - 2 * w, -w, 1 - w))


def _bridge_shifts(lay: Layout) -> tuple[tuple[int, int, int], ...]:
    """For the three bridge directions: the bit shift from one stone to the
    other and to each of the two carrier cells. Axial offsets (q, r): stone
    (1, 1) over carriers (1, 0) and (0, 1); stone (2, -1) over (1, 0) and
    (1, -1); stone (1, -2) over (0, -1) and (1, -1). The other three
    directions are the same bridges seen from the other stone. Bridges across
    the ghost seam or through the central star are not seen."""
    return _bridge_shifts_of(lay.width)


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
    return saves, carriers


def save_bridges(black: int, white: int, empty: int, black_fill: int, lay: Layout,
                 rng: random.Random) -> int:
    """The black part of a random fill of ``empty`` after each side has answered
    the opponent's intrusions into its bridges, the way a player completes a
    bridge when the opponent takes one of its two carriers: where a fill gave
    both carriers of a bridge (between stones placed before the fill) to the
    opponent, the owner gets one of them back, and in exchange the opponent
    gets as many other cells of the owner's fill, at random, so that each
    side keeps its share. Black's bridges are mended first, then white's."""
    shifts = _bridge_shifts(lay)
    bit_of = lay.bit_of
    for side in (0, 1):
        own_stones = black if side == 0 else white
        own_fill = black_fill if side == 0 else empty ^ black_fill
        saves, carriers = _broken_bridges(own_stones, empty, empty & ~own_fill, shifts,
                                          rng.getrandbits(lay.bits))
        if not saves:
            continue
        count = saves.bit_count()
        pool = own_fill & ~carriers
        if pool.bit_count() < count:
            pool = own_fill
            if pool.bit_count() < count:
                continue
        given = 0
        while count:
            for low in rng.choices(bit_of, k=2 * count + 2):
                if pool & low:
                    pool ^= low
                    given |= low
                    count -= 1
                    if not count:
                        break
        own_fill = (own_fill | saves) & ~given
        black_fill = own_fill if side == 0 else empty ^ own_fill
    return black_fill


def playout_bridges(black: int, white: int, to_move: int, lay: Layout, rng: random.Random,
                    komi: float = 0.0) -> PlayoutResult:
    """:func:`playout_bits` with the bridges of the stones already placed kept
    (:func:`save_bridges`)."""
    black, white = fill_bridges(black, white, to_move, lay, rng)
    stars_b, stars_w, owned_b = _full_board_counts(black, lay)
    return PlayoutResult(winner_from_counts(owned_b, stars_b, stars_w, lay, komi), black, white)


def fill_bridges(black: int, white: int, to_move: int, lay: Layout, rng: random.Random) -> tuple[int, int]:
    """:func:`fill` with the bridges of the stones already placed kept
    (:func:`save_bridges`)."""
    empty = lay.board & ~(black | white)
    mine = random_fill(empty, (empty.bit_count() + 1) // 2, lay, rng)
    black_fill = save_bridges(black, white, empty, mine if to_move == BLACK else empty ^ mine, lay, rng)
    return black | black_fill, white | empty ^ black_fill


def _neighbours(mask: int, width: int) -> int:
    """The cells next to ``mask`` on the sheet (no seam, no star bridge)."""
    up = mask | mask >> 1
    down = mask | mask << 1
    return mask >> 1 | mask << 1 | up << width | down >> width


def filled_cells(black: int, white: int, lay: Layout) -> int:
    """Empty cells that no stone can change: every neighbour is a stone of one
    and the same colour. Those neighbours are connected around the cell
    without it, and the cell, a pericell included, ends up with that colour's
    owner whoever fills it. Cells of ring 1 and of the seam's ray are left
    out (their neighbours are not all on the sheet)."""
    empty = lay.board & ~(black | white) & ~lay.ring1 & ~lay.ray
    if not empty:
        return 0
    sheet = (1 << lay.bits) - 1
    outside = sheet & ~(lay.board | lay.ghost)
    width = lay.width
    found = 0
    for stones in (black, white):
        other = sheet & ~(stones | lay.ray_to_ghost[stones & lay.ray] | outside)
        found |= empty & ~_neighbours(other, width)
    return found


def answers(black: int, white: int, to_move: int, last: int, lay: Layout) -> tuple[int, int]:
    """For the side to move, after the opponent's move on bit ``last``: the
    cells that complete a bridge of its own into whose carrier that move
    intruded, and the cells next to that move."""
    own = black if to_move == BLACK else white
    empty = lay.board & ~(black | white)
    before = empty | last
    saves = 0
    for to_stone, c1, c2 in _bridge_shifts(lay):
        anchors = own & _at(own, to_stone) & _at(before, c1) & _at(before, c2)
        if anchors:
            saves |= _at(anchors & _at(last, c1), -c2) | _at(anchors & _at(last, c2), -c1)
    near = _neighbours(last, lay.width) & empty
    return saves & empty, near & ~saves


def random_playout(position, rng: random.Random, komi: float = 0.0) -> PlayoutResult:
    """A random playout from a :class:`stargtp.engine.star.Position`."""
    return playout_bits(position.black_bits, position.white_bits, position.to_move,
                        layout(position.rings), rng, komi)
