"""Hex and Y (engine/hex, engine/y on the kernel engine/connection): the
geometry in HexGui's conventions, the fast winner against the from-scratch
reference (tests/connection_reference.py) over thousands of seeded random
positions, the swap rule, the playout, the records as HexGui writes them, the
text board, and the protocol through the descriptor.
"""

from __future__ import annotations

import asyncio
import json
import math
import random

import pytest

from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.connection.playout import full_board_winner, random_fill, tree_hooks
from stargtp.engine.errors import BadSize, CannotUndo, GameError, IllegalMove
from stargtp.engine.games import find_game, read_record
from stargtp.engine.hex import HEX
from stargtp.engine.hex import Position as HexPosition
from stargtp.engine.hex.geometry import geometry as hex_geometry
from stargtp.engine.sgf import SgfError
from stargtp.engine.y import Y
from stargtp.engine.y import Position as YPosition
from stargtp.engine.y.geometry import geometry as y_geometry
from stargtp.protocol.server.session import SessionConfig
from stargtp.protocol.tools.match.records import board_outcome
from tests.connection_reference import groups, reference_winner
from tests.conformance import full_state
from tests.gtp_helpers import converse, split_responses

HEX_SIZES = (1, 2, 5, 11, 19)
Y_SIZES = (1, 2, 5, 13, 19)
CASES = [pytest.param(HexPosition, size, id=f"hex-{size}") for size in HEX_SIZES] + \
        [pytest.param(YPosition, size, id=f"y-{size}") for size in Y_SIZES]


# -- geometry --------------------------------------------------------------------------


def test_hex_labels_and_edges_follow_hexgui() -> None:
    """HexPoint: ``a1`` is column 0, row 0; rows go down; black owns north
    and south (rows 1 and N), white west and east (columns a and the last)."""
    geo = hex_geometry(11)
    assert geo.cell_count == 121
    assert geo.labels[:3] == ("a1", "b1", "c1") and geo.labels[11] == "a2" and geo.labels[-1] == "k11"
    assert geo.goals == {BLACK: ("north", "south"), WHITE: ("west", "east")}
    corner = {label: sorted(geo.cells[geo.parse(label)].edges) for label in ("a1", "k1", "a11", "k11", "f6")}
    assert corner == {"a1": ["north", "west"], "k1": ["east", "north"], "a11": ["south", "west"],
                      "k11": ["east", "south"], "f6": []}
    near = [geo.labels[n] for n in geo.cells[geo.parse("f6")].neighbours]
    assert near == ["f5", "g5", "e6", "g6", "e7", "f7"]
    assert [geo.labels[n] for n in geo.cells[geo.parse("a1")].neighbours] == ["b1", "a2"]
    assert [geo.labels[n] for n in geo.cells[geo.parse("k1")].neighbours] == ["j1", "j2", "k2"]
    assert hex_geometry(19).labels[-1] == "s19"
    for bad in (0, 20, -1):
        with pytest.raises(BadSize):
            hex_geometry(bad)


def test_y_labels_and_edges_follow_hexgui() -> None:
    """GuiBoard's Y board: row r holds columns 0..r, apex a1; BoardDrawerY
    shifts each row half a cell left, so (c, r) touches (c, r+1), (c+1, r+1)."""
    geo = y_geometry(13)
    assert geo.cell_count == 13 * 14 // 2
    assert geo.labels[:6] == ("a1", "a2", "b2", "a3", "b3", "c3") and geo.labels[-1] == "m13"
    assert geo.goals == {BLACK: ("west", "east", "south"), WHITE: ("west", "east", "south")}
    edges = {label: sorted(geo.cells[geo.parse(label)].edges) for label in ("a1", "a13", "m13", "a5", "e5", "f13", "c5")}
    assert edges == {"a1": ["east", "west"], "a13": ["south", "west"], "m13": ["east", "south"],
                     "a5": ["west"], "e5": ["east"], "f13": ["south"], "c5": []}
    assert [geo.labels[n] for n in geo.cells[geo.parse("c5")].neighbours] == ["b4", "c4", "b5", "d5", "c6", "d6"]
    assert [geo.labels[n] for n in geo.cells[geo.parse("a1")].neighbours] == ["a2", "b2"]
    with pytest.raises(IllegalMove):
        geo.parse("b1")  # not a cell of the triangle
    assert y_geometry(1).cells[0].edges == {"west", "east", "south"}


@pytest.mark.parametrize("position_class, size", CASES)
def test_geometry_is_consistent(position_class, size: int) -> None:
    """Neighbours are symmetric and exactly the cells whose centres are 1
    apart; the bit layout's shifts find the same neighbours; the JSON shape."""
    geo = position_class.make_geometry(size)
    for cell in geo.cells:
        assert geo.parse(cell.label.upper()) == cell.index
        for other in geo.cells:
            distance = math.hypot(cell.x - other.x, cell.y - other.y)
            touching = other.index in cell.neighbours
            assert touching == (cell.index in other.neighbours)
            assert touching == (abs(distance - 1) < 1e-9), (cell.label, other.label)
            if other.index != cell.index:
                assert distance > 1 - 1e-9
        assert geo.spread(geo.bit_of[cell.index]) == geo.bit_of[cell.index] | geo.neighbour_bits[cell.index]
        assert geo.neighbour_bits[cell.index] == geo.mask_of(cell.neighbours)
    assert geo.bit_of[geo.swap_move] & geo.all_bits == 0 and geo.bit_of[geo.swap_move] < 1 << geo.bits
    assert len(set(geo.bit_of)) == geo.cell_count + 1
    data = json.loads(json.dumps(geo.describe()))
    assert data["size"] == size and len(data["cells"]) == geo.cell_count
    assert data["cells"][0]["label"] == "a1" and data["cells"][0]["x"] == 0
    assert set(data["goals"]) == {"black", "white"}


@pytest.mark.parametrize("position_class, size", CASES)
def test_flood_is_the_group_of_the_neighbour_lists(position_class, size: int) -> None:
    """The geometry's unrolled flood (the position's and the playout's)
    finds exactly the groups that a search over neighbour lists finds, on
    random stone sets of every density, and a pickled board floods alike."""
    import pickle

    geo = position_class.make_geometry(size)
    rng = random.Random(size)
    for trial in range(60):
        board = [BLACK if rng.random() < trial / 60 else EMPTY for _ in geo.cells]
        within = geo.mask_of(c for c, v in enumerate(board) if v == BLACK)
        for group in groups(geo, board, BLACK):
            seed = geo.bit_of[min(group)]
            assert geo.flood(seed, within) == geo.mask_of(group)
            assert geo.grow(seed, within) == geo.mask_of(group)
        assert geo.flood(geo.all_bits, 0) == 0
    copy = pickle.loads(pickle.dumps(geo))
    assert copy.flood(geo.bit_of[0], geo.all_bits) == geo.all_bits


# -- the fast winner against the reference -----------------------------------------------------


def _random_game(position_class, size: int, rng: random.Random, swap: bool) -> int:
    """Play one seeded random game, checking the winner after every move
    against the reference and that undo restores every attribute; the
    number of positions checked."""
    position = position_class(size, swap=swap)
    states = [full_state(position)]
    checked = 0
    while not position.is_over():
        moves = position.legal_moves()
        position.play(rng.choice(moves), None)
        assert position.winner() == reference_winner(position.geometry, position.board)
        for colour, bits in ((BLACK, position.black_bits), (WHITE, position.white_bits)):
            assert bits == position.geometry.mask_of(c for c, v in enumerate(position.board) if v == colour)
        checked += 1
        if rng.random() < 0.3:
            after = full_state(position)
            position.undo()
            assert full_state(position) == states[-1]
            position.play(after["history"][-1][1], None)  # the same move again
            assert full_state(position) == after
        states.append(full_state(position))
    assert position.winner() in (BLACK, WHITE)
    while position.history:
        position.undo()
        states.pop()
        assert full_state(position) == states[-1]
    with pytest.raises(CannotUndo):
        position.undo()
    return checked


GAMES = {1: 40, 2: 60, 5: 120, 11: 30, 13: 20, 19: 8}
"""Random games per board size (half with the swap rule on)."""
POSITIONS = {"hex-1": 40, "hex-2": 215, "hex-5": 2503, "hex-11": 3209, "hex-19": 2654,
             "y-1": 40, "y-2": 190, "y-5": 1580, "y-13": 1651, "y-19": 1425}
"""The positions those seeded games check, per case: thousands in all."""


@pytest.mark.parametrize("position_class, size", CASES)
def test_winner_after_every_move_matches_the_reference(position_class, size: int) -> None:
    rng = random.Random(f"{position_class.game}-{size}")
    checked = sum(_random_game(position_class, size, rng, swap=(i % 2 == 1)) for i in range(GAMES[size]))
    assert checked == POSITIONS[f"{position_class.game}-{size}"]


def test_full_board_has_exactly_one_winner_and_the_playout_finds_it() -> None:
    rng = random.Random(7)
    for position_class, sizes in ((HexPosition, HEX_SIZES), (YPosition, Y_SIZES)):
        for size in sizes:
            for _ in range(20 if size <= 5 else 4):
                position = position_class(size)
                for _ in range(rng.randrange(position.geometry.cell_count // 2 + 1)):
                    if position.is_over():
                        break
                    position.play(rng.choice(position.legal_moves()))
                before = full_state(position)
                winner, black, white = random_fill(position, rng)
                assert full_state(position) == before  # the playout leaves the position alone
                geo = position.geometry
                board = [BLACK if black & geo.bit_of[c] else WHITE if white & geo.bit_of[c] else EMPTY
                         for c in range(geo.cell_count)]
                assert EMPTY not in board and black & white == 0
                assert winner == reference_winner(geo, board) or position.is_over()
                if not position.is_over():
                    filled = sum(v == EMPTY for v in position.board)
                    mine = position.black_bits if position.to_move == BLACK else position.white_bits
                    new_mine = (black if position.to_move == BLACK else white) & ~mine
                    assert bin(new_mine).count("1") == (filled + 1) // 2  # the side to move first
                    assert full_board_winner(black, white, geo) == winner
                hooks = tree_hooks(position)
                assert all(0 <= hooks.amaf_index(m) < hooks.amaf_width for m in range(geo.cell_count + 1))


# -- the swap rule ---------------------------------------------------------------------


def test_hex_swap_keeps_the_stone_and_the_colour_to_move() -> None:
    """HexGui: after B[f6] W[swap-pieces] the board is unchanged and white
    moves again (the players have exchanged colours)."""
    position = HexPosition(11, swap=True)
    assert position.parse_move("swap-pieces") == position.parse_move("SWAP") == 121
    assert not position.is_legal(121)  # not as the first move
    position.play(position.parse_move("f6"))
    before = list(position.board)
    assert position.legal_moves()[-1] == 121 and position.is_legal(121) and not position.is_legal(121, BLACK)
    with pytest.raises(IllegalMove):
        position.play(121, BLACK)
    position.play(121)
    assert position.board == before and position.to_move == WHITE
    assert position.history == [(BLACK, 60), (WHITE, 121)]
    assert position.format_move(121) == "swap-pieces"
    assert not position.is_legal(121) and 121 not in position.legal_moves()
    position.play(position.parse_move("e7"))
    assert position.to_move == BLACK
    position.undo()
    position.undo()
    assert position.board == before and position.to_move == WHITE and position.is_legal(121)


def test_y_swap_turns_the_stone_over() -> None:
    """HexGui: after B[c3] W[swap-pieces] on a Y board the stone is white and
    black moves."""
    position = YPosition(5, swap=True)
    c3 = position.parse_move("c3")
    position.play(c3)
    position.play(position.geometry.swap_move)
    assert position.board[c3] == WHITE and position.to_move == BLACK
    assert position.white_bits == position.geometry.bit_of[c3] and position.black_bits == 0
    position.undo()
    assert position.board[c3] == BLACK and position.to_move == WHITE
    assert position.black_bits == position.geometry.bit_of[c3] and position.white_bits == 0


def test_swap_is_off_by_default_and_never_after_a_set_up() -> None:
    for game in (HEX, Y):
        assert game.option("swap").default is False
        position = game.new_position(5)
        position.play(0)
        swap = position.geometry.swap_move
        assert not position.is_legal(swap) and swap not in position.legal_moves()
        with pytest.raises(IllegalMove, match="swap rule, which is off"):
            position.play(swap)
        board = [EMPTY] * position.geometry.cell_count
        board[0] = BLACK
        set_up = game.from_setup(board, WHITE)
        assert not set_up.is_legal(swap)
        with pytest.raises(GameError):
            game.new_position(5, {"swap": "yes"})  # the position takes a bool, the option's parse reads text
        assert game.option("swap").parse("on") is True


# -- results and the board text ---------------------------------------------------------


def test_result_is_the_winner_without_a_margin() -> None:
    position = HexPosition(2)
    with pytest.raises(GameError, match="no side has joined its edges"):
        HEX.score(position, 0.0).gtp_result()
    for label in ("a1", "b1", "a2"):  # black a1 then a2 joins north and south
        position.play(position.parse_move(label))
    report = HEX.score(position, 0.0)
    assert report.gtp_result() == "B+" and report.winner == BLACK
    assert report.describe(position) == ["result: B+ (black wins: black joined north and south)",
                                         "  winning group: a1 a2"]
    assert report.to_json(position) == {"reason": "black joined north and south", "group": ["a1", "a2"]}
    assert position.legal_moves() == [] and not position.is_legal(position.parse_move("b2"))
    fresh = HexPosition(2)
    assert not fresh.is_legal(True) and not fresh.is_legal(-1) and not fresh.is_legal(4)  # 4: swap, off
    with pytest.raises(IllegalMove):
        fresh.play(True)


def test_the_match_records_a_connection_as_the_reason() -> None:
    # A won Hex or Y game ended because a player joined its edges: the match
    # record says so (reason connection, not no_moves), with the words.
    for game, labels, ending in ((HEX, ("a1", "b1", "a2"), "black joined north and south"),
                                 (Y, ("a1", "b2", "a2", "c3", "a3"), "black joined west, east and south")):
        position = game.new_position(2 if game is HEX else 3)
        for label in labels:
            position.play(position.parse_move(label))
        assert position.is_over() and position.over_reason() == ending
        outcome = board_outcome(position, 0.0)
        assert outcome == {"winner": BLACK, "reason": "connection", "ending": ending, "result": "B+",
                           "score": game.score(position, 0.0).to_json(position)}


def test_board_text() -> None:
    position = HexPosition(3)
    position.play(position.parse_move("b2"))
    assert position.render_text() == (
        "     a b c\n"
        "  1  . . .  1\n"
        "   2  .(X).  2\n"
        "    3  . . .  3\n"
        "to move: white (O)  moves: 1")
    position = YPosition(3, swap=True)
    position.play(position.parse_move("a3"))
    assert position.render_text() == (
        "    1  .  1\n"
        "   2  . .  2\n"
        "  3 (X). .  3\n"
        "     a b c\n"
        "to move: white (O)  moves: 1  swap rule: on")
    for position in (HexPosition(19), YPosition(19)):
        assert max(len(line) for line in position.render_text().splitlines()) <= 80


# -- records (SGF) ----------------------------------------------------------------------------

HEXGUI_GAME = (
    # As hexgui/sgf/SgfWriter.java writes a game: root properties in TreeMap
    # order, a move first in its node, lines cut before 72 characters.
    "(;AP[HexGui:0.9]FF[4]GM[11]SZ[11];B[f6];W[swap-pieces];W[e7];B[d8];W[d7]\n"
    ";B[c8];W[c7];B[b8];W[b7];B[a8]C[comment];W[g5]\n"
)
HEXGUI_POSITION = "(;AP[HexGui:0.9]FF[4]GM[11]SZ[5];AB[a1][c3]AW[b2]PL[W])\n"
"""HexGui's "save position as": a set-up node after the root."""


def test_reads_a_game_as_hexgui_writes_it() -> None:
    position = read_record(HEXGUI_GAME + ")\n")
    assert position.game == "hex" and position.size == 11 and position.swap
    texts = [position.format_move(move) for _, move in position.history]
    assert texts == ["f6", "swap-pieces", "e7", "d8", "d7", "c8", "c7", "b8", "b7", "a8", "g5"]
    assert [colour for colour, _ in position.history][:4] == [BLACK, WHITE, WHITE, BLACK]
    assert position.to_move == BLACK


def test_reads_a_position_as_hexgui_saves_it() -> None:
    position = read_record(HEXGUI_POSITION)
    assert position.game == "hex" and position.history == [] and position.to_move == WHITE
    assert [position.format_move(c) for c, v in enumerate(position.board) if v == BLACK] == ["a1", "c3"]
    assert [position.format_move(c) for c, v in enumerate(position.board) if v == WHITE] == ["b2"]
    text = HEX.write_record(position)
    assert text == ("(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[5]\n"
                    ";AB[a1][c3]AW[b2]PL[W]\n"
                    ")\n")
    again = read_record(text)
    assert again.setup() == position.setup() and again.board == position.board


def test_y_records_are_marked_and_hexgui_y_records_read_as_y() -> None:
    position = YPosition(4)
    for label in ("b3", "a4", "d4"):
        position.play(position.parse_move(label))
    text = Y.write_record(position)
    assert text.splitlines()[0] == "(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[4]BOARD[Y]"
    assert read_record(text).game == "y" and read_record(text).history == position.history
    hexgui_y = "(;AP[HexGui:0.9]FF[4]GM[11]SZ[4];B[b3];W[a4];B[d4])\n"  # HexGui marks nothing
    assert read_record(hexgui_y).game == "hex"  # by the number alone it is Hex
    assert Y.read_record(hexgui_y).history == position.history  # Y's reader takes it
    with pytest.raises(SgfError, match="is of Y"):
        HEX.read_record(text)


@pytest.mark.parametrize("game", [HEX, Y], ids=["hex", "y"])
def test_records_round_trip(game) -> None:
    rng = random.Random(game.name)
    for size in (1, 2, 5, game.default_size):
        for swap in (False, True):
            position = game.new_position(size, {"swap": swap})
            for _ in range(rng.randrange(position.geometry.cell_count + 1)):
                if position.is_over():
                    break
                position.play(rng.choice(position.legal_moves()))
            text = game.write_record(position)
            again = game.read_record(text)
            assert again.history == position.history and again.board == position.board
            assert again.swap == swap  # the rule, whether or not anybody swapped
            assert again.to_move == position.to_move and again.winner() == position.winner()
            if position.is_over():
                assert f"RE[{game.score(position, 0.0).gtp_result()}]" in text


def test_the_swap_rule_is_read_from_ru_or_a_swap_move() -> None:
    """``RU[swap]`` (written for every game with the rule on) or a swap move
    turns the rule on; another ``RU`` does not, and it is not kept."""
    ruled = {"(;GM[11]SZ[5]RU[swap];B[c3])": True, "(;GM[11]SZ[5]RU[ Swap, LG ];B[c3])": True,
             "(;GM[11]SZ[5];B[c3];W[swap])": True, "(;GM[11]SZ[5]RU[noswap];B[c3])": False,
             "(;GM[11]SZ[5]RU[];B[c3])": False, "(;GM[11]SZ[5];B[c3])": False}
    for text, swap in ruled.items():
        assert HEX.read_record(text).swap is swap, text
        assert Y.read_record(text).swap is swap, text
    position = HexPosition(5, swap=True)
    position.play(position.parse_move("c3"))
    assert HEX.write_record(position).splitlines()[0] == "(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[5]RU[swap]"
    assert "RU" not in HEX.write_record(HexPosition(5))


def test_record_variants_and_errors() -> None:
    lg = read_record("(;FF[4]GM[11]SZ[5];B[cc];W[swap];W[ab];B[resign])")
    assert [lg.format_move(m) for _, m in lg.history] == ["c3", "swap-pieces", "a2"]
    assert read_record("(;GM[11]SZ[5:5];B[A1])").size == 5
    bad = {
        "(;GM[11]SZ[5:6])": "bad SZ",
        "(;GM[11]SZ[20])": "Hex boards are 1..19",
        "(;GM[11]SZ[5];B[f1])": "'f1' is no cell",
        "(;GM[11]SZ[5];B[a1];W[a1])": "move 2 \\(W\\[a1\\]\\): a1 is occupied",
        "(;GM[11]SZ[5];B[a1];AW[b2])": "after a move",
        "(;GM[11]SZ[5];B[resign];W[a1])": "after a resignation",
        "(;GM[11]SZ[5];B[a1];W[b1];W[swap-pieces])": "swap-pieces is only the second move",
        "(;GM[11]SZ[5]AB[a1]PL[X])": "bad PL",
    }
    for text, message in bad.items():
        with pytest.raises(SgfError, match=message):
            read_record(text)


# -- the protocol, through the descriptor ---------------------------------------------------


def gtp(lines: list[str], game: str) -> list[str]:
    config = SessionConfig(game=game, player="uct", seed=1, playouts=100, workers=1)
    data = "".join(f"{i} {line}\n" for i, line in enumerate(lines, 1)).encode()
    output, _ = asyncio.run(converse(data, config))
    answers = []
    for i, response in enumerate(split_responses(output), 1):
        text = response.decode()
        head = text[0] + str(i)
        assert text.startswith(head), (i, text)
        answers.append(text[0] + text[len(head):].rstrip("\n"))
    return answers


def test_protocol_plays_hex_and_y() -> None:
    answers = gtp(["boardsize 3", "boardsize 4 4", "boardsize 4 5", "play b a1", "play w a1", "play b a2",
                   "is_legal b a3", "is_legal w swap-pieces", "final_score", "play w b1", "play b a3",
                   "play w b2", "play b a4", "final_score", "all_legal b", "undo", "all_legal w",
                   "genmove w", "list_games"], "hex")
    assert answers[:2] == ["=", "="] and answers[2].startswith("? unacceptable size")
    assert answers[3] == "=" and answers[4] == "? illegal move: a1 is occupied"
    assert answers[6:9] == ["= 1", "= 0", "? cannot score: no side has joined its edges"]
    assert answers[13] == "= B+"
    assert answers[14] == "="  # nothing is legal once the game is won
    assert answers[16] == "= c1 d1 c2 d2 b3 c3 d3 a4 b4 c4 d4"
    assert answers[18].split("\n")[-2:] == ["Hex", "Y"]
    answers = gtp(["boardsize 2", "play b a2", "showboard", "play w b2", "play b a1", "final_score",
                   "printsgf"], "y")
    assert answers[2] == "=\n   1  .  1\n  2 (X).  2\n     a b\nto move: white (O)  moves: 1"
    assert answers[5] == "= B+"
    assert answers[6] == "= (;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[2]BOARD[Y]RE[B+]\n;B[a2]\n;W[b2]\n;B[a1]\n)"


def test_protocol_loads_hexgui_records_as_the_game_they_are() -> None:
    answers = gtp([f"stargtp-loadsgf-text {HEXGUI_GAME.replace(chr(10), ' ')})", "game", "query_boardsize",
                   "play b a1", "stargtp-loadsgf-text (;GM[11]SZ[4]BOARD[Y];B[b3];W[swap])", "game",
                   "showboard", "genmove b"], "star")
    assert answers[:4] == ["=", "= hex", "= 11", "="]
    assert answers[4:6] == ["=", "= y"]
    assert answers[6] == ("=\n     1  .  1\n    2  . .  2\n   3  . O .  3\n  4  . . . .  4\n"
                          "     a b c d\nto move: black (X)  moves: 2  swap rule: on")  # b3 turned white
    assert answers[7].startswith("= ")  # the worker rebuilt the position with the swap rule on


def test_descriptors() -> None:
    for game, name in ((HEX, "hex"), (Y, "y")):
        assert find_game(name) is game and game.sgf_number == 11 and game.no_move(None, 0.0) is None
        assert game.options_of(game.new_position(3, {"swap": True})) == {"swap": True}
    assert HEX.default_size == 11 and Y.default_size == 13
    assert HEX.sizes == Y.sizes == tuple(range(1, 20))
