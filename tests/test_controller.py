"""The asyncio controller: exact dialogues against a scripted in-memory
engine, then real subprocesses and TCP, hostile output included.

No test depends on the machine being fast: a timeout that must fire waits for
an answer that never comes, and every wait for a healthy engine (starting,
answering, exiting) has a limit of many seconds, which it only reaches if it
hangs.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from stargtp.engine.star import Position
from stargtp.protocol.controller import (STDERR_TAIL_BYTES, EngineError, EngineSpec, GtpController, ProtocolError,
                                         ResponseTimeout, TransportError)

FAKE_ENGINE = str(Path(__file__).parent / "fake_engines" / "fake_engine.py")
HANG_GUARD = 60.0
"""Seconds a healthy engine may take for anything (Python starting up on a
loaded machine included): it matters only if it hangs."""


class ScriptedWriter:
    """The engine's input side: every command written must be the next one in
    the script, and writing it feeds the scripted answer to the reader (or
    runs a callable, e.g. to close the stream)."""

    def __init__(self, reader: asyncio.StreamReader, script: list[tuple[str, bytes | Callable[[], None]]]) -> None:
        self.reader = reader
        self.script = script
        self.written: list[str] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data.decode())
        expected, answer = self.script.pop(0)
        assert data.decode() == expected
        if callable(answer):
            answer()
        else:
            self.reader.feed_data(answer)

    async def drain(self) -> None:
        pass

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    async def wait_closed(self) -> None:
        pass


def scripted(script: list[tuple[str, bytes | Callable[[], None]]], **options) -> tuple[GtpController, ScriptedWriter]:
    reader = asyncio.StreamReader()
    writer = ScriptedWriter(reader, script)
    return GtpController(reader, writer, description="scripted", **options), writer  # type: ignore[arg-type]


def test_exact_dialogue_and_answer_forms() -> None:
    async def scenario() -> list[str]:
        controller, writer = scripted([
            ("1 protocol_version\n", b"=1 2\n\n"),
            ("2 list_commands\n", b"=2 play\ngenmove\n\n"),
            ("3 clear_board\n", b"=3\n\n"),
            ("4 name\n", b"= sloppy-no-id\n\n"),
            ("5 version\n", b"=5 1.0\r\n\r\n"),
            ("6 komi 7.5\n", b"\n \n=6\n\n"),
        ])
        answers = [await controller.send(c) for c in
                   ("protocol_version", "list_commands", "clear_board", "name", "version", "komi 7.5")]
        assert writer.script == [] and controller.broken is None
        return answers

    assert asyncio.run(scenario()) == ["2", "play\ngenmove", "", "sloppy-no-id", "1.0", ""]


def test_failure_answer_is_an_engine_error_and_keeps_the_connection() -> None:
    async def scenario() -> None:
        controller, _ = scripted([("1 play b S43\n", b"?1 illegal move\n\n"), ("2 name\n", b"=2 x\n\n")])
        with pytest.raises(EngineError) as caught:
            await controller.send("play b S43")
        assert caught.value.message == "illegal move" and caught.value.command == "play b S43"
        assert controller.broken is None
        assert await controller.send("name") == "x"

    asyncio.run(scenario())


def test_wrong_id_is_a_protocol_error_and_breaks_the_controller() -> None:
    async def scenario() -> None:
        controller, _ = scripted([("1 name\n", b"=7 x\n\n")])
        with pytest.raises(ProtocolError, match="answer id 7 does not match command id 1"):
            await controller.send("name")
        with pytest.raises(TransportError, match="unusable after an earlier error"):
            await controller.send("name")

    asyncio.run(scenario())


@pytest.mark.parametrize("output, message", [
    (b"GNU Go banner\n", "does not start with '=' or '?'"),
    (b"=1abc\n\n", "malformed answer"),
    (b"=1 " + b"x" * 300, "longer than 100 bytes"),
])
def test_malformed_output_fails_without_waiting_for_the_timeout(output: bytes, message: str) -> None:
    async def scenario() -> None:
        controller, _ = scripted([("1 name\n", output)], max_response_bytes=100)
        with pytest.raises(ProtocolError, match=message):
            await controller.send("name", timeout=30)  # a hang here would be a bug

    asyncio.run(scenario())


def test_end_of_stream_is_a_transport_error() -> None:
    async def scenario() -> None:
        reader = asyncio.StreamReader()
        controller, _ = scripted([("1 genmove b\n", lambda: reader.feed_eof())])
        controller._reader = reader
        with pytest.raises(TransportError, match="closed its output") as caught:
            await controller.send("genmove b")
        assert not isinstance(caught.value, ResponseTimeout)

    asyncio.run(scenario())


def test_silence_and_trickle_both_time_out() -> None:
    async def scenario() -> None:
        controller, _ = scripted([("1 genmove b\n", b"=1 S4")])  # never finishes
        with pytest.raises(ResponseTimeout, match="within 0.05 s"):
            await controller.send("genmove b", timeout=0.05)
        assert controller.broken is not None

        # One byte every 10 ms never completes an answer: the deadline covers
        # the whole response, not each read.
        reader = asyncio.StreamReader()

        async def trickle() -> None:
            while True:
                reader.feed_data(b"x" if reader._buffer else b"=")
                await asyncio.sleep(0.01)

        trickler = asyncio.create_task(trickle())
        controller = GtpController(reader, ScriptedWriter(reader, [("1 name\n", b"")]))  # type: ignore[arg-type]
        with pytest.raises(ResponseTimeout):
            await controller.send("name", timeout=0.2)
        trickler.cancel()

    asyncio.run(scenario())


def test_commands_that_would_break_the_framing_are_refused() -> None:
    async def scenario() -> None:
        controller, writer = scripted([])
        for bad in ("play b S43\nquit", "genmove b # hmm", "", "   ", "name\x00"):
            with pytest.raises(ValueError):
                await controller.send(bad)
        assert writer.written == []

    asyncio.run(scenario())


def test_known_command_is_asked_once() -> None:
    async def scenario() -> None:
        controller, writer = scripted([("1 known_command time_left\n", b"=1 true\n\n"),
                                       ("2 known_command game\n", b"?2 unknown command\n\n")])
        assert await controller.known_command("time_left") and await controller.known_command("time_left")
        assert not await controller.known_command("game") and not await controller.known_command("game")
        assert writer.written == ["1 known_command time_left\n", "2 known_command game\n"]

    asyncio.run(scenario())


def test_engine_spec_parsing() -> None:
    assert EngineSpec.parse("tcp:127.0.0.1:5000").address == ("127.0.0.1", 5000)
    assert EngineSpec.parse("tcp:[::1]:6000").address == ("::1", 6000)
    spec = EngineSpec.parse("stargtp serve --param 'c=1.4 x'")
    assert spec.argv == ("stargtp", "serve", "--param", "c=1.4 x") and not spec.is_tcp
    for bad in ("tcp:host", "tcp::80", "tcp:host:0", "tcp:host:http", ""):
        with pytest.raises(ValueError):
            EngineSpec.parse(bad)
    with pytest.raises(ValueError, match=r"^cannot split the command \"engine 'x\" like a shell would: "
                                         r"No closing quotation$"):
        EngineSpec.parse("engine 'x")


# -- real processes ----------------------------------------------------------
def fake(*options: str) -> list[str]:
    return [sys.executable, FAKE_ENGINE, *options]


def test_subprocess_engine_dialogue_and_clean_exit() -> None:
    async def scenario() -> None:
        controller = await GtpController.start(fake("--seed", "3"), command_timeout=HANG_GUARD)
        assert await controller.send("protocol_version") == "2"
        assert await controller.send("boardsize 3") == ""
        assert await controller.send("play black *10") == ""
        with pytest.raises(EngineError, match="illegal move"):
            await controller.send("play white *10")
        assert await controller.send("genmove white") != ""
        await controller.close(timeout=HANG_GUARD)
        assert controller.returncode == 0  # it answered quit and exited by itself
        with pytest.raises(TransportError, match="closed"):
            await controller.send("name")

    asyncio.run(scenario())


def test_dying_engine_reports_its_exit_status() -> None:
    async def scenario() -> None:
        controller = await GtpController.start(fake("--mode", "die", "--at", "1"), command_timeout=HANG_GUARD)
        with pytest.raises(TransportError, match="exited with status 3"):
            await controller.send("genmove black")
        await controller.close()

    asyncio.run(scenario())


def test_program_that_cannot_start() -> None:
    async def scenario() -> None:
        with pytest.raises(TransportError, match="cannot start engine"):
            await GtpController.start(["/nonexistent/engine-binary"])

    asyncio.run(scenario())


def test_hung_engine_is_killed_with_its_process_group(tmp_path: Path) -> None:
    # The engine starts a child (as a search worker would), says it is ready,
    # and then hangs: its second command is never answered.
    pid_file = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen(['sleep', '60']); open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "sys.stdin.readline(); print('= ready\\n', flush=True)\n"
        "sys.stdin.readline(); time.sleep(60)\n"
    )

    async def scenario() -> None:
        controller = await GtpController.start([sys.executable, "-c", script])
        assert await controller.send("protocol_version", timeout=HANG_GUARD) == "ready"
        with pytest.raises(ResponseTimeout):
            await controller.send("genmove b", timeout=0.3)
        await controller.close(timeout=0.5)
        assert controller.returncode == -signal.SIGTERM

    asyncio.run(scenario())
    child = int(pid_file.read_text())
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline and _is_running(child):
        time.sleep(0.02)
    assert not _is_running(child), "the engine's child process survived close()"


def _is_running(pid: int) -> bool:
    """Alive and not a zombie (its reaper, init, may be slow to collect it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_stderr_flood_neither_blocks_nor_grows() -> None:
    lines: list[str] = []

    async def scenario() -> str:
        controller = await GtpController.start(fake("--stderr-bytes", "200000"), on_stderr_line=lines.append,
                                               command_timeout=HANG_GUARD)
        for _ in range(10):  # 2 MB of stderr: far more than a pipe buffer holds
            assert await controller.send("protocol_version") == "2"
        await controller.close(timeout=HANG_GUARD)
        return controller.stderr_tail()

    tail = asyncio.run(scenario())
    assert 0 < len(tail) <= STDERR_TAIL_BYTES
    assert len(lines) == 11 and all(len(line) <= STDERR_TAIL_BYTES for line in lines)  # 10 + quit


def test_tcp_engine_and_refused_connection() -> None:
    async def scenario() -> None:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while line := await reader.readline():
                command_id, name = line.decode().split()[:2]
                writer.write(f"={command_id} {'2' if name == 'protocol_version' else ''}\n\n".encode())
                await writer.drain()
                if name == "quit":
                    break
            writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with await GtpController.open(EngineSpec.parse(f"tcp:127.0.0.1:{port}")) as controller:
            assert await controller.send("protocol_version") == "2"
        server.close()
        await server.wait_closed()

        with socket.socket() as probe:  # a port nobody listens on
            probe.bind(("127.0.0.1", 0))
            free_port = probe.getsockname()[1]
        with pytest.raises(TransportError, match="cannot connect"):
            await GtpController.connect("127.0.0.1", free_port)

    asyncio.run(scenario())


def test_interrupt_makes_a_long_genmove_answer_now() -> None:
    """``interrupt()`` writes ``# interrupt`` while ``genmove`` waits for its
    answer: a real server told to think for ten minutes answers within the
    hang guard, with a move, and the controller stays in step."""

    async def go() -> tuple[str, str]:
        argv = [sys.executable, "-m", "stargtp.protocol.cli", "serve", "--size", "3", "--seed", "1",
                "--seconds", "600"]
        async with await GtpController.start(argv, command_timeout=HANG_GUARD) as engine:
            lines: list[str] = []
            engine.on_traffic = lambda direction, text: lines.append(direction + text)
            move = asyncio.create_task(engine.send("genmove b"))
            while not any(line.endswith("genmove b") for line in lines):
                await asyncio.sleep(0.01)
            engine.interrupt()
            answer = await asyncio.wait_for(move, HANG_GUARD)
            assert ">1 genmove b" in lines and "># interrupt" in lines
            return answer, await engine.send("query_boardsize")

    move, size = asyncio.run(go())
    position = Position(3)
    position.play(position.parse_move(move))  # a legal move (or pass) of the empty board
    assert size == "3"
