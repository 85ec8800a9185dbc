"""``stargtp serve``: the protocol server on stdin/stdout or TCP.

Transports only move bytes. A :class:`Conversation` turns one byte stream into
lines and runs them against one :class:`~protocol.server.session.Session`: in input
order, one at a time, while still reading so that ``# interrupt`` reaches a
running search. The stdin transport reads through asyncio when stdin is a pipe
or socket (a thread otherwise) and writes every response to stdout at once;
the TCP transport gives every connection its own session.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import select
import signal
import stat
import sys
import threading
from collections import deque
from dataclasses import replace
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

from engine.errors import GameError
from engine.games import GAMES, new_position
from engine.players import PLAYERS, check_plays, make_player
from protocol.framing import Line, LineSplitter, format_failure, is_interrupt
from protocol.server.session import Session, SessionConfig, default_player
from protocol.server.workers import start_process_server

Log = Callable[[str], None]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_MAX_CONNECTIONS = 64

MAX_PENDING_LINES = 10_000
"""Lines queued behind a running command before reading pauses: a client that
floods the server during a search cannot make it buffer without bound. Reading
resumes at half this."""

BATCH_LINES = 256
"""Lines a conversation runs in one turn of the event loop before letting the
other sessions have theirs."""

SHUTDOWN_SECONDS = 1.0

DEFAULT_IDLE_SECONDS = 600.0
"""A TCP connection with no input and no command running for this long is
closed, so that idle clients cannot hold every connection slot for ever. Ten
minutes leaves a person in a GUI time to think; ``--idle-timeout 0`` never
closes."""

REFUSAL_LINGER_SECONDS = 5.0
"""How long a refused connection ("server busy") stays open after its answer,
reading and dropping what the client sends, so that its answer arrives
instead of a connection reset."""
"""How long a shutting-down TCP server waits for connections to flush."""


def _stderr_log(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # nowhere left to log to; never let logging stop the server


# -- one session over one stream -------------------------------------------------


class Conversation:
    """Runs the lines of one stream against one session, answering in order.

    Lines arriving while a command runs are queued and run afterwards, except a
    raw ``# interrupt``, which interrupts the running command at once (and is
    otherwise just a comment). Each line queued behind a running command also
    calls ``session.notify_input()``: the hook through which a streaming
    command (``lz-analyze``, which streams until any new input arrives) will
    stop.

    Fairness: at most :data:`BATCH_LINES` lines run per turn of the event loop,
    and none while the transport says its output is backed up, so one client
    pipelining thousands of commands cannot starve the other sessions.
    """

    def __init__(self, session: Session, write: Callable[[bytes], None],
                 on_finished: Callable[[], None],
                 pause_reading: Callable[[], None] | None = None,
                 resume_reading: Callable[[], None] | None = None) -> None:
        self.session = session
        self._write = write
        session.emit = self._emit
        session.input_waiting = self._input_waiting
        self._on_finished = on_finished
        self._pause_reading = pause_reading
        self._resume_reading = resume_reading
        self._splitter = LineSplitter()
        self._pending: deque[Line] = deque()
        self._running: asyncio.Future[None] | None = None
        self._drain_scheduled = False
        self._output_blocked = False
        self._end_of_input = False
        self._paused = False
        self.finished = False
        """True once the session is over: quit answered, input ended and
        answered, or the stream lost."""

    # -- what transports call ------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the client."""
        if not self.finished:
            self._take(self._splitter.feed(data))

    def end_of_input(self, stop_searching: bool = False) -> None:
        """The client sent its last byte: answer everything queued, then finish.
        With ``stop_searching`` searches answer at once with their best move so
        far (for a client that may be gone, rather than one piping a file)."""
        if self.finished or self._end_of_input:
            return
        if stop_searching:
            self.session.stop_searching()
        self._take(self._splitter.finish())
        self._end_of_input = True
        self._finish_if_done()

    def block_output(self) -> None:
        """The transport's send buffer is full: run nothing until it drains."""
        self._output_blocked = True

    def unblock_output(self) -> None:
        self._output_blocked = False
        self._schedule_drain()

    def abandon(self) -> None:
        """The stream is gone: from now on nothing runs and nothing is written.
        (:meth:`close` then frees the session.)"""
        self.finished = True
        self._pending.clear()

    async def close(self) -> None:
        """Abort: drop queued lines, cancel a running command (it gets no
        response) and close the session, freeing its workers."""
        self.abandon()
        running, self._running = self._running, None
        if running is not None:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
        await self.session.close()

    @property
    def busy(self) -> bool:
        """A command is running, or lines are waiting for their turn."""
        return self._running is not None or bool(self._pending)

    # -- inside ------------------------------------------------------------------

    def _take(self, lines: list[Line]) -> None:
        session = self.session
        pending = self._pending
        budget = BATCH_LINES
        for line in lines:
            if self.finished:
                return
            if self._running is not None:
                if type(line) is bytes and is_interrupt(line):
                    session.interrupt()
                else:
                    pending.append(line)
                    session.notify_input()
            elif pending or self._output_blocked or budget <= 0:
                pending.append(line)
            else:
                budget -= 1
                self._dispatch(line)
        if pending:
            self._schedule_drain()
            if len(pending) > MAX_PENDING_LINES and not self._paused and self._pause_reading:
                self._paused = True
                self._pause_reading()

    def _dispatch(self, line: Line) -> None:
        outcome = self.session.execute(line)
        if outcome is None:
            return
        if type(outcome) is str:
            self._send(outcome)
        else:
            self._running = asyncio.ensure_future(self._complete(outcome))

    def _input_waiting(self) -> bool:
        """More lines are queued, or the input has ended: a streaming command
        (which ends on any new input) should stop."""
        return bool(self._pending) or self._end_of_input

    def _emit(self, text: str) -> None:
        """Part of a streaming response, written at once."""
        if not self.finished:
            self._write(text.encode("utf-8"))

    def _send(self, response: str) -> None:
        self._write(response.encode("utf-8"))
        if self.session.quit_requested:
            self._finish()

    async def _complete(self, outcome: Awaitable[str]) -> None:
        response = await outcome
        self._running = None
        if self.finished:
            return
        self._send(response)
        self._drain()

    def _schedule_drain(self) -> None:
        if not self._drain_scheduled and self._running is None and not self.finished:
            self._drain_scheduled = True
            asyncio.get_running_loop().call_soon(self._scheduled_drain)

    def _scheduled_drain(self) -> None:
        self._drain_scheduled = False
        self._drain()

    def _drain(self) -> None:
        """Run queued lines: one batch now, the rest on later turns of the loop."""
        pending = self._pending
        budget = BATCH_LINES
        while pending and budget > 0 and self._running is None and not self._output_blocked \
                and not self.finished:
            budget -= 1
            self._dispatch(pending.popleft())
        if self.finished:
            return
        if pending and self._running is None and not self._output_blocked:
            self._schedule_drain()
        if self._paused and len(pending) <= MAX_PENDING_LINES // 2:
            self._paused = False
            if self._resume_reading:
                self._resume_reading()
        self._finish_if_done()

    def _finish_if_done(self) -> None:
        if self._end_of_input and self._running is None and not self._pending and not self.finished:
            self._finish()

    def _finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        self._pending.clear()
        self._on_finished()


# -- stdin / stdout ------------------------------------------------------------------


class _PipeReader(asyncio.Protocol):
    """Feeds what asyncio reads from stdin to the conversation."""

    def __init__(self, conversation: Conversation) -> None:
        self.conversation = conversation

    def data_received(self, data: bytes) -> None:
        self.conversation.feed(data)

    def eof_received(self) -> bool:
        self.conversation.end_of_input()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.conversation.end_of_input()


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte, also to a descriptor someone made non-blocking (stdout
    may share its open file with a non-blocking stdin socket)."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [])
            continue
        view = view[written:]


class _ThreadReader:
    """Reads stdin in a thread, for inputs the loop cannot watch (regular files,
    terminals, /dev/null)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, fd: int, conversation: Conversation) -> None:
        self._loop = loop
        self._fd = fd
        self._conversation = conversation
        self._may_read = threading.Event()
        self._may_read.set()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="stargtp-stdin", daemon=True)
        self._thread.start()

    def pause(self) -> None:
        self._may_read.clear()

    def resume(self) -> None:
        self._may_read.set()

    def close(self) -> None:
        self._stopped = True
        self._may_read.set()

    def _run(self) -> None:
        while True:
            self._may_read.wait()
            if self._stopped:
                return
            try:
                data = os.read(self._fd, 256 * 1024)
            except OSError:
                data = b""
            try:
                if data:
                    self._loop.call_soon_threadsafe(self._conversation.feed, data)
                else:
                    self._loop.call_soon_threadsafe(self._conversation.end_of_input)
                    return
            except RuntimeError:  # the loop is closed: the server is gone
                return


def _is_watchable(fd: int) -> bool:
    """Whether asyncio can watch this descriptor: pipes and sockets. Terminals
    are left to a thread, because a non-blocking terminal is shared with the
    shell and with our own stdout."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


async def serve_stdio(config: SessionConfig, log: Log = _stderr_log,
                      stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """The protocol on stdin/stdout until quit, end of input, SIGINT or SIGTERM."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    loop = asyncio.get_running_loop()
    finished: asyncio.Future[None] = loop.create_future()

    def finish() -> None:
        if not finished.done():
            finished.set_result(None)

    try:
        out_fd: int | None = stdout.fileno()
        stdout.flush()
    except (AttributeError, OSError, ValueError):
        out_fd = None

    def write(data: bytes) -> None:
        try:
            if out_fd is not None:
                _write_all(out_fd, data)
            else:
                stdout.write(data)
                stdout.flush()
        except OSError:  # BrokenPipeError above all: the controller is gone
            conversation.abandon()
            finish()

    session = Session(config, log)
    reader_transport: asyncio.ReadTransport | None = None
    thread_reader: _ThreadReader | None = None
    in_fd = stdin.fileno()
    was_blocking = os.get_blocking(in_fd)

    def pause() -> None:
        if reader_transport is not None:
            reader_transport.pause_reading()
        elif thread_reader is not None:
            thread_reader.pause()

    def resume() -> None:
        if reader_transport is not None:
            reader_transport.resume_reading()
        elif thread_reader is not None:
            thread_reader.resume()

    conversation = Conversation(session, write, finish, pause, resume)
    handled = _add_signal_handlers(loop, finish)
    # The one controller of this server will surely search. Its workers start
    # before its first line is read: the wait delays the first answers, which
    # no clock times, instead of the first genmove, which a clock does.
    session.prepare_workers()
    await session.workers_ready(finished)
    if finished.done():
        pass  # a signal came first
    elif _is_watchable(in_fd):
        reader_transport, _ = await loop.connect_read_pipe(lambda: _PipeReader(conversation), stdin)
    else:
        thread_reader = _ThreadReader(loop, in_fd, conversation)

    try:
        await finished
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
        if thread_reader is not None:
            thread_reader.close()
        await conversation.close()
        if reader_transport is not None:
            reader_transport.close()
            await asyncio.sleep(0)  # let the transport finish closing
        try:
            os.set_blocking(in_fd, was_blocking)
        except OSError:
            pass
    return 0


def _add_signal_handlers(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> list[int]:
    handled = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, callback)
            handled.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread, or a platform without signals in asyncio
    return handled


# -- TCP ------------------------------------------------------------------------------


class _TcpConnection(asyncio.Protocol):
    """One client: its own session and conversation."""

    def __init__(self, server: TcpServer) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.conversation: Conversation | None = None
        self._pause_reasons: set[str] = set()
        self._refused = False
        self._timer: asyncio.TimerHandle | None = None
        self._last_activity = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        server = self.server
        if len(server.connections) >= server.max_connections or server.closing:
            self._refuse(transport)
            return
        server.connections.add(self)
        session = Session(server.config, server.log)
        def write(data: bytes) -> None:
            if not transport.is_closing():
                self._last_activity = asyncio.get_running_loop().time()
                transport.write(data)

        self.conversation = Conversation(
            session, write, transport.close,
            lambda: self._pause("queue"), lambda: self._resume("queue"))
        if server.idle_timeout:
            self._last_activity = asyncio.get_running_loop().time()
            self._schedule_idle_check(server.idle_timeout)

    def _refuse(self, transport: asyncio.Transport) -> None:
        """Answer "server busy" and hang up. The connection lingers a few
        seconds, dropping whatever the client sends: closing a socket with
        unread input would reset it, and the client would never read why."""
        server = self.server
        self._refused = True
        transport.write(format_failure(
            None, f"server busy: too many connections (limit {server.max_connections}),"
            " try again later").encode())
        if len(server.refused) >= server.max_connections or not transport.can_write_eof():
            transport.close()  # many refusals at once: no lingering for them all
            return
        server.refused.add(self)
        transport.write_eof()
        self._timer = asyncio.get_running_loop().call_later(REFUSAL_LINGER_SECONDS, transport.close)

    def _schedule_idle_check(self, delay: float) -> None:
        self._timer = asyncio.get_running_loop().call_later(delay, self._check_idle)

    def _check_idle(self) -> None:
        """Close the connection once it has been idle (no input, nothing
        running, nothing written) for the server's idle timeout."""
        conversation, transport = self.conversation, self.transport
        if conversation is None or transport is None or transport.is_closing():
            return
        timeout = self.server.idle_timeout
        now = asyncio.get_running_loop().time()
        if conversation.busy:
            self._last_activity = now  # a running command is activity
            self._schedule_idle_check(timeout)
        elif now - self._last_activity >= timeout:
            self.server.log(f"stargtp: closing a connection idle for {timeout:g} s")
            transport.close()
        else:
            self._schedule_idle_check(self._last_activity + timeout - now)

    def _pause(self, reason: str) -> None:
        if not self._pause_reasons and self.transport is not None and not self.transport.is_closing():
            self.transport.pause_reading()
        self._pause_reasons.add(reason)

    def _resume(self, reason: str) -> None:
        self._pause_reasons.discard(reason)
        if not self._pause_reasons and self.transport is not None and not self.transport.is_closing():
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        if self.conversation is not None:
            self._last_activity = asyncio.get_running_loop().time()
            self.conversation.feed(data)

    def eof_received(self) -> bool:
        if self._refused:
            return False  # the client has read its refusal and gone: close
        if self.conversation is not None:
            # A client that closes its side has usually gone away; one that only
            # half-closed still gets every answer, its searches cut short.
            self.conversation.end_of_input(stop_searching=True)
            # Keep the sending half open until every queued command is answered.
            return not self.conversation.finished
        return False

    def pause_writing(self) -> None:
        # The client does not read its answers: stop running and reading its commands.
        if self.conversation is not None:
            self.conversation.block_output()
        self._pause("writing")

    def resume_writing(self) -> None:
        self._resume("writing")
        if self.conversation is not None:
            self.conversation.unblock_output()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        conversation, self.conversation = self.conversation, None
        self.server.connections.discard(self)
        self.server.refused.discard(self)
        if conversation is not None:
            conversation.abandon()
            self.server.track(conversation.close())

    def shut_down(self) -> None:
        """Server shutdown: cancel any running command, send what is already
        answered, close."""
        conversation = self.conversation
        if conversation is not None:
            conversation.abandon()
        if self.transport is not None:
            self.transport.close()


class TcpServer:
    """Many sessions at once, one per connection."""

    def __init__(self, config: SessionConfig, max_connections: int = DEFAULT_MAX_CONNECTIONS,
                 log: Log = _stderr_log, idle_timeout: float = DEFAULT_IDLE_SECONDS) -> None:
        # A TCP client is not the local user: it reads no file of this machine
        # unless the server names a directory for it (protocol.server.files).
        self.config = replace(config, read_files=config.file_dir is not None)
        self.max_connections = max_connections
        self.log = log
        self.idle_timeout = idle_timeout
        """Seconds of idleness after which a connection is closed; 0: never."""
        self.connections: set[_TcpConnection] = set()
        self.refused: set[_TcpConnection] = set()
        """Refused connections still lingering to deliver their answer."""
        self.closing = False
        self._server: asyncio.base_events.Server | None = None
        self._cleanups: set[asyncio.Future[Any]] = set()

    @property
    def sessions(self) -> list[Session]:
        """The sessions of the connected clients."""
        return [c.conversation.session for c in self.connections if c.conversation is not None]

    def track(self, cleanup: Awaitable[Any]) -> None:
        """Run a session's cleanup in the background, but finish it before exit."""
        future = asyncio.ensure_future(cleanup)
        self._cleanups.add(future)
        future.add_done_callback(self._cleanups.discard)

    async def start(self, host: str = DEFAULT_HOST, port: int = 0) -> tuple[str, int]:
        """Listen; returns the address actually bound (port 0 picks a free one)."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _TcpConnection(self), host, port)
        bound = self._server.sockets[0].getsockname()
        return bound[0], bound[1]

    async def close(self) -> None:
        """Stop listening, end every session, wait for their workers."""
        self.closing = True
        if self._server is not None:
            self._server.close()
        for connection in list(self.connections) + list(self.refused):
            connection.shut_down()
        deadline = asyncio.get_running_loop().time() + SHUTDOWN_SECONDS
        while self.connections and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        for connection in list(self.connections):
            if connection.transport is not None:
                connection.transport.abort()
        await asyncio.sleep(0)
        if self._cleanups:
            await asyncio.gather(*self._cleanups, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()


async def serve_tcp(config: SessionConfig, host: str, port: int,
                    max_connections: int = DEFAULT_MAX_CONNECTIONS, log: Log = _stderr_log,
                    idle_timeout: float = DEFAULT_IDLE_SECONDS) -> int:
    """Serve TCP clients until SIGINT or SIGTERM."""
    server = TcpServer(config, max_connections, log, idle_timeout)
    # Sessions start their workers when a game is set up; the process server
    # they fork from is started now, so that even the first is quick.
    warm = asyncio.get_running_loop().run_in_executor(None, start_process_server)
    try:
        bound_host, bound_port = await server.start(host, port)
    except OSError as exc:
        log(f"stargtp: cannot listen on {host}:{port}: {exc.strerror or exc}")
        return 1
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    log(f"stargtp: listening on {shown}:{bound_port}")
    stop = asyncio.get_running_loop().create_future()
    handled = _add_signal_handlers(asyncio.get_running_loop(),
                                   lambda: stop.done() or stop.set_result(None))
    try:
        await stop
    finally:
        for signum in handled:
            asyncio.get_running_loop().remove_signal_handler(signum)
        await server.close()
        await asyncio.gather(warm, return_exceptions=True)
    log("stargtp: shut down")
    return 0


# -- the command line -------------------------------------------------------------------


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT``, ``PORT`` or ``[IPV6]:PORT``; the host defaults
    to 127.0.0.1. ValueError for anything else.

    >>> parse_address("0.0.0.0:5000"), parse_address(":0"), parse_address("[::1]:7")
    (('0.0.0.0', 5000), ('127.0.0.1', 0), ('::1', 7))
    """
    text = text.strip()
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ValueError(f"bad address {text!r}")
        port_text = rest[1:]
    elif ":" in text:
        host, _, port_text = text.rpartition(":")
    else:
        host, port_text = "", text
    if not port_text.isascii() or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"bad port in {text!r}")
    return host or DEFAULT_HOST, int(port_text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=GAMES, default="star", help="game to start with (default: star)")
    parser.add_argument("--size", type=int, help="board size: *Star rings 2..10, Amazons 6, 8 or 10 (default: 10)")
    parser.add_argument("--seed", type=int, help="seed the players, for reproducible games")
    parser.add_argument("--tcp", metavar="HOST:PORT",
                        help="listen on TCP instead of stdin/stdout (host defaults to 127.0.0.1;"
                             " port 0 picks a free port, reported on stderr)")
    parser.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS, metavar="N",
                        help=f"TCP clients served at once; more are refused (default {DEFAULT_MAX_CONNECTIONS})")
    parser.add_argument("--player", choices=PLAYERS, default=None,
                        help=f"move generator (default: {default_player()})")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="worker processes per session for the search, merged by root"
                             " parallelism (default: the number of CPUs; with --seed and"
                             " --playouts, games repeat move for move for a given N)")
    parser.add_argument("--playouts", type=int, metavar="N", help="playouts per move")
    parser.add_argument("--seconds", type=float, metavar="S",
                        help="seconds per move when the controller sets no clock")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="player parameter (repeatable)")
    parser.add_argument("--file-dir", metavar="DIR",
                        help="the one directory whose files loadsgf may read (over TCP, without"
                             " it no file can be read; over stdin, without it any path can)")
    parser.add_argument("--idle-timeout", type=float, default=DEFAULT_IDLE_SECONDS, metavar="S",
                        help="close a TCP connection that sent nothing and ran nothing for S"
                             f" seconds (default {DEFAULT_IDLE_SECONDS:g}; 0: never)")


def config_from_args(args: argparse.Namespace) -> SessionConfig:
    """The session settings; ValueError with a readable message for bad options."""
    params = []
    for item in args.param:
        param_name, equals, value = item.partition("=")
        if not equals or not param_name:
            raise ValueError(f"--param wants NAME=VALUE, not {item!r}")
        params.append((param_name, value))
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.playouts is not None and args.playouts < 1:
        raise ValueError("--playouts must be at least 1")
    if args.seconds is not None and not (args.seconds > 0 and math.isfinite(args.seconds)):
        raise ValueError("--seconds must be a positive number of seconds")
    if args.max_connections < 1:
        raise ValueError("--max-connections must be at least 1")
    if args.idle_timeout is not None and not (args.idle_timeout >= 0 and math.isfinite(args.idle_timeout)):
        raise ValueError("--idle-timeout must be a number of seconds, 0 or more (0: never)")
    file_dir = None
    if args.file_dir is not None:
        if not os.path.isdir(args.file_dir):
            raise ValueError(f"--file-dir {args.file_dir!r} is not a directory")
        file_dir = os.path.realpath(args.file_dir)
    config = SessionConfig(game=args.game, size=args.size, seed=args.seed,
                           player=args.player or default_player(), workers=args.workers,
                           playouts=args.playouts, seconds=args.seconds, params=tuple(params),
                           file_dir=file_dir)
    try:
        new_position(config.game, config.size)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    check_plays(config.player, config.game)  # ValueError: amazons-mcts cannot play star
    make_player(config.player, seed=config.seed, **dict(config.params))  # ValueError if refused
    return config


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
        address = parse_address(args.tcp) if args.tcp is not None else None
    except ValueError as exc:
        _stderr_log(f"stargtp serve: {exc}")
        return 2
    if address is not None:
        return asyncio.run(serve_tcp(config, address[0], address[1], args.max_connections,
                                     idle_timeout=args.idle_timeout))
    # Only protocol responses may reach stdout: anything else printed goes to stderr.
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    try:
        return asyncio.run(serve_stdio(config, stdout=real_stdout.buffer))
    finally:
        sys.stdout = real_stdout
