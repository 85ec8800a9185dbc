"""The Amazons evaluation: how good a position is for the side to move.

**The evaluation** (Lieberum, TCS 349, 2005; the weights are ours). Queen and
king distances are computed for both sides as bitboard layers (all squares at
distance 1, 2, ...) by sliding fronts through the empty squares. From them:

* ``t1``, ``t2``: per empty square +1 if the side to move is nearer (queen /
  king distance), -1 if the opponent is, ``TIE_BONUS`` if both are equally near,
  0 if neither can reach it;
* ``c1 = 2 * sum(2^-D1 - 2^-D2)`` (queen), ``c2 = sum(clamp((D2 - D1) / 6, -1, 1))``
  (king), with ``2^-inf = 0`` and a square neither side reaches counting 0;
* ``w = sum(2^-|D1 - D2|)`` over squares both reach (queen), the phase: it
  is 0 once every region is separated;
* ``mobility``: sum over the opponent's amazons of ``1 / (1 + m)`` minus the
  same over the side to move's, ``m`` being the number of squares the amazon
  reaches in one queen move; a shut-in amazon costs 1.

With the phase weight ``p = w / (w + PHASE_HALF * size)``, the raw score is
``(1 - p) * (t1 - TEMPO) + p * (0.4 t2 + 0.3 c1 + 0.3 c2) + p * MOBILITY_WEIGHT
* mobility``, and :func:`evaluate` returns ``tanh(raw / SCALE)``: a value in
[-1, 1] from the side to move's point of view (exactly -1 once it has no move).
``TEMPO`` is there because in a separated position with equal territories the
side to move runs out first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from stargtp.engine.amazons.geometry import Geometry
from stargtp.engine.amazons.position import Position, queen_reach
from stargtp.engine.colour import BLACK, WHITE

TIE_BONUS = 0.2
TEMPO = 0.5
PHASE_HALF = 1.0
"""``p = 1/2`` when ``w`` equals ``PHASE_HALF * size``."""
MOBILITY_WEIGHT = 2.0
SCALE = 8.0


@dataclass(frozen=True)
class EvaluationTerms:
    """The parts of :func:`evaluate`, from the side to move's point of view."""

    t1: float
    """Queen-distance territory: nearer squares minus farther ones, ties ``TIE_BONUS``."""
    t2: float
    """The same with king distances."""
    c1: float
    """``2 * sum(2^-D1 - 2^-D2)`` with queen distances."""
    c2: float
    """``sum(clamp((D2 - D1) / 6, -1, 1))`` with king distances."""
    w: float
    """Phase: ``sum(2^-|D1 - D2|)`` over squares both sides reach (queen)."""
    mobility: float
    """Opponent's shut-in penalty minus the side to move's."""
    phase: float
    """``p = w / (w + PHASE_HALF * size)``: 1 in the opening, 0 once separated."""
    raw: float
    value: float
    """``tanh(raw / SCALE)``."""


def queen_distance_layers(sources: int, empty: int, geo: Geometry, first: int = 0) -> list[int]:
    """``layers[k]``: the empty squares whose queen distance from the nearest
    square of ``sources`` is ``k + 1``, moving over ``empty`` squares only.
    ``first``, when given, must be the first layer (the squares the queens of
    ``sources`` reach in one move), which saves computing it."""
    steps = geo.steps
    landing = geo.landing_masks
    up = [(steps[d], empty & landing[d]) for d in (0, 2, 4, 6)]
    down = [(-steps[d], empty & landing[d]) for d in (1, 3, 5, 7)]
    layers: list[int] = []
    reached = sources
    frontier = sources
    if first:
        layers.append(first)
        reached |= first
        frontier = first
    while True:
        new = 0
        for step, open_squares in up:
            front = frontier
            while True:
                front = (front << step) & open_squares
                if not front:
                    break
                new |= front
        for step, open_squares in down:
            front = frontier
            while True:
                front = (front >> step) & open_squares
                if not front:
                    break
                new |= front
        new &= ~reached
        if not new:
            return layers
        layers.append(new)
        reached |= new
        frontier = new


def king_distance_layers(sources: int, empty: int, geo: Geometry) -> list[int]:
    """Like :func:`queen_distance_layers` with king steps."""
    not_first_file = geo.landing_masks[0]
    not_last_file = geo.landing_masks[1]
    size = geo.size
    layers: list[int] = []
    reached = sources
    frontier = sources
    while True:
        row = frontier | ((frontier << 1) & not_first_file) | ((frontier >> 1) & not_last_file)
        new = (row | (row << size) | (row >> size)) & empty & ~reached
        if not new:
            return layers
        layers.append(new)
        reached |= new
        frontier = new


def _territory(mine: list[int], theirs: list[int]) -> float:
    """``t``: squares nearer to me minus nearer to them, plus the tie bonus."""
    my_reach = their_reach = 0
    nearer = farther = ties = 0
    for k in range(max(len(mine), len(theirs))):
        my_layer = mine[k] if k < len(mine) else 0
        their_layer = theirs[k] if k < len(theirs) else 0
        my_reach |= my_layer
        their_reach |= their_layer
        nearer += (my_layer & ~their_reach).bit_count()
        farther += (their_layer & ~my_reach).bit_count()
        ties += (my_layer & their_layer).bit_count()
    return nearer - farther + TIE_BONUS * ties


def queen_territory_masks(position: Position) -> dict[int, int]:
    """Expected territory, as square masks: per colour, the empty squares its
    amazons reach in fewer queen moves than the opponent's (the "Voronoi"
    territory of the queen-distance term ``t1``; ties and unreachable
    squares count for nobody)."""
    geo = position.geometry
    empty = geo.full_mask & ~position.occupied
    layers = {colour: queen_distance_layers(geo.mask_of(position.amazons(colour)), empty, geo)
              for colour in (BLACK, WHITE)}
    result = {}
    for colour in (BLACK, WHITE):
        mine, theirs = layers[colour], layers[3 - colour]
        reached_by_them = 0
        nearer = 0
        for k, layer in enumerate(mine):
            if k < len(theirs):
                reached_by_them |= theirs[k]
            nearer |= layer & ~reached_by_them
        result[colour] = nearer
    return result


def queen_territory(position: Position) -> dict[int, int]:
    """Expected territory: per colour, how many squares
    :func:`queen_territory_masks` gives it."""
    return {colour: mask.bit_count() for colour, mask in queen_territory_masks(position).items()}


_HALVES = tuple(0.5 ** k for k in range(1, 130))
"""``2^-(k + 1)``: the weight of queen layer ``k`` in ``c1``."""
_MIDDLE = 129
"""Index of distance difference 0 in the tables below (a board has at most
100 squares, so no difference reaches it)."""
_SPREAD = tuple(0.5 ** abs(d) for d in range(-_MIDDLE, _MIDDLE + 1))
"""``2^-|d|`` at index ``d + _MIDDLE``: the weight of a square in ``w``."""
_LEAD = tuple(max(-1.0, min(1.0, d / 6)) for d in range(-_MIDDLE, _MIDDLE + 1))
"""``clamp(d / 6, -1, 1)`` at index ``d + _MIDDLE``: a square's share of ``c2``."""


def _layer_pairs(mine: list[int], theirs: list[int], weights: tuple[float, ...]) -> float:
    """``sum over (i, j) of |mine[i] & theirs[j]| * weights[j - i + _MIDDLE]``:
    the squares at distance ``i + 1`` from one side and ``j + 1`` from the
    other, weighted by the difference."""
    total = 0.0
    for i, my_layer in enumerate(mine):
        j = _MIDDLE - i
        for their_layer in theirs:
            both = my_layer & their_layer
            if both:
                total += both.bit_count() * weights[j]
            j += 1
    return total


def _terms(position: Position) -> tuple[float, float, float, float, float, float]:
    """``(t1, t2, c1, c2, w, mobility)`` from the side to move's point of view
    (the module docstring defines them). Each amazon's reach serves both the
    mobility term and the first queen layer, the sums over layers use
    tables, and nothing else is built: this is the hot path of the Amazons
    search. The tests check it against a plain reference."""
    geo = position.geometry
    me = position.to_move
    occupied = position.occupied
    empty = geo.full_mask & ~occupied
    ray_masks = geo.ray_masks
    my_first = their_first = 0
    my_mobility = their_mobility = 0.0
    mine_bits = theirs_bits = 0
    for square in position.amazons(me):
        reach = queen_reach(square, occupied, ray_masks)
        my_first |= reach
        my_mobility += 1.0 / (1 + reach.bit_count())
        mine_bits |= 1 << square
    for square in position.amazons(3 - me):
        reach = queen_reach(square, occupied, ray_masks)
        their_first |= reach
        their_mobility += 1.0 / (1 + reach.bit_count())
        theirs_bits |= 1 << square
    queen_mine = queen_distance_layers(mine_bits, empty, geo, my_first)
    queen_theirs = queen_distance_layers(theirs_bits, empty, geo, their_first)
    king_mine = king_distance_layers(mine_bits, empty, geo)
    king_theirs = king_distance_layers(theirs_bits, empty, geo)

    t1 = _territory(queen_mine, queen_theirs)
    t2 = _territory(king_mine, king_theirs)
    halves = _HALVES
    c1 = 2.0 * (sum([layer.bit_count() * halves[k] for k, layer in enumerate(queen_mine)])
                - sum([layer.bit_count() * halves[k] for k, layer in enumerate(queen_theirs)]))
    w = _layer_pairs(queen_mine, queen_theirs, _SPREAD)
    c2 = _layer_pairs(king_mine, king_theirs, _LEAD)
    king_mine_all = king_theirs_all = 0
    for layer in king_mine:
        king_mine_all |= layer
    for layer in king_theirs:
        king_theirs_all |= layer
    c2 += (king_mine_all & ~king_theirs_all).bit_count() - (king_theirs_all & ~king_mine_all).bit_count()
    return t1, t2, c1, c2, w, their_mobility - my_mobility


def _phase_and_raw(t1: float, t2: float, c1: float, c2: float, w: float, mobility: float,
                   size: int) -> tuple[float, float]:
    """The phase weight ``p`` and the raw score (module docstring)."""
    phase = w / (w + PHASE_HALF * size)
    raw = ((1 - phase) * (t1 - TEMPO) + phase * (0.4 * t2 + 0.3 * c1 + 0.3 * c2)
           + phase * MOBILITY_WEIGHT * mobility)
    return phase, raw


def evaluation_terms(position: Position) -> EvaluationTerms:
    """Every term of :func:`evaluate` (see the module docstring)."""
    t1, t2, c1, c2, w, mobility = _terms(position)
    phase, raw = _phase_and_raw(t1, t2, c1, c2, w, mobility, position.size)
    value = -1.0 if position.is_over() else math.tanh(raw / SCALE)
    return EvaluationTerms(t1=t1, t2=t2, c1=c1, c2=c2, w=w, mobility=mobility,
                           phase=phase, raw=raw, value=value)


def evaluate(position: Position) -> float:
    """How good ``position`` is for the side to move, in [-1, 1]; exactly -1
    when it has no move. A heuristic (see the module docstring), meant for
    cutting playouts short; :func:`stargtp.engine.amazons.scoring.score` is exact.
    ``evaluation_terms(position).value``, without building the record."""
    if position.is_over():
        return -1.0
    _, raw = _phase_and_raw(*_terms(position), position.size)
    return math.tanh(raw / SCALE)


def evaluate_corrected(position: Position, territory_correction: float) -> float:
    """:func:`evaluate` with ``territory_correction`` added to ``t1``: the
    search's ``region_eval`` passes the separated regions' move counts minus
    their squares (:meth:`stargtp.engine.amazons.regions.RegionSolver.territory_correction`)."""
    if position.is_over():
        return -1.0
    t1, t2, c1, c2, w, mobility = _terms(position)
    _, raw = _phase_and_raw(t1 + territory_correction, t2, c1, c2, w, mobility, position.size)
    return math.tanh(raw / SCALE)
