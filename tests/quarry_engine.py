"""The engine command line the Quarry test gives Quarry: ``stargtp serve``
behind a relay that passes every byte through unchanged, command by command,
and, when the front end says ``quit`` or closes the pipe, first asks the same
``stargtp serve`` for its own record of the game (``printsgf`` and
``stargtp-position``) and writes the answers to ``RECORDS/<pid>.json``
(the relay's process id, which names Quarry's GTP log of this engine). While
the game goes on it appends each command and its response to
``RECORDS/<pid>.log`` (flushed at once, unlike Quarry's own log), so the test
can tell when the last move has reached both engines.

Quarry can only start an engine and talk to it; it cannot be made to ask the
engine for its record. The relay adds those two questions at the very end, so
the test compares Quarry's log with what the engine itself holds.

Usage: ``python quarry_engine.py RECORDS [stargtp serve options...]``
"""

from __future__ import annotations

import json
import os
import subprocess
import sys


def read_response(engine: subprocess.Popen) -> bytes:
    """One whole response: its lines up to and including the blank line."""
    lines = []
    while True:
        line = engine.stdout.readline()
        if not line:
            raise SystemExit("quarry_engine: stargtp serve closed its output")
        lines.append(line)
        if line == b"\n":
            return b"".join(lines)


def ask(engine: subprocess.Popen, command: str) -> str:
    engine.stdin.write(command.encode() + b"\n")
    engine.stdin.flush()
    return read_response(engine).decode()


def main(argv: list[str]) -> int:
    record_path, options = os.path.join(argv[0], f"{os.getpid()}.json"), argv[1:]
    transcript = open(os.path.join(argv[0], f"{os.getpid()}.log"), "ab", buffering=0)
    engine = subprocess.Popen([sys.executable, "-m", "stargtp.protocol.cli", "serve", *options],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    source = sys.stdin.buffer
    sink = sys.stdout.buffer
    while True:
        line = source.readline()
        words = line.split()
        if not line or b"quit" in words[:2]:
            record = {"printsgf": ask(engine, "printsgf"),
                      "stargtp-position": ask(engine, "stargtp-position")}
            with open(record_path + ".part", "w", encoding="utf-8") as out:
                json.dump(record, out)
            os.replace(record_path + ".part", record_path)
            if not line:
                engine.stdin.close()
                return engine.wait()
        engine.stdin.write(line)
        engine.stdin.flush()
        if not words or words[0].startswith(b"#"):
            continue  # no response comes for an empty line or a comment
        response = read_response(engine)
        sink.write(response)
        sink.flush()
        transcript.write(b"> " + line + response)
        if b"quit" in words[:2]:
            return engine.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
