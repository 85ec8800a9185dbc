"""A third-party GTP client drives the server: ``tests/node/play_game.js``
plays a whole game of every built-in game against ``stargtp serve``
through the npm package ``@sabaki/gtp`` (its ``Controller`` spawns the server
and parses every response), and this test checks what the library reported
against the server driven directly over stdin with the same seed.

Needs ``node`` and ``tests/node/node_modules`` (``cd tests/node && npm ci``);
without them the test is skipped, unless ``STARGTP_REQUIRE_NODE=1`` (CI sets
it), when it fails instead."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from stargtp.engine.colour import BLACK
from stargtp.engine.games import BUILT_IN, find_game, read_record
from tests.gtp_helpers import REPO, read_until, serve_command, subprocess_env

NODE_DIR = REPO / "tests" / "node"
SCRIPT = NODE_DIR / "play_game.js"
LIBRARY = NODE_DIR / "node_modules" / "@sabaki" / "gtp" / "package.json"
TIMEOUT = 300.0
"""Generous: only catches a hang (a game takes about a second)."""

OPTIONS = ["--seed", "3", "--playouts", "40", "--workers", "1", "--param", "resign=0"]
"""``resign=0``: no game resigns (Hex and Y would), so each is played to its end."""
GAMES = [(game.name, next(size for size in game.sizes if len(game.new_position(size).legal_moves()) >= 36))
         for game in BUILT_IN]
"""Every game, on its smallest board with at least 36 first moves: *Star 4
rings, Amazons 6x6, Hex 6x6, Y 8 a side."""
BAD_COMMAND = "no_such_command"


def node_or_skip() -> str:
    """The ``node`` executable, once the library is installed; else skip (or
    fail, under STARGTP_REQUIRE_NODE=1)."""
    node = shutil.which("node")
    missing = None
    if node is None:
        missing = "node is not on PATH"
    elif not LIBRARY.is_file():
        missing = f"{LIBRARY.parent.relative_to(REPO)} is missing (cd tests/node && npm ci)"
    if missing is not None:
        if os.environ.get("STARGTP_REQUIRE_NODE") == "1":
            pytest.fail(f"STARGTP_REQUIRE_NODE=1 but {missing}")
        pytest.skip(missing)
    return node


def test_installed_library_is_the_pinned_version() -> None:
    node_or_skip()
    pinned = json.loads((NODE_DIR / "package.json").read_text())["dependencies"]["@sabaki/gtp"]
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", pinned), f"not an exact pin: {pinned}"
    locked = json.loads((NODE_DIR / "package-lock.json").read_text())
    assert locked["packages"]["node_modules/@sabaki/gtp"]["version"] == pinned
    assert json.loads(LIBRARY.read_text())["version"] == pinned


class Server:
    """``stargtp serve`` over stdin/stdout, one command at a time, its
    responses read from the raw bytes (no client library)."""

    def __init__(self, options: list[str]) -> None:
        self.process = subprocess.Popen(
            serve_command(*options), cwd=REPO, env=subprocess_env(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = bytearray()

    def send(self, line: str) -> tuple[bool, str]:
        """(success, text) of the response to ``line``."""
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()
        read_until(self.process.stdout, b"\n\n", self.buffer)
        raw, _, rest = bytes(self.buffer).partition(b"\n\n")
        self.buffer[:] = rest
        match = re.fullmatch(r"([=?])(?: (.*))?", raw.decode(), re.S)
        assert match, raw
        return match.group(1) == "=", match.group(2) or ""

    def ok(self, line: str) -> str:
        success, text = self.send(line)
        assert success, f"{line}: ? {text}"
        return text

    def close(self) -> None:
        try:
            self.ok("quit")
            self.process.stdin.close()
            assert self.process.wait(TIMEOUT) == 0
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def reference_game(game: str, size: int) -> dict:
    """The same game as play_game.js, the same commands in the same order,
    sent straight to the server."""
    server = Server(OPTIONS)
    try:
        server.ok(f"game {game}")
        server.ok(f"boardsize {size}")
        server.ok("game")
        server.ok("query_boardsize")
        state = json.loads(server.ok("stargtp-position"))
        moves: list[list[str]] = []
        end = None
        while end is None:
            if state["over"]:
                end = "over"
                break
            assert len(moves) < 400
            colour = state["to_move"]
            move = server.ok(f"genmove {colour}")
            state = json.loads(server.ok("stargtp-position"))
            if move == "resign":
                end = "resign"
            else:
                moves.append([colour, move])
        final_score = server.ok("final_score")
        record = server.ok("printsgf")
        bad = server.send(BAD_COMMAND)
        server.ok("name")
    finally:
        server.close()
    return {"moves": moves, "end": end, "final_score": final_score, "record": record,
            "position": state, "bad": bad}


def loaded_position(record: str, directory: Path) -> dict:
    """``stargtp-position`` after ``loadsgf`` of ``record`` in a fresh server."""
    path = directory / "game.sgf"
    path.write_text(record + "\n", encoding="utf-8")
    server = Server(OPTIONS)
    try:
        server.ok(f"loadsgf {path}")
        return json.loads(server.ok("stargtp-position"))
    finally:
        server.close()


@pytest.mark.parametrize("game,size", GAMES)
def test_sabaki_gtp_plays_a_whole_game(game: str, size: int, tmp_path: Path) -> None:
    node = node_or_skip()
    done = subprocess.run(
        [node, str(SCRIPT), game, str(size), "--", *serve_command(*OPTIONS)],
        cwd=NODE_DIR, env=subprocess_env(), capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    seen = json.loads(lines[0])
    expected = reference_game(game, size)

    assert (seen["game"], seen["size"]) == (game, size)
    # The moves the library parsed are the moves the server plays on its own.
    assert seen["moves"] == expected["moves"]
    assert seen["moves"], "no move was played"
    assert seen["end"] == expected["end"] == "over"
    assert seen["position"] == expected["position"]
    assert seen["position"]["over"] is True
    assert [colour for colour, _ in seen["position"]["moves"]] == [
        colour for colour, _ in seen["moves"]]
    # final_score: the same string, and the position's own result.
    assert seen["final_score"] == expected["final_score"]
    assert re.fullmatch(r"[BW]\+([0-9]+(\.[0-9]+)?)?|0", seen["final_score"])  # Hex, Y: no margin
    assert seen["final_score"] == seen["position"]["score"]["result"]
    # printsgf: the same multi-line record, and a valid one.
    record = seen["record"]
    assert record == expected["record"]
    assert record.count("\n") == len(seen["moves"]) + 1
    assert record.startswith(f"(;GM[{find_game(game).sgf_number}]FF[4]CA[UTF-8]AP[stargtp]SZ[{size}]")
    assert re.findall(r"RE\[([^]]*)\]", record) in ([seen["final_score"]], [])  # the Amazons' writes none
    position = read_record(record)
    assert (position.game, position.size) == (game, size)
    assert position.is_over()
    assert [["black" if colour == BLACK else "white", position.format_move(move)]
            for colour, move in position.history] == seen["moves"]
    assert loaded_position(record, tmp_path) == seen["position"]
    # The bad command: an error response, parsed as one, with the message.
    assert expected["bad"] == (False, "unknown command")
    assert seen["error"] == {"command": BAD_COMMAND, "message": "unknown command"}
