"""Bitboards as Python ints: the one helper that walks their set bits.

Hot loops inline the same two lines (``low = mask & -mask``) where a call per
bit would cost too much; everything else uses :func:`iter_bits`, or
:func:`bit_list` where a list is wanted.
"""

from __future__ import annotations

from collections.abc import Iterator


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
