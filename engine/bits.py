"""Bitboards as Python ints: the one helper that walks their set bits, and
the end of a uniformly random fill (:func:`settle`), which every game's
playouts share.

Hot loops inline the same two lines (``low = mask & -mask``) where a call per
bit would cost too much; everything else uses :func:`iter_bits`, or
:func:`bit_list` where a list is wanted.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import repeat
from math import floor


def iter_bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first.

    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    """The same positions as a list: quicker than ``list(iter_bits(mask))``,
    for the searches' move lists.

    >>> bit_list(0b10110)
    [1, 2, 4]
    """
    positions = []
    append = positions.append
    while mask:
        low = mask & -mask
        append(low.bit_length() - 1)
        mask ^= low
    return positions


def settle(chosen: int, have: int, mask: int, count: int, cell_bits: tuple[int, ...],
           rng: random.Random) -> int:
    """``chosen`` (``have`` of the set bits of ``mask``) with cells drawn
    uniformly from ``cell_bits`` dropped or added until it holds ``count``:
    the end of a uniformly random fill, for every game's playouts.

    Candidates are drawn uniformly from all cells in batches, as
    ``rng.choices(cell_bits, k=2 * gap + 2)`` would draw them, and misses are
    skipped, so each accepted pick is uniform over the cells that qualify.
    The batch is written out (``cell_bits[floor(random() * n)]``, one draw
    at a time, the batch's draws left after the count is right drawn at its
    end): the same random numbers and cells as ``rng.choices``, without the
    list. Cells are added by taking them out of the free cells of ``mask``.

    >>> settle(0b1111, 4, 0b1111, 2, (1, 2, 4, 8), random.Random(1)).bit_count()
    2
    """
    if have == count:
        return chosen
    draw, n = rng.random, float(len(cell_bits))
    if have > count:
        while have > count:
            batch = repeat(None, 2 * (have - count) + 2)
            for _ in batch:
                low = cell_bits[floor(draw() * n)]
                if chosen & low:
                    chosen ^= low
                    have -= 1
                    if have == count:
                        break
            for _ in batch:
                draw()
        return chosen
    free = mask & ~chosen
    while have < count:
        batch = repeat(None, 2 * (count - have) + 2)
        for _ in batch:
            low = cell_bits[floor(draw() * n)]
            if free & low:
                free ^= low
                have += 1
                if have == count:
                    break
        for _ in batch:
            draw()
    return mask & ~free
