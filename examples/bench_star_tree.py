"""Benchmark for issue 26's target 2: the *Star UCT search's tree playouts
per CPU second, at each ``leaf_playouts`` value given, against the naive
playout (list, shuffle, union-find: ``BaselinePlayout`` of
``bench_star_playout.py``), side by side in one process and alternating, so
that all see the same machine load. Each run of a configuration is one
fresh seeded search of ``--playouts`` playouts from the empty board; each
run of the baseline is ``--seconds`` of CPU time. Prints the load, then one
line a configuration: the median rate, its ratio to the baseline's median,
and the runs.

    python examples/bench_star_tree.py --size 10 --k 1 4 8 --runs 5
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bench_star_playout import BaselinePlayout, rate  # the sibling script (examples/ is on sys.path)

from stargtp.engine.players import make_player
from stargtp.engine.search import Limits
from stargtp.engine.star import Position


def tree_rate(size: int, k: int, playouts: int, seed: int) -> float:
    """Tree playouts per CPU second of one search with ``leaf_playouts=k``."""
    player = make_player("uct", seed=seed, leaf_playouts=str(k))
    start = time.process_time()
    result = player.genmove(Position(size), Limits(playouts=playouts))
    return result.playouts / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10, help="rings")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 4], help="leaf_playouts values")
    parser.add_argument("--playouts", type=int, default=5000, help="playouts a search")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds a baseline run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.size < 2 or args.size > 10 or min(args.k) < 1 or args.playouts < 1 or args.runs < 1:
        parser.error("--size 2..10, --k, --playouts and --runs at least 1")
    baseline = BaselinePlayout(args.size)
    position = Position(args.size)
    rng = random.Random(1)
    base: list[float] = []
    tree: dict[int, list[float]] = {k: [] for k in args.k}
    for run in range(args.runs):
        base.append(rate(lambda: baseline.run(position, rng), args.seconds))
        for k in (args.k if run % 2 == 0 else args.k[::-1]):
            tree[k].append(tree_rate(args.size, k, args.playouts, seed=run + 1))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"star {args.size}, {args.playouts} playouts a search, {args.runs} runs, load {load}")
    base_median = statistics.median(base)
    print(f"{'naive baseline':<16} {base_median:>8.0f} playouts/CPU s  x1.00  (runs: "
          f"{' '.join(f'{x:.0f}' for x in base)})")
    for k, rates in tree.items():
        median = statistics.median(rates)
        print(f"{f'leaf_playouts={k}':<16} {median:>8.0f} playouts/CPU s  x{median / base_median:.2f}  (runs: "
              f"{' '.join(f'{x:.0f}' for x in rates)})")


if __name__ == "__main__":
    main()
