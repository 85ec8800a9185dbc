"""Games per minute of a fixed-playout match: ``--concurrency K`` against
``--cluster local:K`` (K local Dask worker processes of one thread), run
after run alternately so that both see the same machine load.

    python examples/bench_cluster.py [--runs 3] [--games 16] [--playouts 20] [--size 4] [--workers 1 2 4]

Three figures per run: the *steady* rate, games per minute from the end of
the first game to the end of the last (what each further game costs, from
the runner's progress lines: game k ends k / rate_k minutes after the runner
started); the runner's own *overall* rate (its last progress line: games
over the time since it started, the engines' check and the first engine
starts included); and the wall time of the whole command, which adds
starting the local cluster. Needs the cluster extra
(``pip install '.[cluster]'``).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time


def engine(player: str, seed: str, *extra: str) -> str:
    return shlex.join([sys.executable, "-m", "stargtp.protocol.cli", "serve", "--player", player, "--seed", seed,
                       "--workers", "1", *extra])


def one_run(mode: list[str], games: int, playouts: int, size: int, directory: str) -> tuple[float, float, float]:
    """``(steady games per minute, overall games per minute, wall seconds)``
    of one match."""
    results = os.path.join(directory, f"r{time.monotonic_ns()}.jsonl")
    command = [sys.executable, "-m", "stargtp.protocol.cli", "match", "--size", str(size), "--games", str(games),
               "--playouts", str(playouts), "--results", results, *mode,
               "--black", "flat=" + engine("flat", "1{slot}", "--playouts", "{playouts}"),
               "--white", "random=" + engine("random", "2{slot}")]
    began = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.monotonic() - began
    rates = [float(rate) for rate in re.findall(r"([0-9.]+) games/min", done.stderr)]
    first_end, last_end = 1 / rates[0], len(rates) / rates[-1]  # minutes since the runner started
    return (len(rates) - 1) / (last_end - first_end), rates[-1], wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--playouts", type=int, default=20)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    options = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as directory:
        print("| workers | --concurrency steady | --cluster steady | ratio | --concurrency overall | "
              "--cluster overall | wall s (concurrency / cluster) | load |")
        for count in options.workers:
            local: list[tuple[float, float, float]] = []
            dask: list[tuple[float, float, float]] = []
            for _ in range(options.runs):
                for mode, runs in ((["--concurrency", str(count)], local), (["--cluster", f"local:{count}"], dask)):
                    runs.append(one_run(mode, options.games, options.playouts, options.size, directory))
            median = [tuple(statistics.median(run[i] for run in runs) for i in range(3)) for runs in (local, dask)]
            (steady_l, overall_l, wall_l), (steady_d, overall_d, wall_d) = median
            print(f"| {count} | {steady_l:.1f} | {steady_d:.1f} | {steady_d / steady_l:.2f} | {overall_l:.1f} | "
                  f"{overall_d:.1f} | {wall_l:.1f} / {wall_d:.1f} | {os.getloadavg()[0]:.1f} |", flush=True)
            print(f"  steady runs: {[round(r[0], 1) for r in local]} {[round(r[0], 1) for r in dask]}",
                  file=sys.stderr, flush=True)

if __name__ == "__main__":
    main()
