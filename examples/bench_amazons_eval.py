"""Benchmark: the Amazons evaluation and search of this install against
another install (an older commit), side by side, alternating run by run.

Each run is a fresh process of one install that measures, in CPU time
(``time.process_time``, which other load disturbs far less than wall time):

* evaluations per second: ``evaluate`` over 400 fixed positions (seeded
  random play, 0 to 39 plies), ten times;
* search iterations per second: one ``amazons-mcts`` search of
  ``--iterations`` iterations with the same parameters in both installs
  (by default the new defaults, given explicitly, so that both run the same
  algorithm), from the position after 20 seeded random plies.

It prints every run and then the medians and the ratios (this install over
the other).

    python examples/bench_amazons_eval.py --other /path/to/old/venv/bin/python \\
        [--runs 5] [--size 10] [--iterations 5000]

The other install may be any commit from 0.1.0 (b56265e) on.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

PASSES = 10
"""Times the evaluation goes over the 400 positions in one run."""
DEFAULT_PARAMS = ("plies=0", "expand=0", "widen_factor=0.5", "sharpness=2", "reuse=off")


def measure(size: int, iterations: int, params: list[str]) -> tuple[float, float]:
    """``(evaluations/s, iterations/s)`` of the install this process imports."""
    from stargtp.engine.amazons.position import Position
    from stargtp.engine.amazons.playout import random_move
    from stargtp.engine.search.base import Limits
    try:
        from stargtp.engine.amazons.evaluation import evaluate
        from stargtp.engine.players import make_player
    except ImportError:  # 0.1.0
        from stargtp.engine.amazons.playout import evaluate
        from stargtp.engine.search import make_player

    rng = random.Random(7)
    positions = []
    while len(positions) < 400:
        position = Position(size)
        for _ in range(rng.randrange(0, 40)):
            move = random_move(position, rng)
            if move is None:
                break
            position.play_unchecked(move)
        if not position.is_over():
            positions.append(position)
    start = time.process_time()
    for _ in range(PASSES):
        for position in positions:
            evaluate(position)
    evaluations = PASSES * len(positions) / (time.process_time() - start)

    position = Position(size)
    rng = random.Random(5)
    for _ in range(20):
        position.play_unchecked(random_move(position, rng))
    values = dict(param.split("=", 1) for param in params)
    make_player("amazons-mcts", seed=1, **values).genmove(position, Limits(playouts=200))  # warm-up
    player = make_player("amazons-mcts", seed=1, **values)
    start = time.process_time()
    player.genmove(position, Limits(playouts=iterations))
    return evaluations, iterations / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", help="python of the other install (required unless --child)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--param", action="append", default=None,
                        help="NAME=VALUE for both searches (default: the new defaults, reuse=off)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    params = args.param or list(DEFAULT_PARAMS)
    if args.child:
        evaluations, iterations = measure(args.size, args.iterations, params)
        print(f"{evaluations:.0f} {iterations:.0f}")
        return
    if not args.other:
        parser.error("--other PYTHON is required")
    command = [os.path.abspath(__file__), "--child", "--size", str(args.size), "--iterations", str(args.iterations)]
    for param in params:
        command += ["--param", param]
    results: dict[str, list[tuple[float, float]]] = {"this": [], "other": []}
    for run in range(args.runs):
        for name, python in (("this", sys.executable), ("other", args.other)):
            # From "/", so that neither install imports a checkout that
            # happens to be the current directory.
            out = subprocess.run([python, *command], capture_output=True, text=True, check=True,
                                 cwd="/").stdout.split()
            results[name].append((float(out[0]), float(out[1])))
            print(f"run {run + 1} {name:5}: {out[0]} evaluations/s, {out[1]} iterations/s", flush=True)
    for index, label in ((0, "evaluations/s"), (1, "iterations/s")):
        this = statistics.median(r[index] for r in results["this"])
        other = statistics.median(r[index] for r in results["other"])
        print(f"{label:14} this {this:,.0f}  other {other:,.0f}  ratio {this / other:.2f}")


if __name__ == "__main__":
    main()
