"""Fast Amazons playouts, played to the end or cut short by the evaluation.

This is the clever module of the Amazons core; the tests check it against the
plain rules of :mod:`stargtp.engine.amazons.position` and a slow reference.

**The playout policy.** Listing every move (2176 at the start) to pick one is
far too slow, so a random move is built in steps: an (amazon, direction) pair
whose first square is empty, uniformly among all such pairs; a distance along
that ray, uniformly among the free squares; then the arrow the same way from
the landing square (the vacated square counting as empty). Pairs are drawn by
rejection (``REJECTION_TRIES`` cheap draws), then by listing the open pairs, which also
detects the end: no open pair means no legal move. Every move so built is
legal and every legal move has a positive chance, but the chances are not
uniform over moves.

**The board.** The playout works on a flat list copy of the board with one
extra non-empty square at index ``square_count``; every ray of
:attr:`Geometry.sentinel_rays` ends there, so a walk stops at the first
non-empty square without a bounds test.

The evaluation that cuts playouts short is :mod:`stargtp.engine.amazons.evaluation`.
"""

from __future__ import annotations

import random

from stargtp.engine.amazons.evaluation import evaluate
from stargtp.engine.amazons.geometry import ARROW
from stargtp.engine.amazons.position import Move, Position
from stargtp.engine.colour import BLACK, EMPTY, WHITE

REJECTION_TRIES = 16
"""Random (amazon, direction) draws before listing the open pairs."""



def _draw(board: list[int], rays, squares: list[int], random) -> tuple[int, tuple[int, ...]] | None:
    """An (index into ``squares``, ray) whose first square is empty, uniform
    over all such pairs; None if there is none."""
    slots = len(squares) * 8
    for _ in range(REJECTION_TRIES):
        pick = int(random() * slots)
        ray = rays[(squares[pick >> 3] << 3) | (pick & 7)]
        if not board[ray[0]]:
            return pick >> 3, ray
    return _pick_open(board, rays, squares, random)


def _pick_open(board: list[int], rays, squares: list[int], random) -> tuple[int, tuple[int, ...]] | None:
    """:func:`_draw` after its rejection tries failed: list the open pairs."""
    open_pairs = [(index, ray) for index, square in enumerate(squares)
                  for ray in rays[square << 3:(square << 3) + 8] if not board[ray[0]]]
    if not open_pairs:
        return None
    return open_pairs[int(random() * len(open_pairs))]


def _walk_pick(board: list[int], ray: tuple[int, ...], random) -> int:
    """A uniformly random free square along ``ray`` (its first is free)."""
    run = 0
    for square in ray:
        if board[square]:
            break
        run += 1
    return ray[int(random() * run)]


def _playout_board(position: Position) -> list[int]:
    board = position.board.copy()
    board.append(ARROW)  # the sentinel every sentinel ray ends on
    return board


def random_move(position: Position, rng: random.Random) -> Move | None:
    """A random legal move for the side to move by the playout policy; None
    when there is none. The position is not changed."""
    board = _playout_board(position)
    rays = position.geometry.sentinel_rays
    squares = list(position.amazons(position.to_move))
    drawn = _draw(board, rays, squares, rng.random)
    if drawn is None:
        return None
    index, ray = drawn
    origin = squares[index]
    target = _walk_pick(board, ray, rng.random)
    board[origin] = EMPTY
    board[target] = position.to_move
    arrow_ray = _draw(board, rays, [target], rng.random)[1]
    return Move(origin, target, _walk_pick(board, arrow_ray, rng.random))


def random_playout(position: Position, rng: random.Random) -> int:
    """Play random moves (the playout policy above) from ``position`` until
    the side to move has none, and return the winner, BLACK or WHITE. The
    position is not changed."""
    board = _playout_board(position)
    rays = position.geometry.sentinel_rays
    amazons = (None, list(position.amazons(BLACK)), list(position.amazons(WHITE)))
    colour = position.to_move
    random = rng.random
    tries = REJECTION_TRIES
    while True:
        squares = amazons[colour]
        # _draw and _walk_pick inlined (this loop is the hot path), drawing the
        # same random numbers, so the game is the one random_move would play.
        slots = len(squares) << 3
        for _ in range(tries):
            pick = int(random() * slots)
            index = pick >> 3
            ray = rays[(squares[index] << 3) | (pick & 7)]
            if not board[ray[0]]:
                break
        else:
            drawn = _pick_open(board, rays, squares, random)
            if drawn is None:
                return 3 - colour
            index, ray = drawn
        run = 0
        for square in ray:
            if board[square]:
                break
            run += 1
        origin = squares[index]
        target = ray[int(random() * run)]
        board[origin] = EMPTY
        board[target] = colour
        squares[index] = target
        base = target << 3
        for _ in range(tries):
            ray = rays[base | int(random() * 8)]
            if not board[ray[0]]:
                break
        else:
            ray = _pick_open(board, rays, [target], random)[1]
        run = 0
        for square in ray:
            if board[square]:
                break
            run += 1
        board[ray[int(random() * run)]] = ARROW
        colour = 3 - colour


def cutoff_playout(position: Position, rng: random.Random, plies: int) -> float:
    """Play up to ``plies`` random moves (the playout policy) on a copy of
    ``position``, then evaluate: a value in [-1, 1] for ``position``'s side
    to move (+1 / -1 if the game ended on the way)."""
    if plies == 0:
        return evaluate(position)
    me = position.to_move
    board = position.copy()
    for _ in range(plies):
        move = random_move(board, rng)
        if move is None:
            return 1.0 if board.to_move != me else -1.0
        board.play_unchecked(move)
    value = evaluate(board)
    return value if board.to_move == me else -value
