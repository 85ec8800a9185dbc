"""The stdin/stdout transport: one session on the server's own streams.

stdin is read through asyncio when it is a pipe or socket (a thread
otherwise); every response is written to stdout at once, whole.
"""

from __future__ import annotations

import asyncio
import os
import select
import stat
import sys
import threading
from typing import BinaryIO

from stargtp.protocol.server.conversation import Conversation
from stargtp.protocol.server.session import Session, SessionConfig
from stargtp.protocol.signals import add_signal_handlers, remove_signal_handlers


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


async def serve_stdio(config: SessionConfig, stdin: BinaryIO | None = None,
                      stdout: BinaryIO | None = None) -> int:
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

    session = Session(config)
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
    handled = add_signal_handlers(loop, finish)
    # The one controller of this server will surely search. Its workers start
    # before its first line is read: the wait delays the first answers, which
    # no clock times, instead of the first genmove, which a clock does.
    session.search.prepare_workers()
    await session.search.workers_ready(finished)
    if finished.done():
        pass  # a signal came first
    elif _is_watchable(in_fd):
        reader_transport, _ = await loop.connect_read_pipe(lambda: _PipeReader(conversation), stdin)
    else:
        thread_reader = _ThreadReader(loop, in_fd, conversation)

    try:
        await finished
    finally:
        remove_signal_handlers(loop, handled)
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
