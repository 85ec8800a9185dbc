"""The command registry: command name -> handler, and the errors handlers raise.

A handler takes the argument tuple and returns the result text, or raises. A
:class:`GtpError` becomes a ``?`` response with its message; the engine's typed
errors map to the standard GTP texts in :func:`failure_message`. An illegal
move keeps the standard text first and says why after it
(``illegal move: S20 is occupied``), so controllers that match on the prefix
still work. ``list_commands`` and ``known_command`` read the registry, so they
can never drift from it.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from stargtp.engine.errors import BadSize, CannotUndo, GameError, IllegalMove

SyncHandler = Callable[[tuple[str, ...]], str]
AsyncHandler = Callable[[tuple[str, ...]], Awaitable[str]]
Handler = SyncHandler | AsyncHandler


class GtpError(Exception):
    """A command failed; ``str(error)`` is the text after ``?``."""


def syntax_error(detail: str) -> GtpError:
    """A ``syntax error: detail`` failure."""
    return GtpError(f"syntax error: {detail}")


def with_reason(standard: str, error: Exception) -> str:
    """A standard failure text followed by the error's reason, if it has one:
    ``illegal move: S20 is occupied``.

    >>> with_reason("cannot score", ValueError("the game is not over"))
    'cannot score: the game is not over'
    >>> with_reason("illegal move", ValueError())
    'illegal move'
    """
    reason = str(error)
    return f"{standard}: {reason}" if reason else standard


def failure_message(error: Exception) -> str | None:
    """The GTP text for an expected failure, or None for an unexpected exception
    (which the caller reports as an internal error)."""
    if isinstance(error, GtpError):
        return str(error)
    if isinstance(error, IllegalMove):
        return with_reason("illegal move", error)
    if isinstance(error, CannotUndo):
        return "cannot undo"
    if isinstance(error, BadSize):
        return "unacceptable size"
    if isinstance(error, GameError):
        return str(error) or type(error).__name__
    return None


@dataclass(frozen=True, slots=True)
class Entry:
    """A registered command."""

    handler: Handler
    is_async: bool
    """True for handlers that must run off the immediate path (genmove, perft):
    they return an awaitable and the session waits for it."""
    games: tuple[str, ...] | None = None
    """The games the command works in; None: every game."""
    streaming: bool = False
    """The handler also takes a stream and writes its response as it goes
    (``lz-analyze``)."""


class CommandRegistry:
    """Maps command names (case-sensitive) to handlers."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}

    def register(self, name: str, handler: Handler, games: tuple[str, ...] | None = None,
                 streaming: bool = False) -> None:
        """Add a command; a name can be registered only once. ``games``: the
        games it works in (None: all); ``streaming``: see :class:`Entry`."""
        if name in self._entries:
            raise ValueError(f"command {name!r} registered twice")
        if not name or any(ch.isspace() or ch == "#" for ch in name):
            raise ValueError(f"bad command name {name!r}")
        self._entries[name] = Entry(handler, inspect.iscoroutinefunction(handler), games, streaming)

    def get(self, name: str) -> Entry | None:
        """The entry for a name, or None for an unknown command."""
        return self._entries.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._entries

    def names(self, game: str | None = None) -> list[str]:
        """Every command name, sorted, as ``list_commands`` shows them; with
        ``game``, only the commands that work in that game."""
        return sorted(name for name, entry in self._entries.items()
                      if game is None or entry.games is None or game in entry.games)
