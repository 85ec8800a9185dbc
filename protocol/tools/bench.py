"""``stargtp bench``: how fast the engine runs on this machine.

Measures, from the empty board: random playouts per second, the tree
search's playouts per second (one process), and with ``--workers N`` the
search's playouts per second in the server's worker pool (:class:`stargtp.protocol.server.workers.WorkerPool`,
the root-parallel search ``stargtp serve --workers N`` runs) with N worker
processes against one with one, measured in the same run, alternating, so
that both see the same machine load. A pool's start-up is not timed; a
search is timed from the request to the merged answer.
A tree search's rate counts its playouts: an iteration that evaluates its
leaf with a batch of ``leaf_playouts`` playouts (Hex and Y: 8, *Star: 4)
counts each, and an Amazons iteration, which evaluates its leaf once,
counts one. The JSON
keys keep their names (``iterations_per_s`` and the ``*_iterations_per_s``
of the pool), with that meaning.
Each figure is the median of ``--runs`` runs. A shared machine skews every
number, so the load average is reported alongside, and with ``--workers N``
also the *machine scaling*: how much faster N processes of a trivial busy loop
run than one, measured between the search runs. A speedup close to the
machine scaling means the search itself scales; both well below N means the
cores were busy.

    stargtp bench [--game star] [--size N] [--seconds S] [--workers N] [--runs R] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import multiprocessing
import os
import platform
import random
import statistics
import time
from typing import Any

from stargtp.engine.errors import GameError
from stargtp.engine.games import find_game, games, new_position
from stargtp.engine.players import make_player, players
from stargtp.engine.search import Limits
from stargtp.protocol.cli import OptionError, finite_float, game_sizes, positive_int, report_option_error
from stargtp.protocol.server.workers import GameState, SearchRequest, WorkerError, WorkerPool
from stargtp.protocol.tools import plural

logger = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=games(), default=games()[0])
    parser.add_argument("--size", type=int, default=None,
                        help=f"board size: {game_sizes()} (default: the game's)")
    parser.add_argument("--seconds", type=finite_float, default=2.0,
                        help="length of each timed run (default 2)")
    parser.add_argument("--workers", type=positive_int, default=1,
                        help="also measure the server's pool of N root-parallel worker processes against one")
    parser.add_argument("--runs", type=positive_int, default=3,
                        help="timed runs of each kind; medians are reported (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", choices=players(), default="auto",
                        help="the search whose tree playouts are timed (default auto: the"
                             " one the server plays, UCT-RAVE for *Star, MCTS with evaluation"
                             " cut-off for the Amazons)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of that player for the tree runs (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def measure_playouts(game: str, size: int, seconds: float, seed: int) -> float:
    """Random playouts per second from the empty board (the game's own
    playout, ``rules.playout_winner``)."""
    playout = find_game(game).playout_winner
    position = new_position(game, size)
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(8):
            playout(position, rng, 0.0)
        count += 8
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def measure_iterations(game: str, size: int, seconds: float, seed: int,
                       params: dict[str, str], player_name: str = "auto") -> float:
    """Tree playouts per second from the empty board, in this process,
    counted in playouts (the search's ``playouts``: an iteration that
    evaluates its leaf with a batch of ``leaf_playouts`` counts each)."""
    player = make_player(player_name, seed=seed, **params)
    position = new_position(game, size)
    start = time.perf_counter()
    result = player.genmove(position, Limits(seconds=seconds))
    return result.playouts / (time.perf_counter() - start)


def measure_pool(game: str, size: int, workers: int, seconds: float, seed: int,
                 params: dict[str, str], player_name: str = "auto") -> float:
    """Tree playouts per second of the server's worker pool with ``workers``
    processes (seeds ``seed``, ``seed + 1``...) searching the empty board for
    ``seconds``: the merged answer's playouts over the time from the request
    to that answer. Starting the processes is not timed. WorkerError when a
    worker fails."""
    position = new_position(game, size)
    state = GameState(game, size, ())
    request = SearchRequest(state, position.to_move, Limits(seconds=seconds))

    async def timed_search() -> float:
        pool = WorkerPool(player_name, params, seed, workers)
        try:
            await pool.start(state)
            start = time.perf_counter()
            reply = await pool.search(request)
            return reply.playouts / (time.perf_counter() - start)
        finally:
            await pool.close()

    return asyncio.run(timed_search())


def _busy_loop(seconds: float, barrier: Any, replies: Any) -> None:
    barrier.wait()
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < seconds:
        for _ in range(10000):
            count += 1
    replies.put(count / (time.perf_counter() - start))


def measure_cpu_scaling(workers: int, seconds: float) -> float:
    """Loop iterations per second of ``workers`` processes running a trivial
    busy loop at once: what this machine gives N processes right now. Divided
    by the one-process figure, it is the best speedup any parallel search
    could show under the current load."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers)
    replies = context.Queue()
    processes = [context.Process(target=_busy_loop, args=(seconds, barrier, replies), daemon=True)
                 for _ in range(workers)]
    for process in processes:
        process.start()
    total = sum(replies.get(timeout=seconds + 120) for _ in processes)
    for process in processes:
        process.join()
    return total


def _parse_params(pairs: list[str], player: str) -> dict[str, str]:
    """``--param NAME=VALUE`` items as a dict, checked against the player;
    OptionError names the option."""
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise OptionError("--param", f"expected NAME=VALUE, not {pair!r}")
        params[name] = value
    try:
        make_player(player, **params)  # reject unknown names and bad values now
    except ValueError as error:
        raise OptionError("--param", str(error)) from None
    return params


def _check_board(game: str, size: int) -> None:
    """OptionError unless ``game`` has a board of ``size``."""
    try:
        new_position(game, size)
    except GameError as error:
        raise OptionError("--size", str(error)) from None


def run(args: argparse.Namespace) -> int:
    game = args.game
    size = find_game(game).default_size if args.size is None else args.size
    try:
        if not args.seconds > 0:
            raise OptionError("--seconds", f"expected a finite number > 0, not {format(args.seconds, 'g')!r}")
        params = _parse_params(args.param, args.player)
        _check_board(game, size)
    except OptionError as error:
        return report_option_error("bench", error)

    def log(text: str) -> None:
        if not args.json:
            print(text, flush=True)

    load_before = os.getloadavg()
    log(f"stargtp bench: {game}, size {size}, player {args.player}, {plural(args.runs, 'run')} of {args.seconds:g} s, "
        f"Python {platform.python_version()}, load average {load_before[0]:.2f}")
    playouts = [measure_playouts(game, size, args.seconds, args.seed + i) for i in range(args.runs)]
    log(f"random playouts/s:     {statistics.median(playouts):10.0f}   "
        f"(runs: {', '.join(f'{p:.0f}' for p in playouts)})")
    iterations = [measure_iterations(game, size, args.seconds, args.seed + i, params, args.player)
                  for i in range(args.runs)]
    log(f"tree playouts/s:       {statistics.median(iterations):10.0f}   "
        f"(runs: {', '.join(f'{p:.0f}' for p in iterations)})")
    report: dict[str, Any] = {
        "game": game,
        "size": size,
        "workers": args.workers,
        "player": args.player,
        "seconds": args.seconds,
        "runs": args.runs,
        "playouts_per_s": round(statistics.median(playouts), 1),
        "iterations_per_s": round(statistics.median(iterations), 1),
        "playouts_per_s_runs": [round(p, 1) for p in playouts],
        "iterations_per_s_runs": [round(p, 1) for p in iterations],
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
    }
    if args.workers > 1:
        baseline, parallel, ratios, machine = [], [], [], []
        try:
            for i in range(args.runs):
                one = measure_pool(game, size, 1, args.seconds, args.seed + i, params, args.player)
                many = measure_pool(game, size, args.workers, args.seconds, args.seed + i, params,
                                    args.player)
                baseline.append(one)
                parallel.append(many)
                ratios.append(many / one)
                machine.append(measure_cpu_scaling(args.workers, args.seconds)
                               / measure_cpu_scaling(1, args.seconds))
        except WorkerError as exc:
            logger.error("stargtp bench: %s", exc)
            return 1
        speedup = statistics.median(parallel) / statistics.median(baseline)
        log(f"1 worker process:      {statistics.median(baseline):10.0f} playouts/s   "
            f"(runs: {', '.join(f'{p:.0f}' for p in baseline)})")
        log(f"{args.workers} worker processes:    {statistics.median(parallel):10.0f} playouts/s   "
            f"(runs: {', '.join(f'{p:.0f}' for p in parallel)})")
        log(f"parallel speedup:      {speedup:10.2f}x   "
            f"(per-run ratios: {', '.join(f'{r:.2f}' for r in ratios)})")
        log(f"machine scaling:       {statistics.median(machine):10.2f}x   "
            f"(a busy loop in {args.workers} processes against 1, between the runs: "
            f"{', '.join(f'{r:.2f}' for r in machine)})")
        report.update({
            "baseline_iterations_per_s": round(statistics.median(baseline), 1),
            "parallel_iterations_per_s": round(statistics.median(parallel), 1),
            "speedup": round(speedup, 3),
            "speedup_runs": [round(r, 3) for r in ratios],
            "baseline_runs": [round(p, 1) for p in baseline],
            "parallel_runs": [round(p, 1) for p in parallel],
            "machine_scaling": round(statistics.median(machine), 3),
            "machine_scaling_runs": [round(r, 3) for r in machine],
        })
    load_after = os.getloadavg()
    report["load_average_before"] = [round(x, 2) for x in load_before]
    report["load_average_after"] = [round(x, 2) for x in load_after]
    log(f"load average after:    {load_after[0]:.2f}")
    if args.json:
        print(json.dumps(report), flush=True)
    return 0
