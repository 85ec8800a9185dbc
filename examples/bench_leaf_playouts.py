"""Tree playouts per CPU second of the UCT search with several
``leaf_playouts`` values (or other parameter sets), side by side in one
process, alternating, from the empty board; medians of ``--runs`` runs.

CPU time (``time.process_time``) is what the figures divide by, so a busy
machine disturbs them far less than wall time. Each run is one fresh search
of ``--playouts`` playouts.

    python examples/bench_leaf_playouts.py --game y --size 13 --k 1 4 8 16 --runs 5
    python examples/bench_leaf_playouts.py --game y --size 13 --config "rave=false" --config "rave=true"
"""

from __future__ import annotations

import argparse
import statistics
import time

from stargtp.engine.games import new_position
from stargtp.engine.players import make_player
from stargtp.engine.search import Limits


def rate(game: str, size: int, params: dict[str, str], playouts: int, seed: int) -> float:
    player = make_player("uct", seed=seed, **params)
    position = new_position(game, size)
    start = time.process_time()
    result = player.genmove(position, Limits(playouts=playouts))
    return result.playouts / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="y")
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--k", type=int, nargs="*", default=[], help="leaf_playouts values")
    parser.add_argument("--config", action="append", default=[],
                        help="a parameter set NAME=VALUE,NAME=VALUE (repeatable)")
    parser.add_argument("--playouts", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    configs = [f"leaf_playouts={k}" for k in args.k] + args.config
    if not configs:
        parser.error("give --k or --config")
    rates: dict[str, list[float]] = {c: [] for c in configs}
    for run in range(args.runs):
        for config in configs:
            params = dict(item.split("=", 1) for item in config.split(",") if item)
            rates[config].append(rate(args.game, args.size, params, args.playouts, seed=run + 1))
    first = statistics.median(rates[configs[0]])
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"{args.game} {args.size}, {args.playouts} playouts a run, {args.runs} runs, load {load}")
    for config in configs:
        median = statistics.median(rates[config])
        print(f"  {config:40s} {median:9.0f} playouts/CPU s  x{median / first:.2f}"
              f"   (runs: {', '.join(f'{r:.0f}' for r in rates[config])})")


if __name__ == "__main__":
    main()
