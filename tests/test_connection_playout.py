"""The fast connection playout (engine/connection/playout.py) against slow,
obviously correct references over the cells' neighbour lists: the winner of
thousands of seeded random full boards, the fill's shares, the bridges the
playout mends and the bridge answers the priors give, on Hex and Y boards of
several sizes."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.connection import playout as fast
from stargtp.engine.hex import Position as HexPosition
from stargtp.engine.y import Position as YPosition
from tests.connection_reference import reference_winner

BOARDS = [(HexPosition, size) for size in (1, 2, 3, 4, 5, 8, 11, 14, 19)] + \
         [(YPosition, size) for size in (1, 2, 3, 4, 5, 9, 13, 16, 19)]
IDS = [f"{cls.game}{size}" for cls, size in BOARDS]


def board_of(geo, black: int, white: int) -> list[int]:
    """Cell contents from two masks (each cell in at most one)."""
    board = []
    for bit in geo.bit_of[:geo.cell_count]:
        assert not (black & bit and white & bit)
        board.append(BLACK if black & bit else WHITE if white & bit else EMPTY)
    return board


def random_position(cls, size: int, rng: random.Random, stones: int):
    """A position with ``stones`` random moves played, stopping if one wins."""
    position = cls(size)
    for _ in range(stones):
        moves = position.legal_moves()
        if not moves:
            break
        position.play(rng.choice(moves))
    return position


def reference_bridges(geo, own: set[int], empty: set[int]) -> list[tuple[int, int, int, int]]:
    """Every bridge of ``own`` stones: ``(stone, stone, carrier, carrier)``,
    two non-adjacent stones with exactly two common neighbours, both in
    ``empty``."""
    found = []
    near = [set(cell.neighbours) for cell in geo.cells]
    for a in sorted(own):
        for b in sorted(own):
            if a < b and b not in near[a]:
                common = sorted(near[a] & near[b])
                if len(common) == 2 and all(c in empty for c in common):
                    found.append((a, b, *common))
    return found


@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_winner_of_random_full_boards(cls, size):
    geo = cls(size).geometry
    rng = random.Random(size * 7 + len(cls.game))
    cells = geo.cell_count
    for _ in range(400):
        black_cells = rng.sample(range(cells), rng.randint(0, cells))
        black = geo.mask_of(black_cells)
        white = geo.all_bits & ~black
        expected = reference_winner(geo, board_of(geo, black, white))
        assert fast.full_board_winner(black, white, geo) == expected


@pytest.mark.parametrize("bridges", [False, True], ids=["fill", "bridges"])
@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_playout_fills_every_cell_and_names_the_winner(cls, size, bridges):
    rng = random.Random(size * 11 + bridges)
    for trial in range(120):
        position = random_position(cls, size, rng, rng.randint(0, size * size // 2))
        geo = position.geometry
        play = fast.bridge_playout if bridges else fast.random_fill
        winner, black, white = play(position, rng)
        if position.won is not None:
            assert (winner, black, white) == (position.won, position.black_bits, position.white_bits)
            continue
        board = board_of(geo, black, white)
        assert EMPTY not in board
        assert black & position.black_bits == position.black_bits
        assert white & position.white_bits == position.white_bits
        empty = geo.cell_count - len(position.history)
        mine = black if position.to_move == BLACK else white
        theirs = white if position.to_move == BLACK else black
        own_before = position.black_bits if position.to_move == BLACK else position.white_bits
        their_before = position.white_bits if position.to_move == BLACK else position.black_bits
        assert ((mine & ~own_before).bit_count(), (theirs & ~their_before).bit_count()) == \
            ((empty + 1) // 2, empty // 2)
        assert winner == reference_winner(geo, board)


@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_broken_bridges_against_the_reference(cls, size):
    """The saves name one carrier of every bridge whose carriers the opponent
    both took, and nothing else; the carriers are every bridge's."""
    geo = cls(size).geometry
    k = fast.kit(geo)
    rng = random.Random(size * 13 + len(cls.game))
    cells = list(range(geo.cell_count))
    for _ in range(300):
        contents = [rng.choice((EMPTY, EMPTY, BLACK, WHITE)) for _ in cells]
        own = {c for c in cells if contents[c] == BLACK}
        empty = {c for c in cells if contents[c] == EMPTY}
        taken = {c for c in empty if rng.random() < 0.6}
        bridges = reference_bridges(geo, own, empty)
        saves, carriers = fast._broken_bridges(geo.mask_of(own), geo.mask_of(empty),
                                               geo.mask_of(taken), k.bridges,
                                               rng.getrandbits(k.width))
        assert set(geo.cells_of(carriers)) == {c for b in bridges for c in b[2:]}
        broken = [b for b in bridges if set(b[2:]) <= taken]
        saved = set(geo.cells_of(saves))
        assert saved <= {c for b in broken for c in b[2:]}
        assert all(saved & set(b[2:]) for b in broken)


@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_save_bridges_mends_each_sides_bridges_and_keeps_the_shares(cls, size):
    geo = cls(size).geometry
    k = fast.kit(geo)
    rng = random.Random(size * 17 + len(cls.game))
    cells = list(range(geo.cell_count))
    for _ in range(200):
        contents = [rng.choice((EMPTY, EMPTY, BLACK, WHITE)) for _ in cells]
        black = geo.mask_of(c for c in cells if contents[c] == BLACK)
        white = geo.mask_of(c for c in cells if contents[c] == WHITE)
        empty = geo.all_bits & ~(black | white)
        black_fill = fast.random_subset(empty, empty.bit_count() // 2, k.cell_bits, k.width, rng)
        mended = fast.save_bridges(black, white, empty, black_fill, k, rng)
        assert mended & ~empty == 0
        assert mended.bit_count() == black_fill.bit_count()
        # white mends after black, and nothing takes its cells back: no bridge
        # of white's keeps both carriers black (white's fill had the cells to give)
        bridges = reference_bridges(geo, set(geo.cells_of(white)), set(geo.cells_of(empty)))
        if (empty ^ black_fill).bit_count() >= len(bridges):
            for bridge in bridges:
                assert not all(geo.bit_of[c] & mended for c in bridge[2:]), bridge


@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_answers_against_the_reference(cls, size):
    """The bridge answers and the cells near the last stone, for the side to
    move, over random positions."""
    rng = random.Random(size * 19 + len(cls.game))
    for _ in range(200):
        position = random_position(cls, size, rng, rng.randint(1, max(1, size * size // 2)))
        if position.won is not None:
            continue
        geo = position.geometry
        last = position.history[-1][1]
        board = position.board
        own = {c for c, v in enumerate(board) if v == position.to_move}
        empty = {c for c, v in enumerate(board) if v == EMPTY}
        expected_saves = set()
        for a, b, c1, c2 in reference_bridges(geo, own, empty | {last}):
            if last in (c1, c2):
                other = c2 if last == c1 else c1
                if other in empty:
                    expected_saves.add(other)
        expected_near = set(geo.cells[last].neighbours) & empty - expected_saves
        saves, near = fast.answers(position.black_bits, position.white_bits, position.to_move,
                                   geo.bit_of[last], fast.kit(geo))
        assert (set(geo.cells_of(saves)), set(geo.cells_of(near))) == (expected_saves, expected_near)


@pytest.mark.parametrize("size,counts", [(5, (0, 1, 5, 8, 16)), (11, (0, 3, 19, 40, 61, 77, 80))],
                         ids=["list", "bits"])
def test_random_subset_has_the_count_and_reaches_every_cell(size, counts):
    """Exactly ``count`` cells of the mask, none outside it, every cell of it
    chosen sometimes: on a small mask (a sample of a list) and a large one
    (from none, from random bits and from all, by the count)."""
    geo = HexPosition(size).geometry
    k = fast.kit(geo)
    rng = random.Random(size)
    left_out = range(0, geo.cell_count, 3)
    mask = geo.all_bits & ~geo.mask_of(left_out)
    for count in counts:
        seen = [0] * geo.cell_count
        for _ in range(300):
            chosen = fast.random_subset(mask, count, k.cell_bits, k.width, rng)
            assert chosen & ~mask == 0 and chosen.bit_count() == count
            for cell in geo.cells_of(chosen):
                seen[cell] += 1
        assert all(seen[c] == 0 for c in left_out)
        assert count == 0 or all(seen[c] > 0 for c in range(geo.cell_count) if c % 3)


def test_prior_names_the_bridge_save_and_the_cells_near_the_last_move():
    position = HexPosition(5)
    for label in ("b2", "e1", "c3", "b3"):  # black's b2-c3 bridge over c2 and b3; white took b3
        position.play(position.parse_move(label))
    geo = position.geometry
    hooks = position.rules.tree_hooks(position)
    (saves, *save_prior), (near, *near_prior) = hooks.prior(position)
    assert geo.cells_of(saves) == [geo.parse("c2")]
    assert [geo.cells[c].label for c in geo.cells_of(near)] == ["a3", "a4", "b4"]
    assert (tuple(save_prior), tuple(near_prior)) == (fast.PRIOR_SAVE, fast.PRIOR_NEAR)


def _example_baseline():
    """examples/bench_hex_playout.py's union-find baseline, loaded from its file."""
    path = Path(__file__).resolve().parent.parent / "examples" / "bench_hex_playout.py"
    spec = importlib.util.spec_from_file_location("bench_hex_playout", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BaselinePlayout


@pytest.mark.parametrize("cls,size", [(HexPosition, 1), (HexPosition, 4), (HexPosition, 11),
                                      (YPosition, 1), (YPosition, 5), (YPosition, 13)],
                         ids=["hex1", "hex4", "hex11", "y1", "y5", "y13"])
def test_the_benchmarks_union_find_baseline_names_the_reference_winner(cls, size):
    """The baseline the benchmark compares with is right too: its winner is
    the reference's on the board its own shuffle deals."""
    baseline_class = _example_baseline()
    rng = random.Random(size * 23 + len(cls.game))
    for _ in range(150):
        position = random_position(cls, size, rng, rng.randint(0, size * size // 3))
        if position.won is not None:
            continue
        state = rng.getstate()
        winner = baseline_class(position.geometry).run(position, rng)
        rng.setstate(state)
        board = list(position.board)
        empty = [c for c, v in enumerate(board) if v == EMPTY]
        rng.shuffle(empty)
        colour = position.to_move
        for cell in empty:
            board[cell] = colour
            colour = 3 - colour
        assert winner == reference_winner(position.geometry, board)


# -- the batched playout: K boards in one integer -----------------------------------------

PACK_COUNTS = (1, 2, 3, 8)


def random_contents(geo, rng: random.Random) -> tuple[int, int]:
    """Random black and white masks, each cell black, white or empty."""
    black = white = 0
    for bit in geo.bit_of[:geo.cell_count]:
        pick = rng.random()
        if pick < 0.3:
            black |= bit
        elif pick < 0.6:
            white |= bit
    return black, white


@pytest.mark.parametrize("bridges", [False, True], ids=["fill", "bridges"])
@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_batch_playouts_fill_every_board_with_exact_shares_and_name_each_winner(cls, size, bridges):
    """Each board of every batch: a full board holding the position's stones,
    the side to move's share of the empty cells exactly ``(n + 1) // 2``,
    and the slow reference's winner; over random positions and batch sizes,
    so that boards sit at every place in the pack."""
    rng = random.Random(size * 29 + bridges + len(cls.game))
    for trial in range(60):
        position = random_position(cls, size, rng, rng.randint(0, size * size // 2))
        geo = position.geometry
        count = PACK_COUNTS[trial % len(PACK_COUNTS)]
        results = fast.batch_playouts(position, rng, count, bridges)
        assert len(results) == count
        if position.won is not None:
            assert results == [(position.won, position.black_bits, position.white_bits)] * count
            continue
        empty = geo.cell_count - len(position.history)
        own_before = position.black_bits if position.to_move == BLACK else position.white_bits
        their_before = position.white_bits if position.to_move == BLACK else position.black_bits
        for winner, black, white in results:
            board = board_of(geo, black, white)
            assert EMPTY not in board
            assert black & position.black_bits == position.black_bits
            assert white & position.white_bits == position.white_bits
            mine = black if position.to_move == BLACK else white
            theirs = white if position.to_move == BLACK else black
            assert ((mine & ~own_before).bit_count(), (theirs & ~their_before).bit_count()) == \
                ((empty + 1) // 2, empty // 2)
            assert winner == reference_winner(geo, board)


@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_packed_winner_and_broken_bridges_equal_each_boards_own(cls, size):
    """On packs of different random boards: the packed flood names, field by
    field, the winner ``full_board_winner`` names for that board alone, and
    the packed bridge search finds, field by field, what ``_broken_bridges``
    finds on that board with that field's random choice bits."""
    geo = cls(size).geometry
    k = fast.kit(geo)
    rng = random.Random(size * 31 + len(cls.game))
    for trial in range(40):
        count = PACK_COUNTS[trial % len(PACK_COUNTS)]
        p = fast.pack(geo, count)
        fulls = [geo.mask_of(rng.sample(range(geo.cell_count), rng.randint(0, geo.cell_count)))
                 for _ in range(count)]
        won = p.split(p.black_connects(p.join(fulls)))
        for black, reach in zip(fulls, won):
            expected = fast.full_board_winner(black, geo.all_bits & ~black, geo)
            assert (BLACK if reach else WHITE) == expected
        boards = [random_contents(geo, rng) for _ in range(count)]
        stones = [black for black, _ in boards]
        empties = [geo.all_bits & ~(black | white) for black, white in boards]
        taken = [rng.getrandbits(k.width) & e for e in empties]
        choice = rng.getrandbits(p.width)
        saves, carriers = fast._broken_bridges(p.join(stones), p.join(empties), p.join(taken),
                                               k.bridges, choice)
        expected = [fast._broken_bridges(s, e, t, k.bridges, c)
                    for s, e, t, c in zip(stones, empties, taken, p.split(choice))]
        assert list(zip(p.split(saves), p.split(carriers))) == expected
        assert saves & ~p.cells == 0 and carriers & ~p.cells == 0


@pytest.mark.parametrize("cls,size", BOARDS, ids=IDS)
def test_packed_bridge_saves_mend_every_board_and_keep_the_shares(cls, size):
    """``_save_packed`` on a pack of different fills of one position: each
    board keeps black's share, changes only empty cells, and (when white's
    fill had the cells to give) no bridge of white's keeps both carriers
    black, as ``save_bridges`` does for one board."""
    geo = cls(size).geometry
    k = fast.kit(geo)
    rng = random.Random(size * 37 + len(cls.game))
    for trial in range(40):
        count = PACK_COUNTS[trial % len(PACK_COUNTS)]
        p = fast.pack(geo, count)
        black, white = random_contents(geo, rng)
        empty = geo.all_bits & ~(black | white)
        fills = [fast.random_subset(empty, empty.bit_count() // 2, k.cell_bits, k.width, rng)
                 for _ in range(count)]
        mended = p.split(fast._save_packed(black, white, p.spread(empty), p.join(fills), p, rng))
        bridges = reference_bridges(geo, set(geo.cells_of(white)), set(geo.cells_of(empty)))
        for fill, after in zip(fills, mended):
            assert after & ~empty == 0
            assert after.bit_count() == fill.bit_count()
            if (empty ^ fill).bit_count() >= len(bridges):
                for bridge in bridges:
                    assert not all(geo.bit_of[c] & after for c in bridge[2:]), bridge


def test_batch_playouts_are_determined_by_the_seed():
    position = YPosition(9)
    for label in ("e5", "c3", "d7", "b4"):
        position.play(position.parse_move(label))
    runs = [fast.batch_playouts(position, random.Random(5), 8) for _ in range(2)]
    assert runs[0] == runs[1]
    assert len(set(runs[0])) == 8  # eight different boards
    assert fast.batch_playouts(position, random.Random(6), 8) != runs[0]


@pytest.mark.parametrize("cls,size,labels", [
    (HexPosition, 5, ("b2", "e1", "c3", "a5")),  # black's bridge b2-c3 over c2 and b3
    (YPosition, 7, ("c4", "a1", "d6", "g7", "b6", "e7")),  # black's bridges c4-d6, c4-b6
], ids=["hex5", "y7"])
def test_batch_playouts_have_the_single_playouts_distribution(cls, size, labels):
    """Over 4000 playouts each, the batched kernel and the one-board bridge
    playout give black each cell, and the win, equally often (within 0.05;
    the difference of two binomial shares has a standard deviation under
    0.012 here). Without the bridge reply a carrier's share moves by more
    than 0.1 on these positions, so the check sees the reply."""
    position = cls(size)
    for label in labels:
        position.play(position.parse_move(label))
    geo = position.geometry
    runs = 4000

    def shares(results) -> list[float]:
        cells = [0] * geo.cell_count
        wins = 0
        for winner, black, _ in results:
            wins += winner == BLACK
            for cell in geo.cells_of(black):
                cells[cell] += 1
        return [wins / runs] + [c / runs for c in cells]

    rng = random.Random(41)
    single = shares([fast.bridge_playout(position, rng) for _ in range(runs)])
    batched = shares([r for _ in range(runs // 8) for r in fast.batch_playouts(position, rng, 8)])
    assert max(abs(a - b) for a, b in zip(single, batched)) < 0.05


def test_the_tree_hooks_offer_the_batched_kernel():
    position = HexPosition(6)
    position.play(position.parse_move("c3"))
    hooks = position.rules.tree_hooks(position)
    assert hooks.playouts(position, random.Random(2), 0.0, 5) == \
        fast.batch_playouts(position, random.Random(2), 5)
