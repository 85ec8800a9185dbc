"""Amazons scoring: winners, margins, territories and solo counts of finished
and settled positions, checked against brute force on small boards."""

import random

import pytest

from stargtp.engine.amazons import ARROW, CannotScore, Position, score
from stargtp.engine.amazons.playout import random_move
from stargtp.engine.amazons.scoring import is_settled, solo_moves, territory
from stargtp.engine.colour import BLACK, EMPTY, WHITE, opponent
from tests.amazons_reference import walked_moves
from tests.diagrams import amazons_diagram


def brute_solo(board: list[int], size: int, colour: int, memo=None) -> int:
    """Longest sequence of moves ``colour`` can play alone (plain recursion,
    memoised on the board)."""
    memo = {} if memo is None else memo
    key = tuple(board)
    if key not in memo:
        best = 0
        for origin, target, arrow in walked_moves(board, size, colour):
            board[origin], board[target], board[arrow] = EMPTY, colour, ARROW
            best = max(best, 1 + brute_solo(board, size, colour, memo))
            board[arrow], board[target], board[origin] = EMPTY, EMPTY, colour
        memo[key] = best
    return memo[key]


def side_to_move_wins(board: list[int], size: int, colour: int, memo=None) -> bool:
    """Plain negamax, memoised on the board: the player who cannot move loses."""
    memo = {} if memo is None else memo
    key = (tuple(board), colour)
    if key not in memo:
        memo[key] = False
        for origin, target, arrow in walked_moves(board, size, colour):
            board[origin], board[target], board[arrow] = EMPTY, colour, ARROW
            wins = not side_to_move_wins(board, size, 3 - colour, memo)
            board[arrow], board[target], board[origin] = EMPTY, EMPTY, colour
            if wins:
                memo[key] = True
                break
    return memo[key]


DEFECTIVE = """
    x x x x x x
    x x x x x x
    x x x x x x
    x x x x x x
    x B x x x W
    . x . x . ."""


def test_defective_territory():
    """Black's b2 with a1 and c1 free: two squares of territory, one move."""
    p = Position.from_diagram(DEFECTIVE, to_move=BLACK)
    s = score(p)
    assert s.territory == {BLACK: 2, WHITE: 2}
    assert s.moves_left == {BLACK: (1, 1), WHITE: (2, 2)}
    assert (s.winner, s.margin, s.margin_exact, s.over, s.settled) == (WHITE, 1, True, False, True)
    assert s.gtp_result() == "W+1"
    # Black plays its one move, White one of its two, and Black is out.
    p.play(p.parse_move("b2-a1/b2"))
    p.play(p.parse_move("f2-f1/f2"))
    assert p.is_over()
    s = score(p)
    assert (s.winner, s.margin, s.over) == (WHITE, 1, True) and s.gtp_result() == "W+1"


EQUAL = """
    W . x x x x
    x x x x x x
    x x x x x x
    x x x x x x
    x x x x x x
    x x x x B ."""


def test_equal_counts_the_side_to_move_loses():
    for to_move in (WHITE, BLACK):
        s = score(Position.from_diagram(EQUAL, to_move=to_move))
        assert s.moves_left == {WHITE: (1, 1), BLACK: (1, 1)}
        assert s.winner == opponent(to_move) and s.margin == 0
        assert s.gtp_result() == ("B+0" if to_move == WHITE else "W+0")


HALVES = amazons_diagram("halves")


def test_settled_position_with_large_regions():
    s = score(Position.from_diagram(HALVES, to_move=WHITE))
    assert s.territory == {WHITE: 19, BLACK: 49} and s.moves_left == {WHITE: (19, 19), BLACK: (49, 49)}
    assert (s.winner, s.margin, s.margin_exact, s.settled) == (BLACK, 30, True, True)
    s = score(Position.from_diagram(HALVES, to_move=BLACK))
    assert (s.winner, s.margin) == (BLACK, 49 - 19 - 1) and s.gtp_result() == "B+29"


def test_unsettled_position_cannot_be_scored():
    p = Position()
    s = score(p)
    assert s.winner is None and s.margin is None and s.moves_left is None
    assert not s.over and not s.settled and s.territory == {BLACK: 0, WHITE: 0}
    why = "the game is not over (white has moves) and the amazons are not separated"
    assert s.reason == why
    with pytest.raises(CannotScore) as caught:
        s.gtp_result()
    assert str(caught.value) == why  # final_score answers "cannot score: " and this
    assert s.describe(p)[0] == f"not decided yet: {why}"


TRAPPED = """
    W B . . . .
    x x . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . ."""


def test_finished_but_unsettled():
    """White on a6 is shut in next to Black's amazon: over, though not settled."""
    p = Position.from_diagram(TRAPPED)
    s = score(p)
    assert s.over and not s.settled and not is_settled(p)
    assert (s.winner, s.margin, s.margin_exact) == (BLACK, 32, True)
    assert s.territory == {BLACK: 32, WHITE: 0} and s.gtp_result() == "B+32"


def test_territory_counts_regions_touching_one_colour():
    p = Position.from_diagram("""
        W . x . . B
        . . x . . .
        x x x x x x
        . . . . . .
        . W . . B .
        . . . . . .""")
    # Top left: 3 squares for White; top right: 5 for Black; bottom: shared.
    assert territory(p) == {WHITE: 3, BLACK: 5}
    assert not is_settled(p) and score(p).winner is None


# White: 19 squares around c8 plus the defect of DEFECTIVE (b2 with a1, c1
# free: 2 squares, 1 move), so 20 moves in 21 squares; Black: 49 squares.
WITH_DEFECT = """
    . . . . x . . . . .
    . . . . x . . . . .
    . . W . x . . . . .
    . . . . x . . . . .
    . . . . x . . . . .
    x x x x x . . . . .
    x x x x x . . . . .
    x x x x x . . B . .
    x W x x x . . . . .
    . x . x x . . . . ."""


def test_budget_gives_bounds_and_a_lower_bound_margin():
    p = Position.from_diagram(HALVES, to_move=WHITE)
    # Filling a region takes one node per move when no backtracking is needed.
    assert solo_moves(p, BLACK, node_budget=100) == (49, 49)
    low, high = solo_moves(p, BLACK, node_budget=1)
    assert 0 < low <= high == 49
    p = Position.from_diagram(WITH_DEFECT)
    exact = score(p)
    assert exact.moves_left == {WHITE: (20, 20), BLACK: (49, 49)} and exact.territory[WHITE] == 21
    assert (exact.winner, exact.margin, exact.margin_exact) == (BLACK, 29, True)
    # The budget is per region: with 5 nodes the 19 squares are filled by the
    # greedy lower bound (so known exactly) and the defective b2 solved; with
    # 1 node b2 is only bounded, by 1 .. 2.
    assert solo_moves(p, WHITE, node_budget=5) == (20, 20)
    low, high = solo_moves(p, WHITE, node_budget=1)
    assert low <= 20 < high == 21
    rough = score(p, node_budget=1)
    assert rough.winner == BLACK and not rough.margin_exact and "lower bound" in rough.reason
    assert 0 <= rough.margin <= exact.margin


def test_undecided_bounds_cannot_score():
    # WITH_DEFECT's White (20 moves in 21 squares) against 20 squares of Black.
    p = Position.from_diagram("""
        . . . . x . . B . .
        . . . . x . . . . .
        . . W . x . . . . .
        . . . . x . . . . .
        . . . . x . x x x x
        x x x x x x x x x x
        x x x x x x x x x x
        x x x x x x x x x x
        x W x x x x x x x x
        . x . x x x x x x x""")
    s = score(p)
    assert s.moves_left == {WHITE: (20, 20), BLACK: (20, 20)}
    assert (s.winner, s.margin) == (BLACK, 0)  # equal counts: White, to move, loses
    rough = score(p, node_budget=1)
    assert rough.moves_left[WHITE] == (20, 21) and rough.settled
    assert rough.winner is None and rough.margin is None
    with pytest.raises(CannotScore, match="not found within 1 nodes"):
        rough.gtp_result()


def random_small_position(rng: random.Random) -> Position:
    """A 6x6 board with few empty squares and one or two amazons a side."""
    board = [ARROW] * 36
    squares = rng.sample(range(36), rng.randrange(6, 13))
    for square in squares:
        board[square] = EMPTY
    amazons = rng.sample(squares, rng.randrange(2, 5))
    for i, square in enumerate(amazons):
        board[square] = WHITE if i % 2 == 0 else BLACK
    return Position.from_board(board, rng.choice((WHITE, BLACK)))


def test_solo_counts_and_winners_against_brute_force():
    rng = random.Random(3)
    scored = 0
    for _ in range(400):
        p = random_small_position(rng)
        board = list(p.board)
        for colour in (BLACK, WHITE):
            assert solo_moves(p, colour) == (brute_solo(board, 6, colour),) * 2
        s = score(p)
        if s.over or s.settled:
            scored += 1
            wins = side_to_move_wins(board, 6, p.to_move)
            assert s.winner == (p.to_move if wins else opponent(p.to_move))
            mover, other = brute_solo(board, 6, p.to_move), brute_solo(board, 6, opponent(p.to_move))
            if s.over:
                mover = 0
            expected = mover - other - 1 if wins else other - mover
            assert s.margin == expected and s.margin_exact
        else:
            assert s.winner is None
    assert scored > 150


@pytest.mark.parametrize("size", [6, 8, 10])
def test_finished_random_games(size):
    rng = random.Random(40 + size)
    checked = 0
    for game in range(10):
        p = Position(size)
        while (move := random_move(p, rng)) is not None:
            p.play(move)
        s = score(p)
        assert s.over and s.winner == p.winner() == opponent(p.to_move)
        assert s.margin_exact and s.margin == solo_moves(p, s.winner)[0]
        assert s.gtp_result() == f"{'W' if s.winner == WHITE else 'B'}+{s.margin}"
        if size == 6 and p.board.count(EMPTY) <= 12:  # brute force is exponential
            checked += 1
            assert s.margin == brute_solo(list(p.board), 6, s.winner)
    assert size != 6 or checked >= 5
