"""The joint rating list (protocol/ratings.py) against numbers worked by hand.

Units: a rating difference ``d`` in log-odds is ``d * 400 / ln 10`` Elo
(173.72 Elo per unit). A pairing of ``n`` games at expected score ``p``
carries Fisher information ``n p (1 - p)`` about the difference.
"""

from __future__ import annotations

import math
import random

import pytest

from stargtp.protocol.ratings import ELO_PER_NATURAL_UNIT, NoRatingFit, fit_ratings
from stargtp.protocol.stats import Z_95


def by_name(ratings):
    return {r.name: r for r in ratings}


def phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def test_two_engines_the_fit_is_the_pairings_own_elo() -> None:
    # A scores 30/40: the difference is 400 log10(3) = 190.85 Elo, split
    # +-95.42 around the average. Information 40 * 0.75 * 0.25 = 7.5, so the
    # difference has variance 1/7.5 and each rating (half of it) 1/30.
    a, b = fit_ratings([("A", "B", 30.0, 40)])
    assert a.elo == pytest.approx(200 * math.log10(3)) and b.elo == pytest.approx(-a.elo)
    assert a.elo == pytest.approx(95.424, abs=1e-3)
    half_width = Z_95 * math.sqrt(1 / 30) * ELO_PER_NATURAL_UNIT
    assert half_width == pytest.approx(62.17, abs=0.01)
    assert (a.low, a.high) == (pytest.approx(a.elo - half_width), pytest.approx(a.elo + half_width))
    assert a.los_next == pytest.approx(phi(math.log(3) / math.sqrt(1 / 7.5)))
    assert a.los_next == pytest.approx(0.99869, abs=1e-5) and b.los_next is None
    assert (a.games, a.points, b.games, b.points) == (40, 30.0, 40, 10.0)


def test_games_given_one_by_one_add_up_to_the_pairing() -> None:
    games = [("A", "B", 1.0, 1)] * 30 + [("B", "A", 1.0, 1)] * 10
    assert fit_ratings(games) == fit_ratings([("A", "B", 30.0, 40)])


def test_a_chain_of_three() -> None:
    # A-B and B-C only, 30/40 each: every difference is its pairing's own,
    # A +190.85, B 0, C -190.85. The information is 7.5 times the path's
    # Laplacian, whose pseudo-inverse has 5/9 at the ends and 2/9 in the
    # middle: variances 5/9/7.5 and 2/9/7.5.
    ratings = fit_ratings([("A", "B", 30.0, 40), ("B", "C", 30.0, 40)])
    assert [r.name for r in ratings] == ["A", "B", "C"]
    a, b, c = ratings
    assert (a.elo, b.elo, c.elo) == (pytest.approx(400 * math.log10(3)), pytest.approx(0, abs=1e-9),
                                     pytest.approx(-400 * math.log10(3)))
    assert a.high - a.elo == pytest.approx(Z_95 * math.sqrt(5 / 9 / 7.5) * ELO_PER_NATURAL_UNIT)
    assert a.high - a.elo == pytest.approx(92.67, abs=0.01)
    assert b.high - b.elo == pytest.approx(58.61, abs=0.01)
    # The variance of A - B is 1/7.5 (its own pairing), as for two engines.
    assert a.los_next == pytest.approx(phi(math.log(3) / math.sqrt(1 / 7.5)))


def test_a_cycle_is_even() -> None:
    ratings = fit_ratings([("A", "B", 3.0, 4), ("B", "C", 3.0, 4), ("C", "A", 3.0, 4)])
    assert all(r.elo == pytest.approx(0, abs=1e-9) and r.points == 4.0 and r.games == 8 for r in ratings)
    assert [r.los_next for r in ratings] == [pytest.approx(0.5), pytest.approx(0.5), None]


def test_the_fit_gives_every_engine_its_actual_score() -> None:
    # The maximum-likelihood condition: each engine's expected points, summed
    # over its games at the fitted ratings, are the points it scored.
    rng = random.Random(5)
    names = ["a", "b", "c", "d", "e"]
    games = []
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            n = rng.randint(2, 12)
            games.append((x, y, rng.randint(1, 2 * n - 1) / 2, n))
    ratings = by_name(fit_ratings(games))
    for name in names:
        expected = 0.0
        for x, y, _, n in games:
            if name in (x, y):
                other = y if name == x else x
                difference = (ratings[name].elo - ratings[other].elo) / 400
                expected += n / (1 + 10 ** -difference)
        assert expected == pytest.approx(ratings[name].points, abs=1e-9)
    assert sum(r.elo for r in ratings.values()) == pytest.approx(0, abs=1e-9)


def test_perfect_scores_need_a_prior() -> None:
    with pytest.raises(NoRatingFit, match="no finite ratings"):
        fit_ratings([("A", "B", 4.0, 4), ("B", "C", 2.0, 4)])
    with pytest.raises(NoRatingFit):  # engines that never met
        fit_ratings([("A", "B", 2.0, 4), ("C", "D", 2.0, 4)], prior_draws=1)
    # One virtual draw: A's 30/40 counts as 30.5/41, a 30.5:10.5 odds ratio.
    a, b = fit_ratings([("A", "B", 30.0, 40)], prior_draws=1)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(30.5 / 10.5))
    assert (a.games, a.points) == (40, 30.0)  # the virtual games are not shown
    a, b, c = fit_ratings([("A", "B", 4.0, 4), ("B", "C", 2.0, 4)], prior_draws=1)
    assert a.name == "A" and a.elo - b.elo == pytest.approx(400 * math.log10(4.5 / 0.5))
