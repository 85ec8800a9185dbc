"""The TCP transport: many sessions at once, one per connection.

Connections beyond the limit are refused with a message that arrives; idle
connections are closed after a timeout, and so are connections that send
bytes but no complete command; a TCP client reads no file of the server's
machine unless the server names a directory for it.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from stargtp.protocol.framing import format_failure
from stargtp.protocol.server.conversation import Conversation
from stargtp.protocol.server.session import Session, SessionConfig
from stargtp.protocol.server.workers import start_process_server
from stargtp.protocol.signals import add_signal_handlers, remove_signal_handlers

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_MAX_CONNECTIONS = 64

SHUTDOWN_SECONDS = 1.0
"""How long a shutting-down TCP server waits for connections to flush."""

DEFAULT_IDLE_SECONDS = 600.0
"""A TCP connection with no command sent and none running for this long is
closed, so that idle clients cannot hold every connection slot for ever. Ten
minutes leaves a person in a GUI time to think; ``--idle-timeout 0`` never
closes."""

DEFAULT_COMMAND_SECONDS = 30.0
"""A TCP connection that is sending bytes but completes no command (a line
that never ends, comment or empty lines only), or that sends no command at
all after connecting, is closed after this long, so that clients dribbling
bytes cannot hold every slot: only a complete command resets the idle
timeout. ``--command-timeout 0`` never closes."""

REFUSAL_LINGER_SECONDS = 5.0
"""How long a refused connection ("server busy") stays open after its answer,
reading and dropping what the client sends, so that its answer arrives
instead of a connection reset."""


class _TcpConnection(asyncio.Protocol):
    """One client: its own session and conversation."""

    def __init__(self, server: TcpServer) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.conversation: Conversation | None = None
        self._pause_reasons: set[str] = set()
        self._refused = False
        self._timer: asyncio.TimerHandle | None = None
        self._timer_due = 0.0
        self._last_activity = 0.0
        """When the client last sent a command, or the server last wrote or ran one."""
        self._waiting_since: float | None = None
        """Since when the client owes a command: from its connection, or from
        its first byte (a partial line, a comment) after its last command;
        None when it owes none."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        server = self.server
        if len(server.connections) >= server.max_connections or server.closing:
            self._refuse(transport)
            return
        server.connections.add(self)
        session = Session(server.config)
        def write(data: bytes) -> None:
            if not transport.is_closing():
                self._last_activity = asyncio.get_running_loop().time()
                transport.write(data)

        self.conversation = Conversation(
            session, write, transport.close,
            lambda: self._pause("queue"), lambda: self._resume("queue"))
        now = asyncio.get_running_loop().time()
        self._last_activity = self._waiting_since = now
        self._schedule_check()

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

    def _deadlines(self) -> list[tuple[float, str]]:
        """When the connection is to be closed, and why: idle, or owing a command."""
        server, deadlines = self.server, []
        if server.idle_timeout:
            deadlines.append((self._last_activity + server.idle_timeout,
                              f"idle for {server.idle_timeout:g} s"))
        if server.command_timeout and self._waiting_since is not None:
            deadlines.append((self._waiting_since + server.command_timeout,
                              f"no complete command for {server.command_timeout:g} s"))
        return deadlines

    def _schedule_check(self) -> None:
        """(Re)arm the timer for the earliest deadline, unless it is due by then."""
        deadlines = self._deadlines()
        if not deadlines:
            return
        due = min(deadlines)[0]
        if self._timer is not None:
            if self._timer_due <= due:
                return
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer, self._timer_due = loop.call_at(due, self._check), due

    def _check(self) -> None:
        """Close the connection once it has been idle (no command received,
        nothing running, nothing written) for the idle timeout, or has owed a
        command for the command timeout. A running command (a search, an
        analysis stream) or lines waiting their turn are neither, unless the
        client does not read what it is sent: a connection whose output is
        blocked is idle (else a client that never reads would keep its slot
        for ever)."""
        self._timer = None
        conversation, transport = self.conversation, self.transport
        if conversation is None or transport is None or transport.is_closing():
            return
        now = asyncio.get_running_loop().time()
        if conversation.busy and "writing" not in self._pause_reasons:
            self._last_activity = now
            if self._waiting_since is not None:
                self._waiting_since = now
        for due, why in sorted(self._deadlines()):
            if due <= now:
                log.info("stargtp: closing a connection: %s", why)
                if "writing" in self._pause_reasons:
                    transport.abort()  # its client reads nothing: what is unsent would never leave
                else:
                    transport.close()
                return
        self._schedule_check()

    def _pause(self, reason: str) -> None:
        if not self._pause_reasons and self.transport is not None and not self.transport.is_closing():
            self.transport.pause_reading()
        self._pause_reasons.add(reason)

    def _resume(self, reason: str) -> None:
        self._pause_reasons.discard(reason)
        if not self._pause_reasons and self.transport is not None and not self.transport.is_closing():
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        conversation = self.conversation
        if conversation is None:
            return
        now = asyncio.get_running_loop().time()
        if conversation.feed(data):
            # A command: activity, and nothing owed unless a line is begun.
            self._last_activity = now
            self._waiting_since = now if conversation.partial_line else None
        elif self._waiting_since is None:
            self._waiting_since = now  # bytes but no command: one is owed from now
        self._schedule_check()

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
                 idle_timeout: float = DEFAULT_IDLE_SECONDS,
                 command_timeout: float = DEFAULT_COMMAND_SECONDS) -> None:
        # A TCP client is not the local user: it reads no file of this machine
        # unless the server names a directory for it (protocol.server.files).
        self.config = replace(config, read_files=config.file_dir is not None)
        self.max_connections = max_connections
        self.idle_timeout = idle_timeout
        """Seconds of idleness after which a connection is closed; 0: never."""
        self.command_timeout = command_timeout
        """Seconds a connection may owe a command (bytes sent but no command
        completed, or nothing sent since it connected); 0: never."""
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


class CannotListen(Exception):
    """The server cannot listen on its address (the port is taken, the host
    is not this machine's...); ``str(error)`` is ``cannot listen on HOST:PORT:
    REASON``, for the tool to print after its name."""


async def serve_until_signalled(address: str, start: Callable[[], Awaitable[str]],
                                close: Callable[[], Awaitable[None]]) -> int:
    """Run a listening server (TCP sessions, the GUI's HTTP bridge) until
    SIGINT or SIGTERM: ``start()`` listens on ``address`` and returns what to
    announce on stderr; ``close()`` ends every session. CannotListen when
    ``start()`` cannot listen."""
    # Sessions start their workers when a game is set up; the process server
    # they fork from is started now, so that even the first is quick.
    warm = asyncio.get_running_loop().run_in_executor(None, start_process_server)
    try:
        try:
            announcement = await start()
        except OSError as exc:
            # asyncio wraps the bind error's text in its own; the errno says it
            # plainly. A host name that does not resolve has a negative errno.
            reason = os.strerror(exc.errno) if exc.errno and exc.errno > 0 else exc.strerror or str(exc)
            raise CannotListen(f"cannot listen on {address}: {reason}") from None
        log.info("stargtp: %s", announcement)
        stop = asyncio.get_running_loop().create_future()
        handled = add_signal_handlers(asyncio.get_running_loop(),
                                      lambda: stop.done() or stop.set_result(None))
        try:
            await stop
        finally:
            remove_signal_handlers(asyncio.get_running_loop(), handled)
            await close()
        log.info("stargtp: shut down")
        return 0
    finally:
        await asyncio.gather(warm, return_exceptions=True)


async def serve_tcp(config: SessionConfig, host: str, port: int,
                    max_connections: int = DEFAULT_MAX_CONNECTIONS,
                    idle_timeout: float = DEFAULT_IDLE_SECONDS,
                    command_timeout: float = DEFAULT_COMMAND_SECONDS) -> int:
    """Serve TCP clients until SIGINT or SIGTERM."""
    server = TcpServer(config, max_connections, idle_timeout, command_timeout)

    async def start() -> str:
        bound_host, bound_port = await server.start(host, port)
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        return f"listening on {shown}:{bound_port}"

    return await serve_until_signalled(f"{host}:{port}", start, server.close)
