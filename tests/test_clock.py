"""The session clock: time systems, time left, usage and the per-move budget."""

from __future__ import annotations

import doctest

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.protocol import clock as clock_module
from stargtp.engine.games import find_game
from stargtp.protocol.clock import (ABSOLUTE, BYOYOMI, CANADIAN, MIN_BUDGET, NONE, Clock, TimeControl,
                                    TimeLeft)


def budget_of(share: float) -> float:
    """The documented margin: 5% and 0.1 s kept back, never below MIN_BUDGET."""
    return max(MIN_BUDGET, share * 0.95 - 0.1)


def test_doctests() -> None:
    assert doctest.testmod(clock_module).failed == 0


def test_gtp_time_settings_reading() -> None:
    assert TimeControl.canadian(600, 30, 0) == TimeControl(NONE)          # byo > 0, no stones: no limit
    assert TimeControl.canadian(600, 0, 0) == TimeControl(ABSOLUTE, 600)  # no byo-yomi: absolute
    assert TimeControl.canadian(0, 0, 0) == TimeControl(ABSOLUTE, 0)
    assert TimeControl.canadian(600, 30, 5) == TimeControl(CANADIAN, 600, 30, 5)


def test_no_clock_means_no_budget() -> None:
    clock = Clock()
    assert clock.move_budget(BLACK, 40) is None
    clock.record_usage(BLACK, 100)
    assert clock.move_budget(BLACK, 40) is None


def test_absolute_budget_spreads_main_time() -> None:
    clock = Clock()
    clock.set_control(TimeControl(ABSOLUTE, 400))
    assert clock.move_budget(BLACK, 40) == pytest.approx(budget_of(10))
    clock.record_usage(BLACK, 100)
    assert clock.time_left(BLACK) == TimeLeft(300, 0)
    assert clock.time_left(WHITE) == TimeLeft(400, 0)   # each colour has its own clock
    assert clock.move_budget(BLACK, 30) == pytest.approx(budget_of(10))
    clock.record_usage(BLACK, 1000)
    assert clock.move_budget(BLACK, 30) == MIN_BUDGET   # out of time: move at once


def test_canadian_main_time_adds_the_byoyomi_share() -> None:
    clock = Clock()
    clock.set_control(TimeControl(CANADIAN, 600, 300, 25))
    assert clock.move_budget(WHITE, 40) == pytest.approx(budget_of(600 / 40 + 300 / 25))


def test_canadian_byoyomi_blocks() -> None:
    clock = Clock()
    clock.set_control(TimeControl(CANADIAN, 10, 60, 3))
    clock.record_usage(BLACK, 16)  # main time gone, 6 s into the first block
    assert clock.time_left(BLACK) == TimeLeft(54, 2)
    assert clock.move_budget(BLACK, 40) == pytest.approx(budget_of(54 / 2))
    clock.record_usage(BLACK, 4)
    assert clock.time_left(BLACK) == TimeLeft(50, 1)
    clock.record_usage(BLACK, 20)  # last stone of the block: a fresh block starts
    assert clock.time_left(BLACK) == TimeLeft(60, 3)


def test_time_left_from_the_controller_wins() -> None:
    clock = Clock()
    clock.set_control(TimeControl(CANADIAN, 600, 300, 25))
    clock.set_time_left(BLACK, 30, 5)
    assert clock.move_budget(BLACK, 40) == pytest.approx(budget_of(6))
    clock.set_time_left(BLACK, 200, 0)
    assert clock.move_budget(BLACK, 20) == pytest.approx(budget_of(200 / 20 + 12))


def test_japanese_byoyomi() -> None:
    clock = Clock()
    clock.set_control(TimeControl(BYOYOMI, 0, 30, 5))
    assert clock.time_left(BLACK) == TimeLeft(30, 5)
    assert clock.move_budget(BLACK, 40) == pytest.approx(budget_of(30))
    clock.record_usage(BLACK, 20)      # within the period: nothing used up
    assert clock.time_left(BLACK) == TimeLeft(30, 5)
    clock.record_usage(BLACK, 70)      # overran into a third period: two used up
    assert clock.time_left(BLACK) == TimeLeft(30, 3)
    clock.set_control(TimeControl(BYOYOMI, 100, 30, 5))
    assert clock.move_budget(BLACK, 50) == pytest.approx(budget_of(100 / 50 + 30))


def test_set_control_restarts_both_clocks() -> None:
    clock = Clock()
    clock.set_control(TimeControl(ABSOLUTE, 100))
    clock.set_time_left(WHITE, 3, 0)
    clock.set_control(TimeControl(ABSOLUTE, 100))
    assert clock.time_left(WHITE) == TimeLeft(100, 0)


def test_budget_is_never_below_the_minimum() -> None:
    clock = Clock()
    clock.set_control(TimeControl(CANADIAN, 0, 1, 25))
    assert clock.move_budget(BLACK, 40) == MIN_BUDGET


@pytest.mark.parametrize("game, size, played, expected", [
    ("star", 10, 0, 97),      # ceil(275 * 0.7 / 2)
    ("star", 4, 0, 18),       # ceil(50 * 0.7 / 2) = ceil(17.5)
    ("star", 4, 40, 10),      # only 10 cells left: the floor of 10 moves
    ("amazons", 10, 0, 33),   # ceil(92 * 0.7 / 2)
    ("amazons", 10, 200, 10),
])
def test_estimate_moves_left(game: str, size: int, played: int, expected: int) -> None:
    estimate_moves_left = find_game(game).moves_left
    assert estimate_moves_left(size, played) == expected


def test_one_model_for_the_engine_clock_and_the_referee() -> None:
    # The match's option texts and GTP's settings read to the same control ...
    assert TimeControl.parse("600") == TimeControl.canadian(600, 0, 0) == TimeControl(ABSOLUTE, 600)
    assert TimeControl.parse("60", canadian="300/25") == TimeControl.canadian(60, 300, 25)
    assert TimeControl.parse("60", byoyomi="30x5") == TimeControl(BYOYOMI, 60, 30, 5)
    assert TimeControl.parse(None) == TimeControl() and not TimeControl.parse("0", None).limited
    # ... and what the referee announces reads back as what it keeps, also
    # under a second (the times go to the millisecond).
    for control in (TimeControl.parse("60"), TimeControl.parse("60", canadian="300/25"),
                    TimeControl.parse("0.5"), TimeControl.parse("0.25", canadian="1.5/3")):
        command, = control.settings_commands(False)
        main, period, stones = command.split()[1:]
        assert TimeControl.canadian(float(main), float(period), int(stones)) == control
    # The engine's clock charges a move by the same rules as the referee's.
    control = TimeControl.parse("5", byoyomi="10x3")
    clock = Clock()
    clock.set_control(control)
    clock.record_usage(BLACK, 27)  # 5 s of main time, then 22 s: two of the three periods used up
    assert clock.time_left(BLACK) == control.charge(control.start(), 27) == TimeLeft(10, 1)
    assert control.allowance(control.start()) == 35 and control.allowance(TimeLeft(10, 1)) == 10
    clock.set_control(TimeControl.parse("10+2"))  # Fischer: the increment comes after each move
    clock.record_usage(WHITE, 3)
    assert clock.time_left(WHITE) == TimeLeft(9, 0)


def test_a_move_that_fits_the_main_time_exactly_stays_in_main_time() -> None:
    for control in (TimeControl(BYOYOMI, 5, 10, 3), TimeControl(CANADIAN, 5, 30, 5)):
        assert control.charge(control.start(), 5) == TimeLeft(0, 0)
    assert TimeControl(BYOYOMI, 5, 10, 3).allowance(TimeLeft(0, 0)) == 30
    assert TimeControl(CANADIAN, 5, 30, 5).allowance(TimeLeft(0, 0)) == 30
    assert TimeControl().allowance(TimeControl().start()) == float("inf")
