"""The small interface through which the search sees a game.

Search code calls only these functions and the position API (``to_move``,
``legal_moves``, ``play``, ``undo``, ``copy``, ``is_over``); everything
game-specific about playouts and passing lives here.
"""

from __future__ import annotations

import random


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
