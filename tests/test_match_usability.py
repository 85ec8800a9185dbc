"""What a new user of ``stargtp match`` and ``stargtp report`` meets: the
progress line and the results table in an 80-column terminal, a first run
with a broken engine command, one numbering of the games everywhere, the
report page of a one-sided match, the help text, engine output shown in
messages, and ``stargtp report`` given a file that is no results file.

The engines are the scripted ones of tests/fake_engines (answers in
milliseconds); nothing here depends on speed.
"""

from __future__ import annotations

import asyncio
import functools
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stargtp.engine.games import BUILT_IN
from stargtp.protocol.controller import EngineSpec, GtpController, ProtocolError
from stargtp.protocol.tools.match import PROTOCOL_ERROR, MatchSettings, format_summary
from stargtp.protocol.tools.match.report import PairingSummary, Progress, summarise
from stargtp.protocol.tools.match.results import read_results
from tests.match_helpers import HANG_GUARD, fake, play, settings

ROOT = Path(__file__).resolve().parents[1]
two_engines = functools.partial(settings, size=3)
"""The match settings of two engines, on 3 rings unless told."""


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from stargtp.protocol.cli import main

    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


class _Terminal(io.StringIO):
    """A progress stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _record(number: int, winner: str | None) -> dict:
    """A finished game of A vs B (round ``number - 1``), as the results file holds it."""
    black, white = ("A", "B") if number % 2 else ("B", "A")
    return {"type": "game", "key": f"A vs B #{number}", "number": number, "pairing": ["A", "B"],
            "round": number - 1, "black": black, "white": white, "winner_engine": winner,
            "result": "B+1" if winner == black else "W+1", "reason": "score",
            "moves": [{"colour": "black", "move": "pass", "seconds": 0.5}] * 30}


# -- 1. the progress line and the table in an 80-column terminal ---------------------------


def _redraws(text: str) -> list[str]:
    """What each redraw of a terminal progress stream left on its line."""
    return [part.split("\n")[-1] for part in text.split("\r\x1b[K")[1:]]


@pytest.mark.parametrize("columns", ["80", "40"])
def test_the_progress_line_fits_the_terminal(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    stream = _Terminal()
    progress = Progress(two_engines("x", "y", games=4), 4, 3, stream)  # 3 resumed: no rate, nothing timed
    progress.update([_record(1, "A"), _record(2, "A"), _record(3, "B")])
    progress.game_started(4, "B", "A")
    progress.move_played(4, 30)
    lines = _redraws(stream.getvalue())
    assert all(len(line) <= int(columns) - 1 for line in lines), lines
    if columns == "80":
        assert lines == ["[3/4]  A 2-0-1 B  score 66.7% of 3 games  Elo +inf [-, -]  ETA -",
                         "[3/4]  A 2-0-1 B  Elo +inf [-, -]  ETA -  playing: #4 0 moves",
                         "[3/4]  A 2-0-1 B  Elo +inf [-, -]  ETA -  playing: #4 30 moves"]
    else:
        assert lines == ["[3/4]  A 2-0-1 B  Elo +inf [-, -]"] * 3
    assert "Started game 4 of 4 (B vs A)\n" in stream.getvalue()


def test_a_wide_terminal_shows_the_whole_progress_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    stream = _Terminal()
    progress = Progress(two_engines("x", "y", games=4), 4, 3, stream)
    progress.records = [_record(1, "A"), _record(2, "A"), _record(3, "B")]
    progress.move_played(4, 30)
    assert _redraws(stream.getvalue()) == [
        "[3/4]  A 2-0-1 B  score 66.7% of 3 games  Elo +inf [-, -] (pentanomial, 1 pair)  0.0 games/min  ETA -"
        "  playing: #4 30 moves"]


def test_fit_line_drops_the_least_important_parts_first() -> None:
    from stargtp.protocol.tools.match.report import fit_line

    parts = [(9, "", "[1/4]"), (4, "  ", "score"), (2, "  ", "rate"), (4, "  ", "more"), (6, "  ", "ETA -")]
    assert fit_line(parts, 100) == "[1/4]  score  rate  more  ETA -"
    assert fit_line(parts, 25) == "[1/4]  score  more  ETA -"
    assert fit_line(parts, 24) == "[1/4]  score  ETA -"
    assert fit_line(parts, 12) == "[1/4]  ETA -"
    assert fit_line(parts, 4) == "[1/4"


def _summaries() -> tuple[list[PairingSummary], MatchSettings]:
    match = two_engines("stargtp serve --player flat --playouts 200 --seed 1",
                        "stargtp serve --player random --seed 2", games=20)
    records = [_record(n, "A" if n != 7 else "B") for n in range(1, 21)]
    return summarise(records, match), match


def test_the_table_fits_80_columns_and_keeps_the_wide_layout_when_wider() -> None:
    summaries, match = _summaries()
    wide = format_summary(summaries, match)
    assert max(map(len, wide.splitlines())) == 122  # today's table
    assert format_summary(summaries, match, 200) == wide
    assert format_summary(summaries, match, 122) == wide
    narrow = format_summary(summaries, match, 80)
    assert max(map(len, narrow.splitlines())) <= 80
    assert narrow.splitlines()[4:] == [
        "pairing  games  W-D-L   score  win rate % [95%]   Elo [95%]",
        "-----------------------------------------------------------",
        "A vs B      20  19-0-1     19  95.0 [76.4, 99.1]  +512 [+311, +inf]",
        "  30.0 moves per game, s/move (1st / 2nd) 0.500 / 0.500",
        "",
        "Scores and intervals are from the first engine's side; Elo interval: pentanomial",
        "  model."]


def test_match_prints_the_narrow_table_in_80_columns(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "stargtp.protocol.cli", "match", "--size", "3", "--games", "2",
               "--black", fake("--seed", "1"), "--white", fake("--seed", "2"), "--results", str(tmp_path / "r.jsonl")]
    for columns, widest in (("80", 80), ("150", 122)):
        (tmp_path / "r.jsonl").unlink(missing_ok=True)
        run = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD, cwd=tmp_path,
                             env={**_environment(), "COLUMNS": columns})
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        assert max(len(line) for line in lines if not line.startswith("  A =") and not line.startswith("  B =")) \
            == widest, run.stdout


def _environment() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if key != "COLUMNS"}


# -- 2. a first run with a broken engine command -------------------------------------------


def test_a_broken_engine_leaves_no_results_file_and_the_corrected_rerun_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r.jsonl"
    common = ["match", "--size", "3", "--games", "2", "--results", str(results)]
    code, _, err = cli(common + ["--black", "stargtp-not-on-path serve", "--white", fake("--seed", "2")], capsys)
    assert code == 2 and err.startswith("stargtp match: engine A (stargtp-not-on-path serve) is not usable: ")
    assert not results.exists()
    code, out, err = cli(common + ["--black", fake("--seed", "1"), "--white", fake("--seed", "2")], capsys)
    assert code == 0, err
    header, games = read_results(str(results))
    assert header is not None and len(games) == 2
    assert header["settings"]["engines"] == {"A": fake("--seed", "1"), "B": fake("--seed", "2")}


def test_a_results_file_holding_only_a_header_takes_the_corrected_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What the previous version left after a broken first run: the header
    alone. The corrected run accepts it; a file with games is still refused."""
    results = tmp_path / "r.jsonl"
    wrong = two_engines("stargtp-not-on-path serve", fake("--seed", "2"), games=2)
    results.write_text(json.dumps({"type": "header", "format": "stargtp-match-results/1",
                                   "settings": wrong.identity()}) + "\n")
    common = ["match", "--size", "3", "--games", "2", "--results", str(results)]
    code, _, err = cli(common + ["--black", fake("--seed", "1"), "--white", fake("--seed", "2")], capsys)
    assert code == 0, err
    header, games = read_results(str(results))
    assert header["format"] == "stargtp-match-results/2" and len(games) == 2
    code, _, err = cli(common + ["--black", fake("--seed", "3"), "--white", fake("--seed", "2")], capsys)
    assert code == 2 and "holds a different match (settings differ: engines)" in err
    assert len(read_results(str(results))[1]) == 2


# -- 3. one numbering of the games ---------------------------------------------------------


def test_game_numbers_agree_in_progress_keys_sgf_names_and_the_page(tmp_path: Path) -> None:
    from stargtp.protocol.tools.match.page import write_page

    stream = io.StringIO()
    match = two_engines(fake("--seed", "1"), fake("--seed", "2"), games=4, results_path=str(tmp_path / "r.jsonl"),
                        sgf_dir=str(tmp_path / "r-sgf"))
    result = play(match, progress=stream)
    started = [int(n) for n in re.findall(r"^Started game (\d+) of 4 ", stream.getvalue(), re.MULTILINE)]
    finished = [int(n) for n in re.findall(r"^Finished game (\d+) ", stream.getvalue(), re.MULTILINE)]
    assert started == finished == [1, 2, 3, 4]
    assert [r["key"] for r in result.records] == ["A vs B #1", "A vs B #2", "A vs B #3", "A vs B #4"]
    assert [r["number"] for r in result.records] == [1, 2, 3, 4]
    assert sorted(p.name for p in (tmp_path / "r-sgf").iterdir()) == [f"A_vs_B_{n}.sgf" for n in range(1, 5)]
    for n in range(1, 5):
        assert f"GN[A vs B #{n}]" in (tmp_path / "r-sgf" / f"A_vs_B_{n}.sgf").read_text()
    write_page(str(tmp_path / "r.html"), result.records, match)
    rows = re.findall(r'<tr><td>(\d+)</td><td class=name><a href="r-sgf/A_vs_B_(\d+)\.sgf">A vs B #(\d+)</a>',
                      (tmp_path / "r.html").read_text())
    assert rows == [(str(n),) * 3 for n in range(1, 5)]


def test_a_results_file_of_the_previous_version_resumes_in_the_new_numbering(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    sgf_dir = tmp_path / "r-sgf"
    match = two_engines(fake("--seed", "1"), fake("--seed", "2"), games=2, results_path=str(results),
                        sgf_dir=str(sgf_dir))
    before = play(match).records
    # Written as version 0.2 did: format 1, keys from #0, no number.
    lines = results.read_text().splitlines()
    header = json.loads(lines[0]) | {"format": "stargtp-match-results/1"}
    old = [json.loads(line) for line in lines[1:]]
    for record in old:
        record["key"] = f"A vs B #{record['round']}"
        del record["number"]
    results.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in [header, *old]))
    for path in sgf_dir.iterdir():
        path.unlink()
    for record in old:
        (sgf_dir / f"A_vs_B_{record['round']}.sgf").write_text("(;GN[old])\n")
    stream = io.StringIO()
    after = play(MatchSettings(**{**match.__dict__, "games": 4}), progress=stream)
    assert after.resumed == 2 and after.played == 2
    assert "resuming: 2 of 4 games already recorded" in stream.getvalue()
    assert re.findall(r"^Started game (\d+) of 4", stream.getvalue(), re.MULTILINE) == ["3", "4"]
    assert [r["key"] for r in after.records] == [f"A vs B #{n}" for n in range(1, 5)]
    assert [r["moves"] for r in after.records[:2]] == [r["moves"] for r in before]  # kept, not replayed
    header, games = read_results(str(results))
    assert header["format"] == "stargtp-match-results/2"  # an older version now refuses the file
    assert [g["key"] for g in games] == ["A vs B #0", "A vs B #1", "A vs B #3", "A vs B #4"]  # as written
    for n in range(1, 5):
        assert f"GN[A vs B #{n}]" in (sgf_dir / f"A_vs_B_{n}.sgf").read_text()


# -- 4. the report page of a one-sided match -----------------------------------------------


def _texts(svg: str) -> list[tuple[float, float, str, float, str]]:
    """The texts of an SVG: ``(x, y, anchor, font size, text)``."""
    found = []
    for attributes, text in re.findall(r"<text ([^>]*)>([^<]*)</text>", svg):
        values = dict(re.findall(r'([\w-]+)="([^"]*)"', attributes))
        if "transform" in values:
            continue  # the rotated axis label, alone at the left
        found.append((float(values["x"]), float(values["y"]), values.get("text-anchor", "start"),
                      float(values["font-size"]), text))
    return found


def _boxes_overlap(texts: list[tuple[float, float, str, float, str]]) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes (width 0.62 em a character, height one
    em above the baseline) overlap."""
    boxes = []
    for x, y, anchor, size, text in texts:
        width = 0.62 * size * len(text)
        left = x - {"start": 0, "middle": width / 2, "end": width}[anchor]
        boxes.append((left, left + width, y - size, y, text))
    return [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]]


def test_the_report_page_of_a_match_one_side_wins_every_game(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from stargtp.protocol.tools.match.page import lengths_svg

    results = tmp_path / "r.jsonl"
    play(two_engines(fake("--seed", "1"), fake("--mode", "pass"), games=4, results_path=str(results)))
    assert [g["winner_engine"] for g in read_results(str(results))[1]] == ["A"] * 4
    code, _, err = cli(["report", str(results)], capsys)
    assert code == 0, err
    page = (tmp_path / "r.html").read_text()
    assert "+inf" in page and "e+" not in page
    trajectory = page[page.index("<h2>Over the games</h2>"):page.index("<h2>Game lengths</h2>")]
    texts = _texts(trajectory)
    y_ticks = [t[4] for t in texts if t[2] == "end" and t[0] == 54]
    x_ticks = [t[4] for t in texts if t[2] == "middle" and t[4].isdigit()]
    assert y_ticks == ["0", "200", "400", "600", "800", "1000"]
    assert x_ticks == ["0", "1", "2", "3", "4"]
    assert "beyond \u00b11000 (\u00b1inf too) drawn at \u00b11000" in [t[4] for t in texts]
    assert _boxes_overlap(texts) == []
    # A histogram of one bin: a bar as wide as one of ten, centred.
    same = [_record(n, "A") for n in range(1, 5)]
    bars = re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', lengths_svg(same))
    assert bars == [("303", "54")]  # centred: 40 + (580 - 58) / 2, plus its 2-pixel gap


# -- 5. the help of --sgf-dir --------------------------------------------------------------


def test_the_sgf_dir_help_names_every_game_with_records() -> None:
    # The games come from the registry: those whose descriptor writes records.
    run = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "match", "--help"], capture_output=True,
                         text=True, timeout=HANG_GUARD, env={**_environment(), "COLUMNS": "200"})
    line, = [line for line in run.stdout.splitlines() if line.strip().startswith("--sgf-dir DIR")]
    titles = [game.title for game in BUILT_IN if game.write_record is not None]
    assert titles == ["*Star", "Amazons", "Hex", "Y"]
    assert line.split("--sgf-dir DIR", 1)[1].strip() == (
        "save each game as its own SGF file in DIR, for games with SGF records (*Star, Amazons, Hex and Y; default "
        "with --results FILE: FILE's name without its suffix, plus -sgf)")
    size, = [line for line in run.stdout.splitlines() if line.strip().startswith("--size N")]
    assert size.split("--size N", 1)[1].strip() == (
        "board size: *Star 2..10 rings; Amazons 6, 8 or 10 squares a side; Hex 1..19 cells a side; "
        "Y 1..19 cells a side (default: the game's)")


# -- 6. engine output in messages is escaped once ------------------------------------------


def test_an_answer_without_status_is_shown_escaped_once() -> None:
    async def ask() -> str:
        spec = EngineSpec.parse(fake("--mode", "nostatus", "--seed", "1"))
        async with await GtpController.open(spec, command_timeout=60) as engine:
            await engine.send("boardsize 3")
            with pytest.raises(ProtocolError) as error:
                await engine.send("genmove b")
            return str(error.value)

    message = asyncio.run(ask())
    assert re.fullmatch(r".+ answer does not start with '=' or '\?': '\d+ [A-Z0-9]+\\n'", message), message
    assert "\\\\" not in message


def test_a_fault_detail_shows_the_engine_output_escaped_once() -> None:
    record, = play(two_engines(fake("--mode", "nostatus", "--seed", "1"), fake("--seed", "2"), games=1)).records
    fault = record["fault"]
    assert fault["kind"] == PROTOCOL_ERROR and fault["engine"] == "A"
    assert re.fullmatch(r"A: answer does not start with '=' or '\?': '\d+ [A-Z0-9]+\\n'", fault["detail"]), fault
    assert "\\\\" not in fault["detail"]


# -- 7. stargtp report given something that is no results file -----------------------------


def test_report_refuses_a_file_that_is_no_results_file_in_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.jsonl"
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    other = tmp_path / "other.json"
    other.write_text('{"name": "x", "version": 1}\n')
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert cli(["report", str(missing)], capsys) == (
        2, "", f"stargtp report: cannot read {missing}: No such file or directory\n")
    for path in (text, other, empty):
        assert cli(["report", str(path)], capsys) == (
            2, "", f"stargtp report: {path} is not a match results file (stargtp match --results writes one)\n")
        assert not path.with_suffix(".html").exists()
