"""The baseline players every strength claim is measured against: uniformly
random, and flat Monte Carlo (playouts spread evenly over the legal moves, no
tree)."""

from __future__ import annotations

import random
from typing import Callable

from stargtp.engine.search.base import Budget, Limits, Player, SearchResult, never_stop


class RandomPlayer(Player):
    """Plays a uniformly random legal move; passes (*Star) or resigns
    (Amazons) only when there is none."""

    name = "random"
    PARAMS = {"komi": (float, 0.0)}

    def __init__(self, seed: int | None = None, **params: str) -> None:
        super().__init__(seed, **params)
        self.rng = random.Random(seed)

    def genmove(self, position, limits: Limits, should_stop: Callable[[], bool] = never_stop) -> SearchResult:
        moves = position.legal_moves()
        if not moves:
            return SearchResult(move=position.rules.no_move(position, self.values["komi"]))
        move = self.rng.choice(moves)
        return SearchResult(move=move, pv=[move])


class FlatPlayer(Player):
    """Flat Monte Carlo: each legal move in turn gets a random playout, round
    robin, and the move with the best win rate is played."""

    name = "flat"
    PARAMS = {"playouts": (int, 2000), "komi": (float, 0.0)}

    def __init__(self, seed: int | None = None, **params: str) -> None:
        super().__init__(seed, **params)
        self.rng = random.Random(seed)

    def genmove(self, position, limits: Limits, should_stop: Callable[[], bool] = never_stop) -> SearchResult:
        komi = self.values["komi"]
        moves = position.legal_moves()
        if not moves:
            return SearchResult(move=position.rules.no_move(position, komi))
        if position.rules.passing_wins(position, komi):
            return SearchResult(move=position.rules.no_move(position, komi), winrate=1.0)
        me = position.to_move
        wins = [0] * len(moves)
        tries = [0] * len(moves)
        budget = Budget(limits, self.values["playouts"], should_stop)
        board = position.copy()
        rng = self.rng
        playout = position.rules.playout_winner
        i = 0
        while budget.more() or budget.done < len(moves):
            # Every move gets at least one playout so the choice is informed.
            board.play(moves[i])
            winner = playout(board, rng, komi)
            board.undo()
            tries[i] += 1
            if winner == me:
                wins[i] += 1
            budget.done += 1
            i = (i + 1) % len(moves)
        best = max(range(len(moves)), key=lambda j: (wins[j] / tries[j], tries[j]))
        return SearchResult(move=moves[best], playouts=budget.done,
                            winrate=wins[best] / tries[best], pv=[moves[best]])
