"""Benchmark: protocol round trips per second over a pipe, with ``play`` + ``undo``.

Starts ``stargtp serve`` as a subprocess and measures two ways:

* pipelined: all commands are written at once (by a writer thread) while the
  responses are read back; this measures the server's throughput.
* lock-step: each command waits for its response before the next is sent;
  this adds two process wake-ups per command and measures latency.

Each figure is the median of 5 runs and counts commands (one ``play`` or one
``undo`` is one round trip).

    python examples/bench_roundtrip.py [--pairs N] [--runs R]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

# A few cells of the full board, cycled so every play is legal after its undo.
CELLS = ("*10", "S43", "T54", "A00", "R98")


def start_server() -> subprocess.Popen[bytes]:
    """``stargtp serve`` from the PATH or next to this Python, else ``-m protocol.cli``."""
    executable = shutil.which("stargtp") or os.path.join(os.path.dirname(sys.executable), "stargtp")
    command = [executable] if os.path.exists(executable) else [sys.executable, "-m", "stargtp.protocol.cli"]
    return subprocess.Popen(command + ["serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def commands(pairs: int) -> list[bytes]:
    lines = []
    for i in range(pairs):
        lines.append(f"play b {CELLS[i % len(CELLS)]}\n".encode())
        lines.append(b"undo\n")
    return lines


def read_response(stream) -> bytes:
    """One response: lines up to and including the blank line."""
    parts = []
    while True:
        line = stream.readline()
        if not line:
            raise RuntimeError("server closed its output")
        parts.append(line)
        if line == b"\n":
            return b"".join(parts)


def pipelined(server: subprocess.Popen[bytes], pairs: int) -> float:
    lines = commands(pairs)
    payload = b"".join(lines)
    reader = server.stdout
    started = time.perf_counter()
    writer = threading.Thread(target=lambda: (server.stdin.write(payload), server.stdin.flush()))
    writer.start()
    for _ in lines:
        response = read_response(reader)
        if response != b"=\n\n":
            raise RuntimeError(f"unexpected response {response!r}")
    elapsed = time.perf_counter() - started
    writer.join()
    return len(lines) / elapsed


def lock_step(server: subprocess.Popen[bytes], pairs: int) -> float:
    lines = commands(pairs)
    reader = server.stdout
    writer = server.stdin
    started = time.perf_counter()
    for line in lines:
        writer.write(line)
        response = read_response(reader)
        if response != b"=\n\n":
            raise RuntimeError(f"unexpected response {response!r}")
    return len(lines) / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000, help="play+undo pairs per run (default 10000)")
    parser.add_argument("--runs", type=int, default=5, help="runs per mode; the median is shown (default 5)")
    args = parser.parse_args()
    server = start_server()
    # stdin unbuffered (bufsize=0) so lock-step writes go out at once; stdout buffered.
    server.stdout = io.BufferedReader(server.stdout, buffer_size=1 << 16)
    try:
        lock_step(server, 200)  # warm-up
        for name, measure in (("pipelined", pipelined), ("lock-step", lock_step)):
            rates = [measure(server, args.pairs) for _ in range(args.runs)]
            print(f"{name:10s} {statistics.median(rates):10,.0f} round trips/s "
                  f"(median of {args.runs}; runs: {', '.join(f'{r:,.0f}' for r in rates)})")
        server.stdin.write(b"quit\n")
        server.stdin.flush()
        read_response(server.stdout)
    finally:
        server.stdin.close()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
