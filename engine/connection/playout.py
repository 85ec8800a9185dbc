"""The random playout of a connection game (Hex, Y) and the tree search's
hooks (:class:`stargtp.engine.game.TreeHooks`) built on it.

The playout fills every empty cell at random, the side to move first and
then alternately (the order of a random game played to a full board), and
then one flood decides: on a full Hex board exactly one side joins its
edges, and on a full Y board exactly one side has a group touching all three
edges. The AMAF owner masks are the cells each colour holds on the full
board, one bit per cell (:attr:`Board.bit_of`).

This module is the search's: the rules (position, geometry) do not use it.
"""

from __future__ import annotations

import random
from functools import lru_cache

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.connection.geometry import Board
from stargtp.engine.game import TreeHooks


def full_board_winner(black: int, white: int, geo: Board) -> int:
    """The winner of a full board (``black | white`` is every cell): black
    when a black group joins black's goal edges, else white."""
    goals = geo.goals[BLACK]
    start = geo.edge_bits[goals[0]] & black
    while start:
        low = start & -start
        group = geo.flood(low, black)
        if all(group & geo.edge_bits[edge] for edge in goals[1:]):
            return BLACK
        start &= ~group
    return WHITE


def random_fill(position, rng: random.Random) -> tuple[int, int, int]:
    """Fill ``position``'s empty cells at random, alternately from the side
    to move: ``(winner, black_mask, white_mask)`` of the full board, or the
    current winner and masks when the game is already over."""
    geo = position.geometry
    black, white = position.black_bits, position.white_bits
    if position.won is not None:
        return position.won, black, white
    bit_of = geo.bit_of
    empty = [bit_of[c] for c, v in enumerate(position.board) if v == 0]
    rng.shuffle(empty)
    mine = sum(empty[0::2])
    theirs = sum(empty[1::2])
    if position.to_move == BLACK:
        black |= mine
        white |= theirs
    else:
        white |= mine
        black |= theirs
    return full_board_winner(black, white, geo), black, white


def playout_winner(position, rng: random.Random, komi: float) -> int:
    """The winner of one random playout (komi means nothing here)."""
    return random_fill(position, rng)[0]


@lru_cache(maxsize=None)
def _hooks_for(geo: Board) -> TreeHooks:
    bit_index = tuple(bit.bit_length() - 1 for bit in geo.bit_of)

    def playout(position, rng: random.Random, komi: float) -> tuple[int | None, int, int]:
        return random_fill(position, rng)

    return TreeHooks(geo.bits, bit_index.__getitem__, playout)


def tree_hooks(position) -> TreeHooks:
    """The hooks for ``position``'s board: AMAF masks are the cells' bits."""
    return _hooks_for(position.geometry)
