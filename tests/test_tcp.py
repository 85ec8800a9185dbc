"""The TCP server: many independent sessions at once, disconnects mid-search,
over-long lines, binary garbage, the connection limit, quit and shutdown,
files under --file-dir (a name swapped for a link while loadsgf reads it)."""

from __future__ import annotations

import asyncio
import collections
import os
import random
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import pytest

from stargtp.engine.errors import GameError
from stargtp.engine.games import new_position
from tests.gtp_helpers import (HANG_SECONDS, RACE_LOADS, RACE_SECONDS, REPO, Swapper, config_for, converse,
                               process_gone, serve_command, split_responses,
                               subprocess_env)
from stargtp.protocol.server.tcp import TcpServer
from stargtp.protocol.server.session import SessionConfig

try:
    new_position("amazons")
    HAVE_AMAZONS = True
except GameError:
    HAVE_AMAZONS = False

SERVER_OPTIONS = ["--seed", "1", "--player", "flat", "--playouts", "30"]


class Client:
    """A line-protocol client over asyncio streams."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, port: int) -> Client:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, limit=1 << 20), HANG_SECONDS)
        return cls(reader, writer)

    async def send(self, data: str | bytes) -> None:
        self.writer.write(data.encode() if isinstance(data, str) else data)
        await self.writer.drain()

    async def response(self) -> bytes:
        return await asyncio.wait_for(self.reader.readuntil(b"\n\n"), HANG_SECONDS)

    async def command(self, line: str) -> bytes:
        await self.send(line + "\n")
        return await self.response()

    async def at_eof(self) -> bool:
        """True when the server has closed the connection (after what it sent)."""
        rest = await asyncio.wait_for(self.reader.read(), HANG_SECONDS)
        return rest == b""

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


@contextmanager
def serve_process(*options: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A real ``stargtp serve --tcp 127.0.0.1:0``; yields it and its port."""
    process = subprocess.Popen(serve_command("--tcp", "127.0.0.1:0", *options), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                               env=subprocess_env())
    try:
        line = process.stderr.readline().decode()
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert match, f"no port reported: {line!r}"
        yield process, int(match.group(1))
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(HANG_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@asynccontextmanager
async def serve_in_process(config: SessionConfig, max_connections: int = 64) -> AsyncIterator[tuple[TcpServer, int]]:
    server = TcpServer(config, max_connections)
    _, port = await server.start("127.0.0.1", 0)
    try:
        yield server, port
    finally:
        await server.close()


# -- many sessions at once ------------------------------------------------------------------


def session_script(index: int) -> list[str]:
    """A different game for each client, with its own size, komi and moves."""
    rng = random.Random(index)
    lines: list[str] = []
    if HAVE_AMAZONS and index % 4 == 3:
        size = (6, 8, 10)[index % 3]
        position = new_position("amazons", size)
        lines += ["game amazons", f"boardsize {size}"]
        for _ in range(rng.randint(2, 6)):
            move = rng.choice(position.legal_moves())
            lines.append(f"play {'w' if position.to_move == 2 else 'b'} {position.format_move(move)}")
            position.play(move)
        lines += ["showboard", "perft 1", "undo", "game"]
    else:
        rings = 2 + index % 9
        position = new_position("star", rings)
        lines += [f"boardsize {rings}", f"komi {index / 2}"]
        for _ in range(rng.randint(3, 12)):
            if position.history and rng.random() < 0.15:
                lines.append("undo")
                position.undo()
            else:
                move = rng.choice(position.legal_moves())
                colour = rng.choice(["b", "w", "B", "white"])
                lines.append(f"play {colour} {position.format_move(move).lower()}")
                position.play(move, 1 if colour.lower().startswith("b") else 2)
        lines += ["showboard", "final_score", "list_stars", "perft 2", "play b *10", "game"]
        if index % 5 == 0:
            lines += ["genmove w", "showboard"]
    return [f"{index * 100 + n} {line}" for n, line in enumerate(lines)]


def test_twenty_four_concurrent_sessions_without_cross_talk() -> None:
    scripts = [session_script(i) for i in range(24)]
    config = config_for(SERVER_OPTIONS)
    expected = [asyncio.run(converse("".join(l + "\n" for l in s).encode(), config))[0] for s in scripts]

    async def client_run(port: int, index: int, script: list[str]) -> bytes:
        client = await Client.connect(port)
        received = []
        if index % 6 == 1:  # some clients pipeline everything at once
            await client.send("".join(line + "\n" for line in script))
            for _ in script:
                received.append(await client.response())
        else:
            for line in script:
                received.append(await client.command(line))
                await asyncio.sleep(0)
        await client.close()
        return b"".join(received)

    async def scenario(port: int) -> list[bytes]:
        return await asyncio.gather(*(client_run(port, i, s) for i, s in enumerate(scripts)))

    with serve_process(*SERVER_OPTIONS) as (_, port):
        outputs = asyncio.run(scenario(port))
    for index, (got, want) in enumerate(zip(outputs, expected)):
        assert got == want, f"session {index} differs"
    assert all(len(split_responses(out)) == len(script) for out, script in zip(outputs, scripts))


# -- disconnects, garbage, long lines ------------------------------------------------------------


def test_disconnect_during_genmove_frees_the_worker() -> None:
    config = SessionConfig(size=6, seed=2, player="flat", seconds=120.0)

    async def scenario() -> None:
        async with serve_in_process(config) as (server, port):
            client = await Client.connect(port)
            other = await Client.connect(port)
            await client.send("1 genmove b\n")
            deadline = time.monotonic() + HANG_SECONDS
            while not any(s.search.pool and s.search.pool.pids for s in server.sessions):
                assert time.monotonic() < deadline, "the search never started"
                await asyncio.sleep(0.01)
            (pid,) = [p for s in server.sessions if s.search.pool for p in s.search.pool.pids]
            await asyncio.sleep(0.3)
            client.writer.transport.abort()     # vanish mid-search
            while not process_gone(pid):
                assert time.monotonic() < deadline, "the worker outlived its client"
                await asyncio.sleep(0.02)
            assert await other.command("2 name") == b"=2 stargtp\n\n"
            assert len(server.connections) == 1
            await other.close()

    asyncio.run(scenario())


def test_oversize_lines_and_binary_garbage() -> None:
    rng = random.Random(42)
    garbage = bytes(rng.randrange(256) for _ in range(300_000))

    async def scenario(port: int) -> None:
        client = await Client.connect(port)
        await client.send(b"1 play b " + b"x" * 200_000 + b"\n2 name\n")
        assert await client.response() == b"?1 syntax error: line too long\n\n"
        assert await client.response() == b"=2 stargtp\n\n"
        # An endless line without LF is discarded as it streams in.
        for _ in range(20):
            await client.send(b"y" * 100_000)
        await client.send(b"\n3 name\n")
        assert await client.response() == b"? syntax error: line too long\n\n"
        assert await client.response() == b"=3 stargtp\n\n"
        # Random bytes: every line gets a well-framed answer or none, and the
        # session still works afterwards.
        await client.send(garbage + b"\n4 name\n")
        data = b""
        while not data.endswith(b"=4 stargtp\n\n"):
            data += await client.response()
        responses = split_responses(data)
        lines = [line for line in garbage.split(b"\n")]
        assert len(responses) - 1 <= len(lines)
        assert all(r.startswith(b"?") or r.startswith(b"=") for r in responses)
        await client.close()
        fresh = await Client.connect(port)
        assert await fresh.command("5 protocol_version") == b"=5 2\n\n"
        await fresh.close()

    with serve_process(*SERVER_OPTIONS) as (process, port):
        asyncio.run(scenario(port))
        assert process.poll() is None


def test_connection_limit_refuses_politely() -> None:
    async def scenario(port: int) -> None:
        clients = [await Client.connect(port) for _ in range(3)]
        for n, client in enumerate(clients):
            assert await client.command(f"{n} name") == f"={n} stargtp\n\n".encode()
        extra = await Client.connect(port)
        refusal = await extra.response()
        assert refusal == b"? server busy: too many connections (limit 3), try again later\n\n"
        assert await extra.at_eof()
        await clients[0].close()
        deadline = time.monotonic() + HANG_SECONDS
        while True:  # the server notices the closed connection
            retry = await Client.connect(port)
            await retry.send("7 name\n")
            answer = await retry.response()
            if answer == b"=7 stargtp\n\n":
                break
            assert answer.startswith(b"? server busy") and time.monotonic() < deadline
            await retry.close()
            await asyncio.sleep(0.02)
        for client in clients[1:] + [retry]:
            assert await client.command("8 protocol_version") == b"=8 2\n\n"
            await client.close()

    with serve_process("--max-connections", "3") as (_, port):
        asyncio.run(scenario(port))


def test_quit_ends_only_its_own_connection_and_half_close_is_answered() -> None:
    async def scenario(port: int) -> None:
        leaving, staying = await Client.connect(port), await Client.connect(port)
        await leaving.send("1 boardsize 3\n2 quit\n3 name\n")
        assert await leaving.response() == b"=1\n\n"
        assert await leaving.response() == b"=2\n\n"
        assert await leaving.at_eof()
        assert await staying.command("1 boardsize") == b"?1 syntax error: expected 1 or 2 arguments\n\n"
        # A client that half-closes still gets every answer, then EOF.
        staying.writer.write(b"2 play b *10\n3 genmove w\n4 showboard\n")
        staying.writer.write_eof()
        assert await staying.response() == b"=2\n\n"
        assert (await staying.response()).startswith(b"=3 ")
        assert b"moves: 2" in await staying.response()
        assert await staying.at_eof()
        await leaving.close()
        await staying.close()

    with serve_process(*SERVER_OPTIONS) as (_, port):
        asyncio.run(scenario(port))


def test_a_client_that_never_reads_does_not_stall_others() -> None:
    async def scenario() -> None:
        async with serve_in_process(SessionConfig(size=3)) as (server, port):
            flooder = await Client.connect(port)
            flood = b"name\n" * 200_000
            flooder.writer.write(flood)   # and never read the answers
            polite = await Client.connect(port)
            for n in range(20):
                assert await polite.command(f"{n} name") == f"={n} stargtp\n\n".encode()
            flooder.writer.transport.abort()
            await polite.close()

    asyncio.run(scenario())


def test_sigterm_shuts_the_tcp_server_down_cleanly() -> None:
    async def scenario(port: int, process: subprocess.Popen[bytes]) -> None:
        idle, searching = await Client.connect(port), await Client.connect(port)
        assert await idle.command("1 name") == b"=1 stargtp\n\n"
        await searching.send("1 genmove b\n")
        await asyncio.sleep(0.5)
        process.send_signal(signal.SIGTERM)
        assert await idle.at_eof()
        assert await searching.at_eof()   # no half-written (or any) answer to genmove

    with serve_process("--seconds", "120") as (process, port):
        asyncio.run(scenario(port, process))
        assert process.wait(HANG_SECONDS) == 0
        assert b"Traceback" not in process.stderr.read()


def test_port_in_use_is_one_line_and_status_2() -> None:
    """Like any other command-line mistake: one line naming the tool, status 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(serve_command("--tcp", f"127.0.0.1:{port}"), capture_output=True,
                                cwd=REPO, env=subprocess_env(), timeout=HANG_SECONDS)
    assert (result.returncode, result.stdout, result.stderr.decode()) == (
        2, b"", f"stargtp serve: cannot listen on 127.0.0.1:{port}: Address already in use\n")


@pytest.mark.parametrize("count", [3])
def test_many_sessions_search_at_once(count: int) -> None:
    """Searches of different sessions run side by side, each answering its own."""
    config = SessionConfig(size=4, seed=3, player="flat", seconds=120.0)

    async def scenario() -> None:
        async with serve_in_process(config) as (server, port):
            clients = [await Client.connect(port) for _ in range(count)]
            for n, client in enumerate(clients):
                await client.send(f"boardsize {3 + n}\n{n} genmove b\n")
                assert await client.response() == b"=\n\n"
            deadline = time.monotonic() + HANG_SECONDS
            while sum(1 for s in server.sessions if s.search.pool and s.search.pool.pids) < count:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.3)
            for n, client in reversed(list(enumerate(clients))):
                await client.send("# interrupt\n")
                answer = (await client.response()).decode()
                position = new_position("star", 3 + n)
                assert answer.startswith(f"={n} ")
                assert position.is_legal(position.parse_move(answer[len(f'={n} '):-2]))
            for client in clients:
                await client.close()

    asyncio.run(scenario())


# -- busy, idle and file-reading clients ---------------------------------------------------


def test_a_refused_client_that_already_sent_reads_its_refusal() -> None:
    # A client that writes before it reads must still get the "server busy"
    # line, not a connection reset: the refused connection drains its input.
    async def scenario(port: int) -> None:
        holder = await Client.connect(port)
        assert await holder.command("1 name") == b"=1 stargtp\n\n"
        for attempt in range(5):
            extra = await Client.connect(port)
            await extra.send("2 name\n3 version\n" + "x" * 100_000 + "\n")
            await asyncio.sleep(0.2)
            assert await extra.response() == (
                b"? server busy: too many connections (limit 1), try again later\n\n")
            await extra.close()
        await holder.close()

    with serve_process("--max-connections", "1") as (_, port):
        asyncio.run(scenario(port))


def test_idle_connections_are_closed_and_busy_ones_are_not() -> None:
    # With --idle-timeout 0.5: a silent client is hung up on; a client whose
    # genmove runs far longer than the timeout keeps its connection (a running
    # command is not idleness) and then goes on talking.
    async def scenario(port: int) -> None:
        idle = await Client.connect(port)
        busy = await Client.connect(port)
        assert await busy.command("1 boardsize 4") == b"=1\n\n"
        assert (await busy.command("2 genmove b")).startswith(b"=2 ")
        assert await busy.command("3 name") == b"=3 stargtp\n\n"
        assert await idle.at_eof()
        assert await busy.at_eof()  # and once idle itself, it goes too
        # The slots are free again.
        fresh = await Client.connect(port)
        assert await fresh.command("4 name") == b"=4 stargtp\n\n"
        await fresh.close()

    with serve_process("--idle-timeout", "0.5", "--max-connections", "2", "--player", "flat",
                       "--seconds", "2", "--workers", "1") as (process, port):
        asyncio.run(scenario(port))


DRIBBLES = [b"name"[i % 4:i % 4 + 1] for i in range(1000)]  # n a m e n a ...: a line that never ends


async def dribble(client: Client, pieces: list[bytes], interval: float) -> float:
    """Send ``pieces`` one by one, ``interval`` apart, until the server closes
    the connection; returns when, by the loop's clock, it was seen closed."""
    async def send() -> None:
        for piece in pieces:
            try:
                await client.send(piece)
            except (ConnectionError, OSError):
                return
            await asyncio.sleep(interval)

    sender = asyncio.ensure_future(send())
    try:
        try:
            closed = await client.at_eof()  # (HANG_SECONDS: it is never closed)
        except ConnectionResetError:  # closed while our last dribbled bytes were unread: a reset is a close
            closed = True
        assert closed
        return asyncio.get_running_loop().time()
    finally:
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
        await client.close()


def test_clients_dribbling_bytes_cannot_hold_every_slot() -> None:
    # --max-connections 8 --command-timeout 1: eight clients take every slot
    # and send a byte every 0.2 s, never a complete command: three a line
    # that never ends, three comment lines, two empty lines. Any byte used to
    # renew the idle timeout, so they held the slots for ever; now each is
    # closed once it has owed a command for 1 s. A healthy client, refused
    # ("server busy") while they hold the slots, retries and is served within
    # the hang limit, 60 times the timeout (before the change: never).
    async def scenario(port: int) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        kinds = [DRIBBLES] * 3 + [[b"# x\n"] * 1000] * 3 + [[b"\n"] * 1000] * 2
        clients = [await Client.connect(port) for _ in kinds]
        for client, pieces in zip(clients, kinds):  # every slot is taken before any byte dribbles
            await client.send(pieces[0])
        attackers = [asyncio.ensure_future(dribble(client, pieces[1:], 0.2)) for client, pieces in zip(clients, kinds)]
        await asyncio.sleep(0)
        refusals, served_at = 0, None
        while served_at is None:
            assert loop.time() - started < HANG_SECONDS, "the healthy client was never served"
            healthy = await Client.connect(port)
            try:
                answer = await healthy.command("1 name")
            except asyncio.IncompleteReadError:  # closed: "1 name" came 1 s late (a loaded machine)
                answer = b""
            if answer == b"=1 stargtp\n\n":
                served_at = loop.time()
                assert await healthy.command("2 boardsize 4") == b"=2\n\n"
            else:
                assert answer in (b"? server busy: too many connections (limit 8), try again later\n\n", b"")
                refusals += 1
                await asyncio.sleep(0.05)
            await healthy.close()
        closed_at = await asyncio.gather(*attackers)
        assert len(closed_at) == 8
        print(f"8 dribbling clients closed {min(closed_at) - started:.2f} to {max(closed_at) - started:.2f} s "
              f"after they connected; the healthy client was refused {refusals} times, served after "
              f"{served_at - started:.2f} s (command timeout 1 s)")

    with serve_process("--max-connections", "8", "--command-timeout", "1") as (_, port):
        asyncio.run(scenario(port))


def test_only_a_complete_command_pays_what_a_connection_owes() -> None:
    # --command-timeout 0.5 --idle-timeout 600 --seconds 4: what counts.
    async def scenario(port: int) -> None:
        # Silent after its commands: idle (600 s), owing nothing; still served
        # after four times the command timeout.
        quiet = await Client.connect(port)
        assert await quiet.command("1 name") == b"=1 stargtp\n\n"
        # A comment line, an empty line and a begun line during a 4 s search,
        # the line ended 1.5 s later (three times the command timeout, still
        # searching): a running command is not idleness, the connection is kept.
        busy = await Client.connect(port)
        assert await busy.command("1 boardsize 4") == b"=1\n\n"
        await busy.send("2 genmove b\n# thinking\n\n3 na")
        await asyncio.sleep(1.5)
        await busy.send("me\n")
        assert (await busy.response()).startswith(b"=2 ")
        assert await busy.response() == b"=3 stargtp\n\n"
        await asyncio.sleep(2.0)
        assert await quiet.command("2 name") == b"=2 stargtp\n\n"
        # Comments and a line never ended, after a command: closed.
        await busy.send("# only comments\n5 vers")
        assert await busy.at_eof()
        # Connected but never a command: closed too (the idle timeout is 600 s).
        mute = await Client.connect(port)
        assert await mute.at_eof()
        await quiet.close()

    with serve_process("--command-timeout", "0.5", "--idle-timeout", "600", "--player", "flat",
                       "--seconds", "4", "--workers", "1") as (_, port):
        asyncio.run(scenario(port))


def test_a_client_that_never_reads_its_answers_is_idle() -> None:
    # Idle timeout 1 s: a client that sends 100,000 commands and never reads
    # an answer has its output blocked, and the commands waiting behind it
    # are not activity: it is closed (before the change: it held its slot for
    # ever). A client that reads gets every answer.
    async def scenario() -> None:
        server = TcpServer(SessionConfig(size=3), idle_timeout=1.0)
        _, port = await server.start("127.0.0.1", 0)
        try:
            flooder = await Client.connect(port)
            flooder.writer.write(b"list_commands\n" * 100_000)  # 50 MB of answers, never read
            deadline = time.monotonic() + HANG_SECONDS
            while not server.connections or not any("writing" in c._pause_reasons for c in server.connections):
                assert time.monotonic() < deadline, "the flooder's output never blocked"
                await asyncio.sleep(0.01)
            while server.connections:
                assert time.monotonic() < deadline, "the client that never reads was never closed"
                await asyncio.sleep(0.01)
            flooder.writer.transport.abort()
            reader = await Client.connect(port)
            for n in range(3):
                assert await reader.command(f"{n} name") == f"={n} stargtp\n\n".encode()
            await reader.close()
        finally:
            await server.close()

    asyncio.run(scenario())


def test_over_tcp_files_are_read_only_from_the_file_dir(tmp_path) -> None:
    from stargtp.engine.amazons.position import Position as AmazonsPosition
    from stargtp.engine.amazons.sgf import write_sgf

    allowed = tmp_path / "records"
    allowed.mkdir()
    (allowed / "game.sgf").write_text(write_sgf(AmazonsPosition(6)))
    (tmp_path / "secret.sgf").write_text(write_sgf(AmazonsPosition(8)))
    disabled = (b"? cannot load file: reading files is disabled on this connection"
                b" (stargtp serve --tcp allows it with --file-dir DIR;"
                b" stargtp-loadsgf-text takes a record as text)\n\n")
    outside = b"? cannot load file: the path is outside the server's file directory\n\n"

    async def without_dir(port: int) -> None:
        client = await Client.connect(port)
        assert await client.command(f"loadsgf {allowed / 'game.sgf'}") == disabled
        assert await client.command("loadsgf /etc/passwd") == disabled
        assert await client.command("game") == b"= star\n\n"
        await client.close()

    async def with_dir(port: int) -> None:
        client = await Client.connect(port)
        assert await client.command("loadsgf game.sgf") == b"=\n\n"
        assert await client.command("loadsgf ../secret.sgf") == outside
        assert await client.command(f"loadsgf {tmp_path / 'secret.sgf'}") == outside
        assert await client.command("loadsgf /etc/passwd") == outside
        assert await client.command("game") == b"= amazons\n\n"
        await client.close()

    with serve_process() as (_, port):
        asyncio.run(without_dir(port))
    with serve_process("--file-dir", str(allowed)) as (_, port):
        asyncio.run(with_dir(port))


def test_loadsgf_of_a_fifo_freezes_nothing(tmp_path) -> None:
    # A FIFO with no writer: a plain open() would block the event loop, and
    # with it every session. It is refused at once; the others go on.
    fifo = tmp_path / "pipe.sgf"
    os.mkfifo(fifo)

    async def scenario(port: int) -> None:
        first = await Client.connect(port)
        second = await Client.connect(port)
        assert await first.command("1 loadsgf pipe.sgf") == (
            b"?1 cannot load file: not a regular file\n\n")
        assert await second.command("2 name") == b"=2 stargtp\n\n"
        await first.close()
        await second.close()

    with serve_process("--file-dir", str(tmp_path)) as (_, port):
        asyncio.run(scenario(port))


RACE_INSIDE = b"(;GM[2004]SZ[4])\n"
RACE_OUTSIDE = b"(;GM[2004]SZ[7])\n"


def test_loadsgf_of_a_name_swapped_for_a_link_never_reads_outside_the_file_dir(tmp_path) -> None:
    # A process that can create files in the file directory swaps race.sgf
    # between a regular file and a link to a record outside the directory
    # (exchanging it with race.link) while a client loads it over and over.
    # Whatever the timing, the file read is the file checked: never the
    # outside record (a 7-ring board), and every refusal is the path's (never
    # an internal error, never a traceback on stderr).
    allowed = tmp_path / "records"
    allowed.mkdir()
    (allowed / "race.sgf").write_bytes(RACE_INSIDE)
    (tmp_path / "outside.sgf").write_bytes(RACE_OUTSIDE)
    answers: list[tuple[bytes, bytes]] = []  # (loadsgf, query_boardsize)
    log = bytearray()

    async def scenario(port: int) -> None:
        client = await Client.connect(port)
        deadline = time.monotonic() + RACE_SECONDS
        batch = 20
        seen: set[bool] = set()  # refused or not: until both states are seen
        while ((len(answers) < RACE_LOADS or len(seen) < 2)
               and time.monotonic() < deadline):
            await client.send("loadsgf race.sgf\nquery_boardsize\n" * batch)
            for _ in range(batch):
                answers.append((await client.response(), await client.response()))
                seen.add(answers[-1][0].startswith(b"? "))
        await client.close()

    def drain(stream) -> None:
        for line in iter(stream.readline, b""):
            log.extend(line)

    with serve_process("--file-dir", str(allowed), "--player", "random", "--workers", "1") as (process, port):
        reader = threading.Thread(target=drain, args=(process.stderr,), daemon=True)
        reader.start()
        os.symlink(tmp_path / "outside.sgf", allowed / "race.link")
        with Swapper(allowed / "race.sgf", allowed / "race.link"):
            asyncio.run(scenario(port))
    reader.join(HANG_SECONDS)
    counts = collections.Counter(
        {b"= 4\n\n": "inside", b"= 7\n\n": "outside"}[size] if load == b"=\n\n"
        else "cannot load" if load.startswith(b"? cannot load file: ") else "other"
        for load, size in answers)
    print(f"loadsgf race over TCP: {dict(counts)} in {len(answers)} loads")
    assert counts["outside"] == counts["other"] == 0, counts
    assert {load for load, _ in answers} <= {  # or, now and then, a name that flipped too often
        b"=\n\n", b"? cannot load file: the path is outside the server's file directory\n\n",
        b"? cannot load file: too many levels of symbolic links\n\n"}
    assert b"Traceback" not in log and b"internal error" not in log, log.decode(errors="replace")
    # Both states of the name were seen: the race did run.
    assert counts["inside"] > 0 and counts["cannot load"] > 0, counts
