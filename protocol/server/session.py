"""One controller's session: the dispatcher that runs its command lines
against its game state and its search service.

A session is three parts, as gomill splits its engine: the game state
(:class:`~stargtp.protocol.server.state.GtpState`: position, komi, clock), the search
service (:class:`~stargtp.protocol.server.search.SearchService`: settings, workers,
genmove, analysis, perft), and this dispatcher (the command registry,
:meth:`Session.execute`, interrupts and streaming).

Sessions share nothing mutable. The transport hands raw lines to
:meth:`Session.execute` one at a time, in order, with the :class:`Client` it
writes to, and never runs two commands of one session at once.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from stargtp.protocol.framing import (
    BadLine,
    Line,
    TooLongLine,
    format_failure,
    format_success,
    parse_line,
    too_long_failure,
)
from stargtp.protocol.registry import CommandRegistry, GtpError, failure_message
from stargtp.protocol.server import commands, files
from stargtp.protocol.server.search import (
    MANAGED_PARAMS,
    SearchService,
    SessionConfig,
    UnknownParameter,
    check_player,
    default_player,
)
from stargtp.protocol.server.state import GtpState

log = logging.getLogger(__name__)

__all__ = ["Client", "MANAGED_PARAMS", "Outcome", "Session", "SessionConfig", "Stream",
           "UnknownParameter", "default_player"]


class Client(Protocol):
    """The transport's side of a session, as a streaming command sees it."""

    def write(self, text: str) -> None:
        """Send response text to the client now."""
        ...

    def input_waiting(self) -> bool:
        """Whether the client has sent another line (or closed its input)."""
        ...


class Stream:
    """The explicit channel of one streaming command (``lz-analyze``): it writes
    lines of the response as they come, and is stopped by the next input line
    or an interrupt. The first line sends the ``=id`` head; the blank line
    that ends the response follows when the command returns."""

    def __init__(self, head: str, client: Client) -> None:
        self._head = head
        self._client = client
        self._on_stop: list[Callable[[], None]] = []
        self.started = False
        """Whether any line was sent (so the ``=id`` head is out)."""
        self.stopped = False

    def line(self, text: str) -> None:
        """Send one non-empty line of the response now."""
        if not self.started:
            self.started = True
            self._client.write(self._head + "\n")
        self._client.write(text + "\n")

    def input_waiting(self) -> bool:
        return self._client.input_waiting()

    def on_stop(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when the stream is stopped (at once if it is)."""
        self._on_stop.append(callback)
        if self.stopped:
            callback()

    def stop(self) -> None:
        self.stopped = True
        for callback in self._on_stop:
            callback()


@dataclass(frozen=True, slots=True)
class Outcome:
    """What :meth:`Session.execute` gives the transport for one line."""

    now: str | None = None
    """The framed response, ready now; None when the line gets no response
    or when the answer comes ``later``."""
    later: Awaitable[str] | None = None
    """For commands that run off the loop (searches): the framed response
    once done. The transport awaits it before running the next line."""


class _NoClient:
    def write(self, text: str) -> None:
        pass

    def input_waiting(self) -> bool:
        return False


class Session:
    """The dispatcher of one controller's conversation."""

    def __init__(self, config: SessionConfig = SessionConfig()) -> None:
        self.state = GtpState(config.game, config.size, dict(config.rules))
        self.search = SearchService(config, self.state)
        self.files = (config.read_files, config.file_dir)
        self.quit_requested = False
        """Set by ``quit``: the transport sends the response, then ends the session."""
        self.registry = CommandRegistry()
        commands.install(self.registry, self)
        self._stream: Stream | None = None

    @property
    def config(self) -> SessionConfig:
        """The current settings (``stargtp-param`` changes them)."""
        return self.search.config

    @property
    def position(self) -> Any:
        return self.state.position

    # -- what transports call -------------------------------------------------

    def execute(self, line: Line, client: Client = _NoClient()) -> Outcome:
        """Run one raw line; never raises. A streaming command writes to
        ``client`` through a :class:`Stream`."""
        if type(line) is TooLongLine:
            return Outcome(too_long_failure(line))
        command = parse_line(line)
        if command is None:
            return Outcome()
        if type(command) is BadLine:
            return Outcome(format_failure(command.id, command.message))
        entry = self.registry.get(command.name)
        if entry is None:
            return Outcome(format_failure(command.id, "unknown command"))
        game = self.state.position.rules
        if entry.games is not None and game.name not in entry.games:
            return Outcome(format_failure(
                command.id, f"{command.name} is only available for {', '.join(entry.games)}"))
        if entry.is_async:
            self.search.begin_command()
            stream = None
            if entry.streaming:
                stream = self._stream = Stream("=" if command.id is None else "=" + command.id, client)
                work = entry.handler(command.args, stream)
            else:
                work = entry.handler(command.args)
            return Outcome(later=self._execute_async(command.id, command.name, work, stream))
        try:
            result = entry.handler(command.args)
        except Exception as error:
            return Outcome(self._failure(command.id, command.name, error))
        return Outcome(format_success(command.id, result, self.config.status_space))

    async def _execute_async(self, command_id: str | None, name: str, work: Awaitable[str],
                             stream: Stream | None) -> str:
        try:
            result = await work
        except Exception as error:
            if stream is not None and stream.started:  # already answered "=": just end it
                log.info("stargtp: %s stopped: %s", name, error)
                return "\n"
            return self._failure(command_id, name, error)
        finally:
            if stream is not None:
                self._stream = None
        if stream is not None and stream.started:
            return "\n"
        return format_success(command_id, result, self.config.status_space)

    def _failure(self, command_id: str | None, name: str, error: Exception) -> str:
        message = failure_message(error)
        if message is None:
            log.error("stargtp: internal error in %s:\n%s", name, traceback.format_exc().rstrip())
            message = f"internal error: {type(error).__name__}: {error}"
        return format_failure(command_id, message)

    def interrupt(self) -> None:
        """``# interrupt`` arrived: the running command answers now with its best result."""
        self.search.interrupt()
        if self._stream is not None:
            self._stream.stop()

    def stop_searching(self) -> None:
        """The client will send nothing more (a TCP client closed its side):
        the running search and every later one answer at once, so the session
        winds down promptly and frees its workers."""
        self.search.stop_searching()
        if self._stream is not None:
            self._stream.stop()

    def notify_input(self) -> None:
        """A new line arrived while a command runs. Streaming commands end on it
        (the analysis convention); other commands ignore it."""
        if self._stream is not None:
            self._stream.stop()

    async def close(self) -> None:
        """End the session: stop any search and free its worker processes."""
        await self.search.close()

    # -- what commands share ------------------------------------------------------

    def new_game(self, game: str | None = None, size: int | None = None) -> None:
        """A cleared board; nothing changes if the game or size is refused, or
        if the session's player cannot play the game."""
        check_player(self.config.player, self.state.position.game if game is None else game)
        self.state.new_game(game, size)
        self.search.prepare_workers()

    def adopt(self, position: Any) -> None:
        """Continue from ``position`` (a loaded record) with full clocks;
        GtpError (nothing changed) if the player cannot play its game."""
        check_player(self.config.player, position.game)
        self.state.adopt(position)
        self.search.prepare_workers()

    async def read_file(self, path: str) -> bytes:
        """The bytes of a file a file command names, read off the event loop
        under the session's file policy (:mod:`stargtp.protocol.server.files`); GtpError
        ``cannot load file: reason`` if it is refused or unreadable."""
        read_files, file_dir = self.files
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(None, files.load, path, read_files, file_dir)
        except files.FileRefused as exc:
            raise GtpError(f"cannot load file: {exc}") from None
