"""The early stop of a search whose answer can no longer change
(``Limits.stop_early``, engine/search/base.py): the rule with exact numbers,
the budget that applies it (with a fake clock for the time-limited case), and
the two tree searches, whose early-stopped move must be the move of the full
search with the same seed."""

from __future__ import annotations

import math
import random

import pytest

from stargtp.engine.amazons import Position as AmazonsPosition
from stargtp.engine.players import make_player
from stargtp.engine.search import Limits
from stargtp.engine.search import base
from stargtp.engine.search.base import Budget, cannot_change, playouts_left, root_lead
from stargtp.engine.star import Position as StarPosition


def test_the_rule_with_exact_numbers() -> None:
    assert playouts_left(0, 5000, None, None) == 5000
    assert playouts_left(4990, 5000, None, None) == 10
    assert playouts_left(6000, 5000, None, None) == 0
    assert playouts_left(100, None, 0.5, 2000.0) == 1000.0
    assert playouts_left(100, 300, 0.5, 2000.0) == 200          # the fewer of the two
    assert playouts_left(100, None, -1.0, 2000.0) == 0.0         # past the deadline
    assert playouts_left(100, None, 0.5, None) == math.inf       # no rate yet
    assert playouts_left(100, None, None, None) == math.inf
    # More than the playouts left: even all of them on the runner-up would only draw level.
    assert cannot_change(11, 10) and not cannot_change(10, 10) and not cannot_change(9, 10)
    assert not cannot_change(10**9, math.inf)
    assert root_lead([0, 0, 0]) == 0
    assert root_lead([10, 3, 7]) == 3
    assert root_lead([3, 10, 10]) == 0
    assert root_lead([12]) == math.inf and root_lead([]) == math.inf


def run_budget(limits: Limits, lead: float, playouts_per_second: float | None = None,
               monkeypatch: pytest.MonkeyPatch | None = None) -> Budget:
    """Spend a budget as a search does (one playout, then ``more()`` before
    each further one), with a constant lead; with ``playouts_per_second`` the
    clock reads ``done / playouts_per_second``."""
    budget_box: list[Budget] = []
    if playouts_per_second is not None:
        class FakeTime:
            @staticmethod
            def monotonic() -> float:
                return budget_box[0].done / playouts_per_second if budget_box else 0.0
        monkeypatch.setattr(base, "time", FakeTime)
    budget = Budget(limits, 0, lambda: False)
    budget_box.append(budget)
    budget.watch(lambda: lead)
    while budget.done == 0 or budget.more():
        budget.done += 1
        assert budget.done < 10**6
    return budget


def test_a_playout_budget_stops_at_the_first_look_that_finds_the_lead_safe() -> None:
    # Looks after playouts 1, 17, 33, ...: the first with 100 > 1000 - done is 913.
    budget = run_budget(Limits(playouts=1000, stop_early=True), lead=100)
    assert budget.done == 913 and budget.stopped_early
    # A lead that never exceeds the playouts left: the whole budget.
    budget = run_budget(Limits(playouts=1000, stop_early=True), lead=0)
    assert budget.done == 1000 and not budget.stopped_early
    # Without stop_early the lead is never looked at.
    budget = run_budget(Limits(playouts=1000), lead=10**9)
    assert budget.done == 1000 and not budget.stopped_early


def test_a_time_budget_estimates_the_playouts_left_from_the_rate(monkeypatch) -> None:
    # 1,000 playouts a second for 10 s: at ``done`` playouts, 10,000 - done are
    # left. A lead of 5,000 is safe from done = 5,001; the looks come at 1 + 16k.
    budget = run_budget(Limits(seconds=10.0, stop_early=True), lead=5000, playouts_per_second=1000.0,
                        monkeypatch=monkeypatch)
    assert budget.done == 5009 and budget.stopped_early
    budget = run_budget(Limits(seconds=10.0), lead=5000, playouts_per_second=1000.0,
                        monkeypatch=monkeypatch)
    assert budget.done == 10001 and not budget.stopped_early  # the clock's look after 10,000


def star_positions() -> list[StarPosition]:
    found = []
    rng = random.Random(11)
    for size, stones in ((4, 0), (4, 12), (5, 20), (6, 30)):
        position = StarPosition(size)
        for _ in range(stones):
            position.play(rng.choice(position.legal_moves()))
        found.append(position)
    return found


def amazons_positions() -> list[AmazonsPosition]:
    found = []
    rng = random.Random(12)
    for plies in (0, 6, 14):
        position = AmazonsPosition(6)
        for _ in range(plies):
            position.play(rng.choice(position.legal_moves()))
        found.append(position)
    return found


@pytest.mark.parametrize("player, positions, playouts", [
    ("uct", star_positions, 3000),
    ("amazons-mcts", amazons_positions, 1500),
])
def test_an_early_stop_plays_the_move_of_the_full_search(player, positions, playouts) -> None:
    stopped_early = 0
    for seed, position in enumerate(positions()):
        full = make_player(player, seed=seed).genmove(position, Limits(playouts=playouts))
        early = make_player(player, seed=seed).genmove(position, Limits(playouts=playouts, stop_early=True))
        again = make_player(player, seed=seed).genmove(position, Limits(playouts=playouts, stop_early=True))
        assert full.playouts == playouts
        assert early.move == full.move, (seed, position.history)
        assert (again.move, again.playouts) == (early.move, early.playouts)  # still deterministic
        assert early.playouts <= playouts
        stopped_early += early.playouts < playouts
    assert stopped_early >= 2


def test_a_kept_tree_can_settle_the_next_move_at_once() -> None:
    # The tree kept from the last move already gives the answer a lead that the
    # next search's playouts cannot close: it stops at its first look, with the
    # move that the same player searching all its playouts plays.
    answers = []
    for stop_early in (False, True):
        position = StarPosition(4)
        player = make_player("uct", seed=3, leaf_playouts="1")
        first = player.genmove(position, Limits(playouts=4000))
        position.play(first.move)
        position.play(first.pv[1])
        # The kept root's most visited move leads the runner-up by 83 visits.
        answers.append(player.genmove(position, Limits(playouts=80, stop_early=stop_early)))
    full, early = answers
    assert (full.playouts, early.playouts) == (80, 1)
    assert early.move == full.move
