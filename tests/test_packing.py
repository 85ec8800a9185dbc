"""engine/packing.py against slow references that move one bit at a time,
on seeded random masks, several strides and field counts."""

import random

import pytest

from stargtp.engine.packing import Packing

SHAPES = [(stride, count) for stride in (2, 3, 9, 31, 64, 65, 200) for count in (1, 2, 3, 6, 8)]


def bit(mask: int, i: int) -> int:
    return mask >> i & 1


def slow_join(masks, stride):
    packed = 0
    for j, mask in enumerate(masks):
        for i in range(stride):
            if bit(mask, i):
                packed |= 1 << (j * stride + i)
    return packed


def slow_split(packed, stride, count, cut):
    out = []
    for j in range(count):
        mask = 0
        for i in range(stride):
            if bit(packed, j * stride + i) and bit(cut, i):
                mask |= 1 << i
        out.append(mask)
    return out


def slow_nonzero(packed, stride, count):
    guards = 0
    for j in range(count):
        if any(bit(packed, j * stride + i) for i in range(stride - 1)):
            guards |= 1 << (j * stride + stride - 1)
    return guards


def below_guard(rng, stride):
    """A random mask of one field's bits below its guard, sometimes empty or
    full, so that the carries of ``nonzero`` meet both ends."""
    kind = rng.randrange(4)
    if kind == 0:
        return 0
    if kind == 1:
        return (1 << (stride - 1)) - 1
    return rng.getrandbits(stride - 1)


@pytest.mark.parametrize("stride,count", SHAPES)
def test_constants_are_the_bits_they_name(stride, count):
    rng = random.Random(stride * 101 + count)
    board = rng.getrandbits(stride - 1)
    p = Packing(stride, count, board)
    assert (p.stride, p.count, p.width) == (stride, count, stride * count)
    assert p.offsets == tuple(range(0, stride * count, stride))
    assert p.repeat == slow_join([1] * count, stride)
    assert p.field == slow_join([(1 << (stride - 1)) - 1], stride)
    assert p.ones == slow_join([p.field] * count, stride)
    assert p.guards == slow_join([1 << (stride - 1)] * count, stride)
    assert p.ones & p.guards == 0 and (p.ones | p.guards) == (1 << p.width) - 1
    assert p.board == board and p.cells == slow_join([board] * count, stride)


@pytest.mark.parametrize("stride,count", SHAPES)
def test_spread_join_split_nonzero_equal_the_bit_loops(stride, count):
    rng = random.Random(stride * 7 + count)
    board = rng.getrandbits(stride - 1)
    p = Packing(stride, count, board)
    for _ in range(20):
        one = rng.getrandbits(stride)
        assert p.spread(one) == slow_join([one] * count, stride)
        masks = [rng.getrandbits(stride) for _ in range(count)]
        packed = p.join(masks)
        assert packed == slow_join(masks, stride)
        assert p.split(packed, (1 << stride) - 1) == masks
        short = masks[:rng.randint(0, count)]  # a short pack: the other fields stay empty
        assert p.join(short) == slow_join(short, stride)
        anything = rng.getrandbits(p.width + 5)  # bits above the last field are ignored
        cut = rng.getrandbits(stride)
        assert p.split(anything, cut) == slow_split(anything, stride, count, cut)
        assert p.split(anything) == slow_split(anything, stride, count, board)
        fields = [below_guard(rng, stride) for _ in range(count)]
        below = p.join(fields)
        assert p.nonzero(below) == slow_nonzero(below, stride, count)
        assert (below + p.ones) & p.guards == p.nonzero(below)


def test_the_board_mask_stays_below_the_guard():
    Packing(10, 3, (1 << 9) - 1)
    with pytest.raises(ValueError):
        Packing(10, 3, 1 << 9)
