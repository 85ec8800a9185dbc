"""Benchmark: random Amazons playouts to the end of the game per second, the
bitboard playout of engine.amazons.playout against a plain baseline (a list
board; a random amazon-and-destination pair found by walking the eight queen
lines, then a random arrow the same way), alternating run by run; medians and
the ratio.

    python examples/bench_amazons_playout.py [--runs 5] [--seconds 1.0] [--size 10]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from stargtp.engine.amazons.playout import random_playout
from stargtp.engine.amazons.position import Position
from stargtp.engine.colour import EMPTY

LINES = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def baseline_playout(position: Position, rng: random.Random) -> int:
    """Play at random to the end with the plain generator; the winner."""
    size = position.size
    board = [position.piece_at(sq) for sq in range(size * size)]
    amazons = {colour: list(position.amazons(colour)) for colour in (1, 2)}
    mover = position.to_move

    def reach(square: int) -> list[int]:
        row, col = divmod(square, size)
        out = []
        for dr, dc in LINES:
            r, c = row + dr, col + dc
            while 0 <= r < size and 0 <= c < size and board[r * size + c] == EMPTY:
                out.append(r * size + c)
                r, c = r + dr, c + dc
        return out

    while True:
        # A random (amazon, destination), then a random arrow from there:
        # every legal move can come up, without listing them all.
        steps = []
        for index, start in enumerate(amazons[mover]):
            steps.extend((index, start, to) for to in reach(start))
        if not steps:
            return 3 - mover
        index, start, to = rng.choice(steps)
        board[start] = EMPTY
        board[to] = mover
        board[rng.choice(reach(to))] = 3  # an arrow; there is always one (back to start)
        amazons[mover][index] = to
        mover = 3 - mover


def rate(play, seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play()
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--size", type=int, default=10)
    args = parser.parse_args()
    position = Position(args.size)
    rng = random.Random(1)
    fast, base = [], []
    for _ in range(args.runs):
        fast.append(rate(lambda: random_playout(position, rng), args.seconds))
        base.append(rate(lambda: baseline_playout(position, rng), args.seconds))
    f, b = statistics.median(fast), statistics.median(base)
    print(f"{args.size}x{args.size}: bitboard {f:.0f} playouts/s, baseline {b:.0f} playouts/s, "
          f"ratio {f / b:.2f} (median of {args.runs} runs)")


if __name__ == "__main__":
    main()
