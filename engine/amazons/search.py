"""Monte Carlo tree search for the Game of the Amazons with an evaluation
cut-off, the method of the strong Amazons programs (Invader).

Each iteration selects down the tree with UCB1, plays ``plies`` random plies
from the leaf (by default none), scores the position reached with the
Lieberum-style evaluation of :mod:`stargtp.engine.amazons.evaluation`, maps that
score to a win probability, and backs it up. A finished game scores exactly
(0 or 1), and so does (with ``regions``) a separated position whose region
values decide it (:mod:`stargtp.engine.amazons.regions`).

About 2,000 legal moves at the 10x10 start make "one child per move" too
costly, so a move can be split into tree levels (``split``): 3 levels
(amazon, destination, arrow), 2 levels ((amazon, destination), arrow) or 1
(whole moves). Independently, ``widening`` opens a node's choices a few at a
time, in the order of a move-ordering heuristic (``order``). The evaluation
happens only after whole moves; inside a move, selection goes on from level
to level. docs/search-amazons.md explains the algorithm, every parameter and
the measurements behind the defaults.

>>> from stargtp.engine.amazons import Position
>>> player = AmazonsMcts(seed=1, playouts="100")
>>> result = player.genmove(Position(6), Limits())
>>> result.playouts, Position(6).is_legal(result.move)
(100, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from stargtp.engine.amazons.evaluation import evaluate, evaluate_corrected
from stargtp.engine.amazons.playout import cutoff_playout
from stargtp.engine.amazons.position import Move, Position, ReachMemo, queen_reach, reach_counter
from stargtp.engine.amazons.regions import RegionSolver
from stargtp.engine.amazons.tactics import arrow_tactics
from stargtp.engine.bits import bit_list
from stargtp.engine.search.base import Budget, Limits, SearchResult, never_stop, root_lead
from stargtp.engine.search.collector import collector_paused
from stargtp.engine.search.tree import TreePlayer, most_visited

# What the side to move chooses at a node (its *kind*). A position node is
# where a whole move starts: PICK_AMAZON, PICK_PAIR or PICK_MOVE, by ``split``.
PICK_AMAZON = 0
"""split=3, position node: the square of the amazon that moves."""
PICK_DESTINATION = 1
"""split=3: where that amazon goes (a square)."""
PICK_PAIR = 2
"""split=2, position node: ``(origin, destination)``."""
PICK_ARROW = 3
"""split=2 and 3: where the arrow lands (a square)."""
PICK_MOVE = 4
"""split=1, position node: a whole :class:`Move`."""
# PICK_ARROW and PICK_MOVE, the kinds that complete a move, are the highest:
# the search tests ``kind >= PICK_ARROW``.

POSITION_KIND = {3: PICK_AMAZON, 2: PICK_PAIR, 1: PICK_MOVE}
ORDERS = ("cheap", "eval", "none")

ARROW_WEIGHT = 3.0
"""Weight of the arrow score against the destination's mobility when the
cheap ordering ranks whole moves (split=1)."""
STOP_POLL = 16
"""Evaluations between two polls of the stop condition while ``order=eval``
ranks a node's choices (2,000 of them take ~0.15 s at the 10x10 start)."""


class Node:
    """One node of the tree. Its children's statistics live here, in lists
    indexed by *slot* (a choice's place in ``choices``, best ordered first);
    a child gets a Node of its own only when the search goes through it.
    ``choices`` is None until the node is first selected from."""

    __slots__ = ("kind", "to_move", "origin", "target", "visits", "choices", "count", "more",
                 "child_visits", "child_wins", "child_values", "children", "tried", "solved")

    def __init__(self, kind: int, to_move: int, origin: int = -1, target: int = -1) -> None:
        self.kind = kind
        self.to_move = to_move
        """The colour choosing here (the same on every level of one move)."""
        self.origin = origin
        """The amazon chosen on the levels above (PICK_DESTINATION, PICK_ARROW)."""
        self.target = target
        """Its destination (PICK_ARROW)."""
        self.visits = 0
        self.choices: list | None = None
        """The choices in order, best first; while ``more`` is not None only
        the first ones, those the search has opened."""
        self.count = 0
        """How many choices the node has (``len(choices)`` once complete)."""
        self.more: Iterator | None = None
        """The choices after those of ``choices``, in order, made only when
        widening opens them (most nodes are visited once or twice)."""
        self.child_visits: list[int] = []
        self.child_wins: list[float] = []
        """Sum of ``to_move``'s win probabilities over the visits of each slot."""
        self.child_values: list[float] = []
        """With ``minimax`` above 0: each tried slot's implicit minimax value,
        ``to_move``'s win probability (see :meth:`Tree.search`)."""
        self.children: dict[int, Node] = {}
        self.tried = 0
        """Slots ``0 .. tried - 1`` have been visited; the next new one is ``tried``."""
        self.solved: float | None = None
        """A position node whose outcome the region solver proved: the side
        to move's win probability, 1.0 or 0.0; the search stops here."""

    def is_position(self) -> bool:
        return self.kind in (PICK_AMAZON, PICK_PAIR, PICK_MOVE)

    def best_slot(self) -> int:
        """The most visited slot; more wins breaks a tie, then the better ordered."""
        return most_visited(self.child_visits, self.child_wins)


@dataclass(frozen=True)
class MctsConfig:
    """The search parameters, read once per search from the player's values."""

    split: int
    order: str
    widening: bool
    widen_base: int
    widen_factor: float
    widen_exponent: float
    exploration: float
    plies: int
    sharpness: float
    expand: int
    max_nodes: int
    regions: bool
    region_eval: bool
    region_nodes: int
    split_order: float = 0.0
    minimax: float = 0.0


def win_probability(value: float, sharpness: float) -> float:
    """An evaluation ``value`` in [-1, 1] as a win probability:
    ``(1 + v)^k / ((1 + v)^k + (1 - v)^k)`` with ``k = sharpness``.

    With ``k = 1`` that is ``(1 + v) / 2``; since the evaluation is
    ``tanh(raw / SCALE)`` it is the logistic ``1 / (1 + exp(-2 k raw / SCALE))``
    of the raw score, and a larger ``k`` makes it steeper (towards win/loss by
    the sign of the evaluation).

    >>> win_probability(0.0, 1.0), win_probability(0.5, 1.0), win_probability(-1.0, 3.0)
    (0.5, 0.75, 0.0)
    """
    if sharpness == 1.0:
        return (1.0 + value) * 0.5
    up = (1.0 + value) ** sharpness
    return up / (up + (1.0 - value) ** sharpness)


class IterationBudget(Budget):
    """:class:`Budget` that consults the clock and ``should_stop`` before
    every iteration: an iteration of this search costs a few hundred
    microseconds, so polling each time is cheap and keeps stopping prompt."""

    CHECK_EVERY = 1


class MoveOrdering:
    """Ranks the choices of a node, best first, for one board and one
    ``order``; the position is the scratch board of the search, before the
    move being chosen is played.

    The *cheap* heuristic: an amazon scores its mobility (squares it reaches
    now); a destination the mobility the amazon would have there; an arrow
    ``[in the reach of an opponent amazon] + [in the reach of two of them] +
    2 [next to an opponent amazon] - [next to one of ours]``, all after the
    amazon's step; a whole move the destination's score plus ``ARROW_WEIGHT``
    times the arrow's. *eval* ranks destinations and whole moves by the
    evaluation after them (a destination as the move that shoots back onto
    the square it left, which is always legal). *none* shuffles at random.
    With ``split_order`` above 0, the cheap arrow score adds that weight times
    the arrow's tactics at the split (:func:`arrow_tactics`: regions sealed
    and amazons trapped, in squares).
    """

    def __init__(self, order: str, rng: random.Random, stopped: Callable[[], bool],
                 split_order: float = 0.0) -> None:
        self.order = order
        self.rng = rng
        self.stopped = stopped
        self.split_order = split_order
        self._memo: ReachMemo | None = None

    def _reach_memo(self, board: Position) -> ReachMemo:
        """This ordering's memo of ``queen_reach`` for ``board``'s size
        (:class:`ReachMemo`: a search's nodes ask about the same lines again
        and again); a board of another size starts a new memo."""
        memo = self._memo
        if memo is None or memo.geometry is not board.geometry:
            memo = self._memo = ReachMemo(board.geometry)
        return memo

    def start(self, node: Node, board: Position) -> tuple[list, Iterator | None, int]:
        """For the search, ``(choices, more, count)`` of ``node`` on
        ``board`` (see :class:`Node`): the arrows of the cheap order come one
        at a time from their score classes (:meth:`_arrow_classes`), as
        widening opens them, since most arrow nodes are visited once or
        twice (without ``split_order``, whose bonus needs every arrow's score);
        every other node gets all its choices at once."""
        if node.kind == PICK_ARROW and self.order == "cheap" and not self.split_order:
            classes, count = self._arrow_classes(board, node.origin, node.target)
            return [], _class_walk(classes), count
        choices = self.choices(node, board)
        return choices, None, len(choices)

    def choices(self, node: Node, board: Position) -> list:
        """The legal choices of ``node`` on ``board``, best first."""
        kind = node.kind
        if kind == PICK_AMAZON:
            return self._amazons(board)
        if kind == PICK_DESTINATION:
            return self._destinations(board, node.origin)
        if kind == PICK_ARROW:
            return self._arrows(board, node.origin, node.target)
        if kind == PICK_PAIR:
            return self._pairs(board)
        return self._moves(board)

    # -- the levels ------------------------------------------------------------
    def _movable(self, board: Position) -> list[int]:
        """The side to move's amazons that have a move (a free neighbour)."""
        free = ~board.occupied
        king_masks = board.geometry.king_masks
        return [s for s in board.amazons(board.to_move) if king_masks[s] & free]

    def _amazons(self, board: Position) -> list[int]:
        amazons = self._movable(board)
        if self.order == "none":
            self.rng.shuffle(amazons)
            return amazons
        counter = reach_counter(board.size)
        packed, free = counter.board(board.occupied)
        guarded, lows, rays = counter.guarded, counter.lows, counter.rays
        # Even under order=eval: four choices at most, not worth evaluations.
        # The key is ReachCounter.count, inlined.
        return sorted(amazons, key=lambda s: -(((packed & guarded[s]) - lows) & rays[s] & free).bit_count())

    def _destinations(self, board: Position, origin: int) -> list[int]:
        occupied = board.occupied
        targets = bit_list(self._reach_memo(board).reach(origin, occupied))
        if self.order == "none":
            self.rng.shuffle(targets)
            return targets
        if self.order == "eval":
            return self._by_evaluation(board, [Move(origin, t, origin) for t in targets], targets)
        counter = reach_counter(board.size)
        packed, free = counter.board(occupied ^ (1 << origin))
        guarded, lows, rays = counter.guarded, counter.lows, counter.rays
        # The mobility there, ReachCounter.count inlined.
        return sorted(targets, key=lambda t: -(((packed & guarded[t]) - lows) & rays[t] & free).bit_count())

    def _arrows(self, board: Position, origin: int, target: int) -> list[int]:
        occupied = board.occupied
        ray_masks = board.geometry.ray_masks
        arrows = bit_list(queen_reach(target, occupied ^ (1 << origin), ray_masks))
        if self.order == "none":
            self.rng.shuffle(arrows)
            return arrows
        if self.order == "eval":
            return self._by_evaluation(board, [Move(origin, target, a) for a in arrows], arrows)
        if self.split_order:
            # Best first, ties in square order: reverse=True keeps a sort stable.
            return sorted(arrows, key=self._full_arrow_scorer(board, origin, target), reverse=True)
        return list(_class_walk(self._arrow_classes(board, origin, target)[0]))

    def _pairs(self, board: Position) -> list[tuple[int, int]]:
        occupied = board.occupied
        ray_masks = board.geometry.ray_masks
        pairs = [(origin, target) for origin in self._movable(board)
                 for target in bit_list(queen_reach(origin, occupied, ray_masks))]
        if self.order == "none":
            self.rng.shuffle(pairs)
            return pairs
        if self.order == "eval":
            return self._by_evaluation(board, [Move(f, t, f) for f, t in pairs], pairs)
        return sorted(pairs, key=lambda pair: -queen_reach(
            pair[1], occupied ^ (1 << pair[0]), ray_masks).bit_count())

    def _moves(self, board: Position) -> list[Move]:
        moves = board.legal_moves()
        if self.order == "none":
            self.rng.shuffle(moves)
            return moves
        if self.order == "eval":
            return self._by_evaluation(board, moves, moves)
        occupied = board.occupied
        ray_masks = board.geometry.ray_masks
        scores: list[float] = []
        scorer_of: dict[tuple[int, int], tuple[Callable[[int], float], float]] = {}
        for origin, target, arrow in moves:
            found = scorer_of.get((origin, target))
            if found is None:
                mobility = queen_reach(target, occupied ^ (1 << origin), ray_masks).bit_count()
                found = scorer_of[(origin, target)] = (self._full_arrow_scorer(board, origin, target), mobility)
            score, mobility = found
            scores.append(mobility + ARROW_WEIGHT * score(arrow))
        ranked = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
        return [moves[i] for i in ranked]

    # -- scores ------------------------------------------------------------------
    def _full_arrow_scorer(self, board: Position, origin: int, target: int) -> Callable[[int], float]:
        """The cheap arrow score after the amazon's step ``origin -> target``
        (:meth:`_arrow_scorer`), plus ``split_order`` times the tactics at the
        split when that weight is above 0."""
        cheap = self._arrow_scorer(board, origin, target)
        weight = self.split_order
        if not weight:
            return cheap
        tactics = arrow_tactics(board, origin, target)
        return lambda arrow: cheap(arrow) + weight * tactics(arrow)

    @staticmethod
    def _arrow_scorer(board: Position, origin: int, target: int) -> Callable[[int], float]:
        """The cheap arrow score after the amazon's step ``origin -> target``."""
        reached, twice, near, own = MoveOrdering._arrow_masks(board, origin, target)

        def score(arrow: int) -> float:
            bit = 1 << arrow
            return ((bit & reached != 0) + (bit & twice != 0) + 2 * (bit & near != 0)
                    - (bit & own != 0))

        return score

    @staticmethod
    def _arrow_masks(board: Position, origin: int, target: int) -> tuple[int, int, int, int]:
        """The squares of the cheap arrow score after the amazon's step
        ``origin -> target``: reached by an opponent amazon, by two of them,
        next to one, and next to one of ours (the plain form of what
        :meth:`_arrow_classes` computes with the memo)."""
        geo = board.geometry
        king_masks = geo.king_masks
        ray_masks = geo.ray_masks
        after = board.occupied ^ (1 << origin) ^ (1 << target)
        reached = twice = near = 0
        for square in board.amazons(3 - board.to_move):
            reach_here = queen_reach(square, after, ray_masks)
            twice |= reached & reach_here
            reached |= reach_here
            near |= king_masks[square]
        own = king_masks[target]
        for square in board.amazons(board.to_move):
            if square != origin:
                own |= king_masks[square]
        return reached, twice, near, own

    def _arrow_classes(self, board: Position, origin: int, target: int) -> tuple[tuple[int, ...], int]:
        """The arrows after the amazon's step ``origin -> target`` as six
        masks, those of cheap score 4, 3, 2, 1, 0 and -1 (the score of
        :meth:`_arrow_scorer`), and their number: walking the masks in turn,
        each lowest square first, gives the arrows best first, ties in
        square order, as sorting them by :meth:`_arrow_scorer` does
        (``tests/test_amazons_search.py`` compares the two)."""
        # _arrow_masks with the memo's reaches (:meth:`_reach_memo`), both
        # written out: this runs on every new arrow node.
        geo = board.geometry
        lines, tags, known, ray_masks = self._reach_memo(board).parts()
        lifted = board.occupied ^ (1 << origin)
        key = (lifted & lines[target]) | tags[target]
        arrows = known.get(key)
        if arrows is None:
            arrows = known[key] = queen_reach(target, lifted, ray_masks)
        after = lifted ^ (1 << target)
        king_masks = geo.king_masks
        reached = twice = near = 0
        me = board.to_move
        for square in board.amazons(3 - me):
            key = (after & lines[square]) | tags[square]
            reach_here = known.get(key)
            if reach_here is None:
                reach_here = known[key] = queen_reach(square, after, ray_masks)
            twice |= reached & reach_here
            reached |= reach_here
            near |= king_masks[square]
        own = king_masks[target]
        for square in board.amazons(me):
            if square != origin:
                own |= king_masks[square]
        # score = [reached] + [twice] + 2 [near] - [own], twice within reached:
        # first the classes of [reached] + [twice] + 2 [near] (0 to 4) ...
        close = arrows & near
        far = arrows ^ close
        once = reached ^ twice
        four = close & twice
        three = close & once
        two = (close & ~reached) | (far & twice)
        one = far & once
        zero = far & ~reached
        # ... then each one lower where an own amazon is next to the arrow.
        free = ~own
        return ((four & free, (four & own) | (three & free),
                 (three & own) | (two & free), (two & own) | (one & free),
                 (one & own) | (zero & free), zero & own), arrows.bit_count())

    def _by_evaluation(self, board: Position, moves: list[Move], choices: list) -> list:
        """``choices`` sorted by the evaluation after the matching ``moves``,
        for the side that plays them. Polls the stop condition; once it says
        stop, the choices not yet evaluated follow the others unranked."""
        scores: list[float] = []
        for i, move in enumerate(moves):
            if i % STOP_POLL == 0 and i and self.stopped():
                scores.extend([-math.inf] * (len(moves) - i))
                break
            board.play_unchecked(move)
            scores.append(-evaluate(board))  # the opponent's view, turned round
            board.undo()
        ranked = sorted(range(len(choices)), key=scores.__getitem__, reverse=True)
        return [choices[i] for i in ranked]


def _class_walk(classes: tuple[int, ...]) -> Iterator[int]:
    """The squares of each mask of ``classes`` in turn, lowest first."""
    for mask in classes:  # iter_bits(mask) written out
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low


def _ucb_tables(config: MctsConfig) -> tuple[list[int], list[float], Callable[[int], int]]:
    """The tables of the slot choice (UCB1 over a node's open slots, a slot
    not tried yet first, in order), by a node's visits ``N``: ``widths[N]``,
    the open slots with widening (``widen_base + widen_factor *
    N^widen_exponent``), and ``scales[N]``, the exploration term's
    ``exploration^2 log N``; and ``grow(N)``, which makes them reach past
    ``N`` and answers their new length. The search loop chooses inline, at
    every level of every iteration, from these tables."""
    base, factor, exponent = config.widen_base, config.widen_factor, config.widen_exponent
    squared = config.exploration * config.exploration
    log = math.log
    widths: list[int] = []
    scales: list[float] = []

    def grow(visits: int) -> int:
        for n in range(len(widths), 2 * visits + 16):
            widths.append(max(1, base + int(factor * n ** exponent)))
            scales.append(squared * (log(n) if n else -math.inf))
        return len(widths)

    return widths, scales, grow


class Tree:
    """A search tree with its root position node."""

    def __init__(self, root: Node, rng: random.Random) -> None:
        self.root = root
        self.rng = rng
        self.node_count = 1
        self.solver: RegionSolver | None = None
        """The region solver of this tree's searches (made by the first one)."""

    def reroot(self, node: Node) -> None:
        """Keep only the subtree of ``node``."""
        self.root = node
        count = 0
        stack = [node]
        while stack:
            here = stack.pop()
            count += 1
            stack.extend(here.children.values())
        self.node_count = count

    def step(self, node: Node, colour: int, move: Move) -> Node | None:
        """The position node after ``colour`` plays ``move`` from ``node``, if
        the tree has it (None also when ``colour`` is not to move there: a
        set-up with two moves of one colour)."""
        return self.descend(node, move) if node.to_move == colour else None

    def descend(self, node: Node, move: Move) -> Node | None:
        """The position node after ``move`` from position node ``node``, if
        the tree has it."""
        if node.kind == PICK_MOVE:
            steps: tuple = (tuple(move),)
        elif node.kind == PICK_PAIR:
            steps = ((move[0], move[1]), move[2])
        else:
            steps = tuple(move)
        for choice in steps:
            if node.choices is None:
                return None
            try:
                slot = node.choices.index(choice)
            except ValueError:
                return None
            found = node.children.get(slot)
            if found is None:
                return None
            node = found
        return node

    # -- one search ---------------------------------------------------------------
    def search(self, position: Position, budget: IterationBudget, config: MctsConfig) -> None:
        """Run iterations from ``position`` (the root's position) until the
        budget says stop; at least one, so that the root has statistics.

        One loop does it all, with everything it uses in local variables,
        since its Python is about a third of an iteration: the slot choice
        (see :func:`_ucb_tables`) is written out in it."""
        rng = self.rng
        board = position.copy()
        play, undo = board.play_unchecked, board.undo
        # The moves of an iteration are played on ``board`` without its
        # history (Position.place) and taken back in the same way
        # (Position.lift): (colour, origin, target, arrow) of each in
        # ``moved``, or None for one played by ``play``.
        place, lift = board.place, board.lift
        moved: list[tuple[int, int, int, int] | None] = []
        push, pop = moved.append, moved.pop
        ordering = MoveOrdering(config.order, rng, budget.out_of_time, config.split_order)
        init_node = self._init_node
        position_kind = POSITION_KIND[config.split]
        expand, max_nodes = config.expand, config.max_nodes
        widening = config.widening
        widths, scales, grow = _ucb_tables(config)
        limit = 0  # len(widths) == len(scales)
        sqrt, inf = math.sqrt, math.inf
        root = self.root
        root.solved = None  # the root chooses its move even when its outcome is known
        # (node, slot) of every choice of the iteration; the node where it ends
        # without a choice (solved, lost, or new) counts its visit at once.
        path: list[tuple[Node, int]] = []
        append, clear = path.append, path.clear
        leaf = self._leaf_probability
        # The default leaf, the evaluation alone, without the general call.
        plain = not (config.regions or config.plies or config.region_eval)
        sharpness = config.sharpness
        minimax = config.minimax
        average = 1.0 - minimax
        if self.solver is None or self.solver.node_budget != config.region_nodes:
            self.solver = RegionSolver(board.geometry, config.region_nodes)
        while budget.done == 0 or budget.more():
            node = root
            while True:
                choices = node.choices
                if choices is None:
                    if node.solved is not None:  # a solved node is never set up
                        node.visits += 1  # the path's last node: no slot to back up
                        probability = node.solved
                        break
                    init_node(node, ordering, board)
                    choices = node.choices
                # The slot: the next untried one while one is open, else UCB1.
                width = node.count
                if not width:  # a position whose side to move has no move: lost
                    node.visits += 1
                    probability = 0.0
                    break
                visits = node.visits
                if visits >= limit:
                    limit = grow(visits)
                if widening and widths[visits] < width:
                    width = widths[visits]
                slot = node.tried
                if slot < width:
                    node.tried = slot + 1
                    more = node.more
                    if more is not None:  # the new slot's choice is made now
                        choices.append(next(more))
                elif minimax:
                    # The UCB1 loop below with the minimax term: one loop for
                    # both cost the default 1.7% an iteration (callgrind, 8x8).
                    child_visits, wins, values = node.child_visits, node.child_wins, node.child_values
                    scale = scales[visits]
                    slot, best_value = 0, -inf
                    for i in range(width):
                        n = child_visits[i]
                        value = average * wins[i] / n + minimax * values[i] + sqrt(scale / n)
                        if value > best_value:
                            slot, best_value = i, value
                else:
                    child_visits, wins = node.child_visits, node.child_wins
                    scale = scales[visits]
                    slot, best_value = 0, -inf
                    for i in range(width):
                        n = child_visits[i]
                        value = wins[i] / n + sqrt(scale / n)
                        if value > best_value:
                            slot, best_value = i, value
                append((node, slot))
                choice = choices[slot]
                kind = node.kind
                child = node.children.get(slot)
                if kind >= PICK_ARROW:  # PICK_ARROW or PICK_MOVE: the move is complete
                    # Without the history: the search takes its moves back
                    # itself (``moved``).
                    if kind == PICK_ARROW:
                        origin, target, arrow = node.origin, node.target, choice
                    else:
                        origin, target, arrow = choice
                    colour = board.to_move
                    place(colour, origin, target, arrow)
                    push((colour, origin, target, arrow))
                    if child is None:
                        if plain:
                            probability, solved = win_probability(evaluate(board), sharpness), False
                        else:
                            probability, solved = leaf(board, config)
                        if node.child_visits[slot] >= expand and self.node_count < max_nodes:
                            child = Node(position_kind, board.to_move)
                            if solved:
                                child.solved = probability
                            node.children[slot] = child
                            self.node_count += 1
                            child.visits = 1
                        break
                elif child is None:
                    # Inside a move: the next level is needed at once, to go on choosing.
                    if self.node_count >= max_nodes:
                        play(self._finish_move(board, node, choice))
                        push(None)  # taken back by Position.undo
                        probability = leaf(board, config)[0]
                        break
                    if kind == PICK_AMAZON:
                        child = Node(PICK_DESTINATION, node.to_move, choice)
                    else:  # PICK_DESTINATION or PICK_PAIR
                        origin, target = (node.origin, choice) if kind == PICK_DESTINATION else choice
                        child = Node(PICK_ARROW, node.to_move, origin, target)
                    node.children[slot] = child
                    self.node_count += 1
                node = child
            # ``probability`` is for the side to move on the board now.
            leaf_colour = board.to_move
            loss = 1.0 - probability
            for node, slot in path:
                node.visits += 1
                node.child_visits[slot] += 1
                node.child_wins[slot] += probability if node.to_move == leaf_colour else loss
            if minimax:
                # Implicit minimax, leaf first: a slot's value is the leaf's
                # probability or the best of its node's tried slots, seen
                # from the chooser's side. A slot whose value stays the same
                # leaves its node's best as it was, and so every value above
                # (unless the slot is its node's first: the node's value was
                # its parent's leaf evaluation until now).
                value, colour = probability, leaf_colour
                for node, slot in reversed(path):
                    values = node.child_values
                    if node.to_move != colour:
                        value = 1.0 - value
                    tried = node.tried
                    if values[slot] == value and tried > 1:
                        break
                    values[slot] = value
                    value, colour = max(values[:tried]), node.to_move
            clear()
            while moved:  # last move first
                last = pop()
                if last is None:
                    undo()
                else:
                    lift(*last)
            budget.done += 1

    def _leaf_probability(self, board: Position, config: MctsConfig) -> tuple[float, bool]:
        """The side to move's win probability at a leaf, and whether it is
        proved: with ``regions``, a separated position whose region values
        decide the game is a win or a loss (1.0 or 0.0); otherwise the
        evaluation after ``plies`` random plies, where ``region_eval`` counts
        the separated regions' moves instead of their squares (``plies=0``)."""
        solver = self.solver
        if config.regions:
            outcome = solver.outcome(board)
            if outcome is not None:
                return (1.0 if outcome > 0 else 0.0), True
        if config.plies:
            value = cutoff_playout(board, self.rng, config.plies)
        elif config.region_eval:
            value = evaluate_corrected(board, solver.territory_correction(board))
        else:
            value = evaluate(board)
        return win_probability(value, config.sharpness), False

    def _init_node(self, node: Node, ordering: MoveOrdering, board: Position) -> None:
        node.choices, node.more, count = ordering.start(node, board)
        node.count = count
        node.child_visits = [0] * count
        node.child_wins = [0.0] * count
        node.child_values = [0.0] * count
        node.tried = 0

    def _finish_move(self, board: Position, node: Node, choice: Any) -> Move:
        """A random completion of the move being chosen at ``node`` (used
        when the tree is full)."""
        rng = self.rng
        ray_masks = board.geometry.ray_masks
        occupied = board.occupied
        if node.kind == PICK_AMAZON:
            origin = choice
            target = rng.choice(bit_list(queen_reach(origin, occupied, ray_masks)))
        elif node.kind == PICK_DESTINATION:
            origin, target = node.origin, choice
        else:
            origin, target = choice
        arrow = rng.choice(bit_list(queen_reach(target, occupied ^ (1 << origin), ray_masks)))
        return Move(origin, target, arrow)

    # -- the answer -------------------------------------------------------------------
    def best_move(self, position: Position, ordering: MoveOrdering) -> tuple[Move, int, float]:
        """The move of most visits, level by level, with the visits and wins
        of its last level (a level the tree lacks takes its best ordered choice)."""
        node = self.root
        origin = target = -1
        while True:
            if node.choices is None:
                node = Node(node.kind, node.to_move, node.origin, node.target)
                self._init_node(node, ordering, position)
            slot = node.best_slot()
            while len(node.choices) <= slot:  # only when no slot was opened
                node.choices.append(next(node.more))
            choice = node.choices[slot]
            kind = node.kind
            if kind == PICK_MOVE:
                return choice, node.child_visits[slot], node.child_wins[slot]
            if kind == PICK_ARROW:
                return (Move(node.origin, node.target, choice), node.child_visits[slot],
                        node.child_wins[slot])
            if kind == PICK_AMAZON:
                origin = choice
                following = Node(PICK_DESTINATION, node.to_move, origin)
            elif kind == PICK_DESTINATION:
                target = choice
                following = Node(PICK_ARROW, node.to_move, node.origin, target)
            else:
                origin, target = choice
                following = Node(PICK_ARROW, node.to_move, origin, target)
            node = node.children.get(slot) or following

    def lead(self) -> float:
        """The fewest further iterations that could change :meth:`best_move`:
        the least visit gap between the best and the second best choice on
        each level of the best move (0 when a level has no node yet, whose
        choice could still change)."""
        node: Node | None = self.root
        least = math.inf
        while True:
            if node is None or node.choices is None:
                return 0
            least = min(least, root_lead(node.child_visits))
            if node.kind == PICK_ARROW or node.kind == PICK_MOVE or not node.choices:
                return least
            node = node.children.get(node.best_slot())

    def move_statistics(self, node: Node | None = None) -> dict[Move, tuple[int, float]]:
        """``move -> (visits, wins)`` of every visited whole move at position
        node ``node`` (default: the root), wins for the side that plays it."""
        stats: dict[Move, tuple[int, float]] = {}
        stack = [self.root if node is None else node]
        while stack:
            node = stack.pop()
            if node.choices is None:
                continue
            for slot, visits in enumerate(node.child_visits):
                if not visits:
                    continue
                if node.kind == PICK_MOVE:
                    stats[node.choices[slot]] = (visits, node.child_wins[slot])
                elif node.kind == PICK_ARROW:
                    move = Move(node.origin, node.target, node.choices[slot])
                    stats[move] = (visits, node.child_wins[slot])
                elif slot in node.children:
                    stack.append(node.children[slot])
        return stats

    def principal_variation(self, first: Move, limit: int = 20) -> list[Move]:
        """``first``, then the most visited line through the tree."""
        pv = [first]
        node = self.descend(self.root, first)
        while node is not None and node.choices and len(pv) < limit:
            move = None
            here = node
            while here is not None and here.choices:
                slot = here.best_slot()
                if here.child_visits[slot] == 0:
                    break
                if here.kind == PICK_MOVE:
                    move = here.choices[slot]
                    break
                if here.kind == PICK_ARROW:
                    move = Move(here.origin, here.target, here.choices[slot])
                    break
                here = here.children.get(slot)
            if move is None:
                break
            pv.append(move)
            node = self.descend(node, move)
        return pv


class AmazonsMcts(TreePlayer):
    """MCTS with an evaluation cut-off for Amazons (see docs/search-amazons.md)."""

    name = "amazons-mcts"
    GAMES = ("amazons",)
    PARAMS = {
        "playouts": (int, 3000),
        "exploration": (float, 0.3),
        "plies": (int, 0),
        "split": (int, 3),
        "order": (str, "cheap"),
        "widening": (bool, True),
        "widen_base": (int, 2),
        "widen_factor": (float, 0.5),
        "widen_exponent": (float, 0.5),
        "sharpness": (float, 2.0),
        "expand": (int, 0),
        "max_nodes": (int, 100_000),
        "regions": (bool, False),
        "region_eval": (bool, False),
        "region_nodes": (int, 2000),
        "split_order": (float, 0.0),
        "minimax": (float, 0.0),
        "reuse": (bool, True),
        "komi": (float, 0.0),
    }

    KEEPS_TREE = frozenset({"playouts"})

    def check_param(self, name: str, value: Any) -> Any:
        problem = None
        if name == "split" and value not in POSITION_KIND:
            problem = "split must be 1, 2 or 3 (tree levels per move)"
        elif name == "order" and value.lower() not in ORDERS:
            problem = f"order must be one of {', '.join(ORDERS)}"
        elif name == "exploration" and not 0 <= value < math.inf:
            problem = "exploration must be a finite number >= 0"
        elif name == "sharpness" and not 0 < value <= 100:
            problem = "sharpness must be above 0 and at most 100"
        elif name == "widen_factor" and not 0 <= value < math.inf:
            problem = "widen_factor must be a finite number >= 0"
        elif name == "widen_exponent" and not 0 <= value <= 1:
            problem = "widen_exponent must be between 0 and 1"
        elif name == "max_nodes" and value < 1:
            problem = "max_nodes must be at least 1"
        elif name == "region_nodes" and value < 1:
            problem = "region_nodes must be at least 1"
        elif name == "split_order" and not 0 <= value < math.inf:
            problem = "split_order must be a finite number >= 0"
        elif name == "minimax" and not 0 <= value <= 1:
            problem = "minimax must be between 0 and 1"
        if problem:
            raise ValueError(problem)
        return value.lower() if name == "order" else value

    def config(self) -> MctsConfig:
        v = self.values
        return MctsConfig(
            split=v["split"], order=v["order"], widening=v["widening"],
            widen_base=v["widen_base"], widen_factor=v["widen_factor"],
            widen_exponent=v["widen_exponent"], exploration=v["exploration"],
            plies=v["plies"], sharpness=v["sharpness"], expand=v["expand"],
            max_nodes=v["max_nodes"], regions=v["regions"], region_eval=v["region_eval"],
            region_nodes=v["region_nodes"], split_order=v["split_order"], minimax=v["minimax"])

    def genmove(self, position: Position, limits: Limits,
                should_stop: Callable[[], bool] = never_stop) -> SearchResult:
        if not isinstance(position, Position):
            raise ValueError(f"{self.name} plays Amazons only, not {position!r}")
        budget = IterationBudget(limits, self.values["playouts"], should_stop)
        if position.is_over():
            return SearchResult(move=None)  # no legal move: the only resignation
        won = position.winning_move()
        if won is not None:  # the game ends now: no search can find better
            return SearchResult(move=won, playouts=1, winrate=1.0, pv=[won], root={won: (1, 1.0)})
        tree = self.tree_for(position)
        if position.count_moves() == 1:
            budget.playouts = 1  # a forced move needs no thought
        config = self.config()
        budget.watch(tree.lead)
        with collector_paused():  # the tree has no cycles: about 6% of the time saved
            tree.search(position, budget, config)
        ordering = MoveOrdering(config.order, self.rng, budget.out_of_time, config.split_order)
        move, visits, wins = tree.best_move(position.copy(), ordering)
        return SearchResult(
            move=move,
            playouts=budget.done,
            winrate=wins / visits if visits else None,
            pv=tree.principal_variation(move),
            root=tree.move_statistics(),
        )

    def new_tree(self, position: Position) -> Tree:
        return Tree(Node(POSITION_KIND[self.values["split"]], position.to_move), self.rng)
