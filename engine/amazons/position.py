"""An Amazons position: amazons, arrows, side to move, history, play/undo,
move generation and perft.

One mutable object per game, in the style of python-chess's ``Board``:
:meth:`Position.play` checks and records a move and :meth:`Position.undo`
takes it back exactly. Every illegal input raises
:class:`stargtp.engine.errors.IllegalMove` before anything changes.

The board is kept twice, kept equal by every change: ``board``, a flat list of
square contents (EMPTY, BLACK, WHITE or ARROW) that is easy to read, and an
``occupied`` bitboard (amazons and arrows) plus each colour's amazon squares,
which move generation uses. A queen's reach is computed per direction from the
ray tables of :mod:`stargtp.engine.amazons.geometry`: the nearest blocker on a ray is
its lowest set bit for rays towards higher squares and its highest set bit for
the others.

>>> p = Position()
>>> move = p.parse_move("D1d7G7")
>>> p.format_move(move), p.is_legal(move)
('d1-d7/g7', True)
>>> p.play(move); p.to_move == BLACK, len(p.history)
(True, 1)
>>> p.undo(); p.perft(1)
2176
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from stargtp.engine.amazons.geometry import ARROW, DEFAULT_SIZE, Geometry, geometry
from stargtp.engine.colour import BLACK, EMPTY, WHITE, colour_name, opponent
from stargtp.engine.errors import BadSize, CannotUndo, IllegalMove


class Move(NamedTuple):
    """One Amazons move, three squares (ints, see :mod:`stargtp.engine.amazons.geometry`):

    * ``from_square`` -- where the amazon stands;
    * ``to_square`` -- where it goes, by a queen move over empty squares;
    * ``arrow`` -- where it then shoots, by a queen move from ``to_square``
      over empty squares, the vacated ``from_square`` counting as empty.

    A tuple, so it is hashable, compares by value and is cheap to build;
    ``Position.format_move`` gives its text.
    """

    from_square: int
    to_square: int
    arrow: int


_new_move = tuple.__new__  # builds a Move without the Python-level __new__ frame

# Squares in move text: a file letter then a rank of one or two digits.
_SQUARE = r"([a-z])(\d{1,2})"
_MOVE_TEXT = re.compile(rf"{_SQUARE}-?{_SQUARE}[-/x]?{_SQUARE}")
_UCI_TEXT = re.compile(rf"{_SQUARE}{_SQUARE},{_SQUARE}{_SQUARE}")

_TO_MOVE_LINE = re.compile(r"\s*(white|black) to move", re.IGNORECASE)

_SYMBOLS = {EMPTY: ".", WHITE: "W", BLACK: "B", ARROW: "x"}
_DIAGRAM_CONTENTS = {".": EMPTY, "W": WHITE, "B": BLACK, "x": ARROW, "X": ARROW}


def queen_reach(square: int, occupied: int, ray_masks: tuple[int, ...]) -> int:
    """The bitboard of squares a queen on ``square`` reaches when the squares
    of ``occupied`` block (``square`` itself may be in it or not).

    Unrolled over the eight directions of
    :data:`stargtp.engine.amazons.geometry.DIRECTIONS`: on an even ray the first
    blocker is the lowest set bit of ``ray & occupied``, and the squares before
    it are the ray bits below it; on an odd ray it is the highest set bit, and
    the squares before it are the ray bits above it.
    """
    i = square << 3
    ray = ray_masks[i]
    blockers = ray & occupied
    if blockers:
        ray &= (blockers & -blockers) - 1
    reach = ray
    ray = ray_masks[i + 1]
    blockers = ray & occupied
    if blockers:
        ray &= -(1 << blockers.bit_length())
    reach |= ray
    ray = ray_masks[i + 2]
    blockers = ray & occupied
    if blockers:
        ray &= (blockers & -blockers) - 1
    reach |= ray
    ray = ray_masks[i + 3]
    blockers = ray & occupied
    if blockers:
        ray &= -(1 << blockers.bit_length())
    reach |= ray
    ray = ray_masks[i + 4]
    blockers = ray & occupied
    if blockers:
        ray &= (blockers & -blockers) - 1
    reach |= ray
    ray = ray_masks[i + 5]
    blockers = ray & occupied
    if blockers:
        ray &= -(1 << blockers.bit_length())
    reach |= ray
    ray = ray_masks[i + 6]
    blockers = ray & occupied
    if blockers:
        ray &= (blockers & -blockers) - 1
    reach |= ray
    ray = ray_masks[i + 7]
    blockers = ray & occupied
    if blockers:
        ray &= -(1 << blockers.bit_length())
    return reach | ray


class ReachCounter:
    """How many squares a queen reaches, for many squares on one board, in
    a few operations each: the count without the reach itself
    (:func:`queen_reach` ``.bit_count()`` is the slow reference, and
    ``tests/test_amazons_position.py`` compares the two).

    The board is copied into eight *fields* of ``square_count + 1`` bits,
    one per direction, the top bit of each a guard that is always set. The
    fields of the directions towards higher squares hold the board as it
    is; the others hold it reversed (square ``s`` at ``square_count - 1 -
    s``), so that in every field a ray leaves its square towards higher
    bits. ``rays[s]`` holds square ``s``'s eight rays so placed. Then
    ``blocked = board & (rays[s] | guards)`` holds in each field the
    blockers of that ray and the guard, and ``blocked - lows`` (``lows``:
    the lowest bit of each field) turns on, in each field, exactly the bits
    below its lowest set bit, the first blocker, without a borrow crossing
    into the next field: ``(blocked - lows) & rays[s] & free`` is the
    reach, one field per direction.

    >>> from stargtp.engine.amazons.geometry import geometry
    >>> counter = ReachCounter(geometry(6))
    >>> board, free = counter.board(0)
    >>> counter.count(0, board, free), queen_reach(0, 0, geometry(6).ray_masks).bit_count()
    (15, 15)
    """

    __slots__ = ("rays", "guarded", "lows", "_bytes", "_extra", "_up", "_down", "_guards")

    def __init__(self, geo: Geometry) -> None:
        squares = geo.square_count
        field = squares + 1
        self._bytes = (squares + 7) // 8
        self._extra = 8 * self._bytes - squares

        up = down = guards = lows = 0
        for k in range(8):
            lows |= 1 << (k * field)
            guards |= 1 << (k * field + squares)
            if k % 2 == 0:
                up |= 1 << (k * field)
            else:
                down |= 1 << (k * field)
        self._up, self._down, self._guards, self.lows = up, down, guards, lows
        rays = []
        for square in range(squares):
            packed = 0
            for k in range(8):
                ray = geo.ray_masks[square * 8 + k]
                if k % 2:
                    ray = reversed_bits(ray, self._bytes, self._extra)
                packed |= ray << (k * field)
            rays.append(packed)
        self.rays: tuple[int, ...] = tuple(rays)
        """Per square: its eight rays, one per field (see above)."""
        self.guarded: tuple[int, ...] = tuple(ray | guards for ray in rays)
        """``rays[s]`` with the guard bits."""

    def board(self, occupied: int) -> tuple[int, int]:
        """``(board, free)`` for :meth:`count`: the occupied squares copied
        into the eight fields with the guards, and its complement."""
        board = (occupied * self._up | reversed_bits(occupied, self._bytes, self._extra) * self._down
                 | self._guards)
        return board, ~board

    def count(self, square: int, board: int, free: int) -> int:
        """How many squares a queen on ``square`` reaches on ``board``
        (from :meth:`board`); ``square`` itself may be occupied or not. Hot
        loops inline this line."""
        return (((board & self.guarded[square]) - self.lows) & self.rays[square] & free).bit_count()


class ReachMemo:
    """:func:`queen_reach` with a memo, for one search's move ordering: the
    reach of a square depends only on the occupied squares of its eight
    rays (its *lines*), and a search asks again and again about the same
    few patterns (about four fifths of the move ordering's calls in the
    benchmark's searches repeat an earlier one), so each answer is kept
    under the occupied squares of the lines plus a bit naming the square.
    One memo per search: it grows by one entry per new pattern.

    >>> from stargtp.engine.amazons.geometry import geometry
    >>> memo = ReachMemo(geometry(6))
    >>> memo.reach(0, 0b10) == queen_reach(0, 0b10, geometry(6).ray_masks) == memo.reach(0, 0b110)
    True
    """

    __slots__ = ("geometry", "_lines", "_tags", "_ray_masks", "_memo")

    def __init__(self, geo: Geometry) -> None:
        self.geometry = geo
        rays = geo.ray_masks
        self._ray_masks = rays
        self._lines = tuple(rays[8 * s] | rays[8 * s + 1] | rays[8 * s + 2] | rays[8 * s + 3]
                            | rays[8 * s + 4] | rays[8 * s + 5] | rays[8 * s + 6] | rays[8 * s + 7]
                            for s in range(geo.square_count))
        self._tags = tuple(1 << (geo.square_count + s) for s in range(geo.square_count))
        """Per square, a bit above the board's that names it in the keys."""
        self._memo: dict[int, int] = {}

    def parts(self) -> tuple[tuple[int, ...], tuple[int, ...], dict[int, int], tuple[int, ...]]:
        """``(lines, tags, memo, ray_masks)``, for a hot loop that writes
        :meth:`reach` out: the key of ``square`` is ``(occupied &
        lines[square]) | tags[square]``, and a key not in ``memo`` gets
        ``queen_reach(square, occupied, ray_masks)`` stored under it."""
        return self._lines, self._tags, self._memo, self._ray_masks

    def reach(self, square: int, occupied: int) -> int:
        """``queen_reach(square, occupied, ray_masks)``."""
        key = (occupied & self._lines[square]) | self._tags[square]
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = queen_reach(square, occupied, self._ray_masks)
        return found


_BIT_REVERSED = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))
"""Each byte with its bits in the other order."""


def reversed_bits(bits: int, byte_count: int, extra: int) -> int:
    """``bits``, a number of ``8 * byte_count - extra`` bits, with bit ``i``
    moved to bit ``8 * byte_count - extra - 1 - i``: its bytes in the other
    order, each byte's bits reversed by a table.

    >>> bin(reversed_bits(0b0000000011, 2, 6))
    '0b1100000000'
    """
    return int.from_bytes(bits.to_bytes(byte_count, "big").translate(_BIT_REVERSED), "little") >> extra


@lru_cache(maxsize=None)
def reach_counter(size: int) -> ReachCounter:
    """The shared :class:`ReachCounter` of a board size."""
    return ReachCounter(geometry(size))


class Position:
    """An Amazons board of size 6, 8 or 10 (default 10), White to move first.

    Public state, read-only by convention: ``geometry``, ``board`` (contents of
    each square), ``to_move``, ``history``. Use :meth:`play` and :meth:`undo`
    to change it.
    """

    game = "amazons"

    __slots__ = ("geometry", "board", "to_move", "history", "_occupied", "_amazons",
                 "_movers", "_initial")

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.geometry: Geometry = geometry(size)  # raises BadSize
        board = [EMPTY] * self.geometry.square_count
        for colour in (WHITE, BLACK):
            for square in self.geometry.start[colour]:
                board[square] = colour
        self._set_up(board, WHITE)

    def _set_up(self, board: list[int], to_move: int) -> None:
        self.board: list[int] = board
        self.to_move: int = to_move
        self.history: list[tuple[int, Move]] = []
        """``(colour, move)`` pairs in the order played."""
        self._occupied = sum(1 << s for s, v in enumerate(board) if v != EMPTY)
        # Index by colour; slot 0 (EMPTY) stays empty. An amazon keeps its slot
        # when it moves, so move order is a function of the history alone.
        self._amazons: tuple[list[int], ...] = (
            [], [s for s, v in enumerate(board) if v == BLACK],
            [s for s, v in enumerate(board) if v == WHITE])
        self._movers: list[int] = []  # to_move before each move, so undo restores it
        self._initial: tuple[tuple[int, ...], int] = (tuple(board), to_move)

    @classmethod
    def from_diagram(cls, text: str, to_move: int | None = None) -> "Position":
        """A position set up from a diagram: one line per rank, top rank
        first, ``.`` empty, ``W`` white amazon, ``B`` black amazon, ``x`` arrow.
        Rank numbers, file-letter lines and other text lines are ignored, so
        :meth:`render_text` output reads back. The side to move is ``to_move``,
        else the one named in a ``... to move`` line, else White. Any number of
        amazons is allowed. ValueError on a malformed diagram; BadSize unless
        it has 6, 8 or 10 rows.

        >>> p = Position.from_diagram('''
        ...   W . . . x .
        ...   . . . . x .
        ...   x x x x x x
        ...   . . . . . .
        ...   . . . . . .
        ...   . . . . B .''', to_move=BLACK)
        >>> p.size, p.amazons(WHITE), p.format_square(p.amazons(BLACK)[0])
        (6, (30,), 'e1')
        """
        rows: list[list[int]] = []
        named_to_move = None
        for line in text.splitlines():
            named = _TO_MOVE_LINE.match(line)
            if named:
                named_to_move = WHITE if named.group(1).lower() == "white" else BLACK
            cells = "".join(re.sub(r"\d+", " ", line).split())
            if cells and all(c in _DIAGRAM_CONTENTS for c in cells):
                rows.append([_DIAGRAM_CONTENTS[c] for c in cells])
        size = len(rows)
        geometry(size)  # BadSize for a wrong number of rows
        if any(len(row) != size for row in rows):
            raise ValueError(f"every row of a {size}-row diagram needs {size} squares")
        board = [contents for row in reversed(rows) for contents in row]
        if to_move is None:
            to_move = named_to_move or WHITE
        return cls.from_board(board, to_move)

    @classmethod
    def from_board(cls, board: list[int], to_move: int = WHITE) -> "Position":
        """A position set up from square contents in square order (EMPTY,
        BLACK, WHITE or ARROW); the size is the square root of its length.
        ValueError on bad contents or colour; BadSize on a bad length."""
        size = round(len(board) ** 0.5)
        if size * size != len(board):
            raise BadSize(f"{len(board)} squares do not make a square board")
        geo = geometry(size)
        if any(v not in _SYMBOLS for v in board):
            raise ValueError("board contents must be EMPTY, BLACK, WHITE or ARROW")
        if to_move not in (BLACK, WHITE):
            raise ValueError(f"no such colour {to_move!r}")
        position = cls.__new__(cls)
        position.geometry = geo
        position._set_up(list(board), to_move)
        return position

    @property
    def size(self) -> int:
        """Side length of the board."""
        return self.geometry.size

    @property
    def occupied(self) -> int:
        """Bitboard of every square holding an amazon or an arrow."""
        return self._occupied

    def amazons(self, colour: int) -> tuple[int, ...]:
        """The squares of ``colour``'s amazons."""
        return tuple(self._amazons[colour])

    def piece_at(self, square: int) -> int:
        """EMPTY, BLACK, WHITE (an amazon) or ARROW."""
        return self.board[square]

    def key(self) -> tuple:
        """A hashable value equal for equal positions (board and side to move),
        whatever the history, e.g. for transposition tables."""
        return (self.size, self.to_move, tuple(self.board))

    @property
    def initial_board(self) -> tuple[tuple[int, ...], int]:
        """``(board, to_move)`` this position started from, before ``history``."""
        return self._initial

    def is_standard_start(self) -> bool:
        """Whether the position started from this size's usual start."""
        return self._initial == Position(self.size)._initial

    def setup(self) -> tuple[tuple[int, ...], int] | None:
        """``(board, to_move)`` the moves start from when that is not this
        size's usual start (a record with set-up), else None."""
        return None if self.is_standard_start() else self._initial

    # -- moves as text -------------------------------------------------------
    def format_square(self, square: int) -> str:
        return self.geometry.names[square]

    def parse_move(self, text: str) -> Move:
        """A move from text, in any case: ``d1-d7/g7`` (canonical), ``d1d7g7``,
        ``d1-d7-g7``, ``d1-d7xg7`` (Quarry writes and reads those two) or the
        chess-variant style ``d1d7,d7g7``. Only the syntax
        and the board edges are checked here, not legality. IllegalMove on
        anything else."""
        if not isinstance(text, str):
            raise IllegalMove(f"not an Amazons move: {text!r}")
        word = text.strip().lower()
        match = _MOVE_TEXT.fullmatch(word)
        if match is None:
            match = _UCI_TEXT.fullmatch(word)
            if match is None:
                raise IllegalMove(f"not an Amazons move: {text!r} (expected e.g. d1-d7/g7)")
            if match.group(3, 4) != match.group(5, 6):
                raise IllegalMove(f"{text!r}: the arrow must be shot from the square "
                                  f"the amazon moved to")
            parts = match.group(1, 2, 3, 4, 7, 8)
        else:
            parts = match.groups()
        parse = self.geometry.parse_square
        squares = [parse(parts[i] + parts[i + 1]) for i in (0, 2, 4)]
        return Move(*squares)

    def format_move(self, move: Move) -> str:
        """Canonical text ``d1-d7/g7``."""
        names = self.geometry.names
        return f"{names[move[0]]}-{names[move[1]]}/{names[move[2]]}"

    # -- rules ---------------------------------------------------------------
    def is_over(self) -> bool:
        """The side to move has no legal move. That is exactly when none of its
        amazons has an empty neighbour: an amazon that can step anywhere can
        always shoot back onto the square it left."""
        free = ~self._occupied
        king_masks = self.geometry.king_masks
        for square in self._amazons[self.to_move]:
            if king_masks[square] & free:
                return False
        return True

    def over_reason(self) -> str | None:
        """Why the game is over (``white has no move``), or None while it goes on."""
        return f"{colour_name(self.to_move)} has no move" if self.is_over() else None

    def winner(self) -> int | None:
        """The opponent of the side to move once the game is over, else None."""
        return opponent(self.to_move) if self.is_over() else None

    def winning_move(self) -> Move | None:
        """The first legal move (in :meth:`legal_moves` order) after which the
        opponent has no move, or None. A move fills two squares (its
        destination and its arrow) and frees one (where the amazon stood), so
        it can shut the opponent in only if its amazons' empty neighbours
        are at most two squares; otherwise this answers at once."""
        free = ~self._occupied
        king_masks = self.geometry.king_masks
        exits = 0
        for square in self._amazons[opponent(self.to_move)]:
            exits |= king_masks[square] & free
        if exits.bit_count() > 2:
            return None
        for move in self.legal_moves():
            self.play_unchecked(move)
            over = self.is_over()
            self.undo()
            if over:
                return move
        return None

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move: amazons in slot order, then
        destinations and arrows in square order."""
        moves: list[Move] = []
        append = moves.append
        occupied = self._occupied
        ray_masks = self.geometry.ray_masks
        for origin in self._amazons[self.to_move]:
            lifted = occupied ^ (1 << origin)
            targets = queen_reach(origin, occupied, ray_masks)
            while targets:
                low = targets & -targets
                targets ^= low
                target = low.bit_length() - 1
                arrows = queen_reach(target, lifted, ray_masks)
                while arrows:
                    low = arrows & -arrows
                    arrows ^= low
                    append(_new_move(Move, (origin, target, low.bit_length() - 1)))
        return moves

    def count_moves(self, colour: int | None = None) -> int:
        """The number of legal moves of ``colour`` (default: the side to move),
        counted without generating them; equal to ``len(legal_moves())``.

        For an amazon on ``f`` and a destination ``t`` the arrows are the
        squares ``t`` reaches once ``f`` is empty. Lifting ``f`` only changes
        the four lines through ``f``, and a destination lies on exactly one of
        them. So count ``A(t)``, the squares ``t`` reaches with ``f`` still
        blocking, and correct each line: if ``f`` sees ``a`` empty squares one
        way and ``b`` the other, a destination among the ``a`` gains the
        ``b + 1`` squares beyond ``f`` (``f`` included), so the line adds
        ``a(b + 1) + b(a + 1) = 2ab + a + b``. The sum of ``A(t)`` over all
        destinations is taken for all amazons at once by sliding each
        destination bitboard one step at a time in each direction and counting
        the survivors (destinations reached by two amazons sit in a second
        bitboard, and so on).
        """
        if colour is None:
            colour = self.to_move
        geo = self.geometry
        ray_masks = geo.ray_masks
        occupied = self._occupied
        total = 0
        layers: list[int] = []  # layers[j]: squares reached by more than j amazons
        for origin in self._amazons[colour]:
            i = origin << 3
            reach = 0
            for d in (0, 2, 4, 6):
                ahead = ray_masks[i + d]
                blockers = ahead & occupied
                if blockers:
                    ahead &= (blockers & -blockers) - 1
                behind = ray_masks[i + d + 1]
                blockers = behind & occupied
                if blockers:
                    behind &= -(1 << blockers.bit_length())
                a = ahead.bit_count()
                b = behind.bit_count()
                total += 2 * a * b + a + b
                reach |= ahead | behind
            for j, layer in enumerate(layers):
                if not reach:
                    break
                layers[j] = layer | reach
                reach &= layer
            if reach:
                layers.append(reach)
        if not layers:
            return total
        empty = geo.full_mask & ~occupied
        steps = geo.steps
        landing = geo.landing_masks
        for d in (0, 2, 4, 6):
            step = steps[d]
            open_squares = empty & landing[d]
            for walkers in layers:
                while True:
                    walkers = (walkers << step) & open_squares
                    if not walkers:
                        break
                    total += walkers.bit_count()
        for d in (1, 3, 5, 7):
            step = -steps[d]
            open_squares = empty & landing[d]
            for walkers in layers:
                while True:
                    walkers = (walkers >> step) & open_squares
                    if not walkers:
                        break
                    total += walkers.bit_count()
        return total

    def _problem(self, move, colour: int) -> str | None:
        """Why ``colour`` cannot play ``move`` here, or None if it can."""
        if colour not in (BLACK, WHITE):
            return f"no such colour {colour!r}"
        if self.is_over():
            return f"the game is over: {self.over_reason()}"
        count = self.geometry.square_count
        if (not isinstance(move, tuple) or len(move) != 3
                or not all(type(s) is int and 0 <= s < count for s in move)):
            return f"not a move on this board: {move!r}"
        origin, target, arrow = move
        names = self.geometry.names
        contents = self.board[origin]
        if contents != colour:
            if contents in (BLACK, WHITE):
                return f"the amazon on {names[origin]} is {colour_name(contents)}'s"
            return f"no {colour_name(colour)} amazon on {names[origin]}"
        problem = self._line_problem(origin, target, origin)
        if problem:
            return f"amazon {names[origin]}-{names[target]}: {problem}"
        problem = self._line_problem(target, arrow, origin)
        if problem:
            return f"arrow {names[target]}/{names[arrow]}: {problem}"
        return None

    def _line_problem(self, start: int, end: int, lifted: int) -> str | None:
        """Why a queen move from ``start`` to ``end`` is impossible, counting
        ``lifted`` as empty, or None if it is possible."""
        size = self.geometry.size
        names = self.geometry.names
        column_step = end % size - start % size
        row_step = end // size - start // size
        if column_step == 0 and row_step == 0:
            return "it must leave its square"
        if column_step and row_step and abs(column_step) != abs(row_step):
            return "not a queen line"
        distance = max(abs(column_step), abs(row_step))
        step = (column_step > 0) - (column_step < 0) + ((row_step > 0) - (row_step < 0)) * size
        board = self.board
        for k in range(1, distance + 1):
            square = start + k * step
            contents = board[square]
            if contents != EMPTY and square != lifted:
                what = "an arrow" if contents == ARROW else f"a {colour_name(contents)} amazon"
                where = "lands on" if k == distance else "is blocked by"
                return f"{where} {what} on {names[square]}"
        return None

    def is_legal(self, move, colour: int | None = None) -> bool:
        """Whether ``colour`` (default: the side to move) may play ``move``;
        never raises."""
        return self._problem(move, self.to_move if colour is None else colour) is None

    def play(self, move: Move, colour: int | None = None) -> None:
        """Play ``move`` for ``colour`` (default: the side to move); then the
        opponent of ``colour`` moves, so setting up a position with several
        moves of one colour works as the protocol expects. IllegalMove, and no
        change, if the move is not legal (including once the game is over)."""
        if colour is None:
            colour = self.to_move
        problem = self._problem(move, colour)
        if problem:
            raise IllegalMove(problem)
        self._push(Move(*move), colour)

    def play_unchecked(self, move: Move) -> None:
        """Play a move taken from :meth:`legal_moves` for the side to move,
        without checking it (for search and perft).

        .. warning:: an illegal move corrupts the position.
        """
        self._push(move, self.to_move)

    def _push(self, move: Move, colour: int) -> None:
        self._movers.append(self.to_move)
        self.place(colour, *move)
        self.history.append((colour, move))

    def place(self, colour: int, origin: int, target: int, arrow: int) -> None:
        """The board part of a move, for a search that takes its moves back
        itself (:meth:`lift`): ``colour``'s amazon steps and shoots, and the
        opponent is to move; no check and no history.

        .. warning:: an illegal move corrupts the position.
        """
        board = self.board
        board[origin] = EMPTY
        board[target] = colour
        board[arrow] = ARROW
        # XOR is right even when the arrow lands on the vacated origin.
        self._occupied ^= (1 << origin) ^ (1 << target) ^ (1 << arrow)
        squares = self._amazons[colour]
        squares[squares.index(origin)] = target
        self.to_move = 3 - colour

    def lift(self, colour: int, origin: int, target: int, arrow: int) -> None:
        """Take back the move :meth:`place` made last, ``colour`` to move."""
        board = self.board
        board[arrow] = EMPTY  # first: the arrow may stand on the origin
        board[target] = EMPTY
        board[origin] = colour
        self._occupied ^= (1 << origin) ^ (1 << target) ^ (1 << arrow)
        squares = self._amazons[colour]
        squares[squares.index(target)] = origin
        self.to_move = colour

    def undo(self) -> None:
        """Take back the last move exactly, side to move included; CannotUndo
        if there is none."""
        if not self.history:
            raise CannotUndo("no move to undo")
        colour, move = self.history.pop()
        self.lift(colour, *move)
        self.to_move = self._movers.pop()

    def copy(self) -> "Position":
        """An independent copy (history included) for search."""
        other = Position.__new__(Position)
        other.geometry = self.geometry
        other.board = self.board.copy()
        other.to_move = self.to_move
        other.history = self.history.copy()
        other._occupied = self._occupied
        other._amazons = tuple(squares.copy() for squares in self._amazons)
        other._movers = self._movers.copy()
        other._initial = self._initial
        return other

    def perft(self, depth: int) -> int:
        """The number of move sequences of length ``depth`` from here. The last
        level is counted with :meth:`count_moves` instead of being played."""
        if depth < 0:
            raise ValueError("perft depth must be >= 0")
        if depth == 0:
            return 1
        if depth == 1:
            return self.count_moves()
        total = 0
        for move in self.legal_moves():
            self._push(move, self.to_move)
            total += self.perft(depth - 1)
            self.undo()
        return total

    def render_text(self) -> str:
        """The board for humans, top rank first: ``W`` white amazon, ``B`` black
        amazon, ``x`` arrow, ``.`` empty; no empty lines. Reads back with
        :meth:`from_diagram`."""
        size = self.size
        files = "    " + " ".join(name[0] for name in self.geometry.names[:size])
        lines = [files]
        for rank in range(size, 0, -1):
            row = self.board[(rank - 1) * size:rank * size]
            lines.append(f"{rank:2d}  " + " ".join(_SYMBOLS[v] for v in row) + f"  {rank:d}")
        lines.append(files)
        played = len(self.history)
        status = f"{colour_name(self.to_move)} to move, {played} move{'' if played == 1 else 's'} played"
        if self.is_over():
            status += f"; game over, {colour_name(opponent(self.to_move))} wins"
        lines.append(status[0].upper() + status[1:])
        return "\n".join(lines)

    def __repr__(self) -> str:
        moves = " ".join(f"{'BW'[c - 1]}:{self.format_move(m)}" for c, m in self.history)
        return f"<amazons.Position size={self.size} {moves}>"
