"""Random-play conformance for Amazons, as OpenSpiel checks every game: after
every move of many seeded games, play/undo restores the position exactly,
legal_moves agrees with is_legal and count_moves, and the game is over exactly
when there is no legal move."""

import random

import pytest

from engine.amazons import Move, Position
from engine.colour import BLACK, WHITE, opponent
from tests.amazons_reference import literal_moves


def snapshot(p: Position):
    return (list(p.board), p.to_move, list(p.history), p.occupied,
            p.amazons(BLACK), p.amazons(WHITE), p.key())


def check_invariants(p: Position, rng: random.Random) -> list[Move]:
    moves = p.legal_moves()
    legal = set(moves)
    assert len(legal) == len(moves) == p.count_moves()
    assert p.is_over() == (not moves)
    assert p.winner() == (opponent(p.to_move) if not moves else None)
    # The bitboard agrees with the board list.
    assert p.occupied == sum(1 << s for s, v in enumerate(p.board) if v)
    for move in rng.sample(moves, min(len(moves), 40)):
        assert p.is_legal(move)
    # Near misses: random triples, and legal moves with one square changed.
    n = p.geometry.square_count
    candidates = [Move(rng.randrange(n), rng.randrange(n), rng.randrange(n)) for _ in range(40)]
    for move in rng.sample(moves, min(len(moves), 20)):
        squares = list(move)
        squares[rng.randrange(3)] = rng.randrange(n)
        candidates.append(Move(*squares))
    for move in candidates:
        assert p.is_legal(move) == (move in legal)
    return moves


@pytest.mark.parametrize("size, games", [(6, 60), (8, 30), (10, 12)])
def test_random_games(size, games):
    rng = random.Random(1000 + size)
    for game in range(games):
        p = Position(size)
        states = [snapshot(p)]
        while True:
            moves = check_invariants(p, rng)
            if not moves:
                break
            move = rng.choice(moves)
            before = snapshot(p)
            p.play(move)
            after = snapshot(p)
            p.undo()
            assert snapshot(p) == before
            p.play(move)
            assert snapshot(p) == after
            states.append(after)
        assert p.is_over() and p.winner() == opponent(p.to_move)
        assert len(p.history) <= p.geometry.square_count - 8
        # Undo all the way back, through every earlier state.
        while p.history:
            p.undo()
            states.pop()
            assert snapshot(p) == states[-1]
        assert snapshot(p) == snapshot(Position(size))


def test_random_games_with_out_of_turn_moves():
    """The protocol may play either colour at any time; undo still restores."""
    rng = random.Random(77)
    for game in range(10):
        p = Position(6)
        states = [snapshot(p)]
        for _ in range(40):
            colour = rng.choice((BLACK, WHITE))
            if p.is_over():
                break
            board = list(p.board)
            moves = sorted(literal_moves(board, 6, colour))
            if not moves:
                break
            p.play(Move(*rng.choice(moves)), colour)
            assert p.to_move == opponent(colour)
            states.append(snapshot(p))
        while p.history:
            p.undo()
            states.pop()
            assert snapshot(p) == states[-1]
