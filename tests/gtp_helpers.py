"""Helpers shared by the protocol server tests: golden transcripts, running
lines through a session in process, starting ``stargtp serve``, and a name
swapped under a file command."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from stargtp.protocol.server import serve as server
from stargtp.protocol.server.conversation import Conversation
from stargtp.protocol.server.session import Session, SessionConfig

REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"

HANG_SECONDS = 60.0
"""Generous limit that only catches a hang, never a slow machine."""

# A well-framed response: "=" or "?", an optional id, an optional text, then
# further lines that are not empty, then the blank line.
RESPONSE = re.compile(rb"[=?](0|[1-9][0-9]*)?( [^\n]*)?\n([^\n]+\n)*\n")


def serve_command(*options: str) -> list[str]:
    """The command line of a real ``stargtp serve`` subprocess."""
    return [sys.executable, "-m", "stargtp.protocol.cli", "serve", *options]


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def config_for(options: list[str]) -> SessionConfig:
    """The SessionConfig that ``stargtp serve OPTIONS`` would use."""
    parser = argparse.ArgumentParser()
    server.add_arguments(parser)
    return server.config_from_args(parser.parse_args(options))


# -- transcripts -----------------------------------------------------------------

_ESCAPE = re.compile(rb"\\(\\|t|r|x[0-9a-fA-F]{2}|\{[0-9]+\*[^}]*\})")


def unescape(text: str) -> bytes:
    """Decode the transcript escapes (tests/transcripts/README.md)."""

    def replace(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code == b"\\":
            return b"\\"
        if code == b"t":
            return b"\t"
        if code == b"r":
            return b"\r"
        if code.startswith(b"x"):
            return bytes([int(code[1:], 16)])
        count, _, body = code[1:-1].partition(b"*")
        return body * int(count)

    return _ESCAPE.sub(replace, text.encode("utf-8"))


@dataclass
class Transcript:
    name: str
    options: list[str]
    input: bytes
    output: bytes


def load_transcript(path: Path) -> Transcript:
    options: list[str] = []
    sent: list[bytes] = []
    expected: list[bytes] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        if line.startswith("!options"):
            options = line.split()[1:]
        elif line[0] in "<>" and (len(line) == 1 or line[1] == " "):
            data = unescape(line[2:]) + b"\n"
            (sent if line[0] == ">" else expected).append(data)
        else:
            raise ValueError(f"{path.name}:{number}: not a transcript line: {line!r}")
    return Transcript(path.stem, options, b"".join(sent), b"".join(expected))


# -- in process --------------------------------------------------------------------


async def converse(data: bytes, config: SessionConfig = SessionConfig(),
                   chunks: list[int] | None = None) -> tuple[bytes, Session]:
    """Run ``data`` through a fresh session as a transport would (optionally cut
    into chunks of the given sizes) until the conversation finishes; return the
    output and the (closed) session."""
    output = bytearray()
    finished = asyncio.Event()
    session = Session(config)
    conversation = Conversation(session, output.extend, finished.set)
    position = 0
    for size in chunks or [len(data)]:
        conversation.feed(data[position:position + size])
        position += size
    conversation.feed(data[position:])
    conversation.end_of_input()
    try:
        await asyncio.wait_for(finished.wait(), HANG_SECONDS)
    finally:
        await conversation.close()
    return bytes(output), session


def run_serve(data: bytes, options: list[str], stdin_path: Path | None = None) -> bytes:
    """Run a real ``stargtp serve`` on ``data`` (or on a file as stdin) and
    return its stdout."""
    kwargs = dict(stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                  env=subprocess_env(), timeout=HANG_SECONDS)
    if stdin_path is not None:
        with open(stdin_path, "rb") as stdin:
            result = subprocess.run(serve_command(*options), stdin=stdin, **kwargs)
    else:
        result = subprocess.run(serve_command(*options), input=data, **kwargs)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


def split_responses(output: bytes) -> list[bytes]:
    """Cut output into responses, asserting each one is well framed."""
    responses = []
    position = 0
    while position < len(output):
        match = RESPONSE.match(output, position)
        assert match, f"badly framed output at byte {position}: {output[position:position + 200]!r}"
        responses.append(match.group(0))
        position = match.end()
    return responses


def terminate(process: subprocess.Popen) -> None:
    """Ask a server process to stop (SIGTERM) and collect it; kill it if it
    has not stopped within the hang limit."""
    process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()


def process_gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie waiting to be reaped counts)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
        return state in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):  # gone before the open, or between open and read
        return True


def read_until(stream, wanted: bytes, buffer: bytearray) -> None:
    """Read ``stream`` into ``buffer`` until ``wanted`` is in it (a hang fails
    after HANG_SECONDS)."""
    deadline = time.monotonic() + HANG_SECONDS
    while wanted not in buffer:
        assert time.monotonic() < deadline, bytes(buffer[-300:])
        ready, _, _ = select.select([stream], [], [], 1.0)
        if ready:
            chunk = os.read(stream.fileno(), 65536)
            assert chunk, "the server closed its output"
            buffer.extend(chunk)


def stream_then_stop(options: list[str], lines: bytes, head: bytes, stop: bytes, answer: bytes,
                     reports: int = 0, wait: float = 0.0) -> tuple[str, float]:
    """Drive a streaming command in a real ``stargtp serve OPTIONS``: send
    ``lines`` (ending with the command), read up to its ``head`` (``b"=7\\n"``),
    then until ``reports`` report lines have come and ``wait`` seconds have
    passed; send the ``stop`` line, read up to its ``answer``, quit. Returns
    the whole output and the seconds from the head to the stop line."""
    server = subprocess.Popen(serve_command(*options), cwd=REPO, env=subprocess_env(),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdin.write(lines)
        server.stdin.flush()
        output = bytearray()
        read_until(server.stdout, head, output)
        started = time.monotonic()
        deadline = started + HANG_SECONDS
        while output.split(head, 1)[1].count(b"\n") < reports:
            assert time.monotonic() < deadline
            if select.select([server.stdout], [], [], 1.0)[0]:
                chunk = os.read(server.stdout.fileno(), 65536)
                assert chunk, "the server closed its output"
                output.extend(chunk)
        time.sleep(max(0.0, started + wait - time.monotonic()))
        server.stdin.write(stop)
        server.stdin.flush()
        elapsed = time.monotonic() - started
        read_until(server.stdout, answer, output)
        server.stdin.write(b"quit\n")
        server.stdin.close()
        assert server.wait(HANG_SECONDS) == 0
    finally:
        if server.poll() is None:
            server.kill()
    return output.decode(), elapsed


# -- a name swapped under a file command ---------------------------------------

RACE_LOADS = 2000
"""Loads of a name that another process keeps swapping (the file race tests):
at least these, and more until both states of the name have been seen (on a
busy machine the swapper may not run at all during the first loads)."""

RACE_SECONDS = 120.0
"""A race stops here if it has not finished: it bounds the test's length. A
race that never saw both states by then fails the test: the swapper never
ran, which is unmistakable (a healthy race sees both within a second)."""


SWAP_PROGRAM = """
import ctypes, os, sys
renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
AT_FDCWD, RENAME_EXCHANGE = -100, 2
first, second = map(os.fsencode, sys.argv[1:])
print("swapping", flush=True)
while True:
    if renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE) != 0:
        sys.exit(os.strerror(ctypes.get_errno()))
"""


class Swapper:
    """Another process that exchanges the names ``first`` and ``second``
    over and over, each time in one move (Linux's ``renameat2`` with
    ``RENAME_EXCHANGE``: neither name is ever missing), until the ``with``
    block ends: what a process that can create files in the server's file
    directory can do to a name in it while a file command reads it. A
    process, not a thread: it swaps while the reader runs, whoever holds the
    GIL."""

    def __init__(self, first: Path, second: Path) -> None:
        self.names = (str(first), str(second))
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Swapper:
        self._process = subprocess.Popen([sys.executable, "-c", SWAP_PROGRAM, *self.names],
                                         stdout=subprocess.PIPE)
        assert self._process.stdout.readline() == b"swapping\n"
        return self

    def __exit__(self, *exc_info: object) -> None:
        assert self._process.poll() is None, "the swapper stopped by itself"
        self._process.kill()
        self._process.wait(HANG_SECONDS)
        self._process.stdout.close()
