"""The controller side of the protocol: talk to one engine over asyncio.

A :class:`GtpController` owns one connection to one engine, either a
subprocess it started (stdin/stdout pipes) or a TCP server it connected to
(``tcp:HOST:PORT``). :meth:`GtpController.send` writes one command and returns
the engine's answer, or raises a typed error:

* :class:`EngineError` -- the engine answered ``? message`` (``.message``);
  the connection is still fine.
* :class:`ProtocolError` -- the answer was not well-formed: it did not start
  with ``=`` or ``?``, carried the wrong id, or grew past the size limit.
* :class:`TransportError` -- the engine could not be started or reached, died,
  or closed its output; :class:`ResponseTimeout` (a subclass) when no complete
  answer arrived in time.

The engine is never trusted: every read runs under a deadline that covers the
whole response (a slow trickle of bytes cannot stretch it), the response
buffer is bounded, and the engine's stderr is drained continuously into a
bounded tail so a chatty engine can neither block on a full pipe nor fill the
referee's memory. After a timeout or a protocol error the stream is out of
step, so the controller marks itself *broken* and refuses further commands;
callers start a fresh engine instead.

>>> import asyncio, sys
>>> async def ask() -> str:
...     script = "import sys\\nfor line in sys.stdin:\\n    print('= 2\\\\n', flush=True)"
...     async with await GtpController.start([sys.executable, "-c", script]) as engine:
...         return await engine.send("protocol_version")
>>> asyncio.run(ask())
'2'
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
from dataclasses import dataclass
from typing import Callable

from stargtp.protocol.framing import INTERRUPT_LINE

DEFAULT_COMMAND_TIMEOUT = 10.0
"""Seconds allowed for an ordinary command's complete answer."""

DEFAULT_MAX_RESPONSE_BYTES = 1 << 20
"""Longest answer accepted (1 MiB); anything longer is a protocol error."""

STDERR_TAIL_BYTES = 4096
"""How much of an engine's recent stderr is kept for fault reports."""

EXIT_REPORT_SECONDS = 2.0
"""How long a subprocess whose output ended may take to exit, so the error can
say how it ended (``exited with status 3``) rather than only that its output
closed. An engine that dies exits at once; only one that closes its output and
keeps running costs this wait, once."""

STDERR_DRAIN_SECONDS = 5.0
"""How long :meth:`GtpController.close` waits, after the engine exited, for its
remaining stderr to be read (ends at once unless a stray process holds the
pipe)."""

_READ_CHUNK = 65536
_ID_PATTERN = re.compile(r"\d+")
# Characters that would change the framing of the line we send.
_FORBIDDEN_IN_COMMAND = re.compile(r"[\x00-\x08\x0a-\x1f\x7f#]")


class ControllerError(Exception):
    """Base class of everything :class:`GtpController` raises about an engine."""


class TransportError(ControllerError):
    """The engine could not be started or reached, died, or closed the stream."""


class ResponseTimeout(TransportError):
    """No complete answer arrived before the deadline."""


class ProtocolError(ControllerError):
    """The engine's output is not a well-formed protocol response."""


class _EndOfStream(Exception):
    """Internal: the engine's output ended or its input is closed."""


class EngineError(ControllerError):
    """The engine answered with a failure (``? message``)."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"{command!r} failed: {message}")
        self.command = command
        self.message = message
        """The text after ``?``, e.g. ``illegal move``."""


@dataclass(frozen=True)
class EngineSpec:
    """How to reach one engine: a command line to start, or a TCP address.

    >>> EngineSpec.parse("tcp:localhost:5000").address
    ('localhost', 5000)
    >>> EngineSpec.parse("stargtp serve --player random").argv
    ('stargtp', 'serve', '--player', 'random')
    """

    text: str
    """What the user wrote: a shell-style command line or ``tcp:HOST:PORT``."""
    argv: tuple[str, ...] | None = None
    address: tuple[str, int] | None = None

    @classmethod
    def parse(cls, text: str) -> "EngineSpec":
        """Read a command line (split like a POSIX shell) or ``tcp:HOST:PORT``
        (``tcp:[::1]:PORT`` for IPv6). ValueError on an empty command or a bad
        address."""
        text = text.strip()
        if text.lower().startswith("tcp:"):
            host, sep, port_text = text[4:].rpartition(":")
            if host.startswith("[") and host.endswith("]"):
                host = host[1:-1]
            if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
                raise ValueError(f"bad engine address {text!r}: expected tcp:HOST:PORT")
            return cls(text=text, address=(host, int(port_text)))
        try:
            argv = tuple(shlex.split(text))
        except ValueError as error:  # an unbalanced quote
            raise ValueError(f"cannot split the command {text!r} like a shell would: {error}") from None
        if not argv:
            raise ValueError("empty engine command")
        return cls(text=text, argv=argv)

    @property
    def is_tcp(self) -> bool:
        return self.address is not None


def _describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "engine closed its output"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"engine was killed by {name}"
    return f"engine exited with status {returncode}"


def _preview(data: bytes | str, limit: int = 80) -> str:
    """The start of an engine's output, quoted, newlines and other control
    characters escaped once (``'1 name\\n'``)."""
    text = data.decode("utf-8", "replace") if isinstance(data, (bytes, bytearray)) else data
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


class GtpController:
    """One engine connection. Create it with :meth:`start`, :meth:`connect` or
    :meth:`open`; use it as an async context manager or call :meth:`close`.

    Commands are sent one at a time (an internal lock serialises callers) with
    increasing ids; an answer carrying another id is a protocol error, an
    answer without an id is accepted, since some engines never echo ids.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        process: asyncio.subprocess.Process | None = None,
        description: str = "engine",
        command_timeout: float = DEFAULT_COMMAND_TIMEOUT,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        on_stderr_line: Callable[[str], None] | None = None,
        on_traffic: Callable[[str, str], None] | None = None,
    ) -> None:
        self.description = description
        self.on_traffic = on_traffic
        """Called with ``(">", command line)`` for every line sent and ``("<",
        answer)`` for every complete answer read (a debug log); may be set later."""
        self.command_timeout = command_timeout
        self.max_response_bytes = max_response_bytes
        self._reader = reader
        self._writer = writer
        self._process = process
        self._buffer = bytearray()
        self._next_id = 1
        self._lock = asyncio.Lock()
        self._broken: str | None = None
        self._closed = False
        self._known: dict[str, bool] = {}
        self._stderr_tail = bytearray()
        self._on_stderr_line = on_stderr_line
        self._stderr_task: asyncio.Task[None] | None = None
        if process is not None and process.stderr is not None:
            self._stderr_task = asyncio.get_running_loop().create_task(self._drain_stderr(process.stderr))

    # -- construction --------------------------------------------------------
    @classmethod
    async def start(
        cls,
        argv: list[str] | tuple[str, ...],
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        **options,
    ) -> "GtpController":
        """Start ``argv`` as a subprocess in its own process group (so closing
        it also ends any worker processes it spawned). TransportError when the
        program cannot be started."""
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        except (OSError, ValueError) as error:
            raise TransportError(f"cannot start engine {shlex.join(argv)}: {error}") from error
        assert process.stdout is not None and process.stdin is not None
        return cls(process.stdout, process.stdin, process=process,
                   description=options.pop("description", shlex.join(argv)), **options)

    @classmethod
    async def connect(cls, host: str, port: int, *, connect_timeout: float = 10.0, **options) -> "GtpController":
        """Connect to a server that speaks the protocol on TCP."""
        try:
            async with asyncio.timeout(connect_timeout):
                reader, writer = await asyncio.open_connection(host, port)
        except TimeoutError as error:
            raise TransportError(f"cannot connect to {host}:{port}: timed out") from error
        except OSError as error:
            raise TransportError(f"cannot connect to {host}:{port}: {error}") from error
        return cls(reader, writer, description=options.pop("description", f"tcp:{host}:{port}"), **options)

    @classmethod
    async def open(cls, spec: EngineSpec, **options) -> "GtpController":
        """Start or connect to the engine ``spec`` describes."""
        options.setdefault("description", spec.text)
        if spec.address is not None:
            return await cls.connect(*spec.address, **options)
        assert spec.argv is not None
        return await cls.start(spec.argv, **options)

    async def __aenter__(self) -> "GtpController":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- state ---------------------------------------------------------------
    @property
    def broken(self) -> str | None:
        """Why the controller refuses further commands, or None while usable."""
        return self._broken

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        return self._process.returncode if self._process is not None else None

    def stderr_tail(self) -> str:
        """The last few KiB the engine wrote to stderr (subprocesses only)."""
        return self._stderr_tail.decode("utf-8", "replace")

    # -- commands ------------------------------------------------------------
    async def send(self, command: str, *, timeout: float | None = None) -> str:
        """Send one command line and return the answer's text (after ``=`` and
        the id; multi-line answers keep their inner lines).

        ``timeout`` (default :attr:`command_timeout`) bounds the whole exchange:
        writing the command and reading the complete answer. ValueError if
        ``command`` contains a newline, a control character or ``#``.
        """
        if _FORBIDDEN_IN_COMMAND.search(command) or not command.strip():
            raise ValueError(f"not a single command line: {command!r}")
        async with self._lock:
            if self._closed:
                raise TransportError(f"{self.description}: controller is closed")
            if self._broken is not None:
                raise TransportError(f"{self.description}: unusable after an earlier error: {self._broken}")
            command_id = self._next_id
            self._next_id += 1
            limit = self.command_timeout if timeout is None else timeout
            try:
                async with asyncio.timeout(max(limit, 0.0)):
                    line = f"{command_id} {command}"
                    if self.on_traffic is not None:
                        self.on_traffic(">", line)
                    await self._write(f"{line}\n".encode())
                    status, answer_id, text = await self._read_response()
            except _EndOfStream:
                # Outside the deadline: a dying engine gets a moment to report its exit.
                self._broken = await self._exit_reason() or "engine closed its output"
                raise TransportError(f"{self.description}: {self._broken}") from None
            except TimeoutError:
                self._broken = f"no complete answer to {command.split()[0]!r} within {limit:g} s"
                raise ResponseTimeout(f"{self.description}: {self._broken}") from None
            except TransportError as error:
                self._broken = str(error)
                raise
            except ProtocolError as error:
                self._broken = str(error)
                raise
            except asyncio.CancelledError:
                # Abandoned mid-exchange: the answer may still arrive later.
                self._broken = f"{command.split()[0]!r} was cancelled before its answer"
                raise
            if answer_id is not None and answer_id != command_id:
                self._broken = f"answer id {answer_id} does not match command id {command_id}"
                raise ProtocolError(f"{self.description}: {self._broken}")
            if status == "?":
                raise EngineError(command, text)
            return text

    def interrupt(self) -> None:
        """Write GoGui's ``# interrupt`` line now, even while a command waits
        for its answer: a server that supports it (``gogui-interrupt``) makes
        the running command answer at once (``genmove`` with its best move so
        far); to any other engine it is a comment. Nothing is read, and nothing
        happens once the controller is closed or broken."""
        if self._closed or self._broken is not None or self._writer.is_closing():
            return
        if self.on_traffic is not None:
            self.on_traffic(">", INTERRUPT_LINE.decode())
        try:
            self._writer.write(INTERRUPT_LINE + b"\n")
        except (ConnectionError, OSError, RuntimeError):
            pass  # the next command finds the engine gone

    async def known_command(self, name: str) -> bool:
        """Ask ``known_command name`` once and remember the answer; an engine
        that fails the question is taken not to know the command."""
        if name not in self._known:
            try:
                self._known[name] = (await self.send(f"known_command {name}")).strip().lower() == "true"
            except EngineError:
                self._known[name] = False
        return self._known[name]

    async def _write(self, data: bytes) -> None:
        if self._writer.is_closing():
            raise _EndOfStream()
        try:
            self._writer.write(data)
            await self._writer.drain()
        except (ConnectionError, BrokenPipeError, OSError, RuntimeError):
            raise _EndOfStream() from None

    async def _read_response(self) -> tuple[str, int | None, str]:
        """Read until one complete response is in the buffer and take it out."""
        while True:
            self._drop_leading_blank_lines()
            end = self._buffer.find(b"\n\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[:end + 2]
                if self.on_traffic is not None:
                    self.on_traffic("<", raw.decode("utf-8", "replace"))
                return self._parse(raw)
            if self._buffer and self._buffer[0:1] not in (b"=", b"?", b" ", b"\t"):
                # Fail fast: waiting for the blank line would only hide the fault.
                # (Leading spaces may still turn out to be a blank line.)
                raise ProtocolError(f"{self.description}: answer does not start with '=' or '?': "
                                    f"{_preview(self._buffer)}")
            if len(self._buffer) > self.max_response_bytes:
                raise ProtocolError(f"{self.description}: answer longer than {self.max_response_bytes} bytes")
            try:
                chunk = await self._reader.read(_READ_CHUNK)
            except (ConnectionError, OSError) as error:
                raise TransportError(f"{self.description}: {error}") from error
            if not chunk:
                raise _EndOfStream()
            # Protocol preprocessing on the controller side: CR is noise.
            self._buffer += chunk.replace(b"\r", b"")

    def _drop_leading_blank_lines(self) -> None:
        """Blank (or all-space) lines between answers carry nothing; tolerate them."""
        while True:
            newline = self._buffer.find(b"\n")
            if newline < 0 or self._buffer[:newline].strip(b" \t"):
                return
            del self._buffer[:newline + 1]

    def _parse(self, raw: bytes) -> tuple[str, int | None, str]:
        text = raw.decode("utf-8", "replace")
        status = text[:1]
        if status not in ("=", "?"):
            raise ProtocolError(f"{self.description}: answer does not start with '=' or '?': {_preview(text)}")
        rest = text[1:]
        match = _ID_PATTERN.match(rest)
        answer_id = None
        if match:
            answer_id = int(match.group())
            rest = rest[match.end():]
        if rest and rest[0] not in " \t\n":
            raise ProtocolError(f"{self.description}: malformed answer {_preview(text)}")
        return status, answer_id, rest.strip()

    async def _exit_reason(self) -> str | None:
        """For a subprocess that is gone (or going), say how it ended."""
        if self._process is None:
            return None
        try:
            async with asyncio.timeout(EXIT_REPORT_SECONDS):
                await self._process.wait()
        except TimeoutError:
            return None
        return _describe_exit(self._process.returncode)

    async def _drain_stderr(self, stream: asyncio.StreamReader) -> None:
        pending = bytearray()
        while True:
            try:
                chunk = await stream.read(_READ_CHUNK)
            except (ConnectionError, OSError):
                return
            if not chunk:
                break
            self._stderr_tail += chunk
            del self._stderr_tail[:-STDERR_TAIL_BYTES]
            if self._on_stderr_line is not None:
                pending += chunk
                *lines, rest = pending.split(b"\n")
                pending = bytearray(rest[-STDERR_TAIL_BYTES:])
                for line in lines:
                    self._forward_stderr(line[:STDERR_TAIL_BYTES].decode("utf-8", "replace").rstrip("\r"))
        if pending and self._on_stderr_line is not None:
            self._forward_stderr(pending.decode("utf-8", "replace"))

    def _forward_stderr(self, line: str) -> None:
        assert self._on_stderr_line is not None
        try:
            self._on_stderr_line(line)
        except Exception:  # a failing sink must not stop the draining
            self._on_stderr_line = None

    # -- shutdown ------------------------------------------------------------
    async def close(self, *, timeout: float = 2.0) -> None:
        """Say ``quit`` if the engine is still in step, then make sure it is gone:
        a subprocess that answered ``quit`` gets ``timeout`` seconds to exit
        (one that is out of step gets none) before its whole process group is
        sent SIGTERM, and two seconds later SIGKILL. Safe to call more than once."""
        if self._closed:
            return
        said_quit = False
        if self._broken is None:
            try:
                await self.send("quit", timeout=timeout)
                said_quit = True
            except ControllerError:
                pass
        self._closed = True
        try:
            self._writer.close()
        except (ConnectionError, OSError, RuntimeError):
            pass
        if self._process is not None:
            # An engine out of step (hung, flooding) is not waited for.
            await self._end_process(timeout if said_quit else 0.0)
            if self._stderr_task is not None:
                try:
                    async with asyncio.timeout(STDERR_DRAIN_SECONDS):
                        await self._stderr_task
                except TimeoutError:
                    self._stderr_task.cancel()
        else:
            try:
                async with asyncio.timeout(timeout):
                    await self._writer.wait_closed()
            except (TimeoutError, ConnectionError, OSError):
                pass

    async def _end_process(self, timeout: float) -> None:
        process = self._process
        assert process is not None
        for sig, grace in ((None, timeout), (signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
            if sig is not None:
                try:
                    os.killpg(process.pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                async with asyncio.timeout(grace):
                    await process.wait()
            except TimeoutError:
                continue
            break
        if process.returncode is not None:
            # The leader is gone; take its process group (search workers) along.
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        # Read stdout to its end so asyncio sees the pipe close and releases
        # the transport (a reader paused on a flood would otherwise keep it).
        self._buffer.clear()
        try:
            async with asyncio.timeout(1.0):
                while await self._reader.read(_READ_CHUNK):
                    pass
        except (TimeoutError, ConnectionError, OSError):
            pass
