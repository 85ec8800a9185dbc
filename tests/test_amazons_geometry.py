"""Amazons board geometry: sizes, square names, start squares, ray tables."""

import pytest

from stargtp.engine.amazons import geometry
from stargtp.engine.amazons.geometry import DIRECTIONS
from stargtp.engine.bits import iter_bits
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import BadSize, IllegalMove


@pytest.mark.parametrize("size", [0, 1, 4, 5, 7, 9, 11, 12, -10, "10", 10.0, True, None])
def test_bad_sizes(size):
    with pytest.raises(BadSize):
        geometry(size)


def test_default_size_is_ten():
    assert geometry().size == 10 and geometry().square_count == 100


def test_square_numbering_and_names():
    g = geometry(10)
    assert g.square_name(0) == "a1" and g.square_name(9) == "j1"
    assert g.square_name(10) == "a2" and g.square_name(99) == "j10"
    assert g.square_name(g.square(8, 4)) == "i5"  # the i file exists
    assert [g.parse_square(t) for t in ("a1", "J10", " d1 ", "I5")] == [0, 99, 3, 48]
    assert all(g.parse_square(g.square_name(s)) == s for s in range(100))
    assert g.column(48) == 8 and g.row(48) == 4
    assert geometry(6).square_name(35) == "f6"


@pytest.mark.parametrize("text", ["", "a", "1", "a0", "a01", "k1", "a11", "z3", "aa", "1a",
                                  "a-1", "a1.", "a²", "a 1"])
def test_bad_square_names(text):
    with pytest.raises(IllegalMove):
        geometry(10).parse_square(text)


@pytest.mark.parametrize("size, text", [(10, "k1"), (10, "z3"), (10, "d11"), (8, "i1"), (8, "a9"),
                                        (6, "g1"), (6, "a7")])
def test_squares_off_small_boards(size, text):
    with pytest.raises(IllegalMove, match="off the"):
        geometry(size).parse_square(text)


def test_start_squares():
    names = {size: {colour: sorted(geometry(size).square_name(s) for s in geometry(size).start[colour])
                    for colour in (WHITE, BLACK)} for size in (6, 8, 10)}
    assert names[10] == {WHITE: ["a4", "d1", "g1", "j4"], BLACK: ["a7", "d10", "g10", "j7"]}
    assert names[8] == {WHITE: ["a3", "c1", "f1", "h3"], BLACK: ["a6", "c8", "f8", "h6"]}
    assert names[6] == {WHITE: ["a2", "b1", "e1", "f2"], BLACK: ["a5", "b6", "e6", "f5"]}


@pytest.mark.parametrize("size", [6, 8, 10])
def test_ray_tables(size):
    g = geometry(size)
    for d in range(8):
        assert DIRECTIONS[d ^ 1] == (-DIRECTIONS[d][0], -DIRECTIONS[d][1])
        # Even directions point to higher square numbers.
        assert (g.steps[d] > 0) == (d % 2 == 0)
    for square in range(g.square_count):
        c, r = g.column(square), g.row(square)
        for d, (dc, dr) in enumerate(DIRECTIONS):
            expected = []
            k = 1
            while g.on_board(c + k * dc, r + k * dr):
                expected.append(g.square(c + k * dc, r + k * dr))
                k += 1
            ray = g.rays[square * 8 + d]
            assert list(ray) == expected
            assert g.sentinel_rays[square * 8 + d] == ray + (g.square_count,)
            assert list(iter_bits(g.ray_masks[square * 8 + d])) == sorted(expected)
        neighbours = sorted(g.square(c + dc, r + dr) for dc, dr in DIRECTIONS
                            if g.on_board(c + dc, r + dr))
        assert list(iter_bits(g.king_masks[square])) == neighbours


@pytest.mark.parametrize("size", [6, 8, 10])
def test_landing_masks_stop_wrapping(size):
    g = geometry(size)
    for d, (dc, dr) in enumerate(DIRECTIONS):
        for square in range(g.square_count):
            c, r = g.column(square), g.row(square)
            shifted = (1 << square) << g.steps[d] if g.steps[d] > 0 else (1 << square) >> -g.steps[d]
            landed = shifted & g.landing_masks[d] & g.full_mask
            if g.on_board(c + dc, r + dr):
                assert landed == 1 << g.square(c + dc, r + dr)
            else:
                assert landed == 0
