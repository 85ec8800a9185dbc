"""SGF game records of the connection games, as HexGui writes and reads
them (``hexgui/sgf/SgfWriter.java``, ``SgfReader.java``): ``GM[11]`` (SGF's
number for Hex) for both Hex and Y, since HexGui writes ``GM[11]`` for every
board it plays and refuses any other number. The game packages
(``engine/hex/sgf.py``, ``engine/y/sgf.py``) bind these functions to their
position class; docs/rules-hex.md and docs/rules-y.md ("Records (SGF)") give
every choice.

**Root.** ``SZ[N]`` is the board's size (HexGui also writes ``SZ[W:H]`` for
a board that is not square; a Hex record is read with ``W == H`` only). A
record without ``SZ`` has the game's default size. ``RE`` is the result as
``final_score`` gives it (``B+``, ``W+``), or the result handed to the
writer. A Y record carries the private root property ``BOARD[Y]`` (HexGui
names its Y board type ``Y``; it keeps unknown properties), so that a record
says which game it is: the Hex reader refuses a record with ``BOARD[Y]``; the
Y reader reads a record with or without it (HexGui's own Y records have
none).

**Moves.** ``B[c4]``, ``W[swap-pieces]``: HexGui's point names (column
letter, row number) and its name for the swap; ``swap`` and Little Golem's
two-letter points (``aa`` is ``a1``, ``cd`` is ``c4``) are read too, in any
case. ``resign`` (HexGui's name) ends the main line; a move after it is an
error. SGF ``B`` is black, who moves first, and ``W`` is white.

**Set-up.** A set-up position (``stargtp`` ``setup()``) is written as
HexGui saves a position: the root, then a node with ``AB``, ``AW`` and
``PL`` (the side to move). Reading takes ``AB``, ``AW``, ``AE`` and ``PL`` in
the root and the nodes before the first move (a point once per node);
set-up after a move is refused.

**Options.** A game with the swap rule on is written with the root
property ``RU[swap]`` (SGF's rules property; HexGui keeps it), so that a
game in which nobody swapped reads back with the rule on. A record is read
with the swap rule on when its ``RU`` names ``swap`` (a word of it, any
case) or a move is ``swap-pieces``; otherwise with it off. ``RU`` is the
game's own property: another ``RU`` value is not kept.

Only the main line is read (the first child at every branch;
:func:`stargtp.engine.sgf.read_tree` reads the variations too); every move
must be legal; every failure is an :class:`SgfError` (a GameError) saying why.
"""

from __future__ import annotations

import re

from stargtp.engine.colour import BLACK, WHITE
from functools import partial

from stargtp.engine.errors import IllegalMove
from stargtp.engine.sgf import RecordCodec, SgfError, escape, parse_main_line, properties_text, read_line, \
    record_text, setup_properties

GM_NUMBER = 11
"""SGF's game number for Hex, which HexGui writes for Y boards too."""

SWAP_RULE = ("RU", "swap")
"""The root property that says the swap rule is on: ``RU[swap]``."""

Y_MARK = ("BOARD", "Y")
"""The private root property that marks a Y record: ``BOARD[Y]``."""

_SGF_COLOUR = {BLACK: "B", WHITE: "W"}
RESIGN = "resign"


def is_y_record(root: dict[str, list[str]]) -> bool:
    """Whether a record's root carries ``BOARD[Y]`` (any case)."""
    return any(value.strip().upper() == Y_MARK[1] for value in root.get(Y_MARK[0], []))


def claims_record(text: str, y_board: bool) -> bool:
    """Whether a ``GM[11]`` record is the game's (``y_board``: Y's, else
    Hex's) by its root: ``BOARD[Y]`` marks Y's. An unreadable one is claimed,
    so that the reader says why."""
    try:
        return is_y_record(parse_main_line(text)[0]) == y_board
    except SgfError:
        return True


def write_record(position, result: str | None = None, properties: dict[str, str] | None = None,
                 mark: str = "") -> str:
    """The record of ``position``: ``GM[11]``, its size, ``mark`` (the Y
    record's ``BOARD[Y]``), the result, ``properties`` (more root
    properties), its set-up as a node of ``AB``/``AW``/``PL`` when it has
    one, and every move, one node a line. ``result`` is written as ``RE``;
    without it a finished game gets its winner's ``B+`` or ``W+``, an
    unfinished one no ``RE``."""
    from stargtp.engine.connection.scoring import score

    if result is None and position.is_over():
        result = score(position).gtp_result()
    extra = f"RE[{escape(result)}]" if result is not None else ""
    moves = [(_SGF_COLOUR[colour], position.format_move(move)) for colour, move in position.history]
    return record_text(head(position, 0.0, extra + properties_text(properties), mark), None, moves)


def head(position, komi: float, text: str, mark: str) -> str:
    """The root (``GM[11]``, size, ``mark``, ``text``), then the set-up's own node."""
    rule = f"{SWAP_RULE[0]}[{SWAP_RULE[1]}]" if position.swap else ""
    root = f"(;GM[{GM_NUMBER}]FF[4]CA[UTF-8]AP[stargtp]SZ[{position.size}]{rule}{mark}{text}"
    setup = position.setup()
    if setup is not None:
        board, to_move = setup
        root += "\n;" + setup_properties(board, to_move, position.format_move)
    return root


def point_from_sgf(position, value: str) -> int:
    """The cell of an SGF point: HexGui's ``c4`` or Little Golem's ``cd``, any
    case; SgfError when it names no cell of the board."""
    text = value.strip().lower()
    if len(text) == 2 and text.isalpha() and text.isascii():
        text = f"{text[0]}{ord(text[1]) - ord('a') + 1}"
    try:
        return position.geometry.parse(text)
    except IllegalMove:
        raise SgfError(f"{value.strip()!r} is no cell of this board") from None


def move_from_sgf(position, value: str) -> int:
    """The move of an SGF move value: a point, or ``swap-pieces``/``swap``."""
    if value.strip().lower() in position.SWAP_NAMES:
        return position.geometry.swap_move
    return point_from_sgf(position, value)


def _size(root: dict[str, list[str]], title: str, sizes: tuple[int, ...], default: int) -> int:
    if "SZ" not in root:
        return default
    text = root["SZ"][0].strip()
    parts = [part.strip() for part in text.split(":")]
    if not 1 <= len(parts) <= 2 or not all(part.isdigit() for part in parts) or len(set(parts)) != 1:
        raise SgfError(f"bad SZ[{text}]: a {title} record's SZ is one size, "
                       f"{min(sizes)}..{max(sizes)}")
    size = int(parts[0])
    if size not in sizes:
        raise SgfError(f"SZ[{size}]: {title} boards are {min(sizes)}..{max(sizes)} cells a side")
    return size


def start(root: dict[str, list[str]], values: list[str], position_class, y_board: bool):
    """The empty board of the record's size, with the swap rule when ``RU``
    names it or a move value is a swap (the ``GM`` and ``BOARD`` checked)."""
    rules = position_class.rules
    if "GM" in root and root["GM"][0].strip() != str(GM_NUMBER):
        raise SgfError(f"GM[{root['GM'][0].strip()}] is not {rules.title} (GM[{GM_NUMBER}])")
    if is_y_record(root) and not y_board:
        raise SgfError(f"the record is of Y (BOARD[Y]), not {rules.title}")
    size = _size(root, rules.title, rules.sizes, rules.default_size)
    ruled = any(SWAP_RULE[1] in re.split(r"[\s,;]+", value.strip().lower())
                for value in root.get(SWAP_RULE[0], []))
    swapped = any(value.strip().lower() in position_class.SWAP_NAMES for value in values)
    return position_class(size, swap=ruled or swapped)


def _points(position, value: str) -> list[int]:
    return [point_from_sgf(position, value)]


def _format(position, move: int) -> str:
    return position.format_move(move)


def _resigns(value: str) -> bool:
    return value.strip().lower() == RESIGN


def codec(position_class, y_board: bool, mark: str) -> RecordCodec:
    """What a record of Hex (``y_board`` False) or Y means, for
    :mod:`stargtp.engine.sgf`."""
    return RecordCodec(start=partial(start, position_class=position_class, y_board=y_board),
                       head=partial(head, mark=mark), move_to_sgf=_format, move_from_sgf=move_from_sgf,
                       points=_points, point_to_sgf=_format, own=frozenset({Y_MARK[0], SWAP_RULE[0]}),
                       ends_line=_resigns)


def read_record(text: str, record_codec: RecordCodec):
    """The position at the end of a record's main line (Hex or Y, as the
    codec says), its moves as history. SgfError for anything unreadable,
    including an illegal move."""
    return read_line(text, record_codec)
