"""What every game's terminal board shares: prompt_toolkit formatted text,
style names, and :class:`TerminalBoard`, what a game's console module offers
to the table in :mod:`stargtp.protocol.tools.console.board`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Fragments = list[tuple[str, str]]
"""prompt_toolkit formatted text: ``(style, text)`` pairs."""

HINT_STYLE = "bg:#2e8b57 #ffffff bold"
"""The hinted move, in every game."""


@dataclass(frozen=True)
class TerminalBoard:
    """One game on a terminal, as the table of :mod:`stargtp.protocol.tools.console.board` holds it."""

    picture: Callable[..., Fragments]
    """``(position, *, plain, columns, rows, hint, komi)``: the board for a
    terminal ``columns`` wide and ``rows`` high (None: as high as it takes),
    then its status; ``hint`` is a move to show, or None."""
    complete: Callable[[Any, str], list[str]]
    """``(position, prefix)``: the texts of the side to move's legal moves
    that start with ``prefix`` (lower case)."""
    list_moves: Callable[[Any], str]
    """``(position)``: the legal moves on one line, for people."""
    heading: Callable[[int], str]
    """``(size)``: the game and board size, for the console's first line."""
    styles: dict[str, str]
    """The style classes the picture uses (prompt_toolkit style rules)."""


def style(*names: str) -> str:
    """prompt_toolkit's style text for the class ``names`` (empty ones skipped)."""
    return " ".join(f"class:{name}" for name in names if name)


def plain_text(fragments: Fragments) -> str:
    """The text of ``fragments``, without styles."""
    return "".join(text for _, text in fragments)


def grid_fragments(grid) -> Fragments:
    """A grid of ``(style, character)`` rows as formatted text: runs of one
    style merged, each row's trailing blanks dropped, each row ending with a
    newline.

    >>> grid_fragments([[("a", "x"), ("a", "y"), ("", " ")], [("b", "z")]])
    [('a', 'xy'), ('', '\\n'), ('b', 'z'), ('', '\\n')]
    """
    fragments: Fragments = []
    for line in grid:
        while line and line[-1] == ("", " "):
            line = line[:-1]
        for look, char in line:
            if fragments and fragments[-1][0] == look and not fragments[-1][1].endswith("\n"):
                fragments[-1] = (look, fragments[-1][1] + char)
            else:
                fragments.append((look, char))
        fragments.append(("", "\n"))
    return fragments


def wrap_parts(parts: list[str], columns: int, separator: str = " | ") -> list[str]:
    """``parts`` joined by ``separator`` into as few lines of at most
    ``columns`` characters as it takes, never breaking a part (a part longer
    than a line has one to itself).

    >>> wrap_parts(["black: 2 stars", "white: 1 star", "score B+3"], 32)
    ['black: 2 stars | white: 1 star', 'score B+3']
    """
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(separator) + len(part) <= columns:
            lines[-1] += separator + part
        else:
            lines.append(part)
    return lines
