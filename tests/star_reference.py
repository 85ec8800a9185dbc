"""Slow, obviously-correct *Star references, for the tests only.

Nothing here is clever: neighbours come straight from the rules page's
wording, and scoring removes dead groups one at a time before counting.
"""

from __future__ import annotations

from pathlib import Path

from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.star import Position

EXAMPLES = Path(__file__).parent / "data" / "star_examples.txt"


def load_examples() -> list[dict]:
    """The records of ``data/star_examples.txt``: ``key value`` lines, with
    every ``star`` line kept, in order, under ``"star"``."""
    records, current = [], None
    for line in EXAMPLES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "name":
            current = {"name": rest, "star": []}
            records.append(current)
        elif key == "star":
            current["star"].append(rest)
        else:
            current[key] = rest
    return records


def example_position(record: dict) -> Position:
    """The position of an example record: its black, then its white stones."""
    position = Position(int(record["rings"]))
    for colour, key in ((BLACK, "black"), (WHITE, "white")):
        for label in record[key].split():
            position.play(position.parse_move(label), colour)
    return position


def reference_neighbours(rings: int) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """Adjacency of ``(ring, position)`` pairs, from the rules page sentence by sentence."""
    adjacent: dict[tuple[int, int], set[tuple[int, int]]] = {
        (k, p): set() for k in range(1, rings + 1) for p in range(5 * k)
    }
    for k in range(1, rings + 1):
        for p in range(5 * k):
            here = (k, p)
            for q in (p - 1, p + 1):  # same ring, mod 5k
                adjacent[here].add((k, q % (5 * k)))
            if k == 1:  # the central star
                adjacent[here].update((1, q) for q in range(5))
            if k < rings:  # out to ring k+1 ...
                s, y = divmod(p, k)
                outs = [s * (k + 1) + y, s * (k + 1) + y + 1]
                if y == 0:
                    outs.append(s * (k + 1) - 1)
                for q in outs:
                    there = (k + 1, q % (5 * (k + 1)))
                    adjacent[here].add(there)
                    adjacent[there].add(here)  # ... and in: the mirror
    for here in adjacent:
        adjacent[here].discard(here)
    return adjacent


def _groups(board: list[int], neighbours, wanted) -> list[list[int]]:
    seen = set()
    groups = []
    for start in range(len(board)):
        if start in seen or not wanted(start):
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            cell = todo.pop()
            group.append(cell)
            for other in neighbours[cell]:
                if other not in seen and wanted(other) and board[other] == board[start]:
                    seen.add(other)
                    todo.append(other)
        groups.append(group)
    return groups


def reference_score(board: list[int], geometry, komi: float = 0.0) -> dict:
    """Remove one dead group at a time until none is left, then count."""
    board = list(board)
    peri = set(geometry.perimeter)
    corners = set(geometry.corners)
    neighbours = geometry.neighbours
    while True:
        stones = _groups(board, neighbours, lambda c: board[c] != EMPTY)
        dead = [g for g in stones if len(peri.intersection(g)) < 2]
        if not dead:
            break
        for cell in dead[0]:
            board[cell] = EMPTY
    owned = {BLACK: set(), WHITE: set()}
    for group in stones:
        owned[board[group[0]]].update(peri.intersection(group))
    for region in _groups(board, neighbours, lambda c: board[c] == EMPTY):
        colours = {board[o] for c in region for o in neighbours[c] if board[o] != EMPTY}
        if len(colours) == 1:
            owned[colours.pop()].update(peri.intersection(region))
    stars = {c: sum(1 for g in stones if board[g[0]] == c) for c in (BLACK, WHITE)}
    result = {}
    for c, o in ((BLACK, WHITE), (WHITE, BLACK)):
        quarks = len(owned[c] & corners)
        result[c] = {"peris": len(owned[c]), "quarks": quarks, "quark_peri": int(quarks >= 3),
                     "stars": stars[c]}
    for c, o in ((BLACK, WHITE), (WHITE, BLACK)):
        r = result[c]
        r["conventional"] = (r["peris"] + r["quark_peri"] + 2 * (stars[o] - stars[c])
                             + (komi if c == WHITE else 0))
    return result
