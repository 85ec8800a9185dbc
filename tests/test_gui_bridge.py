"""The HTTP bridge of ``stargtp gui`` (protocol/gui/bridge.py; docs/protocol.md,
"HTTP bridge"): exact answers in both games, sessions kept apart, pipelining,
an analysis streamed over server-sent events, every refusal (404, 405, 403,
411, 413, 431, 400, 503), files refused, stargtp-loadsgf-text, and every way
a session ends freeing its workers. Nothing here measures time: where the
server must wait, the test waits for it, up to HANG_SECONDS."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest

from stargtp.protocol.cli import main
from stargtp.protocol.gui.bridge import STREAM_REPLY_BYTES, GuiServer
from stargtp.protocol.pictures.svg import palette_css
from stargtp.protocol.server.session import SessionConfig
from tests.gtp_helpers import HANG_SECONDS, REPO, converse, process_gone, subprocess_env

CONFIG = SessionConfig(seed=1, workers=1, player="uct", playouts=200)

STAR_POSITION = (
    '= {"game":"star","size":4,"to_move":"white","board":{"black":["S21"],"white":[]},'
    '"moves":[["black","S21"]],"over":false,"komi":0.0,"score":{"margin":0.0,"komi":0.0,'
    '"black":{"peris":0,"quarks":0,"quark_peri":0,"stars":0,"conventional":0.0,"simplified":0.0,'
    '"schmittberger":0.0},"white":{"peris":0,"quarks":0,"quark_peri":0,"stars":0,"conventional":0.0,'
    '"simplified":0.0,"schmittberger":0.0},"stars":[],"dead_groups":1,"result":"0"},"territory":null}\n\n')

AMAZONS_RECORD = ("= (;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[6]AB[bf][ef][ae][fe]AW[ab][fb][ba][ea]\n"
                  ";B[efdedf]\n)\n\n")


# -- a small HTTP client -------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()


class Http:
    """One keep-alive connection to the bridge, raw bytes on the wire."""

    def __init__(self, port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.port = port
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, port: int) -> Http:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, limit=1 << 24), HANG_SECONDS)
        return cls(port, reader, writer)

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def request(self, method: str, path: str, body: bytes | str | None = None,
                      headers: dict[str, str] | None = None) -> Response:
        if isinstance(body, str):
            body = body.encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        await self.send(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        return await self.response(head_only=method == "HEAD")

    async def response(self, head_only: bool = False) -> Response:
        return await asyncio.wait_for(self._response(head_only), HANG_SECONDS)

    async def _response(self, head_only: bool) -> Response:
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *fields = head.decode("latin-1").split("\r\n")[:-2]
        assert re.fullmatch(r"HTTP/1\.1 \d{3} [A-Za-z -]+", status_line), status_line
        headers = {}
        for field in fields:
            name, _, value = field.partition(": ")
            headers[name.lower()] = value
        status = int(status_line.split()[1])
        if head_only or status in (204, 304):
            body = b""
        elif headers.get("transfer-encoding") == "chunked":
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n"))[:-2], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
        elif "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        else:
            body = await self.reader.read()
        return Response(status, headers, body)

    async def at_eof(self) -> bool:
        """True once the server has closed the connection."""
        return await asyncio.wait_for(self.reader.read(), HANG_SECONDS) == b""

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


async def request(port: int, method: str, path: str, body: bytes | str | None = None,
                  headers: dict[str, str] | None = None) -> Response:
    """One request on a fresh connection."""
    client = await Http.connect(port)
    try:
        return await client.request(method, path, body, headers)
    finally:
        await client.close()


async def new_session(port: int) -> str:
    answer = await request(port, "POST", "/session", b"")
    assert answer.status == 201 and answer.headers["content-type"] == "application/json"
    data = json.loads(answer.body)
    assert set(data) == {"session", "idle_timeout"} and re.fullmatch(r"[A-Za-z0-9_-]{22}", data["session"])
    return data["session"]


async def gtp(port: int, token: str, lines: str) -> str:
    """POST the lines; the answer's text (asserting a 200)."""
    answer = await request(port, "POST", f"/gtp?session={token}", lines)
    assert answer.status == 200, answer
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    return answer.text


class Events:
    """A client of ``GET /events``."""

    def __init__(self, client: Http) -> None:
        self.client = client
        self.buffer = b""

    @classmethod
    async def open(cls, port: int, token: str) -> Events:
        client = await Http.connect(port)
        await client.send(f"GET /events?session={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        head = await asyncio.wait_for(client.reader.readuntil(b"\r\n\r\n"), HANG_SECONDS)
        assert head.startswith(b"HTTP/1.1 200 OK\r\n"), head
        assert b"\r\nContent-Type: text/event-stream; charset=utf-8\r\n" in head
        events = cls(client)
        assert await events.next() == ("comment", "stream open")  # the stream is attached
        return events

    async def event(self) -> tuple[str, str]:
        """The next event, (event, data), skipping comments."""
        while True:
            kind, data = await self.next()
            if kind != "comment":
                return kind, data

    async def next(self) -> tuple[str, str]:
        """The next block: (event, data), or ("comment", text)."""
        block = await asyncio.wait_for(self.client.reader.readuntil(b"\n\n"), HANG_SECONDS)
        lines = block.decode()[:-2].split("\n")
        if lines[0].startswith(": "):
            assert len(lines) == 1
            return "comment", lines[0][2:]
        assert len(lines) == 2 and lines[0].startswith("event: ") and lines[1].startswith("data: "), block
        return lines[0][7:], lines[1][6:]

    async def close(self) -> None:
        await self.client.close()


@asynccontextmanager
async def bridge(config: SessionConfig = CONFIG, **options) -> AsyncIterator[tuple[GuiServer, int]]:
    server = GuiServer(config, **options)
    _, port = await server.start("127.0.0.1", 0)
    try:
        yield server, port
    finally:
        await server.close()


async def until(condition, what: str) -> None:
    """Wait for a condition the server reaches on its own (a hang fails)."""
    deadline = time.monotonic() + HANG_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


def worker_pids(server: GuiServer) -> list[int]:
    return [pid for s in server.sessions.values() if s.session.search.pool
            for pid in s.session.search.pool.pids]


def expected(lines: str, config: SessionConfig = CONFIG) -> str:
    """What a TCP session answers to the same lines."""
    return asyncio.run(converse(lines.encode(), config))[0].decode()


# -- answers ---------------------------------------------------------------------------------


def test_star_and_amazons_answers_are_the_sessions_bytes() -> None:
    async def scenario() -> None:
        async with bridge() as (_, port):
            token = await new_session(port)
            assert await gtp(port, token, "boardsize 4\nplay b S21\nstargtp-position\n") == (
                "=\n\n=\n\n" + STAR_POSITION)
            assert await gtp(port, token, "1 name\n2 play w S21\n3 undo") == (  # no final LF
                "=1 stargtp\n\n?2 illegal move: S21 is occupied\n\n=3\n\n")
            amazons = await new_session(port)
            assert await gtp(port, amazons, "game amazons\nboardsize 6\nplay w e1-d2/d1\nprintsgf\n") == (
                "=\n\n=\n\n=\n\n" + AMAZONS_RECORD)
            assert await gtp(port, amazons, "is_legal b d2-d3/d4\nquery_boardsize\ngame\n") == (
                "= 0\n\n= 6\n\n= amazons\n\n")  # d2 is white's now
            assert await gtp(port, token, "query_boardsize\ngame\n") == "= 4\n\n= star\n\n"

    asyncio.run(scenario())


def test_two_sessions_are_kept_apart() -> None:
    first = ["boardsize 5", "komi 2.5", "play b *50", "play w S51", "get_komi", "showboard",
             "final_score", "printsgf"]
    second = ["game amazons", "boardsize 8", "play w d1-d7/g7", "showboard", "get_komi", "undo",
              "printsgf", "game"]

    async def scenario() -> tuple[str, str]:
        async with bridge() as (server, port):
            a, b = await new_session(port), await new_session(port)
            assert a != b and len(server.sessions) == 2
            answers = {a: "", b: ""}
            for line_a, line_b in zip(first, second):  # interleaved, one line a POST
                answers[a] += await gtp(port, a, line_a + "\n")
                answers[b] += await gtp(port, b, line_b + "\n")
            return answers[a], answers[b]

    got_a, got_b = asyncio.run(scenario())
    assert got_a == expected("".join(f"{line}\n" for line in first))
    assert got_b == expected("".join(f"{line}\n" for line in second))
    assert "komi" not in got_b and "= 0\n\n" in got_b


def test_pipelined_lines_blank_lines_comments_and_posts_in_a_row() -> None:
    body = ("1 boardsize 4\n\n# a comment\n2 play b *40\r\n   \n3 genmove w\n4 showboard\n"
            "5 nonsense\n6 play b \xe9\n7 list_stars\n" + "".join(f"{n} name\n" for n in range(8, 300)))

    async def scenario() -> tuple[str, str, str]:
        async with bridge() as (server, port):
            token = await new_session(port)
            whole = await gtp(port, token, body)
            # The same session goes on where it was: its answers carry on.
            later = await gtp(port, token, "300 showboard\n")
            # Several POSTs of one session at once are answered in order.
            racing = await new_session(port)
            first = asyncio.ensure_future(gtp(port, racing, "1 boardsize 3\n2 genmove b\n3 genmove w\n"))
            await until(lambda: first.done() or server.sessions[racing].replies, "the first POST is in")
            second = await gtp(port, racing, "4 showboard\n")
            assert (await first).startswith("=1\n\n=2 ")
            return whole, later, second

    whole, later, second = asyncio.run(scenario())
    assert whole + later == expected(body + "300 showboard\n")
    assert whole.count("\n\n") == 299  # the blank lines and the comment get no answer
    assert "moves: 2" in second


def test_keep_alive_carries_many_requests_and_http_1_0_closes() -> None:
    async def scenario() -> None:
        async with bridge() as (_, port):
            client = await Http.connect(port)
            answer = await client.request("POST", "/session", b"")
            token = json.loads(answer.body)["session"]
            for n in range(20):
                answer = await client.request("POST", f"/gtp?session={token}", f"{n} name\n")
                assert (answer.status, answer.body) == (200, f"={n} stargtp\n\n".encode())
                assert answer.headers["connection"] == "keep-alive"
            await client.close()
            old = await Http.connect(port)
            await old.send(f"POST /gtp?session={token} HTTP/1.0\r\nContent-Length: 5\r\n\r\nname\n".encode())
            answer = await old.response()
            assert (answer.status, answer.body, answer.headers["connection"]) == (200, b"= stargtp\n\n", "close")
            assert await old.at_eof()

    asyncio.run(scenario())


def test_quit_answers_then_ends_the_session() -> None:
    async def scenario() -> None:
        async with bridge() as (server, port):
            token, other = await new_session(port), await new_session(port)
            assert await gtp(port, token, "1 name\n2 quit\n3 name\n") == "=1 stargtp\n\n=2\n\n"
            assert token not in server.sessions and other in server.sessions
            answer = await request(port, "POST", f"/gtp?session={token}", "name\n")
            assert (answer.status, answer.text) == (404, "no such session (it may have ended)\n")
            assert await gtp(port, other, "name\n") == "= stargtp\n\n"

    asyncio.run(scenario())


# -- analysis over the event stream -------------------------------------------------------------


def test_kata_analyze_streams_info_events_until_the_next_post() -> None:
    async def scenario() -> None:
        async with bridge(SessionConfig(seed=4, workers=1)) as (_, port):
            token = await new_session(port)
            events = await Events.open(port, token)
            assert await gtp(port, token, "boardsize 4\nplay b *40\nplay w S41\n") == "=\n\n" * 3
            analysis = asyncio.ensure_future(gtp(port, token, "7 kata-analyze b interval 5\n"))
            infos = []
            while len(infos) < 3:
                kind, data = await events.event()
                if kind == "info":
                    infos.append(data)
            assert not analysis.done()  # it streams until the session's next command
            assert await gtp(port, token, "8 name\n") == "=8 stargtp\n\n"
            answer = await analysis
            head, *reports, blank, end = answer.split("\n")
            assert head == "=7" and blank == end == "" and len(reports) >= 3
            for report in reports:
                assert report.startswith("info move ") and " ownership " in report
            # Every line after the head came as an event, then the end.
            while True:
                kind, data = await events.event()
                if kind == "end":
                    break
                if kind == "info":
                    infos.append(data)
            assert data == "kata-analyze"
            assert infos == reports
            # Other commands send no events: the next block is the answer to
            # a later analysis, stopped at once by its pipelined line.
            assert (await gtp(port, token, "9 lz-analyze w 1\n10 name\n")).endswith("=10 stargtp\n\n")
            kind, data = await events.event()
            assert kind == "info" and data.startswith("info move ")
            assert await events.event() == ("end", "lz-analyze")
            await events.close()

    asyncio.run(scenario())


def test_a_second_event_stream_replaces_the_first() -> None:
    async def scenario() -> None:
        async with bridge() as (server, port):
            token = await new_session(port)
            first = await Events.open(port, token)
            second = await Events.open(port, token)
            assert await first.client.at_eof()
            assert server.sessions[token].stream is not None
            await second.close()
            await first.close()

    asyncio.run(scenario())


# -- refusals ----------------------------------------------------------------------------------


def test_malformed_requests_get_clear_errors_and_change_nothing() -> None:
    async def scenario() -> None:
        async with bridge(max_sessions=4) as (server, port):
            token = await new_session(port)
            before = await gtp(port, token, "boardsize 4\nplay b S21\nstargtp-position\n")
            path = f"/gtp?session={token}"

            async def refused(status: int, message: str, *args, **kwargs) -> Response:
                answer = await request(port, *args, **kwargs)
                assert (answer.status, answer.text) == (status, message + "\n"), answer
                assert answer.headers["content-type"] == "text/plain; charset=utf-8"
                return answer

            await refused(404, "no such page: /nowhere", "GET", "/nowhere")
            await refused(404, "no such page: /gtp/", "POST", "/gtp/", "name\n")
            answer = await refused(405, "DELETE is not allowed on /gtp (only POST)", "DELETE", path)
            assert answer.headers["allow"] == "POST"
            answer = await refused(405, "GET is not allowed on /session (only POST)", "GET", "/session")
            assert answer.headers["allow"] == "POST"
            answer = await refused(405, "POST is not allowed on /events (only GET)", "POST",
                                   f"/events?session={token}", b"")
            assert answer.headers["allow"] == "GET"
            await refused(404, "no such session (it may have ended)", "POST", "/gtp?session=nobody", "play b S31\n")
            await refused(404, "no session given (expected ?session=TOKEN)", "POST", "/gtp", "play b S31\n")
            await refused(400, "malformed query (expected ?session=TOKEN)", "POST", "/gtp?session", "play b S31\n")
            await refused(400, "malformed session token", "POST", f"{path}&session={token}", "play b S31\n")
            await refused(400, "malformed session token", "GET", "/events?session=a%20b")
            await refused(404, "no such session (it may have ended)", "GET", "/events?session=nobody")
            await refused(404, "no such session (it may have ended)", "POST", "/close?session=nobody", b"")
            await refused(403, "requests from other web sites are refused", "POST", path, "play b S31\n",
                          {"Origin": "http://evil.example"})
            await refused(403, "requests from other web sites are refused", "POST", "/session", b"",
                          {"Origin": "null"})
            await refused(403, "requests from other web sites are refused", "POST", f"/close?session={token}",
                          b"", {"Origin": f"http://127.0.0.1:{port + 1}"})
            await refused(400, "the body is not UTF-8 text", "POST", path, b"play b S31\n\xff\n")
            # No Content-Length: 411, and the connection is closed.
            client = await Http.connect(port)
            await client.send(f"POST {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            answer = await client.response()
            assert (answer.status, answer.text) == (411, "POST /gtp needs a Content-Length\n")
            assert await client.at_eof()
            # A chunked body: 411 too.
            client = await Http.connect(port)
            await client.send(f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                              "c\r\nplay b S31\n\r\n0\r\n\r\n".encode())
            answer = await client.response()
            assert answer.status == 411 and await client.at_eof()
            # A body over 64 KiB: 413 as soon as the header says so.
            client = await Http.connect(port)
            await client.send(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 65537\r\n\r\n".encode())
            answer = await client.response()
            assert (answer.status, answer.text) == (413, "request body over 65536 bytes\n")
            await client.close()
            # ...even when the client sends it all anyway.
            body = b"play b S31\n" + b"#" * 70_000 + b"\n"
            answer = await request(port, "POST", path, body)
            assert answer.status == 413
            # Header fields over 16 KiB: 431.
            client = await Http.connect(port)
            await client.send(f"GET / HTTP/1.1\r\nHost: x\r\nX-Big: {'y' * 17_000}\r\n\r\n".encode())
            answer = await client.response()
            assert answer.status == 431 and await client.at_eof()
            # Garbage: 400, and the connection is closed.
            for garbage in (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(200)) + b"\r\n\r\n",
                            b"GET /\r\n\r\n", b"POST /gtp HTTP/1.1\r\nHost x\r\n\r\n",
                            b"GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
                            b"GET / HTTP/1.1\r\n\r\n",  # no Host
                            b"POST /gtp HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
                            b"POST /gtp HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"):
                client = await Http.connect(port)
                await client.send(garbage)
                answer = await client.response()
                assert answer.status == 400, (garbage, answer)
                assert answer.headers["connection"] == "close" and await client.at_eof()
            client = await Http.connect(port)
            await client.send(b"GET / HTTP/2.0\r\nHost: x\r\n\r\n")
            assert (await client.response()).status == 505
            # The session saw none of it, and none of it made a session.
            assert len(server.sessions) == 1
            assert await gtp(port, token, "stargtp-position\n") == before.split("\n\n", 2)[2]
            assert before.endswith(STAR_POSITION)

    asyncio.run(scenario())


def test_the_page_and_its_files() -> None:
    async def scenario() -> None:
        async with bridge() as (server, port):
            server.static = {"index.html": (b"<!doctype html>page", "text/html; charset=utf-8"),
                             "app.js": (b"let a = 1;", "text/javascript; charset=utf-8")}
            page = await request(port, "GET", "/")
            assert (page.status, page.body, page.headers["content-type"]) == (
                200, b"<!doctype html>page", "text/html; charset=utf-8")
            head = await request(port, "HEAD", "/")
            assert (head.status, head.body, head.headers["content-length"]) == (200, b"", "19")
            script = await request(port, "GET", "/static/app.js")
            assert (script.status, script.body) == (200, b"let a = 1;")
            for path in ("/static/missing.js", "/static/../bridge.py", "/static/%2e%2e/bridge.py",
                         "/static/", "/static/index.html/x"):
                assert (await request(port, "GET", path)).status == 404, path
            answer = await request(port, "POST", "/static/app.js", b"")
            assert answer.status == 405 and answer.headers["allow"] == "GET, HEAD"
            # The page's own origin may post, whatever name it was reached by.
            for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
                answer = await request(port, "POST", "/session", b"", {"Origin": origin})
                assert answer.status == 201

    asyncio.run(scenario())


def test_the_shipped_page_is_served() -> None:
    async def scenario() -> None:
        async with bridge() as (server, port):
            page = await request(port, "GET", "/")
            assert page.status == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
            assert page.body == (REPO / "protocol" / "gui" / "static" / "index.html").read_bytes()
            # Every module the page imports is served, as JavaScript (a module needs the type).
            for name in ("app.js", "bridge.js", "state.js", "board.js", "panels.js", "analysis.js"):
                module = await request(port, "GET", f"/static/{name}")
                assert module.status == 200, name
                assert module.headers["content-type"] == "text/javascript; charset=utf-8"
            # The pictures' palette, as CSS variables, written from its one table.
            palette = await request(port, "GET", "/static/palette.css")
            assert (palette.status, palette.headers["content-type"]) == (200, "text/css; charset=utf-8")
            assert palette.body.decode() == palette_css()
            assert "--stargtp-stone-black: #1b1b1b;" in palette.body.decode()

    asyncio.run(scenario())


def test_too_many_sessions_are_refused_until_one_ends() -> None:
    async def scenario() -> None:
        async with bridge(max_sessions=2) as (server, port):
            first, _ = await new_session(port), await new_session(port)
            answer = await request(port, "POST", "/session", b"")
            assert (answer.status, answer.text) == (503, "too many sessions (limit 2), try again later\n")
            assert len(server.sessions) == 2
            assert (await request(port, "POST", f"/close?session={first}", b"")).status == 204
            await new_session(port)

    asyncio.run(scenario())


def test_a_stalled_client_or_a_long_search_stalls_no_other_session() -> None:
    config = SessionConfig(seed=2, workers=1, player="flat", seconds=120.0)

    async def scenario() -> None:
        async with bridge(config) as (server, port):
            stalled = await Http.connect(port)
            await stalled.send(b"POST /gtp?session=x HTTP/1.1\r\nHost: x\r\nContent-")  # and nothing more
            searching = await new_session(port)
            search = asyncio.ensure_future(request(port, "POST", f"/gtp?session={searching}",
                                                   "boardsize 6\ngenmove b\n"))
            await until(lambda: worker_pids(server), "the search started")
            token = await new_session(port)
            for n in range(10):
                assert await gtp(port, token, f"{n} name\n") == f"={n} stargtp\n\n"
            assert not search.done()
            assert (await request(port, "POST", f"/close?session={searching}", b"")).status == 204
            assert (await search).status == 404
            await stalled.close()

    asyncio.run(scenario())


# -- files and records ---------------------------------------------------------------------------


def test_loadsgf_reads_no_file_and_loadsgf_text_round_trips_printsgf(tmp_path) -> None:
    record = tmp_path / "game.sgf"
    record.write_text("(;GM[2004]SZ[4];B[*40])")

    async def scenario() -> None:
        async with bridge() as (_, port):
            token = await new_session(port)
            refusal = ("? cannot load file: reading files is disabled on this connection"
                       " (stargtp serve --tcp allows it with --file-dir DIR;"
                       " stargtp-loadsgf-text takes a record as text)\n\n")
            assert await gtp(port, token, f"loadsgf {record}\nloadsgf /etc/passwd\n") == refusal * 2
            played = await gtp(port, token, "boardsize 5\nplay b *50\nplay w S51\nplay b pass\nprintsgf\n")
            text = played.split("\n\n")[4][2:]
            assert text.startswith("(;GM[2004]") and ";W[S51]" in text
            other = await new_session(port)
            one_line = text.replace("\n", " ")
            assert await gtp(port, other, f"game amazons\nstargtp-loadsgf-text {one_line}\n"
                                          "game\nprintsgf\n") == f"=\n\n=\n\n= star\n\n= {text}\n\n"
            # Amazons records too.
            amazons = AMAZONS_RECORD[2:-2].replace("\n", " ")
            assert await gtp(port, other, f"stargtp-loadsgf-text {amazons}\nprintsgf\n") == (
                "=\n\n" + AMAZONS_RECORD)

    asyncio.run(scenario())


# -- the ends of a session ------------------------------------------------------------------------


def test_close_ends_the_session_and_frees_its_workers() -> None:
    config = SessionConfig(seed=2, workers=1, player="flat", seconds=120.0)

    async def scenario() -> None:
        async with bridge(config) as (server, port):
            token, other = await new_session(port), await new_session(port)
            events = await Events.open(port, token)
            search = asyncio.ensure_future(request(port, "POST", f"/gtp?session={token}", "boardsize 6\ngenmove b\n"))
            await until(lambda: worker_pids(server), "the search started")
            (pid,) = worker_pids(server)
            answer = await request(port, "POST", f"/close?session={token}", b"")
            assert (answer.status, answer.body) == (204, b"")
            assert list(server.sessions) == [other]
            answer = await search  # the search was stopped: no answer
            assert (answer.status, answer.text) == (404, "the session has ended (closed by the client)\n")
            assert await events.client.at_eof()
            await until(lambda: process_gone(pid), "the worker ends")
            assert await gtp(port, other, "name\n") == "= stargtp\n\n"

    asyncio.run(scenario())


def test_shutdown_answers_waiting_posts_and_frees_every_worker() -> None:
    config = SessionConfig(seed=2, workers=1, player="flat", seconds=120.0)

    async def scenario() -> None:
        async with bridge(config) as (server, port):
            searching, watched = await new_session(port), await new_session(port)
            events = await Events.open(port, watched)
            assert await gtp(port, watched, "boardsize 5\n") == "=\n\n"
            search = asyncio.ensure_future(request(port, "POST", f"/gtp?session={searching}",
                                                   "boardsize 6\ngenmove b\n"))
            await until(lambda: len(worker_pids(server)) == 2, "both sessions have their worker")
            pids = worker_pids(server)
            await server.close()
            answer = await search
            assert (answer.status, answer.text) == (503, "the server is shutting down\n")
            assert await events.client.at_eof()
            assert not server.sessions
            await until(lambda: all(process_gone(pid) for pid in pids), "the workers end")
            refused = await asyncio.gather(request(port, "POST", "/session", b""), return_exceptions=True)
            assert isinstance(refused[0], OSError)  # nobody listens any more

    asyncio.run(scenario())


def test_idle_sessions_end_and_busy_ones_do_not() -> None:
    async def scenario() -> None:
        async with bridge(SessionConfig(seed=2, workers=1, player="flat", playouts=200),
                          idle_timeout=1.0) as (server, port):
            idle = await new_session(port)
            assert await gtp(port, idle, "boardsize 4\n") == "=\n\n"  # starts its worker
            await until(lambda: worker_pids(server), "the worker started")
            (pid,) = worker_pids(server)
            watched = await new_session(port)
            events = await Events.open(port, watched)  # an open stream is not idleness
            await until(lambda: idle not in server.sessions, "the idle session ends")
            await until(lambda: process_gone(pid), "its worker ends")
            assert list(server.sessions) == [watched]
            assert (await request(port, "POST", f"/gtp?session={idle}", "name\n")).status == 404
            await events.close()
            await until(lambda: not server.sessions, "the session ends once its stream is gone")

    asyncio.run(scenario())


async def fill_and_serve(server: GuiServer, port: int, first_bytes: bytes | None) -> tuple[list[Http], list[int]]:
    """Open 256 connections (every one the bridge serves), each sending
    ``first_bytes`` (None: nothing), then serve a page that has a session,
    on two new keep-alive connections. Returns the 256 and the statuses the
    page saw."""
    token = await new_session(port)
    await until(lambda: not server.connections, "the session's connection is gone")
    held = [await Http.connect(port) for _ in range(256)]
    for client in held:
        if first_bytes is not None:
            await client.send(first_bytes)
    await until(lambda: len(server.connections) == 256, "256 connections are served")
    page = [await Http.connect(port), await Http.connect(port)]
    plan = [(page[0], "GET", "/", None, None), (page[0], "POST", f"/gtp?session={token}", "1 name\n", "=1 stargtp\n\n"),
            (page[1], "POST", f"/gtp?session={token}", "2 boardsize 4\n", "=2\n\n")]
    statuses = []
    for client, method, path, body, text in plan:
        answer = await client.request(method, path, body)
        statuses.append(answer.status)
        if answer.status != 200:
            break  # (a 503 closes the connection)
        assert text is None or answer.text == text
    for client in page:
        await client.close()
    return held, statuses


@pytest.mark.parametrize("dribble", [None, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "], ids=["idle", "slowloris"])
def test_idle_or_slow_connections_make_room_for_a_page(dribble: bytes | None) -> None:
    # 256 connections, as many as the bridge serves, open and idle, or each
    # sending a request a byte at a time (slowloris); their keep-alive and
    # request timeouts are 600 s here, so only making room can serve anybody
    # (before the change: 503 for every newcomer until one timed out, 75 s,
    # and the clients could simply reconnect). A page with a session is
    # served at once: each of its two connections takes the place of the
    # connection that has waited longest on its client (the two opened
    # first), and the other 254 stay open.
    async def scenario() -> None:
        async with bridge(keep_alive_timeout=600.0, request_timeout=600.0) as (server, port):
            held, statuses = await fill_and_serve(server, port, dribble)
            assert statuses == [200, 200, 200]
            assert await held[0].at_eof() and await held[1].at_eof()
            await until(lambda: len(server.connections) == 254, "the page's connections are gone")
            for client in held:
                await client.close()

    asyncio.run(scenario())


def test_a_client_that_reads_no_answer_makes_room_too(monkeypatch) -> None:
    # Two connections allowed. A asks for a long answer and reads none of it
    # (a small receive buffer, so the server's send blocks at once); B asks
    # the same session for its name and waits behind A's answer, reading
    # nothing either. A newcomer takes the place of A, which waits on its
    # client; B, waiting on the server, is not closed, and is answered once
    # A is gone. (Before: a blocked answer never counted as waiting on the
    # client, so the newcomer got 503 for as long as A held on; the first
    # `until` below would never see it.)
    monkeypatch.setattr("stargtp.protocol.gui.bridge.MAX_CONNECTIONS", 2)

    async def raw(body: bytes, token: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock)
        writer.write(b"POST /gtp?session=%s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s"
                     % (token.encode(), len(body), body))
        await writer.drain()
        return reader, writer

    async def scenario() -> None:
        nonlocal port
        async with bridge() as (server, port):
            token = await new_session(port)
            await until(lambda: not server.connections, "the session's connection is gone")
            (session,) = server.sessions.values()
            _, a = await raw(b"showboard\n" * 3000, token)
            await until(lambda: len(session.replies) == 1, "A's request is being answered")
            b_reader, b = await raw(b"7 name\n", token)
            await until(lambda: len(session.replies) == 2, "B's request waits behind A's")
            await until(lambda: [c.waiting_since is not None for c in server.connections].count(True) == 1,
                        "A's blocked answer waits on its client")
            assert (await request(port, "GET", "/")).status == 200
            answer = await asyncio.wait_for(b_reader.read(), HANG_SECONDS)
            assert answer.endswith(b"=7 stargtp\n\n")
            for writer in (a, b):
                writer.close()

    port = 0
    asyncio.run(scenario())


def test_timeouts_close_idle_and_slow_connections() -> None:
    # --keep-alive-timeout 2: a connection idle after a request, and one
    # that never sent anything, are closed. --request-timeout 1: a request
    # dribbled a byte every 0.1 s is answered 408 and closed, though bytes
    # keep coming.
    async def scenario() -> None:
        async with bridge(keep_alive_timeout=2.0, request_timeout=1.0) as (server, port):
            served, silent = await Http.connect(port), await Http.connect(port)
            assert (await served.request("GET", "/")).status == 200
            assert await served.at_eof() and await silent.at_eof()
            slow = await Http.connect(port)

            async def dribble() -> None:
                for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 10_000:
                    await slow.send(bytes([byte]))
                    await asyncio.sleep(0.1)

            sender = asyncio.ensure_future(dribble())
            try:
                answer = await slow.response()
                assert (answer.status, answer.text) == (408, "the request took too long to arrive\n")
                assert await slow.at_eof()
            finally:
                sender.cancel()
                await asyncio.gather(sender, return_exceptions=True)
            for client in (served, silent, slow):
                await client.close()

    asyncio.run(scenario())


def test_a_session_whose_event_stream_closes_ends_unless_it_comes_back() -> None:
    async def scenario() -> None:
        async with bridge(idle_timeout=0, events_grace=1.0) as (server, port):
            coming_back, leaving = await new_session(port), await new_session(port)
            first = await Events.open(port, coming_back)
            gone = await Events.open(port, leaving)
            await gone.close()
            await until(lambda: leaving not in server.sessions, "the session without a stream ends")
            # A stream that is replaced at once keeps its session.
            second = await Events.open(port, coming_back)
            await first.close()
            await second.close()
            third = await Events.open(port, coming_back)
            assert coming_back in server.sessions
            await third.close()
            await until(lambda: not server.sessions, "the last session ends")

    asyncio.run(scenario())


def test_a_big_answer_is_streamed_and_complete() -> None:
    lines = "boardsize 10\n" + "stargtp-svg\n" * 3 + "name\n"

    async def scenario() -> Response:
        async with bridge() as (_, port):
            token = await new_session(port)
            return await request(port, "POST", f"/gtp?session={token}", lines)

    answer = asyncio.run(scenario())
    assert answer.status == 200 and answer.headers.get("transfer-encoding") == "chunked"
    assert len(answer.body) > STREAM_REPLY_BYTES
    assert answer.text == expected(lines)


def test_a_client_that_does_not_read_its_answer_holds_up_only_its_session() -> None:
    flood = "boardsize 10\n" + "stargtp-geometry\n" * 3500  # some 130 MB of answers

    async def scenario() -> None:
        async with bridge() as (server, port):
            token = await new_session(port)
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
            sock.connect(("127.0.0.1", port))
            reader = Http(port, *await asyncio.open_connection(sock=sock))
            await reader.send(f"POST /gtp?session={token} HTTP/1.1\r\nHost: x\r\n"
                              f"Content-Length: {len(flood)}\r\n\r\n{flood}".encode())  # never read
            flooded = server.sessions[token]
            await until(lambda: flooded.conversation._output_blocked, "the session stops running lines")
            other = await new_session(port)
            for n in range(5):
                assert await gtp(port, other, f"{n} name\n") == f"={n} stargtp\n\n"
            # Still held: most lines wait their turn, and little is kept unsent.
            (reply,) = flooded.replies
            assert flooded.conversation._output_blocked and len(reply.names) > 2500
            assert len(reply.data) < STREAM_REPLY_BYTES + 200_000
            assert (await request(port, "POST", f"/close?session={token}", b"")).status == 204
            rest = await asyncio.wait_for(reader.reader.read(), HANG_SECONDS)  # then the server hangs up
            assert not rest.endswith(b"0\r\n\r\n")  # on an answer cut short
            assert list(server.sessions) == [other]

    asyncio.run(scenario())


# -- the command line ----------------------------------------------------------------------------


def test_stargtp_gui_serves_until_sigterm_and_writes_nothing_on_stdout() -> None:
    process = subprocess.Popen([sys.executable, "-m", "stargtp.protocol.cli", "gui", "--port", "0", "--workers", "1",
                                "--seed", "1", "--playouts", "100"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=REPO, env=subprocess_env())
    try:
        line = process.stderr.readline().decode()
        match = re.fullmatch(r"stargtp: gui at http://127\.0\.0\.1:(\d+)/\n", line)
        assert match, line
        port = int(match.group(1))

        lines = "1 boardsize 4\n2 play b *40\n3 genmove w\n4 name\n"
        answers = expected(lines, SessionConfig(seed=1, workers=1, playouts=100))

        async def scenario() -> None:
            token = await new_session(port)
            assert await gtp(port, token, lines) == answers
            assert (await request(port, "GET", "/")).status == 200

        asyncio.run(scenario())
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=HANG_SECONDS)
        assert process.returncode == 0 and out == b""
        assert err.decode().endswith("stargtp: shut down\n")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_stargtp_gui_on_a_busy_port_is_one_line_and_status_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "gui", "--port", str(port)],
                                stdin=subprocess.DEVNULL, capture_output=True, cwd=REPO, env=subprocess_env(),
                                timeout=HANG_SECONDS)
    assert (result.returncode, result.stdout, result.stderr.decode()) == (
        2, b"", f"stargtp gui: cannot listen on 127.0.0.1:{port}: Address already in use\n")


def test_bad_gui_options_are_one_line(capsys) -> None:
    for options, message in ((["--idle-timeout", "-1"], "stargtp gui: --idle-timeout must be a number of"
                              " seconds, 0 or more (0: never)\n"),
                             (["--keep-alive-timeout", "0"], "stargtp gui: --keep-alive-timeout must be a"
                              " number of seconds above 0\n"),
                             (["--request-timeout", "nan"], "stargtp gui: --request-timeout must be a"
                              " number of seconds above 0\n"),
                             (["--port", "70000"], "stargtp gui: argument --port: expected a port number"
                              " from 0 to 65535, not '70000'\n"),
                             (["--max-sessions", "0"], "stargtp gui: argument --max-sessions: expected a"
                              " whole number of at least 1, not '0'\n"),
                             (["--workers", "0"], "stargtp gui: --workers must be at least 1\n"),
                             (["--size", "12"], "stargtp gui: a *Star board has 2..10 rings, not 12\n")):
        try:
            code = main(["gui", *options])
        except SystemExit as exit_:
            code = exit_.code
        captured = capsys.readouterr()
        assert (code, captured.out, captured.err) == (2, "", message)
