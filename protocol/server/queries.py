"""The query commands a front end needs, for every game, under GNU Go's names:
``query_boardsize``, ``get_komi``, ``is_legal`` and ``all_legal``
(docs/protocol.md documents each one).

Like every command they are game-agnostic: they read the position API and the
game's descriptor (``position.rules``) only, and never change the session's
state. The piece-by-piece forms of ``all_legal`` (an Amazons move built click
by click: ``all_legal w d1``, then ``all_legal w d1-d7``) need nothing from
the descriptor either. A move's canonical text (``format_move``) is read as
*parts* separated by punctuation, and the answer is the next parts of the
legal moves whose text starts with the given ones (:func:`continuations`).
*Star's moves are one part each (``S43``, ``*40``), so it has no such forms.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from stargtp.engine.errors import GameError
from stargtp.engine.numbers import format_number
from stargtp.protocol.registry import syntax_error
from stargtp.protocol.server.arguments import Args, expect_count, parse_colour_arg

if TYPE_CHECKING:
    from stargtp.protocol.server.session import Session


_SEPARATOR = re.compile(r"(?<=[0-9A-Za-z])([^0-9A-Za-z]+)(?=[0-9A-Za-z])")
"""Punctuation between two letters or digits: what separates the parts of a
move's text. A leading ``*`` (``*40``) is part of a name, not a separator."""


def split_parts(text: str) -> list[str]:
    """A move text cut into its parts, with the separators between them.

    >>> split_parts("d1-d7/g7"), split_parts("*40"), split_parts("pass")
    (['d1', '-', 'd7', '/', 'g7'], ['*40'], ['pass'])
    """
    return _SEPARATOR.split(text)


# -- move lists -------------------------------------------------------------------


def legal_moves_of(position: Any, colour: int) -> list[Any]:
    """Every move ``colour`` may play now, in ``legal_moves()`` order: the
    moves for which ``position.is_legal(move, colour)`` holds (the tests check
    this). For the side to move that is ``legal_moves()``; for the other
    colour, the moves it would have if it were to move, generated on a copy
    whose side to move is ``colour``. Nothing once the game is over."""
    if colour == position.to_move:
        return position.legal_moves()
    if position.is_over():
        return []
    other = position.copy()
    other.to_move = colour
    return other.legal_moves()


def legal_texts(session: Session, colour: int) -> list[str]:
    """``all_legal COLOUR``: the canonical texts of ``colour``'s legal moves,
    then the game's move for a player with nothing to play (``no_move``:
    *Star's pass) when it is legal and not already listed."""
    position = session.state.position
    fmt = position.format_move
    texts = [fmt(move) for move in legal_moves_of(position, colour)]
    extra = position.rules.no_move(position, session.state.komi)
    if extra is not None and position.is_legal(extra, colour):
        text = fmt(extra)
        if text not in texts:
            texts.append(text)
    return texts


_TEMPLATES: dict[tuple[int, int], tuple[Any, list[str]]] = {}
"""``(id(rules), size) -> (rules, template)``: :func:`move_template`'s answers."""


def move_template(position: Any) -> list[str]:
    """The parts and separators of the move text with the most parts at this
    game's start (of this size), the first such in move order: the shape of
    a whole move, e.g. ``d1-a1/b1``. Computed once per game and size."""
    rules, size = position.rules, position.size
    cached = _TEMPLATES.get((id(rules), size))
    if cached is not None and cached[0] is rules:
        return cached[1]
    start = rules.new_position(size)
    best = [""]
    for move in start.legal_moves():
        pieces = split_parts(start.format_move(move))
        if len(pieces) > len(best):
            best = pieces
    _TEMPLATES[id(rules), size] = (rules, best)
    return best


def partial_prefix(position: Any, partial: str) -> str:
    """The canonical text that the legal moves continuing ``partial`` start
    with, separator included: ``d1`` -> ``d1-``, ``D1-d7`` -> ``d1-d7/``.

    ``partial`` is the first parts of a move, in any case and with any
    punctuation between them. It is checked by completing it with the rest of
    a move of the game's start and parsing that (``parse_move``: syntax and
    board edges), and written canonically by ``format_move``. A syntax error
    when the game's moves have no parts, or when ``partial`` is not the start
    of a move on this board."""
    template = move_template(position)
    whole = (len(template) + 1) // 2
    if whole < 2:
        raise syntax_error(f"{position.rules.title} moves have no parts")
    examples = " or ".join("".join(template[:2 * k - 1]) for k in range(1, whole))
    bad = syntax_error(f"expected the start of a move, such as {examples}")
    given = split_parts(partial)[::2]
    if len(given) >= whole:
        raise bad
    pieces = list(template)
    pieces[:2 * len(given):2] = given
    try:
        move = position.parse_move("".join(pieces))
    except GameError:
        raise bad from None
    canonical = split_parts(position.format_move(move))
    if len(canonical) != len(template):
        raise bad
    return "".join(canonical[:2 * len(given)])


def continuations(texts: list[str], prefix: str) -> list[str]:
    """The distinct next parts of the texts that start with ``prefix``, in the
    order they first come.

    >>> continuations(["d1-a1/b1", "d1-a1/c1", "d1-b1/a1", "d10-a1/b1"], "d1-")
    ['a1', 'b1']
    """
    cut = len(prefix)
    found: dict[str, None] = {}
    for text in texts:
        if text.startswith(prefix):
            rest = text[cut:]
            end = _SEPARATOR.search(rest)
            found[rest if end is None else rest[:end.start()]] = None
    return list(found)


# -- the commands -----------------------------------------------------------------


def query_boardsize(session: Session, args: Args) -> str:
    """The board size: *Star rings, the Amazons' side."""
    expect_count(args, 0)
    return str(session.state.position.size)


def get_komi(session: Session, args: Args) -> str:
    """The komi, written as ``final_score`` writes numbers (``6.5``, ``0``, ``-3``)."""
    expect_count(args, 0)
    return format_number(session.state.komi)


def is_legal(session: Session, args: Args) -> str:
    """``1`` if COLOUR may play MOVE now (``play COLOUR MOVE`` would succeed),
    else ``0``; text that is no move of this game on this board is ``0`` too,
    as in GNU Go. Only a bad colour or argument count is an error."""
    expect_count(args, 2)
    colour = parse_colour_arg(args[0])
    position = session.state.position
    try:
        move = position.parse_move(args[1])
    except GameError:
        return "0"
    return "1" if position.is_legal(move, colour) else "0"


def all_legal(session: Session, args: Args) -> str:
    """``all_legal COLOUR``: COLOUR's legal moves on one line, canonical text
    and order (whether or not COLOUR is the side to move).
    ``all_legal COLOUR PARTIAL``: for games whose moves have parts, the next
    parts of the legal moves that start with PARTIAL (Amazons: the
    destinations of an amazon, or the arrows after its move)."""
    expect_count(args, 1, 2)
    colour = parse_colour_arg(args[0])
    position = session.state.position
    if len(args) == 1:
        return " ".join(legal_texts(session, colour))
    prefix = partial_prefix(position, args[1])
    fmt = position.format_move
    return " ".join(continuations([fmt(move) for move in legal_moves_of(position, colour)], prefix))

