"""A third game, defined entirely in tests/: tic-tac-toe, on 3x3 (three in a
row) or 4x4 (four in a row). It is the proof that a game has one home: a
:class:`stargtp.engine.game.Game` descriptor built as engine/star/game.py builds
*Star's, a position class that meets the :class:`stargtp.engine.game.Position`
protocol with ``rules`` set on it, and nothing else. Registering it
(:func:`register`, which calls :func:`stargtp.engine.games.register`) must be all the
rest of the code needs to play it: tests/test_third_game.py plays it through
the UCT search, the protocol server and the match runner.

The rules, as implemented:

* Black (``X``) moves first; a move puts a stone of one's colour on an empty
  square. Squares are named like chess squares, file letter then rank,
  ``a1`` bottom left (``c3`` top right on 3x3), read in any case.
* The game ends when a colour has a full line (a row, a column or one of the
  two long diagonals: ``size`` in a row) and wins, or when the board is full
  without one: a draw.
* There is no pass; a player with nothing to play (only once the game is
  over) resigns (``no_move`` answers None).
* ``play(move, colour)`` may be given either colour (the protocol sets up
  positions that way); the opponent of ``colour`` moves next, and ``undo``
  restores the side to move of before the move.
* Score: a finished game is ``B+1``/``W+1``, or ``0`` for a draw; an unfinished
  one cannot be scored (CannotScore, a GameError).

>>> p = TICTACTOE.new_position()
>>> for text in ("b2", "a1", "c3", "a3", "a2", "c1", "b1", "b3"):
...     p.play(p.parse_move(text))
>>> print(p.render_text())
3  O O X
2  X X .
1  O X O
   a b c
Black (X) to move, 8 moves played
>>> p.play(p.parse_move("C2")); p.is_over(), p.winner(), TICTACTOE.score(p, 0.0).gtp_result()
(True, 1, 'B+1')
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from stargtp.engine.colour import BLACK, EMPTY, WHITE, colour_name, opponent
from stargtp.engine.errors import BadSize, CannotUndo, GameError, IllegalMove
from stargtp.engine.game import Game, moves_left_from_cells, perft_by_play, plain_tree_hooks

NAME = "tictactoe"
SIZES = (3, 4)
FILES = "abcd"
_SQUARE = re.compile(r"([a-z])([0-9]{1,2})")
_MARKS = {EMPTY: ".", BLACK: "X", WHITE: "O"}


@lru_cache(maxsize=None)
def lines_of(size: int) -> tuple[tuple[int, ...], ...]:
    """Every winning line of a board: the rows, the columns, the two diagonals.

    >>> len(lines_of(3)), lines_of(3)[-1]
    (8, (2, 4, 6))
    """
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    columns = [tuple(r * size + c for r in range(size)) for c in range(size)]
    diagonals = [tuple(i * size + i for i in range(size)),
                 tuple(i * size + size - 1 - i for i in range(size))]
    return tuple(rows + columns + diagonals)


def check_size(size: Any) -> int:
    if type(size) is not int or size not in SIZES:
        raise BadSize(f"tic-tac-toe is played on {' or '.join(f'{s}x{s}' for s in SIZES)}, not {size!r}")
    return size


class Position:
    """A tic-tac-toe board; Black (X) moves first."""

    game = NAME
    rules: Game  # set below, once the descriptor exists

    __slots__ = ("_size", "board", "to_move", "history", "_movers", "_initial")

    def __init__(self, size: int = 3) -> None:
        self._size = check_size(size)
        self._start([EMPTY] * (size * size), BLACK)

    def _start(self, board: list[int], to_move: int) -> None:
        self.board = board
        self.to_move = to_move
        self.history: list[tuple[int, int]] = []
        self._movers: list[int] = []
        self._initial = (tuple(board), to_move)

    @classmethod
    def from_board(cls, board: Sequence[int], to_move: int = BLACK) -> Position:
        """A position set up from square contents (EMPTY, BLACK, WHITE) in
        square order and the side to move."""
        size = round(len(board) ** 0.5)
        check_size(size if size * size == len(board) else len(board))
        if any(v not in _MARKS for v in board) or to_move not in (BLACK, WHITE):
            raise GameError("bad tic-tac-toe set-up")
        position = cls.__new__(cls)
        position._size = size
        position._start(list(board), to_move)
        return position

    @property
    def size(self) -> int:
        return self._size

    def setup(self) -> tuple[tuple[int, ...], int] | None:
        """The set-up the moves start from, when it is not the empty board."""
        board, to_move = self._initial
        return None if to_move == BLACK and not any(board) else self._initial

    # -- moves as text ---------------------------------------------------------

    def parse_move(self, text: str) -> int:
        """A square such as ``b2``, in any case; IllegalMove for anything else."""
        match = _SQUARE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
        if match is None:
            raise IllegalMove(f"not a tic-tac-toe square: {text!r} (expected e.g. b2)")
        column, rank = FILES.find(match.group(1)), int(match.group(2))
        if not (0 <= column < self._size and 1 <= rank <= self._size) or match.group(2)[0] == "0":
            raise IllegalMove(f"square {text.strip()!r} is off the {self._size}x{self._size} board")
        return (rank - 1) * self._size + column

    def format_move(self, move: int) -> str:
        return f"{FILES[move % self._size]}{move // self._size + 1}"

    # -- rules -------------------------------------------------------------------

    def line_owner(self) -> int | None:
        """The colour with a full line, if any."""
        board = self.board
        for line in lines_of(self._size):
            first = board[line[0]]
            if first != EMPTY and all(board[s] == first for s in line):
                return first
        return None

    def is_over(self) -> bool:
        return EMPTY not in self.board or self.line_owner() is not None

    def over_reason(self) -> str | None:
        """``black made a line``, ``the board is full``, or None while the game is on."""
        if not self.is_over():
            return None
        owner = self.line_owner()
        return "the board is full" if owner is None else f"{'black' if owner == BLACK else 'white'} made a line"

    def winner(self) -> int | None:
        """The colour with a full line; None while the game is on or drawn."""
        return self.line_owner()

    def legal_moves(self) -> list[int]:
        if self.is_over():
            return []
        return [s for s, v in enumerate(self.board) if v == EMPTY]

    def _problem(self, move: Any, colour: int) -> str | None:
        if colour not in (BLACK, WHITE):
            return f"no such colour {colour!r}"
        if type(move) is not int or not 0 <= move < len(self.board):
            return f"not a square of this board: {move!r}"
        if self.is_over():
            return "the game is over"
        if self.board[move] != EMPTY:
            return f"{self.format_move(move)} is taken"
        return None

    def is_legal(self, move: Any, colour: int | None = None) -> bool:
        return self._problem(move, self.to_move if colour is None else colour) is None

    def play(self, move: int, colour: int | None = None) -> None:
        if colour is None:
            colour = self.to_move
        problem = self._problem(move, colour)
        if problem:
            raise IllegalMove(problem)
        self.board[move] = colour
        self.history.append((colour, move))
        self._movers.append(self.to_move)
        self.to_move = opponent(colour)

    def undo(self) -> None:
        if not self.history:
            raise CannotUndo("no move to undo")
        _, move = self.history.pop()
        self.board[move] = EMPTY
        self.to_move = self._movers.pop()

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other._size = self._size
        other.board = self.board.copy()
        other.to_move = self.to_move
        other.history = self.history.copy()
        other._movers = self._movers.copy()
        other._initial = self._initial
        return other

    def perft(self, depth: int) -> int:
        return perft_by_play(self, depth)

    def render_text(self) -> str:
        """Top rank first: ``X`` black, ``O`` white, ``.`` empty; then the side
        to move, and the result once the game is over."""
        size = self._size
        lines = [f"{rank}  " + " ".join(_MARKS[v] for v in self.board[(rank - 1) * size:rank * size])
                 for rank in range(size, 0, -1)]
        lines.append("   " + " ".join(FILES[:size]))
        played = len(self.history)
        status = (f"{colour_name(self.to_move).capitalize()} ({_MARKS[self.to_move]}) to move, "
                  f"{played} move{'' if played == 1 else 's'} played")
        if self.is_over():
            winner = self.winner()
            status += "; game over, " + ("a draw" if winner is None else f"{colour_name(winner)} wins")
        lines.append(status)
        return "\n".join(lines)

    def __repr__(self) -> str:
        moves = " ".join(f"{'BW'[c - 1]}:{self.format_move(m)}" for c, m in self.history)
        return f"<tictactoe.Position size={self._size} {moves}>"


# -- the descriptor's parts --------------------------------------------------------------


class CannotScore(GameError):
    """The game is not over."""


@dataclass(frozen=True)
class Score:
    winner: int | None
    over: bool

    def gtp_result(self) -> str:
        if not self.over:
            raise CannotScore("the game is not over")
        return "0" if self.winner is None else f"{'B' if self.winner == BLACK else 'W'}+1"

    def describe(self, position: Position) -> list[str]:
        if not self.over:
            return ["not decided yet (the game is not over)"]
        if self.winner is None:
            return ["result: 0 (a draw: the board is full)"]
        return [f"result: {self.gtp_result()} ({colour_name(self.winner)} has {position.size} in a row)"]

    def to_json(self, position: Position) -> dict[str, Any]:
        return {"over": self.over, "winner": None if self.winner is None else colour_name(self.winner),
                "empty": position.board.count(EMPTY)}


def score(position: Position, komi: float) -> Score:
    """Komi means nothing here."""
    return Score(position.winner(), position.is_over())


def from_setup(board: Sequence[int], to_move: int) -> Position:
    return Position.from_board(board, to_move)


def playout_winner(position: Position, rng: random.Random, komi: float) -> int | None:
    """Random moves to the end, on a copy: the winner, None for a draw."""
    board = position.copy()
    while True:
        moves = board.legal_moves()
        if not moves:
            return board.winner()
        board.play(moves[rng.randrange(len(moves))])


HOOKS = plain_tree_hooks(playout_winner)


def tree_hooks(position: Position):
    return HOOKS


def no_move(position: Position, komi: float) -> None:
    return None  # no pass: a player with nothing to play resigns


def moves_left(size: int, plies: int) -> int:
    return moves_left_from_cells(size * size, plies)


TICTACTOE = Game(
    name=NAME,
    title="Tic-tac-toe",
    gtp_name="TicTacToe",
    sizes=SIZES,
    default_size=3,
    size_word="squares a side",
    position=Position,
    from_setup=from_setup,
    score=score,
    playout_winner=playout_winner,
    tree_hooks=tree_hooks,
    no_move=no_move,
    moves_left=moves_left,
    strongest_player="uct",
    move_hint="a square such as b2",
    human_colour=BLACK,
)

Position.rules = TICTACTOE


def register() -> Game:
    """Register the game with the engine (once per process); the descriptor."""
    from stargtp.engine import games

    if NAME not in games.games():
        games.register(TICTACTOE)
    return TICTACTOE


def unregister() -> None:
    """Take the game out of the engine's list again (the engine has no call
    for that: tests only)."""
    from stargtp.engine import games

    if TICTACTOE in games.GAME_LIST:
        games.GAME_LIST.remove(TICTACTOE)
