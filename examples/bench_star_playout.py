"""Benchmark: random *Star playouts per second (fill + full scoring), from the
empty board: the batched kernel of engine.star.batch (``--batch`` playouts a
call, packed ``--pack`` boards an integer), the single-board bitboard playout
of engine.star.playout and a plain baseline (list, shuffle, union-find), run
side by side and alternating so that all see the same machine load. Rates
are per second of CPU time (``time.process_time``), which other processes on
the machine disturb far less than the wall clock. Prints medians of several
runs and the ratios (batched and bitboard to the baseline, batched to
bitboard).

    python examples/bench_star_playout.py [--runs 5] [--seconds 1.0] [--sizes 6 8 10] [--batch 24] [--pack 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star import Position, geometry
from stargtp.engine.star.batch import PACK_SIZE, random_playouts
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


def rate(play, seconds: float, per_call: int = 1) -> float:
    """Playouts per CPU second of ``play`` (``per_call`` playouts a call)."""
    count = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(max(1, 100 // per_call)):
            play()
            count += per_call
        now = time.process_time()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10])
    parser.add_argument("--batch", type=int, default=24, help="playouts a call of the batched kernel")
    parser.add_argument("--pack", type=int, default=PACK_SIZE, help="boards an integer (a pack)")
    args = parser.parse_args()
    if args.batch < 1 or args.pack < 1:
        parser.error("--batch and --pack must be at least 1")
    print(f"{'rings':>5} {'batched/s':>10} {'fast/s':>9} {'baseline/s':>11} {'b/base':>7} {'ratio':>6}"
          f" {'b/fast':>7}   (median of {args.runs} runs, CPU time; ratio = fast/baseline)")
    for rings in args.sizes:
        position = Position(rings)
        baseline = BaselinePlayout(rings)
        rng = random.Random(1)
        kinds = {
            "batched": (lambda: random_playouts(position, rng, args.batch, 0.0, args.pack), args.batch),
            "fast": (lambda: random_playout(position, rng), 1),
            "baseline": (lambda: baseline.run(position, rng), 1),
        }
        rates: dict[str, list[float]] = {name: [] for name in kinds}
        for _ in range(args.runs):
            for name, (play, per_call) in kinds.items():
                rates[name].append(rate(play, args.seconds, per_call))
        med = {name: statistics.median(values) for name, values in rates.items()}
        batched, fast, base = med["batched"], med["fast"], med["baseline"]
        print(f"{rings:>5} {batched:>10.0f} {fast:>9.0f} {base:>11.0f} {batched / base:>7.2f} {fast / base:>6.2f}"
              f" {batched / fast:>7.2f}")


if __name__ == "__main__":
    main()
