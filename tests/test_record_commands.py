"""printsgf / loadsgf (*Star and Amazons records) and the stargtp-svg picture command."""

import asyncio
import os
import xml.etree.ElementTree as ET

from dataclasses import replace

from stargtp.engine.amazons.position import Position as AmazonsPosition
from stargtp.engine.amazons.sgf import read_sgf, write_sgf
from stargtp.protocol.server.session import SessionConfig
from stargtp.protocol.server.workers import _WorkerGame
from tests.gtp_helpers import converse, split_responses

CONFIG = SessionConfig(player="random", seed=3)


def talk(*lines: str) -> tuple[list[str], object]:
    data = ("\n".join(lines) + "\n").encode()
    output, session = asyncio.run(converse(data, CONFIG))
    return [r.decode() for r in split_responses(output)], session


def test_printsgf_round_trips_the_game():
    answers, session = talk("game amazons", "boardsize 6", "play w e1-e3/e4", "genmove b", "printsgf")
    assert answers[-1].startswith("= (;GM[18]")
    record = answers[-1][2:-2]
    again = read_sgf(record)
    assert [(c, again.format_move(m)) for c, m in again.history] == [
        (c, session.position.format_move(m)) for c, m in session.position.history]


def test_printsgf_records_star_games_too():
    answers, _ = talk("boardsize 4", "komi 2.5", "play b S40", "play w pass", "printsgf")
    assert answers[-1] == ("= (;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[4]KM[2.5]\n"
                           ";B[S40]\n;W[]\n)\n\n")


def test_loadsgf_switches_game_and_can_stop_before_a_move(tmp_path):
    p = AmazonsPosition(8)
    for text in ("c1-c4/f4", "a6-b6/b5", "f1-f3/e3"):
        p.play(p.parse_move(text))
    path = tmp_path / "game.sgf"
    path.write_text(write_sgf(p))
    answers, session = talk(f"loadsgf {path}", "game")
    assert answers == ["=\n\n", "= amazons\n\n"]
    assert [session.position.format_move(m) for _, m in session.position.history] == [
        "c1-c4/f4", "a6-b6/b5", "f1-f3/e3"]
    answers, session = talk(f"loadsgf {path} 3")
    assert answers == ["=\n\n"] and len(session.position.history) == 2


def test_loadsgf_adopts_the_records_komi_where_the_game_has_komi(tmp_path):
    """GNU Go's behaviour: a record's KM becomes the session's komi; a
    record without KM, or of a game without komi, leaves it; a bad KM
    changes nothing."""
    path = tmp_path / "game.sgf"
    path.write_text("(;GM[2004]SZ[4]KM[3.5];B[S40])")
    answers, session = talk("komi 1", f"loadsgf {path}", "get_komi", "printsgf")
    assert answers[1:3] == ["=\n\n", "= 3.5\n\n"]
    assert "KM[3.5]" in answers[3]
    path.write_text("(;GM[2004]SZ[4];B[S40])")
    assert talk("komi 1", f"loadsgf {path}", "get_komi")[0][2] == "= 1\n\n"
    path.write_text("(;GM[18]SZ[6]KM[7];B[efdedf])")
    assert talk("komi 1", f"loadsgf {path}", "get_komi")[0][2] == "= 1\n\n"
    path.write_text("(;GM[2004]SZ[4]KM[lots];B[S40])")
    answers, session = talk("komi 1", "play b S41", f"loadsgf {path}", "get_komi")
    assert answers[2].startswith("? cannot load file: ") and answers[3] == "= 1\n\n"
    assert len(session.position.history) == 1
    answers, _ = talk("komi 1", "stargtp-loadsgf-text (;GM[2004]SZ[4]KM[-2];B[S40])", "get_komi")
    assert answers[1:] == ["=\n\n", "= -2\n\n"]


def test_loadsgf_set_up_position_is_searched_from_its_setup(tmp_path):
    # A record with explicit setup: the workers must start from it, not from
    # the usual start, or genmove would answer a move of another position.
    path = tmp_path / "setup.sgf"
    path.write_text("(;GM[18]SZ[6]AB[aa][ff]AW[af][fa]AA[cc][dd];B[ffeebe])")
    answers, session = talk(f"loadsgf {path}", "genmove b", "genmove w")
    assert answers[0] == "=\n\n"
    assert all(a.startswith("= ") and a != "= resign\n\n" for a in answers[1:])
    assert len(session.position.history) == 3
    assert not session.position.is_standard_start()
    # What a worker rebuilds from the session's state is the same position.
    rebuilt = _WorkerGame().sync(session.state.snapshot())
    assert rebuilt.key() == session.position.key()


def test_loadsgf_failures_leave_the_position(tmp_path):
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;GM[18]SZ[6];B[zzzzzz])")
    binary = tmp_path / "binary.sgf"
    binary.write_bytes(b"\xff\xfe(;GM[18])")
    big = tmp_path / "big.sgf"
    big.write_bytes(b"(;GM[18]" + b" " * (1 << 20) + b")")
    twice = tmp_path / "twice.sgf"
    twice.write_bytes(b"(;GM[18]SZ[6]AB[aa]AW[aa])")
    answers, session = talk("boardsize 5", "play b S53", f"loadsgf {tmp_path / 'missing.sgf'}",
                            f"loadsgf {bad}", f"loadsgf {binary}", f"loadsgf {big}",
                            f"loadsgf {tmp_path}", f"loadsgf {twice}", "loadsgf", f"loadsgf {bad} 0")
    assert answers[2:8] == [
        "? cannot load file: no such file\n\n",
        "? cannot load file: move 1 (B[zzzzzz]): SGF point 'zz' is off the 6x6 board\n\n",
        "? cannot load file: not UTF-8 text\n\n",
        "? cannot load file: file too large (more than 1048576 bytes)\n\n",
        "? cannot load file: is a directory\n\n",
        "? cannot load file: point aa is set up twice (AB and AW)\n\n",
    ]
    assert answers[8].startswith("? syntax error") and answers[9].startswith("? syntax error")
    assert session.position.game == "star" and len(session.position.history) == 1


def test_loadsgf_refuses_what_is_not_a_regular_file(tmp_path):
    # A FIFO with no writer would block a plain open() for ever (and with it
    # every session of the server); it is refused at once instead.
    fifo = tmp_path / "fifo.sgf"
    os.mkfifo(fifo)
    answers, session = talk("boardsize 5", "play b S53", f"loadsgf {fifo}", "loadsgf /dev/null",
                            "name")
    assert answers[2:] == ["? cannot load file: not a regular file\n\n"] * 2 + ["= stargtp\n\n"]
    assert session.position.game == "star" and len(session.position.history) == 1


def _talk_with(config: SessionConfig, *lines: str) -> list[str]:
    data = ("\n".join(lines) + "\n").encode()
    output, _ = asyncio.run(converse(data, config))
    return [r.decode() for r in split_responses(output)]


def test_file_policy_without_reading(tmp_path):
    # The TCP default: a remote client reads nothing from the server's disk.
    path = tmp_path / "game.sgf"
    path.write_text(write_sgf(AmazonsPosition(6)))
    config = replace(CONFIG, read_files=False)
    assert _talk_with(config, f"loadsgf {path}", "game") == [
        "? cannot load file: reading files is disabled on this connection"
        " (stargtp serve --tcp allows it with --file-dir DIR;"
        " stargtp-loadsgf-text takes a record as text)\n\n", "= star\n\n"]


def test_file_policy_one_directory(tmp_path):
    allowed = tmp_path / "records"
    (allowed / "sub").mkdir(parents=True)
    record = write_sgf(AmazonsPosition(6))
    (allowed / "sub" / "game.sgf").write_text(record)
    (tmp_path / "secret.sgf").write_text(record)
    os.symlink(tmp_path / "secret.sgf", allowed / "link.sgf")
    config = replace(CONFIG, file_dir=str(allowed))
    outside = "? cannot load file: the path is outside the server's file directory\n\n"
    assert _talk_with(config, "loadsgf sub/game.sgf", f"loadsgf {allowed / 'sub' / 'game.sgf'}",
                      "loadsgf ../secret.sgf", f"loadsgf {tmp_path / 'secret.sgf'}",
                      "loadsgf link.sgf", "loadsgf sub/../../secret.sgf", "loadsgf /etc/passwd",
                      "loadsgf missing.sgf") == [
        "=\n\n", "=\n\n", outside, outside, outside, outside, outside,
        "? cannot load file: no such file\n\n"]


def test_svg_command_is_one_line_of_xml():
    answers, _ = talk("boardsize 4", "play b *40", "play w S41", "play b *41", "stargtp-svg")
    answer = answers[-1]
    assert answer.startswith("= <svg") and answer.endswith("</svg>\n\n") and answer.count("\n") == 2
    root = ET.fromstring(answer[2:-2])
    stones = [e for e in root.iter() if "stone" in (e.get("class") or "").split()]
    assert len(stones) == 3
