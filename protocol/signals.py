"""Ending a program cleanly on SIGINT and SIGTERM, the one way every tool does it."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable


def add_signal_handlers(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> list[int]:
    """Call ``callback`` on SIGINT and SIGTERM (where the loop can); returns
    the signals handled, for :func:`remove_signal_handlers`."""
    handled = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, callback)
            handled.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread, or a platform without signals in asyncio
    return handled


def remove_signal_handlers(loop: asyncio.AbstractEventLoop, handled: list[int]) -> None:
    for signum in handled:
        loop.remove_signal_handler(signum)
