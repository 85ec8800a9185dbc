"""The Amazons search (engine.search.amazons_mcts): legal moves in every
mode and at the end of the game, the move levels against the plain move
list, exact tree bookkeeping, reproducibility, tree reuse, limits and
stopping, parameters, and strength against random-rollout UCT."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stargtp.engine.amazons import Position, random_move
from stargtp.engine.amazons.evaluation import evaluate
from stargtp.engine.amazons.position import Move
from tests.diagrams import amazons_diagram
from stargtp.engine.amazons.regions import RegionSolver
from stargtp.engine.amazons.scoring import is_settled, score
from stargtp.engine.colour import BLACK, WHITE, opponent
from stargtp.engine.amazons.search import (PICK_AMAZON, PICK_ARROW, PICK_DESTINATION, PICK_MOVE,
                                        PICK_PAIR, AmazonsMcts, MoveOrdering, Node, win_probability)
from stargtp.engine.search.base import Limits
from stargtp.engine.search.uct import UctPlayer

MODES = [{"split": "3"}, {"split": "2"}, {"split": "1"},
         {"split": "3", "widening": "off"}, {"split": "3", "order": "eval"},
         {"split": "2", "order": "none"}, {"split": "1", "order": "eval", "widening": "off"}]


def random_position(seed: int, size: int, plies: int) -> Position:
    rng = random.Random(seed)
    position = Position(size)
    for _ in range(plies):
        move = random_move(position, rng)
        if move is None:
            break
        position.play(move)
    return position


def self_play(player: AmazonsMcts, size: int, playouts: int, max_plies: int = 200) -> list:
    """One player plays both sides to the end; every move is checked legal."""
    position = Position(size)
    while len(position.history) < max_plies:
        result = player.genmove(position, Limits(playouts=playouts))
        if result.move is None:
            assert position.is_over()
            break
        assert position.is_legal(result.move), position.format_move(result.move)
        position.play(result.move)
    return [move for _, move in position.history]


# -- legal moves -----------------------------------------------------------------------------

@pytest.mark.parametrize("params", MODES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_every_mode_plays_legal_moves_to_the_end(params):
    player = AmazonsMcts(seed=3, **params)
    moves = self_play(player, 6, playouts=30)
    assert 8 <= len(moves) <= 28  # each move fills one of the 28 empty squares of 6x6


def test_legal_move_on_the_big_board_and_late_in_the_game():
    for plies, size in ((0, 10), (40, 10), (70, 10), (44, 8)):
        position = random_position(plies, size, plies)
        if position.is_over():
            continue
        result = AmazonsMcts(seed=1).genmove(position, Limits(playouts=60))
        assert position.is_legal(result.move)


def test_no_move_means_resign_and_one_move_is_played_at_once():
    stuck = Position.from_diagram(amazons_diagram("finished-black"), to_move=BLACK)
    result = AmazonsMcts(seed=1).genmove(stuck, Limits(playouts=50))
    assert result.move is None and result.playouts == 0
    forced = Position.from_diagram("""
        B . x . . .
        x x x . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . W""", to_move=BLACK)
    assert forced.count_moves() == 1
    result = AmazonsMcts(seed=1).genmove(forced, Limits(playouts=50))
    assert result.move == forced.legal_moves()[0] and result.playouts == 1


def test_an_immediate_win_is_found_and_scored_exactly():
    # White wins at once by closing b5 (an arrow or an amazon there): the
    # black amazon on a6 then has no move. Those positions are finished games,
    # so such a move is a sure win: the player answers it without searching
    # (every other move here is worth 0.98 or more to the search, which would
    # have no reason to prefer the quickest win).
    position = Position.from_diagram("""
        B x . . . .
        . x . . . .
        x . . . . .
        . . . . . .
        . . . . . .
        . . . W . .""", to_move=WHITE)
    result = AmazonsMcts(seed=5).genmove(position, Limits(playouts=400))
    position.play(result.move)
    assert position.is_over()
    assert result.winrate == 1.0


def test_the_move_levels_hold_exactly_the_legal_moves():
    """Walking amazon -> destination -> arrow (or the pairs, or whole moves)
    gives each legal move once, in every ordering."""
    for seed in range(6):
        position = random_position(seed, (6, 8, 10)[seed % 3], 4 * seed)
        legal = sorted(position.legal_moves())
        for order in ("cheap", "eval", "none"):
            ordering = MoveOrdering(order, random.Random(seed), lambda: False)
            board = position.copy()
            three = [(f, t, a) for f in ordering.choices(Node(PICK_AMAZON, board.to_move), board)
                     for t in ordering.choices(Node(PICK_DESTINATION, board.to_move, f), board)
                     for a in ordering.choices(Node(PICK_ARROW, board.to_move, f, t), board)]
            two = [(f, t, a) for f, t in ordering.choices(Node(PICK_PAIR, board.to_move), board)
                   for a in ordering.choices(Node(PICK_ARROW, board.to_move, f, t), board)]
            one = [tuple(m) for m in ordering.choices(Node(PICK_MOVE, board.to_move), board)]
            assert sorted(three) == sorted(two) == sorted(one) == legal
            assert board.history == position.history and board.board == position.board


def naive_reach(position: Position, square: int, empty_too: tuple[int, ...] = ()) -> set[int]:
    """Squares a queen on ``square`` reaches, walking the board square by square."""
    size = position.size
    reached = set()
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (-1, 1), (1, -1)):
        c, r = square % size + dc, square // size + dr
        while 0 <= c < size and 0 <= r < size:
            s = r * size + c
            if position.board[s] and s not in empty_too:
                break
            reached.add(s)
            c, r = c + dc, r + dr
    return reached


def test_cheap_arrow_order_follows_its_documented_score():
    position = random_position(11, 8, 10)
    me = position.to_move
    ordering = MoveOrdering("cheap", random.Random(0), lambda: False)
    size = position.size

    def king(square: int) -> set[int]:
        c, r = square % size, square // size
        return {(r + dr) * size + c + dc for dc in (-1, 0, 1) for dr in (-1, 0, 1)
                if (dc or dr) and 0 <= c + dc < size and 0 <= r + dr < size}

    for origin in position.amazons(me):
        for target in sorted(naive_reach(position, origin)):
            after = position.copy()
            after.board[origin], after.board[target] = 0, me
            opponents = position.amazons(opponent(me))
            reaches = [naive_reach(after, o) for o in opponents]
            near = set().union(*(king(o) for o in opponents))
            own = set().union(*(king(s) for s in [target] + [s for s in position.amazons(me) if s != origin]))

            def arrow_score(a: int) -> int:
                hits = sum(a in reach for reach in reaches)
                return (hits >= 1) + (hits >= 2) + 2 * (a in near) - (a in own)

            arrows = ordering.choices(Node(PICK_ARROW, me, origin, target), position)
            assert set(arrows) == naive_reach(position, target, (origin,))
            assert [arrow_score(a) for a in arrows] == sorted(map(arrow_score, arrows), reverse=True)
            assert arrows == sorted(arrows, key=lambda a: -arrow_score(a))  # ties: square order


@pytest.mark.parametrize("size", [6, 8, 10])
def test_cheap_order_fast_paths_match_the_sorts_they_replace(size):
    """The cheap order as the search builds it (arrows walked lazily from
    their score classes, reach counts packed by ReachCounter) against the
    plain sorts by the same scores (queen_reach counts, the arrow scorer),
    on 1,000 positions of seeded random games per size: the amazon node,
    one destination node and three arrow nodes of each. (The scorer and the
    classes share the score's masks, which the test above checks square by
    square.)"""
    from stargtp.engine.amazons.position import queen_reach
    from stargtp.engine.bits import bit_list

    rng = random.Random(size)
    ordering = MoveOrdering("cheap", random.Random(0), lambda: False)
    checked = 0
    while checked < 1000:
        position = random_position(rng.randrange(10**9), size, rng.randrange(size * size // 2))
        if position.is_over():
            continue
        checked += 1
        me = position.to_move
        occupied, ray_masks = position.occupied, position.geometry.ray_masks
        amazons = [s for s in position.amazons(me) if position.geometry.king_masks[s] & ~occupied]
        assert ordering.choices(Node(PICK_AMAZON, me), position) == sorted(
            amazons, key=lambda s: -queen_reach(s, occupied, ray_masks).bit_count())
        origin = rng.choice(amazons)
        lifted = occupied ^ (1 << origin)
        targets = ordering.choices(Node(PICK_DESTINATION, me, origin), position)
        assert targets == sorted(bit_list(queen_reach(origin, occupied, ray_masks)),
                                 key=lambda t: -queen_reach(t, lifted, ray_masks).bit_count())
        for _ in range(3):
            origin, target, _ = rng.choice(position.legal_moves())
            node = Node(PICK_ARROW, me, origin, target)
            expected = sorted(bit_list(queen_reach(target, occupied ^ (1 << origin), ray_masks)),
                              key=MoveOrdering._arrow_scorer(position, origin, target), reverse=True)
            assert ordering.choices(node, position) == expected
            first, more, count = ordering.start(node, position)
            assert first == [] and list(more) == expected and count == len(expected)


# -- the tree ---------------------------------------------------------------------------------

def check_counts(node: Node, is_root: bool = True, expand: int = 0) -> int:
    """Visits add up exactly at every node; return the number of nodes.
    ``expand``: the player's parameter (visits of a move before its
    position gets a node; 0, the default, makes it at the first)."""
    if node.choices is None:
        return 1
    total = sum(node.child_visits)
    if node.is_position() and node.choices:
        assert node.visits == total + (0 if is_root else 1)  # a new position node is a leaf once
    elif node.choices:
        assert node.visits == total
    for slot, visits in enumerate(node.child_visits):
        assert 0.0 <= node.child_wins[slot] <= visits
    count = 1
    for slot, child in node.children.items():
        inside_move = child.kind in (PICK_DESTINATION, PICK_ARROW)
        assert child.visits == node.child_visits[slot] - (0 if inside_move else expand)
        assert child.to_move == (node.to_move if inside_move else opponent(node.to_move))
        count += check_counts(child, False, expand)
    return count


@pytest.mark.parametrize("split,expand", [("1", 0), ("2", 0), ("3", 0), ("3", 1), ("2", 2)])
def test_tree_counts_root_statistics_and_answer(split, expand):
    position = random_position(2, 8, 6)
    player = AmazonsMcts(seed=7, split=split, expand=str(expand))
    result = player.genmove(position, Limits(playouts=300))
    assert result.playouts == 300
    nodes = check_counts(player.tree.root, expand=expand)
    assert nodes == player.tree.node_count
    assert sum(v for v, _ in result.root.values()) == 300
    visits, wins = result.root[result.move]
    assert result.winrate == wins / visits
    assert all(position.is_legal(m) for m in result.root)
    board = position.copy()
    for move in result.pv:  # the principal variation is a legal line
        board.play(move)
    assert result.pv[0] == result.move and len(result.pv) >= 2


def test_a_full_tree_still_searches_and_answers():
    position = Position(8)
    player = AmazonsMcts(seed=2, max_nodes="5")
    result = player.genmove(position, Limits(playouts=200))
    assert result.playouts == 200 and player.tree.node_count <= 5
    assert position.is_legal(result.move)


def test_win_probability():
    assert win_probability(0.5, 1.0) == 0.75
    assert win_probability(1.0, 4.0) == 1.0 and win_probability(-1.0, 4.0) == 0.0
    assert win_probability(0.0, 7.0) == 0.5
    steep = win_probability(0.2, 4.0)
    assert steep == pytest.approx(1.2 ** 4 / (1.2 ** 4 + 0.8 ** 4)) and steep > win_probability(0.2, 1.0)


# -- reproducibility and reuse ---------------------------------------------------------------

def test_a_seed_and_a_playout_limit_give_the_same_game_twice():
    # plies=2: the default search (plies=0, cheap order) draws no random numbers.
    first = self_play(AmazonsMcts(seed=42, plies="2"), 8, playouts=40)
    again = self_play(AmazonsMcts(seed=42, plies="2"), 8, playouts=40)
    other = self_play(AmazonsMcts(seed=43, plies="2"), 8, playouts=40)
    assert first == again and first != other


@pytest.mark.parametrize("split", ["1", "2", "3"])
def test_tree_reuse_keeps_the_subtree(split):
    position = Position(6)
    player = AmazonsMcts(seed=9, split=split)
    first = player.genmove(position, Limits(playouts=1500))
    tree = player.tree
    after_mine = tree.descend(tree.root, first.move)
    # The opponent answers with the most visited of its replies that have a node.
    replies = tree.move_statistics(after_mine)
    reply = max((m for m in replies if tree.descend(after_mine, m)), key=lambda m: replies[m][0])
    kept = tree.descend(after_mine, reply)
    assert kept is not None and kept.visits > 0
    visits_before = kept.visits
    position.play(first.move)
    position.play(reply)
    second = player.genmove(position, Limits(playouts=100))
    assert player.tree is tree and tree.root is kept
    assert kept.visits == visits_before + 100
    assert tree.node_count == check_counts(kept, is_root=False)
    assert second.move in position.legal_moves()


def test_tree_is_dropped_when_the_history_does_not_continue():
    position = Position(6)
    player = AmazonsMcts(seed=9)
    first = player.genmove(position, Limits(playouts=100))
    old_tree = player.tree
    other = next(m for m in position.legal_moves() if m != first.move)
    position.play(other)  # a move the tree never tried is fine too: new tree
    player.genmove(position, Limits(playouts=50))
    assert player.tree is not old_tree and player.tree.root.visits == 50
    position.undo()  # taken back: the history no longer extends the last one
    tree = player.tree
    player.genmove(position, Limits(playouts=50))
    assert player.tree is not tree
    player.set_param("exploration", "0.5")  # other settings: no reuse either
    assert player.tree is None


# -- limits and stopping ----------------------------------------------------------------------

def test_should_stop_interrupts_the_search():
    calls = []

    def should_stop() -> bool:
        calls.append(None)
        return len(calls) > 25

    position = Position(10)
    result = AmazonsMcts(seed=1).genmove(position, Limits(playouts=10**9), should_stop)
    assert position.is_legal(result.move)
    # The first iteration always runs; then a poll before each one: the
    # 26th call says stop.
    assert result.playouts == 26 and len(calls) == 26


def test_slow_node_setup_polls_too():
    """order=eval on whole moves evaluates ~2,000 moves at the 10x10 root; a
    stop request is noticed within that, and the answer is still legal."""
    calls = []

    def should_stop() -> bool:
        calls.append(None)
        return len(calls) >= 3

    position = Position(10)
    player = AmazonsMcts(seed=1, split="1", order="eval")
    result = player.genmove(position, Limits(playouts=1000), should_stop)
    assert result.playouts == 1 and position.is_legal(result.move)
    assert len(calls) >= 3


def test_time_limit():
    start = time.monotonic()
    result = AmazonsMcts(seed=1).genmove(Position(10), Limits(seconds=0.2))
    assert time.monotonic() - start < 10  # generous: only catches a hang
    assert result.playouts >= 1 and Position(10).is_legal(result.move)
    result = AmazonsMcts(seed=1).genmove(Position(10), Limits(seconds=0.0))
    assert result.playouts == 1


def test_default_playouts_apply_without_limits():
    result = AmazonsMcts(seed=1, playouts="37").genmove(Position(6), Limits())
    assert result.playouts == 37


# -- parameters -------------------------------------------------------------------------------

def test_parameters():
    player = AmazonsMcts(seed=1, komi="7.5", order="EVAL", split="2")
    params = player.params()
    assert params["komi"] == "7.5" and params["order"] == "eval" and params["split"] == "2"
    assert params["widening"] == "on" and params["reuse"] == "on"
    assert set(params) == set(AmazonsMcts.PARAMS)
    for name, value in [("split", "4"), ("order", "best"), ("sharpness", "0"), ("sharpness", "inf"),
                        ("widen_exponent", "2"), ("exploration", "-1"), ("playouts", "-3"),
                        ("max_nodes", "0"), ("plies", "x"), ("colour", "1")]:
        with pytest.raises(ValueError):
            player.set_param(name, value)
    assert player.params() == params  # nothing changed
    with pytest.raises(ValueError):
        player.genmove(object(), Limits(playouts=1))


# -- strength ---------------------------------------------------------------------------------

def play_game(white, black, size: int, playouts: int) -> int:
    """The winner; a settled position whose exact solo counts decide it ends the game."""
    position = Position(size)
    players = {WHITE: white, BLACK: black}
    while not position.is_over():
        if is_settled(position):
            winner = score(position, 5000).winner
            if winner is not None:
                return winner
        move = players[position.to_move].genmove(position, Limits(playouts=playouts)).move
        position.play(move)
    return opponent(position.to_move)


def wins_against_random_rollout_uct(size: int, games: int, playouts: int) -> int:
    """Games the evaluation search wins against UctPlayer, colours
    alternating. Amazons has no AMAF, so UctPlayer plays plain UCT with random
    playouts to the end; rave=off makes it use its ``exploration`` constant
    (with rave=on it would fall back to ``rave_exploration``, 0)."""
    wins = 0
    for game in range(games):
        mcts = AmazonsMcts(seed=100 + game)
        uct = UctPlayer(seed=200 + game, rave="off")
        mcts_colour = WHITE if game % 2 == 0 else BLACK
        if mcts_colour == WHITE:
            winner = play_game(mcts, uct, size, playouts)
        else:
            winner = play_game(uct, mcts, size, playouts)
        wins += winner == mcts_colour
    return wins


def test_evaluation_search_beats_random_rollout_uct_on_6x6():
    # Margin: at least 9 of 10 at 200 iterations a move each (today: 10 of 10).
    assert wins_against_random_rollout_uct(6, games=10, playouts=200) >= 9


def test_evaluation_search_beats_random_rollout_uct_on_8x8():
    # Margin: at least 7 of 8 at 100 iterations a move each (today: 8 of 8).
    assert wins_against_random_rollout_uct(8, games=8, playouts=100) >= 7


def test_the_speed_comparison_example_runs():
    """examples/bench_amazons_eval.py, against this same install: both sides
    print their figures and the ratios (no speed is asserted)."""
    script = Path(__file__).resolve().parent.parent / "examples" / "bench_amazons_eval.py"
    out = subprocess.run([sys.executable, str(script), "--other", sys.executable, "--runs", "1",
                          "--size", "6", "--iterations", "50"],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["run 1 this ", "run 1 other"]
    assert re.fullmatch(r"evaluations/s  this [\d,]+  other [\d,]+  ratio \d+\.\d\d", lines[2])
    assert re.fullmatch(r"iterations/s   this [\d,]+  other [\d,]+  ratio \d+\.\d\d", lines[3])


# Three searches as commit d67567e made them (before the evaluation packed
# both sides into one integer and the search loop was tightened): the move,
# how many root moves were visited, and the three most visited with their
# visits and wins. A faster evaluation or search loop must not change them.
SEARCHES_OF_D67567E = {
    6: ((6, 13, 14), 101, [((6, 13, 14), 544, 397.945198), ((11, 8, 14), 57, 31.13296),
                           ((11, 9, 14), 29, 14.837638)]),
    8: ((5, 53, 46), 158, [((5, 45, 36), 21, 20.925742), ((5, 45, 38), 21, 20.956534),
                           ((5, 45, 44), 21, 20.792965)]),
    10: ((6, 33, 88), 122, [((6, 33, 88), 81, 66.758475), ((6, 33, 24), 71, 58.520701),
                            ((6, 33, 34), 67, 54.981942)]),
}


# The same with other parameters (key: size and parameters): two levels per
# move (lazily opened arrows under pairs), no widening (every arrow opened),
# whole moves (no arrow level).
OTHER_SEARCHES_OF_D67567E = {
    (8, "split=2"): ((5, 29, 61), 109, [((5, 29, 13), 24, 23.900424), ((5, 29, 15), 24, 23.888744),
                                         ((5, 29, 38), 24, 23.88139)]),
    (6, "widening=off"): ((6, 13, 14), 151, [((6, 13, 14), 980, 717.996924), ((6, 13, 7), 29, 17.676352),
                                              ((6, 13, 8), 19, 10.888062)]),
    (10, "split=1,playouts=300"): ((83, 33, 83), 10, [((83, 33, 83), 126, 92.687139),
                                                      ((83, 43, 83), 60, 40.85907),
                                                      ((26, 44, 26), 36, 19.78392)]),
}


@pytest.mark.parametrize("size,params", [(6, ""), (8, ""), (10, ""), *OTHER_SEARCHES_OF_D67567E])
def test_the_search_is_the_one_of_d67567e(size, params):
    from stargtp.engine.players import make_player

    rng = random.Random(size * 100 + 10)
    p = Position(size)
    for _ in range(10):
        p.play_unchecked(random_move(p, rng))
    values = {"playouts": "1500", **dict(item.split("=") for item in params.split(",") if item)}
    result = make_player("amazons-mcts", seed=3, **values).genmove(p, Limits())
    move, visited, top = (OTHER_SEARCHES_OF_D67567E[size, params] if params
                          else SEARCHES_OF_D67567E[size])
    assert tuple(result.move) == move and result.playouts == int(values["playouts"])
    assert len(result.root) == visited
    most = sorted(result.root.items(), key=lambda item: (-item[1][0], tuple(item[0])))[:3]
    assert [(tuple(m), v) for m, (v, _) in most] == [(m, v) for m, v, _ in top]
    assert [w for _, (_, w) in most] == pytest.approx([w for _, _, w in top], abs=1e-6)


def test_a_search_that_reaches_a_lost_position_is_the_one_of_d67567e():
    """A late 6x6 search whose tree holds a position where the side to move
    has no move (the search's "lost" ending, which the searches above never
    reach) gives d67567e's moves, visits and wins."""
    from stargtp.engine.players import make_player

    rng = random.Random(1)
    p = Position(6)
    for _ in range(16):
        p.play_unchecked(random_move(p, rng))
    player = make_player("amazons-mcts", seed=3, playouts="1500")
    result = player.genmove(p, Limits())
    lost, stack = 0, [player._tree.root]
    while stack:
        node = stack.pop()
        lost += node.choices is not None and node.count == 0
        for slot, child in node.children.items():  # every visit counted once on each side (expand=0)
            assert child.visits == node.child_visits[slot]
            stack.append(child)
    assert lost == 1
    assert tuple(result.move) == (28, 23, 28) and len(result.root) == 33
    most = sorted(result.root.items(), key=lambda item: (-item[1][0], tuple(item[0])))[:3]
    assert [(tuple(m), v) for m, (v, _) in most] == [((28, 23, 28), 962), ((28, 23, 17), 118),
                                                     ((28, 23, 11), 110)]
    assert [w for _, (_, w) in most] == pytest.approx([862.384061, 100.063437, 92.761336], abs=1e-6)


# Searches on the paths the ones above do not take (a full tree, whose
# iterations finish a move at random and take it back with Position.undo
# among the search's own take-backs; random plies and the region terms at
# the leaf), as 286fb12 made them: the search's own play/undo of the moves
# must leave them as they were.
SEARCHES_OF_286FB12 = {
    (8, "max_nodes=60,plies=2"): ((17, 33, 32), 21, [((17, 33, 32), 1099, 861.461942),
                                                     ((17, 33, 17), 201, 150.879207),
                                                     ((17, 25, 32), 108, 80.031184)]),
    (8, "regions=on,region_eval=on"): ((17, 33, 32), 32, [((17, 33, 32), 1017, 804.702488),
                                                          ((17, 33, 40), 148, 110.591842),
                                                          ((17, 33, 25), 96, 70.4453)]),
    (10, "split=1,max_nodes=40,playouts=300"): ((45, 54, 72), 10, [((45, 54, 72), 40, 39.826305),
                                                                   ((45, 54, 24), 38, 37.698516),
                                                                   ((45, 54, 81), 37, 36.629142)]),
}


@pytest.mark.parametrize("size,params", list(SEARCHES_OF_286FB12))
def test_full_tree_and_leaf_options_search_as_before(size, params):
    from stargtp.engine.players import make_player

    rng = random.Random(size * 100 + 10)
    p = Position(size)
    for _ in range(30):
        p.play_unchecked(random_move(p, rng))
    values = {"playouts": "1500", **dict(item.split("=") for item in params.split(","))}
    result = make_player("amazons-mcts", seed=3, **values).genmove(p, Limits())
    move, visited, top = SEARCHES_OF_286FB12[size, params]
    assert tuple(result.move) == move and result.playouts == int(values["playouts"])
    assert len(result.root) == visited
    most = sorted(result.root.items(), key=lambda item: (-item[1][0], tuple(item[0])))[:3]
    assert [(tuple(m), v) for m, (v, _) in most] == [(m, v) for m, v, _ in top]
    assert [w for _, (_, w) in most] == pytest.approx([w for _, _, w in top], abs=1e-6)


# -- regions: separated positions solved in the tree -----------------------------------------

def separated_positions(count: int, size: int = 8) -> list[Position]:
    """Positions of seeded random games at the first ply where they are
    separated and the region solver decides them, the game not over."""
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        position = Position(size)
        while not position.is_over():
            if (is_settled(position) and RegionSolver(position.geometry).outcome(position) is not None
                    and position.count_moves() > 1):
                found.append(position)
                break
            position.play(random_move(position, rng))
    return found


def test_separated_positions_are_solved_in_the_tree():
    """With ``regions`` (a parameter, off by default) every move searched at a decided
    separated root scores exactly 0 or 1, the answer's win rate is the
    proved outcome, and the move keeps a won game won; without it the
    evaluation gives fractions."""
    fractional = 0
    for position in separated_positions(12):
        outcome = RegionSolver(position.geometry).outcome(position)
        result = AmazonsMcts(seed=3, regions="on").genmove(position, Limits(playouts=300))
        assert all(wins in (0, visits) for visits, wins in result.root.values())
        assert result.winrate == (1.0 if outcome == 1 else 0.0)
        after = position.copy()
        after.play(result.move)
        if outcome == 1:
            assert after.is_over() or RegionSolver(after.geometry).outcome(after) == -1
        plain = AmazonsMcts(seed=3).genmove(position, Limits(playouts=300))
        fractional += not all(wins in (0, visits) for visits, wins in plain.root.values())
    assert fractional == 9  # the other three have a move that wins at once


def test_a_solved_node_is_not_searched_below():
    position = separated_positions(1)[0]
    player = AmazonsMcts(seed=4, regions="on")
    player.genmove(position, Limits(playouts=500))
    stack = [player.tree.root]
    solved = 0
    while stack:
        node = stack.pop()
        if node.solved is not None:
            solved += 1
            assert node.choices is None and not node.children and node.solved in (0.0, 1.0)
        for slot, child in node.children.items():  # each visit of a solved node counted too
            assert child.visits == node.child_visits[slot]
            stack.append(child)
    assert solved > 0


def test_region_parameters():
    player = AmazonsMcts(seed=1)
    with pytest.raises(ValueError, match="region_nodes must be at least 1"):
        player.set_param("region_nodes", "0")
    position = separated_positions(1)[0]
    for params in ({"region_eval": "on"}, {"region_eval": "on", "regions": "on"}, {"region_nodes": "1", "regions": "on"}):
        result = AmazonsMcts(seed=2, **params).genmove(position, Limits(playouts=200))
        assert position.is_legal(result.move) and result.playouts == 200


# -- implicit minimax ------------------------------------------------------------------------

def minimax_from_scratch(node: Node, board: Position, sharpness: float) -> float:
    """``node``'s implicit minimax value for its side to move, recomputed
    from the tree and the evaluation alone, and every slot's stored value
    checked against it on the way: a solved node its proved value, a node
    never chosen from the evaluation's win probability, a position without
    a move 0, any other node the best value of its tried slots."""
    if node.solved is not None:
        return node.solved
    if node.choices is None:
        return win_probability(evaluate(board), sharpness)
    if node.count == 0:
        return 0.0
    best = -1.0
    for slot in range(node.tried):
        child = node.children[slot]
        if node.kind in (PICK_ARROW, PICK_MOVE):
            move = (Move(node.origin, node.target, node.choices[slot]) if node.kind == PICK_ARROW
                    else node.choices[slot])
            board.play_unchecked(move)
            value = minimax_from_scratch(child, board, sharpness)
            board.undo()
            if child.to_move != node.to_move:
                value = 1.0 - value
        else:
            value = minimax_from_scratch(child, board, sharpness)
        assert node.child_values[slot] == value
        best = max(best, value)
    return best


@pytest.mark.parametrize("split", ["1", "2", "3"])
@pytest.mark.parametrize("regions", ["off", "on"])
def test_implicit_minimax_values_are_the_minimax_of_the_leaf_evaluations(split, regions):
    """Every slot's stored value against a recomputation from scratch, after
    a search and after a second one on the reused tree; a late position, so
    that the tree holds lost and (with the solver) solved positions."""
    for position, checks in ((random_position(7, 6, 10), 2), (separated_positions(1)[0], 1)):
        player = AmazonsMcts(seed=5, split=split, regions=regions, minimax="0.4")
        first = player.genmove(position, Limits(playouts=600))
        tree = player.tree
        root_value = minimax_from_scratch(tree.root, position.copy(), 2.0)
        assert 0.0 <= root_value <= 1.0
        if checks == 2:  # the tree is kept for the position after the move
            assert len(set(tree.root.child_values[:tree.root.tried])) > 1
            position = position.copy()
            position.play(first.move)
            player.genmove(position, Limits(playouts=300))
            assert player.tree is tree
            minimax_from_scratch(tree.root, position.copy(), 2.0)


def test_implicit_minimax_weight_changes_the_search_and_is_checked():
    position = random_position(8, 8, 14)
    plain = AmazonsMcts(seed=3).genmove(position, Limits(playouts=1500))
    off = AmazonsMcts(seed=3, minimax="0").genmove(position, Limits(playouts=1500))
    on = AmazonsMcts(seed=3, minimax="0.5").genmove(position, Limits(playouts=1500))
    assert (plain.move, plain.root) == (off.move, off.root)
    assert plain.root != on.root and position.is_legal(on.move)
    player = AmazonsMcts(seed=1)
    for value in ("-0.1", "1.5", "nan", "x"):
        with pytest.raises(ValueError):
            player.set_param("minimax", value)
    assert player.params()["minimax"] == "0.0"
