"""The query commands (protocol/server/queries.py, docs/protocol.md):
query_boardsize, get_komi, is_legal and all_legal in both games.

Exact answers at the start, mid-game, once the game is over and in set-up
positions; every bad input answered with ``?`` and the position unchanged;
``all_legal`` (every form) against a slow reference that tries ``is_legal``
on every candidate text, on seeded random positions of both games; the
third game of tests/third_game.py, to show nothing is game-specific; and
the speed of ``all_legal`` at the 10x10 Amazons start.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stargtp.engine.amazons import Position as AmazonsPosition
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.games import games, new_position
from stargtp.engine.star.geometry import geometry as star_geometry
from stargtp.protocol.server import queries
from stargtp.protocol.server.session import Session, SessionConfig
from tests import third_game
from tests.gtp_helpers import REPO, converse, split_responses, subprocess_env

COLOUR_WORDS = {BLACK: "b", WHITE: "w"}
FILES = "abcdefghij"


def new_session(game: str = "star", size: int | None = None) -> Session:
    return Session(SessionConfig(game=game, size=size, workers=1))


def ask(session: Session, line: str) -> str:
    """One command's answer: ``=`` or ``?`` and the text, without the blank line."""
    outcome = session.execute(line.encode())
    assert outcome.later is None and outcome.now is not None, line
    assert outcome.now.endswith("\n\n"), outcome.now
    return outcome.now[:-2]


def ask_all(session: Session, *lines: str) -> list[str]:
    return [ask(session, line) for line in lines]


def words(answer: str) -> list[str]:
    """The words of a successful answer."""
    assert answer.startswith("="), answer
    return answer[1:].split()


def snapshot(session: Session) -> tuple:
    """Everything a query could change: the position object and its state
    (board, side to move, history, its own move list), komi."""
    position = session.state.position
    return (id(position), position.game, position.size, position.to_move, list(position.history),
            position.render_text(), [position.format_move(m) for m in position.legal_moves()],
            session.state.komi)


def star_labels(rings: int) -> list[str]:
    """The cells of a *Star board in board order (the notation's definition)."""
    return list(star_geometry(rings).labels)


def square_names(size: int) -> list[str]:
    """Amazons squares in square order: a1 b1 ... then a2 ..."""
    return [f"{FILES[column]}{rank}" for rank in range(1, size + 1) for column in range(size)]


# -- query_boardsize and get_komi ----------------------------------------------------


def test_query_boardsize_in_both_games() -> None:
    session = new_session("star", 4)
    assert ask(session, "query_boardsize") == "= 4"
    for rings in range(2, 11):
        assert ask_all(session, f"boardsize {rings}", "query_boardsize") == ["=", f"= {rings}"]
    assert ask_all(session, "boardsize 11", "query_boardsize") == ["? unacceptable size", "= 10"]
    assert ask_all(session, "game amazons", "query_boardsize") == ["=", "= 10"]
    for size in (6, 8, 10):
        assert ask_all(session, f"boardsize {size}", "query_boardsize", "clear_board",
                       "query_boardsize") == ["=", f"= {size}", "=", f"= {size}"]
    assert ask_all(session, "game star", "query_boardsize") == ["=", "= 10"]


@pytest.mark.parametrize("komi, shown", [
    ("0", "0"), ("6.5", "6.5"), ("-3", "-3"), ("7.5", "7.5"), ("+7.50", "7.5"), (".5", "0.5"),
    ("-0.5", "-0.5"), ("1e2", "100"), ("-0", "0"), ("0.1234567", "0.123457"), ("1e-7", "0"),
    ("-2.25", "-2.25"), ("12345678.25", "12345678.25"),
])
def test_get_komi_writes_numbers_as_final_score_does(komi: str, shown: str) -> None:
    session = new_session("star", 4)
    assert ask_all(session, f"komi {komi}", "get_komi") == ["=", f"= {shown}"]


def test_get_komi_default_and_kept_across_games() -> None:
    session = new_session("star", 4)
    assert ask(session, "get_komi") == "= 0"
    assert ask_all(session, "komi 6.5", "boardsize 5", "get_komi", "clear_board", "get_komi",
                   "game amazons", "get_komi", "komi -3", "get_komi", "game star", "get_komi") == [
        "=", "=", "= 6.5", "=", "= 6.5", "=", "= 6.5", "=", "= -3", "=", "= -3"]


def test_get_komi_matches_the_margin_of_final_score() -> None:
    # On the empty board the margin is komi itself, written the same way.
    session = new_session("star", 4)
    for komi in ("0.5", "2.75", "0.1234567", "3"):
        answers = ask_all(session, f"komi {komi}", "get_komi", "final_score")
        assert answers[2] == "= W+" + answers[1][2:]


# -- *Star --------------------------------------------------------------------------------


def test_star_start_lists_every_cell_then_pass() -> None:
    session = new_session("star", 4)
    cells = star_labels(4)
    assert len(cells) == 50 and cells[:7] == ["*10", "S10", "T10", "A10", "R10", "*20", "*21"]
    assert words(ask(session, "all_legal b")) == cells + ["pass"]
    assert words(ask(session, "all_legal white")) == cells + ["pass"]
    session = new_session("star", 10)
    assert words(ask(session, "all_legal B")) == star_labels(10) + ["pass"]  # 275 cells


def test_star_mid_game_and_set_up() -> None:
    session = new_session("star", 4)
    assert ask_all(session, "play b *41", "play b *30", "play b R43", "play w T40") == ["="] * 4
    free = [c for c in star_labels(4) if c not in {"*41", "*30", "R43", "T40"}]
    # Black is to move; either colour may fill any empty cell: the same list.
    assert words(ask(session, "all_legal b")) == free + ["pass"]
    assert words(ask(session, "all_legal w")) == free + ["pass"]
    assert ask_all(session, "is_legal w *40", "is_legal b *40", "is_legal b s43", "is_legal W PASS",
                   "is_legal b *41", "is_legal w t40", "is_legal b R43") == [
        "= 1", "= 1", "= 1", "= 1", "= 0", "= 0", "= 0"]


def test_star_text_that_is_no_move_is_0() -> None:
    session = new_session("star", 4)
    for text in ("S44", "*50", "R98", "X10", "d1-d7/g7", "d1", "0", "*", "resign", "passs", "**10",
                 "*10*", "é1", "S4", "pass,"):
        assert ask(session, f"is_legal b {text}") == "= 0", text


def test_star_game_over_by_two_passes_and_back() -> None:
    session = new_session("star", 3)
    assert ask_all(session, "play b *30", "play w pass", "play b pass") == ["="] * 3
    assert ask_all(session, "all_legal b", "all_legal w", "is_legal b pass", "is_legal w *31",
                   "is_legal b *31") == ["=", "=", "= 0", "= 0", "= 0"]
    assert ask(session, "undo") == "="
    assert words(ask(session, "all_legal w")) == [c for c in star_labels(3) if c != "*30"] + ["pass"]
    assert ask(session, "is_legal b pass") == "= 1"


def test_star_game_over_on_a_full_board() -> None:
    session = new_session("star", 2)
    cells = star_labels(2)
    for i, cell in enumerate(cells[:-1]):
        assert ask(session, f"play {'bw'[i % 2]} {cell}") == "="
    assert ask(session, "all_legal b") == f"= {cells[-1]} pass"
    assert ask(session, "all_legal w") == f"= {cells[-1]} pass"
    assert ask(session, f"play b {cells[-1]}") == "="
    assert ask_all(session, "all_legal b", "all_legal w", "is_legal w pass") == ["=", "=", "= 0"]


# -- Amazons ------------------------------------------------------------------------------


def test_amazons_6x6_start() -> None:
    session = new_session("amazons", 6)
    white = words(ask(session, "all_legal w"))
    black = words(ask(session, "all_legal b"))
    assert len(white) == len(black) == 544
    assert white[:4] == ["b1-a1/b1", "b1-a1/c1", "b1-a1/d1", "b1-a1/b2"] and white[-1] == "f2-c5/d6"
    position = session.state.position
    assert white == [position.format_move(m) for m in position.legal_moves()]
    assert ask(session, "all_legal w b1") == "= a1 c1 d1 b2 c2 b3 d3 b4 e4 b5"
    assert ask(session, "all_legal w b1-b4") == "= b1 b2 d2 a3 b3 c3 a4 c4 d4 e4 f4 b5 c5 d6"
    assert ask(session, "all_legal W B1/B4") == "= b1 b2 d2 a3 b3 c3 a4 c4 d4 e4 f4 b5 c5 d6"
    assert ask(session, "all_legal b a5") == "= d2 a3 c3 a4 b4 b5 c5 d5 e5 a6"
    # From a4, a5 empty: a5 a6 (north), a3 (south, to a2), b4 ... f4, b5 c6, b3 c2 d1.
    assert ask(session, "all_legal b a5-a4") == "= d1 c2 a3 b3 b4 c4 d4 e4 f4 a5 b5 a6 c6"
    for line in ("all_legal w a5", "all_legal w c3", "all_legal b b1", "all_legal w b1-c3",
                 "all_legal w b1-b1", "all_legal w b1-b6", "all_legal w e1-e6"):
        assert ask(session, line) == "=", line
    assert ask_all(session, "is_legal w b1-b4/e4", "is_legal w B1B4E4", "is_legal w b1-b4-e4",
                   "is_legal w b1b4,b4e4", "is_legal b a5-a4/a3", "is_legal w b1-b4/b1",
                   "is_legal b b1-b4/e4", "is_legal w a2-a3/a6", "is_legal w pass", "is_legal w b1-b4",
                   "is_legal w g1-g2/g3", "is_legal w *40", "is_legal w b1b4,b3e4") == [
        "= 1", "= 1", "= 1", "= 1", "= 1", "= 1", "= 0", "= 0", "= 0", "= 0", "= 0", "= 0", "= 0"]


def test_amazons_10x10_start() -> None:
    session = new_session("amazons", 10)
    white = words(ask(session, "all_legal w"))
    black = words(ask(session, "all_legal b"))
    assert len(white) == len(black) == len(set(white)) == 2176
    # Amazons in square order (d1 g1 a4 j4; a7 j7 d10 g10), then destination and arrow:
    # d1 reaches a1 and then shoots to b1; a7 reaches f2 (south-east) and shoots to e1.
    assert white[0] == "d1-a1/b1" and black[0] == "a7-f2/e1"
    assert ask(session, "all_legal w d1") == "= a1 b1 c1 e1 f1 c2 d2 e2 b3 d3 f3 d4 g4 d5 h5 d6 i6 d7 d8 d9"
    assert ask(session, "all_legal w d1-d7") == ("= d1 j1 d2 i2 d3 h3 d4 g4 b5 d5 f5 c6 d6 e6 b7 c7 e7 f7"
                                                 " g7 h7 i7 c8 d8 e8 b9 d9 f9 a10")
    assert ask(session, "all_legal b d10") == ("= d2 d3 d4 d5 i5 d6 h6 d7 g7 b8 d8 f8 c9 d9 e9 a10 b10"
                                               " c10 e10 f10")
    # Black's d10 down to d2 (White's d1 below it); from d2, with d10 empty, the arrow
    # reaches c1 and e1, the whole rank but d2, d3 ... d10 (north), c3 b4 a5 (north-west),
    # e3 f4 g5 h6 i7 j8 (north-east).
    assert ask(session, "all_legal b D10-d2") == ("= c1 e1 a2 b2 c2 e2 f2 g2 h2 i2 j2 c3 d3 e3 b4 d4 f4"
                                                  " a5 d5 g5 d6 h6 d7 i7 d8 j8 d9 d10")


def diagram_position(text: str, to_move: int) -> AmazonsPosition:
    return AmazonsPosition.from_diagram(text, to_move=to_move)


WALLED = """
    . . . . . B
    . . . . x x
    . . . . . .
    x x x x x x
    x x . . . .
    W x . . . .
"""
"""A set-up: White's a1 is walled in; Black's f6 reaches a6 ... e6 only."""


def test_amazons_set_up_with_black_to_move() -> None:
    session = new_session("amazons", 6)
    session.adopt(diagram_position(WALLED, BLACK))
    assert ask_all(session, "query_boardsize", "all_legal w", "all_legal w a1", "is_legal w a1-a2/a3") == [
        "= 6", "=", "=", "= 0"]
    assert ask(session, "all_legal b f6") == "= a6 b6 c6 d6 e6"
    # From e6, f6 empty: f6 (east), a6 ... d6 (west), d5 c4 (south-west, to b3); e5 f5 arrows.
    assert ask(session, "all_legal b f6-e6") == "= c4 d5 a6 b6 c6 d6 f6"
    moves = words(ask(session, "all_legal b"))
    # From a6, f6 empty: a5 a4 (south, to a3), b5 c4 (south-east, to d3), b6 ... f6.
    assert moves[:5] == ["f6-a6/a4", "f6-a6/c4", "f6-a6/a5", "f6-a6/b5", "f6-a6/b6"]
    assert {m.split("/")[0] for m in moves} == {"f6-a6", "f6-b6", "f6-c6", "f6-d6", "f6-e6"}


def test_amazons_set_up_over_when_the_walled_side_is_to_move() -> None:
    session = new_session("amazons", 6)
    session.adopt(diagram_position(WALLED, WHITE))
    assert ask_all(session, "all_legal w", "all_legal b", "all_legal b f6", "all_legal b f6-e6",
                   "is_legal b f6-e6/f6") == ["=", "=", "=", "=", "= 0"]
    # The partial form is still checked: a bad square is an error, not an empty answer.
    assert ask(session, "all_legal b g6").startswith("? syntax error: expected the start of a move")


def test_amazons_set_up_from_an_sgf_record(tmp_path: Path) -> None:
    # loadsgf's set-up (AB/AW and the side to move), through a real conversation.
    position = diagram_position(WALLED, BLACK)
    record = tmp_path / "walled.sgf"
    record.write_text(position.rules.write_record(position), encoding="utf-8")
    lines = [f"loadsgf {record}", "query_boardsize", "all_legal b f6", "all_legal w", "is_legal b f6-e6/d5",
             "all_legal b f6-e6"]
    data = "".join(f"{line}\n" for line in lines).encode()
    output, _ = asyncio.run(converse(data, SessionConfig(workers=1)))
    answers = [response.decode()[:-2] for response in split_responses(output)]
    assert answers == ["=", "= 6", "= a6 b6 c6 d6 e6", "=", "= 1", "= c4 d5 a6 b6 c6 d6 f6"]


def test_amazons_finished_game() -> None:
    # The game of tests/transcripts/amazons.gtp, to its end: White, to move, has none.
    session = new_session("amazons", 6)
    moves = ["w b1-b2/b3", "b a5-a4/a3", "w e1-e2/e3", "b f5-f4/f3", "w b2-c2/c3", "b a4-d4/d3",
             "w c2-b1/a1", "w b1-c1/b1", "w c1-d1/c1", "w d1-e1/d1", "w e1-f1/e1", "w e2-b2/c2",
             "w f1-e2/f1"]
    for move in moves:
        assert ask(session, f"play {move}") == "="
    assert ask_all(session, "all_legal w", "all_legal w e2", "all_legal w e2-d2") == [
        "= e2-d2/e2", "= d2", "= e2"]
    assert ask(session, "play w e2-d2/e2") == "="
    assert ask_all(session, "all_legal w", "all_legal b b6", "all_legal b b6-b5") == [
        "=", "= b4 a5 b5 c5 a6 c6 d6", "= a4 b4 c4 a5 c5 d5 e5 f5 a6 b6 c6"]
    assert len(words(ask(session, "all_legal b"))) == 223  # as perft 1 counts in amazons.gtp
    assert ask(session, "play b b6-b5/b6") == "="
    assert ask_all(session, "all_legal w", "all_legal b", "all_legal b d4", "is_legal b d4-d5/d6",
                   "is_legal w a2-a1/a2") == ["=", "=", "=", "= 0", "= 0"]


# -- bad input: a clear "?" (or 0) and nothing changes -----------------------------------------

PARTIAL_6X6 = "? syntax error: expected the start of a move, such as b1 or b1-a1"

BAD_INPUT = [
    # (game, size, line, answer)
    ("star", 4, "is_legal", "? syntax error: expected 2 arguments"),
    ("star", 4, "is_legal b", "? syntax error: expected 2 arguments"),
    ("star", 4, "is_legal b *40 *42", "? syntax error: expected 2 arguments"),
    ("star", 4, "is_legal x *40", "? syntax error: invalid colour"),
    ("star", 4, "is_legal 1 *40", "? syntax error: invalid colour"),
    ("star", 4, "is_legal bl *40", "? syntax error: invalid colour"),
    ("star", 4, "is_legal x junk", "? syntax error: invalid colour"),
    ("star", 4, "is_legal b S44", "= 0"),
    ("star", 4, "is_legal b d1-d7/g7", "= 0"),
    ("star", 4, "is_legal b *41", "= 0"),
    ("star", 4, "all_legal", "? syntax error: expected 1 or 2 arguments"),
    ("star", 4, "all_legal b *40 *42 *43", "? syntax error: expected 1 or 2 arguments"),
    ("star", 4, "all_legal x", "? syntax error: invalid colour"),
    ("star", 4, "all_legal empty", "? syntax error: invalid colour"),
    ("star", 4, "all_legal x *40", "? syntax error: invalid colour"),
    ("star", 4, "all_legal b *40", "? syntax error: *Star moves have no parts"),
    ("star", 4, "all_legal b S44", "? syntax error: *Star moves have no parts"),
    ("star", 4, "all_legal b pass", "? syntax error: *Star moves have no parts"),
    ("star", 4, "all_legal w d1", "? syntax error: *Star moves have no parts"),
    ("star", 4, "all_legal w d1-d7", "? syntax error: *Star moves have no parts"),
    ("star", 4, "query_boardsize 4", "? syntax error: expected no arguments"),
    ("star", 4, "get_komi 6.5", "? syntax error: expected no arguments"),
    ("amazons", 6, "is_legal", "? syntax error: expected 2 arguments"),
    ("amazons", 6, "is_legal w", "? syntax error: expected 2 arguments"),
    ("amazons", 6, "is_legal w b1-b4 e4", "? syntax error: expected 2 arguments"),
    ("amazons", 6, "is_legal red b1-b4/e4", "? syntax error: invalid colour"),
    ("amazons", 6, "is_legal w *40", "= 0"),
    ("amazons", 6, "is_legal w pass", "= 0"),
    ("amazons", 6, "is_legal w b1-b4", "= 0"),
    ("amazons", 6, "is_legal w g1-g2/g3", "= 0"),
    ("amazons", 6, "is_legal w é1-b2/c3", "= 0"),
    ("amazons", 6, "all_legal", "? syntax error: expected 1 or 2 arguments"),
    ("amazons", 6, "all_legal w b1 b4", "? syntax error: expected 1 or 2 arguments"),
    ("amazons", 6, "all_legal w b1 b4 e4", "? syntax error: expected 1 or 2 arguments"),
    ("amazons", 6, "all_legal purple", "? syntax error: invalid colour"),
    ("amazons", 6, "all_legal purple z9", "? syntax error: invalid colour"),
    ("amazons", 6, "all_legal w g1", PARTIAL_6X6),
    ("amazons", 6, "all_legal w a7", PARTIAL_6X6),
    ("amazons", 6, "all_legal w a0", PARTIAL_6X6),
    ("amazons", 6, "all_legal w z9", PARTIAL_6X6),
    ("amazons", 6, "all_legal w *40", PARTIAL_6X6),
    ("amazons", 6, "all_legal w S43", PARTIAL_6X6),
    ("amazons", 6, "all_legal w pass", PARTIAL_6X6),
    ("amazons", 6, "all_legal w b1b4", PARTIAL_6X6),
    ("amazons", 6, "all_legal w b1-", PARTIAL_6X6),
    ("amazons", 6, "all_legal w -b1", PARTIAL_6X6),
    ("amazons", 6, "all_legal w b1-g4", PARTIAL_6X6),
    ("amazons", 6, "all_legal w b1-b4/e4", PARTIAL_6X6),
    ("amazons", 6, "all_legal w b1-b4-e4-f4", PARTIAL_6X6),
    ("amazons", 6, "all_legal w é1", PARTIAL_6X6),
    ("amazons", 6, "query_boardsize x", "? syntax error: expected no arguments"),
    ("amazons", 6, "get_komi 0", "? syntax error: expected no arguments"),
    ("amazons", 10, "all_legal w k1", "? syntax error: expected the start of a move, such as d1 or d1-a1"),
    ("amazons", 8, "all_legal w i1", "? syntax error: expected the start of a move, such as c1 or c1-a1"),
]


OPENINGS = {
    ("star", 4): ("play b *41", "play w *30", "komi 2.5"),
    ("amazons", 6): ("play w b1-b4/e4", "komi 2.5"),
    ("amazons", 8): (),
    ("amazons", 10): ("play w d1-d7/g7",),
}


@pytest.mark.parametrize("game, size, line, answer", BAD_INPUT, ids=lambda v: str(v))
def test_bad_input_is_refused_and_changes_nothing(game: str, size: int, line: str, answer: str) -> None:
    session = new_session(game, size)
    for setup in OPENINGS[game, size]:
        assert ask(session, setup) == "="
    before = snapshot(session)
    assert ask(session, line) == answer
    assert snapshot(session) == before


def test_queries_change_nothing_on_random_lines() -> None:
    rng = random.Random(12)
    pieces = ["b", "w", "x", "*40", "S43", "d1", "b1", "b1-b4", "b1-b4/e4", "pass", "z9", "-", "1", "é"]
    for game, size in (("star", 4), ("amazons", 6)):
        session = new_session(game, size)
        assert ask(session, "play b *41" if game == "star" else "play w b1-b4/e4") == "="
        before = snapshot(session)
        for _ in range(300):
            name = rng.choice(["is_legal", "all_legal", "query_boardsize", "get_komi"])
            line = " ".join([name] + rng.choices(pieces, k=rng.randint(0, 3)))
            assert ask(session, line)[0] in "=?"
            assert snapshot(session) == before, line


# -- all_legal against is_legal on every candidate ------------------------------------------


def legal_by_is_legal(session: Session, colour: int, candidates: list[str]) -> list[str]:
    """The slow reference: the candidates that is_legal accepts (the command's
    handler, so that the same parsing is tried)."""
    word = COLOUR_WORDS[colour]
    return [text for text in candidates if queries.is_legal(session, (word, text)) == "1"]


def random_star_position(rng: random.Random):
    position = new_position("star", rng.choice([2, 3, 4, 5]))
    for _ in range(rng.randint(0, position.geometry.cell_count + 2)):
        if position.is_over():
            break
        colour = position.to_move if rng.random() < 0.8 else 3 - position.to_move  # set-up
        move = -1 if rng.random() < 0.08 else rng.choice(position.legal_moves())
        position.play(move, colour)
    return position


@pytest.mark.parametrize("seed", range(12))
def test_star_all_legal_matches_is_legal(seed: int) -> None:
    rng = random.Random(seed)
    position = random_star_position(rng)
    session = new_session("star", position.size)
    session.adopt(position)
    before = snapshot(session)
    candidates = star_labels(10) + ["pass"]  # cells of every size: those off this board are never legal
    for colour in (BLACK, WHITE):
        answer = words(ask(session, f"all_legal {COLOUR_WORDS[colour]}"))
        reference = legal_by_is_legal(session, colour, candidates)
        # Board order is the order of the labels; pass last.
        assert answer == reference, (seed, colour)
        assert (answer == []) == position.is_over()
        assert (not answer) or answer[-1] == "pass"
    assert snapshot(session) == before


def random_amazons_position(rng: random.Random, size: int, plies: int):
    """``plies`` random moves (fewer if the game ends), one in five played by
    the side not to move (set-up), which reorders the amazons' move order."""
    position = new_position("amazons", size)
    for _ in range(plies):
        if position.is_over():
            break
        mover = position.copy()
        if rng.random() < 0.2:
            mover.to_move = 3 - mover.to_move
        moves = mover.legal_moves()
        if moves:
            position.play(rng.choice(moves), mover.to_move)
    return position


def check_amazons_against_reference(session: Session, from_squares: list[str]) -> None:
    """Every form of all_legal for both colours against is_legal tried on the
    candidates FROM-TO/ARROW (FROM in ``from_squares``, TO and ARROW anywhere)."""
    position = session.state.position
    names = square_names(position.size)
    order = {name: i for i, name in enumerate(names)}
    candidates = [f"{a}-{b}/{c}" for a in from_squares for b in names for c in names]
    for colour in (BLACK, WHITE):
        word = COLOUR_WORDS[colour]
        reference = legal_by_is_legal(session, colour, candidates)
        answer = words(ask(session, f"all_legal {word}"))
        assert sorted(answer) == sorted(reference) and len(set(answer)) == len(answer), word
        if colour == position.to_move:
            assert answer == [position.format_move(m) for m in position.legal_moves()]
        # Canonical order for either colour: amazon by amazon, then destination
        # and arrow in square order.
        froms = list(dict.fromkeys(m.split("-")[0] for m in answer))
        for origin in froms:
            group = [m for m in answer if m.split("-")[0] == origin]
            key = [(order[m.split("-")[1].split("/")[0]], order[m.split("/")[1]]) for m in group]
            assert key == sorted(key)
        assert answer == [m for origin in froms for m in answer if m.split("-")[0] == origin]
        # The partial forms, for every square of the board: what the reference
        # moves hold, in square order.
        triples = [(m.split("-")[0], m.split("-")[1].split("/")[0], m.split("/")[1]) for m in reference]
        for origin in names:
            destinations = sorted({to for a, to, _ in triples if a == origin}, key=order.get)
            assert words(ask(session, f"all_legal {word} {origin}")) == destinations, (word, origin)
            for to in destinations:
                arrows = sorted({c for a, b, c in triples if (a, b) == (origin, to)}, key=order.get)
                assert words(ask(session, f"all_legal {word} {origin}-{to}")) == arrows


@pytest.mark.parametrize("seed, plies", [(1, 0), (2, 7), (3, 16), (4, 25), (5, 60)])
def test_amazons_6x6_all_legal_matches_is_legal(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    position = random_amazons_position(rng, 6, plies)
    session = new_session("amazons", 6)
    session.adopt(position)
    before = snapshot(session)
    check_amazons_against_reference(session, square_names(6))  # every candidate
    assert snapshot(session) == before


@pytest.mark.parametrize("seed, plies", [(6, 10), (7, 45)])
def test_amazons_10x10_all_legal_matches_is_legal(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    position = random_amazons_position(rng, 10, plies)
    session = new_session("amazons", 10)
    session.adopt(position)
    before = snapshot(session)
    # FROM among the squares with an amazon (from any other square nothing is legal).
    amazons = [position.format_square(s) for c in (BLACK, WHITE) for s in position.amazons(c)]
    check_amazons_against_reference(session, amazons)
    assert snapshot(session) == before


# -- nothing game-specific: the third game ---------------------------------------------------


@pytest.fixture
def tictactoe():
    """tests/third_game.py's game, registered for one test (and left as it was)."""
    registered_before = third_game.NAME in games()
    third_game.register()
    yield third_game.TICTACTOE
    if not registered_before:
        third_game.unregister()


def test_the_queries_in_a_game_registered_at_run_time(tictactoe) -> None:
    session = Session(SessionConfig(game=third_game.NAME, player="uct", workers=1))
    assert ask_all(session, "query_boardsize", "get_komi") == ["= 3", "= 0"]
    assert ask(session, "all_legal b") == "= a1 b1 c1 a2 b2 c2 a3 b3 c3"  # no pass: no_move is None
    assert ask_all(session, "play b b2", "all_legal w", "all_legal b", "is_legal w b2", "is_legal w A1",
                   "is_legal w d4", "is_legal w pass") == [
        "=", "= a1 b1 c1 a2 c2 a3 b3 c3", "= a1 b1 c1 a2 c2 a3 b3 c3", "= 0", "= 1", "= 0", "= 0"]
    assert ask(session, "all_legal w a1") == "? syntax error: Tic-tac-toe moves have no parts"
    # The game of tests/third_game.py's docstring: one square left, then Black's line.
    for move in ("w a1", "b c3", "w a3", "b a2", "w c1", "b b1", "w b3"):
        assert ask(session, f"play {move}") == "="
    assert ask_all(session, "all_legal b", "all_legal w", "play b c2", "all_legal b", "all_legal w",
                   "is_legal w c2") == ["= c2", "= c2", "=", "=", "=", "= 0"]


# -- registration, imports, speed ---------------------------------------------------------------


def test_the_queries_are_commands_of_every_game() -> None:
    session = new_session("star", 4)
    for game in ("star", "amazons"):
        assert ask(session, f"game {game}") == "="
        listed = words(ask(session, "list_commands"))
        for name in ("query_boardsize", "get_komi", "is_legal", "all_legal"):
            assert name in listed and ask(session, f"known_command {name}") == "= true"


def test_the_module_imports_first_or_second() -> None:
    # queries.py and commands.py import each other; either order works.
    for first, second in (("stargtp.protocol.server.queries", "stargtp.protocol.server.commands"),
                          ("stargtp.protocol.server.commands", "stargtp.protocol.server.queries")):
        code = (f"import {first}; import {second}; from stargtp.protocol.server.commands import COMMANDS; "
                "from stargtp.protocol.server.queries import all_legal; assert ('all_legal', all_legal) in COMMANDS")
        result = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=subprocess_env(),
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr


def test_all_legal_at_the_10x10_start_is_fast() -> None:
    """The median of 20 calls, framing included, is far below 50 ms (about
    1 ms on the development machine; the limit only catches a regression to
    per-move work, never a busy machine)."""
    session = new_session("amazons", 10)
    times = []
    for _ in range(20):
        start = time.perf_counter()
        answer = ask(session, "all_legal w")
        times.append(time.perf_counter() - start)
    assert len(answer.split()) == 1 + 2176
    assert statistics.median(times) < 0.050
