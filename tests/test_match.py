"""The match runner: faults as outcomes, clocks, resume after a real kill,
TCP and subprocess engines together, openings, SPRT stop, round robin.

The opponents are the built-in random player (``stargtp serve --player
random --seed S``) and the scripted engines of tests/fake_engines, on the
4-ring *Star board (50 cells) and the 6x6 Amazons board.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.colour import BLACK, WHITE
from engine.games import new_position
from engine.star.scoring import score
from protocol.controller import EngineSpec
from protocol.match import (CRASH, GENMOVE_ERROR, ILLEGAL_MOVE, MALFORMED_MOVE, PROTOCOL_ERROR, REJECTED_MOVE,
                            TIMEOUT, EngineEntry, MatchSettings, RefereeClock, TimeControl, deal, format_summary,
                            run_match, save_sgf, schedule, summarise)
from protocol.records import ResultsError, read_results
from protocol.stats import Sprt, Tally

ROOT = Path(__file__).resolve().parents[1]
FAKE_ENGINE = str(ROOT / "tests" / "fake_engines" / "fake_engine.py")


def random_player(seed: int, *extra: str) -> str:
    return shlex.join([sys.executable, "-m", "protocol.cli", "serve", "--player", "random", "--seed", str(seed),
                       *extra])


def fake(*options: str) -> str:
    return shlex.join([sys.executable, FAKE_ENGINE, *options])


def settings(black: str, white: str, **options) -> MatchSettings:
    options.setdefault("size", 4)
    engines = (EngineEntry("A", EngineSpec.parse(black)), EngineEntry("B", EngineSpec.parse(white)))
    return MatchSettings(engines=engines, **options)


def play(match: MatchSettings, **options):
    return asyncio.run(run_match(match, **options))


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
    ("silent", TIMEOUT, "B+T", r"no move within the move timeout of 1 s"),
    ("trickle", TIMEOUT, "B+T", r"no move within the move timeout of 1 s"),
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
    # Only the silent engines wait out the move timeout, so it is short for
    # them; it is long enough for the random player's first move (which
    # starts its worker process) on a busy machine.
    match = settings(random_player(1), fake("--mode", mode, "--at", "3", "--once-file", once, "--seed", "2"),
                     games=2, move_timeout=1.0 if kind == TIMEOUT else 60.0)
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
    assert fischer.allowance() == 10 and fischer.time_left_args() == (10, 0)
    fischer.charge(3)
    assert fischer.allowance() == 9
    fischer.charge(9.1)  # 0.1 s over, forgiven by the tolerance: nothing left, plus the increment
    assert fischer.allowance() == 2

    japanese = RefereeClock(TimeControl.parse("5", byoyomi="10x3"))
    assert japanese.allowance() == 35
    japanese.charge(7)  # 5 s of main time, then 2 s of a period: all 3 periods kept
    assert (japanese.allowance(), japanese.time_left_args()) == (30, (10, 3))
    japanese.charge(25)  # 25 s spans three periods: two used up
    assert (japanese.allowance(), japanese.time_left_args()) == (10, (10, 1))

    canadian = RefereeClock(TimeControl.parse("0", canadian="30/5"))
    assert canadian.allowance() == 30
    canadian.charge(10)
    assert canadian.time_left_args() == (20, 4)
    for _ in range(4):
        canadian.charge(1)
    assert canadian.time_left_args() == (30, 5)  # block done: a fresh one

    assert RefereeClock(TimeControl()).allowance() == float("inf")
    assert TimeControl.parse("60+1").settings_commands(False) == ["time_settings 60 0 0"]
    assert TimeControl.parse("0.5").settings_commands(False) == ["time_settings 1 0 0"]
    assert TimeControl.parse("60", canadian="300/25").settings_commands(False) == ["time_settings 60 300 25"]
    assert TimeControl.parse("60", byoyomi="30x5").settings_commands(True) == ["kgs-time_settings byoyomi 60 30 5"]
    assert TimeControl.parse("60", byoyomi="30x5").settings_commands(False) == ["time_settings 60 30 1"]
    for bad in (dict(main="-1"), dict(main="5", byoyomi="10x0"), dict(main="5", canadian="30"),
                dict(main="5+1", byoyomi="10"), dict(byoyomi="10", canadian="10/2")):
        with pytest.raises(ValueError):
            TimeControl.parse(**bad)


def test_clock_is_enforced_with_the_tolerance() -> None:
    # 1 s for the whole game (absolute time). B's 3rd move takes 1.6 s against
    # the clock plus 0.2 s of tolerance: lost on time. A, a scripted random
    # player, needs well under a millisecond per move.
    match = settings(fake("--seed", "1"), fake("--mode", "slow", "--delay", "1.6", "--at", "3"), games=1,
                     time_control=TimeControl.parse("1"), time_tolerance=0.2)
    record, = play(match).records
    assert (record["result"], record["reason"], record["fault"]["engine"]) == ("B+T", TIMEOUT, "B")
    assert re.fullmatch(r"no move within 1\.\d{3} s \(clock [01]\.\d{3} s \+ tolerance 0\.2 s\)",
                        record["fault"]["detail"]), record["fault"]["detail"]
    # A 0.5 s move fits, and the game goes on to the end.
    match = settings(fake("--seed", "1"), fake("--mode", "slow", "--delay", "0.5", "--at", "3"), games=1,
                     time_control=TimeControl.parse("1"), time_tolerance=0.2)
    record, = play(match).records
    assert (record["reason"], record["fault"], len(record["moves"])) == ("score", None, 50)


def test_time_commands_sent_before_each_move(tmp_path: Path) -> None:
    log = tmp_path / "engines.log"
    match = settings(fake("--seed", "1"), fake("--echo-time"), games=1, engine_stderr=str(log),
                     time_control=TimeControl.parse("1000", byoyomi="10x3"))
    record, = play(match).records
    assert record["reason"] == "score"
    lines = [line.split("] ", 1)[1] for line in log.read_text().splitlines() if line.startswith("[B slot 0]")]
    assert lines[0] == "kgs-time_settings byoyomi 1000 10 3"
    assert lines[1] == "time_left white 1000 0"  # nothing used yet
    seconds = [int(line.split()[2]) for line in lines[1:]]
    assert all(re.fullmatch(r"time_left white \d+ 0", line) for line in lines[1:])
    assert len(seconds) == 25 and seconds == sorted(seconds, reverse=True) and seconds[-1] > 900


# -- resume ----------------------------------------------------------------------
def _match_command(results: Path, games: int, *extra: str) -> list[str]:
    engine = fake("--move-delay", "0.003")
    return [sys.executable, "-m", "protocol.cli", "match", "--black", engine + " --seed 1",
            "--white", engine + " --seed 2", "--size", "4", "--games", str(games), "--results", str(results),
            "--quiet", *extra]


def _game_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_resume_after_the_runner_is_killed(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    runner = subprocess.Popen(_match_command(results, 10), cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not results.exists() or results.read_text().count("\n") < 4):
        time.sleep(0.01)
    runner.send_signal(signal.SIGKILL)  # no cleanup, no flush: a real crash
    runner.wait()
    before = _game_lines(results)
    assert 3 <= len(before) < 10

    finished = subprocess.run(_match_command(results, 10), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr
    after = _game_lines(results)
    assert after[:len(before)] == before  # nothing lost or rewritten
    assert sorted(r["round"] for r in after) == list(range(10))  # nothing duplicated
    assert results.read_text().count('"type":"header"') == 1
    assert "A vs B" in finished.stdout and " 10 " in finished.stdout

    # Asking for more games later extends the same file.
    more = subprocess.run(_match_command(results, 12), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert more.returncode == 0 and sorted(r["round"] for r in _game_lines(results)) == list(range(12))


def test_torn_last_line_is_cut_and_a_different_match_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    first = subprocess.run(_match_command(results, 3), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    with open(results, "ab") as stream:
        stream.write(b'{"type":"game","key":"A vs B #3","pairing":["A","B"],"rou')  # killed mid-write
    again = subprocess.run(_match_command(results, 4), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr
    header, games = read_results(str(results))
    assert [g["round"] for g in games] == [0, 1, 2, 3]
    assert all(json.loads(line) for line in results.read_text().splitlines())

    other = subprocess.run(_match_command(results, 4, "--komi", "0.5"), cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
    assert other.returncode == 2 and "settings differ: komi" in other.stderr
    with pytest.raises(ResultsError, match="damaged record"):
        results.write_text(results.read_text().replace('"round":1', '"round":1,,', 1))
        read_results(str(results))


# -- engines of every kind together --------------------------------------------
def test_tcp_and_subprocess_engines_with_concurrency_two(tmp_path: Path) -> None:
    log = tmp_path / "server.log"  # a file, not a pipe nobody drains
    with open(log, "w") as server_stderr:
        server = subprocess.Popen([sys.executable, "-m", "protocol.cli", "serve", "--player", "random", "--seed",
                                   "7", "--tcp", "127.0.0.1:0"], cwd=ROOT, stderr=server_stderr)
    try:
        deadline = time.monotonic() + 30
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
    flat = shlex.join([sys.executable, "-m", "protocol.cli", "serve", "--player", "flat", "--seed", "5",
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
    from protocol.match import read_openings

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
        "r1 vs r2 #0", "r1 vs r3 #0", "r2 vs r3 #0", "r1 vs r2 #1", "r1 vs r3 #1", "r2 vs r3 #1"]
    result = play(match)
    assert len(result.records) == 6
    table = format_summary(result.summaries, match)
    assert "standings: " in table and table.count(" vs ") >= 3


def test_amazons_match_and_sgf_hook(tmp_path: Path) -> None:
    match = settings(random_player(1), random_player(2), game="amazons", size=6, games=2)
    records = play(match).records
    for record in records:
        assert record["reason"] == "no_moves" and re.fullmatch(r"[BW]\+\d+", record["result"])
        assert record["score_disagreements"] == []
        position = new_position("amazons", 6)
        for move in record["moves"]:
            position.play(position.parse_move(move["move"]))
        assert position.is_over() and record["winner"] == ("black" if position.winner() == BLACK else "white")
        path = save_sgf(record, str(tmp_path / "sgf"))
        assert path is not None
        from engine.amazons.sgf import read_sgf

        assert [m for _, m in read_sgf(Path(path).read_text()).history] == [m for _, m in position.history]


def test_unusable_engine_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    from protocol.cli import main

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
    results = tmp_path / "example.jsonl"
    command = [sys.executable, str(ROOT / "examples" / "short_match.py"), str(results)]
    first = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("flat vs random #") == 4 and "win rate" in first.stdout
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "flat vs random #" not in again.stdout  # nothing left to play
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
    from protocol.records import ResultsFile

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
    from protocol.match import default_sgf_dir

    assert default_sgf_dir("amazons", "runs/games.jsonl") == "runs/games-sgf"
    assert default_sgf_dir("star", "runs/games.jsonl") is None
    assert default_sgf_dir("amazons", None) is None
