"""A slow, obviously-correct UCT-RAVE, for the tests only.

It does what :mod:`stargtp.engine.search.uct` does with ``rescore=1`` (every child
rescored at every visit), the plain way (a leaf evaluated by a batch of
``leaf_playouts`` playouts counted one by one): per-move statistics in dicts, AMAF
updated cell by cell from the playout's final owners, a full ``max`` at every
selection. It draws random numbers in the same order as the fast search, so
with the same seed both must build the same tree, count for count.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass, field

from stargtp.engine.colour import BLACK


@dataclass
class ReferenceNode:
    to_move: int
    visits: int = 0
    moves: list | None = None
    visits_of: dict = field(default_factory=dict)
    """move -> visits after that move."""
    wins_of: dict = field(default_factory=dict)
    """move -> wins of ``to_move`` after that move (ties one half)."""
    amaf_visits: dict = field(default_factory=lambda: defaultdict(int))
    """bit -> playouts through here in which ``to_move`` got that bit."""
    amaf_half_wins: dict = field(default_factory=lambda: defaultdict(int))
    """bit -> those playouts' wins of ``to_move``, two per win, one per tie."""
    children: dict = field(default_factory=dict)
    untried: list | None = None


def reference_search(position, iterations: int, rng: random.Random, *, rave: bool,
                     exploration: float, rave_equiv: float = 1000.0, expand: int = 2,
                     komi: float = 0.0, leaf_playouts: int = 1) -> ReferenceNode:
    hooks = position.rules.tree_hooks(position)
    board = position.copy()
    root = ReferenceNode(position.to_move)

    def initialise(node: ReferenceNode) -> None:
        moves = board.legal_moves()
        if moves:
            shift = rng.randrange(len(moves))
            moves = moves[shift:] + moves[:shift]
        node.moves = moves
        if rave and moves and hooks.prior is not None:
            for mask, playouts, half_wins in hooks.prior(board):
                for bit in range(hooks.amaf_width):
                    if mask >> bit & 1:
                        node.amaf_visits[bit] += playouts
                        node.amaf_half_wins[bit] += half_wins
        for move in moves:
            node.visits_of[move] = 0
            node.wins_of[move] = 0.0
        node.untried = None if rave else list(range(len(moves)))

    def value(node: ReferenceNode, slot: int) -> float:
        move = node.moves[slot]
        n = node.visits_of[move]
        w = node.wins_of[move]
        log_visits = math.log(node.visits + 1)
        if rave:
            # (1 - beta) * w/n + beta * q/r, beta = r / (n + r + n*r/E), with
            # r and q counting one virtual half-won AMAF playout; multiplied by E.
            e = rave_equiv
            bit = hooks.amaf_index(move)
            r = node.amaf_visits[bit] + 1
            t = e + r
            result = (w * t + 0.5 * e * (node.amaf_half_wins[bit] + 1)) / (n * t + e * r)
            if exploration:
                result += exploration * math.sqrt(log_visits / (n + 1))
            return result
        return w / n + exploration * math.sqrt(log_visits / n)

    def select(node: ReferenceNode) -> int:
        if not rave and node.untried:
            i = rng.randrange(len(node.untried))
            slot = node.untried[i]
            node.untried[i] = node.untried[-1]
            node.untried.pop()
            return slot
        return max(range(len(node.moves)), key=lambda slot: (value(node, slot), slot))

    initialise(root)
    done = 0  # playouts: ``leaf_playouts`` a leaf, the last batch cut to the count
    while done < iterations:
        node = root
        path = []
        played = 0
        while True:
            if node.moves is None:
                initialise(node)
            if not node.moves:
                path.append((node, None))
                break
            slot = select(node)
            move = node.moves[slot]
            path.append((node, move))
            board.play(move)
            played += 1
            child = node.children.get(move)
            if child is None:
                if node.visits_of[move] >= expand:
                    child = ReferenceNode(board.to_move)
                    node.children[move] = child
                    path.append((child, None))
                break
            node = child
        size = min(leaf_playouts, iterations - done)
        if size == 1:
            results = [hooks.playout(board, rng, komi)]
        elif hooks.playouts is not None:
            results = hooks.playouts(board, rng, komi, size)
        else:
            results = [hooks.playout(board, rng, komi) for _ in range(size)]
        done += size
        for winner, black, white in results:  # every playout of the batch, one at a time
            for node, move in path:
                mover = node.to_move
                node.visits += 1
                if rave:
                    owned = black if mover == BLACK else white
                    for bit in range(hooks.amaf_width):
                        if owned >> bit & 1:
                            node.amaf_visits[bit] += 1
                            node.amaf_half_wins[bit] += 2 if winner == mover else 1 if winner is None else 0
                if move is not None:
                    node.visits_of[move] += 1
                    node.wins_of[move] += 1.0 if winner == mover else 0.5 if winner is None else 0.0
        for _ in range(played):
            board.undo()
    return root
