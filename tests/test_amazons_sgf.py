"""SGF (GM[18]) records for Amazons: the row and colour mapping, round trips,
setup positions, variations and unreadable records."""

import random

import pytest

from stargtp.engine.amazons import Position, SgfError, random_move, read_sgf, write_sgf
from stargtp.engine.amazons.geometry import geometry
from stargtp.engine.amazons.sgf import (colour_from_sgf, move_from_sgf, move_to_sgf, point_from_sgf,
                                        point_to_sgf, result_from_sgf, sgf_colour)
from stargtp.engine.sgf import parse_main_line
from stargtp.engine.colour import BLACK, WHITE


def moves_of(p: Position) -> list[tuple[int, str]]:
    return [(colour, p.format_move(move)) for colour, move in p.history]


def test_point_mapping_counts_rows_from_the_top():
    g = geometry(10)
    assert point_to_sgf(g.parse_square("d1"), g) == "dj"
    assert point_to_sgf(g.parse_square("d10"), g) == "da"
    assert point_to_sgf(g.parse_square("a1"), g) == "aj"
    assert point_to_sgf(g.parse_square("j10"), g) == "ja"
    assert point_to_sgf(g.parse_square("i5"), g) == "if"
    six = geometry(6)
    assert point_to_sgf(six.parse_square("a1"), six) == "af"
    assert point_to_sgf(six.parse_square("f6"), six) == "fa"
    for size in (6, 8, 10):
        geo = geometry(size)
        assert all(point_from_sgf(point_to_sgf(s, geo), geo) == s for s in range(geo.square_count))


def test_colour_mapping_first_mover_is_sgf_black():
    assert sgf_colour(WHITE) == "B" and sgf_colour(BLACK) == "W"
    assert colour_from_sgf("B") == WHITE and colour_from_sgf("W") == BLACK
    # The SGF spec's default start puts B on dj gj ag jg: our White's squares.
    g = geometry(10)
    assert sorted(point_from_sgf(p, g) for p in ("dj", "gj", "ag", "jg")) == list(g.start[WHITE])
    assert sorted(point_from_sgf(p, g) for p in ("da", "ga", "ad", "jd")) == list(g.start[BLACK])


def test_move_mapping():
    p = Position()
    move = p.parse_move("d1-d7/g7")
    assert move_to_sgf(move, p.geometry) == "djddgd"
    assert move_from_sgf("djddgd", p.geometry) == move
    p.play(move)
    assert write_sgf(p) == "(;GM[18]FF[4]CA[UTF-8]AP[stargtp]SZ[10]\n;B[djddgd]\n)\n"


def test_reading_a_hand_written_record():
    p = read_sgf("(;GM[18]SZ[10]PB[first]\n;B[djddgd] ;W[addgad]\n;B[gjehea])")
    assert moves_of(p) == [(WHITE, "d1-d7/g7"), (BLACK, "a7-d4/a7"), (WHITE, "g1-e3/e10")]
    assert p.to_move == BLACK and p.is_standard_start()


@pytest.mark.parametrize("size", [6, 8, 10])
def test_random_games_round_trip(size):
    rng = random.Random(size)
    for game in range(6):
        p = Position(size)
        for _ in range(rng.randrange(0, 60)):
            move = random_move(p, rng)
            if move is None:
                break
            p.play(move)
        text = write_sgf(p)
        back = read_sgf(text)
        assert back.history == p.history and back.board == p.board and back.to_move == p.to_move
        assert back.is_standard_start() and write_sgf(back) == text
        assert ("AB[" in text) == (size != 10)  # SGF defines only the 10x10 start


def test_setup_positions_round_trip():
    p = Position.from_diagram("""
        W x . . . .
        x x . . . .
        . . . . . .
        . . x . . .
        . . . . B .
        . . . . . .""", to_move=BLACK)
    p.play(p.parse_move("e2-e3/e2"))
    text = write_sgf(p)
    assert "AB[aa]AW[ee]AA[cd][ab][bb][ba]PL[W]\n;W[eeedee]\n" in text
    back = read_sgf(text)
    assert back.initial_board == p.initial_board and back.history == p.history
    assert back.board == p.board and back.to_move == WHITE and not back.is_standard_start()


def test_out_of_turn_moves_keep_their_colours():
    p = Position()
    p.play(p.parse_move("a7-a6/a5"), BLACK)
    p.play(p.parse_move("a6-b6/b5"), BLACK)
    text = write_sgf(p)
    assert ";W[adaeaf]\n;W[aebebf]" in text
    assert read_sgf(text).history == p.history


def test_result_and_properties_use_sgf_colours():
    p = Position()
    text = write_sgf(p, result="W+5", properties={"PB": "Ana [x]", "C": "back\\slash"})
    assert "RE[B+5]" in text and "PB[Ana [x\\]]" in text and "C[back\\\\slash]" in text
    root = parse_main_line(text)[0]
    assert root["PB"] == ["Ana [x]"] and root["C"] == ["back\\slash"]
    assert result_from_sgf(root["RE"][0]) == "W+5" and result_from_sgf("0") == "0"


def test_main_line_only():
    text = "(;GM[18](;B[djddgd](;W[addgad])(;W[jdjejf]))(;B[gjgdjg]))(;GM[18];B[jgjhji])"
    p = read_sgf(text)
    assert moves_of(p) == [(WHITE, "d1-d7/g7"), (BLACK, "a7-d4/a7")]


def test_compressed_points_lowercase_names_and_soft_breaks():
    p = read_sgf("(;GaMe[18]SZ[6]AB[af]AW[fa]AA[ab:cd]C[two\\\nlines];B[afbf\\\ncf])")
    assert p.size == 6 and p.piece_at(1) == WHITE and p.piece_at(35) == BLACK
    # ab:cd is the rectangle a5..c3: nine arrows.
    arrows = [p.format_square(s) for s, v in enumerate(p.initial_board[0]) if v == 3]
    assert arrows == ["a3", "b3", "c3", "a4", "b4", "c4", "a5", "b5", "c5"]
    assert moves_of(p) == [(WHITE, "a1-b1/c1")]
    assert parse_main_line("(;C[two\\\nlines])")[0]["C"] == ["twolines"]


@pytest.mark.parametrize("text, message", [
    ("", "no SGF game tree"),
    ("(;GM[18];B[djddgd]", "not closed"),
    ("(;GM[18];B[djddgd", "not closed"),
    ("(;GM[1];B[dd])", "not Amazons"),
    ("(;GM[18]SZ[9])", "SZ\\[9\\]"),
    ("(;GM[18]SZ[10:8])", "only square boards"),
    ("(;GM[18]SZ[ten])", "bad SZ"),
    ("(;GM[18];B[])", "no pass"),
    ("(;GM[18];B[djdd])", "three SGF points"),
    ("(;GM[18];B[djddgk])", "off the 10x10 board"),
    ("(;GM[18];B[DJDDGD])", "not an SGF point"),
    ("(;GM[18];B[djdagd])", "move 1 .*black amazon on d10"),
    ("(;GM[18];W[djddgd])", "move 1 .*is white's"),
    ("(;GM[18];B[djddgd]W[adgjad])", "more than one move"),
    ("(;GM[18];B[djddgd];AA[aa])", "node 2: AA after a move"),
    ("(;GM[18]PL[X])", "bad PL"),
    ("(;GM[18];B[djddgd]1)", "unexpected"),
    ("(;GM[18];B[djddgd]x[1])", "bad property name"),
    ("(;GM[18]B)", "has no value"),
    ("(;GM[18](;B[djddgd]);W[adgjad])", "follows a variation"),
    (")", "no SGF game tree"),
    # One point with two contents describes no position.
    ("(;GM[18]SZ[6]AB[aa]AW[aa])", "point aa is set up twice \\(AB and AW\\)"),
    ("(;GM[18]SZ[6]AB[aa:bb]AA[bb])", "point bb is set up twice \\(AB and AA\\)"),
    ("(;GM[18]SZ[6]AW[cc]AE[cc])", "point cc is set up twice \\(AW and AE\\)"),
    ("(;GM[18]SZ[6]AB[dd][dd])", "point dd is set up twice \\(AB and AB\\)"),
])
def test_unreadable_records(text, message):
    with pytest.raises(SgfError, match=message):
        read_sgf(text)
