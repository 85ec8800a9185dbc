"""The board figures of the rules page (shared/rules/star.md)."""

import collections

import pytest

from stargtp.engine.errors import BadSize, IllegalMove
from stargtp.engine.star import geometry
from tests.star_reference import reference_neighbours

ALL_RINGS = range(2, 11)


@pytest.mark.parametrize("rings,cells,peri,edges", [
    (4, 50, 20, 130), (6, 105, 30, 285), (8, 180, 40, 500), (10, 275, 50, 775)])
def test_published_counts(rings, cells, peri, edges):
    g = geometry(rings)
    assert g.cell_count == cells
    assert len(g.perimeter) == peri
    assert g.edge_count() == edges


@pytest.mark.parametrize("n", ALL_RINGS)
def test_counts_follow_the_formulas(n):
    g = geometry(n)
    assert g.cell_count == 5 * n * (n + 1) // 2
    assert len(g.perimeter) == 5 * n
    assert g.edge_count() == 5 * n * (3 * n + 1) // 2
    assert [g.ring_of[c] for c in g.perimeter] == [n] * (5 * n)
    assert [g.labels[c] for c in g.corners] == [f"{a}{n % 10}0" for a in "*STAR"]


@pytest.mark.parametrize("n", ALL_RINGS)
def test_degree_histogram(n):
    g = geometry(n)
    degrees = collections.Counter()
    for c in range(g.cell_count):
        if g.is_corner[c]:
            kind = "corner"
        elif g.is_peri[c]:
            kind = "peri"
        elif g.ring_of[c] == 1:
            kind = "ring1"
        else:
            kind = "inner"
        degrees[kind, len(g.neighbours[c])] += 1
    expected = {("corner", 3): 5, ("peri", 4): 5 * n - 5, ("ring1", 7): 5,
                ("inner", 6): g.cell_count - 5 * n - 5}
    assert degrees == {kind: count for kind, count in expected.items() if count}


@pytest.mark.parametrize("label,expected", [
    ("*10", "*20 *21 R21 S10 R10 A10 T10"),
    ("*20", "*10 *21 R21 *30 *31 R32"),
    ("*00", "*01 R09 *90"),
    ("*05", "*04 *06 *94 *95"),
    ("S50", "*54 *65 S40 S51 S60 S61"),
])
def test_sample_neighbours_on_the_full_board(label, expected):
    g = geometry(10)
    got = {g.labels[c] for c in g.neighbours[g.parse(label)]}
    assert got == set(expected.split())


@pytest.mark.parametrize("n", ALL_RINGS)
def test_adjacency_matches_the_rules_wording(n):
    g = geometry(n)
    ref = reference_neighbours(n)
    for c in range(g.cell_count):
        k, p = g.ring_of[c], g.position_of[c]
        assert {(g.ring_of[o], g.position_of[o]) for o in g.neighbours[c]} == ref[k, p]


def test_board_order_and_labels():
    g = geometry(3)
    assert " ".join(g.labels[5 + 10:5 + 10 + 15]) == (
        "*30 *31 *32 S30 S31 S32 T30 T31 T32 A30 A31 A32 R30 R31 R32")
    assert g.labels[:5] == ("*10", "S10", "T10", "A10", "R10")
    assert geometry(10).labels[-1] == "R09"  # ring 10 is written with the digit 0


@pytest.mark.parametrize("n", ALL_RINGS)
def test_labels_round_trip_in_any_case(n):
    g = geometry(n)
    for c, label in enumerate(g.labels):
        assert g.parse(label) == c
        assert g.parse(label.lower()) == c


@pytest.mark.parametrize("text", ["", "*", "S", "S4", "S44", "S50", "X10", "*1", "10", "S4 3", "S-1"])
def test_bad_labels_are_rejected(text):
    with pytest.raises(IllegalMove):
        geometry(4).parse(text)


def test_label_of_a_larger_board_is_rejected():
    assert geometry(10).parse("*90") >= 0
    with pytest.raises(IllegalMove):
        geometry(6).parse("*90")


@pytest.mark.parametrize("bad", [0, 1, 11, -3, "6", 6.0, None])
def test_bad_sizes(bad):
    with pytest.raises(BadSize):
        geometry(bad)


@pytest.mark.parametrize("n", ALL_RINGS)
def test_symmetries_preserve_adjacency(n):
    g = geometry(n)
    maps = g.symmetries()
    assert len(set(maps)) == 10
    edges = {(a, b) for a in range(g.cell_count) for b in g.neighbours[a]}
    for m in maps:
        assert sorted(m) == list(range(g.cell_count))
        assert {(m[a], m[b]) for a, b in edges} == edges
        assert {m[c] for c in g.perimeter} == set(g.perimeter)
        assert {m[c] for c in g.corners} == set(g.corners)
    rot, ref = g.rotation, g.reflection
    five = list(range(g.cell_count))
    for _ in range(5):
        five = [rot[c] for c in five]
    assert five == list(range(g.cell_count))
    assert [ref[ref[c]] for c in range(g.cell_count)] == list(range(g.cell_count))
    assert g.labels[rot[g.parse("*10")]] == "S10"
