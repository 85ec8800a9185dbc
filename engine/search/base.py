"""What every player shares: search limits, the result of a search, and the
small parameter system that the command line and the protocol both use."""

from __future__ import annotations

import math
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
    stop_early: bool = False
    """Also stop as soon as the answer cannot change any more: when the
    search's lead (:meth:`Budget.watch`) is more than the playouts left
    (:func:`playouts_left`). Off, a search runs its whole budget, so a fixed
    playout count with a seed repeats exactly; on under a playout limit
    alone, the search still gives the move the whole count would have given
    (only the tree kept for the next move is smaller)."""


def playouts_left(done: int, playouts: int | None, seconds_left: float | None,
                  rate: float | None) -> float:
    """How many more playouts a search may still run: what is left of the
    playout limit, or the rate so far (playouts per second) times the time
    left, whichever is fewer; infinite without either limit or, under a time
    limit, before a rate is known.

    >>> playouts_left(1000, 5000, None, None)
    4000
    >>> playouts_left(1000, None, 0.25, 8000.0)      # 0.25 s at 8,000/s
    2000.0
    >>> playouts_left(1000, 1500, 0.25, 8000.0)
    500
    """
    left: float = math.inf
    if playouts is not None:
        left = max(0, playouts - done)
    if seconds_left is not None and rate is not None:
        left = min(left, max(0.0, seconds_left) * rate)
    return left


def cannot_change(lead: float, left: float) -> bool:
    """The early stop's rule: the answer is settled when its lead, the
    fewest further playouts that could change it, is more than the playouts
    left. Each playout adds one visit to one choice at each level, so even
    if every one of them went to the runner-up it would at most draw level
    (and a draw may be decided by wins: hence *more* than).

    >>> cannot_change(501, 500), cannot_change(500, 500), cannot_change(10, math.inf)
    (True, False, False)
    """
    return lead > left


def root_lead(visits: list[int] | tuple[int, ...]) -> float:
    """The visit gap between the most and the second most visited of a
    node's choices: infinite for a single choice, which no playout can
    change.

    >>> root_lead([3, 40, 0, 12]), root_lead([7]), root_lead([5, 5])
    (28, inf, 0)
    """
    if len(visits) < 2:
        return math.inf
    first = second = 0
    for n in visits:
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second


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


SETTLE_EVERY = 16
"""Playouts between two looks at whether the answer can still change."""


class Budget:
    """Counts playouts against :class:`Limits` and a stop callback. The clock
    and the callback are consulted every ``CHECK_EVERY`` playouts so that
    stopping is prompt without costing much; with ``stop_early``, whether the
    answer is settled every ``SETTLE_EVERY``."""

    CHECK_EVERY = 16

    def __init__(self, limits: Limits, default_playouts: int,
                 should_stop: Callable[[], bool]) -> None:
        self.playouts = limits.playouts
        if self.playouts is None and limits.seconds is None:
            self.playouts = default_playouts
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds
        self.should_stop = should_stop
        self.stop_early = limits.stop_early
        self.done = 0
        self.stopped_early = False
        """Whether the search stopped because its answer could not change."""
        self._lead: Callable[[], float] | None = None
        self._next_check = 0
        self._next_settle = 0
        self._rate_from: tuple[int, float] | None = None

    def watch(self, lead: Callable[[], float]) -> None:
        """What the early stop watches: ``lead()`` is the fewest further
        playouts that could change the search's answer (for a tree, the visit
        gap between its most visited move and the runner-up)."""
        self._lead = lead

    def more(self) -> bool:
        """True while the search may run another playout."""
        done = self.done
        if self.playouts is not None and done >= self.playouts:
            return False
        if done >= self._next_check:
            self._next_check = done + self.CHECK_EVERY
            if self.out_of_time():
                return False
        if self.stop_early and done >= self._next_settle:
            self._next_settle = done + SETTLE_EVERY
            if self.settled():
                self.stopped_early = True
                return False
        return True

    def out_of_time(self) -> bool:
        """Told to stop, or past the deadline (ignores the playout count)."""
        if self.should_stop():
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def settled(self) -> bool:
        """Whether the answer can no longer change in the playouts left
        (:func:`cannot_change`). Under a time limit the playouts left are
        estimated from the rate since the first look, which comes after the
        first playout (so a root's set-up does not count against the rate)."""
        if self._lead is None:
            return False
        seconds_left = rate = None
        if self.deadline is not None:
            now = time.monotonic()
            if self._rate_from is None:
                self._rate_from = (self.done, now)
            else:
                since, then = self._rate_from
                if now > then and self.done > since:
                    rate = (self.done - since) / (now - then)
            seconds_left = self.deadline - now
        return cannot_change(self._lead(), playouts_left(self.done, self.playouts, seconds_left, rate))


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


GAME_DEFAULT = "game"
"""The text of a parameter value that the game decides (``resign game``)."""


def win_rate_or_game(text: str) -> float | None:
    """A win rate from 0 to 1, or ``game`` (None): the game's own default."""
    if text.strip().lower() == GAME_DEFAULT:
        return None
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise ValueError(text)
    return value


win_rate_or_game.__name__ = "a win rate from 0 to 1 or game"


def count_or_game(text: str) -> int | None:
    """A whole number of at least 1, or ``game`` (None): the game's own default."""
    if text.strip().lower() == GAME_DEFAULT:
        return None
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


count_or_game.__name__ = "a whole number of at least 1 or game"


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
    if value is None:
        return GAME_DEFAULT
    return str(value)
