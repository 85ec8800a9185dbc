"""The Amazons evaluation: how good a position is for the side to move.

**The evaluation** (Lieberum, TCS 349, 2005; the weights are ours). Queen and
king distances are computed for both sides as bitboard layers (all squares at
distance 1, 2, ...) by breadth-first search through the empty squares, both
sides at once in one integer (:class:`_Packing` says how). From them:

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
from functools import lru_cache

from stargtp.engine.amazons.geometry import Geometry, geometry
from stargtp.engine.amazons.position import _BIT_REVERSED, Position, reach_counter, reversed_bits
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
_SHUT_IN = tuple(1.0 / (1 + m) for m in range(4 * 10))
"""``1 / (1 + m)``: an amazon's share of the mobility term when it reaches
``m`` squares (at most ``4 (size - 1)``)."""
_MIDDLE = 129
"""Index of distance difference 0 in the tables below (a board has at most
100 squares, so no difference reaches it)."""
_SPREAD = tuple(0.5 ** abs(d) for d in range(-_MIDDLE, _MIDDLE + 1))
"""``2^-|d|`` at index ``d + _MIDDLE``: the weight of a square in ``w``."""
_LEAD = tuple(max(-1.0, min(1.0, d / 6)) for d in range(-_MIDDLE, _MIDDLE + 1))
"""``clamp(d / 6, -1, 1)`` at index ``d + _MIDDLE``: a square's share of ``c2``."""


class _Packing:
    """How several boards' worth of bits share one integer, on one board size.

    A *field* is a board's worth of bits, ``square_count`` of them, and
    ``size + 1`` bits of padding, so ``F = square_count + size + 1`` bits.
    Every mask that lets a shift land (the empty squares, per direction) is
    zero in the padding and no single step is longer than ``size + 1``, so a
    sliding move never crosses from one field into the next; one shift, one
    ``and`` serve every field at once.

    The evaluation uses three layouts:

    * two fields, the side to move's squares at bit 0 and the opponent's at
      bit ``F``: the breadth-first searches run both sides at once;
    * the same two fields *mirrored*: four fields, the two above and then
      their mirror image (:meth:`mirror`, bit ``i`` to bit ``4F - 1 - i``),
      the opponent's board reversed in field 2 and the side to move's in
      field 3 (each in the top ``square_count`` bits of its field, the
      padding below). A step towards lower squares is, in the mirror, a
      step towards higher bits, so the queen steps slide in the four
      directions towards higher bits only and one mirror adds the other
      four: half the shifts;
    * a *stack*: the two fields of layer ``k`` (distance ``k + 1``) at bit
      ``2 F k`` (block ``k``), and what each side had reached by then at the
      same place of a second integer, so that a term that pairs layer ``i`` of
      one side with layer ``j`` of the other is one shift, one ``and`` and
      one ``bit_count`` for all ``i`` at once.

    The queen fills are occluded fills in doubling steps (Kogge-Stone): with
    ``E`` the squares a step in the direction may land on, ``E2 = E & E << s``
    and ``E4 = E2 & E2 << 2s`` (``E8`` on 10x10), ``g |= E & g << s``,
    ``g |= E2 & g << 2s``, ``g |= E4 & g << 4s`` extends every square of ``g``
    over up to 7 empty squares (15 with ``E8``; a ray is at most ``size - 1``
    long) and ``E & g << s`` is then what ``g`` reaches: four shifts per
    direction whatever the ray lengths. The doubling shifts are longer than
    the padding, but ``E2``, ``E4`` and ``E8`` hold a square only if the
    squares one step, two steps, ... back are open, and a chain of single
    steps cannot jump the padding (at least ``size + 1`` bits between any
    two fields' squares, mirrored or not)."""

    __slots__ = ("field", "block", "board", "up", "not_first_file", "not_last_file",
                 "size", "mine", "theirs", "five_blocks", "deep", "two_fields", "landing",
                 "bytes", "extra", "my_amazon", "their_amazon", "mirror_places", "reversed_shift")

    def __init__(self, geo: Geometry) -> None:
        field = geo.square_count + geo.size + 1
        self.field = field
        self.block = 2 * field
        self.board = geo.full_mask
        """One field's squares, at bit 0."""
        self.deep = geo.size > 8
        """Rays longer than 7 squares: a fourth doubling step."""
        self.two_fields = (1 << 2 * field) - 1
        """Every bit of the first two fields (the unmirrored half)."""
        self.bytes = (4 * field + 7) // 8
        self.extra = 8 * self.bytes - 4 * field
        """:meth:`mirror`'s arguments of :func:`reversed_bits`."""
        landing = geo.landing_masks
        self.up = tuple(geo.steps[d] for d in (0, 2, 4, 6))
        """The steps of the directions towards higher squares."""
        self.landing = tuple(
            self.mirrored(landing[d] | landing[d] << field, landing[d + 1] | landing[d + 1] << field)
            for d in (0, 2, 4, 6))
        """Per direction of ``up``, in the mirrored layout: where its step
        may land in the first two fields, and in the mirror where the
        opposite direction's may."""
        self.not_first_file = landing[0] | landing[0] << field
        self.not_last_file = landing[1] | landing[1] << field
        self.size = geo.size
        # A layer count never exceeds the squares; the king terms look 5
        # blocks further.
        self.mine = sum(geo.full_mask << (self.block * k) for k in range(geo.square_count + 8))
        """The side to move's field of every block of a stack."""
        self.theirs = self.mine << field
        """The opponent's field of every block."""
        self.five_blocks = sum(1 << (self.block * k) for k in range(5))
        """``*`` copies two fields into 5 consecutive blocks."""
        squares = geo.square_count
        self.my_amazon = tuple(self.mirrored(1 << square) for square in range(squares))
        """Per square, a side to move's amazon there in the mirrored layout."""
        self.their_amazon = tuple(self.mirrored(1 << (square + field)) for square in range(squares))
        """Per square, an opponent's amazon there in the mirrored layout."""
        self.reversed_shift = squares + 1
        """Where :class:`stargtp.engine.amazons.position.ReachCounter`'s
        board holds the occupied squares reversed (bit ``i`` at
        ``square_count - 1 - i``): its second field."""
        self.mirror_places = (1 << (2 * field + geo.size + 1)) | (1 << (3 * field + geo.size + 1))
        """``*`` puts one board reversed (as above) where :meth:`mirror`
        puts it in fields 2 and 3, the mirrors of fields 1 and 0."""

    def mirror(self, bits: int) -> int:
        """``bits`` (four fields) with bit ``i`` moved to bit ``4F - 1 - i``:
        :func:`stargtp.engine.amazons.position.reversed_bits`."""
        return reversed_bits(bits, self.bytes, self.extra)

    def mirrored(self, two: int, other: int | None = None) -> int:
        """Two fields ``two`` in the mirrored layout: ``two`` and the mirror
        of ``other`` (by default of ``two`` itself)."""
        return two | self.mirror(two if other is None else other)


@lru_cache(maxsize=None)
def _packing(size: int) -> _Packing:
    """The shared :class:`_Packing` of a board size."""
    return _Packing(geometry(size))


def _queen_stack(amazons: int, empty: int, everything: int,
                 packing: _Packing) -> tuple[int, int, float]:
    """The queen-distance layers of both sides (two fields, see
    :class:`_Packing`) as ``(stack, reach_stack, c1)``: layer ``k`` at block
    ``k``, and at block ``k`` of the second what each side had reached then
    (its amazons included); a block past the last layer of both sides is 0
    in both. ``amazons`` are both sides' amazons and ``empty`` the empty
    squares, both mirrored: the search runs in the mirrored layout, so
    each queen step slides in the four directions towards higher bits and
    one mirror (:meth:`_Packing.mirror`, inlined) adds the other four.
    ``everything`` is what the amazons reach in the end (two fields), which
    the king search already knows (a queen path is a chain of king steps
    over empty squares): the search stops there, without a last step that
    finds nothing. ``c1`` is the term of that name, its two sums taken in
    the order of the one-side-at-a-time code, so that it is the same to the
    last bit.

    A queen step: eastward (westward in the mirror) the squares of a rank
    are consecutive bits, so the slide is a subtraction: with ``o`` the
    squares a step may not land on (the other squares of the rank, the
    first file, the padding) plus the frontier, ``o - 2f`` borrows from the
    square after each frontier square up to the first square of ``o``
    beyond it, and ``o ^ (o - 2f)`` is those squares (the blocker included,
    which the landing mask takes out again). The three other directions
    are occluded fills in doubling steps (:class:`_Packing`), their masks
    made once here, written out for the three directions since this loop
    is the evaluation's hottest."""
    block, field, board, half = packing.block, packing.field, packing.board, packing.two_fields
    byte_count, extra, table = packing.bytes, packing.extra, _BIT_REVERSED
    from_bytes = int.from_bytes
    lands = packing.landing
    east = empty & lands[0]
    blocked_east = ~east
    s1, s2, s3 = packing.up[1:]
    t1, t2, t3 = 2 * s1, 2 * s2, 2 * s3
    u1, u2, u3 = 4 * s1, 4 * s2, 4 * s3
    e1, e2, e3 = empty & lands[1], empty & lands[2], empty & lands[3]
    # E2 = E & E << s, E4 = E2 & E2 << 2s, E8 = E4 & E4 << 4s (rays longer than 7).
    d1, d2, d3 = e1 & (e1 << s1), e2 & (e2 << s2), e3 & (e3 << s3)
    q1, q2, q3 = d1 & (d1 << t1), d2 & (d2 << t2), d3 & (d3 << t3)
    deep = packing.deep
    if deep:
        o1, o2, o3 = q1 & (q1 << u1), q2 & (q2 << u2), q3 & (q3 << u3)
        v1, v2, v3 = 8 * s1, 8 * s2, 8 * s3
    halves = _HALVES
    my_sum = their_sum = 0
    stack = reach_stack = 0
    shift = k = 0
    reached = frontier = amazons
    while True:
        # One queen step from ``frontier``.
        blocked = blocked_east | frontier
        f1 = frontier | (e1 & (frontier << s1))
        f1 |= d1 & (f1 << t1)
        f1 |= q1 & (f1 << u1)
        f2 = frontier | (e2 & (frontier << s2))
        f2 |= d2 & (f2 << t2)
        f2 |= q2 & (f2 << u2)
        f3 = frontier | (e3 & (frontier << s3))
        f3 |= d3 & (f3 << t3)
        f3 |= q3 & (f3 << u3)
        if deep:
            f1 |= o1 & (f1 << v1)
            f2 |= o2 & (f2 << v2)
            f3 |= o3 & (f3 << v3)
        new = (((blocked ^ (blocked - (frontier << 1))) & east) | (e1 & (f1 << s1))
               | (e2 & (f2 << s2)) | (e3 & (f3 << s3)))
        new = (new | from_bytes(new.to_bytes(byte_count, "big").translate(table), "little") >> extra) & ~reached
        if not new:
            return stack, reach_stack, 2.0 * (my_sum - their_sum)
        # Layer k: its squares at distance k + 1, both sides.
        layer = new & half
        count = (layer & board).bit_count()
        if count:
            my_sum += count * halves[k]
        count = (layer >> field).bit_count()
        if count:
            their_sum += count * halves[k]
        reached |= new
        so_far = reached & half
        stack |= layer << shift
        reach_stack |= so_far << shift
        if so_far == everything:
            return stack, reach_stack, 2.0 * (my_sum - their_sum)
        shift += block
        k += 1
        frontier = new


def _king_stack(sources: int, empty: int, packing: _Packing) -> tuple[int, int, int]:
    """Like :func:`_queen_stack` with king steps from ``sources``, except that
    the reach stack goes on 5 blocks past the last layer (with the final
    reach), which the ``c2`` term reads, and that the final reach comes
    third."""
    not_first_file, not_last_file = packing.not_first_file, packing.not_last_file
    size, block = packing.size, packing.block
    frontier = reached = sources
    stack = reach_stack = 0
    shift = 0
    # The squares not reached yet (the amazons are not empty).
    unreached = empty
    while True:
        row = frontier | ((frontier << 1) & not_first_file) | ((frontier >> 1) & not_last_file)
        new = (row | (row << size) | (row >> size)) & unreached
        if not new:
            return stack, reach_stack | (reached * packing.five_blocks) << shift, reached
        unreached ^= new
        reached |= new
        stack |= new << shift
        reach_stack |= reached << shift
        shift += block
        frontier = new


def _territory(own: int, other: int, reach_stack: int, field: int) -> tuple[float, int]:
    """``t``: squares nearer to the side to move (at distance ``k + 1`` from
    it and not reached by the opponent by then) minus those nearer to the
    opponent, plus the tie bonus per square at the same distance from both;
    and the number of those ties, which ``w`` needs too. ``own`` and
    ``other`` are a stack's fields of the side to move and of the opponent
    (the stack ``&`` :attr:`_Packing.mine` and ``&`` :attr:`_Packing.theirs`)."""
    nearer = (own & ~(reach_stack >> field)).bit_count()
    farther = (other & ~(reach_stack << field)).bit_count()
    ties = (own & (other >> field)).bit_count()
    return nearer - farther + TIE_BONUS * ties, ties


def _terms(position: Position, live: bool = False) -> tuple[float, float, float, float, float, float] | None:
    """``(t1, t2, c1, c2, w, mobility)`` from the side to move's point of view
    (the module docstring defines them); with ``live``, None instead when
    the side to move has no move (:meth:`Position.is_over`), which the
    mobility counts tell: none of its amazons reaches a square, so each
    adds exactly 1 to its sum (any other adds at most 1/2). Both sides' distance layers are
    computed together, packed in one integer (:class:`_Packing`), the
    queen steps in the mirrored layout, each amazon's reach (the mobility)
    is counted by :class:`stargtp.engine.amazons.position.ReachCounter`,
    and the sums over pairs of layers are one ``bit_count`` per distance
    difference: this is the hot path of the Amazons search.
    tests/amazons_reference.py keeps the one-side-at-a-time version it
    replaced, and the tests check the two agree (and both against a
    square-by-square reference)."""
    geo = position.geometry
    packing = _packing(geo.size)
    field, block, mine, theirs = packing.field, packing.block, packing.mine, packing.theirs
    me = position.to_move
    occupied = position.occupied
    # Each amazon's reach counted on its own (the mobility term) ...
    counter = reach_counter(geo.size)
    counted, free = counter.board(occupied)
    guarded, lows, rays = counter.guarded, counter.lows, counter.rays
    my_mobility = their_mobility = 0.0
    amazons = 0  # both sides' amazons, mirrored (:class:`_Packing`)
    movers = position.amazons(me)
    table = packing.my_amazon
    shut_in = _SHUT_IN
    for square in movers:
        amazons |= table[square]
        my_mobility += shut_in[(((counted & guarded[square]) - lows) & rays[square] & free).bit_count()]
    if live and my_mobility == len(movers):
        return None
    table = packing.their_amazon
    for square in position.amazons(3 - me):
        amazons |= table[square]
        their_mobility += shut_in[(((counted & guarded[square]) - lows) & rays[square] & free).bit_count()]
    # ... and the distance layers of both sides at once, the king's first;
    # the counter's board holds the occupied squares reversed, which gives
    # the mirror of the empty squares.
    full = geo.full_mask
    empty = full & ~occupied
    empty |= empty << field
    kings, kings_reached, everything = _king_stack(amazons & packing.two_fields, empty, packing)
    mirrored_empty = empty | (full & ~(counted >> packing.reversed_shift)) * packing.mirror_places
    queens, queens_reached, c1 = _queen_stack(amazons, mirrored_empty, everything, packing)
    # Each side's fields of the stacks: a pair of layers is then one ``&``.
    own, other = queens & mine, queens & theirs
    t1, ties = _territory(own, other, queens_reached, field)
    # w: squares at distance i + 1 from the side to move and j + 1 from the
    # opponent, for each difference d = j - i: the opponent's stack moved
    # down by d blocks onto the side to move's (d >= 0), or the side to
    # move's moved down by -d blocks onto the opponent's (d < 0).
    spread = _SPREAD
    w = 0.0
    if ties:  # difference 0: the ties of t1
        w += ties * spread[_MIDDLE]
    d = _MIDDLE + 1
    moved = other >> (field + block)
    while moved:
        count = (own & moved).bit_count()
        if count:
            w += count * spread[d]
        d += 1
        moved >>= block
    d = _MIDDLE - 1
    moved = own >> (block - field)
    while moved:
        count = (other & moved).bit_count()
        if count:
            w += count * spread[d]
        d -= 1
        moved >>= block
    # w is a sum of multiples of powers of 2 small enough to be exact in any
    # order.

    own, other = kings & mine, kings & theirs
    t2 = _territory(own, other, kings_reached, field)[0]
    # c2: differences below 6 from the stacks as for w; a square 6 or more
    # nearer to one side, or reached by that side only, counts 1 for it:
    # those are its squares at distance k + 1 that the other had not
    # reached 5 layers later.
    lead = _LEAD
    c2 = 0.0
    moved = other >> (field + block)  # difference 0 weighs 0
    for d in range(_MIDDLE + 1, _MIDDLE + 6):
        if not moved:
            break
        count = (own & moved).bit_count()
        if count:
            c2 += count * lead[d]
        moved >>= block
    moved = own >> (block - field)
    for d in range(_MIDDLE - 1, _MIDDLE - 6, -1):
        if not moved:
            break
        count = (other & moved).bit_count()
        if count:
            c2 += count * lead[d]
        moved >>= block
    c2 += ((own & ~(kings_reached >> (5 * block + field))).bit_count()
           - (other & ~(kings_reached >> (5 * block - field))).bit_count())
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
    terms = _terms(position, True)
    if terms is None:
        return -1.0
    _, raw = _phase_and_raw(*terms, position.size)
    return math.tanh(raw / SCALE)


def evaluate_corrected(position: Position, territory_correction: float) -> float:
    """:func:`evaluate` with ``territory_correction`` added to ``t1``: the
    search's ``region_eval`` passes the separated regions' move counts minus
    their squares (:meth:`stargtp.engine.amazons.regions.RegionSolver.territory_correction`)."""
    terms = _terms(position, True)
    if terms is None:
        return -1.0
    t1, t2, c1, c2, w, mobility = terms
    _, raw = _phase_and_raw(t1 + territory_correction, t2, c1, c2, w, mobility, position.size)
    return math.tanh(raw / SCALE)
