"""Match statistics against worked numbers and independent computations.

Each expected value is either written out by hand (with the arithmetic in a
comment) or computed here by a different method than protocol.stats uses
(a brute-force search of the likelihood, the quadratic whose roots define
the Wilson interval), with the source of the formula named.
"""

from __future__ import annotations

import math

import pytest

from stargtp.protocol.stats import (PENTANOMIAL_VALUES, TRINOMIAL_VALUES, Sprt, Tally, constrained_mle, elo_estimate,
                                    elo_from_score, llr_bayeselo, llr_logistic, llr_normal_approximation,
                                    score_from_elo, sprt_bounds, wilson_interval)

Z = 1.959963984540054  # 97.5% quantile of the standard normal (any table)


def test_elo_curve_worked_values() -> None:
    # Logistic Elo (Elo's rating system as used by cutechess-cli and fishtest):
    # E = 1 / (1 + 10^(-D/400)). D = 400 gives 10/11; E = 3/4 gives 400*log10(3).
    assert score_from_elo(400) == pytest.approx(10 / 11, abs=1e-15)
    assert score_from_elo(0) == 0.5
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3), abs=1e-12)  # 190.8485...
    assert elo_from_score(0.25) == pytest.approx(-400 * math.log10(3), abs=1e-12)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    for elo in (-700, -35.5, 0, 12.25, 300):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-9)


def test_wilson_interval_solves_its_defining_quadratic() -> None:
    # Wilson (1927): the bounds are the pi with |p - pi| = z sqrt(pi (1 - pi) / n),
    # i.e. the roots of (1 + z^2/n) pi^2 - (2p + z^2/n) pi + p^2 = 0.
    p, n = 7 / 10, 10
    a, b, c = 1 + Z * Z / n, -(2 * p + Z * Z / n), p * p
    root = math.sqrt(b * b - 4 * a * c)
    estimate = wilson_interval(7, 10)
    assert estimate.value == 0.7
    assert estimate.low == pytest.approx((-b - root) / (2 * a), abs=1e-12)
    assert estimate.high == pytest.approx((-b + root) / (2 * a), abs=1e-12)
    assert (round(estimate.low, 4), round(estimate.high, 4)) == (0.3968, 0.8922)
    # A draw counts half a point; a clean sweep still gets a proper interval.
    assert wilson_interval(3.5, 5).value == 0.7
    sweep = wilson_interval(10, 10)
    # p = 1: the quadratic's roots are 1 and n / (n + z^2).
    assert sweep.high == pytest.approx(1.0, abs=1e-12) and sweep.low == pytest.approx(10 / (10 + Z * Z), abs=1e-12)


def test_trinomial_elo_interval_worked_by_hand() -> None:
    # cutechess-cli's Elo estimate (its elo.cpp): mu = (W + D/2)/N, per-game
    # variance sum_i f_i (x_i - mu)^2, interval mu +- z*sigma/sqrt(N) mapped
    # through the Elo curve. For W=60, D=10, L=30:
    #   mu = 65/100 = 0.65
    #   var = 0.60*(0.35)^2 + 0.10*(0.15)^2 + 0.30*(0.65)^2 = 0.0735 + 0.00225 + 0.12675 = 0.2025
    #   sigma/sqrt(N) = 0.45 / 10 = 0.045
    tally = Tally(wins=60, draws=10, losses=30)
    low_score, high_score = 0.65 - Z * 0.045, 0.65 + Z * 0.045  # 0.56180..., 0.73819...
    estimate = elo_estimate(tally, "trinomial")
    assert estimate.value == pytest.approx(-400 * math.log10(1 / 0.65 - 1), abs=1e-9)  # +107.54
    assert estimate.low == pytest.approx(-400 * math.log10(1 / low_score - 1), abs=1e-9)  # +43.16
    assert estimate.high == pytest.approx(-400 * math.log10(1 / high_score - 1), abs=1e-9)  # +180.08
    assert (round(estimate.value, 2), round(estimate.low, 2), round(estimate.high, 2)) == (107.54, 43.16, 180.08)
    # cutechess-cli prints the half-width of that mapped interval: +-68.46.
    assert round((estimate.high - estimate.low) / 2, 2) == 68.46


def test_pentanomial_elo_interval_worked_by_hand() -> None:
    # Fishtest's pentanomial model: one observation per game pair, the pair's
    # per-game average score in {0, 1/4, 1/2, 3/4, 1}. Pairs (LL .. WW) =
    # (2, 4, 8, 4, 2): symmetric, so mu = 0.5, and
    #   var = (2*0.25 + 4*0.0625 + 8*0 + 4*0.0625 + 2*0.25) / 20 = 1.5 / 20 = 0.075
    #   se  = sqrt(0.075 / 20) = sqrt(0.00375) = 0.0612372...
    tally = Tally(pairs=(2, 4, 8, 4, 2))
    half = Z * math.sqrt(0.00375)
    estimate = elo_estimate(tally, "pentanomial")
    assert estimate.value == 0.0
    assert estimate.high == pytest.approx(-400 * math.log10(1 / (0.5 + half) - 1), abs=1e-9)
    assert estimate.low == pytest.approx(-estimate.high, abs=1e-9)
    assert round(estimate.high, 1) == 85.1  # 0.5 + 0.120023 = 0.620023 -> 400 log10(0.620023/0.379977)
    # The same 40 games counted one by one (trinomial) look noisier: the pair
    # model is the narrower one here because pairs split 1-1 often.
    games = Tally.from_scores([0.0] * 12 + [0.5] * 0 + [1.0] * 12 + [0.0] * 8 + [1.0] * 8)
    assert elo_estimate(games, "trinomial").high > estimate.high


def test_degenerate_and_empty_samples() -> None:
    assert math.isnan(elo_estimate(Tally(), "trinomial").value)
    sweep = elo_estimate(Tally(wins=5), "trinomial")
    assert sweep.value == math.inf and math.isnan(sweep.low) and math.isnan(sweep.high)
    assert llr_logistic(TRINOMIAL_VALUES, (0, 0, 0), 0, 10) == 0.0


def test_sprt_bounds_are_walds() -> None:
    # Wald (1945): A = ln((1 - beta)/alpha), B = ln(beta/(1 - alpha)).
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19), abs=1e-12) and upper == pytest.approx(math.log(19), abs=1e-12)
    lower, upper = sprt_bounds(0.05, 0.1)
    assert lower == pytest.approx(math.log(0.1 / 0.95)) and upper == pytest.approx(math.log(0.9 / 0.05))
    with pytest.raises(ValueError):
        sprt_bounds(0.6, 0.5)


def _max_log_likelihood_trinomial(counts: tuple[float, float, float], mean: float) -> float:
    """Brute force, independent of the Lagrange solution: with expectation
    ``mean`` fixed, a (loss, draw, win) law is fixed by its draw probability d:
    win = mean - d/2, loss = 1 - mean - d/2. The log-likelihood is concave in
    d, so a fine grid followed by ternary search finds its maximum."""
    losses, draws, wins = counts

    def log_likelihood(d: float) -> float:
        w, l = mean - d / 2, 1 - mean - d / 2
        if min(w, l, d) <= 0:
            return -math.inf
        return wins * math.log(w) + draws * math.log(d) + losses * math.log(l)

    top = 2 * min(mean, 1 - mean)
    grid = [top * i / 2000 for i in range(1, 2000)]
    best = max(grid, key=log_likelihood)
    low, high = best - top / 2000, best + top / 2000
    for _ in range(200):
        a, b = low + (high - low) / 3, high - (high - low) / 3
        if log_likelihood(a) < log_likelihood(b):
            low = a
        else:
            high = b
    return log_likelihood((low + high) / 2)


@pytest.mark.parametrize("counts, elo0, elo1", [
    ((30, 10, 60), 0, 10),
    ((48, 21, 51), -5, 5),
    ((12, 3, 7), 0, 30),
])
def test_logistic_llr_matches_brute_force_trinomial(counts, elo0, elo1) -> None:
    # Fishtest's GSPRT: LLR = max log-likelihood under E = L(elo1) minus that under E = L(elo0).
    expected = (_max_log_likelihood_trinomial(counts, score_from_elo(elo1))
                - _max_log_likelihood_trinomial(counts, score_from_elo(elo0)))
    assert llr_logistic(TRINOMIAL_VALUES, counts, elo0, elo1) == pytest.approx(expected, abs=1e-7)


def _max_log_likelihood_pentanomial(counts: tuple[float, ...], mean: float) -> float:
    """Compass search over (p0, p1, p2); p3 and p4 follow from the two
    constraints sum p = 1 and sum p x = mean with x = 0, 1/4, 1/2, 3/4, 1:
    p3 + p4 = r, 3/4 p3 + p4 = m  =>  p3 = 4 (r - m), p4 = r - p3. The
    log-likelihood is strictly concave on this convex set, so the search
    cannot stop anywhere but at the maximum."""

    def log_likelihood(q: list[float]) -> float:
        p0, p1, p2 = q
        r = 1 - p0 - p1 - p2
        m = mean - 0.25 * p1 - 0.5 * p2
        p3 = 4 * (r - m)
        p = (p0, p1, p2, p3, r - p3)
        if min(p) <= 0:
            return -math.inf
        return sum(c * math.log(x) for c, x in zip(counts, p))

    point = [0.2, 0.2, 0.2]
    best = log_likelihood(point)
    assert best > -math.inf
    step = 0.05
    while step > 1e-13:
        improved = False
        for axis in range(3):
            for sign in (1, -1):
                trial = point.copy()
                trial[axis] += sign * step
                value = log_likelihood(trial)
                if value > best:
                    point, best, improved = trial, value, True
        if not improved:
            step /= 2
    return best


def test_logistic_llr_matches_brute_force_pentanomial() -> None:
    counts = (3, 12, 40, 15, 5)
    for elo0, elo1 in ((0, 10), (-10, 20)):
        expected = (_max_log_likelihood_pentanomial(counts, score_from_elo(elo1))
                    - _max_log_likelihood_pentanomial(counts, score_from_elo(elo0)))
        assert llr_logistic(PENTANOMIAL_VALUES, counts, elo0, elo1) == pytest.approx(expected, abs=1e-6)


def test_constrained_mle_meets_its_constraints() -> None:
    probabilities = constrained_mle(PENTANOMIAL_VALUES, (3, 12, 40, 15, 5), 0.47)
    assert sum(probabilities) == pytest.approx(1, abs=1e-12)
    assert sum(p * v for p, v in zip(probabilities, PENTANOMIAL_VALUES)) == pytest.approx(0.47, abs=1e-12)
    with pytest.raises(ValueError):
        constrained_mle(TRINOMIAL_VALUES, (0, 3, 5), 0.4)  # every result above the mean


def test_normal_approximation_is_close_for_large_samples() -> None:
    # n (s1 - s0)(2 mu - s0 - s1) / (2 var): the approximation fishtest's
    # documentation gives; it agrees with the exact GSPRT to a few percent here.
    counts = (2900, 4100, 3000)
    exact = llr_logistic(TRINOMIAL_VALUES, counts, 0, 5)
    approximate = llr_normal_approximation(TRINOMIAL_VALUES, counts, 0, 5)
    assert exact == pytest.approx(approximate, rel=0.02)
    pairs = (200, 1100, 2300, 1150, 250)
    assert llr_logistic(PENTANOMIAL_VALUES, pairs, 0, 5) == pytest.approx(
        llr_normal_approximation(PENTANOMIAL_VALUES, pairs, 0, 5), rel=0.02)


def test_bayeselo_llr_from_its_definitions() -> None:
    # cutechess-cli's SPRT (its sprt.cpp), re-derived from BayesElo's model
    # (Coulom): P(win) = f(elo - drawelo), P(loss) = f(-elo - drawelo),
    # f(x) = 1/(1 + 10^(-x/400)); drawelo from the sample as
    # 200 log10((1-l)/l * (1-w)/w); the Elo bounds divided by
    # 4 x/(1+x)^2 with x = 10^(-drawelo/400).
    wins, draws, losses = 60, 10, 30
    w, l = 0.6, 0.3
    drawelo = 200 * math.log10((0.7 / 0.3) * (0.4 / 0.6))  # = 200 log10(14/9) = 38.38...
    x = 10 ** (-drawelo / 400)
    scale = 4 * x / (1 + x) ** 2

    def f(elo: float) -> float:
        return 1 / (1 + 10 ** (-elo / 400))

    def log_likelihood(elo: float) -> float:
        p_win, p_loss = f(elo - drawelo), f(-elo - drawelo)
        return wins * math.log(p_win) + losses * math.log(p_loss) + draws * math.log(1 - p_win - p_loss)

    expected = log_likelihood(10 / scale) - log_likelihood(0 / scale)
    assert round(drawelo, 2) == 38.38
    assert llr_bayeselo(wins, draws, losses, 0, 10) == pytest.approx(expected, abs=1e-12)
    assert w + l < 1  # (the sample must contain draws or both results for drawelo to exist)
    assert llr_bayeselo(5, 0, 0, 0, 10) == 0.0


def test_sprt_decisions() -> None:
    test = Sprt(0, 10, 0.05, 0.05)
    assert test.evaluate(Tally(wins=60, draws=10, losses=30)).decision is None  # LLR 0.91 < 2.94
    assert round(test.evaluate(Tally(wins=60, draws=10, losses=30)).llr, 3) == 0.914
    strong = test.evaluate(Tally(wins=600, draws=100, losses=300))
    assert strong.decision == "H1" and strong.llr >= strong.upper
    weak = test.evaluate(Tally(wins=300, draws=100, losses=600))
    assert weak.decision == "H0" and weak.llr <= weak.lower
    # Pentanomial: 30 pairs won 2-0 against elo1 = 100 are enough evidence.
    assert Sprt(0, 100).evaluate(Tally(pairs=(0, 0, 0, 0, 30)), "pentanomial").decision == "H1"
    assert Sprt(0, 100).evaluate(Tally(pairs=(0, 0, 0, 0, 3)), "pentanomial").decision is None
    assert Sprt(0, 10, elo_model="bayeselo").evaluate(Tally(wins=600, draws=100, losses=300)).decision == "H1"
    with pytest.raises(ValueError):
        Sprt(10, 0)
    with pytest.raises(ValueError):
        Sprt(0, 10, elo_model="bayeselo").evaluate(Tally(pairs=(1, 1, 1, 1, 1)), "pentanomial")


def test_tally_from_scores() -> None:
    tally = Tally.from_scores([1, 0.5, 0, 1, 1], pair_scores=[1.5, 2, 0.5, 1.5])
    assert (tally.wins, tally.draws, tally.losses, tally.points, tally.games) == (3, 1, 1, 3.5, 5)
    assert tally.pairs == (0, 1, 0, 2, 1)
    assert tally.trinomial == (1, 1, 3)


def test_sprt_needs_finite_elo_bounds() -> None:
    # An infinite bound used to be accepted; the first evaluation then failed
    # with "mean 1.0 is not strictly inside the observed range", mid-match.
    for elo0, elo1 in ((0, math.inf), (-math.inf, 10), (math.nan, 10), (0, math.nan)):
        with pytest.raises(ValueError, match="^SPRT needs finite Elo bounds"):
            Sprt(elo0, elo1)
