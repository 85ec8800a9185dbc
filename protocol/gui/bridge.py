"""The HTTP bridge of ``stargtp gui``: the browser page's way to the engine.

Each page opens a session (``POST /session``): a
:class:`~stargtp.protocol.server.session.Session`, the same class every TCP
connection gets, run by a :class:`~stargtp.protocol.server.conversation.Conversation`
exactly as over TCP. ``POST /gtp`` feeds it command lines and answers with
the bytes the session answered to them; ``GET /events`` streams the lines of
a running analysis as server-sent events; ``POST /close`` ends the session.
docs/protocol.md ("HTTP bridge") documents every route.

How the answers of one conversation are cut into HTTP responses: each POST
counts the lines of its body that will get a response (those that are not
blank or comments, as :func:`stargtp.protocol.framing.parse_line` reads them) and
queues itself as a :class:`_Reply`. The conversation answers lines in order,
each response ending with its blank line, so its output is handed to the
oldest waiting reply, response by response, until that reply has all of
its responses. A streaming command (``kata-analyze``) runs until the next
line arrives, so its POST completes when the next POST comes, as over TCP.

Limits: a session is ended by ``quit``, ``POST /close``, idleness, its event
stream closed and not reopened for :data:`EVENTS_GRACE_SECONDS`, or server
shutdown, and every way frees its worker processes. A reply too big to hold
is streamed (chunked) and the session runs no new command until the client
has read it; an event stream whose client does not read is dropped. Idle
and slow connections are closed after short timeouts, and at the connection
limit the one that has waited longest on its client makes room for a new
one (:meth:`GuiServer._make_room`), so idle clients cannot lock a page out.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from collections import deque
from collections.abc import Awaitable
from dataclasses import replace
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from stargtp.protocol.framing import MAX_LINE_BYTES, Command, LineSplitter, TooLongLine, parse_line
from stargtp.protocol.gui.http import (HttpError, Request, RequestReader, error_response,
                                       linger_and_close, response, response_head)
from stargtp.protocol.pictures.svg import palette_css
from stargtp.protocol.server.commands import STREAMING
from stargtp.protocol.server.conversation import Conversation
from stargtp.protocol.server.session import Session, SessionConfig
from stargtp.protocol.server.tcp import DEFAULT_IDLE_SECONDS, serve_until_signalled

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_MAX_SESSIONS = 16
DEFAULT_IDLE_TIMEOUT = DEFAULT_IDLE_SECONDS
"""Seconds a session may sit idle (no request, nothing running, no event
stream) before it ends: ten minutes, as for a TCP connection."""

EVENTS_GRACE_SECONDS = 30.0
"""A session whose event stream closed ends unless a new stream opens within
this time: the page is gone (a reloading page, or a browser reconnecting
after a network hiccup, comes back well within it)."""

KEEP_ALIVE_EVENT_SECONDS = 15.0
"""A comment line goes down an idle event stream this often, so that proxies
and browsers keep it open."""

MAX_CONNECTIONS = 256
"""HTTP connections served at once. A new one beyond them takes the place of
the connection that has waited longest on its client (idle between requests,
sending a request, or not reading its answer); only when every connection is
being served (a request being answered, an event stream) is it answered 503
and closed."""

MAX_WAITING_POSTS = 64
"""``POST /gtp`` requests of one session waiting for their answers; more are
answered 429 (with :data:`MAX_BODY_BYTES` each, this bounds what one session
can queue)."""

STREAM_REPLY_BYTES = 256 << 10
"""An answer is sent whole, with a Content-Length, unless it grows past this
many bytes unsent; then it is streamed (chunked), and the session runs no new
command while this much of it waits to be sent. (So a POST of many big
answers, such as ``stargtp-svg`` of the largest board, also runs only a few
of them per turn of the event loop, leaving the other sessions theirs.)"""

MAX_REPLY_BACKLOG = 32 << 20
"""A streamed answer whose client lets this much pile up (a running analysis
writes on even while nothing new runs) is dropped, its connection closed."""

MAX_QUEUED_EVENTS = 2000
"""Events waiting to be sent down one event stream; a stream whose client
falls this far behind is closed (the browser reconnects)."""

KEEP_ALIVE_SECONDS = 5.0
"""How long an idle keep-alive connection may wait for its next request
(browsers open a new connection, or retry, when an idle one is closed)."""

REQUEST_SECONDS = 10.0
"""How long a client may take to send a whole request once it has begun
(a page's requests are at most 80 KiB: a slowly sent one is an attack)."""

SEND_SECONDS = 75.0
"""How long a client may take to read an answer sent to it."""

SHUTDOWN_SECONDS = 1.0
"""How long a shutting-down server waits for connections to send what they have."""

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a session token looks like (``secrets.token_urlsafe(16)`` makes them)."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}
"""The kinds of file the page may ship in ``protocol/gui/static/``."""

STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")

ROUTES = {
    "/": ("GET", "HEAD"),
    "/session": ("POST",),
    "/gtp": ("POST",),
    "/events": ("GET",),
    "/close": ("POST",),
}
STATIC_PREFIX = "/static/"
STATIC_METHODS = ("GET", "HEAD")

API_HEADERS = (("Cache-Control", "no-store"),)


def load_static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package: name -> (bytes, content
    type), and ``palette.css``, the pictures' colours as CSS variables, made
    from their one table (:data:`stargtp.protocol.pictures.svg.PALETTE`).
    Only these are ever served; no request path reaches the disk."""
    files: dict[str, tuple[bytes, str]] = {"palette.css": (palette_css().encode(), CONTENT_TYPES[".css"])}
    try:
        folder = resources.files(__package__).joinpath("static")
        entries = list(folder.iterdir())
    except (OSError, TypeError, ModuleNotFoundError):
        return files
    for entry in entries:
        name = entry.name
        kind = CONTENT_TYPES.get("." + name.rpartition(".")[2]) if "." in name else None
        if kind is None or not STATIC_NAME.fullmatch(name):
            continue
        try:
            if entry.is_file():
                files[name] = (entry.read_bytes(), kind)
        except OSError as exc:
            log.warning("stargtp: cannot read the page's file %s: %s", name, exc)
    return files


# -- one POST's answer ---------------------------------------------------------------


class _Reply:
    """The answer to one ``POST /gtp``: the responses to the lines it
    brought, collected as the conversation writes them."""

    def __init__(self, names: list[str | None]) -> None:
        self.names: deque[str | None] = deque(names)
        """The command name of each line still to be answered, in order
        (None for a line that is not a command)."""
        self.answered = 0
        self.data = bytearray()
        """Answered bytes not yet sent."""
        self.done = False
        self.failure: tuple[int, str] | None = None
        self.abandoned = False
        """The client is gone: what comes is dropped."""
        self.changed = asyncio.Event()

    def add(self, data: bytes) -> None:
        if not self.abandoned:
            self.data += data
            if len(self.data) >= STREAM_REPLY_BYTES:
                self.changed.set()

    def take(self) -> bytes:
        data = bytes(self.data)
        self.data.clear()
        return data

    def finish(self) -> None:
        self.done = True
        self.changed.set()

    def fail(self, status: int, message: str) -> None:
        self.failure = (status, message)
        self.finish()


# -- the event stream --------------------------------------------------------------------


class _EventStream:
    """The server-sent events of one session, to one connection."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._queue: deque[bytes] = deque()
        self._wake = asyncio.Event()
        self.closed = False

    def send(self, event: str, data: str) -> None:
        if self.closed:
            return
        if len(self._queue) >= MAX_QUEUED_EVENTS:
            log.info("stargtp: dropping an event stream whose client does not read")
            self.closed = True
            self._writer.transport.abort()
            self._wake.set()
            return
        data = data.replace("\r", "").replace("\n", " ")
        self._queue.append(f"event: {event}\ndata: {data}\n\n".encode("utf-8"))
        self._wake.set()

    def close(self) -> None:
        """End the stream after what is queued."""
        self.closed = True
        self._wake.set()

    async def pump(self) -> None:
        """Write the events as they come, a comment when none has come for
        :data:`KEEP_ALIVE_EVENT_SECONDS`; returns when the stream is closed."""
        writer = self._writer
        while True:
            if not self._queue and not self.closed:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), KEEP_ALIVE_EVENT_SECONDS)
                except TimeoutError:
                    self._queue.append(b": keep-alive\n\n")
            if self._queue:
                data = b"".join(self._queue)
                self._queue.clear()
                writer.write(data)
                await writer.drain()
            elif self.closed:
                return


# -- a session ------------------------------------------------------------------------


class GuiSession:
    """One page's session: a protocol session, its conversation, the POSTs
    waiting for answers and the event stream."""

    def __init__(self, server: GuiServer, token: str) -> None:
        self.server = server
        self.token = token
        self.session = Session(server.config)
        self.conversation = Conversation(self.session, self._output, self._quit)
        self.replies: deque[_Reply] = deque()
        self.stream: _EventStream | None = None
        self.ended: str | None = None
        """Why the session ended; None while it lives."""
        self._partial = bytearray()
        self._in_response = False
        self._blocked = False
        loop = asyncio.get_running_loop()
        self._last_activity = loop.time()
        self._idle_timer: asyncio.TimerHandle | None = None
        self._grace_timer: asyncio.TimerHandle | None = None
        if server.idle_timeout:
            self._idle_timer = loop.call_later(server.idle_timeout, self._check_idle)

    # -- requests ----------------------------------------------------------------------

    def touch(self) -> None:
        """A request named this session."""
        self._last_activity = asyncio.get_running_loop().time()

    @property
    def busy(self) -> bool:
        return self.conversation.busy or bool(self.replies) or self.stream is not None

    def submit(self, body: bytes) -> _Reply:
        """Run the lines of a POST body (after any queued before); the reply
        collects their responses."""
        splitter = LineSplitter(MAX_LINE_BYTES)
        names: list[str | None] = []
        for line in splitter.feed(body) + splitter.finish():
            if type(line) is TooLongLine:
                names.append(None)
                continue
            command = parse_line(line)
            if command is not None:
                names.append(command.name if type(command) is Command else None)
        reply = _Reply(names)
        if names:
            self.replies.append(reply)
        else:
            reply.finish()
        if body and not body.endswith(b"\n"):
            body += b"\n"  # a POST's last line ends with it
        self.conversation.feed(body)  # may answer some lines at once
        return reply

    def _output(self, data: bytes) -> None:
        """What the conversation writes: responses, whole or (a streaming
        command) line by line. Each line goes to the oldest waiting reply."""
        buffer = self._partial
        buffer += data
        start = 0
        while (end := buffer.find(b"\n", start)) >= 0:
            self._line(bytes(buffer[start:end]))
            start = end + 1
        del buffer[:start]

    def _line(self, line: bytes) -> None:
        if not self.replies:
            log.warning("stargtp: a gui session answered a line nobody asked")
            return
        reply = self.replies[0]
        reply.add(line + b"\n")
        name = reply.names[0]
        streaming = name in STREAMING
        if not self._in_response:
            self._in_response = True  # the "=id" or "?id" line
        elif line:
            if streaming and self.stream is not None:
                self.stream.send("info", line.decode("utf-8", errors="replace"))
        else:  # the blank line: the response is complete
            self._in_response = False
            reply.names.popleft()
            reply.answered += 1
            if streaming and self.stream is not None:
                self.stream.send("end", name or "")
            if not reply.names:
                self.replies.popleft()
                reply.finish()
        if len(reply.data) >= STREAM_REPLY_BYTES and not self._blocked:
            self._blocked = True
            self.conversation.block_output()

    def sent(self) -> None:
        """A reply's connection has sent what it had: new commands may run
        again if nothing much is waiting."""
        if self._blocked and not any(len(r.data) >= STREAM_REPLY_BYTES and not r.abandoned
                                     for r in self.replies):
            self._blocked = False
            self.conversation.unblock_output()

    def abandon(self, reply: _Reply) -> None:
        """A reply's client is gone: its answers are dropped as they come."""
        reply.abandoned = True
        reply.data.clear()
        self.sent()

    # -- the event stream ----------------------------------------------------------------

    def attach(self, stream: _EventStream) -> None:
        """A new event stream replaces the old one."""
        if self._grace_timer is not None:
            self._grace_timer.cancel()
            self._grace_timer = None
        if self.stream is not None:
            self.stream.close()
        self.stream = stream
        self.touch()

    def detach(self, stream: _EventStream) -> None:
        """The stream's connection closed: the session ends unless another
        stream opens within :data:`EVENTS_GRACE_SECONDS`."""
        if self.stream is not stream:
            return
        self.stream = None
        self.touch()
        if self.ended is None:
            grace = self.server.events_grace
            self._grace_timer = asyncio.get_running_loop().call_later(
                grace, self.end, f"its event stream closed and did not come back within {grace:g} s")

    # -- ending ----------------------------------------------------------------------------

    def _check_idle(self) -> None:
        if self.ended is not None:
            return
        timeout = self.server.idle_timeout
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self.busy:
            self._last_activity = now  # a running command or an open stream is activity
            self._idle_timer = loop.call_later(timeout, self._check_idle)
        elif now - self._last_activity >= timeout:
            self.end(f"idle for {timeout:g} s")
        else:
            self._idle_timer = loop.call_later(self._last_activity + timeout - now, self._check_idle)

    def _quit(self) -> None:
        """The conversation is over: ``quit`` was answered."""
        self.end("quit")

    def end(self, reason: str) -> None:
        """End the session: stop its commands, answer its waiting POSTs, close
        its event stream, free its workers (in the background). Idempotent."""
        if self.ended is not None:
            return
        self.ended = reason
        self.server.forget(self)
        for timer in (self._idle_timer, self._grace_timer):
            if timer is not None:
                timer.cancel()
        self.conversation.abandon()
        if reason == "shutdown":
            status, message = 503, "the server is shutting down"
        else:
            status, message = 404, f"the session has ended ({reason})"
        for reply in self.replies:
            if reason == "quit" and reply.answered:
                reply.finish()  # the POST that carried quit: its answers up to quit's
            else:
                reply.fail(status, message)
        self.replies.clear()
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        self.server.track(self.conversation.close())
        log.info("stargtp: gui session ended: %s (%d left)", reason, len(self.server.sessions))


# -- one HTTP connection ------------------------------------------------------------------


class _Connection:
    def __init__(self, server: GuiServer, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.input = RequestReader(reader, writer)
        self.writer = writer
        self.idle = True
        """Waiting for a request (so shutdown may simply close it)."""
        self.waiting_since: float | None = asyncio.get_running_loop().time()
        """Since when the connection has waited on its client: idle between
        requests, receiving a request, or sending an answer the client does
        not read; None while the server answers a request. The connection
        that has waited longest makes room for a new one at the limit."""

    def evict(self) -> None:
        """Drop the connection to make room for a new one: at once, even with
        unsent data (a plain close would keep the socket until the client
        reads, outside the count of connections)."""
        self.waiting_since = None
        self.writer.transport.abort()

    async def run(self) -> None:
        writer = self.writer
        server = self.server
        loop = asyncio.get_running_loop()
        try:
            while not server.closing and not writer.is_closing():
                self.idle = True
                try:
                    if not await asyncio.wait_for(self.input.wait_for_request(), server.keep_alive_timeout):
                        return
                except TimeoutError:
                    return
                self.idle = False
                try:
                    request = await asyncio.wait_for(self.input.read_request(), server.request_timeout)
                except TimeoutError:
                    writer.write(error_response(408, "the request took too long to arrive", keep_alive=False))
                    await linger_and_close(self.input, writer)
                    return
                except HttpError as error:
                    writer.write(error_response(error.status, error.message, error.headers,
                                                keep_alive=not error.close))
                    if error.close:
                        await linger_and_close(self.input, writer)
                        return
                    continue
                if request is None:
                    return
                self.waiting_since = None
                carry_on = await server.handle(self, request)
                self.waiting_since = loop.time()
                if not carry_on:
                    await linger_and_close(self.input, writer)
                    return
                try:
                    await asyncio.wait_for(writer.drain(), SEND_SECONDS)
                except TimeoutError:  # a client that reads no answer is gone
                    writer.transport.abort()
                    return
                self.waiting_since = loop.time()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def send(self, data: bytes) -> None:
        self.writer.write(data)

    async def send_reply(self, session: GuiSession, reply: _Reply, request: Request) -> bool:
        """Wait for a POST's answers and send them: whole, or streamed once
        they grow big. Returns whether the connection may carry on."""
        writer = self.writer
        keep_alive = request.keep_alive and not self.server.closing
        streaming = False
        try:
            while True:
                if not reply.done and len(reply.data) < STREAM_REPLY_BYTES:
                    reply.changed.clear()
                    await reply.changed.wait()
                if reply.failure is not None:
                    if streaming:  # a truncated body tells the client
                        writer.transport.abort()
                        return False
                    status, message = reply.failure
                    writer.write(error_response(status, message, API_HEADERS, keep_alive))
                    return keep_alive
                if reply.done and not streaming:
                    writer.write(response(200, reply.take(), "text/plain; charset=utf-8",
                                          API_HEADERS, keep_alive))
                    return keep_alive
                if not streaming:
                    streaming = True
                    fields = [*API_HEADERS, ("Content-Type", "text/plain; charset=utf-8"),
                              ("X-Content-Type-Options", "nosniff")]
                    if request.minor >= 1:
                        fields.append(("Transfer-Encoding", "chunked"))
                    else:
                        keep_alive = False  # the body ends when the connection does
                    writer.write(response_head(200, fields, keep_alive))
                chunk = reply.take()
                if chunk:
                    if request.minor >= 1:
                        writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    else:
                        writer.write(chunk)
                if reply.done:
                    if request.minor >= 1:
                        writer.write(b"0\r\n\r\n")
                    return keep_alive
                if not await self._drain_watching(reply):
                    if reply.failure is None:
                        log.info("stargtp: dropping a gui answer whose client does not read it")
                    writer.transport.abort()
                    session.abandon(reply)
                    return False
                session.sent()
        except (ConnectionError, OSError):
            session.abandon(reply)
            return False
        finally:
            if not reply.done:
                session.abandon(reply)
            session.sent()

    async def _drain_watching(self, reply: _Reply) -> bool:
        """Wait until the connection has sent what it was given; False (and
        no more waiting) once the reply's unsent backlog passes
        :data:`MAX_REPLY_BACKLOG` meanwhile, or the reply fails (its session
        ended), or the client has read nothing for :data:`SEND_SECONDS`.
        Meanwhile the connection waits on its client, so a newcomer at the
        connection limit may take its place (:meth:`evict`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SEND_SECONDS
        drained = asyncio.ensure_future(self.writer.drain())
        self.waiting_since = loop.time()
        try:
            while not drained.done():
                reply.changed.clear()
                changed = asyncio.ensure_future(reply.changed.wait())
                try:
                    await asyncio.wait({drained, changed}, timeout=max(0.0, deadline - loop.time()),
                                       return_when=asyncio.FIRST_COMPLETED)
                finally:
                    changed.cancel()
                if len(reply.data) > MAX_REPLY_BACKLOG or reply.failure is not None:
                    return False
                if not drained.done() and loop.time() >= deadline:  # a client that reads no answer is gone
                    self.writer.transport.abort()
                    return False
            drained.result()  # ConnectionError: the client is gone
            return True
        finally:
            drained.cancel()
            if self.waiting_since is not None:  # (None: evicted meanwhile)
                self.waiting_since = None

    async def run_events(self, session: GuiSession) -> bool:
        """Serve the session's event stream until it is closed or replaced,
        or the client goes."""
        fields = [*API_HEADERS, ("Content-Type", "text/event-stream; charset=utf-8"),
                  ("X-Content-Type-Options", "nosniff")]
        self.writer.write(response_head(200, fields, keep_alive=False) + b": stream open\n\n")
        stream = _EventStream(self.writer)
        session.attach(stream)

        async def client_gone() -> None:
            while await self.input.fill():
                self.input.buffer.clear()  # nothing is read from an event stream's client

        watch = asyncio.ensure_future(client_gone())
        pump = asyncio.ensure_future(stream.pump())
        try:
            await asyncio.wait({watch, pump}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (watch, pump):
                task.cancel()
            await asyncio.gather(watch, pump, return_exceptions=True)
            session.detach(stream)
        return False


# -- the server ------------------------------------------------------------------------------


class GuiServer:
    """The HTTP bridge: the page, and any number of sessions up to a limit."""

    def __init__(self, config: SessionConfig, max_sessions: int = DEFAULT_MAX_SESSIONS,
                 idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
                 events_grace: float = EVENTS_GRACE_SECONDS,
                 keep_alive_timeout: float = KEEP_ALIVE_SECONDS,
                 request_timeout: float = REQUEST_SECONDS) -> None:
        # The page's user may be anybody who can reach the port: like a TCP
        # client, a session reads no file of this machine.
        self.config = replace(config, read_files=False, file_dir=None)
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        """Seconds of idleness after which a session ends; 0: never."""
        self.events_grace = events_grace
        self.keep_alive_timeout = keep_alive_timeout
        """Seconds an idle connection waits for its next request."""
        self.request_timeout = request_timeout
        """Seconds a client may take to send a whole request once begun."""
        self.sessions: dict[str, GuiSession] = {}
        self.connections: set[_Connection] = set()
        self.static = load_static_files()
        self.closing = False
        self.url = ""
        self._origins: set[str] = set()
        self._any_host = False
        self._server: asyncio.base_events.Server | None = None
        self._cleanups: set[asyncio.Future[Any]] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._refusing = 0

    # -- life ---------------------------------------------------------------------------

    async def start(self, host: str = DEFAULT_HOST, port: int = 0) -> tuple[str, int]:
        """Listen; returns the address actually bound (port 0 picks a free one)."""
        self._server = await asyncio.start_server(self._connected, host, port)
        bound_host, bound_port = self._server.sockets[0].getsockname()[:2]
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.url = f"http://{shown}:{bound_port}/"
        names = {shown, host if ":" not in host else f"[{host}]"}
        self._any_host = bound_host in ("0.0.0.0", "::") or host in ("", "0.0.0.0", "::")
        if self._any_host or names & {"localhost", "[::1]"} or bound_host.startswith("127."):
            names |= {"localhost", "127.0.0.1", "[::1]"}
        self._origins = {f"http://{name}:{bound_port}".lower() for name in names}
        if bound_port == 80:
            self._origins |= {f"http://{name}".lower() for name in names}
        return bound_host, bound_port

    async def close(self) -> None:
        """Stop listening, end every session, wait for their workers."""
        self.closing = True
        if self._server is not None:
            self._server.close()
        for session in list(self.sessions.values()):
            session.end("shutdown")
        for connection in list(self.connections):
            if connection.idle:
                connection.writer.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHUTDOWN_SECONDS
        while self.connections and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for connection in list(self.connections):
            connection.writer.transport.abort()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=SHUTDOWN_SECONDS)
        if self._cleanups:
            await asyncio.gather(*self._cleanups, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    def track(self, cleanup: Awaitable[Any]) -> None:
        """Run a session's cleanup in the background, but finish it before exit."""
        future = asyncio.ensure_future(cleanup)
        self._cleanups.add(future)
        future.add_done_callback(self._cleanups.discard)

    def forget(self, session: GuiSession) -> None:
        if self.sessions.get(session.token) is session:
            del self.sessions[session.token]

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            connection = _Connection(self, reader, writer)
            if len(self.connections) >= MAX_CONNECTIONS and not self.closing:
                self._make_room()
            if len(self.connections) >= MAX_CONNECTIONS or self.closing:
                writer.write(error_response(503, "too many connections, try again later"
                                            if not self.closing else "the server is shutting down",
                                            keep_alive=False))
                if self._refusing >= MAX_CONNECTIONS:
                    writer.close()  # many refusals at once: no lingering for them all
                    return
                self._refusing += 1
                try:
                    await linger_and_close(connection.input, writer)
                finally:
                    self._refusing -= 1
                return
            self.connections.add(connection)
            try:
                await connection.run()
            finally:
                self.connections.discard(connection)
        except Exception:  # never let one connection take the server down
            log.exception("stargtp: internal error in the gui bridge")
            writer.transport.abort()
        finally:
            if task is not None:
                self._tasks.discard(task)

    def _make_room(self) -> None:
        """Close the connection that has waited longest on its client, if
        one does: a connection being served is never closed for another."""
        waiting = [c for c in self.connections if c.waiting_since is not None]
        if waiting:
            oldest = min(waiting, key=lambda c: c.waiting_since or 0.0)
            self.connections.discard(oldest)
            oldest.evict()

    # -- requests ------------------------------------------------------------------------

    async def handle(self, connection: _Connection, request: Request) -> bool:
        """Answer one request; returns whether the connection may carry on."""
        try:
            return await self._route(connection, request)
        except HttpError as error:
            keep_alive = request.keep_alive and not error.close and not self.closing
            connection.send(error_response(error.status, error.message, error.headers, keep_alive))
            return keep_alive
        except (ConnectionError, OSError):
            return False
        except Exception:  # a bug: this request fails, the server goes on
            log.exception("stargtp: internal error in the gui bridge")
            connection.send(error_response(500, "internal error", keep_alive=False))
            return False

    async def _route(self, connection: _Connection, request: Request) -> bool:
        if request.target[:8].lower().startswith(("http://", "https://")):
            parts = urlsplit(request.target)  # the absolute form, as a proxy sends it
            request.target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        if not request.target.startswith("/"):
            raise HttpError(400, "the request target must be a path", close=True)
        path = request.path
        if path.startswith(STATIC_PREFIX):
            allowed: tuple[str, ...] = STATIC_METHODS
        elif path in ROUTES:
            allowed = ROUTES[path]
        else:
            raise HttpError(404, f"no such page: {path[:100]}")
        if request.method not in allowed:
            raise HttpError(405, f"{request.method} is not allowed on {path} (only {', '.join(allowed)})",
                            headers=[("Allow", ", ".join(allowed))])
        origin = request.header("origin")
        if origin is not None and not self._own_origin(origin, request.header("host")):
            raise HttpError(403, "requests from other web sites are refused")
        keep_alive = request.keep_alive and not self.closing
        head_only = request.method == "HEAD"
        if path == "/" or path.startswith(STATIC_PREFIX):
            name = "index.html" if path == "/" else path[len(STATIC_PREFIX):]
            found = self.static.get(name)
            if found is None:
                raise HttpError(404, f"no such file: {name[:100]}")
            body, kind = found
            connection.send(response(200, body, kind, [("Cache-Control", "no-cache")],
                                     keep_alive, head_only))
            return keep_alive
        if path == "/session":
            return self._open_session(connection, keep_alive)
        session = self._session_of(request)
        session.touch()
        if path == "/events":
            return await connection.run_events(session)
        if path == "/close":
            session.end("closed by the client")
            connection.send(response(204, headers=API_HEADERS, keep_alive=keep_alive))
            return keep_alive
        # POST /gtp
        if request.body_length is None:
            raise HttpError(411, "POST /gtp needs a Content-Length", close=True)
        try:
            request.body.decode("utf-8")
        except UnicodeDecodeError:
            raise HttpError(400, "the body is not UTF-8 text") from None
        if len(session.replies) >= MAX_WAITING_POSTS:
            raise HttpError(429, f"too many requests waiting in this session (limit {MAX_WAITING_POSTS})")
        reply = session.submit(request.body)
        return await connection.send_reply(session, reply, request)

    def _open_session(self, connection: _Connection, keep_alive: bool) -> bool:
        if self.closing:
            raise HttpError(503, "the server is shutting down")
        if len(self.sessions) >= self.max_sessions:
            raise HttpError(503, f"too many sessions (limit {self.max_sessions}), try again later")
        token = secrets.token_urlsafe(16)
        self.sessions[token] = GuiSession(self, token)
        timeout = self.idle_timeout
        body = json.dumps({"session": token, "idle_timeout": int(timeout) if timeout == int(timeout) else timeout})
        connection.send(response(201, body.encode(), "application/json", API_HEADERS, keep_alive))
        return keep_alive

    def _session_of(self, request: Request) -> GuiSession:
        """The live session the query names; HttpError 400 or 404."""
        try:
            fields = parse_qsl(request.query, keep_blank_values=True, strict_parsing=True,
                               max_num_fields=20)
        except ValueError:
            raise HttpError(400, "malformed query (expected ?session=TOKEN)") from None
        tokens = [value for key, value in fields if key == "session"]
        if not tokens:
            raise HttpError(404, "no session given (expected ?session=TOKEN)")
        if len(tokens) > 1 or not TOKEN.fullmatch(tokens[0]):
            raise HttpError(400, "malformed session token")
        session = self.sessions.get(tokens[0])
        if session is None:
            raise HttpError(404, "no such session (it may have ended)")
        return session

    def _own_origin(self, origin: str, host: str | None) -> bool:
        """Whether an Origin header names this server (another web site's
        page must not drive the engine)."""
        origin = origin.strip().lower()
        if origin in self._origins:
            return True
        return self._any_host and host is not None and origin == f"http://{host.strip().lower()}"


async def serve_gui(config: SessionConfig, host: str = DEFAULT_HOST, port: int = 0,
                    max_sessions: int = DEFAULT_MAX_SESSIONS,
                    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
                    keep_alive_timeout: float = KEEP_ALIVE_SECONDS,
                    request_timeout: float = REQUEST_SECONDS) -> int:
    """Serve the page and its sessions until SIGINT or SIGTERM."""
    server = GuiServer(config, max_sessions, idle_timeout, keep_alive_timeout=keep_alive_timeout,
                       request_timeout=request_timeout)

    async def start() -> str:
        await server.start(host, port)
        if "index.html" not in server.static:
            log.warning("stargtp: the page is not installed (protocol/gui/static/index.html)")
        return f"gui at {server.url}"

    return await serve_until_signalled(f"{host}:{port}", start, server.close)
