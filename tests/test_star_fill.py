"""``random_fill`` (engine/star/playout.py) against the plain version it
replaced, ``rng.choices`` batches looked at one candidate at a time: the
same cells and the same random numbers drawn, so every seeded playout and
search stays the same."""

import random

import pytest

from stargtp.engine.star.geometry import MAX_RINGS, MIN_RINGS, layout
from stargtp.engine.star.playout import random_fill


def plain_random_fill(empty, first_share, lay, rng):
    count = empty.bit_count()
    if count <= lay.small_fill:
        cells = [bit for bit in lay.bit_of if empty & bit]
        cells.sort()
        chosen = 0
        for low in rng.sample(cells, first_share):
            chosen |= low
        return chosen
    chosen = rng.getrandbits(lay.bits) & empty
    have = chosen.bit_count()
    while have > first_share:
        for low in rng.choices(lay.bit_of, k=2 * (have - first_share) + 2):
            if chosen & low:
                chosen ^= low
                have -= 1
                if have == first_share:
                    break
    while have < first_share:
        for low in rng.choices(lay.bit_of, k=2 * (first_share - have) + 2):
            if empty & low and not chosen & low:
                chosen |= low
                have += 1
                if have == first_share:
                    break
    return chosen


@pytest.mark.parametrize("rings", range(MIN_RINGS, MAX_RINGS + 1))
def test_the_same_fills_from_the_same_random_numbers(rings):
    lay = layout(rings)
    cases = random.Random(rings)
    fast, plain = random.Random(50 + rings), random.Random(50 + rings)
    probe = random.Random()
    seen = {"drop": 0, "add": 0}
    for i in range(400):
        empty = lay.board if i % 4 == 0 else lay.board & cases.getrandbits(lay.bits)
        count = empty.bit_count()
        share = (count + 1) // 2 if i % 2 else cases.randrange(count + 1)
        if count > lay.small_fill:
            probe.setstate(fast.getstate())
            first = (probe.getrandbits(lay.bits) & empty).bit_count()
            if first != share:
                seen["drop" if first > share else "add"] += 1
        got = random_fill(empty, share, lay, fast)
        assert got == plain_random_fill(empty, share, lay, plain)
        assert got & ~empty == 0 and got.bit_count() == share
        assert fast.getstate() == plain.getstate()
    if lay.board.bit_count() > 2 * lay.small_fill:
        assert seen["drop"] > 20 and seen["add"] > 20
