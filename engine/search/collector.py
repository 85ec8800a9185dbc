"""The cyclic garbage collector paused while a tree search runs.

A tree search allocates tens of thousands of long-lived containers (nodes,
their child lists and dictionaries), and every few hundred of them set off
a collection that walks the young ones, every ten of those one that walks
more, and now and then a full one over the whole tree: about 6% of an
Amazons search's CPU time (docs/performance.md), all of it spent finding
nothing, since the tree has no reference cycles (a parent holds its
children, never the reverse) and is freed by reference counting.

:func:`collector_paused` turns the automatic collector off for the length
of a ``with`` block and back on after it, if it was on before the first of
the blocks that are open at once (searches in several threads of one
process nest correctly; the collector comes back when the last one ends).
Garbage with cycles made meanwhile, by this thread or another, is not lost,
only collected later: the first collection after the pause takes it.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_open = 0
"""How many ``collector_paused`` blocks are running now."""
_resume = False
"""Whether the collector was on when the first of them began."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """The automatic garbage collector off inside the block (see the module
    docstring).

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    global _open, _resume
    with _lock:
        if _open == 0:
            _resume = gc.isenabled()
            gc.disable()
        _open += 1
    try:
        yield
    finally:
        with _lock:
            _open -= 1
            if _open == 0 and _resume:
                if not gc.get_freeze_count():
                    # Straight to the oldest generation, without a walk (both
                    # are list splices): else the first collection after the
                    # pause would walk everything made during it at once.
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()
