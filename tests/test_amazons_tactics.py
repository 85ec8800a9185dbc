"""Tactics at the split (engine.amazons.tactics, the search's ``split_order``):
exact scores of sealing arrows and arrows that shut an amazon in, on hand-built boards, the fast
scorer against a slow whole-board reference on random positions, and the
move ordering and parameter that use it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from stargtp.engine.amazons import Position, random_move
from stargtp.engine.amazons.position import Move
from stargtp.engine.amazons.search import PICK_ARROW, PICK_MOVE, AmazonsMcts, MoveOrdering, Node
from stargtp.engine.amazons.tactics import arrow_tactics
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.search.base import Limits

# Row 4 is all arrows but c4, the one link between a top region (Black's
# amazon on d6) and a bottom region (White's amazon on b1).
SEAL = """
6  . . . B . .
5  . . . . . .
4  x x . x x x
3  . . . . . .
2  . . . . . .
1  . W . . . .
"""

# Black's amazon on a6 has one free neighbour, a5, and reaches 4 squares
# down the a-file; White's amazon on a1 is the only other amazon.
TRAP = """
6  B x . . . .
5  . x . . . .
4  . . . . . .
3  . . . . . .
2  . . . . . .
1  W . . . . .
"""


def scores(position: Position, origin: str, target: str) -> dict[str, float]:
    """Every arrow of the step ``origin -> target`` with its tactics score."""
    o, t = position.geometry.parse_square(origin), position.geometry.parse_square(target)
    score = arrow_tactics(position, o, t)
    return {position.format_square(m.arrow): score(m.arrow)
            for m in position.legal_moves() if (m.from_square, m.to_square) == (o, t)}


def test_sealing_the_only_link_scores_the_regions_it_makes():
    position = Position.from_diagram(SEAL, to_move=WHITE)
    found = scores(position, "b1", "c2")
    # After b1-c2 and an arrow on c4: the bottom 18 squares less c2 are
    # White's (17), the top 12 less d6 are Black's (11): 17 - 11 = +6. Before
    # the arrow the one region held both colours and counted 0.
    assert found["c4"] == 6
    # c3 and every other arrow leave the link open (or are in no cut).
    assert {square for square, value in found.items() if value} == {"c4"}
    # Black sealing the same link (d6-d5, c4 a diagonal step away) keeps the
    # smaller top: 12 squares less d5 = 11 against White's 17.
    black = Position.from_diagram(SEAL, to_move=BLACK)
    assert scores(black, "d6", "d5")["c4"] == 11 - 17


def test_shutting_an_amazon_in_scores_the_region_it_leaves():
    position = Position.from_diagram(TRAP, to_move=WHITE)
    found = scores(position, "a1", "a2")
    # The arrow on a5 shuts a6 in, and the one region, with no mobile Black
    # amazon left, becomes White's: 36 squares less 2 arrows, 2 amazons and
    # a5 itself. Before, one amazon of each colour shared it: 0.
    assert found["a5"] == 31
    # Any other arrow leaves a6 a way out and the structure as it was, even
    # a4, which leaves it one square.
    assert {square for square, value in found.items() if value} == {"a5"}


def test_shutting_in_one_of_two_amazons_scores_its_share_of_the_region():
    # TRAP with a second Black amazon on f6: the region's 30 empty squares
    # (a5 left out) were shared one White amazon against two Black ones
    # (30 * (1 - 2) / 3 = -10 for White), and after the arrow on a5, with a6
    # shut in, one against one (0): +10.
    position = Position.from_diagram(TRAP.replace("B x . . . .", "B x . . . B"), to_move=WHITE)
    assert scores(position, "a1", "a2")["a5"] == 10


def _reference_potential(board: list[int], size: int, me: int, arrow: int | None) -> Fraction:
    """The potential F of engine.amazons.tactics, square by square: regions by
    a breadth-first search over the empty squares and the amazons with an empty
    neighbour. ``arrow``: a square whose
    own emptiness is not counted (the square the arrow will fill)."""

    def neighbours(square: int) -> list[int]:
        column, row = square % size, square // size
        return [(row + dr) * size + column + dc for dc in (-1, 0, 1) for dr in (-1, 0, 1)
                if (dc or dr) and 0 <= column + dc < size and 0 <= row + dr < size]

    squares = range(size * size)
    mobile = {s for s in squares if board[s] in (BLACK, WHITE)
              and any(board[n] == 0 for n in neighbours(s))}
    inside = {s for s in squares if board[s] == 0} | mobile
    seen: set[int] = set()
    total = Fraction(0)
    for start in sorted(inside):
        if start in seen:
            continue
        region, frontier = {start}, [start]
        while frontier:
            for n in neighbours(frontier.pop()):
                if n in inside and n not in region:
                    region.add(n)
                    frontier.append(n)
        seen |= region
        ours = sum(1 for s in region if s in mobile and board[s] == me)
        theirs = sum(1 for s in region if s in mobile and board[s] == 3 - me)
        empty = sum(1 for s in region if board[s] == 0 and s != arrow)
        if ours + theirs:
            total += Fraction(empty * (ours - theirs), ours + theirs)
    return total


def reference_score(position: Position, move: Move) -> Fraction:
    """F after the move minus F after its step, the arrow's square not counted."""
    me, size = position.to_move, position.size
    board = list(position.board)
    board[move.to_square], board[move.from_square] = board[move.from_square], 0
    before = _reference_potential(board, size, me, move.arrow)
    board[move.arrow] = 3
    return _reference_potential(board, size, me, None) - before


def test_fast_scores_equal_the_whole_board_reference_on_random_positions():
    rng = random.Random(27)
    checked = changed = 0
    for _ in range(24):
        size = rng.choice((6, 8))
        position = Position(size)
        for _ in range(rng.randrange(8, 36 if size == 8 else 18)):
            move = random_move(position, rng)
            if move is None:
                break
            position.play(move)
        scorers: dict[tuple[int, int], object] = {}
        for move in position.legal_moves():
            score = scorers.get((move.from_square, move.to_square))
            if score is None:
                score = scorers[(move.from_square, move.to_square)] = arrow_tactics(
                    position, move.from_square, move.to_square)
            value = score(move.arrow)
            assert value == pytest.approx(reference_score(position, move), abs=1e-9), (
                position.render_text(), move)
            checked += 1
            changed += value != 0
    assert (checked, changed) == (3002, 214)


def test_split_order_ranks_the_sealing_arrow_first():
    position = Position.from_diagram(SEAL, to_move=WHITE)
    b1, c2, c4 = (position.geometry.parse_square(n) for n in ("b1", "c2", "c4"))
    node = Node(PICK_ARROW, WHITE, b1, c2)
    plain = MoveOrdering("cheap", random.Random(0), lambda: False).choices(node, position)
    tactical = MoveOrdering("cheap", random.Random(0), lambda: False, 1.0).choices(node, position)
    assert sorted(plain) == sorted(tactical)
    assert plain[0] != c4 and tactical[0] == c4
    # Whole moves (split=1) use the same arrow score: every step that can
    # shoot at c4 seals with it, and those moves come first.
    for weight, first in ((0.0, ["b1-c1/c5", "b1-c1/c6", "b1-c2/c5"]),
                          (1.0, ["b1-c1/c4", "b1-c2/c4", "b1-f1/c4"])):
        moves = MoveOrdering("cheap", random.Random(0), lambda: False, weight).choices(
            Node(PICK_MOVE, WHITE), position)
        assert [position.format_move(m) for m in moves[:3]] == first


def test_split_order_parameter():
    player = AmazonsMcts(seed=3, split_order="0.5", playouts="300")
    assert player.config().split_order == 0.5
    position = Position.from_diagram(SEAL, to_move=WHITE)
    result = player.genmove(position, Limits())
    assert position.is_legal(result.move) and result.playouts == 300
    for bad in ("-1", "inf", "nan"):
        with pytest.raises(ValueError, match="split_order must be a finite number >= 0"):
            AmazonsMcts(seed=1, split_order=bad)
    assert AmazonsMcts(seed=1).config().split_order == 0.0  # off by default
