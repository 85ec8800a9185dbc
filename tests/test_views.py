"""The view commands (protocol/server/views.py, docs/protocol.md):
``stargtp-geometry`` and ``stargtp-position`` in both games.

The geometry is checked against independent expectations: the 2-ring
*Star board's neighbours written out by hand, the engine's geometry (labels,
rings, arms, adjacency, pericells, corners), ``star_layout`` for the
coordinates, and the ``stargtp-svg`` picture itself (its view box and the
centre of every cell and square it draws). The position is checked exactly
after a few moves, and after full games (a *Star board with dead groups, a
finished Amazons game). Bad input is a syntax error; a game without a board
view is told which games have one.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import re

import pytest

from stargtp.engine.amazons import Position as AmazonsPosition
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star import Position as StarPosition
from stargtp.engine.star.geometry import geometry as star_geometry
from stargtp.engine.star.diagram import star_layout
from stargtp.protocol.server.session import SessionConfig
from tests import third_game
from tests.amazons_reference import queen_distances
from tests.gtp_helpers import converse, split_responses

COLOUR = {BLACK: "black", WHITE: "white"}


def talk(*lines: str, game: str = "star") -> list[str]:
    """Each response's text after ``= `` (or the whole ``? ...`` line)."""
    data = ("\n".join(lines) + "\n").encode()
    output, _ = asyncio.run(converse(data, SessionConfig(game=game, player="random", seed=1, workers=1)))
    answers = []
    for response in split_responses(output):
        text = response.decode().rstrip("\n")
        answers.append(text[2:] if text.startswith("= ") else text)
    assert len(answers) == len(lines), output
    return answers


def compact(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


def svg_view(svg: str) -> tuple[list[float], int, int]:
    head = re.match(r'<svg [^>]*width="([0-9]+)" height="([0-9]+)" viewBox="([^"]+)"', svg)
    assert head, svg[:200]
    return [float(v) for v in head.group(3).split()], int(head.group(1)), int(head.group(2))


# -- stargtp-geometry: *Star -----------------------------------------------------------

# The 2-ring board by hand: ring 1 is the central star (all five mutually
# adjacent); ring-1 cell of arm s touches ring 2's s0, s1 and the previous
# arm's last cell; ring 2 is the perimeter, a cycle.
TWO_RINGS = {
    "*10": "S10 T10 A10 R10 *20 *21 R21",
    "S10": "*10 T10 A10 R10 *21 S20 S21",
    "T10": "*10 S10 A10 R10 S21 T20 T21",
    "A10": "*10 S10 T10 R10 T21 A20 A21",
    "R10": "*10 S10 T10 A10 A21 R20 R21",
    "*20": "*10 *21 R21",
    "*21": "*10 S10 *20 S20",
    "S20": "S10 *21 S21",
    "S21": "S10 T10 S20 T20",
    "T20": "T10 S21 T21",
    "T21": "T10 A10 T20 A20",
    "A20": "A10 T21 A21",
    "A21": "A10 R10 A20 R20",
    "R20": "R10 A21 R21",
    "R21": "*10 R10 *20 R20",
}


def expected_star(rings: int) -> dict:
    geo = star_geometry(rings)
    layout = star_layout(rings)
    svg = talk(f"boardsize {rings}", "stargtp-svg")[1]
    view, width, height = svg_view(svg)
    cells = []
    for cell, label in enumerate(geo.labels):
        ring = int(label[1]) or 10
        cells.append({"label": label, "ring": ring, "arm": label[0],
                      "x": round(layout[cell][0] * 36, 2), "y": round(layout[cell][1] * 36, 2),
                      "neighbours": [geo.labels[n] for n in geo.neighbours[cell]],
                      "pericell": ring == rings, "corner": ring == rings and label[2] == "0"})
    return {"game": "star", "size": rings, "viewBox": view, "width": width, "height": height,
            "unit": 36.0, "radius": 13.32, "cells": cells,
            # the points of the analysis's ownership values: the pericells, in board order
            "ownership": [cell["label"] for cell in cells if cell["pericell"]]}


@pytest.mark.parametrize("rings", [2, 4])
def test_star_geometry_exact(rings: int) -> None:
    answer = talk(f"boardsize {rings}", "stargtp-geometry")[1]
    assert answer == compact(expected_star(rings))
    assert " " not in answer and "\n" not in answer


def test_star_two_rings_by_hand() -> None:
    data = json.loads(talk("boardsize 2", "stargtp-geometry")[1])
    assert {c["label"]: " ".join(c["neighbours"]) for c in data["cells"]} == TWO_RINGS
    assert [c["label"] for c in data["cells"] if c["corner"]] == ["*20", "S20", "T20", "A20", "R20"]
    assert data["cells"][0]["x"] == 0 and data["cells"][0]["y"] == -36  # *10 straight above the centre


@pytest.mark.parametrize("rings", [2, 4, 10])
def test_star_geometry_is_consistent(rings: int) -> None:
    data = json.loads(talk(f"boardsize {rings}", "stargtp-geometry")[1])
    cells = data["cells"]
    assert len(cells) == 5 * rings * (rings + 1) // 2
    by_label = {c["label"]: c for c in cells}
    for cell in cells:  # symmetric, no loops
        assert cell["label"] not in cell["neighbours"]
        for other in cell["neighbours"]:
            assert cell["label"] in by_label[other]["neighbours"]
    ring1 = [c["label"] for c in cells if c["ring"] == 1]
    for label in ring1:  # the central star bridge
        assert set(ring1) - {label} <= set(by_label[label]["neighbours"])
    assert sum(c["pericell"] for c in cells) == 5 * rings
    assert sum(c["corner"] for c in cells) == 5
    assert [c["arm"] for c in cells if c["ring"] == 1] == list("*STAR")
    # The picture draws every cell where the geometry says.
    svg = talk(f"boardsize {rings}", "stargtp-svg")[1]
    drawn = dict((m[0], (float(m[1]), float(m[2])))
                 for m in re.findall(r'class="cell[^"]*" data-cell="([^"]+)" data-point="\1" cx="([^"]+)" cy="([^"]+)"', svg))
    assert drawn == {c["label"]: (c["x"], c["y"]) for c in cells}
    assert (data["viewBox"], data["width"], data["height"]) == svg_view(svg)


def test_ten_rings_cell_count() -> None:
    data = json.loads(talk("stargtp-geometry")[0])  # the default board
    assert data["size"] == 10 and len(data["cells"]) == 275


# -- stargtp-geometry: Amazons -----------------------------------------------------------


def test_amazons_geometry_exact() -> None:
    answers = talk("boardsize 6", "stargtp-geometry", "stargtp-svg", game="amazons")
    squares = [{"name": f"{'abcdef'[c]}{r + 1}", "column": c, "row": r,
                "x": 40.0 * c + 20, "y": 40.0 * (5 - r) + 20} for r in range(6) for c in range(6)]
    expected = {"game": "amazons", "size": 6, "viewBox": [-24.0, -24.0, 288.0, 288.0],
                "width": 288, "height": 288, "unit": 40.0, "squares": squares, "ownership": []}
    assert answers[1] == compact(expected)
    assert svg_view(answers[2]) == (expected["viewBox"], 288, 288)
    drawn = dict((m[0], (float(m[1]) + 20, float(m[2]) + 20))
                 for m in re.findall(r'class="square [a-z]+" data-square="([^"]+)" data-point="\1" x="([^"]+)" y="([^"]+)"',
                                     answers[2]))
    assert drawn == {s["name"]: (s["x"], s["y"]) for s in squares}


def test_amazons_geometry_ten() -> None:
    data = json.loads(talk("stargtp-geometry", game="amazons")[0])
    assert data["size"] == 10 and len(data["squares"]) == 100
    assert data["squares"][99] == {"name": "j10", "column": 9, "row": 9, "x": 380.0, "y": 20.0}


# -- stargtp-geometry: Hex and Y -----------------------------------------------------------


def test_hex_two_by_two_geometry_by_hand() -> None:
    """Hex 2x2: a1 b1 on the top row, a2 b2 half a cell to the right below
    (rows sqrt(3)/2 apart, 32 px between neighbouring centres); a1 and b2 are
    the acute corners, each touching three cells."""
    answers = talk("boardsize 2", "stargtp-geometry", "stargtp-svg", game="hex")
    data = json.loads(answers[1])
    row = round(32 * math.sqrt(3) / 2, 2)
    assert [(c["label"], c["column"], c["row"], c["x"], c["y"]) for c in data["cells"]] == [
        ("a1", 0, 0, 0.0, 0.0), ("b1", 1, 0, 32.0, 0.0), ("a2", 0, 1, 16.0, row), ("b2", 1, 1, 48.0, row)]
    assert {c["label"]: c["neighbours"] for c in data["cells"]} == {
        "a1": ["b1", "a2"], "b1": ["a1", "a2", "b2"], "a2": ["a1", "b1", "b2"], "b2": ["b1", "a2"]}
    assert {c["label"]: c["edges"] for c in data["cells"]} == {
        "a1": ["north", "west"], "b1": ["north", "east"], "a2": ["south", "west"], "b2": ["east", "south"]}
    assert [(e["name"], e["owners"]) for e in data["edges"]] == [
        ("north", ["black"]), ("east", ["white"]), ("south", ["black"]), ("west", ["white"])]
    assert data["goals"] == {"black": ["north", "south"], "white": ["west", "east"]}
    assert (data["game"], data["size"], data["shape"], data["unit"], data["ownership"]) == ("hex", 2, "rhombus", 32.0,
                                                                                         ["a1", "b1", "a2", "b2"])
    assert (data["radius"], data["cell_radius"]) == (12.8, 18.48)
    assert (data["viewBox"], data["width"], data["height"]) == svg_view(answers[2])


@pytest.mark.parametrize("game,size", [("hex", 11), ("hex", 19), ("y", 13), ("y", 1)])
def test_connection_geometry_is_the_picture(game: str, size: int) -> None:
    """Every cell is drawn around the centre the geometry gives, every edge
    band with the points it gives, in the same view box; neighbours are
    symmetric; the cells are the engine's, in board order."""
    from stargtp.engine.games import find_game

    answers = talk(f"boardsize {size}", "stargtp-geometry", "stargtp-svg", game=game)
    data = json.loads(answers[1])
    geo = find_game(game).new_position(size).geometry
    assert [c["label"] for c in data["cells"]] == list(geo.labels)
    by_label = {c["label"]: c for c in data["cells"]}
    for cell in data["cells"]:
        for other in cell["neighbours"]:
            assert cell["label"] in by_label[other]["neighbours"]
    svg = answers[2]
    drawn = {}
    for label, corners in re.findall(r'class="cell" data-cell="([^"]+)" data-point="\1" points="([^"]+)"', svg):
        xs, ys = zip(*(map(float, p.split(",")) for p in corners.split()))
        drawn[label] = (sum(xs) / 6, sum(ys) / 6)
    assert drawn.keys() == by_label.keys()
    for label, (x, y) in drawn.items():
        assert abs(x - by_label[label]["x"]) < 0.02 and abs(y - by_label[label]["y"]) < 0.02
    bands = {name: [[float(v) for v in p.split(",")] for p in corners.split()]
             for name, corners in re.findall(r'data-edge="([a-z]+)"[^>]* points="([^"]+)"', svg)}
    assert bands == {e["name"]: e["points"] for e in data["edges"]}
    assert (data["viewBox"], data["width"], data["height"]) == svg_view(svg)


# -- stargtp-position ------------------------------------------------------------------


def test_star_position_after_a_few_moves() -> None:
    answers = talk("boardsize 4", "komi 2.5", "play b *40", "play w S41", "play b *41",
                   "stargtp-position", "final_score")
    data = json.loads(answers[5])
    reference = StarPosition(4)
    for colour, text in ((BLACK, "*40"), (WHITE, "S41"), (BLACK, "*41")):
        reference.play(reference.parse_move(text), colour)
    report = reference.rules.score(reference, 2.5)
    assert data == {"game": "star", "size": 4, "to_move": "white",
                    "board": {"black": ["*40", "*41"], "white": ["S41"]},
                    "moves": [["black", "*40"], ["white", "S41"], ["black", "*41"]],
                    "over": False, "komi": 2.5,
                    "score": {**report.to_json(reference), "result": answers[6]}, "territory": None}
    assert list(data) == ["game", "size", "to_move", "board", "moves", "over", "komi", "score", "territory"]
    assert answers[5] == compact(data)


def test_star_position_empty_and_passes() -> None:
    answers = talk("boardsize 2", "stargtp-position", "play b pass", "play w pass", "stargtp-position")
    start, end = json.loads(answers[1]), json.loads(answers[4])
    assert start["board"] == {"black": [], "white": []} and start["moves"] == [] and not start["over"]
    assert start["to_move"] == "black" and start["komi"] == 0
    assert end["moves"] == [["black", "pass"], ["white", "pass"]] and end["over"]


def full_star_game(rings: int) -> StarPosition:
    """A randomly filled board (seeded) on which some groups are dead."""
    for seed in range(100):
        rng = random.Random(seed)
        position = StarPosition(rings)
        while not position.is_over():
            position.play(rng.choice(position.legal_moves()))
        if position.rules.score(position, 0.5).dead_groups:
            return position
    raise AssertionError("no random game with dead groups")


def test_star_position_full_game_with_dead_groups() -> None:
    position = full_star_game(4)
    moves = [f"play {COLOUR[c]} {position.format_move(m)}" for c, m in position.history]
    answers = talk("boardsize 4", "komi 0.5", *moves, "stargtp-position", "final_score")
    data = json.loads(answers[-2])
    labels = position.geometry.labels
    report = position.rules.score(position, 0.5)
    assert data["over"] is True
    assert data["board"] == {"black": [labels[c] for c, v in enumerate(position.board) if v == BLACK],
                             "white": [labels[c] for c, v in enumerate(position.board) if v == WHITE]}
    assert len(data["board"]["black"]) + len(data["board"]["white"]) == 50
    assert data["moves"] == [[COLOUR[c], position.format_move(m)] for c, m in position.history]
    assert data["score"] == {**report.to_json(position), "result": answers[-1]}
    assert data["score"]["dead_groups"] > 0


def test_amazons_position_mid_game_and_finished() -> None:
    answers = talk("boardsize 6", "stargtp-position", "play w b1-b2/b3", "stargtp-position", game="amazons")
    start, after = json.loads(answers[1]), json.loads(answers[3])
    assert start == {"game": "amazons", "size": 6, "to_move": "white",
                     "board": {"black": ["a5", "f5", "b6", "e6"], "white": ["b1", "e1", "a2", "f2"],
                               "arrows": []},
                     "moves": [], "over": False, "komi": 0.0, "score": None,
                     "territory": queen_territory_by_hand(start["board"], 6)}
    assert after["board"] == {"black": ["a5", "f5", "b6", "e6"], "white": ["e1", "a2", "b2", "f2"],
                              "arrows": ["b3"]}
    assert after["moves"] == [["white", "b1-b2/b3"]] and after["to_move"] == "black"
    assert after["score"] is None  # cannot be scored yet
    assert after["territory"] == queen_territory_by_hand(after["board"], 6)

    rng = random.Random(3)
    position = AmazonsPosition(6)
    while not position.is_over():
        position.play(rng.choice(position.legal_moves()))
    moves = [f"play {COLOUR[c]} {position.format_move(m)}" for c, m in position.history]
    answers = talk("boardsize 6", *moves, "stargtp-position", "final_score", game="amazons")
    data = json.loads(answers[-2])
    report = position.rules.score(position, 0.0)
    assert data["over"] is True and data["to_move"] == COLOUR[position.to_move]
    assert len(data["board"]["arrows"]) == len(position.history)
    assert data["score"] == {**report.to_json(position), "result": answers[-1]}
    assert data["territory"] == queen_territory_by_hand(data["board"], 6)
    # Once the regions are separated, the expected territory is the score's.
    assert {colour: len(squares) for colour, squares in data["territory"].items()} == data["score"]["territory"]


def test_hex_position_mid_game_and_won() -> None:
    """Hex 3x3: black's row a2 b2 c2 touches west and east, white's edges,
    which wins nothing; b1 and b3 then join it to north and south."""
    moves = ["play b a2", "play w a1", "play b b2", "play w c1", "play b c2"]
    answers = talk("boardsize 3", *moves, "stargtp-position", "play w a3", "play b b1", "play w c3", "play b b3",
                   "stargtp-position", "final_score", game="hex")
    middle, end = json.loads(answers[6]), json.loads(answers[11])
    assert middle == {"game": "hex", "size": 3, "to_move": "white",
                      "board": {"black": ["a2", "b2", "c2"], "white": ["a1", "c1"]},
                      "moves": [["black", "a2"], ["white", "a1"], ["black", "b2"], ["white", "c1"], ["black", "c2"]],
                      "over": False, "komi": 0.0, "score": None, "territory": None}
    assert end["board"] == {"black": ["b1", "a2", "b2", "c2", "b3"], "white": ["a1", "c1", "a3", "c3"]}
    assert end["over"] is True and answers[12] == "B+"
    assert end["score"] == {"reason": "black joined north and south", "group": ["b1", "a2", "b2", "c2", "b3"],
                            "result": "B+"}


def queen_territory_by_hand(board: dict, size: int) -> dict:
    """The slow, plain reference for ``territory``: for each colour the queen
    distance of every empty square (breadth first over queen moves through
    empty squares), and the squares one colour reaches strictly sooner."""
    names = [f"{'abcdefghij'[c]}{r + 1}" for r in range(size) for c in range(size)]
    occupied = {name for squares in board.values() for name in squares}
    free = {index for index, name in enumerate(names) if name not in occupied}

    def distances(sources: list[str]) -> dict[str, int]:
        found = queen_distances(size, free, [names.index(name) for name in sources])
        return {names[index]: step for index, step in found.items()}

    black, white = distances(board["black"]), distances(board["white"])
    far = 10 ** 6
    return {"black": [s for s in names if black.get(s, far) < white.get(s, far)],
            "white": [s for s in names if white.get(s, far) < black.get(s, far)]}


# -- errors and other games ------------------------------------------------------------


@pytest.mark.parametrize("game", ["star", "amazons"])
def test_arguments_are_a_syntax_error(game: str) -> None:
    answers = talk("stargtp-geometry 4", "stargtp-position x", "stargtp-position", game=game)
    assert answers[:2] == ["? syntax error: expected no arguments"] * 2
    assert json.loads(answers[2])["moves"] == []


def test_a_game_without_a_board_view() -> None:
    third_game.register()
    try:
        answers = talk("stargtp-geometry", "stargtp-position", "list_commands", game=third_game.NAME)
    finally:
        third_game.unregister()
    assert answers[0] == "? stargtp-geometry is only available for star, amazons, hex, y"
    assert answers[1] == "? stargtp-position is only available for star, amazons, hex, y"
    assert "stargtp-geometry" not in answers[2] and "stargtp-position" not in answers[2]


# -- stargtp-games ----------------------------------------------------------------------

STAR_ENTRY = {"name": "star", "gtp_name": "Star", "title": "*Star", "sizes": [2, 3, 4, 5, 6, 7, 8, 9, 10],
              "default_size": 10, "size_word": "rings", "first": "black", "pass": "pass",
              "move_hint": "a cell label such as S43, or pass", "human": "black", "parts": 1,
              "separators": [], "picture": True, "records": True,
              "setup": [{"kind": "black", "label": "Black stone"}, {"kind": "white", "label": "White stone"}]}
AMAZONS_ENTRY = {"name": "amazons", "gtp_name": "Amazons", "title": "Amazons", "sizes": [6, 8, 10],
                 "default_size": 10, "size_word": "squares a side", "first": "white", "pass": None,
                 "move_hint": "from-to/arrow, such as d1-d7/g7", "human": "white", "parts": 3,
                 "separators": ["-", "/"], "picture": True, "records": True,
                 "setup": [{"kind": "black", "label": "Black amazon"}, {"kind": "white", "label": "White amazon"},
                           {"kind": "arrow", "label": "Arrow"}]}
HEX_ENTRY = {"name": "hex", "gtp_name": "Hex", "title": "Hex", "sizes": list(range(1, 20)), "default_size": 11,
             "size_word": "cells a side", "first": "black", "pass": None, "move_hint": "a cell label such as c4",
             "human": "black", "parts": 1, "separators": [], "picture": True, "records": True,
             "setup": STAR_ENTRY["setup"]}
Y_ENTRY = {**HEX_ENTRY, "name": "y", "gtp_name": "Y", "title": "Y", "default_size": 13}
EVERY_ENTRY = [STAR_ENTRY, AMAZONS_ENTRY, HEX_ENTRY, Y_ENTRY]


def test_games_lists_every_game_and_the_current_one() -> None:
    answers = talk("stargtp-games", "boardsize 4", "stargtp-games", "game amazons", "stargtp-games",
                   "stargtp-games now")
    assert answers[0] == compact({"games": EVERY_ENTRY, "game": "star", "size": 10})
    assert json.loads(answers[2])["size"] == 4
    assert answers[4] == compact({"games": EVERY_ENTRY, "game": "amazons", "size": 10})
    assert answers[5] == "? syntax error: expected no arguments"


def test_games_lists_a_registered_game_from_its_descriptor() -> None:
    third_game.register()
    try:
        answers = talk("stargtp-games", "list_commands", game=third_game.NAME)
    finally:
        third_game.unregister()
    data = json.loads(answers[0])
    assert (data["game"], data["size"]) == (third_game.NAME, 3)
    assert data["games"][:4] == EVERY_ENTRY
    assert data["games"][4] == {
        "name": "tictactoe", "gtp_name": "TicTacToe", "title": "Tic-tac-toe", "sizes": [3, 4], "default_size": 3,
        "size_word": "squares a side", "first": "black", "pass": None,
        "move_hint": third_game.TICTACTOE.move_hint, "human": "black", "parts": 1, "separators": [],
        "picture": False, "records": False, "setup": []}
    assert "stargtp-games" in answers[1].split()
