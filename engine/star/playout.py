"""The fast random playout: fill every empty cell at random and score the full
board, with Python ints as bitboards.

This is the one clever module of the *Star core; :mod:`engine.star.scoring`
is the plain scorer it must agree with (the tests check them against each
other and against a slow reference on thousands of boards).

**The layout** (:func:`engine.star.geometry.layout`) gives each cell a bit of
a hexagonal grid, so adjacency is six constant shifts.

**The fill.** Each empty cell is black or white with one random bit, then a
few random cells are flipped until each side has exactly its share. That
process does not depend on how the cells are numbered, so every fill with the
right counts is equally likely.

**The score.** On a full board a dead group's pericells go to the opponent, so
only the groups that touch the perimeter matter; each is flood-filled once.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from engine.colour import BLACK, WHITE
from engine.star.geometry import Layout, layout


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
