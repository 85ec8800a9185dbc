"""Amazons conformance beyond the contract every game meets.

The seeded random games of every game, Amazons included, are in
tests/test_conformance.py: after every ply, play/undo restores the position
exactly, legal_moves agrees with is_legal and count_moves (near misses
included), the occupied bitboard agrees with the board, and the game is over
exactly when the side to move has no move, which the opponent then wins. Here:
random games where either colour moves at any time, as the protocol allows.
"""

import random

from stargtp.engine.amazons import Move, Position
from stargtp.engine.colour import BLACK, WHITE, opponent
from tests.amazons_reference import literal_moves


def snapshot(p: Position):
    return (list(p.board), p.to_move, list(p.history), p.occupied,
            p.amazons(BLACK), p.amazons(WHITE), p.key())


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
