"""Benchmark: random Hex and Y playouts per second (fill + winner), the
bit-mask playout of engine/connection/playout.py against a plain baseline
(list, shuffle, union-find), run side by side and alternating so that both
see the same machine load. Prints medians of several runs and the ratio;
also the tree search's playout (with the bridge-save reply) for reference,
and that playout batched (``batch_playouts``, ``--batch`` boards packed in
one integer, playouts counted).

    python examples/bench_hex_playout.py [--runs 5] [--seconds 1.0] [--batch 16] [--boards hex:11 y:13]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from stargtp.engine.connection.playout import batch_playouts, bridge_playout, random_fill
from stargtp.engine.games import new_position


class BaselinePlayout:
    """The straightforward version: shuffle the empty cells, deal them out
    alternately from the side to move, join neighbouring cells of one colour
    with union-find, collect the edges each group touches, and find the
    group that touches its colour's goal edges."""

    def __init__(self, geometry) -> None:
        self.geometry = geometry
        count = geometry.cell_count
        self.links = [(a, b) for a in range(count) for b in geometry.cells[a].neighbours if a < b]
        self.edges_of = [cell.edges for cell in geometry.cells]

    def run(self, position, rng: random.Random) -> int:
        g = self.geometry
        board = list(position.board)
        empty = [c for c, v in enumerate(board) if v == 0]
        rng.shuffle(empty)
        colour = position.to_move
        for cell in empty:
            board[cell] = colour
            colour = 3 - colour
        parent = list(range(g.cell_count))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for a, b in self.links:
            if board[a] == board[b]:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[ra] = rb
        touched: dict[int, set[str]] = {}
        for cell, edges in enumerate(self.edges_of):
            if edges:
                touched.setdefault(find(cell), set()).update(edges)
        for root, edges in touched.items():
            if edges.issuperset(g.goals[board[root]]):
                return board[root]
        raise AssertionError("a full board has a winner")


def rate(play, seconds: float, per_call: int = 1) -> float:
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            play()
        count += 50 * per_call
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--boards", nargs="+", default=["hex:11", "y:13"],
                        help="GAME:SIZE items (default hex:11 y:13)")
    parser.add_argument("--batch", type=int, default=16, help="boards a batched call plays (default 16)")
    args = parser.parse_args()
    print(f"{'board':>7} {'fast/s':>9} {'bridges/s':>10} {'baseline/s':>11} {'ratio':>6}"
          f" {'batched/s':>10} {'/bridges':>8}   (median of {args.runs} runs, empty board)")
    for item in args.boards:
        game, _, size = item.partition(":")
        position = new_position(game, int(size))
        baseline = BaselinePlayout(position.geometry)
        rng = random.Random(1)
        fast_rates, bridge_rates, base_rates, batch_rates = [], [], [], []
        for _ in range(args.runs):
            fast_rates.append(rate(lambda: random_fill(position, rng), args.seconds))
            bridge_rates.append(rate(lambda: bridge_playout(position, rng), args.seconds))
            base_rates.append(rate(lambda: baseline.run(position, rng), args.seconds))
            batch_rates.append(rate(lambda: batch_playouts(position, rng, args.batch), args.seconds,
                                    args.batch))
        fast, bridges = statistics.median(fast_rates), statistics.median(bridge_rates)
        base, batched = statistics.median(base_rates), statistics.median(batch_rates)
        print(f"{item:>7} {fast:>9.0f} {bridges:>10.0f} {base:>11.0f} {fast / base:>6.2f}"
              f" {batched:>10.0f} {batched / bridges:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
