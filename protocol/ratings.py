"""A joint rating list: one maximum-likelihood Elo fit over every game of a
tournament (the Bradley-Terry model, as BayesElo and Ordo fit it), instead
of one Elo figure per pairing.

The model: engine ``i`` scores against ``j`` with expectation
``L(r_i - r_j)``, ``L`` the logistic Elo curve of :mod:`stargtp.protocol.stats`; a
draw counts half a win, as in Ordo. The ratings that make the games most
likely are found by Newton's method; they are anchored at an average of 0.
Their covariance is the inverse of the Fisher information under that anchor,
which gives each rating its interval and each pair of neighbours in the list
its *likelihood of superiority* (LOS: the probability, under the normal
approximation, that the higher one really is stronger).

A plain maximum-likelihood fit exists only when no engine, or group of
engines, won (or lost) every game against the rest; ``prior_draws`` adds that
many virtual draws to every pairing that played, as BayesElo's prior does
(it uses 2), so that a perfect score gives a finite rating.

The worked example: A scores 30 of 40 against B. The fit is the pairing's
own Elo, ``400 log10(30/10) = 190.85``, split around the average:

>>> a, b = fit_ratings([("A", "B", 30.0, 40)])
>>> round(a.elo, 2), round(b.elo, 2)
(95.42, -95.42)
>>> round(a.high - a.elo, 1), round(a.los_next, 4)  # 1.96 x 31.7, and Phi(190.85 / 63.4)
(62.2, 0.9987)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from stargtp.protocol.stats import Z_95

ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)
"""Elo points per unit of log-odds (natural logarithm)."""


@dataclass(frozen=True)
class Rating:
    """One engine's line in the rating list."""

    name: str
    elo: float
    """Relative to the average of the engines in the list."""
    low: float
    high: float
    """The interval around ``elo`` (95% by default)."""
    games: int
    points: float
    los_next: float | None
    """The likelihood that this engine is stronger than the next one in the
    list (None for the last)."""


class NoRatingFit(ValueError):
    """The games do not determine finite ratings."""


def fit_ratings(results: Sequence[tuple[str, str, float, int]], *, prior_draws: float = 0.0,
                z: float = Z_95) -> list[Rating]:
    """The rating list, strongest first, from ``(a, b, points of a, games)``
    entries (one per game or per pairing; they add up). NoRatingFit when the
    engines fall into groups that never met, or (without a prior) when one
    group won every game against another."""
    names: list[str] = []
    games: dict[tuple[int, int], float] = {}
    points: dict[tuple[int, int], float] = {}
    for a, b, score, count in results:
        for name in (a, b):
            if name not in names:
                names.append(name)
        i, j = names.index(a), names.index(b)
        for key, got in (((i, j), score), ((j, i), count - score)):
            games[key] = games.get(key, 0.0) + count
            points[key] = points.get(key, 0.0) + got
    for key in list(games):
        games[key] += prior_draws
        points[key] += prior_draws / 2
    _check_connected(len(names), points)
    theta = _newton(len(names), games, points)
    covariance = _covariance(len(names), games, theta)
    order = sorted(range(len(names)), key=lambda i: -theta[i])
    ratings = []
    for rank, i in enumerate(order):
        spread = z * math.sqrt(max(covariance[i][i], 0.0)) * ELO_PER_NATURAL_UNIT
        elo = theta[i] * ELO_PER_NATURAL_UNIT
        los = None
        if rank + 1 < len(order):
            j = order[rank + 1]
            variance = covariance[i][i] + covariance[j][j] - 2 * covariance[i][j]
            los = _normal_cdf((theta[i] - theta[j]) / math.sqrt(variance)) if variance > 0 else 0.5
        played = sum(games.get((i, j), 0.0) - prior_draws for j in range(len(names)) if (i, j) in games)
        scored = sum(points.get((i, j), 0.0) - prior_draws / 2 for j in range(len(names)) if (i, j) in points)
        ratings.append(Rating(names[i], elo, elo - spread, elo + spread, round(played), scored, los))
    return ratings


def _check_connected(count: int, points: dict[tuple[int, int], float]) -> None:
    """NoRatingFit unless every engine can be reached from every other along
    "scored at least something against": the condition for finite ratings."""
    for reverse in (False, True):
        reached = {0}
        frontier = [0]
        while frontier:
            i = frontier.pop()
            for (a, b), got in points.items():
                source, target = (b, a) if reverse else (a, b)
                if source == i and got > 0 and target not in reached:
                    reached.add(target)
                    frontier.append(target)
        if len(reached) < count:
            raise NoRatingFit("no finite ratings: some engines never scored against the others, or never "
                              "met them (a prior of virtual draws makes perfect scores finite)")


def _expected(theta: list[float], i: int, j: int) -> float:
    return 1.0 / (1.0 + math.exp(theta[j] - theta[i]))


def _information(count: int, games: dict[tuple[int, int], float], theta: list[float]) -> list[list[float]]:
    """The Fisher information (minus the Hessian of the log-likelihood) plus
    the all-ones matrix over ``count``, which pins the average rating at 0."""
    matrix = [[1.0 / count] * count for _ in range(count)]
    for (i, j), played in games.items():
        p = _expected(theta, i, j)
        weight = played * p * (1 - p)
        matrix[i][i] += weight
        matrix[i][j] -= weight
    return matrix


def _newton(count: int, games: dict[tuple[int, int], float], points: dict[tuple[int, int], float]) -> list[float]:
    """The maximum-likelihood ratings (log-odds units, average 0)."""
    theta = [0.0] * count
    for _ in range(200):
        gradient = [0.0] * count
        for (i, j), played in games.items():
            gradient[i] += points[(i, j)] - played * _expected(theta, i, j)
        step = _solve(_information(count, games, theta), gradient)
        largest = max(abs(s) for s in step)
        if largest > 2.0:  # far from the optimum the quadratic model overshoots
            step = [s * 2.0 / largest for s in step]
        theta = [t + s for t, s in zip(theta, step)]
        if largest < 1e-12:
            break
    mean = sum(theta) / count
    return [t - mean for t in theta]


def _covariance(count: int, games: dict[tuple[int, int], float], theta: list[float]) -> list[list[float]]:
    """The ratings' covariance with their average anchored at 0: the inverse
    of the information plus the all-ones matrix over ``count``, less that
    matrix (the pseudo-inverse of the information)."""
    matrix = _information(count, games, theta)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(count)]) for c in range(count)]
    return [[columns[c][r] - 1.0 / count for c in range(count)] for r in range(count)]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix x = vector``, by Gaussian elimination with partial
    pivoting (the matrices here are small and positive definite)."""
    size = len(vector)
    rows = [list(row) + [value] for row, value in zip(matrix, vector)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(column + 1, size):
            factor = rows[r][column] / rows[column][column]
            for c in range(column, size + 1):
                rows[r][c] -= factor * rows[column][c]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        solution[r] = (rows[r][size] - sum(rows[r][c] * solution[c] for c in range(r + 1, size))) / rows[r][r]
    return solution


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
