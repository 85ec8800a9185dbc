"""The regions of an Amazons position and the region solver, against slow,
obviously correct references: a breadth-first search over coordinates for
the regions, every move sequence (by the reference move generator) for a
region's value, and a full game-tree search for who wins a separated
position."""

from __future__ import annotations

import random
from functools import lru_cache

from stargtp.engine.amazons import Position
from stargtp.engine.amazons.regions import RegionSolver, regions, separated
from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.amazons.geometry import ARROW
from tests.amazons_reference import walked_moves

SIZE = 6


def reference_regions(board: tuple[int, ...], size: int) -> list[tuple[frozenset, frozenset, frozenset]]:
    """(empty squares, black amazons, white amazons) of each group of squares
    without arrows joined by king steps, by breadth-first search."""
    seen: set[int] = set()
    found = []
    for start in range(size * size):
        if board[start] == ARROW or start in seen:
            continue
        group, queue = {start}, [start]
        while queue:
            square = queue.pop()
            c, r = square % size, square // size
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    nc, nr = c + dc, r + dr
                    near = nr * size + nc
                    if 0 <= nc < size and 0 <= nr < size and board[near] != ARROW and near not in group:
                        group.add(near)
                        queue.append(near)
        seen |= group
        found.append(tuple(frozenset(s for s in group if board[s] == kind) for kind in (EMPTY, BLACK, WHITE)))
    return found


@lru_cache(maxsize=None)
def brute_value(board: tuple[int, ...], size: int, colour: int) -> int:
    """The longest sequence of moves ``colour`` can make alone: every sequence tried."""
    best = 0
    cells = list(board)
    for origin, target, arrow in walked_moves(cells, size, colour):
        after = list(board)
        after[origin], after[target], after[arrow] = EMPTY, colour, ARROW
        best = max(best, 1 + brute_value(tuple(after), size, colour))
    return best


@lru_cache(maxsize=None)
def brute_wins(board: tuple[int, ...], size: int, colour: int) -> bool:
    """Does the side to move (``colour``) win the real game, both sides playing?"""
    for origin, target, arrow in walked_moves(list(board), size, colour):
        after = list(board)
        after[origin], after[target], after[arrow] = EMPTY, colour, ARROW
        if not brute_wins(tuple(after), size, 3 - colour):
            return True
    return False


def random_board(rng: random.Random, empties: tuple[int, int], amazons: tuple[int, int]) -> list[int]:
    """A 6x6 board: arrows but for a random set of squares, some holding amazons."""
    board = [ARROW] * SIZE * SIZE
    squares = rng.sample(range(SIZE * SIZE), rng.randrange(*empties))
    for square in squares:
        board[square] = EMPTY
    for i, square in enumerate(rng.sample(squares, min(len(squares), rng.randrange(*amazons)))):
        board[square] = WHITE if i % 2 == 0 else BLACK
    return board


def test_regions_and_separation_match_a_breadth_first_search():
    rng = random.Random(11)
    for _ in range(500):
        board = random_board(rng, (4, 30), (2, 6))
        p = Position.from_board(board)
        geo = p.geometry
        found = sorted((frozenset(geo_bits(r.empty)), frozenset(geo_bits(r.black)), frozenset(geo_bits(r.white)))
                       for r in regions(p))
        expected = reference_regions(tuple(board), SIZE)
        assert found == sorted(expected)
        assert separated(p) == (not any(black and white for _, black, white in expected))
        for region in regions(p):
            owner = region.owner
            assert owner == (BLACK if region.black and not region.white else
                             WHITE if region.white and not region.black else None)


def geo_bits(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


def test_region_values_match_every_move_sequence_on_thousands_of_small_regions():
    """Exact with enough budget; with a tiny budget the bounds hold the true
    value; and the greedy fill never beats it."""
    rng = random.Random(5)
    defective = bounded = 0
    for _ in range(3000):
        board = random_board(rng, (2, 13), (1, 4))
        p = Position.from_board(board)
        geo = p.geometry
        empty = geo.full_mask & ~p.occupied
        for colour in (BLACK, WHITE):
            amazons = geo.mask_of(p.amazons(colour))
            walls = [ARROW if v == 3 - colour else v for v in board]  # the opponent stays put
            true = brute_value(tuple(walls), SIZE, colour)
            assert RegionSolver(geo, 100_000).bounds(amazons, empty) == (true, true)
            low, high = RegionSolver(geo, 2).bounds(amazons, empty)
            assert low <= true <= high
            bounded += low < high
            for region in regions(p):
                if region.owner == colour and region.empty:
                    value = RegionSolver(geo).region_bounds(region.amazons(colour), region.empty)[0]
                    defective += value < region.empty.bit_count()
                    assert RegionSolver(geo).greedy(region.amazons(colour), region.empty) <= value
    assert (defective, bounded) == (95, 729)  # the cases that matter did occur


def test_outcome_of_separated_positions_matches_the_game_tree():
    rng = random.Random(8)
    decided = 0
    for _ in range(1500):
        board = random_board(rng, (4, 11), (2, 5))
        to_move = rng.choice((BLACK, WHITE))
        p = Position.from_board(board, to_move)
        outcome = RegionSolver(p.geometry).outcome(p)
        if not separated(p):
            assert outcome is None
            continue
        decided += 1
        assert outcome == (1 if brute_wins(tuple(board), SIZE, to_move) else -1)
    assert decided > 300


def test_outcome_with_tiny_budget_is_right_or_undecided():
    rng = random.Random(9)
    undecided = 0
    for _ in range(1500):
        board = random_board(rng, (6, 12), (2, 5))
        p = Position.from_board(board, rng.choice((BLACK, WHITE)))
        if not separated(p):
            continue
        rough = RegionSolver(p.geometry, 1).outcome(p)
        if rough is None:
            undecided += 1
        else:
            assert rough == RegionSolver(p.geometry, 100_000).outcome(p)
    assert undecided > 10


def test_territory_correction_is_values_minus_squares_of_one_colour_regions():
    rng = random.Random(12)
    for _ in range(500):
        board = random_board(rng, (4, 11), (2, 6))
        p = Position.from_board(board, rng.choice((BLACK, WHITE)))
        expected = 0
        for empty, black, white in reference_regions(tuple(board), SIZE):
            if bool(black) == bool(white) or not empty:
                continue
            owner = BLACK if black else WHITE
            inside = [v if s in empty or s in black or s in white else ARROW for s, v in enumerate(board)]
            loss = brute_value(tuple(inside), SIZE, owner) - len(empty)
            expected += loss if owner == p.to_move else -loss
        assert RegionSolver(p.geometry).territory_correction(p) == expected


def test_a_defective_region_by_hand():
    # White on b2 with a1 and c1 free: 2 squares, 1 move (after b2-a1/b2 or
    # b2-c1/b2 the other square is cut off by the arrow on b1). Black on a6
    # with b6 free: 1 square, 1 move.
    p = Position.from_diagram("""
        B . x x x x
        x x x x x x
        x x x x x x
        x x x x x x
        x W x x x x
        . x . x x x""")
    (white,) = [r for r in regions(p) if r.owner == WHITE]
    assert white.empty.bit_count() == 2
    solver = RegionSolver(p.geometry)
    assert solver.region_bounds(white.white, white.empty) == (1, 1)
    assert solver.colour_bounds(p, BLACK) == (1, 1)
    # White to move: 1 move against Black's 1, White runs out first.
    assert solver.outcome(p) == -1 and solver.territory_correction(p) == -1


def test_the_corrected_evaluation_adds_the_correction_to_the_territory_term():
    from math import isclose, tanh

    from stargtp.engine.amazons.evaluation import SCALE, evaluate, evaluate_corrected, evaluation_terms
    rng = random.Random(13)
    for _ in range(200):
        board = random_board(rng, (8, 30), (2, 8))
        p = Position.from_board(board, rng.choice((BLACK, WHITE)))
        correction = rng.randrange(-6, 7)
        terms = evaluation_terms(p)
        assert evaluate_corrected(p, 0) == evaluate(p)
        expected = -1.0 if p.is_over() else tanh((terms.raw + (1 - terms.phase) * correction) / SCALE)
        assert isclose(evaluate_corrected(p, correction), expected, abs_tol=1e-12)
