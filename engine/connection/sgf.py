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
any node before the first move; set-up after a move is refused.

**Options.** A record with ``swap-pieces`` is read with the swap rule on;
any other record with it off (a record does not say that swap was allowed
but not used).

Only the main line is read (the first child at every branch); every move
must be legal; every failure is an :class:`SgfError` (a GameError) saying why.
"""

from __future__ import annotations

from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.errors import IllegalMove
from stargtp.engine.sgf import SgfError, escape, node_move, parse_main_line, record_text

GM_NUMBER = 11
"""SGF's game number for Hex, which HexGui writes for Y boards too."""

Y_MARK = ("BOARD", "Y")
"""The private root property that marks a Y record: ``BOARD[Y]``."""

_SGF_COLOUR = {BLACK: "B", WHITE: "W"}
_OUR_COLOUR = {"B": BLACK, "W": WHITE}
_SETUP = ("AB", "AW", "AE", "PL")
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
    record's ``BOARD[Y]``), the result, its set-up as a node of ``AB``/``AW``/
    ``PL`` when it has one, and every move, one node a line. ``result`` is
    written as ``RE``; without it a finished game gets its winner's ``B+`` or
    ``W+``, an unfinished one no ``RE``. ``properties`` adds root properties."""
    from stargtp.engine.connection.scoring import score

    root = f"(;GM[{GM_NUMBER}]FF[4]CA[UTF-8]AP[stargtp]SZ[{position.size}]{mark}"
    if result is None and position.is_over():
        result = score(position).gtp_result()
    if result is not None:
        root += f"RE[{escape(result)}]"
    setup = position.setup()
    if setup is not None:
        board, to_move = setup
        node = ""
        for prop, colour in (("AB", BLACK), ("AW", WHITE)):
            cells = [position.format_move(c) for c, v in enumerate(board) if v == colour]
            if cells:
                node += prop + "".join(f"[{label}]" for label in cells)
        root += f"\n;{node}PL[{_SGF_COLOUR[to_move]}]"
    moves = [(_SGF_COLOUR[colour], position.format_move(move)) for colour, move in position.history]
    return record_text(root, properties, moves)


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


def read_record(text: str, position_class, y_board: bool):
    """The position at the end of a record's main line, as ``position_class``
    (Hex or Y, ``y_board`` saying which), its moves as history. SgfError for
    anything unreadable, including an illegal move."""
    rules = position_class.rules
    nodes = parse_main_line(text)
    root = nodes[0]
    if "GM" in root and root["GM"][0].strip() != str(GM_NUMBER):
        raise SgfError(f"GM[{root['GM'][0].strip()}] is not {rules.title} (GM[{GM_NUMBER}])")
    if is_y_record(root) and not y_board:
        raise SgfError(f"the record is of Y (BOARD[Y]), not {rules.title}")
    size = _size(root, rules.title, rules.sizes, rules.default_size)
    swapped = any(node_move(node, n) is not None
                  and node_move(node, n)[1].strip().lower() in position_class.SWAP_NAMES
                  for n, node in enumerate(nodes))
    position = position_class(size, swap=swapped)
    contents = [EMPTY] * position.geometry.cell_count
    to_move: int | None = None
    set_up = False
    resigned = False

    def set_up_position():
        """The position the set-up nodes describe, before the first move."""
        try:
            return position_class.from_setup(contents, to_move or _first_to_move(contents))
        except IllegalMove as exc:
            raise SgfError(f"the set-up: {exc}") from None

    for number, node in enumerate(nodes):
        setup = [prop for prop in _SETUP if prop in node]
        if setup:
            if position.history:
                raise SgfError(f"node {number}: {setup[0]} after a move: set-up is read only"
                               " before the first move")
            set_up = True
            for prop, colour in (("AB", BLACK), ("AW", WHITE), ("AE", EMPTY)):
                for value in node.get(prop, []):
                    contents[point_from_sgf(position, value)] = colour
            if "PL" in node:
                letter = node["PL"][0].strip().upper()[:1]
                if letter not in _OUR_COLOUR:
                    raise SgfError(f"node {number}: bad PL[{node['PL'][0]}]: B or W")
                to_move = _OUR_COLOUR[letter]
        move = node_move(node, number)
        if move is None:
            continue
        letter, value = move
        if resigned:
            raise SgfError(f"node {number}: {letter}[{value}] after a resignation")
        if value.strip().lower() == RESIGN:
            resigned = True
            continue
        if set_up and not position.history:
            position = set_up_position()
        where = f"move {len(position.history) + 1} ({letter}[{value}])"
        try:
            position.play(move_from_sgf(position, value), _OUR_COLOUR[letter])
        except IllegalMove as exc:
            raise SgfError(f"{where}: {exc}") from None
    if set_up and not position.history:
        position = set_up_position()
    return position


def _first_to_move(contents: list[int]) -> int:
    """Without ``PL``: black when the colours have as many stones, else white
    (as MoHex counts whose turn it is)."""
    return BLACK if contents.count(BLACK) <= contents.count(WHITE) else WHITE
