"""The UCT iteration's shortcuts against their plain forms: the AMAF fields
of the used bits only, the unvisited slots' values by one int division, and
the full rescore's sort of the slots that can be among the best."""

from __future__ import annotations

import math
import random

import pytest

from stargtp.engine.search import Limits
from stargtp.engine.search import uct
from stargtp.engine.search.base import Budget
from stargtp.engine.search.uct import AmafPacker, Node, Tree, UctConfig, whole_equiv
from stargtp.engine.star import Position
from stargtp.engine.star.playout import layout


def test_a_packer_of_some_bits_counts_those_bits_by_position():
    rng = random.Random(3)
    lay = layout(6)
    packer = AmafPacker(lay.bits, lay.board)
    assert packer.fields == lay.board.bit_count() < lay.bits
    masks = [rng.getrandbits(lay.bits) for _ in range(40)]
    packed = sum(packer.spread(mask) * (i + 1) for i, mask in enumerate(masks))
    by_bit = packer.unpack(packed)
    by_field = packer.unpack_fields(packed)
    assert len(by_bit) == lay.bits and len(by_field) == packer.fields
    for bit in range(lay.bits):
        expected = sum(i + 1 for i, mask in enumerate(masks) if mask >> bit & 1) if lay.board >> bit & 1 else 0
        assert by_bit[bit] == expected
        if packer.field_of[bit] >= 0:
            assert by_field[packer.field_of[bit]] == expected
    assert list(packer.unpack_fields(packer.ones)) == [1] * packer.fields
    assert sorted(f for f in packer.field_of if f >= 0) == list(range(packer.fields))


def test_an_unvisited_slots_value_is_the_int_division():
    """For a whole E below 2**20 the short form of the blended value (and
    the full one with n = 0) is h1 / (2 r) bit for bit, up to 32-bit counts."""
    rng = random.Random(4)
    for e in (1.0, 3.0, 1000.0, 4096.0, 999_999.0, float((1 << 20) - 1)):
        assert whole_equiv(e)
        half_e = 0.5 * e
        for _ in range(3000):
            r = rng.choice((rng.randrange(1, 50), rng.randrange(1, 1 << 31), (1 << 31) - rng.randrange(1, 9)))
            h1 = rng.randrange(1, 2 * r + 1)
            t = e + r
            assert half_e * h1 / (e * r) == h1 / (2 * r) == (0.0 * t + half_e * h1) / (0 * t + e * r)
    assert not any(map(whole_equiv, (0.5, 1000.25, float(1 << 20), 0.0, -4.0)))


def search_tree(seed: int, rave_equiv: float, playouts: int, rings: int = 5, moves=(3, 40)) -> Tree:
    position = Position(rings)
    for move in moves:
        position.play(move)
    tree = Tree(Node(position.to_move), position.rules.tree_hooks(position), random.Random(seed))
    config = UctConfig(rave=True, exploration=0.1, rave_equiv=rave_equiv, expand=2, rescore=8,
                       candidates=4, rescore_share=0.05, max_nodes=10**6, komi=0.0, leaf_playouts=3)
    tree.search(position, Budget(Limits(playouts=playouts), 0, lambda: False), config)
    return tree


def tree_counts(node: Node, packer: AmafPacker) -> list:
    out = [node.visits, node.moves, node.child_visits, node.child_wins, node.candidates, node.floor,
           list(packer.unpack(node.rave_visits)), list(packer.unpack(node.rave_wins))]
    for slot in sorted(node.children):
        out.append((slot, tree_counts(node.children[slot], packer)))
    return out


@pytest.mark.parametrize("rave_equiv", [1000.0, 7.0])
def test_the_int_division_rescores_as_the_plain_formula(monkeypatch, rave_equiv):
    fast = search_tree(5, rave_equiv, 900)
    monkeypatch.setattr(uct, "whole_equiv", lambda e: False)
    plain = search_tree(5, rave_equiv, 900)
    assert fast.node_count == plain.node_count > 30
    assert tree_counts(fast.root, fast.packer) == tree_counts(plain.root, plain.packer)


def plain_keep(values: list[float], keep: int) -> tuple[list[int], float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    if len(order) > keep:
        return order[:-keep - 1:-1], values[order[-keep - 1]]
    return order[::-1], -math.inf


@pytest.mark.parametrize("keep", [1, 3, 8])
def test_the_rescores_partial_sort_ranks_as_the_whole_sort(keep):
    """Values that drift, jump and tie between full rescores: the kept
    candidates and the floor are the whole sort's every time."""
    rng = random.Random(keep)
    config = UctConfig(rave=True, exploration=0.0, rave_equiv=1000.0, expand=2, rescore=8,
                       candidates=keep, rescore_share=0.05, max_nodes=100, komi=0.0)
    for count in (1, keep, keep + 1, 30, 275):
        node = Node(1)
        values = [rng.choice((0.25, 0.5, rng.random())) for _ in range(count)]
        for _ in range(60):
            for slot in range(count):
                roll = rng.random()
                if roll < 0.1:
                    values[slot] = rng.random()
                elif roll < 0.2:
                    values[slot] = rng.choice((0.25, 0.5))
                else:
                    values[slot] += rng.gauss(0.0, 0.01)
            best = Tree._keep_candidates(node, list(values), config)
            ranked, floor = plain_keep(values, keep)
            assert (best, node.candidates, node.floor) == (ranked[0], ranked, floor)


def test_a_batchs_sums_are_its_results_counted_one_by_one():
    """Full boards (disjoint masks of one union), then masks that overlap or
    change their union: the same four sums as result by result."""
    rng = random.Random(6)
    lay = layout(5)
    packer = AmafPacker(lay.bits, lay.board)
    for trial in range(400):
        board = lay.board if trial % 4 else rng.getrandbits(lay.bits) & lay.board
        results = []
        for _ in range(rng.randrange(1, 9)):
            black = rng.getrandbits(lay.bits) & board
            white = board & ~black
            if trial % 7 == 0 and rng.random() < 0.5:
                white |= black & rng.getrandbits(lay.bits)  # overlapping
            if trial % 11 == 0 and rng.random() < 0.5:
                white &= rng.getrandbits(lay.bits)  # another union
            results.append((rng.choice((1, 2, 2, 1, None)), black, white))
        plain = AmafPacker(lay.bits, lay.board).batch_sums_plain(results)
        assert packer.batch_sums(results) == plain
        visits_black, visits_white, wins_black, wins_white = plain
        counts = packer.unpack(visits_black)
        for bit in (b for b in range(lay.bits) if lay.board >> b & 1):
            assert counts[bit] == sum(black >> bit & 1 for _, black, _ in results)


def test_the_sum_of_spreads_by_bit_planes_is_the_plain_sum():
    rng = random.Random(7)
    lay = layout(4)
    packer = AmafPacker(lay.bits, lay.board)
    for count in range(12):
        for _ in range(20):
            masks = [rng.getrandbits(lay.bits) & rng.choice((lay.board, 0, rng.getrandbits(lay.bits)))
                     for _ in range(count)]
            assert packer.spread_sum(masks) == sum(packer.spread(mask) for mask in masks)
