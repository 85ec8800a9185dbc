"""Amazons move generation and perft: the engine against the data file and
against the slow references of tests/amazons_reference.py."""

import random
from pathlib import Path

import pytest

from stargtp.engine.amazons import Position
from stargtp.engine.amazons.playout import random_move
from stargtp.engine.colour import BLACK, WHITE
from tests.amazons_reference import literal_moves, reference_perft, start_board, walked_moves
from tests.diagrams import amazons_diagram

DATA = Path(__file__).parent / "data" / "amazons_perft.txt"


def load_vectors() -> list[tuple[int, tuple[str, ...], int, int]]:
    """``(size, moves, depth, count)`` for every perft line of the data file."""
    vectors = []
    position = None
    for number, line in enumerate(DATA.read_text().splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "position":
            position = (int(words[1]), tuple(words[2:]))
        elif words[0] == "perft" and position is not None and len(words) == 3:
            vectors.append((*position, int(words[1]), int(words[2])))
        else:
            raise ValueError(f"{DATA.name}:{number}: cannot read {line!r}")
    return vectors


VECTORS = load_vectors()
# The reference enumerates every leaf: keep it to the records it does quickly.
REFERENCE_VECTORS = [v for v in VECTORS if v[2] <= 2 or v[3] <= 2_000_000]


def set_up(size: int, moves) -> Position:
    position = Position(size)
    for text in moves:
        position.play(position.parse_move(text))
    return position


def vector_id(vector) -> str:
    size, moves, depth, _ = vector
    return f"{size}x{size}-after-{len(moves)}-depth-{depth}"


def test_data_file_covers_the_required_counts():
    starts = {(size, depth): count for size, moves, depth, count in VECTORS if not moves}
    assert starts[(10, 1)] == 2176 and starts[(8, 1)] == 1232 and starts[(6, 1)] == 544
    assert {(10, 2), (8, 2), (6, 3)} <= set(starts)


@pytest.mark.parametrize("vector", VECTORS, ids=vector_id)
def test_engine_perft_matches_data(vector):
    size, moves, depth, count = vector
    assert set_up(size, moves).perft(depth) == count


@pytest.mark.parametrize("vector", REFERENCE_VECTORS, ids=vector_id)
def test_reference_perft_matches_data(vector):
    size, moves, depth, count = vector
    position = set_up(size, moves)
    assert reference_perft(list(position.board), size, position.to_move, depth) == count


@pytest.mark.parametrize("size", [6, 8, 10])
def test_start_moves_equal_the_literal_rule(size):
    position = Position(size)
    assert position.board == start_board(size)
    literal = literal_moves(start_board(size), size, WHITE)
    assert len(literal) == {10: 2176, 8: 1232, 6: 544}[size]
    assert set(position.legal_moves()) == literal
    assert len(position.legal_moves()) == len(literal) == position.count_moves()


def test_reference_sees_the_vacated_square_rule():
    """The literal reference is sensitive to the rule the common bugs break."""
    board = start_board(10)
    counts = {rule: len(literal_moves(board, 10, WHITE, rule))
              for rule in ("empty", "blocked", "land-only", "pass-only")}
    assert counts == {"empty": 2176, "blocked": 2048, "land-only": 2128, "pass-only": 2096}


def test_depth_two_subtrees_of_6x6_depth_three():
    """The full 6x6 depth-3 count is in the data file (checked against the
    reference offline); here a seeded sample of its depth-2 subtrees is
    checked against the reference directly."""
    rng = random.Random(11)
    start = Position(6)
    for move in rng.sample(start.legal_moves(), 12):
        start.play(move)
        assert start.perft(2) == reference_perft(list(start.board), 6, BLACK, 2)
        start.undo()


@pytest.mark.parametrize("size", [6, 8, 10])
def test_depth_two_after_random_openings(size):
    rng = random.Random(size)
    for game in range(4 if size == 10 else 8):
        position = Position(size)
        for _ in range(rng.randrange(1, 3 * size)):
            move = random_move(position, rng)
            if move is None:
                break
            position.play(move)
        board = list(position.board)
        assert position.perft(2) == reference_perft(board, size, position.to_move, 2)


def test_generated_moves_equal_the_literal_rule_on_random_positions():
    """legal_moves and count_moves, for both colours, on positions from every
    stage of seeded random games."""
    rng = random.Random(5)
    checked = 0
    for size in (6, 8, 10):
        for game in range(6):
            position = Position(size)
            while True:
                if rng.random() < 0.3:
                    board = list(position.board)
                    for colour in (BLACK, WHITE):
                        literal = literal_moves(board, size, colour)
                        assert position.count_moves(colour) == len(literal)
                        assert set(walked_moves(board, size, colour)) == literal
                    moves = position.legal_moves()
                    assert set(moves) == literal_moves(board, size, position.to_move)
                    assert len(moves) == len(set(moves))
                    checked += 1
                move = random_move(position, rng)
                if move is None:
                    break
                position.play(move)
    assert checked > 100


def test_perft_depth_zero_and_game_over():
    position = Position.from_diagram(amazons_diagram("finished"))
    assert position.is_over() and position.legal_moves() == []
    assert position.perft(0) == 1 and position.perft(1) == 0 and position.perft(2) == 0
    with pytest.raises(ValueError):
        position.perft(-1)
