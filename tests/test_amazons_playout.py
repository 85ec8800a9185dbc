"""The Amazons playout and evaluation: legal moves, determinism, agreement of
the inlined playout with move-by-move play, and the bitboard evaluation terms
against a square-by-square reference."""

import math
import random

import pytest

from stargtp.engine.amazons import Position, evaluate, random_move, random_playout
from stargtp.engine.amazons.evaluation import TIE_BONUS, _terms, evaluation_terms
from stargtp.engine.amazons.playout import cutoff_playout
from stargtp.engine.amazons.geometry import ARROW
from stargtp.engine.colour import BLACK, EMPTY, WHITE
from tests.amazons_reference import DIRECTIONS, layered_terms
from tests.diagrams import amazons_diagram

INF = math.inf


def snapshot(p: Position):
    return (list(p.board), p.to_move, list(p.history), p.occupied, p.amazons(BLACK), p.amazons(WHITE))


def random_position(rng: random.Random, size: int, plies: int) -> Position:
    p = Position(size)
    for _ in range(plies):
        move = random_move(p, rng)
        if move is None:
            break
        p.play(move)
    return p


def test_random_moves_are_legal_until_the_end():
    rng = random.Random(1)
    for size in (6, 8, 10):
        for game in range(10):
            p = Position(size)
            while True:
                before = snapshot(p)
                move = random_move(p, rng)
                assert snapshot(p) == before
                if move is None:
                    assert p.is_over()
                    break
                assert p.is_legal(move)
                p.play(move)


def test_random_move_reaches_rare_moves():
    """Every start move has a chance: on 6x6 a few thousand draws find most."""
    rng = random.Random(2)
    p = Position(6)
    seen = {random_move(p, rng) for _ in range(6000)}
    assert seen <= set(p.legal_moves()) and len(seen) > 0.8 * len(p.legal_moves())


@pytest.mark.parametrize("size", [6, 8, 10])
def test_playout_is_the_game_random_move_plays(size):
    """The inlined hot loop draws the same numbers as random_move."""
    for seed in range(40):
        p = random_position(random.Random(seed), size, seed % 7)
        before = snapshot(p)
        winner = random_playout(p, random.Random(seed))
        assert snapshot(p) == before and winner in (BLACK, WHITE)
        rng = random.Random(seed)
        while (move := random_move(p, rng)) is not None:
            p.play(move)
        assert p.winner() == winner


def test_playout_is_deterministic_and_balanced():
    p = Position()
    first = [random_playout(p, random.Random(s)) for s in range(200)]
    assert first == [random_playout(p, random.Random(s)) for s in range(200)]
    assert 60 < first.count(WHITE) < 140


def test_playout_of_a_finished_game():
    p = Position.from_diagram(amazons_diagram("finished"))
    assert random_playout(p, random.Random(0)) == BLACK
    assert random_move(p, random.Random(0)) is None
    assert evaluate(p) == -1.0
    assert cutoff_playout(p, random.Random(0), 5) == -1.0


def distances(p: Position, colour: int, queen: bool) -> list[float]:
    """Square-by-square breadth-first distances of ``colour``'s amazons over
    empty squares, by queen or king moves (inf where unreachable)."""
    size = p.size
    dist = [INF] * (size * size)
    frontier = [s for s in range(size * size) if p.board[s] == colour]
    d = 0
    while frontier:
        d += 1
        reached = []
        for square in frontier:
            c0, r0 = square % size, square // size
            for dc, dr in DIRECTIONS:
                c, r = c0 + dc, r0 + dr
                while 0 <= c < size and 0 <= r < size and p.board[r * size + c] == EMPTY:
                    s = r * size + c
                    if dist[s] == INF:
                        dist[s] = d
                        reached.append(s)
                    if not queen:
                        break
                    c, r = c + dc, r + dr
        frontier = reached
    return dist


def reference_terms(p: Position) -> dict[str, float]:
    me, them = p.to_move, 3 - p.to_move
    q1, q2 = distances(p, me, True), distances(p, them, True)
    k1, k2 = distances(p, me, False), distances(p, them, False)

    def closeness(a, b):
        if a == b == INF:
            return 0.0
        return 1.0 if a < b else -1.0 if a > b else TIE_BONUS

    def clamp(x):
        return max(-1.0, min(1.0, x))

    empties = [s for s in range(p.size ** 2) if p.board[s] == EMPTY]
    mobility = 0.0
    for colour, sign in ((them, 1), (me, -1)):
        for s in p.amazons(colour):
            reach = sum(1 for dc, dr in DIRECTIONS for _ in walk(p, s, dc, dr))
            mobility += sign / (1 + reach)
    return {
        "t1": sum(closeness(q1[s], q2[s]) for s in empties),
        "t2": sum(closeness(k1[s], k2[s]) for s in empties),
        "c1": 2 * sum(2.0 ** -q1[s] - 2.0 ** -q2[s] for s in empties),
        "c2": sum(clamp((k2[s] - k1[s]) / 6) for s in empties if k1[s] < INF or k2[s] < INF),
        "w": sum(2.0 ** -abs(q1[s] - q2[s]) for s in empties if q1[s] < INF and q2[s] < INF),
        "mobility": mobility,
    }


def walk(p: Position, square: int, dc: int, dr: int):
    size = p.size
    c, r = square % size + dc, square // size + dr
    while 0 <= c < size and 0 <= r < size and p.board[r * size + c] == EMPTY:
        yield r * size + c
        c, r = c + dc, r + dr


def test_evaluation_terms_against_reference():
    rng = random.Random(9)
    for size in (6, 8, 10):
        for game in range(12):
            p = random_position(rng, size, rng.randrange(0, 4 * size))
            terms = evaluation_terms(p)
            for name, value in reference_terms(p).items():
                assert getattr(terms, name) == pytest.approx(value, abs=1e-9), (name, p.render_text())
            assert -1.0 <= terms.value <= 1.0 and 0.0 <= terms.phase < 1.0
            assert evaluate(p) == (-1.0 if p.is_over() else terms.value)


def test_fast_evaluation_is_exactly_the_terms_value():
    """:func:`evaluate` (the search's hot path, which builds no record) gives
    bit for bit the value of :func:`evaluation_terms` (checked against the
    plain reference above), from the opening to positions where one side or
    both are shut in or the game is over."""
    rng = random.Random(21)
    checked = over = 0
    for size in (6, 8, 10):
        for game in range(30):
            p = Position(size)
            while True:
                assert evaluate(p) == (-1.0 if p.is_over() else evaluation_terms(p).value), p.render_text()
                checked += 1
                move = random_move(p, rng)
                if move is None:
                    over += 1
                    break
                p.play(move)
    assert over == 90 and checked > 4000


@pytest.mark.parametrize("size", [6, 8, 10])
def test_packed_terms_equal_the_one_side_at_a_time_terms(size):
    """The evaluation computes both sides' distance layers packed in one
    integer; every term equals the one-side-at-a-time form it replaced
    (tests/amazons_reference.py) on every position of 40 random games per
    size (thousands of positions, from the start to the end): t1, t2, c1 and
    w to the last bit (integers and sums of powers of 2), c2 and the
    mobility to 1e-12 (the same terms summed in another order)."""
    rng = random.Random(size)
    checked = 0
    for game in range(40):
        p = Position(size)
        while True:
            fast, slow = _terms(p), layered_terms(p)
            assert fast[:3] == slow[:3] and fast[4] == slow[4], p.render_text()
            assert fast[3] == pytest.approx(slow[3], abs=1e-12) and fast[5] == pytest.approx(slow[5], abs=1e-12)
            assert _terms(p, live=True) == (None if p.is_over() else fast)
            checked += 1
            move = random_move(p, rng)
            if move is None:
                break
            p.play(move)
    assert checked == {6: 1040, 8: 1869, 10: 2802}[size]


@pytest.mark.parametrize("size", [6, 8, 10])
def test_packed_terms_on_set_up_boards(size):
    """The same on 500 random set-up boards per size, with any number of
    amazons on each side (none included: the packing has one field per
    amazon) and arrows anywhere; the square-by-square reference agrees too."""
    rng = random.Random(100 + size)
    sides_without_amazons = over = 0
    for _ in range(500):
        board = [EMPTY] * (size * size)
        squares = rng.sample(range(size * size), rng.randrange(0, size * size))
        for square in squares:
            board[square] = rng.choice((ARROW, ARROW, ARROW, BLACK, WHITE))
        p = Position.from_board(board, rng.choice((BLACK, WHITE)))
        sides_without_amazons += (not p.amazons(BLACK)) + (not p.amazons(WHITE))
        fast, slow = _terms(p), layered_terms(p)
        assert fast[:3] == slow[:3] and fast[4] == slow[4], p.render_text()
        assert fast[3] == pytest.approx(slow[3], abs=1e-12) and fast[5] == pytest.approx(slow[5], abs=1e-12)
        # live: no terms exactly when the side to move has no move (no amazon included).
        over += p.is_over()
        assert _terms(p, live=True) == (None if p.is_over() else fast), p.render_text()
        for name, value in reference_terms(p).items():
            assert getattr(evaluation_terms(p), name) == pytest.approx(value, abs=1e-9), (name, p.render_text())
    assert sides_without_amazons == {6: 150, 8: 79, 10: 58}[size]
    assert over == {6: 73, 8: 41, 10: 31}[size]


def mirrored(p: Position, flip_ranks: bool, swap_colours: bool) -> Position:
    size = p.size
    board = [EMPTY] * (size * size)
    swap = {BLACK: WHITE, WHITE: BLACK} if swap_colours else {}
    for s, v in enumerate(p.board):
        c, r = s % size, s // size
        c2, r2 = (c, size - 1 - r) if flip_ranks else (size - 1 - c, r)
        board[r2 * size + c2] = swap.get(v, v)
    return Position.from_board(board, swap.get(p.to_move, p.to_move))


def test_evaluation_is_symmetric():
    """Mirroring the board left-right, or top-bottom with the colours swapped,
    changes nothing for the side to move (this exercises every shift)."""
    rng = random.Random(4)
    for size in (6, 10):
        for game in range(8):
            p = random_position(rng, size, rng.randrange(1, 3 * size))
            terms = evaluation_terms(p)
            for flip_ranks in (False, True):
                other = evaluation_terms(mirrored(p, flip_ranks, swap_colours=flip_ranks))
                assert other.value == pytest.approx(terms.value, abs=1e-12)
                assert other.t1 == pytest.approx(terms.t1) and other.c2 == pytest.approx(terms.c2)


def test_evaluation_once_separated():
    """With no contact left, only t1 (territory) and the tempo remain."""
    p = Position.from_diagram(amazons_diagram("halves"))
    terms = evaluation_terms(p)
    assert terms.w == 0 and terms.phase == 0 and terms.t1 == 19 - 49
    assert terms.value == pytest.approx(math.tanh((19 - 49 - 0.5) / 8.0))
    assert evaluate(p) < -0.9


def test_cutoff_playout_is_deterministic_and_bounded():
    p = random_position(random.Random(6), 10, 10)
    values = [cutoff_playout(p, random.Random(s), 6) for s in range(20)]
    assert values == [cutoff_playout(p, random.Random(s), 6) for s in range(20)]
    assert all(-1.0 <= v <= 1.0 for v in values) and len(set(values)) > 1
    assert cutoff_playout(p, random.Random(0), 0) == evaluate(p)
