"""Time control: one model for the engine's clock and the match referee's.

:class:`TimeControl` is the settings (absolute or Fischer, Japanese or
Canadian byo-yomi, or none) together with the rules of the clock: what a
player has at the start (:meth:`TimeControl.start`), what a move of so many
seconds leaves (:meth:`TimeControl.charge`) and how long the next move may
take before the flag falls (:meth:`TimeControl.allowance`). A player's clock
is a :class:`TimeLeft`, in the terms of GTP's ``time_left``.

Two clocks use it:

* :class:`Clock`, the engine's clock in a server session: both colours, set by
  ``time_settings`` / ``kgs-time_settings``, charged with the time each search
  took, corrected by the controller's ``time_left``, and asked for the seconds
  the next search may use (:meth:`Clock.move_budget`);
* the match referee's clock (:mod:`stargtp.protocol.tools.match.referee`), the
  authority in a match, which announces the settings to the engines
  (:meth:`TimeControl.settings_commands`) and flags a player whose move takes
  longer than its allowance.

Pure: no clock is read here; the callers measure the time.

>>> clock = Clock()
>>> clock.set_control(TimeControl.canadian(600, 300, 25))
>>> round(clock.move_budget(1, moves_left=40), 2)    # (600/40 + 300/25) * 0.95 - 0.1
25.55
>>> clock.set_time_left(1, 30, 5)                    # byo-yomi: 30 s for 5 stones
>>> round(clock.move_budget(1, moves_left=40), 2)    # 30/5 * 0.95 - 0.1
5.6
>>> control = TimeControl.parse("5", byoyomi="10x3")  # the match's --time 5 --byoyomi 10x3
>>> control.describe(), control.allowance(control.start())
('5 s, byo-yomi 3 x 10 s', 35.0)
>>> control.charge(control.start(), 27)             # 5 s of main time, then 22 s: two periods used up
TimeLeft(seconds=10.0, stones=1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

NONE = "none"
ABSOLUTE = "absolute"
CANADIAN = "canadian"
BYOYOMI = "byoyomi"
"""Time systems. ``byoyomi`` is Japanese byo-yomi: periods of fixed length, one
used up each time a move overruns its period. ``absolute`` with an increment
is a Fischer clock."""

MIN_BUDGET = 0.05
"""Seconds a move gets even when the clock says nothing is left: a search that
answers at once still needs a few milliseconds."""

SAFETY_SECONDS = 0.1
"""Kept back from every budget for process start, messages and the network."""

SAFETY_FRACTION = 0.05
"""And this share of the budget, so that long budgets keep a larger reserve."""


@dataclass(slots=True)
class TimeLeft:
    """One player's clock as last reported or estimated."""

    seconds: float
    """Main time left, or while in byo-yomi the time left in the current period
    (Japanese) or for the current block (Canadian)."""
    stones: int = 0
    """0 while main time runs; in byo-yomi the stones left in the block
    (Canadian) or the periods left (Japanese, as KGS reports it)."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control. All times in seconds.

    * absolute: ``main``; Fischer: plus ``increment`` after each move;
    * Japanese byo-yomi (``BYOYOMI``): ``main``, then ``count`` periods of
      ``period`` seconds; a move that overruns its period uses up another;
    * Canadian (``CANADIAN``): ``main``, then ``count`` moves in each block of
      ``period`` seconds;
    * ``NONE``: no clock.
    """

    system: str = NONE
    main: float = 0.0
    """Main time, seconds."""
    period: float = 0.0
    """Byo-yomi time in seconds: per period (Japanese) or per block of stones
    (Canadian)."""
    count: int = 0
    """Canadian: stones per block. Japanese: number of periods."""
    increment: float = 0.0
    """Fischer: seconds added after each move (absolute time only)."""

    # -- reading the settings -------------------------------------------------
    @staticmethod
    def canadian(main: float, period: float, stones: int) -> TimeControl:
        """The reading of GTP's ``time_settings main byo stones``.

        GTP defines ``byo > 0`` with ``stones == 0`` as no time limit, and
        ``byo == 0`` as absolute time.
        """
        if period > 0 and stones == 0:
            return TimeControl()
        if period == 0:
            return TimeControl(ABSOLUTE, main)
        return TimeControl(CANADIAN, main, period, stones)

    @classmethod
    def parse(cls, main: str | None = None, byoyomi: str | None = None,
              canadian: str | None = None) -> TimeControl:
        """From the match's option texts ``MAIN[+INCREMENT]``,
        ``SECONDS[xPERIODS]`` and ``SECONDS/STONES``; ValueError on bad text
        (the message starts with the form expected) or a bad combination. A
        main time of 0 without byo-yomi is no clock.

        >>> TimeControl.parse("60+0.5").describe()
        '60 s + 0.5 s/move'
        >>> TimeControl.parse("60", canadian="30/5").describe()
        '60 s, then 5 moves per 30 s'
        """
        main_seconds, increment = 0.0, 0.0
        if main is not None:
            main_text, sep, increment_text = main.partition("+")
            main_seconds = _number(main_text)
            increment = _number(increment_text) if sep else 0.0
            if not (main_seconds >= 0 and increment >= 0):
                raise ValueError(f"MAIN[+INC]: expected seconds, e.g. 60 or 60+0.5 (not negative), not {main!r}")
        byo = None
        if byoyomi is not None:
            period_text, sep, periods_text = byoyomi.lower().partition("x")
            period, periods = _number(period_text), _whole(periods_text) if sep else 1
            if not (period > 0 and periods >= 1):
                raise ValueError(f"SECONDS[xPERIODS]: expected e.g. 10x3 (3 periods of 10 s; seconds > 0, "
                                 f"periods >= 1), not {byoyomi!r}")
            byo = cls(BYOYOMI, main_seconds, period, periods)
        if canadian is not None:
            block_text, sep, stones_text = canadian.partition("/")
            block, stones = _number(block_text), _whole(stones_text) if sep else 0
            if not (block > 0 and stones >= 1):
                raise ValueError(f"SECONDS/STONES: expected e.g. 30/5 (5 moves in every 30 s; seconds > 0, "
                                 f"stones >= 1), not {canadian!r}")
            if byo is not None:
                raise ValueError("choose Japanese or Canadian byo-yomi, not both")
            byo = cls(CANADIAN, main_seconds, block, stones)
        if byo is not None:
            if increment:
                raise ValueError("an increment does not combine with byo-yomi")
            return byo
        if main_seconds > 0:
            return cls(ABSOLUTE, main_seconds, increment=increment)
        if increment:
            raise ValueError("MAIN[+INC]: an increment needs a main time > 0")
        return cls()

    # -- what it is ------------------------------------------------------------
    @property
    def limited(self) -> bool:
        return self.system != NONE

    @property
    def kind(self) -> str:
        """``none``, ``absolute``, ``fischer``, ``byoyomi`` or ``canadian``."""
        if self.system == ABSOLUTE and self.increment:
            return "fischer"
        return self.system

    def describe(self) -> str:
        """For people: ``60 s + 0.5 s/move``, ``no clock``."""
        kind = self.kind
        if kind == NONE:
            return "no clock"
        text = f"{self.main:g} s"
        if kind == "fischer":
            text += f" + {self.increment:g} s/move"
        elif kind == BYOYOMI:
            text += f", byo-yomi {self.count} x {self.period:g} s"
        elif kind == CANADIAN:
            text += f", then {self.count} moves per {self.period:g} s"
        return text

    def settings_commands(self, knows_kgs: bool, whole_seconds: bool = False) -> list[str]:
        """What to tell an engine before a game (the inverse of
        :meth:`canadian` and ``kgs-time_settings``). Times are rounded up
        (:func:`gtp_seconds`), to the millisecond, or with ``whole_seconds``
        to whole seconds as GTP and GNU Go read them; rounding up means a
        short clock is never announced as zero (``time_settings 0 0 0`` would
        read as no time at all). GTP cannot express an increment: Fischer
        clocks are announced as absolute time and ``time_left`` shows the
        increments as they are added.

        >>> TimeControl.parse("0", byoyomi="0.5").settings_commands(True)
        ['kgs-time_settings byoyomi 0 0.5 1']
        >>> TimeControl.parse("0", byoyomi="0.5").settings_commands(True, whole_seconds=True)
        ['kgs-time_settings byoyomi 0 1 1']
        """
        def text(seconds: float) -> str:
            return gtp_seconds(seconds, whole_seconds, up=True)

        main = text(self.main)
        if self.system == ABSOLUTE:
            return [f"time_settings {text(max(self.main, 0.001))} 0 0"]  # never 0: no clock
        if self.system == CANADIAN:
            return [f"time_settings {main} {text(self.period)} {self.count}"]
        if self.system == BYOYOMI:
            if knows_kgs:
                return [f"kgs-time_settings byoyomi {main} {text(self.period)} {self.count}"]
            # Plain GTP has only Canadian byo-yomi; one stone per period is
            # the closest reading (it hides the extra periods from the engine).
            return [f"time_settings {main} {text(self.period)} 1"]
        return []

    def to_json(self) -> dict[str, Any]:
        """The settings as the match results file records them."""
        byoyomi, canadian = self.system == BYOYOMI, self.system == CANADIAN
        return {"kind": self.kind, "main": float(self.main), "increment": float(self.increment),
                "byoyomi": float(self.period) if byoyomi else 0.0, "periods": self.count if byoyomi else 0,
                "canadian_seconds": float(self.period) if canadian else 0.0,
                "canadian_stones": self.count if canadian else 0}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        """The inverse of :meth:`to_json` (a results file's header).

        >>> clock = TimeControl.parse("60", byoyomi="10x3")
        >>> TimeControl.from_json(clock.to_json()) == clock
        True
        """
        kind = data.get("kind", NONE)
        if kind == BYOYOMI:
            return cls(BYOYOMI, data["main"], data["byoyomi"], data["periods"])
        if kind == CANADIAN:
            return cls(CANADIAN, data["main"], data["canadian_seconds"], data["canadian_stones"])
        if kind in (ABSOLUTE, "fischer"):
            return cls(ABSOLUTE, data["main"], increment=data.get("increment", 0.0))
        return cls()

    # -- the rules of the clock -------------------------------------------------
    def start(self) -> TimeLeft:
        """A player's clock before the first move."""
        if self.main > 0 or self.system == ABSOLUTE:
            return TimeLeft(self.main, 0)
        return self._byoyomi_start()

    def _byoyomi_start(self) -> TimeLeft:
        """The clock at the moment main time runs out (or a block starts)."""
        if self.system in (CANADIAN, BYOYOMI):
            return TimeLeft(self.period, self.count)
        return TimeLeft(0.0, 0)

    def charge(self, left: TimeLeft, seconds: float) -> TimeLeft:
        """The clock after a move of ``seconds`` from ``left``. A move that
        fits in the main time left stays in main time; an overrun out of the
        last period (or block) is not charged further: the referee flags it,
        or forgives it within its tolerance."""
        if not self.limited:
            return left
        if left.stones == 0:
            remaining = left.seconds - seconds
            if remaining >= 0 or self.system == ABSOLUTE:
                return TimeLeft(max(remaining, 0.0) + self.increment, 0)
            # Main time ran out during this move; the overrun comes out of byo-yomi.
            left, seconds = self._byoyomi_start(), -remaining
        if self.system == CANADIAN:
            stones = left.stones - 1
            if stones == 0:
                return self._byoyomi_start()  # a new block starts
            return TimeLeft(max(left.seconds - seconds, 0.0), stones)
        if self.system == BYOYOMI:
            periods = left.stones
            if seconds > left.seconds:
                periods -= math.ceil((seconds - left.seconds) / self.period)
            return TimeLeft(self.period, max(periods, 1))
        return left

    def allowance(self, left: TimeLeft) -> float:
        """Seconds the next move may take from ``left`` before the flag falls
        (inf: no clock): what is left, plus in main time what byo-yomi adds."""
        if not self.limited:
            return math.inf
        if self.system == BYOYOMI:
            periods = self.count if left.stones == 0 else left.stones - 1
            return left.seconds + periods * self.period
        if self.system == CANADIAN and left.stones == 0:
            return left.seconds + self.period
        return left.seconds


def gtp_seconds(seconds: float, whole_seconds: bool = False, up: bool = False) -> str:
    """``seconds`` as a time in a GTP command: to the millisecond with the
    trailing zeros trimmed, or with ``whole_seconds`` as a whole number (the
    form GTP specifies and GNU Go parses). Rounded down (what is left is never
    overstated), or with ``up`` rounded up; never negative.

    >>> gtp_seconds(0.5), gtp_seconds(12.34567), gtp_seconds(600.0), gtp_seconds(0.0004), gtp_seconds(-1)
    ('0.5', '12.345', '600', '0', '0')
    >>> gtp_seconds(0.5, whole_seconds=True), gtp_seconds(0.5, whole_seconds=True, up=True)
    ('0', '1')
    >>> gtp_seconds(0.0004, up=True), gtp_seconds(1.005), gtp_seconds(0.3, up=True)
    ('0.001', '1.005', '0.3')
    """
    scale = 1 if whole_seconds else 1000
    # A millionth of a unit's slack, so that 1.005 (1004.9999... ms in binary) stays 1.005.
    ticks = seconds * scale
    count = max(math.ceil(ticks - 1e-6) if up else math.floor(ticks + 1e-6), 0)
    if whole_seconds:
        return str(count)
    whole, millis = divmod(count, 1000)
    return f"{whole}.{millis:03d}".rstrip("0").rstrip(".")


def _number(text: str) -> float:
    """``text`` as a finite float, or NaN."""
    try:
        value = float(text)
    except ValueError:
        return math.nan
    return value if math.isfinite(value) else math.nan


def _whole(text: str) -> int:
    """``text`` as an int, or 0."""
    try:
        return int(text)
    except ValueError:
        return 0


@dataclass
class Clock:
    """The engine's clock in a session: the time control and both colours'
    remaining time."""

    control: TimeControl = field(default_factory=TimeControl)
    left: dict[int, TimeLeft] = field(default_factory=dict)

    def set_control(self, control: TimeControl) -> None:
        """New settings; both clocks restart from them."""
        self.control = control
        self.left = {}

    def set_time_left(self, colour: int, seconds: float, stones: int) -> None:
        """The controller's ``time_left``, which replaces our own estimate."""
        self.left[colour] = TimeLeft(seconds, stones)

    def time_left(self, colour: int) -> TimeLeft:
        """What ``colour`` has left: reported, estimated, or the full settings."""
        known = self.left.get(colour)
        return known if known is not None else self.control.start()

    def record_usage(self, colour: int, seconds: float) -> None:
        """Charge a move's thinking time to ``colour`` until ``time_left`` says better."""
        if self.control.limited:
            self.left[colour] = self.control.charge(self.time_left(colour), seconds)

    def keeps_unused_time(self, colour: int) -> bool:
        """Whether time that the next move of ``colour`` leaves unused can be
        spent later: in main time, yes, and in a Canadian block before its
        last stone; not in a Japanese period, which starts afresh after every
        move, nor at a block's last stone. (A search that stops early where
        the time is lost anyway gives up strength for nothing.)

        >>> clock = Clock()
        >>> clock.set_control(TimeControl.canadian(0, 30, 5))
        >>> clock.keeps_unused_time(1), clock.set_time_left(1, 6, 1), clock.keeps_unused_time(1)
        (True, None, False)
        >>> clock.set_control(TimeControl(BYOYOMI, 60, 5, 3))
        >>> clock.keeps_unused_time(1), clock.set_time_left(1, 5, 3), clock.keeps_unused_time(1)
        (True, None, False)
        """
        left = self.time_left(colour)
        if not self.control.limited or left.stones == 0:  # no clock, or main time
            return True
        return self.control.system == CANADIAN and left.stones > 1

    def move_budget(self, colour: int, moves_left: int) -> float | None:
        """Seconds the next move of ``colour`` may take, or None without a clock.

        In main time: the remaining main time spread over the moves still
        expected, plus the byo-yomi that each move may also spend; in byo-yomi:
        the period's share. Less a safety margin, never below MIN_BUDGET.
        """
        control = self.control
        if not control.limited:
            return None
        left = self.time_left(colour)
        moves_left = max(1, moves_left)
        if left.stones == 0:
            share = left.seconds / moves_left
            if control.system == CANADIAN:
                share += control.period / control.count
            elif control.system == BYOYOMI:
                share += control.period
        elif control.system == CANADIAN:
            share = left.seconds / left.stones
        elif control.system == BYOYOMI:
            share = left.seconds
        else:
            share = left.seconds / moves_left
        budget = share * (1 - SAFETY_FRACTION) - SAFETY_SECONDS
        return max(MIN_BUDGET, budget)
