"""Match statistics: win rate, Elo difference, and the SPRT.

Everything is seen from one engine's side (the *first* engine of a pairing):
a game scores 1 (win), 1/2 (draw) or 0 (loss).

**Two sampling models.** Games can be counted one by one (*trinomial*: losses,
draws, wins) or in pairs that share an opening with colours swapped
(*pentanomial*: a pair scores 0, 1/2, 1, 3/2 or 2). The pair model is the
right one when the match plays colour-swapped pairs, as the match runner does
by default: the two games of a pair are correlated (same opening, and *Star's
first-move advantage cancels inside a pair), and counting them as
independent overstates the variance. Fishtest uses pentanomial statistics for
its paired games for this reason; cutechess-cli counts games (trinomial).
Both models give the same point estimate; they differ in the interval and in
the SPRT's log-likelihood ratio. Only complete pairs enter the pentanomial.

**Win rate.** The score fraction ``(wins + draws/2) / games`` with a Wilson
score interval, which stays inside [0, 1] and is sensible for the small
samples and lopsided results of engine tests (a 10-0 result still gets an
interval).

**Elo.** The logistic Elo difference ``-400 log10(1/s - 1)`` of the mean score
``s``. Its interval maps the endpoints of the normal-approximation interval of
the mean score, ``s +- z * sd / sqrt(n)`` with the sample standard deviation
of the observations (games or pairs), through the same curve, so it is
asymmetric as the Elo scale is; cutechess-cli reports the half-width of the
same mapped interval. A score of 0 or 1 gives an infinite Elo; when all
observations are equal the interval is undefined (NaN).

**SPRT.** Wald's bounds ``lower = ln(beta / (1 - alpha))`` and ``upper =
ln((1 - beta) / alpha)``, as in both fishtest and cutechess-cli. The default
log-likelihood ratio is fishtest's generalised SPRT for logistic Elo: for each
hypothesis ``H_i: E[score] = L(elo_i)`` the multinomial distribution of
results with that expectation that best explains the observations is found
exactly (a one-dimensional root of the secular equation), and the LLR is the
difference of the two log-likelihoods. Outcomes never seen get a count of
1e-3 so that the maximum exists. :func:`llr_bayeselo` is cutechess-cli's
variant (trinomial only, BayesElo with the draw Elo estimated from the
sample), for comparing with its output.

>>> round(elo_from_score(0.75), 1)
190.8
>>> lower, upper = sprt_bounds(0.05, 0.05)
>>> round(lower, 4), round(upper, 4)
(-2.9444, 2.9444)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

TRINOMIAL_VALUES = (0.0, 0.5, 1.0)
"""Per-game score of a loss, a draw, a win."""

PENTANOMIAL_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Per-game score of a pair scoring 0, 1/2, 1, 3/2, 2 points."""

UNSEEN_OUTCOME_COUNT = 1e-3
"""Stand-in count for an outcome never observed, so the SPRT's maximum
likelihood problem has a solution (fishtest does the same)."""


# -- the Elo curve -----------------------------------------------------------
def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference that gives expected ``score``; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


# -- results ---------------------------------------------------------------
@dataclass(frozen=True)
class Tally:
    """Results of one pairing from the first engine's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """Complete colour-swapped pairs by points scored: 0, 1/2, 1, 3/2, 2."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def trinomial(self) -> tuple[int, int, int]:
        """``(losses, draws, wins)``: counts in :data:`TRINOMIAL_VALUES` order."""
        return (self.losses, self.draws, self.wins)

    @classmethod
    def from_scores(cls, scores: Sequence[float], pair_scores: Sequence[float] = ()) -> "Tally":
        """Count per-game scores (1, 0.5, 0) and per-pair point totals (0..2)."""
        pairs = [0] * 5
        for points in pair_scores:
            pairs[round(points * 2)] += 1
        return cls(wins=sum(1 for s in scores if s == 1.0), draws=sum(1 for s in scores if s == 0.5),
                   losses=sum(1 for s in scores if s == 0.0), pairs=tuple(pairs))  # type: ignore[arg-type]


def observations(tally: Tally, model: str) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """``(values, counts)`` for ``model`` ``"trinomial"`` or ``"pentanomial"``."""
    if model == "trinomial":
        return TRINOMIAL_VALUES, tally.trinomial
    if model == "pentanomial":
        return PENTANOMIAL_VALUES, tally.pairs
    raise ValueError(f"unknown model {model!r}: expected trinomial or pentanomial")


def mean_and_variance(values: Sequence[float], counts: Sequence[float]) -> tuple[float, float]:
    """Mean and (population) variance of the observations; ValueError when empty."""
    total = sum(counts)
    if total <= 0:
        raise ValueError("no observations")
    mean = sum(v * c for v, c in zip(values, counts)) / total
    variance = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / total
    return mean, variance


# -- intervals ---------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """A point estimate with a two-sided interval."""

    value: float
    low: float
    high: float


def wilson_interval(points: float, games: int, z: float = Z_95) -> Estimate:
    """The score fraction ``points / games`` with its Wilson score interval."""
    if games <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    p = points / games
    denominator = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def elo_estimate(tally: Tally, model: str = "trinomial", z: float = Z_95) -> Estimate:
    """The Elo difference with the interval described in the module docstring;
    all NaN when the model has no observations."""
    values, counts = observations(tally, model)
    if sum(counts) == 0:
        return Estimate(math.nan, math.nan, math.nan)
    mean, variance = mean_and_variance(values, counts)
    if variance == 0:
        # Every observation alike (e.g. 5-0, or all pairs split): the normal
        # approximation has nothing to measure the spread with.
        return Estimate(elo_from_score(mean), math.nan, math.nan)
    half = z * math.sqrt(variance / sum(counts))
    return Estimate(elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half))


# -- SPRT --------------------------------------------------------------------
def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's ``(lower, upper)`` LLR bounds for error rates ``alpha``, ``beta``."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError("SPRT needs 0 < alpha, beta and alpha + beta < 1")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def constrained_mle(values: Sequence[float], counts: Sequence[float], mean: float) -> list[float]:
    """The probabilities ``p`` on ``values`` that maximise ``sum(counts * log p)``
    subject to ``sum(p) = 1`` and ``sum(p * values) = mean``.

    Lagrange multipliers give ``p_i = f_i / (1 + x (v_i - mean))`` with ``f``
    the observed frequencies and ``x`` the root of
    ``g(x) = sum f_i (v_i - mean) / (1 + x (v_i - mean)) = 0``. ``g`` falls
    strictly on the interval where every ``p_i`` is positive, so bisection
    finds the root. Needs observations on both sides of ``mean``.
    """
    total = sum(counts)
    support = [(v, c / total) for v, c in zip(values, counts) if c > 0]
    low_value = min(v for v, _ in support)
    high_value = max(v for v, _ in support)
    if not low_value < mean < high_value:
        raise ValueError(f"mean {mean} is not strictly inside the observed range")

    def g(x: float) -> float:
        return sum(f * (v - mean) / (1 + x * (v - mean)) for v, f in support)

    low, high = -1.0 / (high_value - mean), 1.0 / (mean - low_value)
    for _ in range(200):
        middle = 0.5 * (low + high)
        if middle in (low, high):
            break
        if g(middle) > 0:
            low = middle
        else:
            high = middle
    x = 0.5 * (low + high)
    return [(c / total) / (1 + x * (v - mean)) if c > 0 else 0.0 for v, c in zip(values, counts)]


def _log_likelihood(counts: Sequence[float], probabilities: Sequence[float]) -> float:
    return sum(c * math.log(p) for c, p in zip(counts, probabilities) if c > 0)


def llr_logistic(values: Sequence[float], counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Fishtest's generalised log-likelihood ratio of ``H1: elo = elo1`` against
    ``H0: elo = elo0`` (logistic Elo) for results ``counts`` on ``values``.
    Zero before any observation."""
    if sum(counts) == 0:
        return 0.0
    regularised = [c if c > 0 else UNSEEN_OUTCOME_COUNT for c in counts]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return (_log_likelihood(regularised, constrained_mle(values, regularised, s1))
            - _log_likelihood(regularised, constrained_mle(values, regularised, s0)))


def llr_normal_approximation(values: Sequence[float], counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The common normal approximation of :func:`llr_logistic`:
    ``n (s1 - s0) (2 m - s0 - s1) / (2 v)`` with ``m``, ``v`` the sample mean
    and variance of the ``n`` observations. For checks and comparisons."""
    n = sum(counts)
    if n == 0:
        return 0.0
    mean, variance = mean_and_variance(values, counts)
    if variance == 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def llr_bayeselo(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """cutechess-cli's log-likelihood ratio: the hypotheses are BayesElo
    differences, the draw Elo is estimated from the sample, and the Elo bounds
    are rescaled by the draw rate. Zero until both a win and a loss are seen."""
    if wins == 0 or losses == 0:
        return 0.0
    n = wins + draws + losses
    w, l = wins / n, losses / n
    draw_elo = 200.0 * math.log10((1 - l) / l * (1 - w) / w)
    x = 10.0 ** (-draw_elo / 400.0)
    scale = 4.0 * x / (1.0 + x) ** 2

    def probabilities(elo: float) -> tuple[float, float, float]:
        p_win = score_from_elo(elo - draw_elo)
        p_loss = score_from_elo(-elo - draw_elo)
        return p_win, 1.0 - p_win - p_loss, p_loss

    win0, draw0, loss0 = probabilities(elo0 / scale)
    win1, draw1, loss1 = probabilities(elo1 / scale)
    llr = wins * math.log(win1 / win0) + losses * math.log(loss1 / loss0)
    if draws:
        llr += draws * math.log(draw1 / draw0)
    return llr


@dataclass(frozen=True)
class SprtResult:
    """The state of a sequential test after some results."""

    llr: float
    lower: float
    upper: float
    decision: str | None
    """``"H1"`` (elo1 accepted: the first engine is stronger by about elo1),
    ``"H0"`` (elo0 accepted), or None to keep playing."""


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test ``H0: elo0`` against ``H1: elo1``.

    ``elo_model`` is ``"logistic"`` (fishtest; works with either sampling
    model) or ``"bayeselo"`` (cutechess-cli; trinomial only).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    elo_model: str = "logistic"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise ValueError(f"SPRT needs finite Elo bounds, not {self.elo0!r} and {self.elo1!r}")
        if not self.elo0 < self.elo1:
            raise ValueError("SPRT needs elo0 < elo1")
        sprt_bounds(self.alpha, self.beta)
        if self.elo_model not in ("logistic", "bayeselo"):
            raise ValueError(f"unknown Elo model {self.elo_model!r}: expected logistic or bayeselo")

    def evaluate(self, tally: Tally, model: str = "trinomial") -> SprtResult:
        lower, upper = sprt_bounds(self.alpha, self.beta)
        if self.elo_model == "bayeselo":
            if model != "trinomial":
                raise ValueError("the bayeselo SPRT is defined for trinomial results only")
            llr = llr_bayeselo(tally.wins, tally.draws, tally.losses, self.elo0, self.elo1)
        else:
            values, counts = observations(tally, model)
            llr = llr_logistic(values, counts, self.elo0, self.elo1)
        decision = "H1" if llr >= upper else "H0" if llr <= lower else None
        return SprtResult(llr, lower, upper, decision)
