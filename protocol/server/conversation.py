"""One session over one byte stream: lines in, responses out, in order.

A :class:`Conversation` turns a byte stream into lines and runs them against
one :class:`~stargtp.protocol.server.session.Session`: in input order, one at a time,
while still reading, so that ``# interrupt`` reaches a running search. It is
also the session's :class:`~stargtp.protocol.server.session.Client`: streaming
commands write through it and ask it whether input is waiting. Transports
(:mod:`stargtp.protocol.server.stdio`, :mod:`stargtp.protocol.server.tcp`) only move bytes.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

from stargtp.protocol.framing import Line, LineSplitter, gets_response, is_interrupt
from stargtp.protocol.server.session import Session

MAX_PENDING_LINES = 10_000
"""Lines queued behind a running command before reading pauses: a client that
floods the server during a search cannot make it buffer without bound. Reading
resumes at half this."""

BATCH_LINES = 256
"""Lines a conversation runs in one turn of the event loop before letting the
other sessions have theirs."""


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

    def feed(self, data: bytes) -> int:
        """Bytes from the client; returns how many commands they completed
        (lines that get a response: not empty, blank or comments only)."""
        if self.finished:
            return 0
        lines = self._splitter.feed(data)
        self._take(lines)
        return sum(1 for line in lines if gets_response(line))

    @property
    def partial_line(self) -> bool:
        """Part of a line has arrived and waits for its end."""
        return self._splitter.holding

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
        outcome = self.session.execute(line, self)
        if outcome.now is not None:
            self._send(outcome.now)
        elif outcome.later is not None:
            self._running = asyncio.ensure_future(self._complete(outcome.later))

    # -- what a streaming command sees (the session's Client) ----------------------

    def input_waiting(self) -> bool:
        """More lines are queued, or the input has ended: a streaming command
        (which ends on any new input) should stop."""
        return bool(self._pending) or self._end_of_input

    def write(self, text: str) -> None:
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
