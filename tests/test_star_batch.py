"""The batched playout kernel (engine/star/batch.py): the same scores as the
plain scorer (engine/star/scoring.py) and the single-board scorer on
thousands of full boards of every size, at every pack size and whatever a
board's place in its pack; exact shares, uniform fills, and the very
playouts of the single-board playouts for the same random numbers."""

import collections
import random

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star import STAR, Position, score
from stargtp.engine.star.batch import PACK_SIZE, playouts_bits, playouts_bridges, random_playouts, score_full_batch
from stargtp.engine.star.geometry import MAX_RINGS, MIN_RINGS, geometry, layout
from stargtp.engine.star.playout import playout_bits, playout_bridges, score_full
from tests.star_reference import reference_neighbours, reference_score

SIZES = range(MIN_RINGS, MAX_RINGS + 1)
CROSSING_RING1 = [{0, 2}, {1, 3}, {2, 4}, {3, 0}, {4, 1}, {0, 1, 3}, {1, 2, 4}, {2, 3, 0}, {3, 4, 1}, {4, 0, 2}]
"""The ring-1 colourings with two black runs and two white runs."""


def random_full_boards(rings: int, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Full boards, black's share anywhere from a tenth to nine tenths, so
    that big groups, many small ones and lone stones all occur."""
    lay = layout(rings)
    boards = []
    for _ in range(count):
        density = rng.uniform(0.1, 0.9)
        black = 0
        for bit in lay.bit_of:
            if rng.random() < density:
                black |= bit
        boards.append((black, lay.board ^ black))
    return boards


@pytest.mark.parametrize("rings", SIZES)
def test_batched_scores_equal_the_plain_scorer(rings):
    """2,000 random full boards of each size (any share of black, half of
    them with ring 1 holding two runs of each colour, where the star bridge
    needs the ring-1 correction), packed 1 to 8 boards a pack, against
    engine/star/scoring.py."""
    rng = random.Random(2650 + rings)
    lay = layout(rings)
    boards, expected = [], []
    for i, (black, white) in enumerate(random_full_boards(rings, 2000, rng)):
        if i % 2:
            blacks = rng.choice(CROSSING_RING1)
            ring1 = lay.mask_of(blacks)
            black = black & ~lay.ring1 | ring1
            white = lay.board ^ black
        p = Position(rings)
        for cell, bit in enumerate(lay.bit_of):
            p.play(cell, BLACK if black & bit else WHITE)
        boards.append((black, white))
        expected.append(score(p, 0.5))
    for pack in (1, 2, 3, 4, 5, 6, 8):
        got = score_full_batch(boards[pack:] + boards[:pack], lay, 0.5, pack)  # each pack size its own packs
        for s, e in zip(got, expected[pack:] + expected[:pack]):
            assert s.stars == (e.black.stars, e.white.stars)
            assert s.peris == (e.black.peris, e.white.peris)
            assert s.quarks == (e.black.quarks, e.white.quarks)
            assert s.conventional == (e.conventional[BLACK], e.conventional[WHITE])
            assert s.winner == e.winner


@pytest.mark.parametrize("rings", SIZES)
def test_batched_scores_equal_the_single_board_scorer(rings):
    rng = random.Random(100 + rings)
    lay = layout(rings)
    boards = random_full_boards(rings, 450, rng)  # not a multiple of the pack: a short last pack
    for komi in (0.0, 2.5):
        got = score_full_batch(boards, lay, komi)
        assert len(got) == len(boards)
        for (black, white), score_ in zip(boards, got):
            assert score_ == score_full(black, white, lay, komi)


@pytest.mark.parametrize("rings", [2, 5, 10])
def test_batched_scores_equal_the_reference(rings):
    rng = random.Random(7 * rings)
    g, lay = geometry(rings), layout(rings)
    boards = random_full_boards(rings, 60, rng)
    for (black, white), got in zip(boards, score_full_batch(boards, lay, 0.5)):
        board = [BLACK if black & bit else WHITE for bit in lay.bit_of]
        ref = reference_score(board, g, komi=0.5)
        assert got.stars == (ref[BLACK]["stars"], ref[WHITE]["stars"])
        assert got.peris == (ref[BLACK]["peris"], ref[WHITE]["peris"])
        assert got.conventional == (ref[BLACK]["conventional"], ref[WHITE]["conventional"])


@pytest.mark.parametrize("rings", SIZES)
def test_every_place_in_the_pack_scores_the_same(rings):
    # The same boards in every rotation: each board is scored first, in the
    # middle and last of a pack, beside different neighbours.
    rng = random.Random(rings)
    lay = layout(rings)
    pack = PACK_SIZE
    boards = random_full_boards(rings, 2 * pack + 1, rng)
    expected = [score_full(b, w, lay) for b, w in boards]
    for shift in range(len(boards)):
        turned = boards[shift:] + boards[:shift]
        assert score_full_batch(turned, lay) == expected[shift:] + expected[:shift]
    for size in range(1, pack + 1):
        assert score_full_batch(boards[:size], lay) == expected[:size]


def test_lone_groups_at_the_seam_and_the_star_bridge():
    # Boards whose only stars need the seam or the central star bridge.
    g, lay = geometry(4), layout(4)
    cases = [
        ["*40", "*30", "R32", "R42"],  # across the seam
        ["*40", "*30", "*20", "*10", "A10", "A20", "A30", "A40"],  # through ring 1
        ["*40", "*30", "*20", "*10"],  # one pericell: dead
        ["R43", "*40"],  # two pericells joined across the seam
    ]
    boards = []
    for labels in cases:
        black = lay.mask_of(g.parse(label) for label in labels)
        boards.append((black, lay.board ^ black))
    scores = score_full_batch(boards, lay)
    assert [s.stars[0] for s in scores] == [1, 1, 0, 1]
    assert scores == [score_full(b, w, lay) for b, w in boards]


def _sheet_groups(rings: int, colour_of: list[int], colour: int) -> list[set[int]]:
    """The groups of ``colour`` without the star bridge (ring 1 joined only
    to its two neighbours on ring 1), by a plain search over the rules'
    adjacency; cells numbered in board order."""
    adjacent = reference_neighbours(rings)
    index = {}
    for k in range(1, rings + 1):
        for p in range(5 * k):
            index[(k, p)] = len(index)
    near = [set() for _ in index]
    for here, theirs in adjacent.items():
        for there in theirs:
            if here[0] == there[0] == 1 and (here[1] - there[1]) % 5 not in (1, 4):
                continue  # the star bridge
            near[index[here]].add(index[there])
    groups, seen = [], set()
    for start in range(len(index)):
        if start in seen or colour_of[start] != colour:
            continue
        group, todo = {start}, [start]
        while todo:
            for other in near[todo.pop()]:
                if other not in group and colour_of[other] == colour:
                    group.add(other)
                    todo.append(other)
        seen |= group
        groups.append(group)
    return groups


@pytest.mark.parametrize("rings", [2, 3, 4, 6])
def test_the_ring1_correction_from_black_alone(rings):
    # What the batch's ring-1 correction rests on, against a plain search
    # of the groups without the star: when ring 1 holds two runs of each
    # colour, black's two runs are in two groups that both touch the
    # perimeter exactly when white's two are; and then the white pericells
    # that are the only pericell of one of white's two groups are exactly
    # those whose two neighbours on the perimeter are one in each of
    # black's two groups.
    rng = random.Random(31 + rings)
    lay = layout(rings)
    first_peri = len(lay.bit_of) - 5 * rings
    perimeter = range(first_peri, len(lay.bit_of))
    seen = collections.Counter()
    for black, _ in random_full_boards(rings, 1500, rng):
        black = black & ~lay.ring1 | lay.mask_of(rng.choice(CROSSING_RING1))
        colour_of = [BLACK if black & bit else WHITE for bit in lay.bit_of]
        split = {}
        for colour in (BLACK, WHITE):
            on_ring1 = [g for g in _sheet_groups(rings, colour_of, colour) if g & set(range(5))]
            split[colour] = [g for g in on_ring1 if g & set(perimeter)] if len(on_ring1) == 2 else []
        both = len(split[BLACK]) == 2
        assert both == (len(split[WHITE]) == 2)
        seen[both] += 1
        if both:
            lone = {c for g in split[WHITE] for c in g if c >= first_peri and len(g & set(perimeter)) == 1}
            b1, b2 = split[BLACK]
            between = set()
            for c in perimeter:
                sides = {first_peri + (c - first_peri - 1) % (5 * rings), first_peri + (c - first_peri + 1) % (5 * rings)}
                if colour_of[c] == WHITE and sides & b1 and sides & b2:
                    between.add(c)
            assert lone == between
            seen["between"] += len(between)
    assert seen[True] > 20 and seen[False] > 20 and seen["between"] > 5


@pytest.mark.parametrize("rings", [2, 6, 10])
def test_playouts_fill_exact_shares(rings):
    rng = random.Random(rings)
    p = Position(rings)
    for move in rng.sample(p.legal_moves(), p.geometry.cell_count // 4):
        p.play(move)
    lay = layout(rings)
    empty = lay.board & ~(p.black_bits | p.white_bits)
    mine = (empty.bit_count() + 1) // 2
    for results in (random_playouts(p, rng, 37), playouts_bridges(p.black_bits, p.white_bits, p.to_move,
                                                                 lay, rng, 37)):
        assert len(results) == 37
        for winner, black, white in results:
            assert black | white == lay.board and not black & white
            assert black & p.black_bits == p.black_bits and white & p.white_bits == p.white_bits
            own = black if p.to_move == BLACK else white
            assert (own & empty).bit_count() == mine
            assert winner == score_full(black, white, lay).winner


def test_every_fill_is_equally_likely():
    # 6 empty cells, 3 for the side to move: the 20 possible fills, chi-square.
    lay = layout(2)
    empty = lay.mask_of([0, 3, 6, 9, 12, 14])
    white = lay.board & ~empty
    rng = random.Random(3)
    seen = collections.Counter()
    for _ in range(500):
        for result in playouts_bits(0, white, BLACK, lay, rng, 40):
            seen[result.black] += 1
    assert len(seen) == 20 and all(black.bit_count() == 3 for black in seen)
    expected = 20000 / 20
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi2 < 45  # 19 degrees of freedom: p < 0.001 beyond about 43.8


@pytest.mark.parametrize("rings", [3, 8, 10])
def test_batches_are_the_single_playouts_of_the_same_seed(rings):
    # Same random numbers in the same order: the batch is exactly k single
    # playouts, so it has their distribution (bridge reply included).
    rng = random.Random(rings)
    p = Position(rings)
    for move in rng.sample(p.legal_moves(), p.geometry.cell_count // 3):
        p.play(move)
    lay = layout(rings)
    args = (p.black_bits, p.white_bits, p.to_move, lay)
    for komi in (0.0, 1.5):
        single = random.Random(5)
        batched = random.Random(5)
        assert (playouts_bridges(*args, batched, 23, komi)
                == [playout_bridges(*args, single, komi) for _ in range(23)])
        assert (playouts_bits(*args, batched, 9, komi)
                == [playout_bits(*args, single, komi) for _ in range(9)])


def test_the_search_hook():
    # TreeHooks.playouts: k playouts of the search's own playout (bridge
    # reply included), the very ones k single calls give for the same seed.
    p = Position(6)
    rng = random.Random(8)
    for move in rng.sample(p.legal_moves(), 30):
        p.play(move)
    hooks = STAR.tree_hooks(p)
    assert hooks.playouts is not None
    lay = layout(6)
    for k in (1, 2, 3, 7, 13):
        got = hooks.playouts(p, random.Random(k), 0.5, k)
        single = random.Random(k)
        assert got == [tuple(hooks.playout(p, single, 0.5)) for _ in range(k)]
        for winner, black, white in got:
            assert black | white == lay.board and not black & white
            assert black & p.black_bits == p.black_bits and white & p.white_bits == p.white_bits
    assert hooks.playouts(p, rng, 0.5, 0) == []
