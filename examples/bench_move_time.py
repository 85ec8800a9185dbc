"""Benchmark: how long each ``genmove`` takes, at the defaults or under a clock.

Starts a fresh ``stargtp serve --game G --size N`` for each run, sets up a
game as a controller does (``clear_board``, and with ``--period S``
``time_settings 0 S 1``: every move has S seconds of byo-yomi; without it no
clock, so each move gets the server's default), then times each ``genmove``
(the engine playing both sides) from the moment the line is written to the
moment its answer is read. The first move is reported apart from the later
ones: it is the one that used to pay for starting the worker processes.

    python examples/bench_move_time.py [--boards star:4 amazons:6 ...] [--runs R]
        [--moves M] [--period S] [--workers N] [--serve 'COMMAND ...']
        [--against 'COMMAND ...']

``--serve`` runs another build (an older checkout, say); by default the
``stargtp`` next to this Python is used. ``--against`` times a second build
too, run for run alternating with the first, so that both see the same
machine load, and prints the ratio of the medians (against / serve).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time


def default_serve() -> list[str]:
    executable = shutil.which("stargtp") or os.path.join(os.path.dirname(sys.executable), "stargtp")
    if os.path.exists(executable):
        return [executable, "serve"]
    return [sys.executable, "-m", "stargtp.protocol.cli", "serve"]


def read_response(stream) -> bytes:
    """One response: lines up to and including the blank line."""
    parts = []
    while True:
        line = stream.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        parts.append(line)
        if line == b"\n":
            return b"".join(parts)


def one_game(serve: list[str], game: str, size: int, moves: int, period: float | None,
             workers: int) -> list[float]:
    """Seconds taken by each of ``moves`` genmoves in a fresh server."""
    server = subprocess.Popen(serve + ["--game", game, "--size", str(size), "--workers", str(workers)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              bufsize=0)
    try:
        setup = ["clear_board"] + ([] if period is None else [f"time_settings 0 {period:g} 1"])
        for line in setup:
            server.stdin.write(line.encode() + b"\n")
            answer = read_response(server.stdout)
            if not answer.startswith(b"="):
                raise RuntimeError(f"{line}: {answer!r}")
        times = []
        for number in range(moves):
            colour = "bw"[number % 2]
            began = time.perf_counter()
            server.stdin.write(f"genmove {colour}\n".encode())
            answer = read_response(server.stdout)
            times.append(time.perf_counter() - began)
            if not answer.startswith(b"= "):
                raise RuntimeError(f"genmove: {answer!r}")
            if answer.strip() in (b"= resign", b"= pass"):
                break
        server.stdin.write(b"quit\n")
        read_response(server.stdout)
        return times
    finally:
        server.stdin.close()
        server.wait(60)


def board(text: str) -> tuple[str, int]:
    game, colon, size = text.partition(":")
    if not colon or not size.isdigit():
        raise argparse.ArgumentTypeError(f"a board is GAME:SIZE, such as star:4, not {text!r}")
    return game, int(size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=board, nargs="+", default=[("star", 10)], metavar="GAME:SIZE",
                        help="boards to time (default star:10)")
    parser.add_argument("--runs", type=int, default=5, help="fresh servers per board and build (default 5)")
    parser.add_argument("--moves", type=int, default=6, help="genmoves per server (default 6)")
    parser.add_argument("--period", type=float, help="byo-yomi seconds per move (default: no clock)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--serve", help="the serve command to time (default: this install's)")
    parser.add_argument("--against", help="a second serve command, timed alternately with the first")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.moves < 2 or args.workers < 1 or (args.period is not None and not args.period > 0):
        parser.error("--runs and --workers must be at least 1, --moves at least 2, --period positive")
    builds = [shlex.split(args.serve) if args.serve else default_serve()]
    if args.against:
        builds.append(shlex.split(args.against))
    clock = "no clock (the defaults)" if args.period is None else f"period {args.period:g} s"
    print(f"{clock}, {args.workers} worker(s), {args.runs} runs x {args.moves} moves, medians in seconds")
    print("| board | " + " | ".join(f"build {b + 1}: first, later, all" for b in range(len(builds)))
          + (" | all, 2 / 1 |" if len(builds) == 2 else " |"))
    for game, size in args.boards:
        firsts: list[list[float]] = [[] for _ in builds]
        laters: list[list[float]] = [[] for _ in builds]
        everything: list[list[float]] = [[] for _ in builds]
        for run in range(args.runs):
            for b, serve in enumerate(builds):
                times = one_game(serve, game, size, args.moves, args.period, args.workers)
                firsts[b].append(times[0])
                laters[b] += times[1:]
                everything[b] += times
                print(f"{game}:{size} build {b + 1} run {run + 1}: " + " ".join(f"{t:.3f}" for t in times),
                      file=sys.stderr)
        cells = []
        for b in range(len(builds)):
            later = statistics.median(laters[b]) if laters[b] else float("nan")
            cells.append(f"{statistics.median(firsts[b]):.3f}, {later:.3f}, "
                         f"{statistics.median(everything[b]):.3f}")
        ratio = ""
        if len(builds) == 2:
            ratio = f" | {statistics.median(everything[1]) / statistics.median(everything[0]):.2f}"
        print(f"| {game} {size} | " + " | ".join(cells) + ratio + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
