"""The match runner: faults as outcomes, clocks, resume after a real kill,
TCP and subprocess engines together, openings, SPRT stop, round robin.

The opponents are the built-in random player (``stargtp serve --player
random --seed S``) and the scripted engines of tests/fake_engines, on the
4-ring *Star board (50 cells) and the 6x6 Amazons board.

No test depends on the machine being fast: where a test needs a timeout, the
faulty engine never answers (rather than answering late), and every healthy
engine is a scripted one that answers in milliseconds, far inside a timeout of
seconds. The other timeouts only catch hangs.
"""

from __future__ import annotations

import io
import json
import random
import re
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from stargtp.engine.colour import BLACK, WHITE, colour_name
from stargtp.engine.games import games, new_position
from stargtp.engine.star.scoring import score
from stargtp.protocol.clock import TimeControl
from stargtp.protocol.controller import EngineSpec
from stargtp.protocol.stats import Sprt, Tally
from stargtp.protocol.tools.match import (CRASH, GENMOVE_ERROR, ILLEGAL_MOVE, MALFORMED_MOVE, PROTOCOL_ERROR, REJECTED_MOVE,
                                          TIMEOUT, EngineEntry, MatchSettings, deal, format_summary, save_sgf,
                                          schedule, summarise, tally_of)
from stargtp.protocol.tools.match.referee import RefereeClock
from stargtp.protocol.tools.match.results import ResultsError, read_results
from tests.match_helpers import FAKE_ENGINE, HANG_GUARD, fake, play, settings

ROOT = Path(__file__).resolve().parents[1]
FAULT_TIMEOUT = 3.0
"""The move timeout where a test needs one: the scripted engines answer in
milliseconds even on a loaded machine, and a faulty one never answers."""


def random_player(seed: int, *extra: str) -> str:
    return shlex.join([sys.executable, "-m", "stargtp.protocol.cli", "serve", "--player", "random", "--seed", str(seed),
                       *extra])


def replay_is_legal(record: dict) -> None:
    """Every recorded move is legal and, for a scored *Star game, the result
    is the score of the final position."""
    position = new_position(record["game"], record["size"])
    for move in record["moves"]:
        if move["move"] == "resign":
            continue
        colour = BLACK if move["colour"] == "black" else WHITE
        assert colour == position.to_move
        position.play(position.parse_move(move["move"]), colour)
    if record["reason"] == "score":
        assert position.is_over()
        assert score(position, record["komi"]).gtp_result() == record["result"]


# -- faults ------------------------------------------------------------------
@pytest.mark.parametrize("mode, kind, result, detail", [
    ("illegal", ILLEGAL_MOVE, "B+F", r"is not legal here"),
    ("garbage", MALFORMED_MOVE, "B+F", r"'@@ not-a-move' is not a move here"),
    ("error", GENMOVE_ERROR, "B+F", r"genmove answered \? engine failure"),
    ("silent", TIMEOUT, "B+T", r"^no move within the move timeout of 3 s$"),
    ("trickle", TIMEOUT, "B+T", r"^no move within the move timeout of 3 s$"),
    ("die", CRASH, "B+F", r"engine exited with status 3"),
    ("close", CRASH, "B+F", r"engine closed its output"),
    ("huge", PROTOCOL_ERROR, "B+F", r"answer longer than 1048576 bytes"),
    ("reject", REJECTED_MOVE, "B+F", r"play black \S+ answered 'illegal move', but the move is legal"),
])
def test_faults_lose_the_game_and_the_engine_is_replaced(tmp_path: Path, mode: str, kind: str, result: str,
                                                         detail: str) -> None:
    # B misbehaves once (at its 3rd genmove, or its 3rd play), in game 0 where
    # it is white; the next game, with B restarted if it broke, is normal.
    once = str(tmp_path / "once")
    # A timeout fault is an engine that never completes an answer; it is
    # found after FAULT_TIMEOUT, which the scripted healthy engines (A, and B
    # once restarted) never come near.
    match = settings(fake("--seed", "1"), fake("--mode", mode, "--at", "3", "--once-file", once, "--seed", "2"),
                     games=2, move_timeout=FAULT_TIMEOUT if kind == TIMEOUT else 60.0)
    faulty, normal = play(match).records
    assert (faulty["black"], faulty["white"], faulty["result"], faulty["reason"]) == ("A", "B", result, kind)
    assert faulty["winner_engine"] == "A"
    assert {k: faulty["fault"][k] for k in ("engine", "colour", "kind")} == {"engine": "B", "colour": "white",
                                                                            "kind": kind}
    assert re.search(detail, faulty["fault"]["detail"]), faulty["fault"]["detail"]
    # A made 3 moves, B 2 (genmove faults); for reject, A's 3rd move was refused.
    assert [m["colour"] for m in faulty["moves"]] == ["black", "white"] * 2 + ["black"]
    replay_is_legal(faulty)
    broken = kind in (TIMEOUT, CRASH, PROTOCOL_ERROR)
    assert normal.get("engine_restarts") == ({"B": 1} if broken else None)
    assert (normal["black"], normal["reason"], normal["fault"], len(normal["moves"])) == ("B", "score", None, 50)
    replay_is_legal(normal)


def test_resign_and_score_cross_check() -> None:
    match = settings(random_player(1), fake("--mode", "resign", "--at", "2"), games=1)
    record, = play(match).records
    assert (record["result"], record["reason"], record["fault"]) == ("B+R", "resign", None)
    assert record["moves"][-1] == {"colour": "white", "move": "resign", "seconds": record["moves"][-1]["seconds"]}

    # An engine that scores the game wrongly is logged, the referee's score stands.
    match = settings(random_player(1), fake("--mode", "badscore"), games=1)
    record, = play(match).records
    replay_is_legal(record)
    assert record["score_disagreements"] == ["B"]
    assert record["engine_scores"]["A"] == record["result"] != record["engine_scores"]["B"]


# -- clocks --------------------------------------------------------------------
def test_referee_clock_arithmetic() -> None:
    fischer = RefereeClock(TimeControl.parse("10+2"))
    assert fischer.allowance() == 10 and fischer.time_left_args() == ("10", 0)
    fischer.charge(3)
    assert fischer.allowance() == 9
    fischer.charge(9.1)  # 0.1 s over, forgiven by the tolerance: nothing left, plus the increment
    assert fischer.allowance() == 2
    fischer.charge(1.2345)  # 2 - 1.2345 + 2: 2.7655 s, sent rounded down to the millisecond
    assert fischer.time_left_args() == ("2.765", 0) and fischer.time_left_args(whole_seconds=True) == ("2", 0)
    fischer.charge(0.7655)
    assert fischer.time_left_args() == ("4", 0)  # trailing zeros trimmed

    japanese = RefereeClock(TimeControl.parse("5", byoyomi="10x3"))
    assert japanese.allowance() == 35
    japanese.charge(7)  # 5 s of main time, then 2 s of a period: all 3 periods kept
    assert (japanese.allowance(), japanese.time_left_args()) == (30, ("10", 3))
    japanese.charge(25)  # 25 s spans three periods: two used up
    assert (japanese.allowance(), japanese.time_left_args()) == (10, ("10", 1))

    canadian = RefereeClock(TimeControl.parse("0", canadian="30/5"))
    assert canadian.allowance() == 30
    canadian.charge(10)
    assert canadian.time_left_args() == ("20", 4)
    for _ in range(4):
        canadian.charge(1)
    assert canadian.time_left_args() == ("30", 5)  # block done: a fresh one

    # A clock under a second: the time left keeps its decimals (GNU Go's
    # whole seconds, on request, read 0).
    short = RefereeClock(TimeControl.parse("0", byoyomi="0.5"))
    assert (short.allowance(), short.time_left_args(), short.time_left_args(True)) == (0.5, ("0.5", 1), ("0", 1))
    short.charge(0.4999)
    assert short.time_left_args() == ("0.5", 1)  # a fresh period
    canadian_short = RefereeClock(TimeControl.parse("0", canadian="0.9/3"))
    canadian_short.charge(0.1234)
    assert canadian_short.time_left_args() == ("0.776", 2) and canadian_short.time_left_args(True) == ("0", 2)

    assert RefereeClock(TimeControl()).allowance() == float("inf")
    assert TimeControl.parse("60+1").settings_commands(False) == ["time_settings 60 0 0"]
    assert TimeControl.parse("0.5").settings_commands(False) == ["time_settings 0.5 0 0"]
    assert TimeControl.parse("0.5").settings_commands(False, whole_seconds=True) == ["time_settings 1 0 0"]
    assert TimeControl.parse("0.0001").settings_commands(False) == ["time_settings 0.001 0 0"]  # never 0
    assert TimeControl.parse("1.25", canadian="2.5/4").settings_commands(False) == ["time_settings 1.25 2.5 4"]
    assert (TimeControl.parse("1.25", canadian="2.5/4").settings_commands(False, whole_seconds=True)
            == ["time_settings 2 3 4"])
    assert (TimeControl.parse("0", byoyomi="0.5x2").settings_commands(True)
            == ["kgs-time_settings byoyomi 0 0.5 2"])
    assert TimeControl.parse("60", canadian="300/25").settings_commands(False) == ["time_settings 60 300 25"]
    assert TimeControl.parse("60", byoyomi="30x5").settings_commands(True) == ["kgs-time_settings byoyomi 60 30 5"]
    assert TimeControl.parse("60", byoyomi="30x5").settings_commands(False) == ["time_settings 60 30 1"]
    for bad in (dict(main="-1"), dict(main="5", byoyomi="10x0"), dict(main="5", canadian="30"),
                dict(main="5+1", byoyomi="10"), dict(byoyomi="10", canadian="10/2")):
        with pytest.raises(ValueError):
            TimeControl.parse(**bad)


def test_clock_runs_out_for_an_engine_that_never_answers() -> None:
    # 2 s of absolute time each. B never answers its first genmove: it loses
    # on time when its clock and the tolerance are spent, and not before. A
    # needs a few milliseconds for its one move.
    match = settings(fake("--seed", "1"), fake("--mode", "silent", "--at", "1"), games=1,
                     time_control=TimeControl.parse("2"), time_tolerance=0.5)
    record, = play(match).records
    assert (record["result"], record["reason"], record["fault"]["engine"]) == ("B+T", TIMEOUT, "B")
    assert [m["colour"] for m in record["moves"]] == ["black"]
    assert record["fault"]["detail"] == "no move within 2.500 s (clock 2.000 s + tolerance 0.5 s)"
    assert record["seconds"] >= 2.4  # the whole allowance was waited for (wall clock, rounded)


def test_tolerance_forgives_an_overrun() -> None:
    # B's first move takes 1 s against a 0.5 s clock: late, but well inside
    # the 3 s tolerance, so it counts. B's main time is then spent, and each
    # later move (of a few milliseconds) has the tolerance to come in; the
    # game goes on to the full board.
    match = settings(fake("--seed", "1"), fake("--mode", "slow", "--delay", "1", "--at", "1"), games=1,
                     time_control=TimeControl.parse("0.5"), time_tolerance=3.0)
    record, = play(match).records
    assert (record["reason"], record["fault"], len(record["moves"])) == ("score", None, 50)
    assert record["moves"][1]["colour"] == "white" and record["moves"][1]["seconds"] >= 1.0
    replay_is_legal(record)


def test_time_commands_sent_before_each_move(tmp_path: Path) -> None:
    log = tmp_path / "engines.log"
    match = settings(fake("--seed", "1"), fake("--echo-time"), games=1, engine_stderr=str(log),
                     time_control=TimeControl.parse("1000", byoyomi="10x3"))
    record, = play(match).records
    assert record["reason"] == "score"
    lines = [line.split("] ", 1)[1] for line in log.read_text().splitlines() if line.startswith("[B slot 0]")]
    assert lines[0] == "kgs-time_settings byoyomi 1000 10 3"
    assert lines[1] == "time_left white 1000 0"  # nothing used yet
    seconds = [float(line.split()[2]) for line in lines[1:]]
    assert all(re.fullmatch(r"time_left white \d+(\.\d{1,3})? 0", line) for line in lines[1:])
    assert len(seconds) == 25 and seconds == sorted(seconds, reverse=True) and seconds[-1] > 900


@pytest.mark.parametrize("integer_times, sent", [(False, "0.5"), (True, "0")])
def test_a_clock_under_a_second_is_sent_with_decimals(tmp_path: Path, integer_times: bool, sent: str) -> None:
    # stargtp match --byoyomi 0.5: one period of 0.5 s and no main time.
    # Before every move the engine has exactly one fresh period, whatever the
    # moves took (a move is charged a period at most, and an overrun within
    # the tolerance is forgiven), so the transcript is exact. The scripted
    # engines log what they receive. With --integer-times they get GNU Go's
    # whole seconds (the period rounded up, the time left rounded down).
    from stargtp.protocol.cli import main

    log, results = tmp_path / "engines.log", tmp_path / "results.jsonl"
    code = main(["match", "--black", fake("--seed", "1", "--echo-time"), "--white", fake("--echo-time"),
                 "--size", "4", "--games", "1", "--byoyomi", "0.5", "--time-tolerance", "30",
                 "--engine-stderr", str(log), "--results", str(results), "--quiet",
                 *(["--integer-times"] if integer_times else [])])
    record, = read_results(str(results))[1]
    assert code == 0 and record["reason"] == "score"
    period = "1" if integer_times else "0.5"
    for name, colour in (("A", "black"), ("B", "white")):
        lines = [line.split("] ", 1)[1] for line in log.read_text().splitlines()
                 if line.startswith(f"[{name} slot 0]")]
        assert lines == [f"kgs-time_settings byoyomi 0 {period} 1"] + [f"time_left {colour} {sent} 1"] * 25


def test_the_engine_uses_a_clock_under_a_second() -> None:
    """The real engine against itself with one byo-yomi period of 0.3 s on
    the 3-ring board: a colour-swapped pair of games.

    Why this does not depend on speed. Before every move the referee sends
    ``time_left COLOUR 0.3 1`` (one fresh period, whatever the moves took:
    see the test above), so every search gets the same budget from the
    engine's time management, 0.3 * 0.95 - 0.1 = 0.185 s, and searches by
    the wall clock until it is spent (a clocked search has no playout cap).
    A move's time as the referee measures it (from sending ``genmove`` to
    the answer) is that budget plus the overheads, so a slow or loaded
    machine makes moves longer, never shorter; only forced moves (a single
    legal move, or a pass) answer at once, and they are a few of each game's
    30 or so. An average of at least 0.15 s is therefore a property of the time
    management; before the fix the engines were told ``time_left COLOUR 0 1``
    and their budget was the 0.05 s minimum (0.054 s a move measured). (The
    period was 0.5 s until the suite's slowest tests were trimmed: 0.3 s
    keeps the budget 3.7 times that minimum at half the wall time.)

    Losing on time could only come from overload (a move delayed past the
    period by the scheduler, not by the engine): the tolerance of 30 s,
    a hundred times the period, forgives that, and an overrun leaves the clock
    unchanged (the last period is never used up), so it cannot shorten a
    later move's budget either. Each game is lost by score, never on time.
    """
    engine = [sys.executable, "-m", "stargtp.protocol.cli", "serve", "--workers", "1", "--seed"]
    match = settings(shlex.join(engine + ["1"]), shlex.join(engine + ["2"]), size=3, games=2,
                     time_control=TimeControl.parse("0", byoyomi="0.3"), time_tolerance=30.0)
    records = play(match).records
    assert [(record["reason"], record["fault"]) for record in records] == [("score", None)] * 2
    seconds, searched = [], []
    for record in records:
        position = new_position(record["game"], record["size"])
        for move in record["moves"]:
            seconds.append(move["seconds"])
            if move["move"] != "pass" and len(position.legal_moves()) > 1:
                searched.append(move["seconds"])
            position.play(position.parse_move(move["move"]), BLACK if move["colour"] == "black" else WHITE)
    assert sum(seconds) / len(seconds) >= 0.15, seconds
    # Every move that was searched took at least the budget (0.185 s, less the record's rounding).
    assert len(searched) >= len(seconds) - 6 and min(searched) >= 0.18, seconds


# -- resume ----------------------------------------------------------------------
def _match_command(results: Path, games: int, *extra: str, engine: tuple[str, ...] = ()) -> list[str]:
    command = fake(*engine)
    return [sys.executable, "-m", "stargtp.protocol.cli", "match", "--black", command + " --seed 1",
            "--white", command + " --seed 2", "--size", "4", "--games", str(games), "--results", str(results),
            "--quiet", *extra]


def _game_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_resume_after_the_runner_is_killed(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    hung = tmp_path / "hung"
    # Each engine hangs, once, at its first move of its 4th game; the one that
    # does creates `hung`. The runner has then recorded exactly 3 games and is
    # waiting on the engine (for up to the 600 s move timeout): it is killed
    # there. The re-run starts fresh engines, and `hung` exists: no hang.
    command = _match_command(results, 10, "--move-timeout", "600",
                             engine=("--mode", "silent", "--in-game", "4", "--once-file", str(hung)))
    runner = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not hung.exists():
            assert runner.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        runner.send_signal(signal.SIGKILL)  # no cleanup, no flush: a real crash
        runner.wait()
    before = _game_lines(results)
    assert [r["round"] for r in before] == [0, 1, 2]

    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert finished.returncode == 0, finished.stderr
    after = _game_lines(results)
    assert after[:len(before)] == before  # nothing lost or rewritten
    assert [r["round"] for r in after] == list(range(10))  # nothing duplicated
    assert all(r["reason"] == "score" for r in after)
    assert results.read_text().count('"type":"header"') == 1
    assert "A vs B" in finished.stdout and " 10 " in finished.stdout

    # Asking for more games later extends the same file.
    command[command.index("--games") + 1] = "12"
    more = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert more.returncode == 0 and [r["round"] for r in _game_lines(results)] == list(range(12))


def test_torn_last_line_is_cut_and_a_different_match_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    first = subprocess.run(_match_command(results, 3), cwd=ROOT, capture_output=True, text=True,
                           timeout=HANG_GUARD)
    assert first.returncode == 0, first.stderr
    with open(results, "ab") as stream:
        stream.write(b'{"type":"game","key":"A vs B #3","pairing":["A","B"],"rou')  # killed mid-write
    again = subprocess.run(_match_command(results, 4), cwd=ROOT, capture_output=True, text=True,
                           timeout=HANG_GUARD)
    assert again.returncode == 0, again.stderr
    header, games = read_results(str(results))
    assert [g["round"] for g in games] == [0, 1, 2, 3]
    assert all(json.loads(line) for line in results.read_text().splitlines())

    other = subprocess.run(_match_command(results, 4, "--komi", "0.5"), cwd=ROOT, capture_output=True, text=True,
                           timeout=HANG_GUARD)
    assert other.returncode == 2 and other.stderr == (
        f"stargtp match: --results FILE: {results} holds a different match (settings differ: komi); "
        f"use another results file\n")
    with pytest.raises(ResultsError, match="damaged record"):
        results.write_text(results.read_text().replace('"round":1', '"round":1,,', 1))
        read_results(str(results))


# -- engines of every kind together --------------------------------------------
def test_tcp_and_subprocess_engines_with_concurrency_two(tmp_path: Path) -> None:
    log = tmp_path / "server.log"  # a file, not a pipe nobody drains
    with open(log, "w") as server_stderr:
        server = subprocess.Popen([sys.executable, "-m", "stargtp.protocol.cli", "serve", "--player", "random", "--seed",
                                   "7", "--tcp", "127.0.0.1:0"], cwd=ROOT, stderr=server_stderr)
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not (found := re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text())):
            assert time.monotonic() < deadline and server.poll() is None, log.read_text()
            time.sleep(0.02)
        port = int(found.group(1))
        match = settings(random_player(3), f"tcp:127.0.0.1:{port}", games=6, concurrency=2,
                         results_path=str(tmp_path / "r.jsonl"))
        result = play(match)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    assert sorted(r["round"] for r in result.records) == list(range(6))
    for record in result.records:
        assert record["reason"] == "score" and record["score_disagreements"] == []
        assert record["engines"]["black" if record["black"] == "B" else "white"]["target"].startswith("tcp:")
        replay_is_legal(record)
    s, = result.summaries
    assert s.tally.games == 6 and s.tally.pairs[0] + sum(s.tally.pairs) > 0 and sum(s.tally.pairs) == 3


def test_fixed_playouts_matches_are_reproducible() -> None:
    flat = shlex.join([sys.executable, "-m", "stargtp.protocol.cli", "serve", "--player", "flat", "--seed", "5",
                       "--playouts"]) + " {playouts}"
    match = settings(flat, random_player(6), size=3, games=2, concurrency=2, playouts=8)
    first, second = play(match).records, play(match).records
    moves = lambda records: {r["key"]: [m["move"] for m in r["moves"]] for r in records}  # noqa: E731
    assert moves(first) == moves(second)
    with pytest.raises(ValueError, match="need {playouts} in the engine commands"):
        settings(random_player(1), random_player(2), playouts=8)


def test_openings_are_played_with_both_colours(tmp_path: Path) -> None:
    book = tmp_path / "openings.txt"
    book.write_text("# two openings\ns43 *10\n\nT21   # one move\n")
    from stargtp.protocol.tools.match.settings import read_openings

    openings = read_openings(str(book), "star", 4)
    assert openings == (("S43", "*10"), ("T21",))
    match = settings(fake("--seed", "1"), fake("--seed", "2"), games=4, openings=openings)
    records = play(match).records
    assert [(r["round"], r["black"], r["opening"]["index"]) for r in records] == [
        (0, "A", 0), (1, "B", 0), (2, "A", 1), (3, "B", 1)]
    for record in records:
        opening = openings[record["opening"]["index"]]
        assert [m["move"] for m in record["moves"][:len(opening)]] == list(opening)
        assert all(m["seconds"] is None for m in record["moves"][:len(opening)])
        replay_is_legal(record)
    book.write_text("S43 S43\n")
    with pytest.raises(ValueError, match="openings.txt:1: 'S43'"):
        read_openings(str(book), "star", 4)


def test_sprt_stops_the_match_when_it_decides(tmp_path: Path) -> None:
    # An engine that always passes loses every game, so every pair is 2-0.
    match = settings(random_player(1), fake("--mode", "pass"), size=3, games=40, sprt=Sprt(0, 200, 0.05, 0.05),
                     results_path=str(tmp_path / "r.jsonl"))
    result = play(match)
    # The first number of 2-0 pairs at which the test accepts H1:
    pairs_needed = next(n for n in range(1, 40)
                        if Sprt(0, 200).evaluate(Tally(pairs=(0, 0, 0, 0, n)), "pentanomial").decision)
    assert pairs_needed == 8
    assert result.sprt_stopped and len(result.records) == 2 * pairs_needed
    assert result.summaries[0].sprt is not None and result.summaries[0].sprt.decision == "H1"
    assert "H1 accepted" in format_summary(result.summaries, match)
    # Resuming a decided match plays nothing more.
    again = play(match)
    assert again.played == 0 and len(again.records) == 2 * pairs_needed
    # With two games at a time the game still running at the decision is abandoned.
    parallel = play(settings(random_player(1), fake("--mode", "pass"), size=3, games=40,
                             sprt=Sprt(0, 200, 0.05, 0.05), concurrency=2))
    assert parallel.sprt_stopped and len(parallel.records) in (2 * pairs_needed, 2 * pairs_needed + 1)
    assert parallel.summaries[0].tally.pairs == (0, 0, 0, 0, pairs_needed)


def test_round_robin_of_three_engines() -> None:
    engines = tuple(EngineEntry(name, EngineSpec.parse(fake("--seed", str(seed))))
                    for name, seed in (("r1", 1), ("r2", 2), ("r3", 3)))
    match = MatchSettings(engines=engines, size=3, games=2)
    assert [job.key for job in schedule(match)] == [
        "r1 vs r2 #1", "r1 vs r3 #2", "r2 vs r3 #3", "r1 vs r2 #4", "r1 vs r3 #5", "r2 vs r3 #6"]
    result = play(match)
    assert len(result.records) == 6
    table = format_summary(result.summaries, match)
    assert "ratings (maximum likelihood over all games, 1 virtual draw per pairing;" in table
    assert "cross table (points of the row's engine against the column's, of games played)" in table


def test_amazons_match_and_sgf_hook(tmp_path: Path) -> None:
    match = settings(random_player(1), random_player(2), game="amazons", size=6, games=2)
    records = play(match).records
    for record in records:
        assert record["reason"] == "no_moves" and re.fullmatch(r"[BW]\+\d+", record["result"])
        assert record["ending"] == f"{'white' if record['winner'] == 'black' else 'black'} has no move"
        assert record["score_disagreements"] == []
        position = new_position("amazons", 6)
        for move in record["moves"]:
            position.play(position.parse_move(move["move"]))
        assert position.is_over() and record["winner"] == ("black" if position.winner() == BLACK else "white")
        path = save_sgf(record, str(tmp_path / "sgf"))
        assert path is not None
        from stargtp.engine.amazons.sgf import read_sgf

        assert [m for _, m in read_sgf(Path(path).read_text()).history] == [m for _, m in position.history]


def test_unusable_engine_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    from stargtp.protocol.cli import main

    code = main(["match", "--black", "/nonexistent/engine", "--white", random_player(1), "--size", "4"])
    assert code == 2 and "engine A (/nonexistent/engine) is not usable" in capsys.readouterr().err
    assert main(["match", "--black", random_player(1), "--size", "4"]) == 2
    assert main(["match", "--black", "x", "--white", "y", "--size", "11"]) == 2


def test_summary_from_records() -> None:
    def record(round_number: int, winner: str | None, black: str, fault: str | None = None) -> dict:
        return {"key": f"A vs B #{round_number}", "pairing": ["A", "B"], "round": round_number, "black": black,
                "white": "B" if black == "A" else "A", "winner_engine": winner,
                "fault": {"engine": "B", "kind": fault} if fault else None, "score_disagreements": [],
                "moves": [{"colour": "black", "move": "S43", "seconds": 0.5},
                          {"colour": "white", "move": "pass", "seconds": 0.25}]}

    records = [record(0, "A", "A"), record(1, "A", "B", TIMEOUT), record(2, None, "A"), record(3, "B", "B")]
    s, = summarise(records, settings("x", "y", games=4))
    # pairs: rounds 0+1 score 1+1 = 2 points, rounds 2+3 score 0.5+0 = 0.5
    assert (s.tally.wins, s.tally.draws, s.tally.losses, s.tally.pairs) == (2, 1, 1, (0, 1, 0, 0, 1))
    assert s.average_moves == 2 and s.seconds_per_move == {"A": 0.375, "B": 0.375}
    assert s.faults == {"B": {TIMEOUT: 1}}


def test_example_script_runs_and_resumes(tmp_path: Path) -> None:
    # A fixed-playouts match of seeded engines: the same games on any machine.
    results = tmp_path / "example.jsonl"
    command = [sys.executable, str(ROOT / "examples" / "short_match.py"), str(results)]
    first = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert first.returncode == 0, first.stderr
    games = [line for line in first.stdout.splitlines() if line.startswith("uct vs random #")]
    assert games == ["uct vs random #1: black uct, white random: B+12 (score, 75 moves)",
                     "uct vs random #2: black random, white uct: W+2 (score, 75 moves)",
                     "uct vs random #3: black uct, white random: B+4 (score, 75 moves)",
                     "uct vs random #4: black random, white uct: W+16 (score, 75 moves)"]
    assert "star, size 5, 4 games per pairing, clock: 100 playouts per move" in first.stdout
    assert re.search(r"^uct vs random +4 +4 +0 +0 +4  100\.0 \[51\.0, 100\.0\]", first.stdout, re.M)
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert again.returncode == 0 and "uct vs random #" not in again.stdout  # nothing left to play
    assert len(read_results(str(results))[1]) == 4


def test_schedule_and_dealing_keep_pairs_together() -> None:
    match = settings("x", "y", games=6, concurrency=2)
    jobs = schedule(match)
    assert [(j.round, j.black, j.white) for j in jobs] == [(0, "A", "B"), (1, "B", "A"), (2, "A", "B"),
                                                          (3, "B", "A"), (4, "A", "B"), (5, "B", "A")]
    assert [[j.round for j in slot] for slot in deal(jobs, match)] == [[0, 1, 4, 5], [2, 3]]
    assert [[j.round for j in slot] for slot in deal(jobs[3:], match)] == [[3], [4, 5]]  # resumed: 3 is alone
    fixed_colours = settings("x", "y", games=3, concurrency=2, alternate=False)
    assert [j.black for j in schedule(fixed_colours)] == ["A", "A", "A"]
    assert [[j.round for j in slot] for slot in deal(schedule(fixed_colours), fixed_colours)] == [[0, 2], [1]]


def test_results_file_repairs_only_a_torn_tail_and_is_locked(tmp_path: Path) -> None:
    from stargtp.protocol.tools.match.results import ResultsFile

    path = tmp_path / "r.jsonl"
    with ResultsFile.open(str(path), {"game": "star"}) as results:
        results.append({"type": "game", "key": "A vs B #0"})
        with pytest.raises(ResultsError, match="another match runner"):
            ResultsFile.open(str(path), {"game": "star"})
    intact = path.read_bytes()
    path.write_bytes(intact + b'{"type":"game","key":"A vs')  # torn by a kill
    with ResultsFile.open(str(path), {"game": "star"}) as results:
        assert results.repaired_bytes == len(b'{"type":"game","key":"A vs') and len(results.games) == 1
        results.append({"type": "game", "key": "A vs B #1"})
    assert [r["key"] for r in read_results(str(path))[1]] == ["A vs B #0", "A vs B #1"]
    path.write_bytes(b'{"type":"hea')  # killed while writing the header: start afresh
    with ResultsFile.open(str(path), {"game": "star"}) as results:
        assert results.games == [] and results.header["settings"] == {"game": "star"}
    lines = intact.decode().splitlines()
    path.write_text(lines[0] + "\n" + "garbage\n" + lines[1] + "\n")  # damage in the middle is not guessed at
    with pytest.raises(ResultsError, match=r"r.jsonl:2: damaged record"):
        ResultsFile.open(str(path), {"game": "star"})
    assert path.read_text().count("garbage") == 1  # and nothing was cut


def test_engine_commands_get_the_playouts_and_the_slot():
    match = settings("serve --playouts {playouts} --seed 1{slot}", "tcp:127.0.0.1:9",
                     playouts=300, concurrency=2)
    assert match.engine_spec("A", 1).argv == ("serve", "--playouts", "300", "--seed", "11")
    assert match.engine_spec("A", 0).argv == ("serve", "--playouts", "300", "--seed", "10")
    assert match.engine_spec("B", 1) == match.engine("B").spec  # an address has no command


def test_amazons_sgf_goes_beside_the_results_by_default():
    from stargtp.protocol.tools.match.records import default_sgf_dir

    assert default_sgf_dir("amazons", "runs/games.jsonl") == "runs/games-sgf"
    assert default_sgf_dir("star", "runs/games.jsonl") == "runs/games-sgf"
    assert default_sgf_dir("amazons", None) is None


def test_sgf_names_the_engine_that_moved_first_as_sgf_black(tmp_path: Path) -> None:
    position = new_position("amazons", 6)
    first = position.format_move(position.legal_moves()[0])  # white moves first in the Amazons
    record = {"game": "amazons", "size": 6, "key": "A vs B #0", "reason": "resign", "result": "B+R",
              "engines": {"black": {"name": "A"}, "white": {"name": "B"}},
              "moves": [{"colour": "white", "move": first}, {"colour": "black", "move": "resign"}]}
    root, *moves = Path(save_sgf(record, str(tmp_path / "sgf"))).read_text().splitlines()
    assert root.startswith("(;GM[18]") and root.endswith("RE[W+R]PB[B]PW[A]GN[A vs B #0]GC[ended by resign]")
    assert len(moves) == 2 and moves[0].startswith(";B[")  # the first mover is SGF's B
    star = Path(save_sgf({**record, "game": "star", "size": 4, "moves": []}, str(tmp_path / "star")))
    assert star.read_text().startswith("(;GM[2004]") and "PB[A]PW[B]" in star.read_text()


SWAP_GAME = [("black", "b1"), ("white", "swap-pieces"), ("white", "b2"), ("black", "a1"), ("white", "a2")]
"""Game 1 of the seeded 2x2 Hex match with the swap rule below: white's
random player (seed 9) answers b1 with a swap, then wins."""


def test_a_match_with_the_swap_rule_tells_the_engines_and_records_the_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from stargtp.protocol.cli import main
    from stargtp.protocol.tools.match.records import replay
    from stargtp.protocol.tools.render import read_record

    results = tmp_path / "swap.jsonl"
    code = main(["match", "--game", "hex", "--size", "2", "--rule", "swap=on", "--games", "2",
                 "--black", random_player(1), "--white", random_player(9), "--results", str(results),
                 "--report", str(tmp_path / "swap.html")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[0] == "hex, size 2, swap on, 2 games per pairing, clock: no clock"
    # The report page says the rules too: written by match, and again by report from the results.
    described = "<p>hex, size 2, swap on, 2 games per pairing, clock: no clock; 2 games played.</p>"
    assert described in (tmp_path / "swap.html").read_text()
    (tmp_path / "swap.html").unlink()
    assert main(["report", str(results)]) == 0
    capsys.readouterr()
    assert described in (tmp_path / "swap.html").read_text()
    header, records = read_results(str(results))
    assert header is not None and header["settings"]["rules"] == {"swap": True}
    settings_back = MatchSettings.from_identity(header["settings"])
    assert settings_back.game_rules == (("swap", True),) and settings_back.identity() == header["settings"]
    assert [record["rules"] for record in records] == [{"swap": True}, {"swap": True}]
    assert [record["fault"] for record in records] == [None, None]
    first = records[0]
    assert [(move["colour"], move["move"]) for move in first["moves"]] == SWAP_GAME
    assert (first["reason"], first["result"]) == ("connection", "W+")
    position = replay(first)  # played again with the record's rules
    assert position.is_over() and position.winner() == WHITE
    # render rebuilds the game from the results file with its rules, and the
    # SGF collection carries the swap (a record with one reads back with the rule on)
    for source in (results, tmp_path / "swap.sgf"):
        shown = read_record(source.read_text(), record="1", source=str(source))
        assert [position.format_move(move) for _, move in shown.position.history] == [m for _, m in SWAP_GAME]
        assert shown.result == "W+"
    assert "W[swap-pieces]" in (tmp_path / "swap.sgf").read_text()
    assert main(["render", str(results), "--record", "1", "--output", str(tmp_path / "one.svg")]) == 0
    assert "5 moves, last white a2, game over" in (tmp_path / "one.svg").read_text()


@pytest.fixture
def third_game():
    """A game registered after the match code was imported: an Amazons
    variant without SGF records, under another name."""
    import dataclasses

    from stargtp.engine.games import GAME_LIST, find_game, register

    game = dataclasses.replace(find_game("amazons"), name="third", title="Third", write_record=None,
                               read_record=None)
    register(game)
    try:
        yield game
    finally:
        GAME_LIST.remove(game)


def test_the_match_knows_games_by_their_descriptor_only(third_game) -> None:
    import argparse

    from stargtp.protocol.tools.match import add_arguments
    from stargtp.protocol.tools.match.records import board_outcome, default_sgf_dir

    match = settings("x", "y", game="third", size=None)
    assert match.rules is third_game and match.board_size == third_game.default_size
    assert default_sgf_dir("third", "runs/games.jsonl") is None
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--game", "third"]).game == "third"
    # A game without a pass ends when the rules say so; the position names the
    # winner, the descriptor's ended_by (this Amazons variant's: no_moves) is
    # the reason and the position's over_reason the ending.
    position = third_game.new_position(6)
    while not position.is_over():
        position.play(position.legal_moves()[0])
    outcome = board_outcome(position, 0.0)
    assert outcome["reason"] == third_game.ended_by == "no_moves" and outcome["winner"] == position.winner()
    assert outcome["ending"] == position.over_reason() == f"{colour_name(position.to_move)} has no move"
    assert outcome["score"] == position.rules.score(position, 0.0).to_json(position)


def test_seeded_parallel_slots_play_different_games_with_the_slot_in_the_seed() -> None:
    # Rounds 0 and 2 go to slots 0 and 1, each the first game of fresh engine
    # processes with A as black. The same seed in both slots plays the same
    # game twice; {slot} in the seed (docs/match.md, docs/strength.md) makes
    # them differ, and the match still replays exactly.
    def moves(seed_a: str, seed_b: str) -> dict[int, list[str]]:
        match = settings(fake("--seed", seed_a), fake("--seed", seed_b), size=3, games=4, concurrency=2)
        return {r["round"]: [m["move"] for m in r["moves"]] for r in play(match).records}

    same = moves("1", "2")
    assert same[0] == same[2]
    slotted = moves("1{slot}", "2{slot}")
    assert slotted[0] != slotted[2]
    assert moves("1{slot}", "2{slot}") == slotted


def test_komi_is_shown_in_the_header_only_when_set() -> None:
    amazons = settings("x", "y", game="amazons", size=6)
    assert format_summary([], amazons).splitlines()[0] == "amazons, size 6, 2 games per pairing, clock: no clock"
    star = settings("x", "y", komi=0.5)
    assert format_summary([], star).splitlines()[0] == "star, size 4, komi 0.5, 2 games per pairing, clock: no clock"


def test_match_settings_refuse_values_that_cannot_work(tmp_path: Path) -> None:
    for bad, message in ((dict(move_timeout=0.0), "timeouts must be a finite number of seconds > 0"),
                         (dict(command_timeout=float("inf")), "timeouts must be a finite number of seconds > 0"),
                         (dict(time_tolerance=float("nan")), "time tolerance must be a finite number"),
                         (dict(komi=float("nan")), "komi must be a finite number"),
                         (dict(max_response_bytes=0), "max_response_bytes must be at least 1")):
        with pytest.raises(ValueError, match=message):
            settings("x", "y", **bad)
    # An engine stderr file that cannot be opened is a ValueError before any engine starts.
    with pytest.raises(ValueError, match=f"^cannot open the engine stderr file {tmp_path}: Is a directory$"):
        play(settings("/nonexistent/engine", "/nonexistent/engine", engine_stderr=str(tmp_path)))


def test_a_file_that_is_no_results_file_is_refused_and_left_intact(tmp_path: Path) -> None:
    from stargtp.protocol.tools.match.results import ResultsFile

    for text in ("hello", "# notes\nmore notes\n", '{"some": "json"}\n'):
        path = tmp_path / "notes.txt"
        path.write_text(text)
        with pytest.raises(ResultsError, match=r"^\S+notes\.txt is not a match results file \(its first line is "
                                               r"no 'stargtp-match-results/2' header\)"):
            ResultsFile.open(str(path), {"game": "star"})
        assert path.read_text() == text
    with pytest.raises(ResultsError, match=f"^{tmp_path}: cannot open: Is a directory$"):
        ResultsFile.open(str(tmp_path), {"game": "star"})
    # A results file is still recognised, and a blank last line (nothing torn) is dropped.
    path = tmp_path / "r.jsonl"
    with ResultsFile.open(str(path), {"game": "star"}) as results:
        results.append({"type": "game", "key": "A vs B #0"})
    path.write_text(path.read_text() + "\n")
    with ResultsFile.open(str(path), {"game": "star"}) as results:
        assert results.repaired_bytes == 1 and [g["key"] for g in results.games] == ["A vs B #0"]


def _run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from stargtp.protocol.cli import main

    try:
        code = main(["match", *args])
    except SystemExit as exit_:  # argparse's own errors (a bad choice, a missing value)
        code = exit_.code  # type: ignore[assignment]
    return code, capsys.readouterr().err


ENGINES = ["--black", "/nonexistent/a", "--white", "/nonexistent/b"]
"""Never started: every option below is refused first."""

NOT_A_NUMBER = "expected a whole number of at least 1, not"
GAME_CHOICES = ", ".join(repr(name) for name in games())
"""The games ``--game`` offers, as argparse lists them."""


@pytest.mark.parametrize("args, line", [
    # files and directories
    (["--openings", "{tmp}/missing.txt"], "--openings FILE: cannot read {tmp}/missing.txt: No such file or directory"),
    (["--openings", "{tmp}"], "--openings FILE: cannot read {tmp}: Is a directory"),
    (["--openings", "{tmp}/binary"], "--openings FILE: {tmp}/binary is not UTF-8 text"),
    (["--openings", "{tmp}/empty"], "--openings FILE: {tmp}/empty: no openings"),
    (["--openings", "{tmp}/illegal"], "--openings FILE: {tmp}/illegal:1: 'S43': S43 is occupied"),
    (["--results", "{tmp}"], "--results FILE: {tmp} is a directory, not a file"),
    (["--results", "{tmp}/no/r.jsonl"],
     "--results FILE: cannot create {tmp}/no/r.jsonl: there is no directory {tmp}/no"),
    (["--results", "{tmp}/file/r.jsonl"],
     "--results FILE: cannot create {tmp}/file/r.jsonl: there is no directory {tmp}/file"),
    (["--results", "{tmp}/file", "--sgf-dir", "{tmp}/sgf"], "--results FILE: {tmp}/file is not a match results file (its first line is no "
                                  "'stargtp-match-results/2' header); give a new file or one written by stargtp match"),
    (["--engine-stderr", "{tmp}"], "--engine-stderr FILE: {tmp} is a directory, not a file"),
    (["--engine-stderr", "{tmp}/no/log"],
     "--engine-stderr FILE: cannot create {tmp}/no/log: there is no directory {tmp}/no"),
    (["--results", "{tmp}/r.jsonl", "--engine-stderr", "{tmp}/r.jsonl"],
     "--engine-stderr FILE: {tmp}/r.jsonl is also the --results FILE; the engines' stderr would corrupt the results"),
    (["--sgf-dir", "{tmp}/file"], "--sgf-dir DIR: {tmp}/file exists and is not a directory"),
    (["--records", "{tmp}/file"], "--records FILE: {tmp}/file is not an SGF collection; give a new file or one "
                                  "written by stargtp match"),
    (["--results", "{tmp}/notes.jsonl"], "--records FILE (default for --results FILE): {tmp}/notes.sgf is not an "
                                         "SGF collection; give a new file or one written by stargtp match"),
    (["--records", "{tmp}/r.jsonl", "--results", "{tmp}/r.jsonl"],
     "--records FILE: {tmp}/r.jsonl is also the --results FILE"),
    (["--sgf-dir", "{tmp}/file/sgf"], "--sgf-dir DIR: cannot create {tmp}/file/sgf: {tmp}/file is not a directory"),
    (["--game", "amazons", "--size", "6", "--results", "{tmp}/file.jsonl"],
     "--sgf-dir DIR (default for --results FILE): {tmp}/file-sgf exists and is not a directory"),
    # clocks
    (["--time", "5x"], "--time MAIN[+INC]: expected seconds, e.g. 60 or 60+0.5 (not negative), not '5x'"),
    (["--time", "nan"], "--time MAIN[+INC]: expected seconds, e.g. 60 or 60+0.5 (not negative), not 'nan'"),
    (["--time", "inf"], "--time MAIN[+INC]: expected seconds, e.g. 60 or 60+0.5 (not negative), not 'inf'"),
    (["--time", "-1"], "--time MAIN[+INC]: expected seconds, e.g. 60 or 60+0.5 (not negative), not '-1'"),
    (["--time", "60+"], "--time MAIN[+INC]: expected seconds, e.g. 60 or 60+0.5 (not negative), not '60+'"),
    (["--time", "0"], "--time MAIN[+INC]: a main time of 0 and no byo-yomi is no clock; give MAIN > 0 "
                      "(or leave --time out for no clock)"),
    (["--time", "0+1"], "--time MAIN[+INC]: an increment needs a main time > 0"),
    (["--time", "60", "--byoyomi", "10x"], "--byoyomi SECONDS[xPERIODS]: expected e.g. 10x3 (3 periods of 10 s; "
                                           "seconds > 0, periods >= 1), not '10x'"),
    (["--byoyomi", "0x3"], "--byoyomi SECONDS[xPERIODS]: expected e.g. 10x3 (3 periods of 10 s; "
                           "seconds > 0, periods >= 1), not '0x3'"),
    (["--time", "60", "--canadian", "30"], "--canadian SECONDS/STONES: expected e.g. 30/5 (5 moves in every 30 s; "
                                           "seconds > 0, stones >= 1), not '30'"),
    (["--canadian", "30/x"], "--canadian SECONDS/STONES: expected e.g. 30/5 (5 moves in every 30 s; "
                             "seconds > 0, stones >= 1), not '30/x'"),
    (["--time", "60+1", "--byoyomi", "10x3"],
     "--time MAIN[+INC]: an increment does not combine with --byoyomi or --canadian"),
    (["--byoyomi", "10x3", "--canadian", "30/5"],
     "--byoyomi SECONDS[xPERIODS], --canadian SECONDS/STONES: choose one kind of byo-yomi, not both"),
    (["--time-tolerance", "-1"], "--time-tolerance SECONDS: expected a finite number of seconds >= 0, not '-1'"),
    (["--move-timeout", "0"], "--move-timeout SECONDS: expected a finite number of seconds > 0, not '0'"),
    (["--move-timeout", "inf"], "--move-timeout SECONDS: expected a finite number of seconds > 0, not 'inf'"),
    (["--command-timeout", "nan"], "--command-timeout SECONDS: expected a finite number of seconds > 0, not 'nan'"),
    (["--start-timeout", "soon"], "--start-timeout SECONDS: expected a finite number of seconds > 0, not 'soon'"),
    # counts
    (["--games", "0"], f"--games N: {NOT_A_NUMBER} '0'"),
    (["--games", "-2"], f"--games N: {NOT_A_NUMBER} '-2'"),
    (["--games", "many"], f"--games N: {NOT_A_NUMBER} 'many'"),
    (["--concurrency", "0"], f"--concurrency K: {NOT_A_NUMBER} '0'"),
    (["--playouts", "0"], f"--playouts N: {NOT_A_NUMBER} '0'"),
    (["--max-response-bytes", "-1"], f"--max-response-bytes N: {NOT_A_NUMBER} '-1'"),
    (["--playouts", "100"], "--playouts N: fixed playouts need {{playouts}} in the engine commands, "
                            "e.g. 'stargtp serve --playouts {{playouts}}'"),
    (["--playouts", "100", "--time", "60"],
     "--playouts N: fixed playouts and a clock (--time, --byoyomi, --canadian) exclude each other"),
    # the game
    (["--size", "11"], "--size N: a *Star board has 2..10 rings, not 11"),
    (["--size", "4.5"], "--size N: expected a whole number, not '4.5'"),
    (["--game", "amazons", "--size", "7"], "--size N: Amazons is played on 6, 8, 10 boards, not 7"),
    (["--game", "chess"], f"argument --game: invalid choice: 'chess' (choose from {GAME_CHOICES})"),
    (["--komi", "nan"], "--komi K: expected a finite number, not 'nan'"),
    (["--komi=-inf"], "--komi K: expected a finite number, not '-inf'"),
    (["--random-openings", "0"], f"--random-openings PLIES: {NOT_A_NUMBER} '0'"),
    (["--random-openings", "2", "--openings-seed", "x"], "--openings-seed N: expected a whole number, not 'x'"),
    (["--random-openings", "60"], "--random-openings PLIES: no random opening of 60 plies leaves a game to play "
                                  "on this board"),
    (["--random-openings", "2", "--openings", "{tmp}/book"],
     "--random-openings PLIES: choose random openings or --openings FILE, not both"),
    (["--max-moves", "0"], f"--max-moves N: {NOT_A_NUMBER} '0'"),
    (["--report-every", "0"], f"--report-every N: {NOT_A_NUMBER} '0'"),
    (["--report", "{tmp}"], "--report FILE.html: {tmp} is a directory, not a file"),
    (["--debug", "{tmp}/no/debug.log"], "--debug FILE: cannot create {tmp}/no/debug.log: there is no directory "
                                        "{tmp}/no"),
    (["--resign-adjudication", "0", "0.05"], f"--resign-adjudication MOVES WINRATE: {NOT_A_NUMBER} '0'"),
    (["--resign-adjudication", "3", "0.5"],
     "--resign-adjudication MOVES WINRATE: expected a win rate below 0.5, not '0.5'"),
    (["--resign-adjudication", "3", "-1"],
     "--resign-adjudication MOVES WINRATE: expected a finite number >= 0, not '-1'"),
    # statistics
    (["--sprt", "0", "inf", "0.05", "0.05"], "--sprt ELO0 ELO1 ALPHA BETA: expected a finite number, not 'inf'"),
    (["--sprt", "0", "10", "five", "0.05"], "--sprt ELO0 ELO1 ALPHA BETA: expected a finite number, not 'five'"),
    (["--sprt", "10", "0", "0.05", "0.05"], "--sprt ELO0 ELO1 ALPHA BETA: SPRT needs elo0 < elo1"),
    (["--sprt", "0", "10", "0.5", "0.6"],
     "--sprt ELO0 ELO1 ALPHA BETA: SPRT needs 0 < alpha, beta and alpha + beta < 1"),
    (["--sprt", "0", "10", "0.05"], "argument --sprt: expected 4 arguments"),
    (["--sprt", "0", "10", "0.05", "0.05", "--sprt-model", "bayeselo"],
     "--sprt-model bayeselo: needs trinomial statistics (--stats trinomial)"),
    (["--stats", "pentanomial", "--no-alternate"],
     "--stats pentanomial: needs alternating colours (game pairs); drop --no-alternate"),
    # rules: checked against the match's game
    (["--rule", "swap=on"], "--rule NAME=VALUE: *Star has no option 'swap' (options: none)"),
    (["--game", "hex", "--rule", "swap=maybe"], "--rule NAME=VALUE: option swap is on or off, not 'maybe'"),
    (["--game", "hex", "--rule", "swap"], "--rule wants NAME=VALUE, not 'swap'"),
])
def test_bad_options_are_one_line_naming_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    args: list[str], line: str) -> None:
    (tmp_path / "file").write_text("not a results file\n")
    (tmp_path / "file-sgf").write_text("in the way of the SGF directory\n")
    (tmp_path / "notes.sgf").write_text("my notes\n")
    (tmp_path / "book").write_text("S43\n")
    (tmp_path / "binary").write_bytes(b"\xff\xfe\x00S43")
    (tmp_path / "empty").write_text("# nothing\n")
    (tmp_path / "illegal").write_text("S43 S43\n")
    args = [arg.format(tmp=tmp_path) for arg in args]
    code, err = _run_cli(ENGINES + ["--size", "4"] + args, capsys)
    assert (code, err) == (2, f"stargtp match: {line.format(tmp=tmp_path)}\n")
    assert (tmp_path / "file").read_text() == "not a results file\n"


@pytest.mark.parametrize("args, line", [
    (["--engine", "x=/nonexistent/a"], "--engine NAME=ENGINE: a tournament needs two or more engines, not 1"),
    (["--engine", "x=/nonexistent/a", "--engine", "x=/nonexistent/b"],
     "--engine NAME=ENGINE: engine names must differ; given more than once: x"),
    (["--engine", "/nonexistent/a", "--engine", "y=/nonexistent/b"],
     "--engine NAME=ENGINE: expected NAME=COMMAND (or NAME=tcp:HOST:PORT), not '/nonexistent/a'"),
    (["--engine", "x!=/nonexistent/a", "--engine", "y=/nonexistent/b"],
     "--engine NAME=ENGINE: engine name 'x!': use 1 to 40 letters, digits, '_', '.' or '-'"),
    (["--engine", "x=tcp:host", "--engine", "y=/nonexistent/b"],
     "--engine NAME=ENGINE: bad engine address 'tcp:host': expected tcp:HOST:PORT"),
    (["--engine", "x=a", "--engine", "y=b", "--engine", "z=c", "--sprt", "0", "10", "0.05", "0.05"],
     "--sprt ELO0 ELO1 ALPHA BETA: an SPRT needs exactly two engines, not a tournament of 3"),
    (["--black", "a", "--white", "b", "--engine", "x=c"],
     "--engine NAME=ENGINE: use either --black/--white or --engine, not both"),
    (["--black", "/nonexistent/a"],
     "--black [NAME=]ENGINE, --white [NAME=]ENGINE: give both (or two or more --engine NAME=ENGINE)"),
    (["--black", "x=/nonexistent/a", "--white", "x=/nonexistent/b"],
     "--black [NAME=]ENGINE, --white [NAME=]ENGINE: engine names must differ; given more than once: x"),
    (["--black", "engine --name 'unfinished", "--white", "/nonexistent/b"],
     "--black [NAME=]ENGINE: cannot split the command \"engine --name 'unfinished\" like a shell would: "
     "No closing quotation"),
])
def test_bad_engine_options_are_one_line_naming_the_option(capsys: pytest.CaptureFixture[str], args: list[str],
                                                           line: str) -> None:
    assert _run_cli(args, capsys) == (2, f"stargtp match: {line}\n")


# -- seeing what happens ----------------------------------------------------------
class _Terminal(io.StringIO):
    """A progress stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_each_game_is_announced_when_it_starts_and_ends(tmp_path: Path) -> None:
    stream = io.StringIO()
    debug = tmp_path / "debug.log"
    match = settings(fake("--seed", "1"), fake("--seed", "2"), size=3, games=4,
                     results_path=str(tmp_path / "r.jsonl"))
    result = play(match, progress=stream, report_every=2, debug=str(debug))
    records = result.records
    lines = stream.getvalue().splitlines()
    assert lines[0] == f"results file: {tmp_path / 'r.jsonl'}"
    events = [line for line in lines if line.startswith(("Started", "Finished"))]
    expected = []
    for number, record in enumerate(records, 1):
        names = f"{record['black']} vs {record['white']}"
        expected += [f"Started game {number} of 4 ({names})",
                     f"Finished game {number} ({names}): {record['result']} {{score}}"]
    assert events == expected
    assert [r["black"] for r in records] == ["A", "B", "A", "B"]
    # Each progress line says what its figures count: the score games, the
    # pentanomial Elo complete pairs only.
    progress = [line for line in lines if line.startswith("[")]
    assert [re.sub(r"  \S+ games/min  ETA \S+$", "", line).split("  ", 2)[2] for line in progress] == [
        f"score {s} of {g}  Elo {e} ({m})" for s, g, e, m in _progress_figures(records)]
    # The table every 2 games, on stderr: twice.
    assert sum(line.startswith("pairing ") for line in lines) == 2
    # The debug log: every line both ways, stamped, with the game and the engine.
    log = debug.read_text().splitlines()
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00 \[(-|A vs B #\d)\] [AB] \(slot 0\) [<>] .*",
                            line) for line in log), log[:3]
    genmoves = [line for line in log if re.search(r"\[A vs B #2\] A \(slot 0\) > \d+ genmove", line)]
    assert len(genmoves) == sum(m["colour"] == ("black" if records[2]["black"] == "A" else "white")
                                for m in records[2]["moves"])
    assert any(line.endswith("A (slot 0) > 1 name") for line in log)


def _progress_figures(records: list[dict]) -> list[tuple[str, str, str, str]]:
    """What the progress line must say after each game of
    test_each_game_is_announced_when_it_starts_and_ends."""
    from stargtp.protocol.stats import elo_estimate

    from stargtp.protocol.tools.match import tally_of
    from stargtp.protocol.tools.match.report import _elo_text

    figures = []
    for done in range(1, len(records) + 1):
        tally = tally_of(records[:done], "A", "B")
        elo = elo_estimate(tally, "pentanomial")
        pairs = sum(tally.pairs)
        figures.append((f"{100 * tally.points / tally.games:.1f}%", f"{done} game{'s' * (done > 1)}",
                        f"{_elo_text(elo.value)} [{_elo_text(elo.low)}, {_elo_text(elo.high)}]",
                        f"pentanomial, {pairs} pair{'' if pairs == 1 else 's'}"))
    return figures


def test_a_terminal_shows_the_moves_of_the_games_in_progress() -> None:
    stream = _Terminal()
    record, = play(settings(fake("--seed", "1"), fake("--seed", "2"), size=3, games=1), progress=stream).records
    shown = re.findall(r"playing: #1 (\d+) moves?", stream.getvalue())
    assert [int(n) for n in shown] == list(range(1, len(record["moves"]) + 1))


def test_a_results_file_is_made_by_default_and_announced(tmp_path: Path, monkeypatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from stargtp.protocol.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["match", "--black", fake("--seed", "1"), "--white", fake("--seed", "2"), "--size", "3"]) == 0
    err = capsys.readouterr().err
    name, = [p.name for p in tmp_path.glob("match-A-vs-B-*.jsonl")]
    assert re.fullmatch(r"match-A-vs-B-\d{8}-\d{6}\.jsonl", name)
    assert err.splitlines()[0] == f"results file: {name}" and "resuming" not in err
    assert len(read_results(str(tmp_path / name))[1]) == 2
    # An engine that cannot start leaves no empty results file behind.
    assert main(["match", "--black", "/nonexistent/engine", "--white", fake(), "--size", "3"]) == 2
    assert [p.name for p in tmp_path.glob("*.jsonl")] == [name]


def test_the_interruption_hint_names_the_file_only_when_it_holds_games(tmp_path: Path) -> None:
    from stargtp.protocol.tools.match.cli import _resume_hint
    from stargtp.protocol.tools.match.results import ResultsFile

    path = tmp_path / "r.jsonl"
    with ResultsFile.open(str(path), {"game": "star"}):
        pass
    assert _resume_hint(str(path)) == ""
    with ResultsFile.open(str(path), {"game": "star"}) as results:
        results.append({"type": "game", "key": "A vs B #0"})
    assert _resume_hint(str(path)) == f"; re-run with --results {path} to resume (1 game recorded)"


# -- records -----------------------------------------------------------------------
def test_every_game_goes_into_one_sgf_collection_that_render_reads(tmp_path: Path) -> None:
    from stargtp.engine.sgf import game_trees
    from stargtp.protocol.tools.match.records import record_sgf
    from stargtp.protocol.tools.render import read_record

    collection = tmp_path / "games.sgf"
    match = settings(fake("--seed", "1"), fake("--seed", "2"), size=3, games=2, results_path=str(tmp_path / "r.jsonl"),
                     records_path=str(collection), time_control=TimeControl.parse("100+1"))
    records = play(match).records
    trees = game_trees(collection.read_text())
    assert trees == [record_sgf(record).strip() for record in records]
    first = trees[0].splitlines()[0]
    assert first == (f"(;GM[2004]FF[4]CA[UTF-8]AP[stargtp]SZ[3]RE[{records[0]['result']}]PB[A]PW[B]GN[A vs B #1]"
                     f"DT[{records[0]['started'][:10]}]GC[ended by score; clock: 100 s + 1 s/move]")
    assert "PB[B]PW[A]GN[A vs B #2]" in trees[1]
    # A longer re-run makes the collection again from the results file and adds the new games.
    more = play(MatchSettings(**{**match.__dict__, "games": 4})).records
    assert game_trees(collection.read_text()) == [record_sgf(record).strip() for record in more]
    assert [r["key"] for r in more] == [f"A vs B #{n}" for n in range(1, 5)]
    # render picks a game out of the collection by number or by its GN.
    text = collection.read_text()
    for wanted in ("3", "A vs B #3"):
        drawn = read_record(text, record=wanted)
        assert [drawn.position.format_move(m) for _, m in drawn.position.history] == [
            m["move"] for m in more[2]["moves"]]
        assert drawn.result == more[2]["result"]


def test_a_fault_is_named_in_the_records_comment(tmp_path: Path) -> None:
    from stargtp.protocol.tools.match.records import record_sgf

    match = settings(fake("--seed", "1"), fake("--mode", "garbage", "--at", "2"), games=1, size=3)
    record, = play(match).records
    assert "GC[ended by malformed_move of B: '@@ not-a-move' is not a move here: " in record_sgf(record)
    assert "RE[B+F]" in record_sgf(record)


# -- tournaments ---------------------------------------------------------------------
def test_a_gauntlet_plays_the_first_engine_against_each_other_with_colours_balanced() -> None:
    engines = tuple(EngineEntry(name, EngineSpec.parse(fake("--seed", str(seed))))
                    for name, seed in (("new", 1), ("old1", 2), ("old2", 3), ("old3", 4)))
    match = MatchSettings(engines=engines, tournament="gauntlet", size=3, games=2)
    assert match.pairings() == [("new", "old1"), ("new", "old2"), ("new", "old3")]
    assert [(job.key, job.black) for job in schedule(match)] == [
        ("new vs old1 #1", "new"), ("new vs old2 #2", "new"), ("new vs old3 #3", "new"),
        ("new vs old1 #4", "old1"), ("new vs old2 #5", "old2"), ("new vs old3 #6", "old3")]
    assert match.identity()["tournament"] == "gauntlet"
    assert "tournament" not in MatchSettings(engines=engines).identity()  # older files stay resumable
    result = play(match)
    assert sorted(r["key"] for r in result.records) == sorted(job.key for job in schedule(match))
    table = format_summary(result.summaries, match)
    assert [line.split()[0] for line in table.splitlines() if line.endswith(("x", "/2", "/6"))][-4:] == [
        "new", "old1", "old2", "old3"]
    with pytest.raises(ValueError, match="unknown tournament 'swiss'"):
        MatchSettings(engines=engines, tournament="swiss")


def _synthetic(first: str, second: str, results: str) -> list[dict]:
    """Records of one pairing from a string of results from ``first``'s side
    (``1`` win, ``=`` draw, ``0`` loss), colours alternating."""
    records = []
    for number, mark in enumerate(results):
        black = first if number % 2 == 0 else second
        winner = {"1": first, "0": second, "=": None}[mark]
        records.append({"key": f"{first} vs {second} #{number}", "pairing": [first, second], "round": number,
                        "black": black, "white": second if black == first else first, "winner_engine": winner,
                        "reason": "score", "fault": None, "score_disagreements": [],
                        "moves": [{"colour": "black", "move": "S43", "seconds": 0.5}]})
    return records


def test_rating_list_and_cross_table_of_a_round_robin() -> None:
    from stargtp.protocol.tools.match.report import format_cross_table, format_rating_list

    engines = tuple(EngineEntry(name, EngineSpec.parse("x")) for name in ("A", "B", "C"))
    match = MatchSettings(engines=engines, games=4, rating_prior=0)
    # The cycle of tests/test_ratings.py: everybody even.
    records = _synthetic("A", "B", "1101") + _synthetic("A", "C", "0100") + _synthetic("B", "C", "1=1=")
    summaries = summarise(records, match)
    assert format_rating_list(summaries, match) == [
        "ratings (maximum likelihood over all games; Elo relative to the average, 95% interval; "
        "LOS: likelihood of superiority over the next engine)",
        "rank  engine    Elo  [95%]         games   score     LOS",
        "   1  A           0  [-161, +161]      8   50.0%   50.0%",
        "   2  B           0  [-161, +161]      8   50.0%   50.0%",
        "   3  C           0  [-161, +161]      8   50.0%"]
    assert format_cross_table(summaries, match) == [
        "cross table (points of the row's engine against the column's, of games played)",
        "             A       B       C   total",
        "A            x     3/4     1/4     4/8",
        "B          1/4       x     3/4     4/8",
        "C          3/4     1/4       x     4/8"]


# -- the engines file ---------------------------------------------------------------
def test_engines_come_from_a_toml_file_by_name(tmp_path: Path, monkeypatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from stargtp.protocol.cli import main
    from stargtp.protocol.tools.match.settings import read_engines_file

    config = tmp_path / "engines.toml"
    engine_directory = Path(FAKE_ENGINE).parent
    config.write_text(f"""
[engines.first]
command = [{json.dumps(sys.executable)}, "fake_engine.py", "--seed", "1"]
directory = {json.dumps(str(engine_directory))}
options = {{ rave = false, playouts = 300 }}

[engines.second]
command = {json.dumps(fake("--seed", "2"))}

[engines.remote]
command = "tcp:127.0.0.1:5000"
""")
    engines = read_engines_file(str(config))
    assert list(engines) == ["first", "second", "remote"]
    first = engines["first"]
    assert (first.spec.argv, first.directory, first.options) == (
        (sys.executable, "fake_engine.py", "--seed", "1"), str(engine_directory),
        (("rave", "off"), ("playouts", "300")))
    assert engines["remote"].spec.address == ("127.0.0.1", 5000)
    assert engines["second"].identity() == fake("--seed", "2")
    assert first.identity() == {"command": shlex.join(first.spec.argv), "directory": str(engine_directory),
                                "options": {"rave": "off", "playouts": "300"}}
    # Chosen by name: the relative command runs in its directory, the options are sent.
    monkeypatch.chdir(tmp_path)
    debug = tmp_path / "debug.log"
    code = main(["match", "--engines-file", str(config), "--black", "first", "--white", "second", "--size", "3",
                 "--games", "2", "--results", "r.jsonl", "--debug", str(debug), "--quiet"])
    assert code == 0, capsys.readouterr().err
    header, records = read_results(str(tmp_path / "r.jsonl"))
    assert header["settings"]["engines"]["first"] == first.identity()
    assert [r["reason"] for r in records] == ["score", "score"]
    sent = [line.split(" > ", 1)[1] for line in debug.read_text().splitlines() if "first (slot 0) > " in line]
    assert sent[2:4] == ["3 stargtp-param rave off", "4 stargtp-param playouts 300"]


@pytest.mark.parametrize("text, message", [
    ("[engines.a]\ncomand = 'x'\n", "engine 'a': unknown key 'comand' (known: command, directory, options)"),
    ("[engines.a]\ndirectory = '.'\n", "engine 'a': expected command = a command line, a list of words or "
                                       "tcp:HOST:PORT"),
    ("[engines.'a b']\ncommand = 'x'\n", "engine 'a b': use 1 to 40 letters, digits, '_', '.' or '-' in engine names"),
    ("[engines.a]\ncommand = 'x'\ndirectory = 'missing'\n", "engine 'a': directory {tmp}/missing does not exist"),
    ("[engines.a]\ncommand = 'tcp:h:1'\ndirectory = '.'\n",
     "engine 'a': directory must be a path, and only for a command"),
    ("[engines.a]\ncommand = 'x'\noptions = { a = [1] }\n",
     "engine 'a': expected options = { NAME = VALUE, ... } with plain values"),
    ("[engines.a]\ncommand = 'x'\noptions = { a = 'two words' }\n",
     "engine 'a': option a = 'two words': names and values are single words"),
    ("[engine.a]\ncommand = 'x'\n", "no [engines.NAME] tables"),
    ("[engines.a\n", "not TOML: "),
])
def test_a_bad_engines_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                        message: str) -> None:
    config = tmp_path / "engines.toml"
    config.write_text(text)
    code, err = _run_cli(["--engines-file", str(config), "--engine", "a", "--engine", "b=x"], capsys)
    assert code == 2
    assert err.startswith(f"stargtp match: --engines-file FILE: {config}: {message.replace('{tmp}', str(tmp_path))}")


def test_an_engine_missing_from_the_file_or_refusing_an_option(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "engines.toml"
    config.write_text(f"[engines.a]\ncommand = {json.dumps(fake())}\noptions = {{ bad = 1 }}\n"
                      f"[engines.b]\ncommand = {json.dumps(fake())}\n")
    assert _run_cli(["--engines-file", str(config), "--engine", "a", "--engine", "c"], capsys) == (
        2, f"stargtp match: --engine NAME=ENGINE: no engine 'c' in {config} (it has a, b)\n")
    code, err = _run_cli(["--engines-file", str(config), "--engine", "a", "--engine", "b", "--size", "3",
                          "--results", str(tmp_path / "r.jsonl")], capsys)
    assert code == 2 and err.endswith("engine a (" + fake() + ") is not usable: a: option bad = 1: "
                                      "unknown parameter bad\n"), err


# -- random openings ----------------------------------------------------------------
def test_random_openings_are_seeded_legal_and_played_with_both_colours() -> None:
    from stargtp.protocol.tools.match.settings import random_opening

    match = settings(fake("--seed", "1"), fake("--seed", "2"), size=3, games=4, random_openings=3, openings_seed=7)
    records = play(match).records
    assert [(r["round"], r["black"], r["opening"]["index"]) for r in records] == [
        (0, "A", 0), (1, "B", 0), (2, "A", 1), (3, "B", 1)]
    for record in records:
        opening = random_opening("star", 3, 0.0, 3, 7, record["opening"]["index"])
        assert record["opening"]["moves"] == list(opening) and len(opening) == 3 and "pass" not in opening
        assert [m["move"] for m in record["moves"][:3]] == list(opening)
        assert all(m["seconds"] is None for m in record["moves"][:3])
        replay_is_legal(record)
    assert records[0]["opening"] != records[2]["opening"]  # a new opening for each pair
    # The same seed gives the same openings, another seed others; the seed is part of the match.
    assert random_opening("star", 3, 0.0, 3, 7, 1) == tuple(records[2]["opening"]["moves"])
    assert [random_opening("star", 3, 0.0, 3, 8, n) for n in range(2)] != [
        tuple(records[n]["opening"]["moves"]) for n in (0, 2)]
    assert match.identity()["random_openings"] == {"plies": 3, "seed": 7}
    amazons = random_opening("amazons", 6, 0.0, 4, 1, 0)
    replay = new_position("amazons", 6)
    for text in amazons:
        replay.play(replay.parse_move(text))
    assert len(replay.history) == 4 and not replay.is_over()


# -- adjudication -------------------------------------------------------------------
def test_the_move_limit_adjudicates_a_draw() -> None:
    from stargtp.protocol.tools.match.records import record_sgf

    match = settings(fake("--seed", "1"), fake("--seed", "2"), size=3, games=2, max_moves=10)
    for record in play(match).records:
        assert (record["result"], record["reason"], record["winner"], len(record["moves"])) == (
            "0", "move_limit", None, 10)
        assert record["adjudication"] == "10 moves played" and record["fault"] is None
        assert "GC[ended by move_limit (adjudicated: 10 moves played); clock: no clock]" in record_sgf(record)
    assert match.identity()["adjudication"] == {"max_moves": 10, "settled": False, "resign": None}


def _settled_opening(game: str, size: int) -> tuple[str, ...]:
    """The moves of the first seeded random game to reach a position whose
    score can no longer change while the game goes on."""
    from stargtp.engine.games import find_game

    rules = find_game(game)
    for seed in range(200):
        rng = random.Random(seed)
        position = rules.new_position(size)
        while not position.is_over():
            if position.history and rules.settled(position, 0.0):
                return tuple(position.format_move(move) for _, move in position.history)
            no_move = rules.no_move(position, 0.0)
            position.play(rng.choice([m for m in position.legal_moves() if m != no_move]))
    raise AssertionError("no settled position found")


@pytest.mark.parametrize("game, size", [("star", 3), ("amazons", 6)])
def test_a_settled_game_is_scored_at_once(game: str, size: int) -> None:
    from stargtp.engine.games import find_game

    opening = _settled_opening(game, size)
    position = find_game(game).new_position(size)
    for text in opening:
        position.play(position.parse_move(text))
    assert not position.is_over()
    expected = find_game(game).score(position, 0.0)
    match = settings(fake("--seed", "1"), fake("--seed", "2"), game=game, size=size, games=2,
                     openings=(opening,), adjudicate_settled=True)
    for record in play(match).records:
        assert [m["move"] for m in record["moves"]] == list(opening)  # no move after the opening
        assert (record["reason"], record["result"], record["adjudication"]) == (
            "settled", expected.gtp_result(), "the score can no longer change")
        assert record["score"] == expected.to_json(position)
    # Without the option the game is played out.
    assert all(len(r["moves"]) > len(opening) for r in play(replace(match, adjudicate_settled=False)).records)


def test_both_engines_agreeing_that_a_side_is_lost_ends_the_game() -> None:
    match = settings(fake("--seed", "1", "--winrate", "0.99"), fake("--seed", "2", "--winrate", "0.01"),
                     size=3, games=2, resign_adjudication=(3, 0.05))
    first, second = play(match).records
    # B reports 1% after each of its moves, A 99%: after three moves each, B has lost.
    assert (first["result"], first["reason"], first["winner_engine"], len(first["moves"])) == (
        "B+R", "agreed_lost", "A", 6)
    assert first["adjudication"] == ("for 3 moves each, white's engine gave itself a win rate of at most 0.05 "
                                     "and its opponent's at least 0.95")
    assert [m["winrate"] for m in first["moves"]] == [0.99, 0.01] * 3
    assert (second["result"], second["winner_engine"], len(second["moves"])) == ("W+R", "A", 6)
    replay_is_legal(first)
    # An engine that does not report win rates is never adjudicated so.
    match = settings(fake("--seed", "1", "--winrate", "0.99"), fake("--seed", "2"), size=3, games=1,
                     resign_adjudication=(3, 0.05))
    record, = play(match).records
    assert record["reason"] == "score" and "adjudication" not in record
    assert all("winrate" not in m for m in record["moves"] if m["colour"] == "white")


# -- the report page ----------------------------------------------------------------
def _assert_self_contained(page: str) -> None:
    """One file: no script, no style sheet or image from elsewhere."""
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "src=" not in page and "<link" not in page
    assert set(re.findall(r"https?://[^\"' ]+", page)) <= {"http://www.w3.org/2000/svg"}


def test_the_report_page_of_a_round_robin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from stargtp.protocol.cli import main
    from stargtp.protocol.ratings import fit_ratings
    from stargtp.protocol.tools.match.page import trajectory_series

    engines = tuple(EngineEntry(name, EngineSpec.parse(fake("--seed", str(seed))))
                    for name, seed in (("r1", 1), ("r2", 2), ("r3", 3)))
    results = tmp_path / "rr.jsonl"
    match = MatchSettings(engines=engines, size=3, games=4, results_path=str(results),
                          records_path=str(tmp_path / "rr.sgf"), sgf_dir=str(tmp_path / "rr-sgf"), rating_prior=1)
    records = play(match).records
    assert main(["report", str(results)]) == 0
    assert capsys.readouterr().err == f"report: {tmp_path / 'rr.html'} (12 games)\n"
    page = (tmp_path / "rr.html").read_text()
    _assert_self_contained(page)
    for heading in ("Ratings", "Pairings", "Cross table", "Over the games", "Game lengths", "How the games ended",
                    "Records", "Games"):
        assert f"<h2>{heading}</h2>" in page
    assert '<a href="rr.jsonl">results (JSON lines)</a>' in page
    assert '<a href="rr.sgf">every game (SGF collection)</a>' in page
    assert all(f'<a href="rr-sgf/{r["key"].replace(" vs ", "_vs_").replace(" #", "_")}.sgf">{r["key"]}</a>' in page
               for r in records)
    assert page.count("<svg") == 2 and "<td>score</td>" not in page and "<td class=name>score</td><td>12</td>" in page
    # Each game's ending, in words, over its reason.
    assert {r["ending"] for r in records} <= {"both players passed", "the board is full"}
    assert all(f'<td class=name title="{r["ending"]}">score</td><td>{len(r["moves"])}</td>' in page for r in records)
    # The plot: each engine's joint rating after every game, the last the table's.
    label, series, _ = trajectory_series(records, match)
    assert label == "joint rating (Elo)" and [name for name, _ in series] == ["r1", "r2", "r3"]
    final = {r.name: r.elo for r in fit_ratings([(s.first, s.second, s.tally.points, s.tally.games)
                                                 for s in summarise(records, match)], prior_draws=1)}
    assert {name: data[-1] for name, data in series} == {name: (12.0, final[name]) for name in final}
    # An engine is rated from its first game: r3's is the 3rd played (pairs are
    # played back to back, r1-r2 #1 and #4 first).
    assert [r["key"] for r in records[:3]] == ["r1 vs r2 #1", "r1 vs r2 #4", "r1 vs r3 #2"]
    assert [[x for x, _ in data] for _, data in series] == [[float(n) for n in range(1, 13)]] * 2 + [
        [float(n) for n in range(3, 13)]]


def test_the_report_page_plots_the_sprt_and_is_written_by_match(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from stargtp.protocol.cli import main
    from stargtp.protocol.tools.match.page import trajectory_series

    results, page_path = tmp_path / "s.jsonl", tmp_path / "s.html"
    code = main(["match", "--black", fake("--seed", "1"), "--white", fake("--mode", "pass"), "--size", "3",
                 "--games", "40", "--sprt", "0", "200", "0.05", "0.05", "--results", str(results),
                 "--report", str(page_path)])
    assert code == 0 and capsys.readouterr().err.splitlines()[-1] == f"report: {page_path}"
    page = page_path.read_text()
    _assert_self_contained(page)
    header, records = read_results(str(results))
    match = MatchSettings.from_identity(header["settings"], games=40, sprt=Sprt(0, 200, 0.05, 0.05))
    label, series, lines = trajectory_series(records, match)
    assert label == "SPRT log-likelihood ratio" and lines == [("H0", pytest.approx(-2.944, abs=1e-3)),
                                                             ("H1", pytest.approx(2.944, abs=1e-3))]
    (_, llr), = series
    assert [y for _, y in llr] == [match.sprt.evaluate(tally_of(records[:n], "A", "B"), "pentanomial").llr
                                   for n in range(1, len(records) + 1)]
    assert llr[-1][1] >= 2.944 > llr[-2][1]  # the match stopped when the LLR crossed H1
    assert "<td class=name>A vs B</td><td>16</td><td>16-0-0</td>" in page
    # Without an SPRT, two engines plot the first one's Elo with its interval.
    label, series, _ = trajectory_series(records, replace(match, sprt=None))
    assert label == "Elo of A (pentanomial)" and [name for name, _ in series] == ["Elo of A", "95% low", "95% high"]
    # A file that is no results file is one line.
    (tmp_path / "notes.txt").write_text("hello\n")
    assert main(["report", str(tmp_path / "notes.txt")]) == 2
    assert capsys.readouterr().err == (f"stargtp report: {tmp_path / 'notes.txt'} is not a match results file "
                                       f"(stargtp match --results writes one)\n")
