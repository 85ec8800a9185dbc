"""The UCT search: the fast tree against a plain reference, tree reuse, limits
and stopping, passing and resigning, parameters, and merging root-parallel
results."""

from __future__ import annotations

import hashlib
import random
import time

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.games import new_position
from stargtp.engine.players import PLAYERS, make_player
from stargtp.engine.search import Limits, SearchResult
from stargtp.engine.search.base import Budget
from stargtp.engine.search.parallel import merge_results
from stargtp.engine.search.uct import AmafPacker, Node, Tree, UctConfig, UctPlayer
from stargtp.engine.star import PASS, Position, score
from stargtp.engine.star.playout import layout
from tests.uct_reference import ReferenceNode, reference_search


def fast_tree(position, iterations: int, seed: int, *, rave: bool, exploration: float,
              expand: int, rescore: int = 1, rescore_share: float = 0.0,
              leaf_playouts: int = 1) -> Tree:
    tree = Tree(Node(position.to_move), position.rules.tree_hooks(position), random.Random(seed))
    config = UctConfig(rave=rave, exploration=exploration, rave_equiv=1000.0, expand=expand,
                       rescore=rescore, candidates=3, rescore_share=rescore_share,
                       max_nodes=10**6, komi=0.0, leaf_playouts=leaf_playouts)
    tree.search(position, Budget(Limits(playouts=iterations), 0, lambda: False), config)
    return tree


def assert_same_tree(node: Node, reference: ReferenceNode, tree: Tree, where: str = "root") -> int:
    """Compare every count of two trees; return the number of nodes compared."""
    assert node.visits == reference.visits, where
    assert node.moves == reference.moves, where
    if node.moves is None:
        return 1
    for slot, move in enumerate(node.moves):
        assert node.child_visits[slot] == reference.visits_of[move], (where, move)
        assert node.child_wins[slot] == reference.wins_of[move], (where, move)
    if node.amaf is not None:
        visits = tree.packer.unpack(node.rave_visits)
        half_wins = tree.packer.unpack(node.rave_wins)
        for bit in range(tree.hooks.amaf_width):
            assert visits[bit] == reference.amaf_visits.get(bit, 0), (where, bit)
            assert half_wins[bit] == reference.amaf_half_wins.get(bit, 0), (where, bit)
    assert {node.moves[slot] for slot in node.children} == set(reference.children), where
    count = 1
    for slot, child in node.children.items():
        move = node.moves[slot]
        count += assert_same_tree(child, reference.children[move], tree, f"{where}/{move}")
    return count


# -- the fast tree is exact UCT-RAVE when it rescores every visit ----------------------

@pytest.mark.parametrize("rave, exploration, expand", [
    (True, 0.0, 1), (True, 0.4, 0), (True, 0.0, 3), (False, 0.7, 1), (False, 1.2, 0),
])
def test_fast_tree_matches_the_reference(rave, exploration, expand):
    position = Position(4)
    for move in (7, 30, 12):  # a few stones, so some cells are not moves
        position.play(move)
    tree = fast_tree(position, 300, seed=11, rave=rave, exploration=exploration, expand=expand)
    reference = reference_search(position, 300, random.Random(11), rave=rave,
                                 exploration=exploration, expand=expand)
    nodes = assert_same_tree(tree.root, reference, tree)
    assert nodes == tree.node_count > 20  # the comparison reached deep into the tree
    assert tree.root.visits == 300


@pytest.mark.parametrize("game, size, moves", [("star", 4, (7, 30, 12)), ("y", 6, (3, 10)),
                                               ("hex", 5, (12,))])
@pytest.mark.parametrize("rave, exploration, expand, leaf_playouts", [
    (True, 0.0, 1, 3), (True, 0.0, 2, 8), (False, 0.7, 1, 4), (False, 1.0, 0, 5),
])
def test_a_batch_of_playouts_a_leaf_matches_the_reference(game, size, moves, rave, exploration,
                                                         expand, leaf_playouts):
    """With ``leaf_playouts`` k the fast tree adds the batch's sums once per
    node; the reference counts the same k playouts one at a time: every
    count agrees (*Star calls ``playout`` k times, Hex and Y their batched
    kernel), and the last batch is cut to the playout limit (301 = 3 * 100
    + 1 = 8 * 37 + 5 ...)."""
    position = new_position(game, size)
    for move in moves:
        position.play(move)
    tree = fast_tree(position, 301, seed=13, rave=rave, exploration=exploration, expand=expand,
                     leaf_playouts=leaf_playouts)
    reference = reference_search(position, 301, random.Random(13), rave=rave,
                                 exploration=exploration, expand=expand,
                                 leaf_playouts=leaf_playouts)
    nodes = assert_same_tree(tree.root, reference, tree)
    assert nodes == tree.node_count > 5
    assert tree.root.visits == 301


# Recorded with the search before leaf batches (d67567e): the first four moves of
# a seeded game, 700 playouts a move, and a digest of the last search's root statistics.
ONE_PLAYOUT_A_LEAF = [
    ("star", 4, "on", ["A43", "R41", "S41", "A41"], "55136f1a88e66f60"),
    ("star", 4, "off", ["T10", "*43", "A40", "T40"], "20a412c0eeaf3ed4"),
    ("y", 7, "on", ["c6", "c4", "d5", "b5"], "a852de1d9d7d974a"),
    ("y", 7, "off", ["d6", "c6", "b4", "d7"], "1525caf81100aa4c"),
    ("hex", 6, "on", ["d3", "d2", "e2", "d4"], "80492f4404489383"),
    ("hex", 6, "off", ["e5", "c4", "e2", "e3"], "3140d9181bcd2eef"),
]


@pytest.mark.parametrize("game, size, rave, moves, digest", ONE_PLAYOUT_A_LEAF,
                         ids=[f"{g}{s}-rave-{r}" for g, s, r, _, _ in ONE_PLAYOUT_A_LEAF])
def test_one_playout_a_leaf_is_the_search_of_before_bit_for_bit(game, size, rave, moves, digest):
    player = make_player("uct", seed=5, rave=rave, leaf_playouts="1")
    position = new_position(game, size)
    played = []
    for _ in range(4):
        result = player.genmove(position, Limits(playouts=700))
        played.append(position.format_move(result.move))
        position.play(result.move)
    assert played == moves
    assert hashlib.sha256(repr(sorted(result.root.items())).encode()).hexdigest()[:16] == digest


def test_one_playout_a_leaf_on_the_big_board_is_the_search_of_before_bit_for_bit():
    """UCT-RAVE at one playout a leaf on 10 rings (lazy rescoring, the
    priors, ~275 children a node), recorded with the search of 3bf373b
    before the cheaper full rescore: the same moves and the same root
    statistics. (*Star's default is 4 a leaf since the batched kernel.)"""
    player = make_player("uct", seed=5, leaf_playouts="1")
    position = new_position("star", 10)
    played = []
    for _ in range(3):
        result = player.genmove(position, Limits(playouts=1500))
        played.append(position.format_move(result.move))
        position.play(result.move)
    assert played == ["R86", "R01", "S02"]
    assert hashlib.sha256(repr(sorted(result.root.items())).encode()).hexdigest()[:16] == "2de3458eebdf51c8"


def test_ownership_counts_every_board_of_a_batch():
    """Ownership analysis samples each playout of a batch: the shares have
    all 301 playouts behind them, a black stone is black's in every one, a
    white stone in none, and an empty cell's count is a whole number of
    those playouts."""
    position = new_position("hex", 5)
    for label in ("c3", "b2"):
        position.play(position.parse_move(label))
    player = make_player("uct", seed=4, leaf_playouts="8", ownership="on")
    result = player.genmove(position, Limits(playouts=301))
    assert result.playouts == player.tree.owner_samples == 301
    shares = dict(result.ownership)
    assert shares[position.parse_move("c3")] == 1.0 and shares[position.parse_move("b2")] == 0.0
    assert all(abs(share * 301 - round(share * 301)) < 1e-9 for share in shares.values())
    assert 0.0 < shares[position.parse_move("a1")] < 1.0


def test_a_playout_limit_counts_the_playouts_of_every_batch():
    result = make_player("uct", seed=1, leaf_playouts="8").genmove(Position(4), Limits(playouts=123))
    assert result.playouts == 123  # 15 batches of 8, then one of 3
    assert sum(v for v, _ in result.root.values()) == 123


@pytest.mark.parametrize("game, size", [("star", 4), ("y", 6), ("hex", 5)])
def test_leaf_playouts_game_is_the_games_own_count(game, size):
    """The default ``leaf_playouts`` is ``game``: the descriptor's
    ``leaf_playouts``, the same search as that count given explicitly."""
    position = new_position(game, size)
    default = make_player("uct", seed=3)
    assert default.params()["leaf_playouts"] == "game"
    explicit = make_player("uct", seed=3, leaf_playouts=str(position.rules.leaf_playouts))
    results = [player.genmove(position, Limits(playouts=250)) for player in (default, explicit)]
    assert results[0].root == results[1].root and results[0].move == results[1].move
    assert results[0].playouts == 250


def test_a_game_end_inside_the_tree_is_scored_not_expanded():
    position = Position(2)  # 15 cells: the search reaches full boards
    tree = fast_tree(position, 400, seed=3, rave=True, exploration=0.0, expand=0)
    reference = reference_search(position, 400, random.Random(3), rave=True,
                                 exploration=0.0, expand=0)
    assert_same_tree(tree.root, reference, tree)
    depth, node = 0, tree.root
    while node.children:
        node = node.children[node.best_slot()] if node.best_slot() in node.children \
            else next(iter(node.children.values()))
        depth += 1
    assert depth >= 5


def test_amaf_packing_agrees_with_counting_bits():
    rng = random.Random(5)
    width = layout(10).bits
    packer = AmafPacker(width)
    masks = [rng.getrandbits(width) for _ in range(50)]
    packed = sum(packer.spread(mask) * (i + 1) for i, mask in enumerate(masks))
    counts = packer.unpack(packed)
    assert len(counts) == width
    for bit in range(width):
        assert counts[bit] == sum(i + 1 for i, mask in enumerate(masks) if mask >> bit & 1)


def test_spread_pair_is_each_masks_spread():
    """The second spread comes from the union's (kept between calls) less the
    first's: right for disjoint masks with the union changing or not, and
    for overlapping masks (spread one by one)."""
    rng = random.Random(8)
    width = layout(6).bits
    packer = AmafPacker(width)
    board = rng.getrandbits(width)
    for _ in range(300):
        cells = board if rng.random() < 0.7 else rng.getrandbits(width)
        first = rng.getrandbits(width) & cells
        second = cells & ~first
        if rng.random() < 0.2:
            second |= first & rng.getrandbits(width)  # overlapping
        assert packer.spread_pair(first, second) == (packer.spread(first), packer.spread(second))


def test_lazy_rescoring_keeps_statistics_consistent():
    # rescore > 1 is no longer exact UCT, but every count must still add up.
    position = Position(5)
    tree = fast_tree(position, 600, seed=2, rave=True, exploration=0.0, expand=2, rescore=8)
    root = tree.root
    assert sum(root.child_visits) == root.visits == 600
    for slot, child in root.children.items():
        assert child.visits == root.child_visits[slot] - 2  # created on the third visit
        assert sum(child.child_visits) == child.visits - 1  # its first visit was a playout
    amaf_visits = tree.packer.unpack(root.rave_visits)
    assert sum(amaf_visits[a] for a in root.amaf) == 600 * 38  # black gets 38 of the 75 cells


# -- the player ------------------------------------------------------------------------

def play_game(black, white, rings: int, playouts: int) -> list:
    position = Position(rings)
    players = {BLACK: black, WHITE: white}
    moves = []
    while not position.is_over():
        result = players[position.to_move].genmove(position, Limits(playouts=playouts))
        moves.append(result.move)
        position.play(result.move)
    return moves


def test_uct_is_registered():
    assert "uct" in PLAYERS
    assert isinstance(make_player("uct", seed=1), UctPlayer)


def test_the_same_seed_plays_the_same_game_twice():
    games = [play_game(make_player("uct", seed=7, playouts="150"),
                       make_player("uct", seed=8, playouts="150", rave="off"), 3, 150)
             for _ in range(2)]
    assert games[0] == games[1]
    assert len(games[0]) == 30 and games[0][-1] != PASS
    other = play_game(make_player("uct", seed=9, playouts="150"),
                      make_player("uct", seed=8, playouts="150", rave="off"), 3, 150)
    assert other != games[0]


def test_tree_is_reused_after_the_moves_played():
    player = make_player("uct", seed=3)
    position = Position(5)
    first = player.genmove(position, Limits(playouts=2000))
    old_root = player.tree.root
    position.play(first.move)
    reply = first.pv[1]
    position.play(reply)
    kept = old_root.child_for(BLACK, first.move).child_for(WHITE, reply)
    assert kept is not None and kept.visits > 10
    visits_before = kept.visits
    second = player.genmove(position, Limits(playouts=100))
    assert player.tree.root is kept
    assert kept.visits == visits_before + 100 and second.playouts == 100


def test_tree_is_dropped_when_the_history_does_not_follow():
    player = make_player("uct", seed=3)
    position = Position(4)
    position.play(5)
    player.genmove(position, Limits(playouts=300))
    position.undo()
    position.play(6)  # another first move: the history does not extend the last one
    player.genmove(position, Limits(playouts=50))
    assert player.tree.root.visits == 50
    position.play(PASS)  # a pass is never in the tree
    player.genmove(position, Limits(playouts=40))
    assert player.tree.root.visits == 40


def test_komi_resent_unchanged_keeps_the_tree_but_a_new_komi_drops_it():
    player = make_player("uct", seed=3)
    position = Position(4)
    player.genmove(position, Limits(playouts=200))
    player.set_param("komi", "0.0")
    player.genmove(position, Limits(playouts=10))
    assert player.tree.root.visits == 210
    player.set_param("komi", "2.5")
    player.genmove(position, Limits(playouts=10))
    assert player.tree.root.visits == 10


def test_reuse_off_searches_afresh():
    player = make_player("uct", seed=3, reuse="off")
    position = Position(4)
    player.genmove(position, Limits(playouts=200))
    player.genmove(position, Limits(playouts=10))
    assert player.tree.root.visits == 10


def test_should_stop_ends_the_search_promptly_with_a_legal_move():
    player = make_player("uct", seed=1, leaf_playouts="1")
    position = Position(10)
    calls = []

    def stop_after_a_few_polls() -> bool:
        calls.append(1)
        return len(calls) > 3

    start = time.monotonic()
    result = player.genmove(position, Limits(seconds=60), stop_after_a_few_polls)
    assert time.monotonic() - start < 10  # a hang detector, not a speed test
    assert position.is_legal(result.move) and result.move != PASS
    # Polled after the first iteration, then every 16.
    assert result.playouts == 1 + 3 * 16
    assert len(calls) == 4


def test_a_stop_before_the_first_iteration_still_answers():
    player = make_player("uct", seed=1, leaf_playouts="1")
    result = player.genmove(Position(6), Limits(seconds=60), lambda: True)
    assert result.playouts == 1 and Position(6).is_legal(result.move)


def test_time_limit_is_kept():
    player = make_player("uct", seed=1)
    start = time.monotonic()
    result = player.genmove(Position(10), Limits(seconds=0.3))
    elapsed = time.monotonic() - start
    assert 0.3 <= elapsed < 3.0  # the upper bound only detects a runaway search
    assert result.playouts > 0


def test_playout_limit_counts_iterations():
    result = make_player("uct", seed=1).genmove(Position(4), Limits(playouts=123))
    assert result.playouts == 123
    assert sum(v for v, _ in result.root.values()) == 123
    assert result.pv[0] == result.move
    visits, wins = result.root[result.move]
    assert result.winrate == wins / visits
    assert visits == max(v for v, _ in result.root.values())


def test_default_playouts_apply_without_limits():
    result = make_player("uct", seed=1, playouts="77").genmove(Position(3), Limits())
    assert result.playouts == 77


def test_full_board_passes():
    position = Position(2)
    rng = random.Random(1)
    while position.legal_moves():
        position.play(rng.choice(position.legal_moves()))
    assert make_player("uct", seed=1).genmove(position, Limits(playouts=10)).move == PASS


def fill_all_but(position: Position, empty: set[int], rng: random.Random) -> None:
    cells = [c for c in position.legal_moves() if c not in empty]
    rng.shuffle(cells)
    for cell in cells:
        position.play(cell)


def test_pass_after_a_pass_only_when_it_wins():
    rng = random.Random(4)
    for _ in range(20):
        position = Position(3)
        fill_all_but(position, {0, 1, 2}, rng)  # three empty cells in ring 1
        position.play(PASS)  # the opponent passes
        me = position.to_move
        result = make_player("uct", seed=1).genmove(position, Limits(playouts=50))
        if score(position).winner == me:
            assert result.move == PASS
        else:
            assert result.move in (0, 1, 2)


def test_a_forced_move_is_played_at_once():
    position = Position(3)
    fill_all_but(position, {17}, random.Random(2))
    result = make_player("uct", seed=1).genmove(position, Limits(seconds=30))
    assert result.move == 17 and result.playouts == 1


def test_resigns_only_after_several_low_win_rates():
    player = make_player("uct", seed=1, resign="0.99", resign_moves="2")
    position = Position(3)
    first = player.genmove(position, Limits(playouts=100))
    assert first.move is not None and first.winrate < 0.99
    position.play(first.move)
    position.play(position.legal_moves()[0])
    assert player.genmove(position, Limits(playouts=100)).move is None


def test_resign_count_restarts_in_a_new_game():
    player = make_player("uct", seed=1, resign="0.99", resign_moves="2")
    # 100 playouts: a shorter search does not count towards resigning at all.
    assert player.genmove(Position(3), Limits(playouts=100)).move is not None
    assert player.genmove(Position(4), Limits(playouts=100)).move is not None


def test_never_resigns_by_default():
    player = make_player("uct", seed=1)
    position = Position(3)
    fill_all_but(position, {3, 4}, random.Random(9))
    for _ in range(5):
        result = player.genmove(position, Limits(playouts=20))
        assert result.move is not None


def test_parameters_from_text():
    player = make_player("uct", seed=1, rave="off", exploration="0.5", expand="4")
    params = player.params()
    assert params["rave"] == "off" and params["exploration"] == "0.5" and params["expand"] == "4"
    assert set(params) == set(UctPlayer.PARAMS)
    for name, value in [("nonsense", "1"), ("rave", "maybe"), ("expand", "-1"),
                        ("rescore", "0"), ("candidates", "0"), ("rave_equiv", "0"),
                        ("leaf_playouts", "0"), ("leaf_playouts", "many"),
                        ("exploration", "high")]:
        with pytest.raises(ValueError):
            player.set_param(name, value)
    assert player.params() == params  # a rejected value changes nothing


def test_rave_off_searches_with_plain_ucb():
    player = make_player("uct", seed=2, rave="off")
    result = player.genmove(Position(4), Limits(playouts=200))
    # Plain UCT tries every move once before it repeats any.
    assert len(result.root) == 50
    assert player.tree.root.amaf is None


def test_max_nodes_bounds_the_tree():
    player = make_player("uct", seed=2, max_nodes="30", expand="0")
    player.genmove(Position(5), Limits(playouts=2000))
    assert player.tree.node_count == 30


# -- root parallelism -------------------------------------------------------------------

def test_merge_sums_root_statistics_and_picks_by_visits():
    a = SearchResult(move=1, playouts=10, winrate=0.6, pv=[1, 2], root={1: (6, 3.6), 2: (4, 3.0)})
    b = SearchResult(move=2, playouts=12, winrate=0.8, pv=[2, 5], root={2: (10, 8.0), 3: (2, 0.0)})
    merged = merge_results([a, b])
    assert merged.move == 2
    assert merged.playouts == 22
    assert merged.root == {1: (6, 3.6), 2: (14, 11.0), 3: (2, 0.0)}
    assert merged.winrate == pytest.approx(11.0 / 14)
    assert merged.pv == [2, 5]


def test_merge_of_one_result_and_of_results_without_statistics():
    a = SearchResult(move=4, playouts=3, winrate=0.5, pv=[4], root={4: (3, 1.5)})
    assert merge_results([a]) == a
    passes = [SearchResult(move=PASS), SearchResult(move=PASS)]
    assert merge_results(passes).move == PASS
    with pytest.raises(ValueError):
        merge_results([])


def test_merge_resigns_only_when_most_workers_resign():
    low = dict(playouts=5, winrate=0.01, pv=[])
    resign = SearchResult(move=None, root={1: (5, 0.05)}, **low)
    play = SearchResult(move=1, root={1: (5, 0.05)}, **low)
    assert merge_results([resign, play]).move == 1
    assert merge_results([resign, resign, play]).move is None


def test_merge_breaks_visit_ties_by_wins_then_first_worker():
    a = SearchResult(move=3, playouts=4, root={3: (4, 1.0), 8: (4, 2.0)})
    assert merge_results([a, SearchResult(move=9, playouts=4, root={9: (4, 1.0)})]).move == 8
    b = SearchResult(move=5, playouts=2, root={5: (2, 1.0)})
    c = SearchResult(move=6, playouts=2, root={6: (2, 1.0)})
    assert merge_results([b, c]).move == 5
    assert merge_results([c, b]).move == 6


def test_worker_pool_searches_with_distinct_seeds_and_merges():
    """Root parallelism as the server and ``stargtp bench --workers`` run it:
    worker i has the seed seed + i; the answers are merged by merge_results."""
    import asyncio

    from stargtp.protocol.server.workers import GameState, SearchRequest, WorkerPool

    state = GameState("star", 4, ())

    async def search():
        pool = WorkerPool("uct", {}, 5, workers=2)
        try:
            return await pool.search(SearchRequest(state, 1, Limits(playouts=200)))
        finally:
            await pool.close()

    reply = asyncio.run(search())
    assert reply.playouts == 400 and sum(v for v, _ in reply.root.values()) == 400
    # Each worker played what a player with its seed plays alone.
    alone = [make_player("uct", seed=seed).genmove(Position(4), Limits(playouts=200)) for seed in (5, 6)]
    assert alone[0].root != alone[1].root  # different seeds
    expected = merge_results(alone)
    board = Position(4)
    assert reply.root == {board.format_move(m): (v, w) for m, (v, w) in expected.root.items()}


# -- the benchmark command ------------------------------------------------------------

def run_bench(capsys, *argv: str) -> tuple[int, str, str]:
    import argparse
    import stargtp.protocol.tools.bench as bench

    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    code = bench.run(parser.parse_args(list(argv)))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_bench_json_reports_the_figures(capsys):
    import json

    code, out, _ = run_bench(capsys, "--size", "4", "--seconds", "0.05", "--runs", "1", "--json")
    assert code == 0
    report = json.loads(out)
    for key in ("game", "size", "workers", "playouts_per_s", "iterations_per_s"):
        assert key in report
    assert report["game"] == "star" and report["size"] == 4 and report["workers"] == 1
    assert report["playouts_per_s"] > 0 and report["iterations_per_s"] > 0
    assert "speedup" not in report


def test_bench_with_workers_reports_the_speedup_and_its_baseline(capsys):
    import json

    code, out, _ = run_bench(capsys, "--size", "3", "--seconds", "0.05", "--runs", "1",
                             "--workers", "2", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["workers"] == 2
    assert report["baseline_iterations_per_s"] > 0 and report["parallel_iterations_per_s"] > 0
    # The report rounds the speed-up to 3 decimals: under heavy load it can be
    # below 0.5, where that rounding alone is more than 1e-3 of it.
    assert report["speedup"] == pytest.approx(
        report["parallel_iterations_per_s"] / report["baseline_iterations_per_s"], rel=1e-3, abs=6e-4)
    assert report["machine_scaling"] > 0


def test_bench_rejects_bad_arguments(capsys):
    code, out, err = run_bench(capsys, "--size", "11")
    assert code == 2 and out == "" and "stargtp bench:" in err
    code, out, err = run_bench(capsys, "--param", "nonsense=1")
    assert code == 2 and out == "" and "nonsense" in err
    code, out, err = run_bench(capsys, "--seconds", "0")
    assert code == 2 and out == ""
