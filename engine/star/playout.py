"""The fast random playout: fill every empty cell at random and score the full
board, with Python ints as bitboards.

This is the one clever module of the *Star core; :mod:`engine.star.scoring`
is the plain scorer it must agree with (the tests check them against each
other and against a slow reference on thousands of boards).

**The layout.** The *Star lattice is a hexagonal board with one of its six
sectors cut away and the centre cell replaced by the star bridge. So each cell
gets the bit of its place on a hex grid in axial coordinates, ``(q, r)`` with
bit ``(r + n) * W + (q + n)`` and one spare column so that shifts never wrap
onto a real cell. Adjacency is then six constant shifts, except

* across the cut (between arms R and ``*``): the cells ``k*(0,1)`` of the
  missing sector are *ghosts* of the ``*`` arm's first cells ``k*(1,0)``; both
  are kept equal with a table lookup after each step;
* ring 1, which is a clique through the central star: one extra test.

**The fill.** Each empty cell is black or white with one random bit, then a
few random cells are flipped until each side has exactly its share. That
process does not depend on how the cells are numbered, so every fill with the
right counts is equally likely.

**The score.** On a full board a dead group's pericells go to the opponent, so
only the groups that touch the perimeter matter; each is flood-filled once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from engine.colour import BLACK, WHITE
from engine.star.geometry import geometry

# Hex directions in axial coordinates; sector s of ring k runs from k*DIRS[s]
# along DIRS[s + 2]. Sector 5 is the one *Star does not have.
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True)
class Layout:
    """Bit positions and masks for one board size."""

    rings: int
    width: int
    bits: int
    """Length of the bitboards."""
    bit_of: tuple[int, ...]
    """``1 << position`` of each cell, in board order."""
    cell_of_bit: dict[int, int]
    board: int
    peri: int
    corners: int
    ring1: int
    ray: int
    """The ``*`` arm's cells ``*k0`` that have ghosts."""
    ghost: int
    ray_to_ghost: dict[int, int]
    ghost_to_ray: dict[int, int]
    small_fill: int
    """Below this many empty cells the fill samples a list instead."""

    def mask_of(self, cells) -> int:
        mask = 0
        for c in cells:
            mask |= self.bit_of[c]
        return mask

    def cells_of(self, mask: int) -> list[int]:
        """The cells of a bitboard, in board order (ghost bits ignored)."""
        cells = []
        while mask:
            low = mask & -mask
            cell = self.cell_of_bit.get(low)
            if cell is not None:
                cells.append(cell)
            mask ^= low
        cells.sort()
        return cells


@lru_cache(maxsize=None)
def layout(rings: int) -> Layout:
    """The shared :class:`Layout` of a board with ``rings`` rings."""
    geo = geometry(rings)
    n = rings
    width = 2 * n + 2

    def bit(q: int, r: int) -> int:
        return 1 << ((r + n) * width + (q + n))

    bit_of = []
    for k in range(1, n + 1):
        for p in range(5 * k):
            sector, offset = divmod(p, k)
            (aq, ar), (bq, br) = DIRS[sector], DIRS[(sector + 2) % 6]
            bit_of.append(bit(k * aq + offset * bq, k * ar + offset * br))
    ray_bits = [bit(k, 0) for k in range(1, n + 1)]
    ghost_bits = [bit(0, k) for k in range(1, n + 1)]
    ray_to_ghost = {0: 0}
    ghost_to_ray = {0: 0}
    for subset in range(1, 1 << n):
        ray = ghost = 0
        for i in range(n):
            if subset >> i & 1:
                ray |= ray_bits[i]
                ghost |= ghost_bits[i]
        ray_to_ghost[ray] = ghost
        ghost_to_ray[ghost] = ray

    def mask(cells) -> int:
        m = 0
        for c in cells:
            m |= bit_of[c]
        return m

    return Layout(
        rings=n,
        width=width,
        bits=(2 * n + 1) * width,
        bit_of=tuple(bit_of),
        cell_of_bit={b: c for c, b in enumerate(bit_of)},
        board=mask(range(geo.cell_count)),
        peri=mask(geo.perimeter),
        corners=mask(geo.corners),
        ring1=mask(range(5)),
        ray=sum(ray_bits),
        ghost=sum(ghost_bits),
        ray_to_ghost=ray_to_ghost,
        ghost_to_ray=ghost_to_ray,
        small_fill=48,
    )


class FullBoardScore(NamedTuple):
    """The score of a full board, per colour (index 0 black, 1 white)."""

    stars: tuple[int, int]
    peris: tuple[int, int]
    quarks: tuple[int, int]
    conventional: tuple[float, float]
    """With komi added to white."""
    winner: int | None


def _perimeter_groups(mask: int, lay: Layout) -> tuple[int, int, int]:
    """For one colour's stones (ghosts included): the number of stars, the
    pericells its stars occupy, and the pericells of its dead groups."""
    width = lay.width
    peri, ray, ghost = lay.peri, lay.ray, lay.ghost
    across = ray | ghost
    ray_to_ghost, ghost_to_ray = lay.ray_to_ghost, lay.ghost_to_ray
    ring1 = mask & lay.ring1
    seeds = mask & peri
    # A pericell with no neighbour of its colour is a dead group on its own:
    # find them all at once instead of flood-filling each.
    # Hex neighbours in axial coordinates: (+-1, 0) in the row; (0, +1) and
    # (-1, +1) in the row above; (0, -1) and (+1, -1) in the row below.
    up = mask | mask >> 1
    down = mask | mask << 1
    near = mask >> 1 | mask << 1 | up << width | down >> width
    near |= ray_to_ghost[near & ray] | ghost_to_ray[near & ghost]
    dead = seeds & ~near
    seeds ^= dead
    stars = 0
    star_peris = 0
    while seeds:
        group = seeds & -seeds
        while True:
            up = group | group >> 1
            down = group | group << 1
            grown = (up | down | up << width | down >> width) & mask
            if grown & across:
                grown |= ray_to_ghost[grown & ray] | ghost_to_ray[grown & ghost]
            if grown & ring1:
                grown |= ring1
            if grown == group:
                break
            group = grown
        owned = group & peri
        if owned & (owned - 1):
            stars += 1
            star_peris |= owned
        else:
            dead |= owned
        seeds &= ~group
    return stars, star_peris, dead


def score_full(black: int, white: int, lay: Layout, komi: float = 0.0) -> FullBoardScore:
    """Score a full board given each colour's stones as bitboards (no ghosts)."""
    black |= lay.ray_to_ghost[black & lay.ray]
    white |= lay.ray_to_ghost[white & lay.ray]
    stars_b, occupied_b, dead_b = _perimeter_groups(black, lay)
    stars_w, occupied_w, dead_w = _perimeter_groups(white, lay)
    owned_b = occupied_b | dead_w
    owned_w = occupied_w | dead_b
    peris_b, peris_w = owned_b.bit_count(), owned_w.bit_count()
    quarks_b = (owned_b & lay.corners).bit_count()
    quarks_w = (owned_w & lay.corners).bit_count()
    conv_b = peris_b + (quarks_b >= 3) + 2 * (stars_w - stars_b)
    conv_w = peris_w + (quarks_w >= 3) + 2 * (stars_b - stars_w) + komi
    if conv_b != conv_w:
        winner = BLACK if conv_b > conv_w else WHITE
    elif quarks_b != quarks_w:
        winner = BLACK if quarks_b > quarks_w else WHITE
    else:
        winner = None
    return FullBoardScore(
        stars=(stars_b, stars_w),
        peris=(peris_b, peris_w),
        quarks=(quarks_b, quarks_w),
        conventional=(conv_b, conv_w),
        winner=winner,
    )


def peri_owners(black: int, white: int, lay: Layout) -> int:
    """The pericells black owns on a full board (stones as bitboards, no
    ghosts): those of its stars and those of white's dead groups. White owns
    the other pericells."""
    black |= lay.ray_to_ghost[black & lay.ray]
    white |= lay.ray_to_ghost[white & lay.ray]
    _, occupied_black, _ = _perimeter_groups(black, lay)
    _, _, dead_white = _perimeter_groups(white, lay)
    return occupied_black | dead_white


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
    chosen = rng.getrandbits(lay.bits) & empty
    have = chosen.bit_count()
    # Drop or add uniformly chosen cells until the count is right. Candidates
    # are drawn uniformly from all cells, in batches, and misses are skipped,
    # so each accepted pick is uniform over the cells that qualify.
    bit_of = lay.bit_of
    while have > first_share:
        for low in rng.choices(bit_of, k=2 * (have - first_share) + 2):
            if chosen & low:
                chosen ^= low
                have -= 1
                if have == first_share:
                    break
    while have < first_share:
        for low in rng.choices(bit_of, k=2 * (first_share - have) + 2):
            if empty & low and not chosen & low:
                chosen |= low
                have += 1
                if have == first_share:
                    break
    return chosen


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
    empty = lay.board & ~(black | white)
    count = empty.bit_count()
    mine = random_fill(empty, (count + 1) // 2, lay, rng)
    if to_move == BLACK:
        black |= mine
        white |= empty ^ mine
    else:
        white |= mine
        black |= empty ^ mine
    return PlayoutResult(score_full(black, white, lay, komi).winner, black, white)


def random_playout(position, rng: random.Random, komi: float = 0.0) -> PlayoutResult:
    """A random playout from a :class:`engine.star.Position`."""
    return playout_bits(position.black_bits, position.white_bits, position.to_move,
                        layout(position.rings), rng, komi)
