"""*Star board geometry: cells, labels, adjacency, perimeter and symmetries.

A board of ``n`` rings has ``5k`` cells on ring ``k``. Cells are numbered in
*board order*: ring by ring from the centre out, each ring clockwise from its
``*`` cell. Everything here is computed once per size (:func:`geometry` caches
it) and shared read-only by every position of that size.

>>> g = geometry(4)
>>> g.cell_count, len(g.perimeter)
(50, 20)
>>> g.label(g.parse("s43"))
'S43'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from stargtp.engine.errors import BadSize, IllegalMove

ARMS = "*STAR"
MIN_RINGS = 2
MAX_RINGS = 10
OFFICIAL_RINGS = (6, 8, 10)


@dataclass(frozen=True)
class Geometry:
    """The fixed facts of one board size. Cells are ints in board order."""

    rings: int
    """Number of rings, 2..10."""
    cell_count: int
    """``5n(n+1)/2``."""
    ring_of: tuple[int, ...]
    """Ring number (1..n) of each cell."""
    position_of: tuple[int, ...]
    """Position of each cell on its ring, ``p = arm * ring + offset``."""
    labels: tuple[str, ...]
    """Upper-case label ``Nxy`` of each cell."""
    neighbours: tuple[tuple[int, ...], ...]
    """Adjacent cells of each cell, sorted; ring 1 is a clique (the star bridge)."""
    perimeter: tuple[int, ...]
    """Pericells (ring n) in board order."""
    corners: tuple[int, ...]
    """The five corner pericells ``N n 0``, each carrying a quark."""
    is_peri: tuple[bool, ...]
    is_corner: tuple[bool, ...]
    rotation: tuple[int, ...]
    """Cell -> cell under rotation by one arm (72 degrees clockwise)."""
    reflection: tuple[int, ...]
    """Cell -> cell under the mirror ``p -> -p`` on every ring."""
    _by_label: dict[str, int]

    def cell(self, ring: int, position: int) -> int:
        """The cell at ``position`` (taken mod ``5*ring``) of ``ring``."""
        return 5 * ring * (ring - 1) // 2 + position % (5 * ring)

    def label(self, cell: int) -> str:
        return self.labels[cell]

    def parse(self, text: str) -> int:
        """The cell named by ``text`` (any case); IllegalMove if it names none here."""
        cell = self._by_label.get(text.strip().upper())
        if cell is None:
            raise IllegalMove(f"{text!r} is not a cell of the {self.rings}-ring board")
        return cell

    def edge_count(self) -> int:
        return sum(len(n) for n in self.neighbours) // 2

    def symmetries(self) -> list[tuple[int, ...]]:
        """All ten maps of the board onto itself (five rotations, each with and
        without reflection), identity first."""
        identity = tuple(range(self.cell_count))
        maps = []
        current = identity
        for _ in range(5):
            maps.append(current)
            maps.append(tuple(self.reflection[c] for c in current))
            current = tuple(self.rotation[c] for c in current)
        return maps


def check_rings(rings: int) -> None:
    if not isinstance(rings, int) or not MIN_RINGS <= rings <= MAX_RINGS:
        raise BadSize(f"a *Star board has {MIN_RINGS}..{MAX_RINGS} rings, not {rings!r}")


@lru_cache(maxsize=None)
def geometry(rings: int) -> Geometry:
    """The shared :class:`Geometry` of a board with ``rings`` rings."""
    check_rings(rings)
    n = rings

    def cell(k: int, p: int) -> int:
        return 5 * k * (k - 1) // 2 + p % (5 * k)

    ring_of: list[int] = []
    position_of: list[int] = []
    labels: list[str] = []
    for k in range(1, n + 1):
        for p in range(5 * k):
            arm, offset = divmod(p, k)
            ring_of.append(k)
            position_of.append(p)
            labels.append(f"{ARMS[arm]}{k % 10}{offset}")
    count = len(labels)

    adjacent: list[set[int]] = [set() for _ in range(count)]

    def link(a: int, b: int) -> None:
        if a != b:
            adjacent[a].add(b)
            adjacent[b].add(a)

    for k in range(1, n + 1):
        for p in range(5 * k):
            here = cell(k, p)
            link(here, cell(k, p + 1))  # along the ring
            if k == 1:
                for q in range(5):  # the central star joins all of ring 1
                    link(here, cell(1, q))
            if k < n:  # outward; inward links are the same edges seen from outside
                arm, offset = divmod(p, k)
                link(here, cell(k + 1, arm * (k + 1) + offset))
                link(here, cell(k + 1, arm * (k + 1) + offset + 1))
                if offset == 0:
                    link(here, cell(k + 1, arm * (k + 1) - 1))

    perimeter = tuple(cell(n, p) for p in range(5 * n))
    corners = tuple(cell(n, arm * n) for arm in range(5))
    peri_set, corner_set = set(perimeter), set(corners)
    rotation = tuple(cell(ring_of[c], position_of[c] + ring_of[c]) for c in range(count))
    reflection = tuple(cell(ring_of[c], -position_of[c]) for c in range(count))
    return Geometry(
        rings=n,
        cell_count=count,
        ring_of=tuple(ring_of),
        position_of=tuple(position_of),
        labels=tuple(labels),
        neighbours=tuple(tuple(sorted(a)) for a in adjacent),
        perimeter=perimeter,
        corners=corners,
        is_peri=tuple(c in peri_set for c in range(count)),
        is_corner=tuple(c in corner_set for c in range(count)),
        rotation=rotation,
        reflection=reflection,
        _by_label={label: i for i, label in enumerate(labels)},
    )


# -- the bit layout of the fast code ------------------------------------------------
# **The layout.** The *Star lattice is a hexagonal board with one of its six
# sectors cut away and the centre cell replaced by the star bridge. So each cell
# gets the bit of its place on a hex grid in axial coordinates, ``(q, r)`` with
# bit ``(r + n) * W + (q + n)`` and one spare column so that shifts never wrap
# onto a real cell. Adjacency is then six constant shifts, except
# 
# * across the cut (between arms R and ``*``): the cells ``k*(0,1)`` of the
#   missing sector are *ghosts* of the ``*`` arm's first cells ``k*(1,0)``; both
#   are kept equal with a table lookup after each step;
# * ring 1, which is a clique through the central star: one extra test.

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
