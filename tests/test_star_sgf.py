"""SGF (GM[2004]) records for *Star: move values and passes, the root
properties (SZ, KM, RE), round trips of random games of every size, the main
line, unreadable records, the descriptor and engine.games dispatch, and
printsgf / loadsgf through the in-process server."""

import asyncio
import random

import pytest

from stargtp.engine.amazons.position import Position as AmazonsPosition
from stargtp.engine.amazons.sgf import write_sgf as write_amazons_sgf
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import GameError
from stargtp.engine.games import GAME_LIST, find_game, read_record
from stargtp.engine.star import PASS, STAR, Position, SgfError, read_sgf, score, write_sgf
from stargtp.engine.star.sgf import GM_NUMBER, format_komi, move_from_sgf, move_to_sgf, record_komi
from stargtp.protocol.server.session import SessionConfig
from tests.gtp_helpers import converse, split_responses


def moves_of(p: Position) -> list[tuple[int, str]]:
    return [(colour, p.format_move(move)) for colour, move in p.history]


def state(p: Position) -> tuple:
    """Everything a position holds, private slots included."""
    return (p.size, p.board, p.to_move, p.history, p.black_bits, p.white_bits, p._empty_count,
            p._movers, p.is_over())


def played(rings: int, *labels: str) -> Position:
    p = Position(rings)
    for label in labels:
        p.play(p.parse_move(label))
    return p


# -- the mapping -------------------------------------------------------------------


def test_the_game_number_is_unregistered_and_ours():
    assert GM_NUMBER == 2004 and STAR.sgf_number == GM_NUMBER
    assert 40 < GM_NUMBER <= 5000  # above SGF's registered numbers, inside GM's range
    numbers = [game.sgf_number for game in GAME_LIST if game.sgf_number is not None]
    shared = {n for n in numbers if numbers.count(n) > 1}
    assert GM_NUMBER not in shared  # *Star's number is its own
    for game in GAME_LIST:  # games that share a number (Hex and Y: GM[11]) each tell their records apart
        assert game.sgf_number not in shared or game.claims_record is not None
    assert STAR.read_record is read_sgf
    game = Position(4)
    game.play(game.parse_move("S40"))
    assert STAR.write_record(game, komi=1.5) == write_sgf(game, komi=1.5)
    assert "printsgf" in STAR.commands and "list_stars" in STAR.commands


def test_move_values_are_labels_and_a_pass_is_empty():
    p = Position(10)
    for label in ("*10", "S43", "R98", "*00", "R09", "T54"):
        cell = p.parse_move(label)
        assert move_to_sgf(p, cell) == label and move_from_sgf(p, label) == cell
        assert move_from_sgf(p, label.lower()) == cell and move_from_sgf(p, f" {label} ") == cell
    assert move_to_sgf(p, PASS) == ""
    for value in ("", " ", "pass", "PASS", "Pass"):
        assert move_from_sgf(p, value) == PASS


def test_exact_record_of_a_short_game():
    p = played(4, "*40", "S41", "*41", "pass")
    assert write_sgf(p) == "(;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[4]\n;B[*40]\n;W[S41]\n;B[*41]\n;W[]\n)\n"
    assert write_sgf(Position(10)) == "(;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[10]\n)\n"


def test_colours_are_not_swapped_and_out_of_turn_moves_keep_theirs():
    p = Position(3)
    p.play(p.parse_move("S31"), WHITE)
    p.play(p.parse_move("S32"), WHITE)
    p.play(p.parse_move("T30"), BLACK)
    p.play(PASS, BLACK)
    text = write_sgf(p)
    assert ";W[S31]\n;W[S32]\n;B[T30]\n;B[]\n)" in text
    back = read_sgf(text)
    assert state(back) == state(p) and back.to_move == WHITE


def test_reading_a_hand_written_record():
    p = read_sgf("(;GM[2004]SZ[5]PB[Ana]C[a [comment\\]]\n;B[s53] ;W[*10]C[ok]\n;B[pass];W[T21])")
    assert moves_of(p) == [(BLACK, "S53"), (WHITE, "*10"), (BLACK, "pass"), (WHITE, "T21")]
    assert p.size == 5 and p.to_move == BLACK and p.setup() is None


def test_size_defaults_to_ten_rings_and_compact_or_spaced_syntax_is_read():
    p = read_sgf("(;GM[2004];B[R09](;W[*00])(;W[*01]))")
    assert p.size == 10 and moves_of(p) == [(BLACK, "R09"), (WHITE, "*00")]
    p = read_sgf("( ; GM [2004] SZ [ 2 ]\n ; B [ S20 ] ; W [] )")
    assert p.size == 2 and moves_of(p) == [(BLACK, "S20"), (WHITE, "pass")]


# -- root properties ---------------------------------------------------------------


def test_komi_is_written_exactly_when_not_zero_and_read_back():
    p = played(2, "S20")
    assert "KM[" not in write_sgf(p) and "KM[" not in write_sgf(p, komi=-0.0)
    for komi, text in ((0.5, "0.5"), (6.5, "6.5"), (-3.0, "-3"), (100.0, "100"), (0.1, "0.1"),
                       (1e-7, "0.0000001"), (2.5e20, "250000000000000000000")):
        assert format_komi(komi) == text
        record = write_sgf(p, komi=komi)
        assert f"SZ[2]KM[{text}]\n" in record and record_komi(record) == komi
    assert record_komi(write_sgf(p)) == 0.0
    assert record_komi("(;GM[2004]KM[ .5 ])") == 0.5 and record_komi("(;GM[2004]KM[+7.])") == 7.0


def test_a_finished_game_records_its_score_and_a_given_result_wins():
    p = played(3, "*30", "S30", "*31", "pass", "pass")  # ended by two passes
    assert p.is_over()
    for komi in (0.0, 0.5, 7.0, -2.0):
        text = write_sgf(p, komi=komi)
        assert f"RE[{score(p, komi).gtp_result()}]" in text
    assert "SZ[3]RE[B+12]\n" in write_sgf(p) and "SZ[3]KM[7]RE[B+5]\n" in write_sgf(p, komi=7.0)
    assert "RE[W+R]" in write_sgf(p, result="W+R") and write_sgf(p, result="W+R").count("RE[") == 1
    unfinished = played(3, "*30")
    assert "RE[" not in write_sgf(unfinished)
    assert "RE[B+T]" in write_sgf(unfinished, result="B+T")


def test_ties_and_quark_wins_are_written_as_final_score_answers_them():
    # A full 2-ring board: every game ends, and the margins are small.
    rng = random.Random(7)
    seen = set()
    for _ in range(200):
        p = Position(2)
        while not p.is_over():
            p.play(rng.choice(p.legal_moves()))
        for komi in (0.0, 1.0, -1.0):
            result = score(p, komi).gtp_result()
            seen.add(result[:2] if result != "0" else "0")
            assert f"RE[{result}]" in write_sgf(p, komi=komi)
    assert {"B+", "W+"} <= seen


def test_properties_are_escaped_and_read_back():
    p = played(2, "S20")
    text = write_sgf(p, result="B+1", properties={"PB": "Ana [x]", "C": "back\\slash"})
    assert "RE[B+1]PB[Ana [x\\]]C[back\\\\slash]\n" in text
    assert state(read_sgf(text)) == state(p)


# -- round trips --------------------------------------------------------------------


def random_game(rings: int, rng: random.Random) -> Position:
    """A seeded random game: stones, passes (some games end by two passes,
    some fill the board, some stop anywhere), now and then an out-of-turn
    move as the protocol allows."""
    p = Position(rings)
    pass_rate = rng.choice((0.0, 0.05, 0.3))
    stop = rng.choice((None, rng.randrange(0, p.geometry.cell_count + 2)))
    while not p.is_over() and (stop is None or len(p.history) < stop):
        colour = None if rng.random() < 0.95 else rng.choice((BLACK, WHITE))
        if rng.random() < pass_rate:
            p.play(PASS, colour)
        else:
            p.play(rng.choice(p.legal_moves()), colour)
    return p


@pytest.mark.parametrize("rings", range(2, 11))
def test_random_games_round_trip(rings):
    rng = random.Random(1000 + rings)
    endings = {"two passes": 0, "full board": 0, "unfinished": 0}
    for _ in range(40 if rings < 8 else 20):
        p = random_game(rings, rng)
        if p.is_over():
            endings["two passes" if p.history[-1][1] == PASS else "full board"] += 1
        else:
            endings["unfinished"] += 1
        komi = rng.choice((0.0, 0.5, -1.5, 7.0))
        text = write_sgf(p, komi=komi)
        back = read_sgf(text)
        assert back.history == p.history
        assert state(back) == state(p.copy())
        assert write_sgf(back, komi=komi) == text and record_komi(text) == komi
        assert read_record(text).history == p.history  # through the GM dispatch
        # Every prefix is the record of the game so far.
        for cut in {0, len(p.history) // 2, max(0, len(p.history) - 1)}:
            prefix = p.copy()
            while len(prefix.history) > cut:
                prefix.undo()
            assert state(read_sgf(write_sgf(prefix))) == state(prefix)
    assert all(count > 0 for count in endings.values()), endings


def test_passes_round_trip_at_every_point_of_a_game():
    p = Position(2)
    for label in ("pass", "S20", "pass", "pass"):
        p.play(p.parse_move(label))
    text = write_sgf(p)
    assert text.endswith(";B[]\n;W[S20]\n;B[]\n;W[]\n)\n") and "RE[" in text
    assert state(read_sgf(text)) == state(p)


# -- the main line and unreadable records -------------------------------------------------


def test_main_line_only_and_later_games_ignored():
    text = ("(;GM[2004]SZ[3](;B[*30](;W[S30])(;W[T30]))(;B[A30]))"
            "(;GM[2004]SZ[3];B[R30])")
    assert moves_of(read_sgf(text)) == [(BLACK, "*30"), (WHITE, "S30")]


@pytest.mark.parametrize("text, message", [
    ("(;SZ[4];B[S40])", r"names no game: a \*Star record has GM\[2004\]"),
    ("(;GM[1]SZ[19];B[dd])", r"GM\[1\] is not \*Star \(GM\[2004\]\)"),
    ("(;GM[18]SZ[6];B[efdedf])", r"GM\[18\] is not \*Star"),
    ("(;GM[2004]SZ[11])", r"SZ\[11\]: a \*Star board has 2..10 rings"),
    ("(;GM[2004]SZ[1])", r"SZ\[1\]: a \*Star board has 2..10 rings"),
    ("(;GM[2004]SZ[four])", r"bad SZ\[four\]"),
    ("(;GM[2004]SZ[4:4])", r"bad SZ\[4:4\]"),
    ("(;GM[2004]KM[six])", r"bad KM\[six\]"),
    ("(;GM[2004]KM[1e400])", r"bad KM\[1e400\]"),
    ("(;GM[2004]KM[nan])", r"bad KM\[nan\]"),
    # Set-up is read before the first move (tests/test_setup_records.py), not after it.
    ("(;GM[2004]SZ[4]AB[S40]AW[S40])", r"point S40 is set up twice \(AB and AW\)"),
    ("(;GM[2004]SZ[4]AB[Z40])", r"node 0: AB\[Z40\]: 'Z40' is not a cell of the 4-ring board"),
    ("(;GM[2004]SZ[4]PL[X])", r"node 0: bad PL\[X\]: B or W"),
    ("(;GM[2004]SZ[4];B[S40];AW[T40])", r"node 2: AW after a move"),
    ("(;GM[2004]SZ[4];B[S40];W[S40])", r"move 2 \(W\[S40\]\): S40 is occupied"),
    ("(;GM[2004]SZ[6];B[*90])", r"move 1 \(B\[\*90\]\): '\*90' is not a cell of the 6-ring board"),
    ("(;GM[2004]SZ[4];B[dd])", r"move 1 \(B\[dd\]\): 'dd' is not a cell"),
    ("(;GM[2004]SZ[4];B[S40];W[tt])", r"move 2 \(W\[tt\]\)"),
    ("(;GM[2004]SZ[4];B[];W[];B[S40])", r"move 3 \(B\[S40\]\): the game is over"),
    ("(;GM[2004]SZ[2];B[*20];W[*21];B[S20];W[S21];B[T20];W[T21];B[A20];W[A21];B[R20];W[R21]"
     ";B[*10];W[S10];B[T10];W[A10];B[R10];W[])", r"move 16 \(W\[\]\): the game is over"),
    ("(;GM[2004]SZ[4];B[S40]W[S41])", r"node 1: more than one move"),
    ("(;GM[2004]SZ[4];B[S40][S41])", r"node 1: more than one move"),
    ("(;GM[2004]SZ[4];B[S40]", r"not closed"),
    ("(;GM[2004]SZ[4];B[S40", r"not closed"),
    ("no record here", r"no SGF game tree"),
    ("(;GM[2004](;B[S40]);W[S41])", r"follows a variation"),
])
def test_unreadable_records(text, message):
    with pytest.raises(SgfError, match=message) as error:
        read_sgf(text)
    assert isinstance(error.value, GameError)


def test_a_record_of_a_full_board_is_over_and_takes_no_more_moves():
    p = Position(2)
    for cell in p.legal_moves():
        p.play(cell)
    back = read_sgf(write_sgf(p))
    assert back.is_over() and state(back) == state(p)
    with pytest.raises(SgfError, match="the game is over"):
        read_sgf(write_sgf(p).replace("\n)", "\n;B[]\n)"))


# -- engine.games dispatch ------------------------------------------------------------------


def test_records_go_to_the_game_their_gm_names():
    star = read_record(write_sgf(played(5, "S53", "*10")))
    assert star.game == "star" and star.size == 5 and moves_of(star) == [(BLACK, "S53"), (WHITE, "*10")]
    amazons = read_record("(;GM[18]SZ[6];B[efdedf])")
    assert amazons.game == "amazons" and len(amazons.history) == 1
    assert find_game("star").read_record is read_sgf


# -- printsgf and loadsgf through the server ------------------------------------------------

CONFIG = SessionConfig(player="random", seed=3)


def talk(*lines: str) -> tuple[list[str], object]:
    data = ("\n".join(lines) + "\n").encode()
    output, session = asyncio.run(converse(data, CONFIG))
    return [r.decode() for r in split_responses(output)], session


def test_printsgf_in_star_is_listed_and_round_trips():
    answers, session = talk("boardsize 3", "list_commands", "play b S31", "genmove w", "play b pass",
                            "printsgf")
    assert "printsgf" in answers[1].split("\n") and "list_stars" in answers[1].split("\n")
    assert answers[-1].startswith("= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[3]\n;B[S31]\n;W[")
    record = answers[-1][2:-2]
    assert state(read_sgf(record)) == state(session.position)


def test_printsgf_of_a_finished_game_has_its_result():
    answers, _ = talk("boardsize 2", "play b *20", "play w pass", "play b *21", "play w pass",
                      "play b pass", "final_score", "printsgf")
    assert answers[-2] == "= B+7\n\n"
    assert answers[-1] == ("= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[2]RE[B+7]\n;B[*20]\n;W[]\n"
                           ";B[*21]\n;W[]\n;B[]\n)\n\n")


def test_loadsgf_switches_to_star_at_the_record_size_and_stops_before_move_n(tmp_path):
    p = Position(6)
    for label in ("S63", "*10", "pass", "T52", "R65"):
        p.play(p.parse_move(label))
    path = tmp_path / "game.sgf"
    path.write_text(write_sgf(p, komi=0.5))
    answers, session = talk("game amazons", "boardsize 8", f"loadsgf {path}", "game", "showboard")
    assert answers[2:4] == ["=\n\n", "= star\n\n"]
    assert session.position.size == 6 and state(session.position) == state(p)
    assert "R60" in answers[4] and "R70" not in answers[4] and "moves: 5" in answers[4]
    for n, kept in ((1, 0), (3, 2), (5, 4), (6, 5), (99, 5)):
        answers, session = talk("game amazons", f"loadsgf {path} {n}", "game")
        assert answers[1:] == ["=\n\n", "= star\n\n"] and len(session.position.history) == kept
        assert session.position.history == p.history[:kept] and session.position.size == 6
    # The loaded game goes on: the workers start from it.
    answers, session = talk(f"loadsgf {path} 3", "genmove w", "printsgf")
    assert answers[1].startswith("= ") and len(session.position.history) == 3
    assert answers[2].startswith("= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[6]KM[0.5]\n;B[S63]\n;W[*10]\n;")


def test_loadsgf_of_an_amazons_record_from_star_and_back(tmp_path):
    amazons = tmp_path / "amazons.sgf"
    amazons.write_text(write_amazons_sgf(AmazonsPosition(6)))
    star = tmp_path / "star.sgf"
    star.write_text(write_sgf(played(4, "S43")))
    answers, session = talk(f"loadsgf {amazons}", "game", f"loadsgf {star}", "game", "printsgf")
    assert answers[:4] == ["=\n\n", "= amazons\n\n", "=\n\n", "= star\n\n"]
    assert answers[4] == "= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[4]\n;B[S43]\n)\n\n"


def test_loadsgf_failures_of_star_records_leave_the_position(tmp_path):
    records = {
        "setup.sgf": "(;GM[2004]SZ[4]AB[S40]AW[S40])",
        "occupied.sgf": "(;GM[2004]SZ[4];B[S40];W[S40])",
        "size.sgf": "(;GM[2004]SZ[12])",
        "over.sgf": "(;GM[2004]SZ[4];B[];W[];B[S40])",
        "komi.sgf": "(;GM[2004]KM[x])",
    }
    for name, text in records.items():
        (tmp_path / name).write_text(text)
    answers, session = talk("game amazons", "boardsize 6", "play w e1-e3/e4",
                            *(f"loadsgf {tmp_path / name}" for name in records), "game")
    assert answers[3:] == [
        "? cannot load file: point S40 is set up twice (AB and AW)\n\n",
        "? cannot load file: move 2 (W[S40]): S40 is occupied\n\n",
        "? cannot load file: SZ[12]: a *Star board has 2..10 rings\n\n",
        "? cannot load file: move 3 (B[S40]): the game is over: both players passed\n\n",
        "? cannot load file: bad KM[x]: the komi is a number such as 0.5\n\n",
        "= amazons\n\n",
    ]
    assert session.position.size == 6 and len(session.position.history) == 1


def test_the_rules_page_example_is_what_the_writer_writes():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "rules-star.md").read_text()
    example = page.split("## Records (SGF)", 1)[1].split("```\n", 2)[1]
    p = Position(4)
    p.play(p.parse_move("*40"))
    p.play(p.parse_move("*41"), BLACK)
    for label in ("*42", "pass", "pass"):
        p.play(p.parse_move(label))
    assert write_sgf(p, komi=0.5) == example
    assert state(read_sgf(example)) == state(p) and record_komi(example) == 0.5
