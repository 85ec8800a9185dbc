"""SGF game records for *Star (``GM[2004]``): write a position's moves, read
a record back into a position.

SGF registers no number for *Star (its ``GM`` list stops at 40, Kropki, and
the property's range is 1..5000), so these records use ``GM[2004]``, the year
*Star was published: inside the range, far above every registered number.
docs/rules-star.md ("Records (SGF)") gives the reasons for every choice here.

**Moves.** A move is the cell's label, upper case, as the protocol writes
it: ``B[S43]``, ``W[*10]``, ``B[R00]`` (ring 10 is written ``0``). A pass is
the empty value, as in Go: ``B[]``; ``B[pass]`` (any case) is read too. SGF
``B`` is black, who moves first, and ``W`` is white: no colour swap, in moves
and in ``RE``. Out-of-turn moves (GTP's way to set up a position) are ordinary nodes
with the colour that played them.

**Root.** ``SZ[n]`` is the number of rings, 2..10 (10 when absent). ``KM`` is
the komi, added to white's score (0 when absent; written only when it is not
0). ``RE`` is the result in the protocol's form (``B+3``, ``W+0.5``, ``B+0``
when the quarks decide a zero margin, ``0`` for a tie); the writer gives the
``result`` it is handed, or else, for a finished game, the score with the
record's komi, as ``final_score`` answers it.

**Set-up.** A position that does not start from the empty board with black
to move (``stargtp-setup``) is written in the root as HexGui and Go write
set-up: ``AB`` and ``AW`` with the cell labels, and ``PL`` (always), after
``RE``. Reading takes ``AB``, ``AW``, ``AE`` and ``PL`` in the root and in
the nodes before the first move; without ``PL`` black moves when the
colours have as many stones, else white. Set-up after a move is refused.

**Reading.** Only the main line is read (the first child at every branch;
:func:`stargtp.engine.sgf.read_tree` reads the variations too);
``GM[2004]`` must be there; every move must be legal (no move after the
game is over); a bad ``SZ`` or ``KM`` is refused. Every failure is an
:class:`SgfError` (a GameError) saying why.

>>> from stargtp.engine.star.position import Position
>>> p = Position(3); p.play(p.parse_move("S31")); p.play(PASS)
>>> print(write_sgf(p), end="")
(;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[3]
;B[S31]
;W[]
)
>>> read_sgf(write_sgf(p)).history == p.history
True
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

# The SGF syntax (the main-line parser, value unescaping) and its error are
# game-neutral; they live with the Amazons records, which came first.
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.sgf import (RecordCodec, SgfError, escape, parse_main_line, properties_text, read_line,
                                record_text, setup_properties)
from stargtp.engine.star.geometry import MAX_RINGS, MIN_RINGS
from stargtp.engine.star.position import PASS, Position
from stargtp.engine.star.scoring import score

__all__ = ["GM_NUMBER", "SgfError", "read_sgf", "write_sgf", "record_komi", "move_to_sgf",
           "move_from_sgf", "format_komi", "CODEC"]

GM_NUMBER = 2004
"""The ``GM[n]`` of *Star records (unregistered: see the module docstring)."""

DEFAULT_RINGS = 10
"""The size of a record without ``SZ`` (the protocol's default board)."""

_SGF_COLOUR = {BLACK: "B", WHITE: "W"}
_REAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")


def move_to_sgf(position: Position, move: int) -> str:
    """A move's SGF value: the cell label (``S43``), or empty for a pass."""
    return "" if move == PASS else position.format_move(move)


def move_from_sgf(position: Position, value: str) -> int:
    """The move of an SGF value: a label in any case, or a pass (empty or
    ``pass``). IllegalMove for a label that names no cell of the board;
    legality is not checked here."""
    text = value.strip()
    if text == "" or text.lower() == "pass":
        return PASS
    return position.geometry.parse(text)


def format_komi(komi: float) -> str:
    """``KM``'s value: the komi exactly, as an SGF real (no exponent).

    >>> format_komi(6.5), format_komi(-2.0), format_komi(1e-7)
    ('6.5', '-2', '0.0000001')
    """
    text = format(Decimal(repr(float(komi))), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def write_sgf(position: Position, result: str | None = None,
              properties: dict[str, str] | None = None, komi: float = 0.0) -> str:
    """The record of ``position``: its size, komi (when not 0), result, its
    set-up when it has one, and every move of its history, one node a line.
    ``result`` (``B+3``, ``W+R``: SGF and this engine name the colours
    alike) is written as ``RE``; without it a finished game gets its score's
    result with ``komi``, and an unfinished one no ``RE``. ``properties``
    adds root properties (``PB``, ``PW``, ``C``...) as given."""
    if result is None and position.is_over():
        result = score(position, komi).gtp_result()
    extra = f"RE[{escape(result)}]" if result is not None else ""
    moves = [(_SGF_COLOUR[colour], move_to_sgf(position, move)) for colour, move in position.history]
    return record_text(_head(position, komi, extra + properties_text(properties)), None, moves)


def _head(position: Position, komi: float, text: str) -> str:
    """The root node: the game, size, komi, ``text``, then the set-up."""
    root = f"(;GM[{GM_NUMBER}]FF[4]CA[UTF-8]AP[stargtp]SZ[{position.size}]"
    if komi:
        root += f"KM[{format_komi(komi)}]"
    root += text
    setup = position.setup()
    if setup is not None:
        board, to_move = setup
        root += setup_properties(board, to_move, position.format_move)
    return root


# -- reading ------------------------------------------------------------------


def _check_game(root: dict[str, list[str]]) -> None:
    if "GM" not in root:
        raise SgfError(f"the record names no game: a *Star record has GM[{GM_NUMBER}]"
                       " (SGF reads a record without GM as Go)")
    game = root["GM"][0].strip()
    if game != str(GM_NUMBER):
        raise SgfError(f"GM[{game}] is not *Star (GM[{GM_NUMBER}])")


def _rings(root: dict[str, list[str]]) -> int:
    text = root.get("SZ", [str(DEFAULT_RINGS)])[0].strip()
    if not text.isdigit():
        raise SgfError(f"bad SZ[{text}]: a *Star record's SZ is its number of rings,"
                       f" {MIN_RINGS}..{MAX_RINGS}")
    rings = int(text)
    if not MIN_RINGS <= rings <= MAX_RINGS:
        raise SgfError(f"SZ[{rings}]: a *Star board has {MIN_RINGS}..{MAX_RINGS} rings")
    return rings


def _komi(root: dict[str, list[str]]) -> float:
    if "KM" not in root:
        return 0.0
    text = root["KM"][0].strip()
    if not _REAL.fullmatch(text) or not math.isfinite(float(text)):
        raise SgfError(f"bad KM[{text}]: the komi is a number such as 0.5")
    return float(text)


def record_komi(text: str) -> float:
    """The komi of a *Star record (its root's ``KM``, 0 when absent);
    SgfError when the record is unreadable."""
    root = parse_main_line(text)[0]
    _check_game(root)
    return _komi(root)


def _start(root: dict[str, list[str]], values: list[str]) -> Position:
    """The empty board of the record's ``SZ`` (its ``GM`` checked)."""
    _check_game(root)
    return Position(_rings(root))


def _points(position: Position, value: str) -> list[int]:
    return [position.geometry.parse(value.strip())]


def _point_to_sgf(position: Position, cell: int) -> str:
    return position.format_move(cell)


CODEC = RecordCodec(start=_start, head=_head, move_to_sgf=move_to_sgf, move_from_sgf=move_from_sgf,
                    points=_points, point_to_sgf=_point_to_sgf, komi=_komi, own=frozenset({"KM"}))
"""What a *Star record means (:mod:`stargtp.engine.sgf` reads and writes trees with it)."""


def read_sgf(text: str) -> Position:
    """The position at the end of the record's main line, with its set-up and
    its moves as history. SgfError for anything unreadable, including an
    illegal move."""
    return read_line(text, CODEC)
