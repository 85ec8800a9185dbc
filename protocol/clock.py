"""Time control for one session: the settings a controller sends, what is left
for each colour, and how many seconds the next move may use.

Pure: no clock is read here. The session reports the time a search took with
:meth:`Clock.record_usage`, and the controller's ``time_left`` overrides it.

>>> clock = Clock()
>>> clock.set_control(TimeControl.canadian(600, 300, 25))
>>> round(clock.move_budget(1, moves_left=40), 2)    # (600/40 + 300/25) * 0.95 - 0.1
25.55
>>> clock.set_time_left(1, 30, 5)                    # byo-yomi: 30 s for 5 stones
>>> round(clock.move_budget(1, moves_left=40), 2)    # 30/5 * 0.95 - 0.1
5.6
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

NONE = "none"
ABSOLUTE = "absolute"
CANADIAN = "canadian"
BYOYOMI = "byoyomi"
"""Time systems. ``byoyomi`` is Japanese byo-yomi: periods of fixed length, one
used up each time a move overruns its period."""

MIN_BUDGET = 0.05
"""Seconds a move gets even when the clock says nothing is left: a search that
answers at once still needs a few milliseconds."""

SAFETY_SECONDS = 0.1
"""Kept back from every budget for process start, messages and the network."""

SAFETY_FRACTION = 0.05
"""And this share of the budget, so that long budgets keep a larger reserve."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """What ``time_settings`` or ``kgs-time_settings`` set."""

    system: str = NONE
    main: float = 0.0
    """Main time, seconds."""
    period: float = 0.0
    """Byo-yomi time in seconds: per period (Japanese) or per block of stones
    (Canadian)."""
    count: int = 0
    """Canadian: stones per block. Japanese: number of periods."""

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

    @property
    def limited(self) -> bool:
        return self.system != NONE


@dataclass(slots=True)
class TimeLeft:
    """One colour's clock as last reported or estimated."""

    seconds: float
    """Main time left, or while in byo-yomi the time left in the current period
    (Japanese) or for the current block (Canadian)."""
    stones: int = 0
    """0 while main time runs; in byo-yomi the stones left in the block
    (Canadian) or the periods left (Japanese, as KGS reports it)."""


@dataclass
class Clock:
    """The time control and both colours' remaining time."""

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
        if known is not None:
            return known
        control = self.control
        if control.main > 0 or control.system == ABSOLUTE:
            return TimeLeft(control.main, 0)
        return _enter_byoyomi(control)

    def record_usage(self, colour: int, seconds: float) -> None:
        """Charge a move's thinking time to ``colour`` until ``time_left`` says better."""
        control = self.control
        if not control.limited:
            return
        left = self.time_left(colour)
        if left.stones == 0:
            remaining = left.seconds - seconds
            if remaining > 0 or control.system == ABSOLUTE:
                self.left[colour] = TimeLeft(max(remaining, 0.0), 0)
                return
            # Main time ran out during this move; the overrun comes out of byo-yomi.
            left = _enter_byoyomi(control)
            seconds = -remaining
        if control.system == CANADIAN:
            remaining = left.seconds - seconds
            stones = left.stones - 1
            if stones == 0:
                left = _enter_byoyomi(control)  # a new block starts
            else:
                left = TimeLeft(max(remaining, 0.0), stones)
        elif control.system == BYOYOMI:
            periods = left.stones
            if seconds > left.seconds:
                periods -= max(1, math.ceil((seconds - left.seconds) / control.period))
            left = TimeLeft(control.period, max(periods, 1))
        self.left[colour] = left

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


def _enter_byoyomi(control: TimeControl) -> TimeLeft:
    """The clock at the moment main time runs out."""
    if control.system == CANADIAN:
        return TimeLeft(control.period, control.count)
    if control.system == BYOYOMI:
        return TimeLeft(control.period, control.count)
    return TimeLeft(0.0, 0)
