"""The fast playout: exact shares, uniform fills, and scores that agree with
the plain scorer."""

import collections
import dataclasses
import random

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star import PASS, Position, score
from stargtp.engine.star.playout import (layout, playout_bits, random_fill, random_playout, score_from_counts,
                                         winner_from_counts)

# Both fill methods: the default switches to list sampling on small boards, so
# force the bitwise method too.
METHODS = {"sample": lambda lay: lay, "bits": lambda lay: dataclasses.replace(lay, small_fill=0)}


def position_from_bits(rings: int, black: int, white: int) -> Position:
    lay = layout(rings)
    p = Position(rings)
    for cell in lay.cells_of(black):
        p.play(cell, BLACK)
    for cell in lay.cells_of(white):
        p.play(cell, WHITE)
    return p


@pytest.mark.parametrize("method", METHODS)
def test_each_cell_is_equally_likely(method):
    rng = random.Random(11)
    lay = METHODS[method](layout(3))
    trials = 20000
    counts = collections.Counter()
    for _ in range(trials):
        chosen = random_fill(lay.board, 15, lay, rng)
        assert chosen.bit_count() == 15 and chosen & ~lay.board == 0
        for cell in lay.cells_of(chosen):
            counts[cell] += 1
    for cell in range(30):  # each probability is 15/30; 0.02 is about 6 sigma
        assert abs(counts[cell] / trials - 0.5) < 0.02, cell


@pytest.mark.parametrize("method", METHODS)
def test_every_fill_is_equally_likely(method):
    # 6 empty cells, 3 for the side to move: the 20 possible fills, chi-square.
    rng = random.Random(3)
    lay = METHODS[method](layout(2))
    empty = lay.mask_of([0, 3, 6, 9, 12, 14])
    trials = 20000
    seen = collections.Counter(random_fill(empty, 3, lay, rng) for _ in range(trials))
    assert len(seen) == 20
    expected = trials / 20
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi2 < 45  # 19 degrees of freedom: p < 0.001 beyond about 43.8


def test_shares_follow_the_side_to_move():
    rng = random.Random(2)
    p = Position(4)
    p.play(p.parse_move("S43"))  # black played; white to move, 49 empty
    lay = layout(4)
    for _ in range(50):
        result = random_playout(p, rng)
        assert result.black | result.white == lay.board and not result.black & result.white
        assert result.white.bit_count() == 25 and result.black.bit_count() == 24 + 1
        assert result.black & p.black_bits == p.black_bits


@pytest.mark.parametrize("rings", [2, 4, 6, 8, 10])
def test_playout_score_equals_the_scorer(rings):
    rng = random.Random(rings)
    p = Position(rings)
    moves = rng.sample(p.legal_moves(), p.geometry.cell_count // 3)
    for m in moves:
        p.play(m)
    for komi in (0.0, 2.5, -1.0):
        for _ in range(60):
            result = random_playout(p, rng, komi)
            full = position_from_bits(rings, result.black, result.white)
            assert full.is_over()
            assert result.winner == score(full, komi).winner


def test_seeded_playouts_repeat():
    p = Position(10)
    a = [random_playout(p, random.Random(9)) for _ in range(3)]
    b = [random_playout(p, random.Random(9)) for _ in range(3)]
    assert a == b


def test_playout_from_a_full_board_just_scores():
    p = Position(2)
    for c in range(15):
        p.play(c)
    lay = layout(2)
    result = playout_bits(p.black_bits, p.white_bits, p.to_move, lay, random.Random(1))
    assert (result.black, result.white) == (p.black_bits, p.white_bits)
    assert result.winner == score(p).winner


def test_playout_after_passes():
    p = Position(3)
    p.play(PASS)
    result = random_playout(p, random.Random(4))
    assert result.white.bit_count() == 15 and result.black.bit_count() == 15


def test_the_winner_alone_is_the_score_s_winner():
    # winner_from_counts (what the playouts use) against score_from_counts,
    # on random counts: any owned pericells, any stars, komi whole, half,
    # negative, odd.
    rng = random.Random(26)
    for rings in (2, 5, 10):
        lay = layout(rings)
        peri = [bit for bit in lay.bit_of if bit & lay.peri]
        for _ in range(3000):
            owned = sum(bit for bit in peri if rng.random() < rng.random())
            stars_b, stars_w = rng.randrange(8), rng.randrange(8)
            komi = rng.choice([0.0, 0.5, 2.5, -1.5, 3.0, 7.0, 0.1, 1e-17])
            assert (winner_from_counts(owned, stars_b, stars_w, lay, komi)
                    == score_from_counts(owned, stars_b, stars_w, lay, komi).winner)
