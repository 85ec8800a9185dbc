"""``stargtp play``: the console against a real engine (``stargtp serve``,
seeded, fixed playouts) -- on prompt_toolkit's pipe input, on a real
pseudo-terminal, and in plain line mode -- and its parts: completion, the
terminal pictures, the score report, the raw protocol console."""

import argparse
import asyncio
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import fcntl
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.plain_text import PlainTextOutput

from stargtp.engine.amazons import Position as AmazonsPosition
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.games import find_game, read_record
from stargtp.engine.star import Position, score
from stargtp.engine.y import Position as YPosition
from stargtp.protocol.tools import console
from stargtp.protocol.tools.console.board import board_picture
from stargtp.protocol.tools.console.completion import move_completions
from stargtp.protocol.tools.console.drawing import plain_text
from stargtp.protocol.tools.console.game import HumanGame
from stargtp.protocol.tools.console.game import score_report as star_score_report
from stargtp.protocol.tools.console.raw import RawConsole
from stargtp.engine.star.diagram import compact_star_grid, star_grid
from stargtp.protocol.tools.console.connection import STYLES
from stargtp.protocol.tools.console.star import STYLES as STAR_STYLES
from stargtp.protocol.tools.console.star import choose_star_layout, corner_placement
from stargtp.protocol.tools.console.ui import LineUI, TerminalUI, history_path
from stargtp.protocol.controller import EngineError, GtpController
from tests.star_reference import example_position, load_examples

ROOT = Path(__file__).resolve().parent.parent
ENGINE_OPTIONS = ["--seed", "1", "--playouts", "20", "--player", "flat"]
SERVE = [sys.executable, "-m", "stargtp.protocol.cli", "serve", *ENGINE_OPTIONS]
PLAY = [sys.executable, "-m", "stargtp.protocol.cli", "play"]
TIMEOUT = 60.0  # only to turn a hang into a failure


def arguments(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    console.add_arguments(parser)
    return parser.parse_args(list(argv))


async def until(condition, what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


# -- completion ---------------------------------------------------------------------------


def test_star_completion_offers_the_empty_cells_and_pass():
    position = Position(2)
    labels = list(position.geometry.labels)
    assert move_completions(position, "") == labels + ["pass"]
    assert move_completions(position, "s2") == ["S20", "S21"]
    assert move_completions(position, "*") == ["*10", "*20", "*21"]
    assert move_completions(position, "PA") == ["pass"]
    position.play(position.parse_move("S20"))
    assert move_completions(position, "S2") == ["S21"]
    assert move_completions(position, "S2", WHITE) == ["S21"]
    assert move_completions(position, "x") == []
    position.play(-1)
    position.play(-1)
    assert position.is_over() and move_completions(position, "") == []


def test_amazons_completion_goes_square_by_square():
    position = AmazonsPosition(10)
    moves = position.legal_moves()
    names = position.geometry.names
    assert sorted(move_completions(position, "")) == ["a4-", "d1-", "g1-", "j4-"]
    assert sorted(move_completions(position, "", BLACK)) == ["a7-", "d10-", "g10-", "j7-"]
    d1 = position.geometry.parse_square("d1")
    targets = {names[m[1]] for m in moves if m[0] == d1}
    assert sorted(move_completions(position, "D1-")) == sorted(f"d1-{t}/" for t in targets)
    d7 = position.geometry.parse_square("d7")
    arrows = move_completions(position, "d1-d7/")
    # From d7 with d1 vacated: 2 + 5 along the rank, 2 + 6 along the file, 3 + 2 + 2 + 6 diagonally.
    assert len(arrows) == sum(1 for m in moves if m[:2] == (d1, d7)) == 28
    assert all(position.is_legal(position.parse_move(text)) for text in arrows)
    assert move_completions(position, "d1-d7/g") == ["d1-d7/g4", "d1-d7/g7"]
    assert move_completions(position, "b") == []


def test_human_and_raw_completion_sources():
    game = HumanGame(None, None, game="star", size=2, human=BLACK)
    assert game.completions([], "un") == ["undo"]
    assert game.completions([], "S2") == ["S20", "S21"]
    assert game.completions([], "h") == ["hint", "help"]
    assert game.completions(["hint"], "") == []
    raw = RawConsole(None, None)
    raw.commands = ["boardsize", "game", "genmove", "known_command", "play", "undo"]
    assert raw.completions([], "g") == ["game", "genmove"]
    assert raw.completions(["play"], "w") == ["white"]
    assert raw.completions(["known_command"], "un") == ["undo"]
    assert raw.completions(["game"], "am") == ["amazons"]
    assert raw.completions(["play", "b"], "*1") == []  # no board known yet
    raw.follow(["boardsize", "2"], "")
    assert raw.completions(["play", "b"], "*1") == ["*10"]
    assert raw.completions(["7", "play", "white"], "t2") == ["T20", "T21"]
    assert raw.follow(["play", "b", "*10"], "") and raw.mirror.history == [(BLACK, 0)]
    assert raw.completions(["play", "w"], "*1") == []
    assert raw.follow(["genmove", "w"], "T20") and len(raw.mirror.history) == 2
    assert raw.follow(["undo"], "") and len(raw.mirror.history) == 1
    assert raw.follow(["game", "amazons"], "") and raw.mirror.size == 10
    # A set-up or a record given on the line replaces the board: the mirror
    # cannot follow it, and shows nothing rather than a wrong board.
    for command in (["stargtp-setup", "b", "black", "d1"], ["stargtp-loadsgf-text", "(;GM[18])"]):
        raw.follow(["boardsize", "6"], "")
        assert not raw.follow(command, "") and raw.mirror is None


def test_history_file_location(monkeypatch, tmp_path):
    monkeypatch.setenv("STARGTP_HISTORY", str(tmp_path / "env_history"))
    assert history_path(None) == str(tmp_path / "env_history")
    assert history_path(str(tmp_path / "given")) == str(tmp_path / "given")
    monkeypatch.delenv("STARGTP_HISTORY")
    assert history_path(None) == os.path.expanduser("~/.stargtp_history")


# -- pictures and the score report ------------------------------------------------------------


def test_compact_star_grid_keeps_every_label_whole_and_apart():
    for rings in range(2, 11):
        cells, columns, rows = compact_star_grid(rings)
        assert len(cells) == 5 * rings * (rings + 1) // 2
        occupied: dict[int, list[int]] = {}
        for row, column in cells:
            assert 0 <= row < rows and 0 <= column and column + 3 <= columns
            occupied.setdefault(row, []).append(column)
        assert sorted(occupied) == list(range(rows))  # no blank line inside the board
        for columns_on_row in occupied.values():
            ordered = sorted(columns_on_row)
            assert all(b - a >= 4 for a, b in zip(ordered, ordered[1:]))  # a space between labels
        assert columns <= star_grid(rings, 3)[1] and rows <= star_grid(rings, 3)[2]
    assert compact_star_grid(10)[1:] == (77, 23)  # with the prompt: 80x24


def ten_rings_with_a_hint() -> tuple[Position, int]:
    position = Position(10)
    position.play(position.parse_move("*00"))
    position.play(position.parse_move("T10"))
    return position, position.parse_move("S43")


def test_the_10_ring_board_is_labelled_and_whole_on_an_80x24_terminal():
    """The default board, with its status, fits 80x24 with a row left for the
    prompt: every label is shown, the status goes into the corners."""
    position, hint = ten_rings_with_a_hint()
    assert choose_star_layout(position, 80, 24, hint=hint) == ("compact", True)
    lines = plain_text(board_picture(position, plain=False, columns=80, rows=24, hint=hint)).split("\n")
    assert len(lines) == 23 and max(len(line) for line in lines) <= 80
    board = "\n".join(lines)
    assert "·" not in board
    assert set(re.findall(r"[*STAR]\d\d", board)) == set(position.geometry.labels)
    assert lines[0].startswith("black (red) ") and lines[0].endswith(" white (blue)")
    assert lines[1].startswith("0 stars ") and lines[3].endswith(" 0 quarks")
    assert lines[-3].startswith("hint S43 ")
    assert lines[-2].startswith("score ") and lines[-2].endswith(" last")
    assert lines[-1].startswith("0 ") and lines[-1].endswith(" white T10")


def test_star_layout_follows_the_terminal_size():
    position, hint = ten_rings_with_a_hint()
    assert choose_star_layout(position, 200, None) == ("full", False)  # a transcript: all of it
    assert choose_star_layout(position, 83, 31) == ("full", False)  # 28 rows, 2 of status, the prompt
    assert choose_star_layout(position, 83, 30) == ("full", True)
    assert choose_star_layout(position, 82, 60) == ("compact", False)
    assert choose_star_layout(position, 60, 24)[0] == "dots"
    full = plain_text(board_picture(position, plain=False, columns=83, rows=30)).split("\n")
    assert len(full) == 28 and full[0].startswith("black (red) ")
    assert choose_star_layout(Position(6), 80, 24) == ("full", False)  # 51x17 and the status line


def test_corner_texts_keep_clear_of_the_board_and_of_each_other():
    column = ((0, 10), (1, 10), (2, 10), (3, 10), (4, 10))  # one token a row, columns 10..12 of 0..19
    assert corner_placement(column, 20, 5, 3, {"top-left": ["12345678"], "top-right": ["12345"]}) == [
        (0, 0, "12345678"), (0, 15, "12345")]
    assert corner_placement(column, 20, 5, 3, {"top-left": ["123456789"]}) is None  # touches the board
    assert corner_placement(column, 20, 5, 3, {"top-right": ["123456"]}) is None
    assert corner_placement(column, 20, 5, 3, {"top-left": ["a"] * 3, "bottom-left": ["b"] * 2}) == [
        (0, 0, "a"), (1, 0, "a"), (2, 0, "a"), (3, 0, "b"), (4, 0, "b")]
    assert corner_placement(column, 20, 5, 3, {"top-left": ["a"] * 3, "bottom-left": ["b"] * 3}) is None
    assert corner_placement(column, 20, 5, 3, {"top-right": ["a"] * 6}) is None  # taller than the board


def test_star_grid_never_overlaps_tokens():
    for rings in range(2, 11):
        for width in (1, 3):
            cells, columns, rows = star_grid(rings, width)
            assert len(cells) == 5 * rings * (rings + 1) // 2
            occupied: dict[int, list[int]] = {}
            for row, column in cells:
                assert 0 <= row < rows and 0 <= column and column + width <= columns
                occupied.setdefault(row, []).append(column)
            assert sorted(occupied) == list(range(rows))  # no blank line inside the board
            for columns_on_row in occupied.values():
                ordered = sorted(columns_on_row)
                assert all(b - a > width for a, b in zip(ordered, ordered[1:]))
    assert star_grid(10, 3)[1] <= 84  # a full board fits a wide-ish terminal


@pytest.mark.parametrize("record", load_examples(), ids=lambda r: r["name"])
def test_plain_star_picture_shows_every_stone(record):
    position = example_position(record)
    lines = plain_text(board_picture(position, plain=True)).split("\n")
    legend = lines.index("X black, O white, [O] last move, labels: empty cells")
    text, status = "\n".join(lines[:legend]), " | ".join(lines[legend + 1:])
    assert text.count("X") == len(record["black"].split())
    assert text.count("O") == len(record["white"].split())
    assert "[O]" in text  # the last move
    empty = [label for label in position.geometry.labels if label not in record["black"].split()
             and label not in record["white"].split()]
    assert sorted(re.findall(r"[*STAR]\d\d", text)) == sorted(empty)
    peris = record["peris"].split()
    assert f"black (X): 3 stars, {peris[0]} peris" in status and f"| score {record['result']}" in status


def test_coloured_star_picture_styles():
    position = example_position(load_examples()[0])
    fragments = board_picture(position, plain=False, hint=position.parse_move("*20"))
    styles = {text: style for style, text in fragments}
    assert "class:stone-black" in styles["S10"] and "class:stone-white" in styles["*10"]
    assert "class:last" in styles["R43"] and "class:stone-white" in styles["R43"]
    assert "class:owned-black" in styles["R41"]  # an empty pericell black's star owns
    assert "class:quark" in styles["S40"] and "class:hint" in styles["*20"]
    compact = board_picture(Position(10), plain=False, columns=60)
    assert "S43" not in plain_text(compact) and plain_text(compact).count("·") == 275


def test_amazons_picture():
    position = AmazonsPosition(6)
    position.play(position.parse_move("b1-b4/d4"))
    text = plain_text(board_picture(position, plain=True))
    lines = text.split("\n")
    assert lines[0] == "    a b c d e f"
    assert lines[3] == " 4  . W . x . .  4"
    assert lines[-1] == "black to move, 1 move played | last: white b1-b4/d4"
    hinted = board_picture(position, plain=False, hint=position.parse_move("a5-a4/a3"))
    assert sum(1 for style, _ in hinted if "class:hint" in style) == 3


def test_score_report_of_the_worked_examples():
    first, second = (example_position(record) for record in load_examples())
    assert star_score_report(first) == [
        "score (komi 0): conventional, simplified and Schmittberger",
        "          stars peris quarks quark peri conventional simplified Schmittberger",
        "  black       3    13      3          1           10          2            -1",
        "  white       1     7      2          0           11          3            +1",
        "  black star: 8 peris, 2 quarks: *42 *43 S40 A42 A43 R40 R41 R42",
        "  black star: 3 peris, 1 quark: S42 S43 T40",
        "  black star: 2 peris, 0 quarks: T42 T43",
        "  white star: 7 peris, 2 quarks: *40 *41 S41 T41 A40 A41 R43",
        "  dead (not stars): R20 R31",
        "  result: W+1 (white wins)",
    ]
    report = star_score_report(second, komi=0.5)
    assert report[2:4] == [
        "  black       3    10      2          0           10         -2          -1.5",
        "  white       3    10      3          1         11.5       -0.5          +1.5",
    ]
    assert report[-2:] == ["  dead (not stars): *10 S10 S21 R21, *30, S43", "  result: W+1.5 (white wins)"]


# -- Hex and Y -------------------------------------------------------------------------------


def connection_position(game: str, size: int, moves: str, swap: bool = False):
    position = find_game(game).new_position(size, {"swap": swap} if swap else None)
    for move in moves.split():
        position.play(position.parse_move(move))
    return position


def test_hex_and_y_completion_offers_the_empty_cells_and_the_swap():
    position = connection_position("hex", 3, "b2")
    assert move_completions(position, "") == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]
    assert move_completions(position, "A") == ["a1", "a2", "a3"]
    assert move_completions(position, "s") == []
    swap = connection_position("y", 3, "b2", swap=True)
    assert move_completions(swap, "s") == ["swap-pieces"]
    assert move_completions(swap, "b") == ["b3"]
    swap.play(swap.parse_move("swap-pieces"))
    assert move_completions(swap, "s") == []
    won = connection_position("hex", 2, "a1 b1 a2")
    assert won.is_over() and move_completions(won, "") == []
    assert find_game("hex").new_position(3).legal_moves() and board_for_game("hex").list_moves(position) == (
        "8 empty cells: a1 b1 c1 a2 c2 a3 b3 c3")
    assert board_for_game("y").list_moves(connection_position("y", 2, "a1", swap=True)) == (
        "2 empty cells: a2 b2, or swap-pieces")
    assert [board_for_game(g).heading(s) for g, s in (("hex", 11), ("y", 13))] == [
        "Hex, 11 cells a side", "Y, 13 cells a side"]


def board_for_game(game: str):
    from stargtp.protocol.tools.console.board import BOARDS

    return BOARDS[game]


def test_hex_and_y_plain_boards_exactly():
    """The boards in their true shape, HexGui's coordinates around them
    (Hex: letters above and below, numbers at both ends of every row; Y:
    numbers at both ends, letters below), the last move bracketed, the hint
    a question mark, the status naming each side's edges."""
    hexagon = connection_position("hex", 3, "b2 a1 c1")
    assert plain_text(board_picture(hexagon, plain=True, hint=hexagon.parse_move("a3"))).split("\n") == [
        "   a b c",
        "1  O .(X) 1",
        " 2  . X .  2",
        "  3  ? . .  3",
        "     a b c",
        "black (X) joins north and south | white (O) joins west and east | white to move | last: black c1"
        " | hint: a3"]
    triangle = connection_position("y", 3, "b2 a1")
    assert plain_text(board_picture(triangle, plain=True, columns=60)).split("\n") == [
        "  1 (O) 1",
        " 2  . X  2",
        "3  . . .  3",
        "   a b c",
        "black (X) and white (O) each join west, east and south",
        "black to move | last: white a1"]
    won = connection_position("y", 2, "a1 a2 b2")
    assert plain_text(board_picture(won, plain=True, columns=64)).split("\n")[-1] == (
        "game over: black joined west, east and south | last: black b2")


def test_hex_and_y_coloured_boards_show_whose_edges_are_whose():
    position = connection_position("hex", 3, "b2 a1 c1")
    fragments = board_picture(position, plain=False, hint=position.parse_move("a3"))
    looks: dict[str, set[str]] = {}
    for look, text in fragments:
        looks.setdefault(text.strip(), set()).add(look)
    assert looks["a"] == looks["b"] == looks["c"] == {"class:edge-black"}  # north and south: black's
    assert looks["1"] == looks["2"] == looks["3"] == {"class:edge-white"}  # west and east: white's
    assert looks["X"] == {"class:cell-black", "class:cell-black class:last"}
    assert looks["O"] == {"class:cell-white"} and looks["."] >= {"class:hint", "class:cell-empty"}
    triangle = board_picture(connection_position("y", 4, ""), plain=False)
    assert {look for look, text in triangle if text.strip() in ("a", "b", "1", "4")} == {"class:edge-neutral"}
    won = connection_position("hex", 2, "a1 b1 a2")
    assert sum(1 for look, _ in board_picture(won, plain=False) if "class:winning" in look) == 2
    assert all(look.split(" ")[0].removeprefix("class:") in STYLES | {"info": ""}
               for look, _ in fragments + triangle if look)


@pytest.mark.parametrize("game", ["hex", "y"])
def test_the_largest_hex_and_y_boards_fit_80x24(game):
    """Side 19, a hint and a last move: in colour the board, its status and
    the prompt fit 80x24; in plain text every line fits 80 columns."""
    rng = __import__("random").Random(5)
    position = find_game(game).new_position(19)
    for _ in range(40):
        position.play(rng.choice(position.legal_moves()))
    hint = position.legal_moves()[0]
    coloured = plain_text(board_picture(position, plain=False, columns=80, rows=24, hint=hint)).split("\n")
    assert len(coloured) + 1 <= 24 and max(map(len, coloured)) <= 80
    assert sum(line.count(".") + line.count("X") + line.count("O") for line in coloured[:-2]) >= 190
    plain = plain_text(board_picture(position, plain=True, columns=80, hint=hint)).split("\n")
    assert max(map(len, plain)) <= 80 and "?" in "".join(plain)
    cells = sum(line.count(".") + line.count("X") + line.count("O") + line.count("?") for line in plain[:-2])
    assert cells == position.geometry.cell_count


# -- a game on prompt_toolkit's pipe input ------------------------------------------------------


def test_terminal_game_against_the_engine(tmp_path):
    """Tab completion, a hint, undo, passes to the end, the final score; the
    history file, read back by the next session."""
    history = tmp_path / "history"

    async def play() -> tuple[int, str, HumanGame]:
        engine = await GtpController.start(SERVE, cwd=ROOT)
        holder = {}
        with create_pipe_input() as pipe:
            output = io.StringIO()
            ui = TerminalUI(lambda before, word: holder["game"].completions(before, word), str(history),
                            pt_input=pipe, pt_output=PlainTextOutput(output))
            game = holder["game"] = HumanGame(engine, ui, game="star", size=2, human=BLACK)
            task = asyncio.create_task(game.run())
            buffer = ui.session.default_buffer
            prompting = lambda: ui.session.app.is_running  # noqa: E731

            await until(prompting, "the first prompt")
            pipe.send_text("S2\t")  # two candidates: the menu opens
            await until(lambda: buffer.complete_state is not None, "the completion menu")
            assert [c.text for c in buffer.complete_state.completions] == ["S20", "S21"]
            pipe.send_text("\t")  # the first is chosen
            await until(lambda: buffer.text == "S20", "the completed move")
            pipe.send_text("\r")
            await until(lambda: len(game.position.history) == 2 and prompting(), "the engine's answer")
            assert game.position.history[0] == (BLACK, game.position.parse_move("S20"))
            free = [label for label in ("S20", "S21")
                    if game.position.board[game.position.parse_move(label)] == 0]
            offered = ui.session.completer.get_completions(Document("S2"), CompleteEvent())
            assert [c.text for c in offered] == free

            pipe.send_text("hint\r")
            await until(lambda: "hint: " in output.getvalue() and prompting(), "the hint")
            hinted = output.getvalue().split("hint: ")[-1].split()[0]
            assert game.position.is_legal(game.position.parse_move(hinted))
            pipe.send_text("undo\r")
            await until(lambda: not game.position.history and prompting(), "the undo")

            for _ in range(40):
                if game.is_over():
                    break
                before = len(game.position.history)
                pipe.send_text("pass\r")
                await until(lambda: len(game.position.history) > before and prompting()
                            and (game.is_over() or game.position.to_move == BLACK), "the engine's move")
            assert game.position.is_over()
            await until(lambda: "the engine's final_score" in output.getvalue(), "the final score")
            pipe.send_text("quit\r")
            status = await asyncio.wait_for(task, TIMEOUT)
        await engine.close()
        return status, output.getvalue(), game

    status, text, game = asyncio.run(play())
    assert status == 0
    result = score(game.position)
    for line in star_score_report(game.position):
        assert line in text
    assert f"the engine's final_score: {result.gtp_result()}" in text
    assert "undone" in text and "white (engine) plays" in text
    recorded = [line[1:] for line in history.read_text().splitlines() if line.startswith("+")]
    assert recorded[:3] == ["S20", "hint", "undo"] and recorded[-1] == "quit"
    assert set(recorded[3:-1]) == {"pass"}

    async def recall() -> str | None:
        with create_pipe_input() as pipe:
            ui = TerminalUI(lambda before, word: [], str(history), pt_input=pipe,
                            pt_output=PlainTextOutput(io.StringIO()))
            pipe.send_text("\x1b[A\x1b[A\r")  # up twice: the line before "quit"
            return await ui.read("> ")

    assert asyncio.run(recall()) == "pass"


def test_terminal_raw_console(tmp_path):
    async def session() -> tuple[int, str, RawConsole]:
        engine = await GtpController.start(SERVE, cwd=ROOT)
        holder = {}
        with create_pipe_input() as pipe:
            output = io.StringIO()
            ui = TerminalUI(lambda before, word: holder["raw"].completions(before, word),
                            str(tmp_path / "history"), pt_input=pipe, pt_output=PlainTextOutput(output))
            raw = holder["raw"] = RawConsole(engine, ui)
            task = asyncio.create_task(raw.run())
            prompting = lambda: ui.session.app.is_running  # noqa: E731
            await until(prompting, "the prompt")
            assert raw.game == "star" and raw.mirror is None
            pipe.send_text("boardsize 2\r")
            await until(lambda: raw.mirror is not None and prompting(), "boardsize")
            pipe.send_text("pla\t")
            await until(lambda: ui.session.default_buffer.text == "play", "the command name")
            pipe.send_text(" b *1\t")
            await until(lambda: ui.session.default_buffer.text == "play b *10", "the vertex")
            pipe.send_text("\r")
            await until(lambda: len(raw.mirror.history) == 1 and prompting(), "play")
            pipe.send_text("genmove w\r")
            await until(lambda: len(raw.mirror.history) == 2 and prompting(), "genmove")
            pipe.send_text("undo\r12 known_command undo\rfoo\r")
            await until(lambda: "? unknown command" in output.getvalue() and prompting(), "the answers")
            pipe.send_text("quit\r")
            status = await asyncio.wait_for(task, TIMEOUT)
        await engine.close()
        return status, output.getvalue(), raw

    status, text, raw = asyncio.run(session())
    assert status == 0
    assert len(raw.mirror.history) == 1 and raw.mirror.history[0][0] == BLACK
    assert "=12 true" in text and "? unknown command" in text
    assert "*10" in text and "S21" in text  # the board, drawn after the moves


# -- plain line mode --------------------------------------------------------------------------


def run_console(argv: list[str], script: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(PLAY + argv, input=script, capture_output=True, text=True, cwd=cwd,
                          timeout=TIMEOUT)


def test_plain_line_mode_game():
    script = "S20\nhint\nundo\nhelp\nbogus\nS99\n" + "pass\n" * 20 + "quit\n"
    completed = run_console(["--size", "2", *ENGINE_OPTIONS], script)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "*Star, 2 rings -- you play black; 'help' lists the commands"
    assert "black 1> S20" in lines and "undone" in lines
    assert "unknown command 'bogus' ('help' lists the commands)" in lines
    assert "illegal move: 'S99' is not a cell of the 2-ring board" in lines
    assert any(line.startswith("hint: ") for line in lines)
    # Replay what happened after the undo and check the final report against it.
    position = Position(2)
    for line in lines[lines.index("undone"):]:
        if re.fullmatch(r"black \d+> pass", line):
            position.play(-1, BLACK)
        elif line.startswith("white (engine) plays "):
            position.play(position.parse_move(line.split()[-1]), WHITE)
    assert position.is_over()
    report = star_score_report(position)
    start = lines.index("game over")
    assert lines[start + 1:start + 1 + len(report)] == report
    assert lines[start + 1 + len(report)] == f"  the engine's final_score: {score(position).gtp_result()}"
    assert "game over> pass" in lines and "the game is over: 'undo', 'new' or 'quit'" in lines


def test_plain_line_mode_amazons_as_black():
    completed = run_console(["--game", "amazons", "--size", "6", "--colour", "black", *ENGINE_OPTIONS],
                            "moves\nb6-b5/b4\nb6-b5/b4\nresign\nquit\n")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    engine_move = next(line for line in lines if line.startswith("white (engine) plays "))
    position = AmazonsPosition(6)
    position.play(position.parse_move(engine_move.split()[-1]))
    assert "black 2> moves" in lines
    assert f"{len(position.legal_moves())} legal moves, by amazons on a5 b6 e6 f5; " \
           f"Tab after a square lists its moves" in lines
    assert "black 2> b6-b5/b4" in lines
    assert any(line.startswith("illegal move: no black amazon on b6") for line in lines)
    assert "black resigned: white wins" in lines


def test_plain_game_with_the_swap_rule():
    """--rule swap=on plays the game, the console's and the engine's, with
    the swap rule, and swap-pieces (a move without a digit) is typed as a
    move: after a Y swap the engine's stone turns white and black moves."""
    completed = run_console(["--game", "y", "--size", "4", "--colour", "white", "--rule", "swap=on",
                             *ENGINE_OPTIONS], "swap-pieces\nquit\n")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    first = next(line for line in lines if line.startswith("black (engine) plays ")).split()[-1]
    assert "white 2> swap-pieces" in lines
    after = lines[lines.index("white 2> swap-pieces"):]
    assert not any(line.startswith(("unknown command", "illegal move")) for line in after)
    assert sum(1 for line in lines if line.startswith("black (engine) plays ")) == 2
    position = YPosition(4, swap=True)
    position.play(position.parse_move(first))
    position.play(position.parse_move("swap-pieces"))
    assert position.board[position.parse_move(first)] == WHITE and position.to_move == BLACK
    assert run_console(["--game", "hex", "--rule", "swap=maybe"], "").returncode == 2
    bad = run_console(["--game", "star", "--rule", "swap=on"], "")
    assert bad.returncode == 2 and bad.stderr == "stargtp play: argument --rule: *Star has no option 'swap' (options: none)\n"


def test_plain_game_goes_on_from_a_game_of_a_records_collection(tmp_path):
    """--load a match's SGF collection, --record picks the second game: the
    console and the engine go on from its last position, with its komi."""
    collection = tmp_path / "games.sgf"
    collection.write_text("(;GM[2004]SZ[4];B[S21];W[T30])\n"
                          "(;GM[2004]SZ[3]GN[g2]KM[2.5];B[*30];W[A21];B[R20])\n", encoding="utf-8")
    completed = run_console(["--load", str(collection), "--record", "g2", "--colour", "black",
                             *ENGINE_OPTIONS], "showboard\nquit\n")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("*Star, 3 rings -- you play black")
    engine_move = next(line for line in lines if line.startswith("white (engine) plays "))
    position = Position(3)
    for text, colour in (("*30", BLACK), ("A21", WHITE), ("R20", BLACK)):
        position.play(position.parse_move(text), colour)
    position.play(position.parse_move(engine_move.split()[-1]), WHITE)
    assert "black 5> showboard" in lines
    assert f"score {score(position, 2.5).gtp_result()}" in completed.stdout
    # The first game by number; errors name the option at fault.
    first = run_console(["--load", str(collection), "--record", "1", *ENGINE_OPTIONS], "quit\n")
    assert first.returncode == 0 and first.stdout.startswith("*Star, 4 rings")
    for options, message in (
            (["--record", "3"], "argument --record: " + str(collection) + " holds games 1..2, not 3"),
            (["--record", "x"], "holds no game with the key 'x'"),
            (["--size", "5", "--record", "1"], "argument --size: is 5, but the record's is 4"),
            (["--game", "amazons", "--record", "1"], "argument --game: is amazons, but the record's is star")):
        failed = run_console(["--load", str(collection), *options], "")
        assert failed.returncode == 2 and message in failed.stderr, failed.stderr
    alone = run_console(["--record", "1"], "")
    assert alone.returncode == 2 and "give --load FILE" in alone.stderr
    missing = run_console(["--load", str(tmp_path / "none.sgf")], "")
    assert missing.returncode == 2 and "No such file or directory" in missing.stderr


def test_plain_game_goes_on_from_a_set_up_record(tmp_path):
    """--load a record that starts from a set-up: the engine gets the set-up
    (stargtp-setup), then the record's moves, and the game goes on there."""
    record = tmp_path / "setup.sgf"
    record.write_text("(;GM[2004]SZ[2]AB[*10][S10]AW[T10]PL[W];W[A10])", encoding="utf-8")
    completed = run_console(["--load", str(record), "--colour", "black", *ENGINE_OPTIONS], "R10\nquit\n")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[:7] == [
        "*Star, 2 rings -- you play black; 'help' lists the commands",
        "       *20",
        "   R21  X  *21",
        "R20           S20",
        "   R10      X",
        " A21 [O]  O  S21",
        "   A20 T21 T20"]
    # The engine plays on the same board: never on a set-up stone.
    engine_move = next(line for line in lines if line.startswith("white (engine) plays ")).split()[-1]
    assert engine_move not in ("*10", "S10", "T10", "A10", "R10")
    # 'new' starts from the empty board, for the engine as for the console:
    # S10, a set-up stone of the record, is free again on both.
    again = run_console(["--load", str(record), "--colour", "black", *ENGINE_OPTIONS], "new\nS10\nquit\n")
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    assert "new game" in lines and "black 1> S10" in lines, again.stdout
    assert not [line for line in lines if "illegal" in line or "refused" in line], again.stdout
    assert lines.index("black 1> S10") < next(i for i, line in enumerate(lines) if line.startswith("white (engine) plays "))


def test_plain_raw_console_is_a_protocol_transcript():
    engine = " ".join(SERVE)
    completed = run_console(["--engine", engine],
                            "name\nboardsize 2  # a comment\n\nplay b s10\n7 undo\nundo\nbogus\nquit\nname\n")
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == ("= stargtp\n\n=\n\n=\n\n=7\n\n? cannot undo\n\n? unknown command\n\n=\n\n")


def test_plain_raw_console_over_tcp_with_a_start_size():
    """--connect to a TCP server; --game/--size are sent first, and stdout
    still carries only the answers."""
    server = subprocess.Popen(SERVE + ["--tcp", "127.0.0.1:0"], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        banner = server.stderr.readline()
        port = re.search(r"listening on 127\.0\.0\.1:(\d+)", banner).group(1)
        completed = run_console(["--connect", f"127.0.0.1:{port}", "--game", "amazons", "--size", "6"],
                                "play w b1-b4/d4\nplay w b1-b4/d4\nquit\n")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=TIMEOUT)
    assert completed.returncode == 0, completed.stderr
    # game, boardsize, clear_board; then the move, the same move again, quit.
    assert completed.stdout == "=\n\n=\n\n=\n\n=\n\n? illegal move: no white amazon on b1\n\n=\n\n"


def test_plain_game_against_another_engine_with_vs():
    completed = run_console(["--vs", " ".join(SERVE), "--size", "2", "--colour", "white"], "new\nquit\n")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "*Star, 2 rings -- you play white; 'help' lists the commands"
    assert sum(1 for line in lines if line.startswith("black (engine) plays ")) == 2  # once per game
    assert "white 2> new" in lines and "new game" in lines and "white 2> quit" in lines


def test_command_line_errors():
    both = run_console(["--engine", "x", "--connect", "localhost:1"], "")
    assert both.returncode == 2 and "not both" in both.stderr
    size = run_console(["--size", "1"], "")
    assert size.returncode == 2 and "2..10 rings" in size.stderr
    missing = run_console(["--engine", "/nonexistent/engine"], "")
    assert missing.returncode == 1 and "cannot start engine" in missing.stderr


# -- a real pseudo-terminal -------------------------------------------------------------------------


ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


class Terminal:
    """A child process on a pseudo-terminal: read what it draws, type at it."""

    def __init__(self, argv: list[str], env: dict[str, str], rows: int = 50, columns: int = 140,
                 controlling: bool = False) -> None:
        """``controlling``: the terminal is the child's controlling terminal, so
        that Ctrl-C typed at it is SIGINT (Python's own SIGINT handling restored)."""
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

        def take_terminal() -> None:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # a test runner in the background ignores it
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
                                        start_new_session=True, preexec_fn=take_terminal if controlling else None)
        os.close(slave)
        self.master = master
        self.raw = b""
        self.seen = 0  # how much of the plain text has been matched already

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def expect(self, pattern: str, timeout: float = TIMEOUT) -> re.Match:
        """Wait for ``pattern`` to appear after the previous match."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.text, self.seen)
            if found:
                self.seen = found.end()
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; screen so far:\n{self.text[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], min(remaining, 0.2))
            if ready:
                try:
                    self.raw += os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    raise AssertionError(f"terminal closed waiting for {pattern!r}:\n{self.text[-3000:]}")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def kill(self) -> None:
        """Make sure the child (and the engine it started) is gone."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        if self.master >= 0:
            os.close(self.master)
            self.master = -1

    def close(self) -> int:
        """Wait for the child to exit, still reading: a full terminal buffer would block it."""
        deadline = time.monotonic() + TIMEOUT
        try:
            while self.process.poll() is None and time.monotonic() < deadline:
                ready, _, _ = select.select([self.master], [], [], 0.1)
                if ready:
                    try:
                        self.raw += os.read(self.master, 65536)
                    except OSError:
                        pass
            return self.process.wait(timeout=1)
        finally:
            self.kill()


class SizedOutput(PlainTextOutput):
    """prompt_toolkit's plain output, on a terminal of a given size."""

    def __init__(self, stream: io.StringIO, rows: int, columns: int) -> None:
        super().__init__(stream)
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def test_terminal_game_on_80x24_draws_the_whole_labelled_board(tmp_path):
    """The default 10-ring game on an 80x24 terminal: after the engine's
    answer the board (every label, the status in its corners) and the prompt
    fill the screen and no more."""

    async def play() -> str:
        engine = await GtpController.start(SERVE, cwd=ROOT)
        with create_pipe_input() as pipe:
            output = io.StringIO()
            ui = TerminalUI(lambda before, word: [], str(tmp_path / "history"), pt_input=pipe,
                            pt_output=SizedOutput(output, 24, 80))
            game = HumanGame(engine, ui, game="star", size=None, human=BLACK)
            task = asyncio.create_task(game.run())
            prompting = lambda: ui.session.app.is_running  # noqa: E731
            await until(prompting, "the first prompt")
            pipe.send_text("*00\r")
            await until(lambda: len(game.position.history) == 2 and prompting(), "the engine's answer")
            pipe.send_text("quit\r")
            assert await asyncio.wait_for(task, TIMEOUT) == 0
        await engine.close()
        return output.getvalue().replace("\r", "")

    lines = asyncio.run(play()).split("\n")
    answer = max(index for index, line in enumerate(lines) if line.startswith("white (engine) plays "))
    engine_move = lines[answer].split()[-1]
    board, prompt = lines[answer + 1:answer + 24], lines[answer + 24]
    assert prompt.startswith("black 3>")
    assert max(len(line) for line in board) <= 80
    assert set(re.findall(r"[*STAR]\d\d", "\n".join(board))) == set(Position(10).geometry.labels)
    assert board[0].startswith("black (red) ") and board[-1].endswith(f" white {engine_move}")


def test_game_on_a_pseudo_terminal(tmp_path):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1",
               PROMPT_TOOLKIT_COLOR_DEPTH="DEPTH_24_BIT", STARGTP_HISTORY=str(tmp_path / "history"))
    terminal = Terminal(PLAY + ["--size", "2", *ENGINE_OPTIONS], env)
    try:
        terminal.expect(r"black 1>")
        terminal.type("*1\t")  # one candidate: completed in place
        terminal.expect(r"\*10")
        terminal.type("\r")
        terminal.expect(r"white \(engine\) plays (\S+)")
        terminal.expect(r"black 3>")
        assert "48;2;178;34;34" in terminal.raw.decode()  # black's stones: white on red
        terminal.type("undo\r")
        terminal.expect(r"undone")
        prompt = terminal.expect(r"(black \d+|game over)>")
        for _ in range(40):
            if prompt.group(1) == "game over":
                break
            terminal.type("pass\r")
            prompt = terminal.expect(r"(black \d+|game over)>")
        assert prompt.group(1) == "game over"
        assert re.search(r"result: [BW]\+\d+ \((black|white) wins", terminal.text)
        assert "conventional" in terminal.text and "Schmittberger" in terminal.text
        terminal.type("quit\r")
        assert terminal.close() == 0
    finally:
        terminal.kill()
    recorded = (tmp_path / "history").read_text()
    assert "+*10\n" in recorded and "+undo\n" in recorded and "+quit\n" in recorded


def test_default_game_on_an_80x24_pseudo_terminal(tmp_path):
    """The console reads the real terminal's size: on 80x24 the default board
    is drawn labelled (not one dot per cell), with the status in its corners."""
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1",
               STARGTP_HISTORY=str(tmp_path / "history"))
    terminal = Terminal(PLAY + ENGINE_OPTIONS, env, rows=24, columns=80)
    try:
        terminal.expect(r"black 1>")
        assert "·" not in terminal.text
        assert "black (red)" in terminal.text and "white (blue)" in terminal.text
        for label in ("*00", "S00", "T00", "A00", "R00", "*10"):
            assert label in terminal.text
        terminal.type("*00\r")
        move = terminal.expect(r"white \(engine\) plays (\S+)").group(1)
        terminal.expect(rf"white {re.escape(move)}")  # the last move, in the board's corner
        terminal.expect(r"black 3>")
        terminal.type("quit\r")
        assert terminal.close() == 0
    finally:
        terminal.kill()


# -- every line fits 80 columns ---------------------------------------------------------------


EVERY_BOARD = ([(game.name, size) for game in (find_game("star"), find_game("amazons")) for size in game.sizes]
               + [(game, size) for game in ("hex", "y") for size in (3, find_game(game).default_size, 19)])
"""Every size of the games with a few; Hex and Y (19 sizes each) at 3, their
default and the largest."""


def first_move(game: str, size: int) -> str:
    """The first legal move of an empty board, as the console takes it."""
    position = find_game(game).new_position(size)
    return position.format_move(position.legal_moves()[0])


def script_for(game: str, size: int) -> list[str]:
    """A session that shows every kind of output: the greeting and a board,
    a move and the engine's answer, a hint, the legal moves, the score, help,
    save and its errors (files in the working directory), undo, a resignation
    and the score after it."""
    return [first_move(game, size), "hint", "moves", "score", "help", "save", "save missing/game.sgf",
            f"save {game}{size}.sgf", "board", "undo", "resign", "score", "quit"]


def check_80_columns(text: str, what: str) -> list[str]:
    lines = text.replace("\r", "").split("\n")
    long = [line for line in lines if len(line) > 80]
    assert not long, f"{what}: lines longer than 80 columns:\n" + "\n".join(long)
    return lines


def count_prompts(ui: TerminalUI) -> list[int]:
    """Count the prompts ``ui`` shows (in a list, to watch it change)."""
    count = [0]
    read = ui.read

    async def counting(prompt: str) -> str | None:
        count[0] += 1
        return await read(prompt)

    ui.read = counting
    return count


def test_every_board_fits_80_columns_on_a_terminal(tmp_path, monkeypatch):
    """Terminal mode (prompt_toolkit) at 80x24, every game and size: no line
    of the session is longer than 80 columns, and each board drawn after the
    engine's move fits above the prompt."""

    async def play_all() -> dict[tuple[str, int], str]:
        engine = await GtpController.start(SERVE, cwd=ROOT)
        monkeypatch.chdir(tmp_path)
        outputs = {}
        for game_name, size in EVERY_BOARD:
            with create_pipe_input() as pipe:
                output = io.StringIO()
                ui = TerminalUI(lambda before, word: [], str(tmp_path / "history"), pt_input=pipe,
                                pt_output=SizedOutput(output, 24, 80))
                game = HumanGame(engine, ui, game=game_name, size=size,
                                 human=find_game(game_name).new_position(size).to_move)
                prompts = count_prompts(ui)
                task = asyncio.create_task(game.run())
                for number, line in enumerate(script_for(game_name, size), 1):
                    await until(lambda: (prompts[0] == number and ui.session.app.is_running) or task.done(),
                                f"the prompt for {line}")
                    assert not task.done(), output.getvalue()
                    pipe.send_text(line + "\r")
                assert await asyncio.wait_for(task, TIMEOUT) == 0
            outputs[game_name, size] = output.getvalue()
        await engine.close()
        return outputs

    for (game_name, size), text in asyncio.run(play_all()).items():
        lines = check_80_columns(text, f"{game_name} {size}")
        assert lines[0].endswith("'help' lists the commands, Tab completes")
        assert any(line.startswith("hint: ") for line in lines) and "  result: " not in lines
        answer = next(index for index, line in enumerate(lines) if " (engine) plays " in line)
        prompt = next(index for index in range(answer, len(lines)) if re.match(r"\w+ \d+>", lines[index]))
        assert prompt - answer - 1 <= 23, f"{game_name} {size}: the board does not fit above the prompt"
        assert "save: give a file name: save FILE" in lines
        assert any(line.startswith("save: cannot write ") for line in lines)
        assert (tmp_path / f"{game_name}{size}.sgf").is_file()


def test_every_board_fits_80_columns_in_plain_mode(tmp_path):
    """``--plain`` (line mode), every game and size: no line is longer than 80 columns.
    The 18 consoles are separate processes that write separate files, so two
    run at a time (the test took 25 s one at a time, mostly start-up)."""

    def session(board: tuple[str, int]) -> subprocess.CompletedProcess:
        game_name, size = board
        script = "\n".join(script_for(game_name, size)) + "\n"
        return run_console(["--plain", "--game", game_name, "--size", str(size), *ENGINE_OPTIONS], script,
                           cwd=tmp_path)

    with ThreadPoolExecutor(max_workers=2) as pool:
        sessions = list(pool.map(session, EVERY_BOARD))
    for (game_name, size), completed in zip(EVERY_BOARD, sessions):
        assert completed.returncode == 0, completed.stderr
        lines = check_80_columns(completed.stdout, f"{game_name} {size}")
        assert lines[0].endswith("'help' lists the commands")
        assert "  save FILE  write the game's SGF record to FILE" in lines
        saved = read_record((tmp_path / f"{game_name}{size}.sgf").read_text(encoding="utf-8"))
        assert (saved.game, saved.size, len(saved.history)) == (game_name, size, 2)
        assert "save: give a file name: save FILE" in lines


def test_greeting_and_status_fit_80_columns():
    """The lines that used to wrap: the greeting and the *Star status, on the
    boards of up to 9 rings, in colour and in plain text."""
    for rings in range(2, 11):
        position = Position(rings)
        position.play(position.parse_move("*10"))
        position.play(position.parse_move(position.geometry.labels[-1]))
        for plain in (True, False):
            text = plain_text(board_picture(position, plain=plain, columns=80, rows=None if plain else 24))
            check_80_columns(text, f"{rings} rings, plain={plain}")
            ui = argparse.Namespace(plain=plain, columns=80)
            game = HumanGame(None, ui, game="star", size=rings, human=BLACK)
            assert len(game.greeting()) <= 80


# -- the legend describes what is drawn ----------------------------------------------------


def test_coloured_board_names_each_side_by_its_colour():
    """In colour the labelled board draws stones as labels on red (black) and
    blue (white), never X or O: the status says red and blue. The board of one
    character a cell draws X and O: there the status says X and O."""
    position = example_position(load_examples()[0])
    fragments = board_picture(position, plain=False, columns=200)
    text = plain_text(fragments)
    board = text[:text.index("black (")]
    assert "X" not in board and "O" not in board
    assert "black (red): 3 stars" in text and "white (blue): 1 star" in text
    styles = {piece: look for look, piece in fragments}
    assert "class:stone-black" in styles["S10"] and STAR_STYLES["stone-black"].startswith("bg:#b22222")
    assert "class:stone-white" in styles["*10"] and STAR_STYLES["stone-white"].startswith("bg:#1f4fbf")
    ten, _ = ten_rings_with_a_hint()
    corners = plain_text(board_picture(ten, plain=False, columns=80, rows=24)).split("\n")
    assert corners[0].startswith("black (red) ") and corners[0].endswith(" white (blue)")
    dots = plain_text(board_picture(ten, plain=False, columns=60, rows=None))
    assert "X" in dots and "O" in dots and "black (X): 0 stars" in dots and "white (O): 0 stars" in dots


@pytest.mark.parametrize("record", load_examples(), ids=lambda r: r["name"])
def test_plain_board_has_a_legend_of_every_symbol_drawn(record):
    """Plain text: a legend line under the board names each kind of symbol on
    it and no other: X, O, the last move [O], dead stones x/o once the game is
    over, the hint (?), the labels of the empty cells."""
    position = example_position(record)
    symbols = {"X": "X black", "O": "O white", "[O]": "[O] last move", "(?)": "(?) hint",
               "x": "dead stones", "o": "dead stones"}

    def check(hint=None) -> str:
        lines = plain_text(board_picture(position, plain=True, hint=hint)).split("\n")
        legend_row = next(index for index, line in enumerate(lines) if line.endswith("labels: empty cells"))
        drawn = set(" ".join(lines[:legend_row]).split())
        legend = lines[legend_row]
        for symbol, words in symbols.items():
            assert (symbol in drawn) == (words in legend and (symbol not in "xo" or f"{symbol} " in legend
                                                               or f" {symbol} " in legend)), (symbol, legend)
        return legend

    assert check() == "X black, O white, [O] last move, labels: empty cells"
    empty = next(cell for cell in range(position.geometry.cell_count) if position.board[cell] == 0)
    assert check(hint=empty) == "X black, O white, [O] last move, (?) hint, labels: empty cells"
    while not position.is_over():
        position.play(-1)
    dead = check()
    assert dead.startswith("X black, O white, ") and " dead stones" in dead


# -- save FILE -------------------------------------------------------------------------------


def test_save_writes_the_games_record(tmp_path):
    """``save FILE`` writes the engine's printsgf record: read back, it holds
    the game's moves. A missing name or an unwritable path is one line, and
    the game goes on."""
    script = "S20\nsave\nsave nowhere/game.sgf\nsave game.sgf\nT10\nsave  game two.sgf\nquit\n"
    completed = run_console(["--size", "2", *ENGINE_OPTIONS], script, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert "save: give a file name: save FILE" in lines
    assert "save: cannot write nowhere/game.sgf: No such file or directory" in lines
    assert "saved the game (2 moves) to game.sgf" in lines and "saved the game (4 moves) to game two.sgf" in lines
    assert "black 3> T10" in lines  # the game went on after the errors
    replies = [line.split()[-1] for line in lines if line.startswith("white (engine) plays ")]
    first = read_record((tmp_path / "game.sgf").read_text(encoding="utf-8"))
    assert [(colour, first.format_move(move)) for colour, move in first.history] == [
        (BLACK, "S20"), (WHITE, replies[0])]
    second = read_record((tmp_path / "game two.sgf").read_text(encoding="utf-8"))
    assert [(colour, second.format_move(move)) for colour, move in second.history] == [
        (BLACK, "S20"), (WHITE, replies[0]), (BLACK, "T10"), (WHITE, replies[1])]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game two.sgf", "game.sgf"]


def test_save_without_printsgf_writes_the_consoles_own_record(tmp_path, monkeypatch):
    """An engine that has no printsgf: the console's own record of the game."""

    class NoRecords:
        async def send(self, command: str, timeout: float | None = None) -> str:
            if command == "printsgf":
                raise EngineError(command, "unknown command")
            raise AssertionError(command)

    output = io.StringIO()
    game = HumanGame(NoRecords(), LineUI(io.StringIO(), output), game="amazons", size=6, human=WHITE)
    game.position.play(game.position.parse_move("b1-b4/d4"))
    monkeypatch.chdir(tmp_path)
    asyncio.run(game.command(["save", "own.sgf"], "save own.sgf"))
    assert output.getvalue() == "saved the game (1 move) to own.sgf\n"
    saved = read_record((tmp_path / "own.sgf").read_text(encoding="utf-8"))
    assert saved.game == "amazons" and [saved.format_move(m) for _, m in saved.history] == ["b1-b4/d4"]


# -- Ctrl-C while the engine thinks ------------------------------------------------------------


THINK_LONG = ["--size", "4", "--colour", "white", "--seed", "1", "--seconds", "600"]
"""The engine (black) opens with a search of ten minutes: only an interrupt ends it within the tests' limits."""


def engine_pid(console_pid: int) -> int:
    """The engine the console started: its one child process."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        children = Path(f"/proc/{console_pid}/task/{console_pid}/children").read_text().split()
        if children:
            assert len(children) == 1, children
            return int(children[0])
        time.sleep(0.05)
    raise AssertionError("the console started no engine")


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def console_env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1",
                STARGTP_HISTORY=str(tmp_path / "history"))


@pytest.mark.parametrize("mode", ["plain", "terminal"])
def test_ctrl_c_while_the_engine_thinks_makes_it_move_now(tmp_path, mode):
    """The engine is told to think for 600 s; one Ctrl-C (SIGINT to the
    console in plain mode, the key typed at a real terminal otherwise) and it
    answers its best move so far (well within the 60 s hang limit), the
    console goes on and the game with it."""
    options = ["--plain"] if mode == "plain" else []
    terminal = Terminal(PLAY + options + THINK_LONG, console_env(tmp_path), controlling=True)
    try:
        terminal.expect(r"black \(engine\) is thinking\.\.\.")
        if mode == "plain":
            os.kill(terminal.process.pid, signal.SIGINT)
        else:
            terminal.type("\x03")
        terminal.expect(r"interrupted: the engine moves now \(Ctrl-C again within a second quits\)")
        move = terminal.expect(r"black \(engine\) plays (\S+)").group(1)
        if mode == "terminal":
            terminal.expect(r"white 2>")  # plain mode echoes the prompt with the line it reads
        terminal.type(f"save {tmp_path / 'game.sgf'}\r")
        terminal.expect(r"saved the game \(1 move\)")
        terminal.type("quit\r")
        assert terminal.close() == 0
    finally:
        terminal.kill()
    assert "Traceback" not in terminal.text
    saved = read_record((tmp_path / "game.sgf").read_text(encoding="utf-8"))
    assert [(colour, saved.format_move(m)) for colour, m in saved.history] == [(BLACK, move)]


def test_two_ctrl_c_while_the_engine_thinks_quit(tmp_path):
    """A second SIGINT right after the one that interrupted the engine quits:
    exit status 130, one line on stderr, no traceback, the engine gone."""
    terminal = Terminal(PLAY + ["--plain"] + THINK_LONG, console_env(tmp_path), controlling=True)
    try:
        engine = engine_pid(terminal.process.pid)
        terminal.expect(r"black \(engine\) is thinking\.\.\.")
        os.kill(terminal.process.pid, signal.SIGINT)
        terminal.expect(r"interrupted: the engine moves now")
        os.kill(terminal.process.pid, signal.SIGINT)
        assert terminal.close() == 130
    finally:
        terminal.kill()
    assert "stargtp play: interrupted" in terminal.text and "Traceback" not in terminal.text
    deadline = time.monotonic() + TIMEOUT
    while running(engine) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(engine)
