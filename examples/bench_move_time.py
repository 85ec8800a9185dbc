"""Benchmark: how long each ``genmove`` takes under a clock, the first included.

Starts a fresh ``stargtp serve`` for each run, sets up a game as a controller
does (``boardsize``, ``clear_board``, ``time_settings 0 PERIOD 1``: every move
has PERIOD seconds of byo-yomi), then times each ``genmove`` from the moment
the line is written to the moment its answer is read. The first move is
reported apart from the later ones: it is the one that used to pay for starting
the worker processes.

    python examples/bench_move_time.py [--runs R] [--moves M] [--period S]
        [--workers N] [--serve 'COMMAND ...']

``--serve`` runs another build (an older checkout, say) for comparison; by
default the ``stargtp`` next to this Python is used.
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


def one_game(serve: list[str], moves: int, period: float, workers: int) -> list[float]:
    """Seconds taken by each of ``moves`` genmoves in a fresh server."""
    server = subprocess.Popen(serve + ["--workers", str(workers)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    try:
        for line in ("boardsize 10", "clear_board", f"time_settings 0 {period:g} 1"):
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
        server.stdin.write(b"quit\n")
        read_response(server.stdout)
        return times
    finally:
        server.stdin.close()
        server.wait(60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh servers (default 5)")
    parser.add_argument("--moves", type=int, default=6, help="genmoves per server (default 6)")
    parser.add_argument("--period", type=float, default=0.5, help="byo-yomi seconds per move (default 0.5)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--serve", help="the serve command to time (default: this install's)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.moves < 2 or not args.period > 0 or args.workers < 1:
        parser.error("--runs and --workers must be at least 1, --moves at least 2, --period positive")
    serve = shlex.split(args.serve) if args.serve else default_serve()
    firsts, laters = [], []
    for run in range(args.runs):
        times = one_game(serve, args.moves, args.period, args.workers)
        firsts.append(times[0])
        laters += times[1:]
        print(f"run {run + 1}: " + " ".join(f"{t:.3f}" for t in times), file=sys.stderr)
    print(f"period {args.period:g} s, {args.workers} worker(s), {args.runs} runs:")
    print(f"  first move:  median {statistics.median(firsts):.3f} s, max {max(firsts):.3f} s")
    print(f"  later moves: median {statistics.median(laters):.3f} s, max {max(laters):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
