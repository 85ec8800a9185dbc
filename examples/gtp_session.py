"""A short scripted GTP session: start ``stargtp serve`` as a subprocess, send
a few commands, print each answer.

    python examples/gtp_session.py

This is how a controller talks to the engine: one command per line, then read
the response up to its empty line. Every command carries an id, so each
answer can be matched to its command.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

COMMANDS = [
    "protocol_version",
    "name",
    "boardsize 4",
    "play b *41",
    "play b *30",
    "play b R43",
    "play w T40",
    "play w T41",
    "showboard",
    "list_stars",
    "final_score",
    "komi 2.5",
    "final_score",
    "genmove w",
    "play w S99",
    "quit",
]


def server_command() -> list[str]:
    """``stargtp serve`` from the PATH or next to this Python, else ``python -m protocol.cli``."""
    executable = shutil.which("stargtp") or os.path.join(os.path.dirname(sys.executable), "stargtp")
    command = [executable] if os.path.exists(executable) else [sys.executable, "-m", "stargtp.protocol.cli"]
    # A fixed seed and playout count make the engine's move the same every run.
    return command + ["serve", "--seed", "1", "--playouts", "300"]


def read_response(stream) -> str:
    """The lines of one response, up to the empty line that ends it."""
    lines = []
    while True:
        line = stream.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        if line == "\n":
            return "".join(lines)
        lines.append(line)


def main() -> int:
    with subprocess.Popen(server_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1) as server:
        for number, command in enumerate(COMMANDS, 1):
            server.stdin.write(f"{number} {command}\n")
            server.stdin.flush()
            print(f"> {number} {command}")
            for line in read_response(server.stdout).splitlines():
                print(f"< {line}")
        return server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
