"""A *Star position: stones, side to move, history, play/pass/undo.

One mutable object per game, in the style of python-chess's ``Board``:
:meth:`Position.play` records the move and :meth:`Position.undo` takes it back
exactly. Every illegal input raises :class:`stargtp.engine.errors.IllegalMove` before
anything changes.

>>> p = Position(4)
>>> p.play(p.parse_move("S43")); p.play(PASS)
>>> p.format_move(p.history[0][1]), p.to_move == BLACK
('S43', True)
>>> p.undo(); p.undo(); p.history
[]
"""

from __future__ import annotations

from stargtp.engine.colour import BLACK, EMPTY, WHITE, opponent
from stargtp.engine.errors import CannotUndo, IllegalMove
from stargtp.engine.star.geometry import MAX_RINGS, MIN_RINGS, Geometry, geometry
from stargtp.engine.star.geometry import layout
from stargtp.engine.star.diagram import text_picture

PASS = -1
"""The pass move."""


class Position:
    """A *Star board of 2..10 rings (default 10). Black moves first."""

    game = "star"

    __slots__ = ("geometry", "board", "to_move", "history", "black_bits", "white_bits",
                 "_bit_of", "_empty_count", "_movers", "_setup")

    def __init__(self, rings: int = 10) -> None:
        self.geometry: Geometry = geometry(rings)  # raises BadSize
        self.board: list[int] = [EMPTY] * self.geometry.cell_count
        self.to_move: int = BLACK
        self.history: list[tuple[int, int]] = []
        """``(colour, move)`` pairs in the order played; ``move`` is a cell or PASS."""
        self.black_bits = 0
        """Black's stones as a bitboard of :func:`stargtp.engine.star.geometry.layout`."""
        self.white_bits = 0
        self._bit_of = layout(rings).bit_of
        self._empty_count = self.geometry.cell_count
        self._movers: list[int] = []  # to_move before each move, so undo restores it
        self._setup: tuple[tuple[int, ...], int] | None = None

    @classmethod
    def from_setup(cls, board, to_move: int) -> "Position":
        """A position set up with ``board`` (cell contents in board order,
        EMPTY, BLACK or WHITE; its length says the number of rings) and
        ``to_move``, with no history. Any contents are a position: a full
        board is a finished game. IllegalMove (a GameError) for contents that
        fit no board.

        >>> p = Position.from_setup([BLACK] + [EMPTY] * 13 + [WHITE], WHITE)
        >>> p.size, p.to_move == WHITE, p.history, p.setup()[1] == WHITE
        (2, True, [], True)
        >>> Position.from_setup([EMPTY] * 15, BLACK).setup() is None  # the usual start
        True
        """
        rings = [r for r in range(MIN_RINGS, MAX_RINGS + 1) if geometry(r).cell_count == len(board)]
        if not rings:
            raise IllegalMove(f"no *Star board has {len(board)} cells")
        if to_move not in (BLACK, WHITE) or any(v not in (EMPTY, BLACK, WHITE) for v in board):
            raise IllegalMove("set-up contents must be empty, black or white")
        position = cls(rings[0])
        for cell, colour in enumerate(board):
            if colour != EMPTY:
                position._place(cell, colour)
        position.to_move = to_move
        if to_move != BLACK or position._empty_count != len(board):
            position._setup = (tuple(board), to_move)
        return position

    def setup(self) -> tuple[tuple[int, ...], int] | None:
        """``(board, to_move)`` the moves start from when set up
        (:meth:`from_setup`), else None (the empty board, black to move)."""
        return self._setup

    @property
    def rings(self) -> int:
        return self.geometry.rings

    @property
    def size(self) -> int:
        """The board size in the protocol's sense: the number of rings."""
        return self.geometry.rings

    # -- moves as text -------------------------------------------------------
    def parse_move(self, text: str) -> int:
        """A cell label (any case) or ``pass``; IllegalMove for anything else."""
        if text.strip().lower() == "pass":
            return PASS
        return self.geometry.parse(text)

    def format_move(self, move: int) -> str:
        return "pass" if move == PASS else self.geometry.labels[move]

    # -- rules ---------------------------------------------------------------
    def is_over(self) -> bool:
        """The board is full, or the last two moves were passes."""
        if self._empty_count == 0:
            return True
        history = self.history
        return len(history) >= 2 and history[-1][1] == PASS and history[-2][1] == PASS

    def over_reason(self) -> str | None:
        """Why the game is over (``the board is full``, ``both players
        passed``), or None while it goes on."""
        if not self.is_over():
            return None
        return "the board is full" if self._empty_count == 0 else "both players passed"

    def legal_moves(self) -> list[int]:
        """The empty cells in board order (pass is always legal too, but not listed);
        nothing once the game is over."""
        if self.is_over():
            return []
        return [c for c, v in enumerate(self.board) if v == EMPTY]

    def is_legal(self, move: int, colour: int | None = None) -> bool:
        if self.is_over():
            return False
        if move == PASS:
            return True
        return isinstance(move, int) and 0 <= move < len(self.board) and self.board[move] == EMPTY

    def _place(self, cell: int, colour: int) -> None:
        """Put a stone of ``colour`` on the empty ``cell`` (a move or a set-up)."""
        self.board[cell] = colour
        self._empty_count -= 1
        if colour == BLACK:
            self.black_bits |= self._bit_of[cell]
        else:
            self.white_bits |= self._bit_of[cell]

    def play(self, move: int, colour: int | None = None) -> None:
        """Place a stone of ``colour`` (default: the side to move) or pass. The
        opponent of ``colour`` moves next, so setting up a position with several
        stones of one colour works as the protocol expects."""
        if colour is None:
            colour = self.to_move
        elif colour not in (BLACK, WHITE):
            raise IllegalMove(f"no such colour {colour!r}")
        if self.is_over():
            raise IllegalMove(f"the game is over: {self.over_reason()}")
        if move != PASS:
            if not isinstance(move, int) or not 0 <= move < len(self.board):
                raise IllegalMove(f"no cell {move!r} on this board")
            if self.board[move] != EMPTY:
                raise IllegalMove(f"{self.geometry.labels[move]} is occupied")
            self._place(move, colour)
        self.history.append((colour, move))
        self._movers.append(self.to_move)
        self.to_move = opponent(colour)

    def undo(self) -> None:
        """Take back the last move exactly, side to move included."""
        if not self.history:
            raise CannotUndo("no move to undo")
        colour, move = self.history.pop()
        if move != PASS:
            self.board[move] = EMPTY
            self._empty_count += 1
            if colour == BLACK:
                self.black_bits &= ~self._bit_of[move]
            else:
                self.white_bits &= ~self._bit_of[move]
        self.to_move = self._movers.pop()

    def winner(self) -> int | None:
        """The winner by the conventional score with no komi (quark tie-break);
        for the protocol's komi use :func:`stargtp.engine.star.scoring.score`."""
        from stargtp.engine.star.scoring import score

        return score(self).winner

    def copy(self) -> "Position":
        """An independent copy (history included) for search."""
        other = Position.__new__(Position)
        other.geometry = self.geometry
        other.board = self.board.copy()
        other.to_move = self.to_move
        other.history = self.history.copy()
        other.black_bits = self.black_bits
        other.white_bits = self.white_bits
        other._bit_of = self._bit_of
        other._empty_count = self._empty_count
        other._movers = self._movers.copy()
        other._setup = self._setup
        return other

    def perft(self, depth: int) -> int:
        """The number of sequences of ``depth`` stone placements from here
        (passes not counted). Any empty cell can follow any other, so this is
        the falling factorial ``E (E-1) ... (E-depth+1)`` of the empty-cell
        count; the tests check it against enumeration with play/undo."""
        if depth < 0:
            raise ValueError("perft depth must be >= 0")
        if depth == 0:
            return 1
        if self.is_over():
            return 0
        total = 1
        for i in range(depth):
            total *= max(self._empty_count - i, 0)
        return total

    def render_text(self) -> str:
        """The board in its true shape for humans (see
        :func:`stargtp.engine.star.diagram.text_picture`: labels on empty cells, `` X ``
        black, `` O `` white, ``[X]`` the last move), then who is to move."""
        lines = text_picture(self)
        lines.append(f"to move: {'black (X)' if self.to_move == BLACK else 'white (O)'}"
                     f"  moves: {len(self.history)}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        moves = " ".join(f"{'BW'[c - 1]}:{self.format_move(m)}" for c, m in self.history)
        return f"<star.Position rings={self.rings} {moves}>"
