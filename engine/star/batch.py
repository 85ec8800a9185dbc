"""Batched *Star playouts: black's floods of several full boards done
together, each big-integer operation serving every board of a *pack*.

:mod:`stargtp.engine.star.playout` scores one board from black's floods
alone (:func:`stargtp.engine.star.playout._full_board_counts`): nearly all of
its time goes to the flood steps, and a step on one board costs mostly the
interpreter's fixed cost per operation, not the bits. Here the black stones
of K boards share one int, one board a *field*, so each shift/and/or of a
flood step serves all K.

**The pack.** Field ``f`` holds board ``f``'s black stones in the
single-board layout (:func:`stargtp.engine.star.geometry.layout`, ``bits =
(2n+1) W``, ``W = 2n + 2``) and their ghosts across the seam, followed by
one blank row, so a field is ``stride = bits + W`` bits. A flood step moves a bit by
at most ``W``: a board's bits shifted out of its own rows land in the blank
row (its own or the one below), never on a cell, and every step is masked
with the stones. The blank row's last bit (the *guard*, bit ``stride - 1``
of each field) is never a cell: adding a field's ``ones`` (its bits below
the guard) to what changed in a step carries into the guard exactly when
the field's group grew, so one addition says which fields are still
growing. The packing arithmetic (the fields, spreading one board's mask
into all of them, joining and splitting boards, the guards) is
:class:`stargtp.engine.packing.Packing`'s, which Hex and Y's packed
playouts use too.

**The flood.** As in the single-board code, a black pericell with no black
neighbour is a dead group on its own, found for all fields at once; then
each field floods its groups that touch the perimeter one at a time, from
its highest remaining pericell, all fields together, two steps between two
looks at which fields are still growing (a pack step is as dear as the
look). When some field's group stops growing with cells on the seam that
were not copied across yet, that field's seam cells are copied across (ray
cells to ghosts and back, by the single board's tables); the fields still
growing wait for theirs until they stop. A field whose group still did not
grow is finished: its group is taken out of
the pack, kept if a star (two pericells or more), and the field's next
group starts, while the other fields go on growing theirs. Black's groups
that touch the perimeter are counted at the end: each star one, and each
black pericell in no star one (dead or a live group of one pericell).

**The star bridge** is not in the flood (nor in the single-board
code's, which puts it back the same way, with the same functions). It
matters only when ring 1 holds two black runs and two white runs; then,
if the two black runs are in two groups of the sheet that both touch the
perimeter, the star makes them one group (a star), and white's two runs
are then in two such groups as well (neither colour can go round ring 1
between the other's two groups), which the star joins too. The white pericells between black's two groups are the only
pericells of those white groups (``tests/test_star_batch.py`` checks all
this against a plain search). So no white flood is needed.

**White** follows from black's groups and the perimeter runs as in
:func:`stargtp.engine.star.playout._with_white`, for all fields at once:
the steps along the perimeter on the whole pack, and the lone white
pericells whose neighbours are all black (surely alone) told from the
others on the whole pack; only the others are looked up in black's stars,
per board.

**The fill** stays per board, the single-board playouts' own
(:func:`stargtp.engine.star.playout.fill` and, for the search,
:func:`stargtp.engine.star.playout.fill_bridges`): the
exact share per colour needs a count per board, and it is a small part of a
playout's time. So each board's fill has exactly the distribution of the
single-board playout's, and for the same random numbers the same boards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from stargtp.engine.packing import Packing
from stargtp.engine.star.geometry import Layout, layout
from stargtp.engine.star.playout import (FullBoardScore, PlayoutResult, _backward, _between, _forward,
                                         _join_across_ring1, _neighbours, _walk, _Walk, fill, fill_bridges,
                                         playout_bridges,
                                         score_from_counts, winner_from_counts)

_new_tuple = tuple.__new__

PACK_SIZE = 6
"""Boards a pack at most (docs/performance.md, "A batched *Star kernel on
black's floods": instructions per playout measured at 1 - 8 boards a pack;
4 - 8 are within 4% of each other on 10 rings, fewer than 3 cost more than
one board at a time)."""


@dataclass(frozen=True)
class _Pack:
    """The constants of packs of up to ``k`` boards of one size."""

    lay: Layout
    packing: Packing
    """The fields (:class:`stargtp.engine.packing.Packing`, ``k`` of
    ``stride`` bits): their offsets, the guard bits and each field's bits
    below its guard (``guards``, ``ones``, ``field``)."""
    peri: int
    ray: int
    ghost: int
    edge_ghost: int
    """The ghost of the ray's pericell, in every field."""
    edge_down: int
    walk: _Walk
    """The single board's perimeter walk."""
    board: int
    """Every cell, in every field (white's stones are the cells black lacks)."""
    board_ghost: int
    """Every cell and every ghost, in every field."""
    walk_all: _Walk
    """Its steps along the perimeter (``ahead``, ``behind``) in every field."""
    beside_at: tuple
    """By ``cell.bit_length()`` of a pericell bit ``cell`` (one board): ``(cell,
    the bits of the pericells before and after it)``."""
    guard_bits: tuple[int, ...]
    """Each field's guard bit."""
    slots: tuple
    """By ``guard.bit_length()`` of a field's guard bit: the field's
    ``(index, offset, guard, keep, peri, ring1, seed_at)``, ``keep`` every
    bit of the pack but the field's, ``peri`` and ``ring1`` the board's
    pericells and ring 1 in the field, ``seed_at`` the board's pericell
    ``cell`` in the field by ``cell.bit_length()``."""
    crossings: tuple
    """The same for the seam: ``(offset, guard, seam)``, ``seam`` the
    board's ray and ghost cells in the field."""


@lru_cache(maxsize=None)
def _pack_constants(rings: int, k: int) -> _Pack:
    lay = layout(rings)
    n, width = rings, lay.width
    stride = lay.bits + width

    def bit(q: int, r: int) -> int:  # the layout's own formula
        return 1 << ((r + n) * width + (q + n))

    # A field holds a board's cells and ghosts below its guard (Packing
    # checks it).
    fields = Packing(stride, k, lay.board | lay.ghost | bit(0, 0))
    spread = fields.spread
    walk = _walk(rings)
    # A step along the perimeter moves a pericell onto a pericell of its
    # own board, so it serves every field.
    walk_all = _Walk(tuple((spread(cells), shift) for cells, shift in walk.ahead),
                     tuple((spread(cells), shift) for cells, shift in walk.behind),
                     {}, frozenset())
    beside_at: list[tuple[int, int] | None] = [None] * (lay.bits + 1)
    for cell, sides in walk.beside.items():
        beside_at[cell.bit_length()] = (cell, sides)
    everything = (1 << fields.width) - 1
    guard_bits = tuple(1 << (offset + stride - 1) for offset in fields.offsets)
    slots: list[tuple | None] = [None] * (fields.width + 1)
    crossings: list[tuple | None] = [None] * (fields.width + 1)
    for f, (offset, guard) in enumerate(zip(fields.offsets, guard_bits)):
        seed_at: list[int] = [0] * (lay.bits + 1)
        for cell in walk.beside:
            seed_at[cell.bit_length()] = cell << offset
        slots[guard.bit_length()] = (f, offset, guard, everything ^ ((1 << stride) - 1) << offset,
                                     lay.peri << offset, lay.ring1 << offset, seed_at)
        crossings[guard.bit_length()] = (offset, guard, (lay.ray | lay.ghost) << offset)
    return _Pack(
        lay=lay,
        packing=fields,
        peri=spread(lay.peri),
        ray=spread(lay.ray),
        ghost=spread(lay.ghost),
        edge_ghost=spread(bit(0, n)),
        edge_down=bit(0, n).bit_length() - bit(n, 0).bit_length(),
        walk=walk,
        board=spread(lay.board),
        board_ghost=spread(lay.board | lay.ghost),
        walk_all=walk_all,
        beside_at=tuple(beside_at),
        guard_bits=guard_bits,
        slots=tuple(slots),
        crossings=tuple(crossings),
    )


def _pack_counts(boards: list[tuple[int, int]], pk: _Pack) -> list[tuple[int, int, int]]:
    """For up to ``pk.packing.count`` full boards ``(black, white)`` (single-board
    bitboards, no ghosts): each one's ``(stars_black, stars_white,
    pericells black owns)``, as
    :func:`stargtp.engine.star.playout._full_board_counts` gives them.
    Only black is read: on a full board white has the other cells."""
    lay = pk.lay
    fields = pk.packing
    ray_to_ghost, ray = lay.ray_to_ghost, lay.ray
    ring1 = lay.ring1
    crossing = pk.walk.crossing
    # The packing's join, split and guards written out (Packing's
    # docstring): a call and a list each would cost more than the loop.
    offsets = fields.offsets
    peri = lay.peri
    mask = 0
    crossed = []
    black_peris = []
    for (black, _), offset in zip(boards, offsets):
        mask |= (black | ray_to_ghost[black & ray]) << offset
        crossed.append(black & ring1 in crossing)
        black_peris.append((black & peri).bit_count())
    width = lay.width
    # Pericells with no black neighbour: dead groups of one cell.
    near = _neighbours(mask, width)
    near |= (near & pk.edge_ghost) >> pk.edge_down
    all_seeds = mask & pk.peri
    all_dead = all_seeds & ~near
    all_seeds ^= all_dead
    count = len(boards)
    seeds = []
    group = active = 0
    for offset, guard in zip(offsets, pk.guard_bits):
        mine = all_seeds >> offset & peri
        seeds.append(mine)
        if mine:
            group |= 1 << (offset + mine.bit_length() - 1)
            active |= guard
    blocks: list[list[int]] = [[] for _ in boards]
    on_ring1 = [0] * count
    joined: list[tuple[int, int] | None] = [None] * count
    guards, ones = fields.guards, fields.ones
    seam_mask = pk.ray | pk.ghost
    ghost, ghost_to_ray = lay.ghost, lay.ghost_to_ray
    seam_one = ray | ghost
    slots, crossings = pk.slots, pk.crossings
    seam = 0
    step = width - 1
    while active:
        # The six neighbours in three shifts: (+1) then (+W-1) then (-W);
        # two steps unless no field grew in the first.
        grown = group | group << 1
        grown |= grown << step
        grown = (grown | grown >> width) & mask
        if grown == group:
            moving = 0
        else:
            again = grown | grown << 1
            again |= again << step
            grown = (again | again >> width) & mask
            moving = ((grown ^ group) + ones) & guards
        group = grown
        if moving == active:
            continue
        # Some field's group stopped growing on the sheet. Each such field
        # with new cells on the seam since its seam was last copied across
        # has them copied across (then it grew: not finished yet); the
        # fields still growing wait for theirs until they stop. ``seam``
        # holds the seam cells copied so far.
        done = active ^ moving
        on_seam = group & seam_mask
        if on_seam != seam:
            late = ((on_seam ^ seam) + ones) & done
            while late:
                offset, guard, seam_f = crossings[late.bit_length()]
                late ^= guard
                mine = on_seam >> offset & seam_one
                new = (ray_to_ghost[mine & ray] | ghost_to_ray[mine & ghost]) & ~mine
                if new:
                    new <<= offset
                    group |= new
                    seam |= new
                    done ^= guard
                seam |= on_seam & seam_f
        # Finish the groups that still did not grow.
        while done:
            f, offset, guard, keep, peri_f, ring1_f, seed_at = slots[done.bit_length()]
            done ^= guard
            owned = (group & peri_f) >> offset
            if owned & (owned - 1):
                blocks[f].append(owned)
            if crossed[f] and group & ring1_f:
                # Ring 1 holds two black runs, which the star joins. Not
                # on the sheet: a second group of the perimeter holds the
                # other run, so the two are one group, and a star.
                if on_ring1[f]:
                    first = on_ring1[f]
                    _join_across_ring1(first, owned, blocks[f])
                    joined[f] = (first, owned)
                else:
                    on_ring1[f] = owned
            group &= keep
            rest = seeds[f] ^ owned
            seeds[f] = rest
            if rest:
                group |= seed_at[rest.bit_length()]
            else:
                active ^= guard
        seam &= group
    # White, all fields at once (see _with_white): its groups that touch
    # the perimeter number its runs + 1 - black's; a white pericell is a
    # group on its own when both its neighbours on the perimeter are in
    # one black group, as they are when all its neighbours are black.
    black_peri = mask & pk.peri
    white_peri = pk.peri ^ black_peri
    walk_all = pk.walk_all
    after_black = _forward(black_peri, walk_all) & white_peri
    lonely = after_black & _backward(black_peri, walk_all)
    if lonely:
        # White's stones and their ghosts: the ghosts black's lack.
        white = pk.board_ghost & ~mask
        near = _neighbours(white, width)
        near |= (near & pk.edge_ghost) >> pk.edge_down
        maybe_all = lonely & near
        sure_all = lonely ^ maybe_all
    else:
        maybe_all = sure_all = 0
    walk = pk.walk
    beside_at = pk.beside_at
    out = []
    for f, offset in zip(range(count), offsets):
        # Black's groups that touch the perimeter: the stars, and each
        # pericell in no star (a dead one, or a live group of one
        # pericell), the star's join across ring 1 included.
        mine = blocks[f]
        in_stars = sum(mine)  # the stars' pericells are disjoint
        groups_white = ((after_black >> offset & peri).bit_count() + 1
                        - (black_peris[f] - in_stars.bit_count() + len(mine)))
        single_white = sure_all >> offset & peri
        maybe = maybe_all >> offset & peri
        while maybe:
            cell, sides = beside_at[maybe.bit_length()]
            maybe ^= cell
            if sides & in_stars == sides:
                for owned in mine:
                    if owned & sides:
                        if owned & sides == sides:
                            single_white |= cell
                        break
        if joined[f]:
            # The star joins white's two runs of ring 1 as well (see
            # _with_white): one group fewer, and no white pericell
            # between black's two groups on its own.
            groups_white -= 1
            single_white = _between(single_white, *joined[f], walk)
        out.append((len(mine), groups_white - single_white.bit_count(), in_stars | single_white))
    return out


def score_full_batch(boards, lay: Layout, komi: float = 0.0, pack: int = PACK_SIZE) -> list[FullBoardScore]:
    """:func:`stargtp.engine.star.playout.score_full` of each full board
    ``(black, white)`` of ``boards``, computed ``pack`` boards at a time."""
    boards = list(boards)
    pk = _pack_constants(lay.rings, pack)
    out = []
    for start in range(0, len(boards), pack):
        for stars_b, stars_w, owned_b in _pack_counts(boards[start:start + pack], pk):
            out.append(score_from_counts(owned_b, stars_b, stars_w, lay, komi))
    return out


def _results(filled: list[tuple[int, int]], lay: Layout, komi: float, pack: int) -> list[PlayoutResult]:
    pk = _pack_constants(lay.rings, pack)
    out = []
    for start in range(0, len(filled), pack):
        boards = filled[start:start + pack]
        for (stars_b, stars_w, owned_b), (black, white) in zip(_pack_counts(boards, pk), boards):
            # PlayoutResult's own __new__ (namedtuple's: tuple.__new__ of
            # the three), without its Python frame.
            out.append(_new_tuple(PlayoutResult, (winner_from_counts(owned_b, stars_b, stars_w, lay, komi),
                                                  black, white)))
    return out


def playouts_bits(black: int, white: int, to_move: int, lay: Layout, rng: random.Random, count: int,
                  komi: float = 0.0, pack: int = PACK_SIZE) -> list[PlayoutResult]:
    """``count`` independent :func:`stargtp.engine.star.playout.playout_bits`
    from the same stones (the same fills for the same random numbers),
    scored ``pack`` boards at a time."""
    return _results([fill(black, white, to_move, lay, rng) for _ in range(count)], lay, komi, pack)


def random_playouts(position, rng: random.Random, count: int, komi: float = 0.0,
                    pack: int = PACK_SIZE) -> list[PlayoutResult]:
    """``count`` random playouts from a :class:`stargtp.engine.star.Position`
    (the batched :func:`stargtp.engine.star.playout.random_playout`)."""
    return playouts_bits(position.black_bits, position.white_bits, position.to_move,
                         layout(position.rings), rng, count, komi, pack)


def playouts_bridges(black: int, white: int, to_move: int, lay: Layout, rng: random.Random, count: int,
                     komi: float = 0.0, pack: int = PACK_SIZE) -> list[PlayoutResult]:
    """``count`` independent :func:`stargtp.engine.star.playout.playout_bridges`
    (the search's playout, with the bridge-save reply), scored ``pack``
    boards at a time."""
    return _results([fill_bridges(black, white, to_move, lay, rng) for _ in range(count)], lay, komi, pack)


def search_playouts(black: int, white: int, to_move: int, lay: Layout, rng: random.Random, count: int,
                    komi: float = 0.0) -> list[PlayoutResult]:
    """The search's ``count`` playouts of one leaf (``TreeHooks.playouts``):
    :func:`playouts_bridges` in packs from 3 playouts on, below that
    :func:`stargtp.engine.star.playout.playout_bridges` one at a time (a pack
    of 2 costs more than two single boards). The same playouts either way
    for the same random numbers."""
    if count < 3:
        return [playout_bridges(black, white, to_move, lay, rng, komi) for _ in range(count)]
    return playouts_bridges(black, white, to_move, lay, rng, count, komi)
