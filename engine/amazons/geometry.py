"""Amazons board geometry: sizes, squares, their names, start positions, and the
ray and neighbour tables that move generation, playouts and scoring share.

A square is a plain ``int``: ``row * size + column``, where column 0 is file
``a`` and row 0 is rank ``1`` (White's side). So on 10x10 ``a1 = 0``,
``j1 = 9`` and ``j10 = 99``. Bitboards are Python ints with bit ``square``
set for each square in the set. Everything here is computed once per size
(:func:`geometry` caches it) and shared read-only by every position of that size.

>>> g = geometry(10)
>>> g.parse_square("D1"), g.square_name(93)
(3, 'd10')
>>> [g.square_name(s) for s in g.start[WHITE]]
['d1', 'g1', 'a4', 'j4']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import BadSize, IllegalMove

SIZES: tuple[int, ...] = (6, 8, 10)
"""The board sizes this engine plays."""
DEFAULT_SIZE = 10
FILES = "abcdefghij"
"""File letters; ``i`` is included, as in chess."""

ARROW = 3
"""Board contents of a square holding an arrow (EMPTY, BLACK, WHITE are 0, 1, 2)."""

# The eight queen directions as (column step, row step). Even indices point to
# higher square numbers and index ^ 1 is the opposite direction, which the
# bitboard code relies on: the nearest blocker on an even ray is its lowest set
# bit, on an odd ray its highest.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0), (-1, 0),    # east, west
    (0, 1), (0, -1),    # north, south
    (1, 1), (-1, -1),   # north-east, south-west
    (-1, 1), (1, -1),   # north-west, south-east
)

# Start squares, White first; White moves first on every size.
_START_NAMES: dict[int, dict[int, tuple[str, ...]]] = {
    10: {WHITE: ("a4", "d1", "g1", "j4"), BLACK: ("a7", "d10", "g10", "j7")},
    8: {WHITE: ("a3", "c1", "f1", "h3"), BLACK: ("a6", "c8", "f8", "h6")},
    6: {WHITE: ("a2", "b1", "e1", "f2"), BLACK: ("a5", "b6", "e6", "f5")},
}


@dataclass(frozen=True)
class Geometry:
    """The fixed facts of one board size."""

    size: int
    """Side length: 6, 8 or 10."""
    square_count: int
    """``size * size``."""
    names: tuple[str, ...]
    """Lower-case name (``d1``) of each square."""
    start: dict[int, tuple[int, ...]]
    """Start squares of each colour's amazons, in square order."""
    rays: tuple[tuple[int, ...], ...]
    """Index ``square * 8 + direction``: the squares met walking from ``square``
    in that direction, nearest first, up to the edge."""
    sentinel_rays: tuple[tuple[int, ...], ...]
    """The same rays, each ending with the extra index ``square_count``; a loop
    over a board list that holds a non-empty value there stops at the first
    non-empty square without a bounds test (used by the playout)."""
    ray_masks: tuple[int, ...]
    """Index ``square * 8 + direction``: the ray as a bitboard."""
    king_masks: tuple[int, ...]
    """The (up to eight) neighbours of each square as a bitboard."""
    steps: tuple[int, ...]
    """Square-number change of one step in each direction."""
    landing_masks: tuple[int, ...]
    """Per direction: the squares a one-step bitboard shift may land on without
    having wrapped around a side edge (the first file is excluded after an
    eastward step, the last after a westward one)."""
    full_mask: int
    """Every square of the board."""

    def square(self, column: int, row: int) -> int:
        """The square at ``column`` (0 = file a) and ``row`` (0 = rank 1)."""
        return row * self.size + column

    def column(self, square: int) -> int:
        return square % self.size

    def row(self, square: int) -> int:
        return square // self.size

    def on_board(self, column: int, row: int) -> bool:
        return 0 <= column < self.size and 0 <= row < self.size

    def square_name(self, square: int) -> str:
        """``d1`` style name; ``square`` must be on the board."""
        return self.names[square]

    def parse_square(self, text: str) -> int:
        """A square from ``d1`` / ``D10``; IllegalMove when the text is not a
        square name or the square is off this board."""
        word = text.strip().lower()
        if (len(word) < 2 or not ("a" <= word[0] <= "z") or not word[1:].isdigit()
                or not word[1:].isascii() or word[1] == "0"):
            raise IllegalMove(f"not a square name: {text!r}")
        column = ord(word[0]) - ord("a")
        row = int(word[1:]) - 1
        if not self.on_board(column, row):
            raise IllegalMove(f"square {word} is off the {self.size}x{self.size} board")
        return self.square(column, row)

    def mask_of(self, squares) -> int:
        """The bitboard holding ``squares``."""
        mask = 0
        for square in squares:
            mask |= 1 << square
        return mask


def check_size(size: int) -> None:
    """BadSize unless ``size`` is 6, 8 or 10."""
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise BadSize(f"Amazons is played on {', '.join(map(str, SIZES))} boards, not {size!r}")


@lru_cache(maxsize=None)
def _build(size: int) -> Geometry:
    count = size * size
    names = tuple(f"{FILES[s % size]}{s // size + 1}" for s in range(count))
    by_name = {name: square for square, name in enumerate(names)}
    start = {colour: tuple(sorted(by_name[n] for n in squares))
             for colour, squares in _START_NAMES[size].items()}
    rays: list[tuple[int, ...]] = []
    for square in range(count):
        column, row = square % size, square // size
        for dc, dr in DIRECTIONS:
            ray = []
            c, r = column + dc, row + dr
            while 0 <= c < size and 0 <= r < size:
                ray.append(r * size + c)
                c, r = c + dc, r + dr
            rays.append(tuple(ray))
    ray_masks = tuple(sum(1 << s for s in ray) for ray in rays)
    king_masks = tuple(
        sum(1 << rays[square * 8 + d][0] for d in range(8) if rays[square * 8 + d])
        for square in range(count))
    full = (1 << count) - 1
    file_a = sum(1 << (r * size) for r in range(size))
    last_file = file_a << (size - 1)
    landing = tuple(full & ~file_a if dc == 1 else full & ~last_file if dc == -1 else full
                    for dc, _ in DIRECTIONS)
    return Geometry(
        size=size, square_count=count, names=names, start=start,
        rays=tuple(rays), sentinel_rays=tuple(ray + (count,) for ray in rays),
        ray_masks=ray_masks, king_masks=king_masks,
        steps=tuple(dc + dr * size for dc, dr in DIRECTIONS),
        landing_masks=landing, full_mask=full)


def geometry(size: int = DEFAULT_SIZE) -> Geometry:
    """The shared geometry of a ``size`` board; BadSize for sizes other than 6, 8, 10."""
    check_size(size)
    return _build(size)

