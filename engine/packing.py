"""Several one-board bit masks side by side in one Python int: the packing
of the batched playouts.

A batched playout kernel runs K playouts of one board together by giving
each board a *field* of ``stride`` bits in one integer (board ``j``'s mask
shifted up by ``j * stride``), so that every shift, and, or of a flood step
serves all K boards at the cost of one. What the fields hold, and why a
neighbour shift never carries a board's bit into the next field (a spare
row at the top of each field, every mask cut back to cells), is the game's
business; this module only does the packing arithmetic, the same for every
game:

- :attr:`Packing.repeat`, :meth:`Packing.spread`: one board's mask copied
  into every field (a multiplication);
- :meth:`Packing.join`: K masks, one a field;
- :meth:`Packing.split`: a packed int back to K one-board masks, each cut
  to a mask;
- the *guard* of each field, its top bit, which a game leaves empty:
  ``(x + ones) & guards`` (:attr:`Packing.ones`, :attr:`Packing.guards`)
  has the guard of each field where ``x``, held below the guards, is not
  zero (:meth:`Packing.nonzero`).

A kernel's loops over the boards of a pack write :meth:`Packing.split` and
:meth:`Packing.join` out (``packed >> offset & mask`` over
:attr:`Packing.offsets`, beside the board's own work), and its flood steps
the guards expression: in Python 3.11 a call and a list comprehension a
pack cost more than the loop (4.5% of a Hex batch's instructions when Hex
called ``split`` instead, 1.9% of a *Star pack's), as ``engine/bits.py``'s
users write its loop out.

Its users: the *Star kernel (``engine/star/batch.py``: black's floods of
several boards, the guards telling which fields' groups still grow) and the
Hex and Y kernel (``engine/connection/playout.py``, ``Pack``: the fill,
the bridge search and the winner's floods of several boards).
``tests/test_packing.py`` checks every operation against bit-by-bit loops.
"""

from __future__ import annotations

from collections.abc import Iterable


class Packing:
    """``count`` fields of ``stride`` bits in one int, field ``j`` at bit
    ``j * stride``; ``board``, a one-board mask below the field's top bit
    (the guard), is what :meth:`split` cuts to unless told otherwise."""

    __slots__ = ("stride", "count", "width", "offsets", "repeat", "field", "ones", "guards", "board",
                 "cells")

    def __init__(self, stride: int, count: int, board: int) -> None:
        if board >> (stride - 1):
            raise ValueError("the board mask reaches the guard bit of its field")
        self.stride = stride
        self.count = count
        self.width = stride * count
        """Bits of the whole pack."""
        self.offsets = tuple(j * stride for j in range(count))
        """The lowest bit of each field."""
        self.repeat = sum(1 << offset for offset in self.offsets)
        """Multiplying a one-board mask (of at most ``stride`` bits) by this
        copies it into every field."""
        self.field = (1 << (stride - 1)) - 1
        """Every bit of one field below its guard."""
        self.ones = self.field * self.repeat
        """:attr:`field` in every field."""
        self.guards = self.repeat << (stride - 1)
        """The guard (top) bit of every field."""
        self.board = board
        self.cells = board * self.repeat
        """:attr:`board` in every field."""

    def spread(self, mask: int) -> int:
        """One board's ``mask`` in every field."""
        return mask * self.repeat

    def join(self, masks: Iterable[int]) -> int:
        """The packed int of one one-board mask a field, the first mask in
        the lowest field (fewer masks than fields: the rest stay empty)."""
        packed = 0
        for mask, offset in zip(masks, self.offsets):
            packed |= mask << offset
        return packed

    def split(self, packed: int, mask: int | None = None) -> list[int]:
        """The one-board masks of every field of ``packed``, each cut to
        ``mask`` (by default :attr:`board`)."""
        if mask is None:
            mask = self.board
        return [packed >> offset & mask for offset in self.offsets]

    def nonzero(self, packed: int) -> int:
        """The guard of each field where ``packed`` (no bit on a guard) has
        a bit: adding a field's ``ones`` to a nonzero field carries into its
        guard, and to a zero field does not."""
        return (packed + self.ones) & self.guards
