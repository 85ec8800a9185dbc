"""Keeping a search tree from move to move, written once for every tree player.

A :class:`TreePlayer` keeps the tree of its last search. When the next
position follows from that one (the same start, and the history only grew), it
walks the moves played since down the tree and keeps that subtree as the new
root; otherwise, or after a parameter change, it starts a new tree. The tree
itself is the player's own (the UCT's, the Amazons MCTS's): it only has to
offer ``root``, ``step(node, colour, move)`` and ``reroot(node)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from stargtp.engine.search.base import Player, follows, start_key


class ReusableTree(Protocol):
    root: Any

    def step(self, node: Any, colour: int, move: Any) -> Any | None:
        """The node after ``colour`` plays ``move`` from ``node``, if the tree has it."""
        ...

    def reroot(self, node: Any) -> None:
        """Keep only the subtree of ``node``."""
        ...


def most_visited(visits: Sequence[int], wins: Sequence[float]) -> int:
    """The slot with the most visits; more wins breaks a tie, then the first slot.

    >>> most_visited([3, 5, 5], [1.0, 2.0, 2.0])
    1
    """
    return max(range(len(visits)), key=lambda slot: (visits[slot], wins[slot]))


class TreePlayer(Player):
    """A player whose search tree is kept between moves (``reuse``)."""

    KEEPS_TREE: frozenset[str] = frozenset()
    """Parameters whose change does not invalidate the tree's statistics."""

    def __init__(self, seed: int | None = None, **params: str) -> None:
        self._tree: Any = None
        self._tree_key: tuple | None = None
        self._tree_history: list = []
        super().__init__(seed, **params)
        self.rng = random.Random(seed)

    def param_changed(self, name: str) -> None:
        if name not in self.KEEPS_TREE:
            self._tree = None  # statistics gathered under other settings

    @property
    def tree(self) -> Any:
        """The search tree kept from the last search (None before the first)."""
        return self._tree

    def new_tree(self, position: Any) -> ReusableTree:
        """A fresh tree whose root is ``position``."""
        raise NotImplementedError

    def tree_for(self, position: Any) -> Any:
        """The tree for ``position``: the kept subtree when the position follows
        from the last one searched, else a new tree."""
        key = start_key(position)
        history = position.history
        old = self._tree_history
        tree = self._tree
        if tree is not None and self.values["reuse"] and self._tree_key == key and follows(history, old):
            node = tree.root
            for colour, move in history[len(old):]:
                node = tree.step(node, colour, move)
                if node is None:
                    break
            if node is not None and node.to_move == position.to_move:
                tree.reroot(node)
                self._tree_history = list(history)
                return tree
        self._tree = self.new_tree(position)
        self._tree_key = key
        self._tree_history = list(history)
        return self._tree
