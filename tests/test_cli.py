"""The ``stargtp`` command line: ``--version``, the shared option types, and
bad options of ``demo``, ``render``, ``bench`` and ``play``: each is one line
on stderr naming the option, and exit status 2, never a traceback. Every case
here is refused before any game is played, file written or engine started."""

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stargtp.engine.games import games
from stargtp.protocol.cli import (
    OptionError,
    finite_float,
    main,
    nonnegative_int,
    positive_float,
    positive_int,
    report_option_error,
)
from stargtp.protocol.server.commands import engine_version

ROOT = Path(__file__).resolve().parent.parent
GAME_CHOICES = ", ".join(repr(name) for name in games())
"""The games ``--game`` offers, as argparse lists them."""


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``stargtp ARGV`` in this process: exit status, stdout, stderr."""
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own errors, --version
        code = exit_.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- --version and the parser ------------------------------------------------------


def test_version(capsys):
    code, out, err = run_cli(["--version"], capsys)
    assert (code, out, err) == (0, f"stargtp {engine_version()}\n", "")
    assert re.fullmatch(r"stargtp \d+\.\d+\.\d+\S*\n", out)


def test_version_from_the_console_script():
    completed = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "--version"], cwd=ROOT,
                               capture_output=True, text=True, timeout=60)
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, f"stargtp {engine_version()}\n", "")


def test_argparse_errors_are_one_line_naming_the_tool(capsys):
    assert run_cli(["demo", "--size", "5x"], capsys) == (
        2, "", "stargtp demo: argument --size: invalid int value: '5x'\n")
    assert run_cli(["demo", "--bogus", "1"], capsys) == (2, "", "stargtp demo: unrecognized arguments: --bogus 1\n")
    code, out, err = run_cli(["nonsense"], capsys)
    assert code == 2 and err.startswith("stargtp: argument COMMAND: invalid choice: 'nonsense'")
    assert err.count("\n") == 1


def test_a_bad_size_is_no_traceback_from_the_console_script():
    completed = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "demo", "--size", "20"], cwd=ROOT,
                               capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == "stargtp demo: argument --size: a *Star board has 2..10 rings, not 20\n"


# -- the shared option types -------------------------------------------------------------


def test_option_types_accept_good_values():
    assert finite_float("-2.5") == -2.5 and finite_float("0") == 0.0
    assert positive_float("0.5") == 0.5
    assert positive_int("1") == 1 and nonnegative_int("0") == 0


@pytest.mark.parametrize("parse, text, message", [
    (finite_float, "nan", "expected a finite number, not 'nan'"),
    (finite_float, "-inf", "expected a finite number, not '-inf'"),
    (finite_float, "1e999", "expected a finite number, not '1e999'"),
    (finite_float, "5x", "expected a finite number, not '5x'"),
    (positive_float, "0", "expected a finite number > 0, not '0'"),
    (positive_float, "-1", "expected a finite number > 0, not '-1'"),
    (positive_float, "inf", "expected a finite number > 0, not 'inf'"),
    (positive_int, "0", "expected a whole number of at least 1, not '0'"),
    (positive_int, "2.5", "expected a whole number of at least 1, not '2.5'"),
    (nonnegative_int, "-1", "expected a whole number of at least 0, not '-1'"),
])
def test_option_types_say_what_form_they_take(parse, text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=f"^{re.escape(message)}$"):
        parse(text)


def test_option_error_report(capsys):
    assert report_option_error("demo", OptionError("--size", "too big")) == 2
    assert capsys.readouterr().err == "stargtp demo: argument --size: too big\n"


# -- bad options, tool by tool -------------------------------------------------------------


BAD_OPTIONS = [
    # demo
    (["demo", "--size", "20"], "argument --size: a *Star board has 2..10 rings, not 20"),
    (["demo", "--size", "1"], "argument --size: a *Star board has 2..10 rings, not 1"),
    (["demo", "--size", "-3"], "argument --size: a *Star board has 2..10 rings, not -3"),
    (["demo", "--komi", "nan"], "argument --komi: expected a finite number, not 'nan'"),
    (["demo", "--komi", "inf"], "argument --komi: expected a finite number, not 'inf'"),
    (["demo", "--komi=-inf"], "argument --komi: expected a finite number, not '-inf'"),
    (["demo", "--komi", "5x"], "argument --komi: expected a finite number, not '5x'"),
    # bench
    (["bench", "--seconds", "0"], "argument --seconds: expected a finite number > 0, not '0'"),
    (["bench", "--seconds", "-1"], "argument --seconds: expected a finite number > 0, not '-1'"),
    (["bench", "--seconds", "nan"], "argument --seconds: expected a finite number, not 'nan'"),
    (["bench", "--seconds", "inf"], "argument --seconds: expected a finite number, not 'inf'"),
    (["bench", "--runs", "0"], "argument --runs: expected a whole number of at least 1, not '0'"),
    (["bench", "--workers", "-1"], "argument --workers: expected a whole number of at least 1, not '-1'"),
    (["bench", "--size", "11"], "argument --size: a *Star board has 2..10 rings, not 11"),
    (["bench", "--game", "amazons", "--size", "7"], "argument --size: Amazons is played on 6, 8, 10 boards, not 7"),
    (["bench", "--game", "chess"], f"argument --game: invalid choice: 'chess' (choose from {GAME_CHOICES})"),
    (["bench", "--param", "rave"], "argument --param: expected NAME=VALUE, not 'rave'"),
    (["bench", "--param", "nonsense=1"], "argument --param: unknown parameter 'nonsense' for player auto"),
    # render
    (["render", "{tmp}/missing.txt"], "argument RECORD: cannot read {tmp}/missing.txt: No such file or directory"),
    (["render", "{tmp}"], "argument RECORD: cannot read {tmp}: Is a directory"),
    (["render", "{tmp}/game.txt", "--size", "20"], "argument --size: a *Star board has 2..10 rings, not 20"),
    (["render", "{tmp}/game.txt", "--game", "amazons", "--size", "7"],
     "argument --size: Amazons is played on 6, 8, 10 boards, not 7"),
    (["render", "{tmp}/game.txt", "--unit", "0"], "argument --unit: expected a finite number > 0, not '0'"),
    (["render", "{tmp}/game.txt", "--unit", "inf"], "argument --unit: expected a finite number > 0, not 'inf'"),
    (["render", "{tmp}/game.txt", "--unit", "nan"], "argument --unit: expected a finite number > 0, not 'nan'"),
    (["render", "{tmp}/game.txt", "--komi", "nan"], "argument --komi: expected a finite number, not 'nan'"),
    (["render", "{tmp}/game.txt", "--move", "5x"], "argument --move: invalid int value: '5x'"),
    (["render", "{tmp}/game.txt", "--move", "3"], "argument --move: the game has 2 moves, so N is -2..2, not 3"),
    (["render", "{tmp}/game.txt", "--move", "-3"], "argument --move: the game has 2 moves, so N is -2..2, not -3"),
    (["render", "{tmp}/game.txt", "-o", "{tmp}"], "argument -o/--output: {tmp} is a directory, not a file"),
    (["render", "{tmp}/game.txt", "-o", "{tmp}/no/game.svg"],
     "argument -o/--output: cannot create {tmp}/no/game.svg: there is no directory {tmp}/no"),
    (["render", "{tmp}/game.txt", "--series", "{tmp}/game.txt"],
     "argument --series: {tmp}/game.txt exists and is not a directory"),
    (["render", "{tmp}/game.txt", "--series", "{tmp}/game.txt/pictures"],
     "argument --series: cannot create {tmp}/game.txt/pictures: {tmp}/game.txt is not a directory"),
    (["render", "{tmp}/game.txt", "--series", "{tmp}/pictures", "--move", "1"],
     "argument --move: does not combine with --series, which draws every move"),
    (["render", "{tmp}/game.txt", "--series", "{tmp}/pictures", "-o", "{tmp}/game.svg"],
     "argument -o/--output: does not combine with --series, which draws every move"),
    (["render", "{tmp}/game.txt", "--caption", "x", "--no-caption"],
     "argument --caption: does not combine with --no-caption"),
    (["render", "{tmp}/game.txt", "--record", "2"],
     "argument --record: {tmp}/game.txt holds one game, not a match results file or SGF collection"),
    # play
    (["play", "--size", "20"], "argument --size: a *Star board has 2..10 rings, not 20"),
    (["play", "--game", "amazons", "--size", "7"], "argument --size: Amazons is played on 6, 8, 10 boards, not 7"),
    (["play", "--size", "5x"], "argument --size: invalid int value: '5x'"),
    (["play", "--colour", "purple"], "argument --colour/--color: expected black or white (or b, w), not 'purple'"),
    (["play", "--komi", "nan"], "argument --komi: expected a finite number, not 'nan'"),
    (["play", "--komi", "inf"], "argument --komi: expected a finite number, not 'inf'"),
    (["play", "--playouts", "0"], "argument --playouts: expected a whole number of at least 1, not '0'"),
    (["play", "--seconds", "0"], "argument --seconds: expected a finite number > 0, not '0'"),
    (["play", "--seconds", "nan"], "argument --seconds: expected a finite number > 0, not 'nan'"),
    (["play", "--move-timeout", "-1"], "argument --move-timeout: expected a finite number > 0, not '-1'"),
    (["play", "--timeout", "inf"], "argument --timeout: expected a finite number > 0, not 'inf'"),
    (["play", "--player", "best"], "argument --player: invalid choice: 'best'"),
    (["play", "--param", "rave"], "argument --param: expected NAME=VALUE, not 'rave'"),
    (["play", "--param", "nonsense=1"], "argument --param: unknown parameter 'nonsense' for player auto"),
    (["play", "--vs", ""], "argument --vs: empty engine command"),
    (["play", "--engine", " "], "argument --engine: empty engine command"),
    (["play", "--connect", "localhost"], "argument --connect: expected HOST:PORT (a port 1..65535), not 'localhost'"),
    (["play", "--connect", "localhost:0"],
     "argument --connect: expected HOST:PORT (a port 1..65535), not 'localhost:0'"),
    (["play", "--engine", "x", "--connect", "localhost:1"], "argument --engine: give --engine or --connect, not both"),
    (["play", "--engine", "x", "--vs", "y"],
     "argument --vs: plays a game against ENGINE; it does not combine with --engine (the raw console)"),
    (["play", "--history", "{tmp}"], "argument --history: {tmp} is a directory, not a file"),
    (["play", "--history", "{tmp}/no/history"],
     "argument --history: cannot create {tmp}/no/history: there is no directory {tmp}/no"),
]


@pytest.mark.parametrize("argv, line", BAD_OPTIONS, ids=lambda value: " ".join(value) if isinstance(value, list)
                         else None)
def test_bad_options_are_one_line_naming_the_option(tmp_path, capsys, argv, line):
    (tmp_path / "game.txt").write_text("size 2\nS20 *10\n")
    argv = [arg.format(tmp=tmp_path) for arg in argv]
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"stargtp {argv[0]}: {line.format(tmp=tmp_path)}")
    assert not (tmp_path / "pictures").exists() and not (tmp_path / "game.svg").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_render_of_an_unreadable_file(tmp_path, capsys):
    record = tmp_path / "secret.txt"
    record.write_text("S20\n")
    record.chmod(0)
    assert run_cli(["render", str(record)], capsys) == (
        2, "", f"stargtp render: argument RECORD: cannot read {record}: Permission denied\n")


def test_render_of_a_file_that_is_not_text_is_a_bad_record(tmp_path, capsys):
    """Bad input on the command line, as a bad option is: exit status 2."""
    record = tmp_path / "binary"
    record.write_bytes(b"\xff\xfeS20")
    assert run_cli(["render", str(record)], capsys) == (2, "", f"stargtp render: {record} is not UTF-8 text\n")


# -- wording -----------------------------------------------------------------------------------


def test_demo_breakdown_says_1_quark_not_1_quarks(capsys):
    code, out, _ = run_cli(["demo", "--size", "6", "--seed", "1"], capsys)
    assert code == 0
    assert "white star: 3 peris, 1 quark: S64 S65 T60" in out
    assert not re.search(r"\b1 (stars|peris|quarks)\b", out)
    assert re.search(r"\b0 quarks\b|\b[2-9] quarks\b", out)


def test_demo_komi_is_used(capsys):
    code, out, _ = run_cli(["demo", "--size", "4", "--seed", "2", "--komi", "0.5"], capsys)
    assert code == 0 and re.search(r"^result: [BW]\+\d+(\.5)?$", out, re.MULTILINE)
