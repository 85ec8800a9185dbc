"""The Amazons on a terminal: the board with rank 1 at the bottom, the last
move and the hint highlighted; moves completed one part at a time; the list
of the amazons that can move."""

from __future__ import annotations

from typing import Any

from stargtp.engine.colour import BLACK, EMPTY, WHITE, colour_name
from stargtp.protocol.tools.console.drawing import HINT_STYLE, Fragments, TerminalBoard, style, wrap_parts
from stargtp.protocol.tools import plural

STYLES: dict[str, str] = {
    "hint": HINT_STYLE,
    "amazon-black": "#ff7b7b bold",
    "amazon-white": "#7ba7ff bold",
    "arrow": "#d4a017 bold",
    "last-from": "bg:#4a4a4a",
    "last-to": "reverse",
    "coordinate": "#8a8a8a",
}


def amazons_picture(position, *, plain: bool, hint: Any = None, columns: int = 200) -> Fragments:
    """The Amazons board, rank 1 at the bottom: ``W``/``B`` amazons (blue and
    red in colour), ``x`` arrows; in colour the last move's squares and the
    hint's are highlighted. The status follows, in lines of at most ``columns``."""
    from stargtp.engine.amazons.geometry import ARROW

    geo = position.geometry
    size = geo.size
    last = position.history[-1][1] if position.history else None
    files = "    " + " ".join(geo.names[c][0] for c in range(size))
    fragments: Fragments = [(style("coordinate"), files + "\n")]
    for rank in range(size, 0, -1):
        fragments.append((style("coordinate"), f"{rank:2d}  "))
        for column in range(size):
            square = (rank - 1) * size + column
            contents = position.board[square]
            symbol = {EMPTY: ".", WHITE: "W", BLACK: "B", ARROW: "x"}[contents]
            names = []
            if contents in (BLACK, WHITE):
                names.append(f"amazon-{colour_name(contents)}")
            elif contents == ARROW:
                names.append("arrow")
            if hint is not None and square in hint:
                names.append("hint")
            elif last is not None and square == last[0]:
                names.append("last-from")
            elif last is not None and square in (last[1], last[2]):
                names.append("last-to")
            fragments.append(("" if plain else style(*names), symbol))
            if column < size - 1:
                fragments.append(("", " "))
        fragments.append((style("coordinate"), f"  {rank}\n"))
    fragments.append((style("coordinate"), files + "\n"))
    status = [f"{colour_name(position.to_move)} to move, {plural(len(position.history), 'move')} played"]
    if last is not None:
        status.append(f"last: {colour_name(position.history[-1][0])} {position.format_move(last)}")
    if hint is not None:
        status.append(f"hint: {position.format_move(hint)}")
    fragments.append((style("info"), "\n".join(wrap_parts(status, columns))))
    return fragments


def picture(position, *, plain: bool, columns: int = 200, rows: int | None = None,
            hint: Any = None, komi: float = 0.0) -> Fragments:
    """The board, whatever the terminal's size (10x10 is 25 columns)."""
    return amazons_picture(position, plain=plain, hint=None if hint is None else tuple(hint), columns=columns)


def complete(position, prefix: str) -> list[str]:
    """A move one part at a time: an amazon's square and ``-``, then the
    destination and ``/``, then the arrow's square."""
    names = position.geometry.names
    moves = position.legal_moves()
    if "/" in prefix:
        candidates = [f"{names[m[0]]}-{names[m[1]]}/{names[m[2]]}" for m in moves]
    elif "-" in prefix:
        candidates = list(dict.fromkeys(f"{names[m[0]]}-{names[m[1]]}/" for m in moves))
    else:
        candidates = list(dict.fromkeys(f"{names[m[0]]}-" for m in moves))
    return [c for c in candidates if c.startswith(prefix)]


def list_moves(position) -> str:
    """How many moves, and which amazons make them: all of them would fill the screen."""
    moves = position.legal_moves()
    origins = sorted({position.format_square(m[0]) for m in moves})
    by = "the amazon" if len(origins) == 1 else "amazons"
    return f"{plural(len(moves), 'legal move')}, by {by} on {' '.join(origins)}; Tab after a square lists its moves"


def heading(size: int) -> str:
    return f"Amazons, {size}x{size}"


BOARD = TerminalBoard(picture, complete, list_moves, heading, STYLES)
