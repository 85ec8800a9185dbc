"""*Star knowledge for the search, each piece checked against a slow,
obviously correct version on random positions: bridges (for the playout's
bridge completion and the tree's priors), cells no stone can change, and
the answers to an intrusion."""

from __future__ import annotations

import random

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star import Position, score
from stargtp.engine.star.geometry import geometry
from stargtp.engine.star.playout import (_at, _bridge_shifts, answers, filled_cells, layout,
                                         playout_bridges, random_fill, save_bridges, score_full)


def random_position(rings: int, rng: random.Random, stones: int | None = None) -> Position:
    position = Position(rings)
    count = rng.randrange(geometry(rings).cell_count) if stones is None else stones
    for _ in range(count):
        position.play(rng.choice(position.legal_moves()))
    return position


def cells(mask: int, rings: int) -> set[int]:
    bit_of = layout(rings).bit_of
    return {c for c in range(geometry(rings).cell_count) if mask & bit_of[c]}


def slow_bridges(stones: set[int], empty: set[int], rings: int) -> set[tuple]:
    """Pairs of non-adjacent stones with exactly two common neighbours, both
    empty and adjacent to each other: ``(low, high, carriers)``."""
    nb = geometry(rings).neighbours
    found = set()
    for x in stones:
        for y in stones:
            if x < y and y not in nb[x]:
                common = [c for c in nb[x] if c in nb[y]]
                if len(common) == 2 and common[1] in nb[common[0]] and all(c in empty for c in common):
                    found.add((x, y, frozenset(common)))
    return found


def fast_bridges(stones: int, empty: int, rings: int) -> set[tuple]:
    lay = layout(rings)
    found = set()
    for to_stone, c1, c2 in _bridge_shifts(lay):
        anchors = stones & _at(stones, to_stone) & _at(empty, c1) & _at(empty, c2)
        while anchors:
            low = anchors & -anchors
            anchors ^= low
            x, y = lay.cell_of_bit[low], lay.cell_of_bit[_at(low, -to_stone)]
            carriers = frozenset((lay.cell_of_bit[_at(low, -c1)], lay.cell_of_bit[_at(low, -c2)]))
            found.add((min(x, y), max(x, y), carriers))
    return found


@pytest.mark.parametrize("rings", [3, 4, 6, 10])
def test_the_bitwise_bridges_are_real_bridges_and_most_of_them(rings):
    rng = random.Random(rings)
    seen = total = 0
    lay = layout(rings)
    for _ in range(60):
        p = random_position(rings, rng)
        empty = lay.board & ~(p.black_bits | p.white_bits)
        for stones in (p.black_bits, p.white_bits):
            fast = fast_bridges(stones, empty, rings)
            slow = slow_bridges(cells(stones, rings), cells(empty, rings), rings)
            assert fast <= slow
            seen += len(fast)
            total += len(slow)
    # Only bridges across the seam of the layout or through the star are missed.
    assert seen >= 0.6 * total


@pytest.mark.parametrize("rings", [4, 6, 10])
def test_mended_fills_keep_the_shares_and_white_bridges_hold(rings):
    rng = random.Random(100 + rings)
    lay = layout(rings)
    mended = 0
    for _ in range(200):
        p = random_position(rings, rng)
        black, white = p.black_bits, p.white_bits
        empty = lay.board & ~(black | white)
        fill = random_fill(empty, (empty.bit_count() + 1) // 2, lay, rng)
        new = save_bridges(black, white, empty, fill, lay, rng)
        assert new & ~empty == 0 and new.bit_count() == fill.bit_count()
        mended += new != fill
        # White's bridges are mended last, so none of them is left broken.
        black_cells = cells(new, rings)
        for _, _, carriers in fast_bridges(white, empty, rings):
            assert not carriers <= black_cells
    assert mended > 20


def test_bridge_playouts_score_like_the_scorer():
    rng = random.Random(5)
    lay = layout(6)
    for _ in range(100):
        p = random_position(6, rng)
        result = playout_bridges(p.black_bits, p.white_bits, p.to_move, lay, rng)
        assert result.black & result.white == 0 and result.black | result.white == lay.board
        assert result.winner == score_full(result.black, result.white, lay).winner
        empty = lay.board & ~(p.black_bits | p.white_bits)
        mine = result.black if p.to_move == BLACK else result.white
        assert (mine & empty).bit_count() == (empty.bit_count() + 1) // 2


def slow_filled(p: Position) -> set[int]:
    g = geometry(p.rings)
    found = set()
    for c in p.legal_moves():
        colours = {p.board[n] for n in g.neighbours[c]}
        if g.ring_of[c] > 1 and len(colours) == 1 and colours <= {BLACK, WHITE}:
            found.add(c)
    return found


@pytest.mark.parametrize("rings", [3, 4, 6, 10])
def test_filled_cells_are_those_surrounded_by_one_colour(rings):
    rng = random.Random(200 + rings)
    lay = layout(rings)
    ray = cells(lay.ray, rings)
    found = 0
    for _ in range(150):
        p = random_position(rings, rng, stones=rng.randrange(geometry(rings).cell_count // 2,
                                                             geometry(rings).cell_count))
        fast = cells(filled_cells(p.black_bits, p.white_bits, lay), rings)
        assert fast == slow_filled(p) - ray
        found += len(fast)
    assert found > 20


def test_a_filled_cell_changes_no_score():
    rng = random.Random(7)
    lay = layout(6)
    checked = 0
    for _ in range(100):
        p = random_position(6, rng, stones=80)
        for cell in cells(filled_cells(p.black_bits, p.white_bits, lay), 6):
            rest = [c for c in p.legal_moves() if c != cell]
            for order in range(2):
                q = p.copy()
                rng.shuffle(rest)
                for c in rest:
                    q.play(c)
                a, b = q.copy(), q.copy()
                a.play(cell, BLACK)
                b.play(cell, WHITE)
                assert score(a).conventional == score(b).conventional
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("rings", [4, 6, 10])
def test_answers_complete_the_intruded_bridge_and_touch_the_last_move(rings):
    rng = random.Random(300 + rings)
    lay = layout(rings)
    g = geometry(rings)
    saved = near_seen = near_total = 0
    for _ in range(150):
        p = random_position(rings, rng, stones=rng.randrange(1, g.cell_count - 1))
        colour, last = p.history[-1]
        mover = p.to_move
        own = p.black_bits if mover == BLACK else p.white_bits
        empty = lay.board & ~(p.black_bits | p.white_bits)
        saves, near = answers(p.black_bits, p.white_bits, mover, lay.bit_of[last], lay)
        expect = set()
        for _, _, carriers in fast_bridges(own, empty | lay.bit_of[last], rings):
            if last in carriers:
                expect |= carriers - {last}
        assert cells(saves, rings) == expect
        # Next to the last move on the sheet: the seam and the star bridge are not seen.
        around = {n for n in g.neighbours[last] if p.board[n] not in (BLACK, WHITE)} - expect
        assert cells(near, rings) <= around
        near_seen += len(cells(near, rings))
        near_total += len(around)
        saved += len(expect)
    assert saved > 3
    assert near_seen >= 0.8 * near_total
