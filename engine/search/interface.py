"""The small interface through which the search sees a game.

Search code calls only these functions and the position API (``to_move``,
``legal_moves``, ``play``, ``undo``, ``copy``, ``is_over``); everything
game-specific about playouts and passing lives here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable


def playout_winner(position, rng: random.Random, komi: float = 0.0) -> int | None:
    """Play ``position`` out at random and return the winner (None: a tie)."""
    if position.game == "star":
        from engine.star.playout import random_playout

        return random_playout(position, rng, komi).winner
    from engine.amazons.playout import random_playout

    return random_playout(position, rng)


def candidate_moves(position) -> list:
    """The moves a player should consider. Passing is not among them: a *Star
    player passes only when no move is left (:func:`pass_move`) or when the
    opponent has just passed and passing wins (:func:`passing_wins`)."""
    return position.legal_moves()


def pass_move(position, komi: float = 0.0):
    """The move to make when a player has nothing better: *Star passes; an
    Amazons player with no move resigns (None)."""
    if position.game == "star":
        from engine.star.position import PASS

        return PASS
    return None


def passing_wins(position, komi: float = 0.0) -> bool:
    """*Star: the opponent has just passed and the current score already wins
    for the side to move, so a pass ends the game with a win."""
    if position.game != "star" or not position.history or position.history[-1][1] != -1:
        return False
    from engine.star.scoring import score

    return score(position, komi).winner == position.to_move


@dataclass(frozen=True)
class TreeHooks:
    """What a tree search needs from one game and board size beyond the
    position API: a playout that also says which moves each colour "got"
    (for AMAF/RAVE), and where each move sits in those owner masks.

    A game without AMAF has ``amaf_width == 0``; its owner masks are 0.
    """

    amaf_width: int
    """Number of bit positions in the owner masks (0: no AMAF)."""
    amaf_index: Callable[[Any], int]
    """Move -> its bit position ``0 <= i < amaf_width`` in the owner masks."""
    playout: Callable[[Any, random.Random, float], tuple[int | None, int, int]]
    """``(position, rng, komi) -> (winner, black_mask, white_mask)``: a random
    playout; the masks hold the bits of the moves each colour made, or owned
    at the end (*Star: the cells of each colour on the full board)."""
    owners: Callable[[int, int], int] | None = None
    """For analysis: ``(black_mask, white_mask)`` of a playout -> the mask of
    the scoring points black owns at its end (*Star: pericells)."""
    owner_points: tuple = ()
    """The moves (points) whose ownership is reported, in board order, and
    each one's bit in the ``owners`` mask: ``((move, bit), ...)``."""


def tree_hooks(position) -> TreeHooks:
    """The :class:`TreeHooks` for ``position``'s game and size."""
    if position.game == "star":
        from engine.star.geometry import geometry
        from engine.star.playout import layout, peri_owners, playout_bits

        lay = layout(position.size)
        cell_bit = tuple(bit.bit_length() - 1 for bit in lay.bit_of)

        def star_playout(board, rng: random.Random, komi: float) -> tuple[int | None, int, int]:
            return playout_bits(board.black_bits, board.white_bits, board.to_move, lay, rng, komi)

        def star_owners(black: int, white: int) -> int:
            return peri_owners(black, white, lay)

        pericells = geometry(position.size).perimeter
        return TreeHooks(lay.bits, cell_bit.__getitem__, star_playout, star_owners,
                         tuple((cell, cell_bit[cell]) for cell in pericells))

    def plain_playout(board, rng: random.Random, komi: float) -> tuple[int | None, int, int]:
        return playout_winner(board, rng, komi), 0, 0

    def no_index(move) -> int:
        raise ValueError(f"the game {position.game!r} has no AMAF owner masks")

    return TreeHooks(0, no_index, plain_playout)
