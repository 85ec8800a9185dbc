"""Set-up for every game and SGF game trees over the protocol (issue 25):
``stargtp-setup``, ``stargtp-sgf-tree``, ``stargtp-sgf-write``, set-up in
``printsgf``/``loadsgf``, and the ``setup`` field of ``stargtp-games``."""

from __future__ import annotations

import asyncio
import json

import pytest

from stargtp.engine.games import find_game, read_record, read_tree
from stargtp.engine.sgf import main_line, parse_tree, read_line
from stargtp.protocol.server.session import SessionConfig
from tests.gtp_helpers import converse, split_responses

CONFIG = SessionConfig(player="random", seed=5)


def talk(*lines: str) -> tuple[list[str], object]:
    data = ("\n".join(lines) + "\n").encode()
    output, session = asyncio.run(converse(data, CONFIG))
    return [r.decode() for r in split_responses(output)], session


def one_line(record: str) -> str:
    """A multi-line record as the single line stargtp-loadsgf-text takes."""
    return " ".join(record.split("\n"))


# -- stargtp-setup ----------------------------------------------------------------------

SETUPS = {
    # game, size, the command's arguments, printsgf's record of the set-up
    "star": (4, "white black S40 *40 white S41",
             "(;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[4]AB[*40][S40]AW[S41]PL[W]\n)"),
    "amazons": (6, "black black d1 white a6 arrow c4 d5",
                "(;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[6]AB[aa]AW[df]AA[cc][db]PL[W]\n)"),
    "hex": (3, "white black a1 c3 white b2",
            "(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[3]\n;AB[a1][c3]AW[b2]PL[W]\n)"),
    "y": (3, "b black a1 white A3",
          "(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[3]BOARD[Y]\n;AB[a1]AW[a3]PL[B]\n)"),
}


@pytest.mark.parametrize("game", list(SETUPS))
def test_setup_replaces_the_position_in_every_game(game):
    size, args, record = SETUPS[game]
    answers, session = talk(f"game {game}", f"boardsize {size}", f"stargtp-setup {args}", "undo",
                            "printsgf", "clear_board", f"stargtp-loadsgf-text {one_line(record)}",
                            "printsgf", "genmove " + args.split()[0])
    assert answers[:5] == ["=\n\n", "=\n\n", "=\n\n", "? cannot undo\n\n", f"= {record}\n\n"]
    assert answers[5:8] == ["=\n\n", "=\n\n", f"= {record}\n\n"]  # loaded back: the same set-up
    position = session.state.position
    assert len(position.history) == 1  # the engine played from the set-up
    board, to_move = position.setup()
    assert position.rules.setup_of(position) is not None
    kinds = position.rules.setup_of(position)[1]
    words = args.split()
    placed = {}
    kind = None
    for word in words[1:]:
        if word in kinds:
            kind = word
        else:
            placed[word.lower()] = kind
    assert {point.lower(): k for k, points in kinds.items() for point in points} == placed


def test_the_rules_of_a_set_up_game_stay():
    answers, _ = talk("game hex", "boardsize 3", "stargtp-setup w black a1", "stargtp-rules swap on",
                      "stargtp-rules swap")
    assert answers[3:] == ["? cannot change rule: the rules of a game that starts from a set-up cannot change;"
                           " clear_board first\n\n", "= off\n\n"]


def test_setup_shows_in_the_views_and_the_board():
    answers, _ = talk("boardsize 2", "stargtp-setup w black *20 white S20", "stargtp-position")
    data = json.loads(answers[2][2:])
    assert data["to_move"] == "white" and data["moves"] == []
    assert data["board"]["black"] == ["*20"] and data["board"]["white"] == ["S20"]


def test_setup_of_the_usual_start_is_no_setup():
    # The empty board with the first mover to move (the Amazons' usual start)
    # is the game's start: the record has no set-up.
    answers, session = talk("boardsize 3", "stargtp-setup black", "printsgf", "game hex", "boardsize 3",
                            "stargtp-setup b", "printsgf", "game amazons", "boardsize 6",
                            "stargtp-setup white white b1 e1 a2 f2 black a5 f5 b6 e6", "printsgf")
    assert answers[:3] == ["=\n\n", "=\n\n", "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[3]\n)\n\n"]
    assert answers[5:7] == ["=\n\n", "= (;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[3]\n)\n\n"]
    assert answers[9:] == ["=\n\n", "= (;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[6]AB[bf][ef][ae][fe]"
                                    "AW[ab][fb][ba][ea]\n)\n\n"]
    assert session.state.position.setup() is None


def test_an_empty_amazons_board_is_written_as_one():
    # Without a set-up property an Amazons record starts from the usual
    # start, so an empty board says AE over the whole board.
    answers, session = talk("game amazons", "boardsize 6", "stargtp-setup w", "printsgf", "clear_board",
                            "stargtp-loadsgf-text (;GM[18]SZ[6]AE[aa:ff])", "stargtp-position")
    assert answers[3] == "= (;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[6]AE[aa:ff]\n)\n\n"
    board = json.loads(answers[6][2:])["board"]
    assert not any(board.values()), board


def test_setup_errors_change_nothing():
    answers, session = talk(
        "game amazons", "boardsize 6", "play w e1-e3/e4",
        "stargtp-setup black black d1 d1",
        "stargtp-setup black black d1 white d1",
        "stargtp-setup black stone d1",
        "stargtp-setup black black z9",
        "stargtp-setup black d1",
        "stargtp-setup purple black d1",
        "stargtp-setup",
        "printsgf")
    assert answers[3:10] == [
        "? d1 is given twice (black and black)\n\n",
        "? d1 is given twice (black and white)\n\n",
        "? 'stone' is no kind of piece (black, white, arrow) and no point of the board (6 squares a side)\n\n",
        "? 'z9' is no kind of piece (black, white, arrow) and no point of the board (6 squares a side)\n\n",
        "? syntax error: a kind of piece (black, white, arrow) comes before its points, not d1\n\n",
        "? syntax error: invalid colour\n\n",
        "? syntax error: expected the colour to move, then KIND POINT...\n\n",
    ]
    assert answers[10] == ("= (;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[6]AB[bf][ef][ae][fe]AW[ab][fb][ba][ea]\n"
                           ";B[efedec]\n)\n\n")
    assert len(session.state.position.history) == 1


def test_star_setup_rules():
    """A *Star set-up has no history: two passes after it end the game, and
    it is scored by its stones alone; a full board is a finished game."""
    star = find_game("star")
    position = star.set_up(2, 1, [("black", ["*10", "S10", "T10", "A10", "R10"]), ("white", ["*20"])])
    assert not position.is_over()
    position.play(position.parse_move("pass"))
    position.play(position.parse_move("pass"))
    assert position.is_over() and star.score(position, 0.0).gtp_result() == star.score(
        star.set_up(2, 1, [("black", ["*10", "S10", "T10", "A10", "R10"]), ("white", ["*20"])]),
        0.0).gtp_result()
    names = list(star.setup_rules.points(position))
    full = star.set_up(2, 2, [("black", names[::2]), ("white", names[1::2])])
    assert full.is_over() and full.history == []


# -- stargtp-games ----------------------------------------------------------------------


def test_games_list_the_setup_kinds_from_the_descriptor():
    answers, _ = talk("stargtp-games")
    games = {game["name"]: game["setup"] for game in json.loads(answers[0][2:])["games"]}
    assert games["amazons"] == [{"kind": "black", "label": "Black amazon"},
                                {"kind": "white", "label": "White amazon"}, {"kind": "arrow", "label": "Arrow"}]
    stones = [{"kind": "black", "label": "Black stone"}, {"kind": "white", "label": "White stone"}]
    assert games["star"] == games["hex"] == games["y"] == stones


# -- game trees -------------------------------------------------------------------------

TREES = {
    "star": (
        "(;GM[2004]SZ[3]KM[0.5]C[a study]AB[*10]AW[S10]PL[B](;B[T10]C[main];W[A10](;B[R10])(;B[]XX[review]))"
        "(;B[*20]N[other]))",
        '{"game":"star","size":3,"komi":0.5,"options":{},"properties":{"C":["a study"]},'
        '"setup":{"to_move":"black","black":["*10"],"white":["S10"]},"children":['
        '{"colour":"black","move":"T10","properties":{"C":["main"]},"children":['
        '{"colour":"white","move":"A10","properties":{},"children":['
        '{"colour":"black","move":"R10","properties":{},"children":[]},'
        '{"colour":"black","move":"pass","properties":{"XX":["review"]},"children":[]}]}]},'
        '{"colour":"black","move":"*20","properties":{"N":["other"]},"children":[]}]}',
        "(;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[3]KM[0.5]C[a study]AB[*10]AW[S10]PL[B]\n"
        "(;B[T10]C[main]\n;W[A10]\n(;B[R10]\n)\n(;B[]XX[review]\n)\n)\n(;B[*20]N[other]\n)\n)"),
    "amazons": (
        "(;GM[18]SZ[6]GN[g](;B[bfbcdc]SBKV[55.5];W[abadcd])(;B[efedee]))",
        '{"game":"amazons","size":6,"komi":0.0,"options":{},"properties":{"GN":["g"]},"setup":null,'
        '"children":[{"colour":"white","move":"b1-b4/d4","properties":{"SBKV":["55.5"]},"children":['
        '{"colour":"black","move":"a5-a3/c3","properties":{},"children":[]}]},'
        '{"colour":"white","move":"e1-e3/e2","properties":{},"children":[]}]}',
        "(;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[6]AB[bf][ef][ae][fe]AW[ab][fb][ba][ea]GN[g]\n"
        "(;B[bfbcdc]SBKV[55.5]\n;W[abadcd]\n)\n(;B[efedee]\n)\n)"),
    "hex": (
        "(;GM[11]SZ[3];AB[a1]PL[W](;W[b2]C[x];B[c3])(;W[c1]))",
        '{"game":"hex","size":3,"komi":0.0,"options":{"swap":false},"properties":{},'
        '"setup":{"to_move":"white","black":["a1"],"white":[]},"children":['
        '{"colour":"white","move":"b2","properties":{"C":["x"]},"children":['
        '{"colour":"black","move":"c3","properties":{},"children":[]}]},'
        '{"colour":"white","move":"c1","properties":{},"children":[]}]}',
        "(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[3]\n;AB[a1]PL[W]\n(;W[b2]C[x]\n;B[c3]\n)\n(;W[c1]\n)\n)"),
    "y": (
        "(;GM[11]SZ[3]BOARD[Y]PB[me](;B[a1];W[b2])(;B[c3]))",
        '{"game":"y","size":3,"komi":0.0,"options":{"swap":false},"properties":{"PB":["me"]},"setup":null,'
        '"children":[{"colour":"black","move":"a1","properties":{},"children":['
        '{"colour":"white","move":"b2","properties":{},"children":[]}]},'
        '{"colour":"black","move":"c3","properties":{},"children":[]}]}',
        "(;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[3]BOARD[Y]PB[me]\n(;B[a1]\n;W[b2]\n)\n(;B[c3]\n)\n)"),
}


@pytest.mark.parametrize("game", list(TREES))
def test_tree_round_trip_in_every_game(game):
    record, tree, written = TREES[game]
    answers, session = talk("boardsize 5", "play b S50", f"stargtp-sgf-tree {record}",
                            f"stargtp-sgf-write {tree}", f"stargtp-sgf-tree {one_line(written)}", "printsgf")
    assert answers[2] == f"= {tree}\n\n"
    assert answers[3] == f"= {written}\n\n"
    assert answers[4] == f"= {tree}\n\n"  # tree -> SGF -> tree: the same tree
    # Neither command changes the session.
    assert answers[5] == "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[5]\n;B[S50]\n)\n\n"
    # loadsgf follows the main line and ignores the properties it does not know.
    position = read_record(written)
    tree_data = json.loads(tree)
    line, node = [], tree_data
    while node["children"]:
        node = node["children"][0]
        line.append(node["move"])
    assert [position.format_move(move) for _, move in position.history] == line


def test_tree_of_a_record_is_its_main_line_for_loadsgf():
    # The engine's two readers agree: the tree's first children are the
    # moves loadsgf plays.
    for game, (record, _, _) in TREES.items():
        _, tree = read_tree(record)
        position = read_line(record, find_game(game).record_codec)
        moves, children = [], tree.children
        while children:
            moves.append(children[0].move)
            children = children[0].children
        assert moves == [position.format_move(move) for _, move in position.history]


def test_a_move_in_the_root_node_is_played():
    # Some writers put the first move in the root; loadsgf always played it.
    position = read_record("(;GM[2004]SZ[3]B[S10]C[first];W[T10])")
    assert [position.format_move(move) for _, move in position.history] == ["S10", "T10"]
    _, tree = read_tree("(;GM[2004]SZ[3]B[S10]C[first](;W[T10])(;W[A10]))")
    assert tree.props == {"C": ["first"]} and [node.move for node in tree.children] == ["S10"]
    assert [node.move for node in tree.children[0].children] == ["T10", "A10"]


def test_parse_tree_keeps_every_variation():
    root = parse_tree("(;A[1](;B[2](;C[3])(;D[4]))(;E[5];F[6]))")
    assert [node.props for node in main_line(root)] == [{"A": ["1"]}, {"B": ["2"]}, {"C": ["3"]}]
    assert [child.props for child in root.children] == [{"B": ["2"]}, {"E": ["5"]}]
    assert root.children[1].children[0].props == {"F": ["6"]}


def test_nodes_without_a_move_join_the_node_before():
    answers, _ = talk("stargtp-sgf-tree (;GM[2004]SZ[2];C[set-up comment];B[*20];C[after](;W[S20])(;N[x];W[T20]))")
    data = json.loads(answers[0][2:])
    assert data["properties"] == {"C": ["set-up comment"]}
    first = data["children"][0]
    assert (first["move"], first["properties"]) == ("*20", {"C": ["after"], "N": ["x"]})
    assert [child["move"] for child in first["children"]] == ["S20", "T20"]


def test_tree_errors_change_nothing():
    answers, session = talk(
        "boardsize 3", "play b *10",
        "stargtp-sgf-tree (;GM[2004]SZ[3](;B[S10])(;B[T10];W[T10]))",
        "stargtp-sgf-tree (;GM[2004]SZ[3];B[S10](;W[S10]))",
        "stargtp-sgf-tree (;GM[2004]SZ[3];B[S10];AB[T10])",
        "stargtp-sgf-tree (;GM[2004]SZ[3];B[S10]",
        "stargtp-sgf-tree",
        "stargtp-sgf-tree (;GM[1])",
        "printsgf")
    assert answers[2:8] == [
        "? cannot load file: move 2 (W[T10]) (a variation): T10 is occupied\n\n",
        "? cannot load file: move 2 (W[S10]): S10 is occupied\n\n",
        "? cannot load file: node 2: AB after a move or a variation: set-up is read only before the"
        " first of them\n\n",
        "? cannot load file: the SGF game tree is not closed\n\n",
        "? syntax error: expected an SGF record\n\n",
        "? cannot load file: GM[1] is no game of this engine (star: GM[2004], amazons: GM[18], hex: GM[11],"
        " y: GM[11])\n\n",
    ]
    assert answers[8] == "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[3]\n;B[*10]\n)\n\n"


WRITE_ERRORS = [
    ('{"game":"star","size":3', "bad JSON: Expecting ',' delimiter: line 1 column 24 (char 23)"),
    ("[1, 2]", "bad tree: the tree is not an object"),
    ('{"game":"go"}', "bad tree: game is 'go', not one with records (star, amazons, hex, y)"),
    ('{"game":"star","size":12}', "bad tree: size 12 is not a *Star size (2..10)"),
    ('{"game":"star","size":3,"colour":"black"}',
     "bad tree: the tree has an unknown key 'colour' (keys: game, size, komi, options, properties, setup,"
     " children, result)"),
    ('{"game":"star","size":3,"komi":NaN}', "bad JSON: NaN is not a number"),
    ('{"game":"star","size":3,"children":[{"colour":"red","move":"S10"}]}',
     'bad tree: the colour of move 1 is "black" or "white", not \'red\''),
    ('{"game":"star","size":3,"children":[{"colour":"black","move":"S10","children":[{"colour":"white",'
     '"move":"S10"}]}]}', "illegal move: move 2 (S10): S10 is occupied"),
    ('{"game":"star","size":3,"children":[{"colour":"black","move":"Q10"}]}',
     "illegal move: move 1 (Q10): 'Q10' is not a cell of the 3-ring board"),
    ('{"game":"star","size":3,"properties":{"Cx":["a"]}}',
     "bad property name 'Cx' of the root: SGF names are upper-case letters A-Z"),
    ('{"game":"star","size":3,"children":[{"colour":"black","move":"S10","properties":{"KM":["1"]}}]}',
     "property KM of move 1 (S10) is written by the game itself (it writes AB, AE, AP, AW, B, CA, FF, GM, KM,"
     " PL, SZ, W)"),
    ('{"game":"star","size":3,"properties":{"C":[]}}',
     "property C of the root: its values are a non-empty list of strings"),
    ('{"game":"star","size":3,"properties":{"C":"text"}}',
     "property C of the root: its values are a non-empty list of strings"),
    ('{"game":"star","size":3,"properties":{"C":["a\\u0000b"]}}',
     "bad tree: property C of the root: control character U+0000"),
    ('{"game":"star","size":3,"setup":{"to_move":"black","black":["S10"],"red":["T10"]}}',
     "unknown kind 'red': *Star sets up black, white"),
    ('{"game":"amazons","size":6,"options":{"swap":true}}', "Amazons has no option 'swap' (options: none)"),
    ('{"game":"hex","result":{"winner":"red","by":"time"}}',
     'bad tree: the result is {"winner": "black" or "white", "by": "resign" or "time" or "forfeit"}'),
    ('{"game":"hex","result":{"winner":"black","by":"pass"}}',
     'bad tree: the result is {"winner": "black" or "white", "by": "resign" or "time" or "forfeit"}'),
    ('{"game":"hex","result":"B+R"}', "bad tree: the result is not an object"),
    ('{"game":"hex","result":{"winner":"black","by":"time","on":1}}',
     "bad tree: the result has an unknown key 'on' (keys: winner, by)"),
    ("[" * 4001 + "]" * 4001, "bad JSON: nested 4001 levels deep (at most 4000)"),
    ("[" * 4000 + "]" * 4000, "bad tree: the tree is not an object"),  # read, however deep
]


@pytest.mark.parametrize("text, error", WRITE_ERRORS)
def test_sgf_write_errors(text, error):
    answers, session = talk("boardsize 3", "play b *10", f"stargtp-sgf-write {text}", "printsgf")
    assert answers[2] == f"? {error}\n\n"
    assert answers[3] == "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[3]\n;B[*10]\n)\n\n"


def test_values_are_escaped_and_blank_lines_left_out():
    # A '#' starts a GTP comment, so the JSON writes it \u0023.
    tree = ('{"game":"hex","size":2,"properties":{"C":["a]b\\\\c","two\\n\\nlines"]},'
            '"children":[{"colour":"black","move":"a1","properties":{"GC":["\\u00231 (x)"]}}]}')
    answers, _ = talk(f"stargtp-sgf-write {tree}")
    assert answers[0] == ("= (;GM[11]FF[4]CA[UTF-8]AP[stargtp]SZ[2]C[a\\]b\\\\c][two\nlines]\n"
                          ";B[a1]GC[#1 (x)]\n)\n\n")


def test_a_long_line_needs_no_recursion():
    """A 10-ring *Star game of 549 moves (black fills the 275 cells, white
    passes) nests its JSON 1100 levels deep, past Python's default
    recursion limit of 1000."""
    position = find_game("star").new_position(10)
    moves = []
    for cell in position.legal_moves():
        moves += [f";B[{position.format_move(cell)}]", ";W[]"]
    moves.pop()  # the board is full: the game is over
    record = "(;GM[2004]SZ[10]" + "".join(moves) + ")"
    answers, _ = talk(f"stargtp-sgf-tree {record}")
    tree = answers[0][2:-2]
    assert len(moves) == 549 and tree.count('"children":[') == 550
    answers, _ = talk(f"stargtp-sgf-write {tree}")
    assert answers[0][2:-2] == "(;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[10]\n" + "\n".join(moves) + "\n)"


def test_a_game_without_setup_or_trees():
    """A registered game whose descriptor has no set-up and no records: the
    dispatcher refuses stargtp-setup, and its games entry says so."""
    from tests import third_game

    third_game.register()
    try:
        data = ("stargtp-games\nstargtp-setup b black a1\nlist_commands\n"
                'stargtp-sgf-write {"game":"tictactoe"}\n').encode()
        output, _ = asyncio.run(converse(data, SessionConfig(game=third_game.NAME, player="random", seed=1)))
    finally:
        third_game.unregister()
    answers = [r.decode() for r in split_responses(output)]
    assert json.loads(answers[0][2:])["games"][4]["setup"] == []
    assert answers[1] == "? stargtp-setup is only available for star, amazons, hex, y\n\n"
    assert "stargtp-setup" not in answers[2].split() and "stargtp-sgf-tree" in answers[2].split()
    assert answers[3] == "? bad tree: game is 'tictactoe', not one with records (star, amazons, hex, y)\n\n"


@pytest.mark.parametrize("game", list(SETUPS))
def test_search_workers_rebuild_the_setup(game):
    """A worker process rebuilds the session's position from its set-up
    (the descriptor's from_setup) before it searches."""
    size, args, _ = SETUPS[game]
    data = (f"game {game}\nboardsize {size}\nstargtp-setup {args}\ngenmove {args.split()[0]}\n").encode()
    output, session = asyncio.run(converse(data, SessionConfig(player="uct", seed=2, workers=1, playouts=20)))
    answers = [r.decode() for r in split_responses(output)]
    assert answers[:3] == ["=\n\n"] * 3 and answers[3].startswith("= ")
    position = session.state.position
    assert position.setup() is not None and len(position.history) == 1
    start = position.rules.from_setup(*position.setup())
    assert start.is_legal(position.history[0][1], position.history[0][0])


def mutations(text: str, rng, count: int) -> list[str]:
    """``count`` damaged copies of ``text``: characters deleted, doubled,
    replaced by SGF/JSON punctuation, or the text cut short."""
    marks = '()[];\\{}":,0aZ '
    out = []
    for _ in range(count):
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            kind = rng.randrange(4)
            if kind == 0:
                del chars[i]
            elif kind == 1:
                chars.insert(i, chars[i])
            elif kind == 2:
                chars[i] = rng.choice(marks)
            else:
                chars = chars[:i + 1]
        out.append("".join(chars).strip() or "x")
    return out


def test_damaged_records_and_trees_get_answers_not_crashes():
    """Seeded fuzzing: 1,200 damaged records, trees and set-ups are each
    answered ``=`` or ``?`` (never an internal error), and none changes the
    session's game."""
    import random

    rng = random.Random(25)
    lines = ["boardsize 3", "play b *10"]
    for game, (record, tree, _) in TREES.items():
        lines += [f"stargtp-sgf-tree {text}" for text in mutations(record, rng, 150)]
        lines += [f"stargtp-sgf-write {text}" for text in mutations(tree, rng, 150)]
    lines += [f"stargtp-setup {text}" for text in mutations("white black *10 S10 white T10 A10", rng, 100)]
    lines += ["game", "printsgf"]
    answers, _ = talk(*lines)
    assert len(answers) == len(lines)
    body = answers[2:-2]
    assert all(answer[:2] in ("= ", "=\n", "? ") for answer in body), [a for a in body if a[0] not in "=?"]
    assert not [answer for answer in body if "internal error" in answer]
    # Some damage is harmless (a space doubled), so every command also succeeds.
    accepted = {line.split()[0] for line, answer in zip(lines[2:-2], body) if answer.startswith("=")}
    assert accepted == {"stargtp-sgf-tree", "stargtp-sgf-write", "stargtp-setup"}
    assert answers[-2] == "= star\n\n"


def random_tree(game, size, rng):
    """A seeded random game tree of ``game``: a random set-up or the usual
    start, then up to 40 nodes, each a random legal move of the side to
    move (or of either colour) with random properties, branching at random."""
    from stargtp.engine.colour import BLACK, WHITE
    from stargtp.engine.sgf import RecordNode, RecordTree

    if rng.random() < 0.5:
        names = list(game.setup_rules.points(game.new_position(size)))
        kinds = [kind.kind for kind in game.setup_rules.kinds]
        picked = rng.sample(names, rng.randint(0, len(names) // 3))
        pieces = [(rng.choice(kinds), [name]) for name in picked]
        start = game.set_up(size, rng.choice([BLACK, WHITE]), pieces)
    else:
        start = game.new_position(size)
    tree = RecordTree(start.copy(), props={"C": ["root ] \\ ( ) ; text\nline two"]} if rng.random() < 0.5 else {})
    frontier = [(tree, start.copy())]
    for _ in range(40):
        parent, position = rng.choice(frontier)
        moves = position.legal_moves()
        if not moves:
            continue
        colour = position.to_move if rng.random() < 0.9 else rng.choice([BLACK, WHITE])
        move = rng.choice(moves)
        if not position.is_legal(move, colour):
            continue
        after = position.copy()
        after.play(move, colour)
        props = {}
        if rng.random() < 0.3:
            props["C"] = [f"comment ]{rng.randrange(100)}\\"]
        if rng.random() < 0.2:
            props["SBKV"] = [f"{rng.uniform(0, 100):.1f}"]
        if any(child.move == position.format_move(move) and child.colour == colour for child in parent.children):
            continue
        node = RecordNode(colour, position.format_move(move), props)
        parent.children.append(node)
        frontier.append((node, after))
    return tree


def same_tree(a, b) -> bool:
    """Iteratively compare two RecordTrees (colour, move, properties, order)."""
    if (a.komi, a.props, a.start.setup(), a.start.size) != (b.komi, b.props, b.start.setup(), b.start.size):
        return False
    stack = [(a.children, b.children)]
    while stack:
        left, right = stack.pop()
        if len(left) != len(right):
            return False
        for x, y in zip(left, right):
            if (x.colour, x.move, x.props) != (y.colour, y.move, y.props):
                return False
            stack.append((x.children, y.children))
    return True


@pytest.mark.parametrize("name, size", [("star", 3), ("amazons", 6), ("hex", 4), ("y", 4)])
def test_random_trees_round_trip_through_sgf(name, size):
    """200 seeded random trees a game: write_tree then read_tree gives the
    same tree back, and read_line (loadsgf) plays its first children."""
    import random

    from stargtp.engine.sgf import write_tree

    game = find_game(name)
    rng = random.Random(f"trees-{name}")
    for _ in range(200):
        tree = random_tree(game, size, rng)
        text = write_tree(tree, game.record_codec)
        found, again = read_tree(text)
        assert found is game and same_tree(tree, again), text
        moves, children = [], tree.children
        while children:
            moves.append((children[0].colour, children[0].move))
            children = children[0].children
        position = read_line(text, game.record_codec)
        assert [(colour, position.format_move(move)) for colour, move in position.history] == moves
        assert position.setup() == tree.start.setup()


def test_the_commands_through_the_http_bridge():
    """The page's way in: a set-up, then a 549-move tree (a line of some
    34 KB) out as JSON and back as SGF, over the HTTP bridge."""
    from tests.test_gui_bridge import bridge, gtp, new_session

    position = find_game("star").new_position(10)
    moves = []
    for cell in position.legal_moves():
        moves += [f";B[{position.format_move(cell)}]", ";W[]"]
    moves.pop()
    record = "(;GM[2004]SZ[10]" + "".join(moves) + ")"

    async def scenario() -> None:
        async with bridge() as (_, port):
            token = await new_session(port)
            answer = await gtp(port, token, "boardsize 4\nstargtp-setup w black S40\nprintsgf\n"
                                            f"stargtp-sgf-tree {record}\n")
            answers = answer.split("\n\n")
            assert answers[:3] == ["=", "=", "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[4]AB[S40]PL[W]\n)"]
            tree = answers[3][2:]
            assert len(tree) > 30000 and tree.count('"children":[') == 550
            written = await gtp(port, token, f"stargtp-sgf-write {tree}\n")
            assert written == "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[10]\n" + "\n".join(moves) + "\n)\n\n"

    asyncio.run(scenario())


def test_a_result_is_written_in_the_games_sgf_letters():
    """How a game ended that no position shows (the page's resignation or
    flag): RE with the winner in SGF's letters, which are the Amazons' swapped."""
    answers, _ = talk('stargtp-sgf-write {"game":"amazons","size":6,"result":{"winner":"white","by":"resign"}}',
                      'stargtp-sgf-write {"game":"star","size":2,"properties":{"RE":["B+3"]},'
                      '"result":{"winner":"white","by":"time"}}',
                      'stargtp-sgf-write {"game":"y","size":3,"result":{"winner":"black","by":"forfeit"}}')
    assert "RE[B+R]" in answers[0]
    assert answers[1] == "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[2]RE[W+T]\n)\n\n"
    assert "RE[B+F]" in answers[2]
