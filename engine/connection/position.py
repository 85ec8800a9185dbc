"""A position on a connection board (Hex, Y): stones, side to move,
history, play/undo, and the winner found as the moves are played.

One mutable object per game, like *Star's: :meth:`ConnectionPosition.play`
records the move and :meth:`ConnectionPosition.undo` takes it back exactly;
every illegal input raises :class:`stargtp.engine.errors.IllegalMove` before
anything changes. Each game package subclasses it with its name, its
descriptor (``rules``) and its geometry (``make_geometry``).

The winner is kept incrementally: only the stone just played can complete a
winning group, so after each stone the position floods that stone's group
over its colour's bit mask (:meth:`Board.flood`) and checks the edges it
touches against the colour's goal; the winner of each ply is stacked so that
undo restores it. tests/connection_reference.py checks this against a
from-scratch search of the whole board.

The swap rule (an option, off by default: ``Position(size, swap=True)``)
lets the second player answer the first move of a game from the empty board
with the move ``swap-pieces`` (:attr:`Board.swap_move`), as HexGui and the Hex
engines write it. What it does follows HexGui: on a Hex board the stone stays
where it is and keeps its colour, and the same colour moves again (the
players exchange colours: HexGui does not change the side to move after a
Hex swap, and MoHex counts the stones to find it); on a Y board
(:attr:`ConnectionPosition.swap_recolours`) the stone changes colour where
it is and the other colour moves (HexGui recolours every stone after a Y swap).
"""

from __future__ import annotations

from collections.abc import Sequence

from stargtp.engine.colour import BLACK, EMPTY, WHITE, opponent
from stargtp.engine.connection.geometry import Board
from stargtp.engine.connection.diagram import text_picture
from stargtp.engine.errors import CannotUndo, IllegalMove
from stargtp.engine.game import perft_by_play


class ConnectionPosition:
    """A board of one size, empty or set up, and the moves played on it.
    Black moves first."""

    game = ""
    rules = None  # the game's descriptor, set by the game package
    swap_recolours = False
    """What ``swap-pieces`` does: False (Hex) leaves the stone and gives the
    same colour the next move; True (Y) turns the stone to the swapper's
    colour and gives the other colour the next move."""
    SWAP_NAMES = ("swap-pieces", "swap")
    """The swap move's text: HexGui's name first (how it is written); HexGui
    also reads ``swap``."""

    __slots__ = ("geometry", "board", "to_move", "history", "black_bits", "white_bits",
                 "won", "swap", "_empty_count", "_undo", "_setup")

    @staticmethod
    def make_geometry(size: int) -> Board:
        """The game's board of ``size`` (BadSize when it has none); set by each game."""
        raise NotImplementedError

    def __init__(self, size: int | None = None, swap: bool = False) -> None:
        if not isinstance(swap, bool):
            raise IllegalMove(f"the swap option is on or off (True or False), not {swap!r}")
        self.geometry: Board = self.make_geometry(self.rules.default_size if size is None else size)
        self.swap: bool = swap
        """Whether the swap rule is on (see the module docstring)."""
        self.board: list[int] = [EMPTY] * self.geometry.cell_count
        """Cell index -> EMPTY, BLACK or WHITE."""
        self.to_move: int = BLACK
        self.history: list[tuple[int, int]] = []
        """``(colour, cell)`` of every move played, oldest first."""
        self.black_bits = 0
        """Black's stones as a mask of the geometry's bit layout."""
        self.white_bits = 0
        self.won: int | None = None
        """The colour whose group joins its goal edges, once one does."""
        self._empty_count = self.geometry.cell_count
        self._undo: list[tuple[int, int | None]] = []  # (to_move, won) before each move
        self._setup: tuple[tuple[int, ...], int] | None = None

    @classmethod
    def from_setup(cls, board: Sequence[int], to_move: int):
        """A position set up with ``board`` (cell contents in board order; its
        length says the size) and ``to_move``; IllegalMove (a GameError) for
        contents that fit no board of the game. The empty board with black
        to move is the usual start (:meth:`setup` None), without the swap
        rule."""
        sizes = [size for size in cls.rules.sizes if cls.make_geometry(size).cell_count == len(board)]
        if not sizes:
            raise IllegalMove(f"no {cls.rules.title} board has {len(board)} cells")
        position = cls(sizes[0])
        if to_move not in (BLACK, WHITE) or any(v not in (EMPTY, BLACK, WHITE) for v in board):
            raise IllegalMove("set-up contents must be empty, black or white")
        for cell, value in enumerate(board):
            if value != EMPTY:
                position._place(cell, value)
        position.won = position._find_winner()
        position.to_move = to_move
        if to_move != BLACK or any(board):  # the empty board with black to move is the usual start
            position._setup = (tuple(board), to_move)
        return position

    def setup(self) -> tuple[tuple[int, ...], int] | None:
        """``(board, to_move)`` the moves start from when set up, else None."""
        return self._setup

    @property
    def size(self) -> int:
        return self.geometry.size

    # -- moves as text -------------------------------------------------------
    def parse_move(self, text: str) -> int:
        """A cell label such as ``c4``, or ``swap-pieces`` (also ``swap``), in
        any case; IllegalMove for anything else."""
        if text.strip().lower() in self.SWAP_NAMES:
            return self.geometry.swap_move
        return self.geometry.parse(text)

    def format_move(self, move: int) -> str:
        if move == self.geometry.swap_move:
            return self.SWAP_NAMES[0]
        return self.geometry.cells[move].label

    # -- rules ---------------------------------------------------------------
    def is_over(self) -> bool:
        """One side's group joins its goal edges (a full board always has one)."""
        return self.won is not None or self._empty_count == 0

    def winner(self) -> int | None:
        """The colour that has joined its edges, None while nobody has."""
        return self.won

    def legal_moves(self) -> list[int]:
        """The empty cells in board order, then the swap move where it is
        legal; nothing once the game is over."""
        if self.is_over():
            return []
        moves = [c for c, v in enumerate(self.board) if v == EMPTY]
        if self._swap_open():
            moves.append(self.geometry.swap_move)
        return moves

    def is_legal(self, move: int, colour: int | None = None) -> bool:
        if self.is_over() or colour not in (None, BLACK, WHITE):
            return False
        if move == self.geometry.swap_move and not isinstance(move, bool):
            return self._swap_open() and colour in (None, self.to_move)
        return (isinstance(move, int) and not isinstance(move, bool) and 0 <= move < len(self.board)
                and self.board[move] == EMPTY)

    def _swap_open(self) -> bool:
        """The swap rule is on and this is the answer to the first move of a
        game from the empty board, by the other colour."""
        history = self.history
        return (self.swap and len(history) == 1 and self._setup is None
                and self.to_move != history[0][0])

    def play(self, move: int, colour: int | None = None) -> None:
        """Place a stone of ``colour`` (default: the side to move) on the empty
        cell ``move``; its opponent moves next."""
        if colour is None:
            colour = self.to_move
        elif colour not in (BLACK, WHITE):
            raise IllegalMove(f"no such colour {colour!r}")
        if self.won is not None or self._empty_count == 0:
            raise IllegalMove(f"the game is over: {self.over_reason()}")
        board = self.board
        # The search's path first: a plain int that is a cell (the swap move
        # is the number just past the cells, and a bool is never a move).
        if type(move) is not int or not 0 <= move < len(board):
            if move == self.geometry.swap_move and not isinstance(move, bool):
                self._play_swap(colour)
                return
            raise IllegalMove(f"no cell {move!r} on this board")
        if board[move] != EMPTY:
            raise IllegalMove(f"{self.format_move(move)} is occupied")
        self._undo.append((self.to_move, self.won))
        self._place(move, colour)
        if self._connects(move, colour):
            self.won = colour
        self.history.append((colour, move))
        self.to_move = opponent(colour)

    def _play_swap(self, colour: int) -> None:
        if not self.swap:
            raise IllegalMove("swap-pieces needs the swap rule, which is off")
        if not self._swap_open() or colour != self.to_move:
            raise IllegalMove("swap-pieces is only the second move, by the side to move")
        self._undo.append((self.to_move, self.won))
        if self.swap_recolours:
            cell = self.history[0][1]
            self._recolour(cell, colour)
            if self._connects(cell, colour):
                self.won = colour
            self.to_move = opponent(colour)
        self.history.append((colour, self.geometry.swap_move))

    def _recolour(self, cell: int, colour: int) -> None:
        """Turn the stone on ``cell`` to ``colour``."""
        bit = self.geometry.bit_of[cell]
        self.board[cell] = colour
        if colour == BLACK:
            self.white_bits &= ~bit
            self.black_bits |= bit
        else:
            self.black_bits &= ~bit
            self.white_bits |= bit

    def undo(self) -> None:
        """Take back the last move exactly, side to move and winner included."""
        if not self.history:
            raise CannotUndo("no move to undo")
        colour, move = self.history.pop()
        geo = self.geometry
        if move == geo.swap_move:
            if self.swap_recolours:
                self._recolour(self.history[0][1], self.history[0][0])
            self.to_move, self.won = self._undo.pop()
            return
        self.board[move] = EMPTY
        self._empty_count += 1
        if colour == BLACK:
            self.black_bits &= ~geo.bit_of[move]
        else:
            self.white_bits &= ~geo.bit_of[move]
        self.to_move, self.won = self._undo.pop()

    def over_reason(self) -> str | None:
        """Why the game is over (``black joined north and south``), or None."""
        if self.won is None:
            return None
        edges = self.geometry.goals[self.won]
        joined = ", ".join(edges[:-1]) + " and " + edges[-1]
        return f"{'black' if self.won == BLACK else 'white'} joined {joined}"

    def _place(self, cell: int, colour: int) -> None:
        self.board[cell] = colour
        self._empty_count -= 1
        if colour == BLACK:
            self.black_bits |= self.geometry.bit_of[cell]
        else:
            self.white_bits |= self.geometry.bit_of[cell]

    def _connects(self, cell: int, colour: int) -> bool:
        """Whether the group of the stone on ``cell`` joins ``colour``'s goal edges."""
        geo = self.geometry
        own = self.black_bits if colour == BLACK else self.white_bits
        group = geo.grow(geo.bit_of[cell], own)  # the stone is in ``own``
        return all(group & edge for edge in geo.goal_bits[colour])

    def _find_winner(self) -> int | None:
        """The winner of the whole board, searched from scratch (for a set-up)."""
        for colour in (BLACK, WHITE):
            own = self.black_bits if colour == BLACK else self.white_bits
            left = own
            while left:
                low = left & -left
                group = self.geometry.flood(low, own)
                if all(group & self.geometry.edge_bits[edge] for edge in self.geometry.goals[colour]):
                    return colour
                left &= ~group
        return None

    def copy(self):
        """An independent copy (history included) for search."""
        other = type(self).__new__(type(self))
        other.geometry = self.geometry
        other.board = self.board.copy()
        other.to_move = self.to_move
        other.history = self.history.copy()
        other.black_bits = self.black_bits
        other.white_bits = self.white_bits
        other.won = self.won
        other.swap = self.swap
        other._empty_count = self._empty_count
        other._undo = self._undo.copy()
        other._setup = self._setup
        return other

    def perft(self, depth: int) -> int:
        """The number of sequences of ``depth`` legal moves from here (a game
        won sooner ends its sequences there: they are not counted), enumerated
        with play/undo."""
        return perft_by_play(self, depth)

    def render_text(self) -> str:
        """The board in its true shape (:func:`text_picture`), then who is to move."""
        lines = text_picture(self)
        if self.won is not None:
            lines.append(f"over: {self.over_reason()}  moves: {len(self.history)}")
        else:
            lines.append(f"to move: {'black (X)' if self.to_move == BLACK else 'white (O)'}"
                         f"  moves: {len(self.history)}" + ("  swap rule: on" if self.swap else ""))
        return "\n".join(lines)

    def __repr__(self) -> str:
        moves = " ".join(f"{'BW'[c - 1]}:{self.format_move(m)}" for c, m in self.history)
        return f"<{self.game}.Position size={self.size} {moves}>"
