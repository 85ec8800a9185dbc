"""What every player shares: search limits, the result of a search, and the
small parameter system that the command line and the protocol both use."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Limits:
    """When a search must stop. With neither set, the player's own default
    playout count applies."""

    playouts: int | None = None
    """Stop after this many playouts (tree iterations for tree players)."""
    seconds: float | None = None
    """Stop after this much wall-clock time."""


@dataclass
class SearchResult:
    """The answer of one search."""

    move: Any
    """A legal move of the position (for *Star possibly PASS); None means resign."""
    playouts: int = 0
    winrate: float | None = None
    """Estimated chance of winning for the side that moved."""
    pv: list = field(default_factory=list)
    """The expected continuation, starting with ``move``."""
    root: dict = field(default_factory=dict)
    """Root statistics ``move -> (visits, wins)`` for merging the results of
    several workers (root parallelism); empty for players without them."""
    variations: dict = field(default_factory=dict)
    """For analysis: ``move -> expected continuation`` (starting with the
    move) for the most visited root moves."""
    ownership: list = field(default_factory=list)
    """For analysis (player parameter ``ownership``): ``(point, share)`` pairs,
    the share of playouts in which black owned each scoring point at the end
    (*Star: pericells, in board order)."""


class Budget:
    """Counts playouts against :class:`Limits` and a stop callback. The clock
    and the callback are consulted every few playouts so that stopping is prompt
    without costing much."""

    def __init__(self, limits: Limits, default_playouts: int,
                 should_stop: Callable[[], bool]) -> None:
        self.playouts = limits.playouts
        if self.playouts is None and limits.seconds is None:
            self.playouts = default_playouts
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds
        self.should_stop = should_stop
        self.done = 0
        self._next_check = 0

    def more(self) -> bool:
        """True while the search may run another playout."""
        if self.playouts is not None and self.done >= self.playouts:
            return False
        if self.done >= self._next_check:
            self._next_check = self.done + 16
            if self.should_stop():
                return False
            if self.deadline is not None and time.monotonic() >= self.deadline:
                return False
        return True


def follows(history: list, earlier: list) -> bool:
    """True when ``history`` starts with ``earlier``: the game went on from
    the earlier position (so a tree or a count kept from then still applies)."""
    return len(history) >= len(earlier) and history[:len(earlier)] == earlier


def start_key(position) -> tuple:
    """What a game's moves start from: game, size and, for a set-up position
    (an Amazons record with set-up), the board they start from."""
    return (position.game, position.size, position.setup())


def never_stop() -> bool:
    return False


class Player:
    """Base class: a named set of typed parameters and ``genmove``.

    Subclasses list their parameters in ``PARAMS`` as name -> (type, default);
    values arrive as text from the command line or the protocol.
    """

    name = "player"
    PARAMS: dict[str, tuple[type, Any]] = {}
    GAMES: tuple[str, ...] | None = None
    """The games this player can play; None: every game."""

    def __init__(self, seed: int | None = None, **params: str) -> None:
        self.seed = seed
        self.values: dict[str, Any] = {name: default for name, (_, default) in self.PARAMS.items()}
        for name, value in params.items():
            self.set_param(name, value)

    def set_param(self, name: str, value: str) -> None:
        """Set one parameter from its text; ValueError for an unknown name or a bad value."""
        if name not in self.PARAMS:
            known = ", ".join(sorted(self.PARAMS)) or "none"
            raise ValueError(f"unknown parameter {name!r} for player {self.name} (known: {known})")
        kind, _ = self.PARAMS[name]
        parsed = self.check_param(name, parse_value(kind, str(value)))  # ValueError: no change
        changed = self.values.get(name) != parsed
        self.values[name] = parsed
        if changed:
            self.param_changed(name)

    @classmethod
    def plays(cls, game: str) -> bool:
        """Whether this player can play ``game``."""
        return cls.GAMES is None or game in cls.GAMES

    def check_param(self, name: str, value: Any) -> Any:
        """A parsed value as it will be stored; subclasses refuse values out of
        range with ValueError (nothing changes) or normalise them."""
        return value

    def param_changed(self, name: str) -> None:
        """Called after parameter ``name`` took a different value (for example
        to drop a tree grown under the old settings)."""

    def params(self) -> dict[str, str]:
        return {name: format_value(value) for name, value in self.values.items()}

    def genmove(self, position, limits: Limits, should_stop: Callable[[], bool] = never_stop) -> SearchResult:
        raise NotImplementedError


def parse_value(kind: type, text: str) -> Any:
    if kind is bool:
        word = text.strip().lower()
        if word in ("1", "on", "true", "yes"):
            return True
        if word in ("0", "off", "false", "no"):
            return False
        raise ValueError(f"expected on/off, not {text!r}")
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"expected {kind.__name__}, not {text!r}") from None
    if kind is int and value < 0:  # counts; floats (komi, constants) may be negative
        raise ValueError(f"expected a non-negative number, not {text!r}")
    return value


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
