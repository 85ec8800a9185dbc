"""Typed errors raised by the rules cores.

Every rule violation raises one of these and leaves the position unchanged, so
callers (the protocol server, the match referee) can map them to answers
without inspecting message text.
"""


class GameError(Exception):
    """Base class of every error a rules core raises on bad input."""


class IllegalMove(GameError):
    """A move that cannot be played here: malformed text, a vertex that is not on
    this board, an occupied cell, or any move once the game is over."""


class CannotUndo(GameError):
    """``undo`` with no move to take back."""


class BadSize(GameError):
    """A board size the game does not support."""
