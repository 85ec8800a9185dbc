"""Benchmark: random *Star playouts per second (fill + full scoring), the
bitboard playout of engine.star.playout against a plain baseline (list,
shuffle, union-find), run side by side and alternating so that both see the
same machine load. Prints medians of several runs and the ratio.

    python examples/bench_star_playout.py [--runs 5] [--seconds 1.0] [--sizes 6 8 10]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star import Position, geometry
from stargtp.engine.star.playout import random_playout


class BaselinePlayout:
    """The straightforward version: shuffle the empty cells, deal them out
    alternately, find groups with union-find over the edge list, score."""

    def __init__(self, rings: int) -> None:
        g = geometry(rings)
        self.geometry = g
        self.edges = [(a, b) for a in range(g.cell_count) for b in g.neighbours[a] if a < b]
        self.corners = set(g.corners)

    def run(self, position: Position, rng: random.Random) -> int | None:
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

        for a, b in self.edges:
            if board[a] == board[b]:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[ra] = rb
        peris_of_root: dict[int, list[int]] = {}
        for cell in g.perimeter:
            peris_of_root.setdefault(find(cell), []).append(cell)
        peris = {BLACK: 0, WHITE: 0}
        quarks = {BLACK: 0, WHITE: 0}
        stars = {BLACK: 0, WHITE: 0}
        for cells in peris_of_root.values():
            owner = board[cells[0]]
            if len(cells) >= 2:
                stars[owner] += 1
            else:
                owner = 3 - owner  # a dead group's pericell goes to the opponent
            peris[owner] += len(cells)
            quarks[owner] += sum(1 for c in cells if c in self.corners)
        conv = {c: peris[c] + (quarks[c] >= 3) + 2 * (stars[3 - c] - stars[c]) for c in (BLACK, WHITE)}
        if conv[BLACK] != conv[WHITE]:
            return BLACK if conv[BLACK] > conv[WHITE] else WHITE
        return BLACK if quarks[BLACK] > quarks[WHITE] else WHITE


def rate(play, seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            play()
        count += 100
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10])
    args = parser.parse_args()
    print(f"{'rings':>5} {'fast/s':>9} {'baseline/s':>11} {'ratio':>6}   (median of {args.runs} runs)")
    for rings in args.sizes:
        position = Position(rings)
        baseline = BaselinePlayout(rings)
        rng = random.Random(1)
        fast_rates, base_rates = [], []
        for _ in range(args.runs):
            fast_rates.append(rate(lambda: random_playout(position, rng), args.seconds))
            base_rates.append(rate(lambda: baseline.run(position, rng), args.seconds))
        fast, base = statistics.median(fast_rates), statistics.median(base_rates)
        print(f"{rings:>5} {fast:>9.0f} {base:>11.0f} {fast / base:>6.2f}")


if __name__ == "__main__":
    main()
