"""SGF game records for Amazons (``GM[18]``): write a position's moves, read
a record back into a position.

**Points.** An SGF point is two lower-case letters, column then row, with
row ``a`` the **top** row. Our squares count ranks from White's side at the
bottom, so ``sgf row = size - rank`` (rank 1..size): on 10x10 ``d1`` is ``dj``
and ``d10`` is ``da``. A move is its three points, from, to, arrow, in one
property: ``d1-d7/g7`` is ``[djddgd]``.

**Colours.** The SGF Amazons spec calls the side that starts on d1, g1, a4, j4
and moves first ``B``; this engine calls it White. So SGF ``B`` is our WHITE
and SGF ``W`` is our BLACK, in moves (``B[...]``), setup (``AB``/``AW``),
``PL`` and ``RE``. Arrows are set up with ``AA``.

**Start.** Without setup properties a record starts from the usual start of
its ``SZ`` (default 10; SGF itself defines only the 10x10 start, so records
of other sizes are written with explicit ``AB``/``AW``). Setup properties are
read in the root node and the nodes before the first move, where they
replace the start position entirely (``PL`` alone keeps the usual start and
gives the move to the side it names).

Only the main line is read (the first child at every branch;
:func:`stargtp.engine.sgf.read_tree` reads the variations too); ``GM``
must be 18 if present; sizes other than 6, 8, 10, a point set up twice in a
node (``AB`` and ``AW`` on one point, say) and any move that is not legal
make the record unreadable (:class:`SgfError`).

>>> from stargtp.engine.amazons.position import Position
>>> p = Position(); p.play(p.parse_move("d1-d7/g7"))
>>> write_sgf(p).splitlines()[1]
';B[djddgd]'
>>> read_sgf(write_sgf(p)).format_move(read_sgf(write_sgf(p)).history[0][1])
'd1-d7/g7'
"""

from __future__ import annotations

from stargtp.engine.amazons.geometry import ARROW, SIZES, Geometry, geometry
from stargtp.engine.amazons.position import Move, Position
from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.sgf import RecordCodec, SgfError, escape, properties_text, read_line, record_text

_SGF_COLOUR = {WHITE: "B", BLACK: "W"}
"""Our colour -> SGF colour letter (the first mover is SGF ``B``)."""
_OUR_COLOUR = {"B": WHITE, "W": BLACK}


def sgf_colour(colour: int) -> str:
    """``"B"`` for WHITE (the first mover), ``"W"`` for BLACK."""
    return _SGF_COLOUR[colour]


def colour_from_sgf(letter: str) -> int:
    """WHITE for SGF ``B``, BLACK for SGF ``W``."""
    return _OUR_COLOUR[letter]


def point_to_sgf(square: int, geo: Geometry) -> str:
    """``d1`` on 10x10 -> ``dj``."""
    column, row = geo.column(square), geo.row(square)
    return chr(ord("a") + column) + chr(ord("a") + geo.size - 1 - row)


def point_from_sgf(text: str, geo: Geometry) -> int:
    """``dj`` on 10x10 -> ``d1``; SgfError if not a point of this board."""
    if len(text) != 2 or not all("a" <= c <= "z" for c in text):
        raise SgfError(f"not an SGF point: {text!r}")
    column = ord(text[0]) - ord("a")
    row = geo.size - 1 - (ord(text[1]) - ord("a"))
    if not geo.on_board(column, row):
        raise SgfError(f"SGF point {text!r} is off the {geo.size}x{geo.size} board")
    return geo.square(column, row)


def move_to_sgf(move: Move, geo: Geometry) -> str:
    """``d1-d7/g7`` -> ``djddgd``."""
    return "".join(point_to_sgf(square, geo) for square in move)


def move_from_sgf(text: str, geo: Geometry) -> Move:
    """``djddgd`` -> ``Move(d1, d7, g7)`` (legality is not checked here)."""
    if len(text) != 6:
        raise SgfError(f"an Amazons move is three SGF points, not {text!r}")
    return Move(*(point_from_sgf(text[i:i + 2], geo) for i in (0, 2, 4)))


def write_sgf(position: Position, result: str | None = None,
              properties: dict[str, str] | None = None) -> str:
    """The record of ``position``: its start (setup properties unless it is the
    10x10 start) and every move of its history. ``result`` (``W+5`` in this
    engine's colours) is written as ``RE`` in SGF colours; ``properties`` adds
    root properties such as ``PB``/``PW`` as given (note the colour swap)."""
    geo = position.geometry
    extra = f"RE[{escape(_result_to_sgf(result))}]" if result is not None else ""
    moves = [(sgf_colour(colour), move_to_sgf(move, geo)) for colour, move in position.history]
    return record_text(_head(position, 0.0, extra + properties_text(properties)), None, moves)


def _head(position: Position, komi: float, text: str) -> str:
    """The root node: the game, size, the start unless it is the 10x10
    start, then ``text``."""
    geo = position.geometry
    board, to_move = position.initial_board
    root = f"(;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[{geo.size}]"
    standard = Position(geo.size).initial_board
    if (board, to_move) != standard or geo.size != 10:
        for prop, contents in (("AB", WHITE), ("AW", BLACK), ("AA", ARROW)):
            points = [point_to_sgf(s, geo) for s, v in enumerate(board) if v == contents]
            if points:
                root += prop + "".join(f"[{p}]" for p in points)
        if not any(board):  # an empty board: a set-up property must say so, or it reads as the start
            corners = (geo.square(0, geo.size - 1), geo.square(geo.size - 1, 0))
            root += "AE[{}:{}]".format(*(point_to_sgf(square, geo) for square in corners))
        if to_move != WHITE:
            root += f"PL[{sgf_colour(to_move)}]"
    return root + text


def _result_to_sgf(result: str) -> str:
    """``W+5`` (our White) -> ``B+5`` (SGF's first mover), and back: the swap
    is its own inverse."""
    if result[:2] in ("W+", "B+"):
        return ("B" if result[0] == "W" else "W") + result[1:]
    return result


def result_from_sgf(value: str) -> str:
    """An SGF ``RE`` value in this engine's colours."""
    return _result_to_sgf(value)


# -- reading ------------------------------------------------------------------


def _points(values: list[str], geo: Geometry) -> list[int]:
    """Squares of a point list, compressed ``aa:cc`` rectangles included."""
    squares = []
    for value in values:
        if ":" in value:
            first, _, last = value.partition(":")
            a, b = point_from_sgf(first, geo), point_from_sgf(last, geo)
            columns = sorted((geo.column(a), geo.column(b)))
            rows = sorted((geo.row(a), geo.row(b)))
            squares += [geo.square(c, r) for r in range(rows[0], rows[1] + 1)
                        for c in range(columns[0], columns[1] + 1)]
        else:
            squares.append(point_from_sgf(value, geo))
    return squares


def _start(root: dict[str, list[str]], values: list[str]) -> Position:
    """The usual start of the record's ``SZ`` (its ``GM`` checked)."""
    game = root.get("GM", ["18"])[0].strip()
    if game != "18":
        raise SgfError(f"GM[{game}] is not Amazons (GM[18])")
    size_text = root.get("SZ", ["10"])[0].strip()
    columns, _, rows = size_text.partition(":")
    try:
        size = int(columns)
        if rows and int(rows) != size:
            raise SgfError(f"SZ[{size_text}]: only square boards are supported")
    except ValueError:
        raise SgfError(f"bad SZ[{size_text}]") from None
    if size not in SIZES:
        raise SgfError(f"SZ[{size}]: Amazons is played here on {SIZES} boards")
    return Position(size)


def _move_from_sgf(position: Position, value: str) -> Move:
    value = value.strip()
    if not value:
        raise SgfError("Amazons has no pass")
    return move_from_sgf(value, position.geometry)


def _move_to_sgf(position: Position, move: Move) -> str:
    return move_to_sgf(move, position.geometry)


def _set_up_points(position: Position, value: str) -> list[int]:
    return _points([value], position.geometry)


def _point_to_sgf(position: Position, square: int) -> str:
    return point_to_sgf(square, position.geometry)


def _white_moves(board) -> int:
    return WHITE


CODEC = RecordCodec(start=_start, head=_head, move_to_sgf=_move_to_sgf, move_from_sgf=_move_from_sgf,
                    points=_set_up_points, point_to_sgf=_point_to_sgf,
                    letters=tuple(_SGF_COLOUR.items()),
                    setup=(("AB", WHITE), ("AW", BLACK), ("AA", ARROW), ("AE", EMPTY)),
                    default_to_move=_white_moves)
"""What an Amazons record means (:mod:`stargtp.engine.sgf` reads and writes trees with it)."""


def read_sgf(text: str) -> Position:
    """The position at the end of the record's main line, with its moves as
    history. SgfError for anything unreadable, including an illegal move."""
    return read_line(text, CODEC)
