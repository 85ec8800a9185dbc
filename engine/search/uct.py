"""UCT with RAVE: the engine's tree search, game-agnostic.

Monte Carlo tree search with UCB1 selection, AMAF/RAVE blending, an expansion
threshold, the final move by visit count, and tree reuse between moves. The
search sees a game only through its descriptor (``position.rules``, an
:class:`stargtp.engine.game.Game`) and the position API; docs/search.md explains the algorithm and every parameter.

Why it is fast enough in CPython (the cost per iteration is the point; the
playout itself is ~65 us on the 10-ring board):

* **Per-node arrays, no per-child objects.** A node keeps its children's
  visits and wins in two lists indexed by *slot* (the move's place in the
  node's move list). A child gets a :class:`Node` of its own only once it has
  been visited ``expand`` times.
* **AMAF counts as packed integers.** The playout reports each colour's cells
  as a bitboard. Byte tables turn that bitboard into a big integer with one
  32-bit field per bit position the masks can hold (``TreeHooks.amaf_bits``:
  a board layout's padding gets none), so adding a whole playout's AMAF
  result to a node costs one big-integer addition, whatever the number of
  children; a batch's results are summed once (``AmafPacker.batch_sums``).
  Reading the counts back is one ``to_bytes`` and a memoryview cast. The
  same packing adds a game's priors to a new node (``TreeHooks.prior``):
  virtual AMAF playouts, one multiplication and addition per mask.
* **Lazy rescoring.** Recomputing all ~275 blended values at every visit is
  the cost to beat. A node rescores every child only every ``rescore`` visits,
  or every ``rescore_share`` of its visits if that is more (or sooner, when
  its best candidate falls below the best value left out); in between it
  rescores only its ``candidates`` best children of the last full rescore.
  ``rescore=1`` with ``rescore_share=0`` is exact UCT-RAVE (the tests check
  it against a plain reference implementation).
* **Leaf batches.** With ``leaf_playouts`` k an iteration evaluates its
  leaf with k playouts (the game's batched kernel, ``TreeHooks.playouts``,
  when it has one) and the path's nodes add the batch's sums once, so the
  tree's work is paid once per k playouts.

>>> from stargtp.engine.star import Position
>>> player = UctPlayer(seed=1, playouts="200")
>>> result = player.genmove(Position(4), Limits())
>>> result.playouts, result.move in Position(4).legal_moves()
(200, True)
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import getitem, itemgetter, truediv
from typing import Any, Callable

from stargtp.engine.colour import BLACK
from stargtp.engine.game import TreeHooks
from stargtp.engine.search.base import (Budget, Limits, SearchResult, follows, never_stop, root_lead,
                                        count_or_game, start_key, win_rate_or_game)
from stargtp.engine.search.tree import TreePlayer, most_visited

RESIGN_MIN_PLAYOUTS = 100
"""A search of fewer playouts (a forced move, a hurried answer) is no
ground to resign on: it neither resigns nor counts towards ``resign_moves``."""

FIELD_BYTES = 4
"""Bytes per AMAF counter: 32-bit fields overflow only after 2**31 playouts
through one node (wins are counted in half points)."""

_ZERO_FIELD = bytes(FIELD_BYTES)
_ONE_FIELD = (1).to_bytes(FIELD_BYTES, "big")


@lru_cache(maxsize=None)
def _byte_table(pattern: int) -> tuple[bytes, ...]:
    """For one byte position of the masks whose used bits are ``pattern``:
    each byte value to the big-endian fields of its used bits, most
    significant first (1 for a set bit, 0 for a clear one)."""
    used = [7 - i for i in range(8) if pattern >> (7 - i) & 1]
    return tuple(b"".join(_ONE_FIELD if byte >> bit & 1 else _ZERO_FIELD for bit in used)
                 for byte in range(256))


def whole_equiv(e: float) -> bool:
    """True when ``e`` (``rave_equiv``) is a whole number below ``2**20``:
    then ``0.5 * e * h`` and ``e * r`` are exact for 32-bit counters ``h``
    and ``r``, and the blended value of an unvisited slot is the one rounding
    of ``h / (2 r)`` (see ``Tree._select_rave``).

    >>> whole_equiv(1000.0), whole_equiv(1000.5), whole_equiv(2.0 ** 20)
    (True, False, False)
    """
    return 0 < e < 1 << 20 and float(e).is_integer()


class AmafPacker:
    """Bitboards to packed AMAF counters and back, for one mask width.

    The counters are 32-bit *fields*, one for each bit position the masks
    can hold (``bits``; all ``width`` of them by default), in the order of
    the positions: a board layout's padding gets no field, so the packed
    integers, their additions and their unpacking are that much shorter.

    >>> packer = AmafPacker(8)
    >>> list(packer.unpack(packer.spread(0b101) * 3 + packer.spread(0b100)))
    [3, 0, 4, 0, 0, 0, 0, 0]
    >>> packer = AmafPacker(8, bits=0b1101)  # no field for bit 1 nor above bit 3
    >>> packer.fields, packer.field_of[3], list(packer.unpack(packer.spread(0b101) * 3 + packer.spread(0b1000)))
    (3, 2, [3, 0, 3, 1, 0, 0, 0, 0])
    """

    def __init__(self, width: int, bits: int = 0) -> None:
        if memoryview(bytes(FIELD_BYTES)).cast("I").itemsize != FIELD_BYTES:
            raise RuntimeError("this platform's C unsigned int is not 32 bits")
        if not bits:
            bits = (1 << width) - 1
        if bits >> width:
            raise ValueError("the used bits reach beyond the mask width")
        self.width = width
        self.bits = bits
        """The bit positions that have a field."""
        self._positions = [bit for bit in range(width) if bits >> bit & 1]
        self.fields = len(self._positions)
        self.field_of = [-1] * width
        """Each bit position's field (-1: none)."""
        for field, bit in enumerate(self._positions):
            self.field_of[bit] = field
        self._mask_bytes = (width + 7) // 8
        self._length = FIELD_BYTES * self.fields
        self._tables = tuple(_byte_table(bits >> (8 * j) & 0xFF) for j in reversed(range(self._mask_bytes)))
        self._union = self._union_spread = 0
        self.ones = self.spread(bits)
        """Every counter 1: added before unpacking, it gives the counts plus
        one (the virtual AMAF playout of the blended value) without an
        addition per child."""

    def spread(self, mask: int) -> int:
        """``mask`` with the bit of each field moved to the lowest bit of the
        field: each byte of the mask, most significant first, becomes the
        fields of its used bits (a big-endian byte string) through a table of
        its position's 256 values. Bits without a field are not counted."""
        return int.from_bytes(b"".join(map(getitem, self._tables, mask.to_bytes(self._mask_bytes, "big"))),
                              "big")

    def spread_pair(self, first: int, second: int) -> tuple[int, int]:
        """``(spread(first), spread(second))``. For disjoint masks the second
        is the spread of their union less the first's (spreading is additive
        over disjoint masks), and the union's spread is kept from the last
        call: a playout's two owner masks fill the same cells every time (the
        whole board), so this is one spread a playout instead of two.

        >>> packer = AmafPacker(8)
        >>> packer.spread_pair(0b101, 0b010) == (packer.spread(0b101), packer.spread(0b010))
        True
        """
        first_spread = self.spread(first)
        if first & second:
            return first_spread, self.spread(second)
        union = first | second
        if union != self._union:
            self._union, self._union_spread = union, self.spread(union)
        return first_spread, self._union_spread - first_spread

    def batch_sums(self, results) -> tuple[int, int, int, int]:
        """The packed AMAF sums of a batch of playout results ``(winner,
        black, white)``: ``(visits_black, visits_white, wins_black,
        wins_white)``, each colour's playouts and half-point wins (a win 2, a
        tie 1) per field of its mask.

        When the two masks of every result are disjoint with the same union
        (a full board), each white mask's spread is the union's less the
        black one's, so one spread a result and the sums of the black ones
        by winner give all four with a few packed operations a batch.
        Otherwise each result counts on its own (:meth:`batch_sums_plain`).

        >>> packer = AmafPacker(4)
        >>> results = [(1, 0b0011, 0b1100), (2, 0b0110, 0b1001), (None, 0b0101, 0b1010)]
        >>> packer.batch_sums(results) == packer.batch_sums_plain(results)
        True
        """
        union = results[0][1] | results[0][2]
        black_masks: list[int] = []
        white_masks: list[int] = []
        tied_masks: list[int] = []
        for winner, black, white in results:
            if black & white or black | white != union:
                return self.batch_sums_plain(results)
            if winner == BLACK:
                black_masks.append(black)
            elif winner is None:
                tied_masks.append(black)
            else:
                white_masks.append(black)
        spread_sum = self.spread_sum
        black_won = spread_sum(black_masks)
        white_won, white_wins = spread_sum(white_masks), len(white_masks)
        tied, ties = spread_sum(tied_masks), len(tied_masks)
        if union != self._union:
            self._union, self._union_spread = union, self.spread(union)
        every = self._union_spread
        visits_black = black_won + white_won + tied
        visits_white = len(results) * every - visits_black
        wins_black = black_won << 1
        wins_white = (white_wins * every - white_won) << 1 if white_wins else 0
        if ties:
            wins_black += tied
            wins_white += ties * every - tied
        return visits_black, visits_white, wins_black, wins_white

    def spread_sum(self, masks: list[int]) -> int:
        """The sum of the masks' spreads: for three masks or more, the spreads
        of the bit planes of each position's count (a carry-save count, a
        few whole-mask operations a mask) times their weights, so fewer
        spreads than masks.

        >>> packer = AmafPacker(4)
        >>> masks = [0b0111, 0b0110, 0b1110, 0b0100]
        >>> packer.spread_sum(masks) == sum(map(packer.spread, masks))
        True
        """
        if len(masks) < 3:
            return sum(map(self.spread, masks))
        planes: list[int] = []
        for carry in masks:
            for j, plane in enumerate(planes):
                planes[j] = plane ^ carry
                carry &= plane
                if not carry:
                    break
            else:
                planes.append(carry)
        total = 0
        for j, plane in enumerate(planes):
            if plane:
                total += self.spread(plane) << j
        return total

    def batch_sums_plain(self, results) -> tuple[int, int, int, int]:
        """:meth:`batch_sums` counted result by result, for any masks."""
        visits_black = visits_white = wins_black = wins_white = 0
        for winner, black, white in results:
            spread_black, spread_white = self.spread_pair(black, white)
            visits_black += spread_black
            visits_white += spread_white
            if winner == BLACK:
                wins_black += spread_black << 1
            elif winner is None:
                wins_black += spread_black
                wins_white += spread_white
            else:
                wins_white += spread_white << 1
        return visits_black, visits_white, wins_black, wins_white

    def unpack_fields(self, packed: int) -> memoryview:
        """The counters of ``packed``, indexable by field (``field_of``)."""
        return memoryview(packed.to_bytes(self._length, sys.byteorder)).cast("I")

    def unpack(self, packed: int) -> Sequence[int]:
        """The counters of ``packed``, indexable by bit position (0 for a
        position without a field)."""
        counts = self.unpack_fields(packed)
        if self.fields == self.width:
            return counts
        by_bit = [0] * self.width
        for field, bit in enumerate(self._positions):
            by_bit[bit] = counts[field]
        return by_bit


class Node:
    """One position of the tree, reached by the moves on its path.

    Its children's statistics live here, in lists indexed by slot; the lists
    are made at the node's first selection (``moves is None`` until then).
    """

    __slots__ = ("to_move", "visits", "rave_visits", "rave_wins", "moves", "amaf", "gather",
                 "child_visits", "child_wins", "children", "candidates", "next_rescore",
                 "floor", "floor_slot", "unvisited")

    def __init__(self, to_move: int) -> None:
        self.to_move = to_move
        """The colour that chooses among this node's moves."""
        self.visits = 0
        self.rave_visits = 0
        """Packed AMAF counters: playouts through here in which ``to_move`` got
        the cell, one 32-bit field per bit position of the owner masks."""
        self.rave_wins = 0
        """Packed AMAF wins of ``to_move`` for those playouts, in half points."""
        self.moves: list | None = None
        self.amaf: list[int] | None = None
        """Bit position of each slot's move in the owner masks (RAVE only)."""
        self.gather: Callable[[Any], tuple] | None = None
        """Unpacked counters to a tuple of each slot's counter, in slot order
        (RAVE only): one C-level gather instead of an index per child."""
        self.child_visits: list[int] = []
        self.child_wins: list[float] = []
        """Wins of ``to_move`` after each move (a tie counts one half)."""
        self.children: dict[int, Node] = {}
        self.candidates: list[int] = []
        """The best slots at the last full rescore, best first."""
        self.next_rescore = 0
        self.floor = -math.inf
        """The best value left out of ``candidates`` at the last full rescore."""
        self.floor_slot = -1
        """The slot of that value (-1 before the first full rescore with more
        slots than candidates)."""
        self.unvisited: list[int] | None = None
        """Plain UCT only: slots not tried yet, tried first in random order."""

    def child_for(self, colour: int, move: Any) -> Node | None:
        """The child node reached by ``colour`` playing ``move``, if the tree has one."""
        if self.moves is None or colour != self.to_move:
            return None
        try:
            slot = self.moves.index(move)
        except ValueError:
            return None
        return self.children.get(slot)

    def best_slot(self) -> int:
        """The most visited slot (more wins breaks a tie, then the first slot)."""
        return most_visited(self.child_visits, self.child_wins)


@dataclass(frozen=True)
class UctConfig:
    """The search parameters, read once per search from the player's values."""

    rave: bool
    exploration: float
    """UCB constant ``c`` of the term ``c * sqrt(ln N / n)`` (plain UCT) or
    ``c * sqrt(ln N / (n + 1))`` (with RAVE)."""
    rave_equiv: float
    """Real visits at which the tree and the AMAF estimates weigh the same."""
    expand: int
    rescore: int
    candidates: int
    rescore_share: float
    """A full rescore at least every ``rescore`` visits, or every this share
    of the node's visits if that is more."""
    max_nodes: int
    komi: float
    ownership: bool = False
    """Count, per playout, who owns each scoring point at the end (analysis)."""
    leaf_playouts: int = 1
    """Playouts per leaf: each iteration evaluates its leaf with a batch of
    this many (``TreeHooks.playouts`` when the game has a batched kernel)."""


class Tree:
    """A search tree with its root, for one game and board size."""

    def __init__(self, root: Node, hooks: TreeHooks, rng: random.Random) -> None:
        self.root = root
        self.hooks = hooks
        self.rng = rng
        self.node_count = 1
        self.packer = AmafPacker(hooks.amaf_width, hooks.amaf_bits) if hooks.amaf_width else None
        self.owned_by_black = 0
        """Packed per-point counts of playouts black owned the point in (from this root)."""
        self.owner_samples = 0

    def step(self, node: Node, colour: int, move: Any) -> Node | None:
        """The node after ``colour`` plays ``move`` from ``node``, if the tree has it."""
        return node.child_for(colour, move)

    def reroot(self, node: Node) -> None:
        """Keep only the subtree of ``node``."""
        if node is not self.root:
            self.owned_by_black = self.owner_samples = 0  # ownership is the root's
        self.root = node
        count = 0
        stack = [node]
        while stack:
            here = stack.pop()
            count += 1
            stack.extend(here.children.values())
        self.node_count = count

    # -- one search ------------------------------------------------------------
    def search(self, position, budget: Budget, config: UctConfig) -> None:
        """Run iterations from ``position`` (the root's position) until the
        budget says stop; at least one, so that the root has statistics.

        Each iteration evaluates its leaf with a batch of
        ``config.leaf_playouts`` playouts (fewer when a playout limit has
        fewer left, so the limit is met exactly): the batch's results are
        summed once (visits, wins, and per colour the spread AMAF masks and
        the winning ones) and every node on the path adds the sums, so the
        tree's work is paid once per batch. One playout a leaf is the
        classic search, random numbers and all."""
        hooks = self.hooks
        rave = config.rave and hooks.amaf_width > 0
        packer = self.packer
        select = self._select_rave if rave else self._select_plain
        playout = hooks.playout
        playouts = hooks.playouts
        batch = config.leaf_playouts
        owners = hooks.owners if config.ownership and packer is not None else None
        rng = self.rng
        komi = config.komi
        expand = config.expand
        board = position.copy()
        play, undo = board.play, board.undo
        root = self.root
        if root.moves is None:
            self._init_node(root, board, rave)
        path: list[tuple[Node, int | None]] = []
        while budget.done == 0 or budget.more():
            node = root
            depth = 0
            while True:
                if node.moves is None:
                    self._init_node(node, board, rave)
                if not node.moves:  # the game is over here: score it
                    path.append((node, None))
                    break
                slot = select(node, config)
                path.append((node, slot))
                play(node.moves[slot])
                depth += 1
                child = node.children.get(slot)
                if child is None:
                    if node.child_visits[slot] >= expand and self.node_count < config.max_nodes:
                        # A new node starts as a leaf: it selects from the next visit on,
                        # with one playout's AMAF statistics to go by.
                        child = Node(board.to_move)
                        node.children[slot] = child
                        self.node_count += 1
                        path.append((child, None))
                    break
                node = child
            size = batch
            if budget.playouts is not None:
                size = max(1, min(batch, budget.playouts - budget.done))
            if size == 1:
                results: Any = (playout(board, rng, komi),)
            elif playouts is not None:
                results = playouts(board, rng, komi, size)
            else:
                results = [playout(board, rng, komi) for _ in range(size)]
            # The batch's totals once, then the same sums for every node on the path.
            black_score = white_score = 0.0
            for winner, black, white in results:
                if winner == BLACK:
                    black_score += 1.0
                elif winner is None:
                    black_score += 0.5
                    white_score += 0.5
                else:
                    white_score += 1.0
                if owners is not None:
                    self.owned_by_black += packer.spread(owners(black, white))
            if owners is not None:
                self.owner_samples += size
            if rave:
                visits_black, visits_white, wins_black, wins_white = packer.batch_sums(results)
            for node, slot in path:
                node.visits += size
                if node.to_move == BLACK:
                    if rave:
                        node.rave_visits += visits_black
                        if wins_black:
                            node.rave_wins += wins_black
                    score = black_score
                else:
                    if rave:
                        node.rave_visits += visits_white
                        if wins_white:
                            node.rave_wins += wins_white
                    score = white_score
                if slot is not None:
                    node.child_visits[slot] += size
                    node.child_wins[slot] += score
            path.clear()
            for _ in range(depth):
                undo()
            budget.done += size

    def _init_node(self, node: Node, board, rave: bool) -> None:
        moves = board.legal_moves()  # never a pass: see UctPlayer.genmove
        if moves:
            # Rotate by a random amount: value ties go to the highest slot, and
            # this keeps that from favouring one part of the board.
            shift = self.rng.randrange(len(moves))
            moves = moves[shift:] + moves[:shift]
        count = len(moves)
        node.moves = moves
        node.amaf = list(map(self.hooks.amaf_index, moves)) if rave else None
        if rave and moves:
            # The first field again at the end: a tuple even for one move (itemgetter of
            # one index gives the item itself); the rescore's zip stops at the slots.
            fields = list(map(self.packer.field_of.__getitem__, node.amaf))
            node.gather = itemgetter(*fields, fields[0])
        if rave and moves and self.hooks.prior is not None:
            spread = self.packer.spread
            for mask, playouts, half_wins in self.hooks.prior(board):
                if mask:
                    spread_mask = spread(mask)
                    node.rave_visits += spread_mask * playouts
                    node.rave_wins += spread_mask * half_wins
        node.child_visits = [0] * count
        node.child_wins = [0.0] * count
        node.unvisited = None if rave else list(range(count))

    # -- selection ---------------------------------------------------------------
    # The blended value of a slot with n visits and w wins, AMAF counts r0 and
    # half-point wins h (one virtual half-won AMAF playout added: r = r0 + 1,
    # q = (h + 1) / 2), is (1 - beta) * w/n + beta * q/r with
    # beta = r / (n + r + n*r/E); multiplied out by E, with t = E + r,
    #     (w * t + (E/2) * (h + 1)) / (n * t + E * r)
    # which has no division by zero and few operations. The expressions below
    # (and the test's reference) must stay identical term for term so that
    # rescore=1 reproduces exact UCT-RAVE bit for bit.

    def _select_rave(self, node: Node, config: UctConfig) -> int:
        visits, wins = node.child_visits, node.child_wins
        unpack = self.packer.unpack_fields
        e = config.rave_equiv
        half_e = 0.5 * e
        c = config.exploration
        if node.visits < node.next_rescore:
            amaf, field_of = node.amaf, self.packer.field_of
            rave_visits = unpack(node.rave_visits)
            rave_wins = unpack(node.rave_wins)
            best, best_value = -1, -math.inf
            for slot in node.candidates:
                n = visits[slot]
                a = field_of[amaf[slot]]
                r = rave_visits[a] + 1
                t = e + r
                value = (wins[slot] * t + half_e * (rave_wins[a] + 1)) / (n * t + e * r)
                if c:
                    value += c * math.sqrt(math.log(node.visits + 1) / (n + 1))
                if value > best_value or (value == best_value and slot > best):
                    best, best_value = slot, value
            if best_value >= node.floor:
                return best
        # The full rescore: the counters plus one (the virtual playout) with one
        # packed addition each, gathered in slot order. With no visits (n = 0,
        # w = 0.0) the value is (0.0 * t + half_e * h1) / (0 * t + e * r): adding
        # zero changes no float, so the short form is the same number bit for bit.
        ones, gather = self.packer.ones, node.gather
        if whole_equiv(e):
            # When E is a whole number (below 2**20), half_e * h1 and e * r are
            # exact (below 2**53), so the short form's one rounding is that of
            # the exact h1 / (2 r): the same number as an int division, which
            # rounds once too. So the unvisited slots' values come from one
            # division a field, in C, on the packed counters doubled (2 r0 + 2:
            # a field overflows only where r0 + 1 would already be past 2**31),
            # gathered in slot order, and only the visited slots are valued
            # in Python.
            doubled = unpack((node.rave_visits + ones) << 1)
            half_wins = unpack(node.rave_wins + ones)
            values = list(gather(list(map(truediv, half_wins, doubled))))
            values.pop()  # the gather's extra first field
            amaf, field_of = node.amaf, self.packer.field_of
            for slot in compress(range(len(visits)), visits):
                a = field_of[amaf[slot]]
                r = doubled[a] >> 1
                t = e + r
                values[slot] = (wins[slot] * t + half_e * half_wins[a]) / (visits[slot] * t + e * r)
        else:
            values = [(w * (t := e + r) + half_e * h1) / (n * t + e * r) if n else half_e * h1 / (e * r)
                      for n, w, r, h1 in zip(visits, wins, gather(unpack(node.rave_visits + ones)),
                                             gather(unpack(node.rave_wins + ones)))]
        if c:
            log_visits = math.log(node.visits + 1)
            values = [v + c * math.sqrt(log_visits / (n + 1)) for v, n in zip(values, visits)]
        return self._keep_candidates(node, values, config)

    def _select_plain(self, node: Node, config: UctConfig) -> int:
        unvisited = node.unvisited
        if unvisited:
            i = self.rng.randrange(len(unvisited))
            slot = unvisited[i]
            unvisited[i] = unvisited[-1]
            unvisited.pop()
            return slot
        visits, wins = node.child_visits, node.child_wins
        c = config.exploration
        log_visits = math.log(node.visits + 1)
        if node.visits < node.next_rescore:
            best, best_value = -1, -math.inf
            for slot in node.candidates:
                n = visits[slot]
                value = wins[slot] / n + c * math.sqrt(log_visits / n)
                if value > best_value or (value == best_value and slot > best):
                    best, best_value = slot, value
            if best_value >= node.floor:
                return best
        values = [w / n + c * math.sqrt(log_visits / n) for n, w in zip(visits, wins)]
        return self._keep_candidates(node, values, config)

    @staticmethod
    def _keep_candidates(node: Node, values: list[float], config: UctConfig) -> int:
        """Remember the best slots of a full rescore; return the best one.

        A stable sort of the slots by value puts equal values in slot order,
        so the last slots are the best ones, the higher slot first among
        equals. The next full rescore comes after ``rescore`` visits, or after
        ``rescore_share`` of the node's visits if that is more: the values of
        a much visited node move slowly."""
        keep = config.candidates
        count = len(values)
        if count > keep and node.floor_slot >= 0 and len(node.candidates) >= keep:
            # Only the best keep + 1 slots matter. The last rescore's keep + 1
            # best slots are keep + 1 slots whose values are at least the
            # lowest of theirs now, so the (keep + 1)-th best value is too:
            # sorting just the slots of such values (in slot order, so equal
            # values stay in slot order) ends as the whole sort ends.
            low = min(values[node.floor_slot], min(map(values.__getitem__, node.candidates)))
            order = [slot for slot, value in enumerate(values) if value >= low]
            order.sort(key=values.__getitem__)
        else:
            order = sorted(range(count), key=values.__getitem__)
        if count > keep:
            node.floor_slot = order[-keep - 1]
            node.floor = values[node.floor_slot]
            ranked = order[:-keep - 1:-1]
        else:
            node.floor = -math.inf
            ranked = order[::-1]
        node.candidates = ranked
        node.next_rescore = node.visits + max(config.rescore, int(node.visits * config.rescore_share))
        return ranked[0]

    # -- the answer ----------------------------------------------------------------
    def lead(self) -> float:
        """The fewest further iterations that could change the answer (the
        most visited root move): its visit lead over the runner-up. Every
        playout visits exactly one root move (a batch of ``k`` gives the
        same root move ``k`` visits)."""
        return root_lead(self.root.child_visits)

    def ownership(self) -> list:
        """``(point, share)``: the share of this root's playouts (with
        ownership counting on) in which black owned each scoring point."""
        if not self.owner_samples or not self.hooks.owner_points:
            return []
        counts = self.packer.unpack(self.owned_by_black)
        return [(point, counts[bit] / self.owner_samples) for point, bit in self.hooks.owner_points]

    def variations(self, count: int = 10, limit: int = 20) -> dict:
        """The expected continuation after each of the ``count`` most visited
        root moves, each starting with that move."""
        root = self.root
        if not root.moves:
            return {}
        slots = sorted((s for s, v in enumerate(root.child_visits) if v),
                       key=lambda s: -root.child_visits[s])[:count]
        found = {}
        for slot in slots:
            line = [root.moves[slot]]
            node = root.children.get(slot)
            while node is not None and node.moves and len(line) < limit:
                best = node.best_slot()
                if node.child_visits[best] == 0:
                    break
                line.append(node.moves[best])
                node = node.children.get(best)
            found[root.moves[slot]] = line
        return found

    def principal_variation(self, limit: int = 20) -> list:
        pv = []
        node: Node | None = self.root
        while node is not None and node.moves and len(pv) < limit:
            slot = node.best_slot()
            if node.child_visits[slot] == 0:
                break
            pv.append(node.moves[slot])
            node = node.children.get(slot)
        return pv


class UctPlayer(TreePlayer):
    """UCT with RAVE, tree reuse and optional resigning (see docs/search.md)."""

    name = "uct"
    PARAMS = {
        "playouts": (int, 5000),
        "rave": (bool, True),
        "rave_equiv": (float, 1000.0),
        "rave_exploration": (float, 0.0),
        "exploration": (float, 0.25),
        "expand": (int, 2),
        "rescore": (int, 8),
        "candidates": (int, 8),
        "rescore_share": (float, 0.05),
        "max_nodes": (int, 20000),
        "reuse": (bool, True),
        "resign": (win_rate_or_game, None),
        "resign_moves": (int, 3),
        "komi": (float, 0.0),
        "ownership": (bool, False),
        "leaf_playouts": (count_or_game, None),
    }

    def __init__(self, seed: int | None = None, **params: str) -> None:
        self._low_history: list = []
        self._low_key: tuple | None = None
        self._low_moves = 0
        super().__init__(seed, **params)

    def check_param(self, name: str, value: Any) -> Any:
        if name == "rave_equiv" and value <= 0:
            raise ValueError("rave_equiv must be positive")
        if name in ("rescore", "candidates") and value < 1:
            raise ValueError(f"{name} must be at least 1")
        return value

    def config(self, amaf: bool = True, game_leaf_playouts: int = 1) -> UctConfig:
        """The search settings; without AMAF masks (a game such as the
        Amazons) RAVE cannot run, and plain UCT's exploration applies.
        ``leaf_playouts`` ``game`` (None) is the game's
        ``game_leaf_playouts`` (``rules.leaf_playouts``)."""
        v = self.values
        rave = v["rave"] and amaf
        return UctConfig(
            rave=rave,
            exploration=v["rave_exploration"] if rave else v["exploration"],
            rave_equiv=v["rave_equiv"],
            expand=v["expand"],
            rescore=v["rescore"],
            candidates=v["candidates"],
            rescore_share=v["rescore_share"],
            max_nodes=max(1, v["max_nodes"]),
            komi=v["komi"],
            ownership=v["ownership"],
            leaf_playouts=v["leaf_playouts"] or game_leaf_playouts,
        )

    def genmove(self, position, limits: Limits, should_stop: Callable[[], bool] = never_stop) -> SearchResult:
        budget = Budget(limits, self.values["playouts"], should_stop)
        komi = self.values["komi"]
        rules = position.rules
        # Passing is never a candidate: a player passes only when no move is
        # left, or when the opponent has just passed and passing wins.
        moves = position.legal_moves()
        if not moves:
            return SearchResult(move=rules.no_move(position, komi))
        if rules.passing_wins(position, komi):
            return SearchResult(move=rules.no_move(position, komi), winrate=1.0)
        tree = self.tree_for(position)
        config = self.config(amaf=tree.hooks.amaf_width > 0, game_leaf_playouts=rules.leaf_playouts)
        if len(moves) == 1:
            budget.playouts = 1  # a forced move needs no thought
        budget.watch(tree.lead)
        tree.search(position, budget, config)
        root = tree.root
        slot = root.best_slot()
        visits, wins = root.child_visits[slot], root.child_wins[slot]
        winrate = wins / visits if visits else None
        result = SearchResult(
            move=root.moves[slot],
            playouts=budget.done,
            winrate=winrate,
            pv=tree.principal_variation(),
            root={root.moves[s]: (v, root.child_wins[s])
                  for s, v in enumerate(root.child_visits) if v},
            variations=tree.variations(),
            ownership=tree.ownership(),
        )
        if self._should_resign(position, winrate if budget.done >= RESIGN_MIN_PLAYOUTS else None):
            result.move = None
        return result

    def new_tree(self, position) -> Tree:
        return Tree(Node(position.to_move), position.rules.tree_hooks(position), self.rng)

    def _should_resign(self, position, winrate: float | None) -> bool:
        """True once the win rate has stayed below ``resign`` (``game``: the
        game's ``rules.resign_below``, 0 when it has none) for
        ``resign_moves`` searches in a row of the same game; ``winrate``
        None (no real search) starts the count again."""
        threshold = self.values["resign"]
        if threshold is None:
            threshold = position.rules.resign_below or 0.0
        key = start_key(position)
        history = list(position.history)
        old = self._low_history
        if key != self._low_key or not follows(history, old):
            self._low_moves = 0  # another game, or moves were taken back
        self._low_history = history
        self._low_key = key
        if threshold <= 0 or winrate is None:
            self._low_moves = 0
            return False
        self._low_moves = self._low_moves + 1 if winrate < threshold else 0
        return self._low_moves >= max(1, self.values["resign_moves"])
