"""Hex and Y over the protocol, and what HexGui needs (docs/clients.md): the
analyze menu in HexGui's format, ownership of every cell in board order,
genmove resigning a lost game by the game's default, the swap rule as a
session rule (stargtp-rules, --rule) that the search workers play with, SGF
records through printsgf/loadsgf, and a showboard that fits 80 columns.
HexGui's exact attach and game sequences are the golden transcripts
tests/transcripts/hexgui_*.gtp."""

from __future__ import annotations

import asyncio
import re
import subprocess
from dataclasses import replace

import pytest

from stargtp.engine.games import find_game, games
from stargtp.engine.search.uct import UctPlayer
from stargtp.protocol.server.session import SessionConfig
from stargtp.protocol.server.state import GtpState
from tests.gtp_helpers import (HANG_SECONDS, REPO, config_for, converse, serve_command, split_responses,
                               subprocess_env)

HEXGUI_TYPES = {"bwboard", "cboard", "dboard", "eplist", "gfx", "group", "hstring", "hpstring", "inferior",
                "move", "param", "plist", "pspairs", "pstring", "string", "sboard", "var", "varb", "varc",
                "varp", "varpo", "varw", "vc"}
"""The types hexgui/htp/AnalyzeDefinition.java knows (any other is NONE)."""


def talk(config: SessionConfig, *lines: str) -> list[str]:
    """Each line's response, without the blank line that ends it."""
    data = "".join(line + "\n" for line in lines).encode()
    output, _ = asyncio.run(converse(data, config))
    return [response.decode()[:-2] for response in split_responses(output)]


def config(game: str, **fields) -> SessionConfig:
    return SessionConfig(**{"game": game, "seed": 1, "workers": 1, "player": "uct", "playouts": 200,
                            **fields})


# -- hexgui-analyze_commands ---------------------------------------------------------------


@pytest.mark.parametrize("game", games())
def test_hexgui_menu_parses_as_hexgui_reads_it_and_names_only_commands_of_the_game(game):
    menu, commands = talk(config(game), "hexgui-analyze_commands", "list_commands")
    assert menu.startswith("= ")
    lines = menu[2:].split("\n")
    known = set(commands[2:].split("\n"))
    labels = []
    for line in lines:
        parts = line.split("/")  # AnalyzeDefinition.readConfig: 3 to 5 fields
        assert 3 <= len(parts) <= 5 and parts[0] in HEXGUI_TYPES, line
        labels.append(parts[1])
        assert parts[2].split()[0] in known, line
        # HexGui fills in only these wildcards: %m (b/w to move), %p (a cell).
        assert set(word for word in parts[2].split() if word.startswith("%")) <= {"%m", "%p"}
    assert len(set(labels)) == len(labels)  # HexGui drops a repeated label
    has_records = find_game(game).write_record is not None
    assert ("string/SGF record/printsgf" in lines) == has_records
    assert "plist/Legal moves/all_legal %m" in lines and "string/Rules/stargtp-rules" in lines


def test_hexgui_menu_commands_answer_as_hexgui_sends_them():
    # %m -> b, %p -> a selected cell (AnalyzeCommand.replaceWildCards).
    answers = talk(config("hex"), "boardsize 3 3", "play b b2", "all_legal w", "is_legal w b2", "final_score",
                   "stargtp-rules")
    assert answers == ["=", "=", "= a1 b1 c1 a2 c2 a3 b3 c3", "= 0",
                       "? cannot score: no side has joined its edges", "= swap off"]


# -- ownership ----------------------------------------------------------------------------


def ownership_of(report: str) -> list[float]:
    head, _, values = report.partition(" ownership ")
    assert head.startswith("info move ")
    return [float(value) for value in values.split()]


@pytest.mark.parametrize("command", ["kata-analyze", "lz-analyze"])
@pytest.mark.parametrize("game, size, black, white", [("hex", 4, "a1 b2 d4", "c1 a3"),
                                                      ("y", 5, "a1 c4 b5", "b2 e5 a4")])
def test_analysis_reports_ownership_of_every_cell_in_board_order(command, game, size, black, white):
    lines = [f"boardsize {size} {size}"]
    for b, w in zip(black.split(), white.split() + [""]):
        lines.append(f"play b {b}")
        if w:
            lines.append(f"play w {w}")
    colour = "w" if len(black.split()) > len(white.split()) else "b"
    answers = talk(config(game), *lines, f"{command} {colour} 1", "name")
    assert answers[-1] == "= stargtp"
    report = answers[-2].split("\n")
    assert report[0] == "=" and len(report) == 2  # one report: the next line stopped the stream
    owned = ownership_of(report[1])
    position = find_game(game).new_position(size)
    labels = [position.format_move(cell) for cell in range(position.geometry.cell_count)]
    assert len(owned) == len(labels) == (size * size if game == "hex" else size * (size + 1) // 2)
    sign = 1 if colour == "b" else -1  # from the side analysed
    for label, value in zip(labels, owned):
        if label in black.split():
            assert value == sign * 1.0, label  # black's in every playout
        elif label in white.split():
            assert value == -sign * 1.0, label
        else:
            assert -1 <= value <= 1


def test_analysis_of_a_finished_game_has_no_search_and_no_ownership():
    answers = talk(config("hex"), "boardsize 1 1", "play b a1", "kata-analyze w 1", "name")
    assert answers[2] == "=\ninfo move pass visits 0 utility -1 winrate 0 scoreMean -1 scoreLead -1 prior 0 lcb 0" \
                         " order 0 pv pass"


# -- resigning --------------------------------------------------------------------------

LOST_FOR_BLACK = ("boardsize 4 4", "play b a1", "play w d1", "play b b1", "play w b2", "play b c1", "play w c2")
"""Black to move on 4x4 and lost: white's b2 c2 d1 reach the east edge and
both a2 and a3 join them to the west; black can block only one."""


def test_genmove_resigns_a_lost_hex_game_by_the_games_default_threshold():
    answers = talk(config("hex", playouts=1000), *LOST_FOR_BLACK, "stargtp-param resign",
                   "stargtp-param resign_moves 1", "genmove b", "stargtp-param resign 0", "genmove b")
    assert answers[-5:-1] == ["= game", "=", "= resign", "="]
    assert re.fullmatch(r"= [a-d][1-4]", answers[-1])  # with resigning off: a move of the 4x4 board


def test_the_resign_default_comes_from_the_game_and_only_real_searches_count():
    hex_game, star = find_game("hex"), find_game("star")
    assert hex_game.resign_below == 0.05
    assert all(find_game(name).resign_below is None for name in ("star", "amazons"))
    player = UctPlayer(resign_moves="1")
    assert player.params()["resign"] == "game"
    assert player._should_resign(hex_game.new_position(3), 0.04)
    assert not player._should_resign(hex_game.new_position(3), 0.06)
    assert not player._should_resign(star.new_position(3), 0.0)  # *Star never resigns by default
    player.set_param("resign", "0.5")
    assert player._should_resign(star.new_position(3), 0.4)
    with pytest.raises(ValueError):
        player.set_param("resign", "1.5")
    # A search of fewer than 100 playouts is no ground to resign on.
    answers = talk(config("hex", playouts=99), *LOST_FOR_BLACK, "stargtp-param resign_moves 1", "genmove b")
    assert re.fullmatch(r"= [a-d][1-4]", answers[-1])  # a move, not resign


def test_genmove_resigns_once_the_game_is_over():
    for game in ("hex", "y"):
        answers = talk(config(game), "boardsize 1 1", "play w a1", "genmove b", "genmove w", "final_score")
        assert answers[2:] == ["= resign", "= resign", "= W+"]


# -- the swap rule as a session rule ---------------------------------------------------------


def test_rules_survive_clear_board_and_boardsize_and_reach_the_workers():
    state = GtpState("hex", 5, {"swap": True})
    state.position.play(state.position.parse_move("c2"))
    state.position.play(state.position.parse_move("swap-pieces"))
    assert state.snapshot().options == (("swap", True),)
    state.new_game(size=7)
    assert state.position.swap and state.position.size == 7
    state.new_game("star")
    assert state.snapshot().options == ()
    state.new_game("y")
    assert state.position.swap
    # The worker plays the swap: genmove after it is a real search.
    answers = talk(config("hex", rules=(("swap", True),), playouts=50), "boardsize 5 5", "play b c2",
                   "play w swap-pieces", "genmove w")
    assert answers[:3] == ["=", "=", "="] and answers[3].startswith("= ") and answers[3] != "= resign"
    assert answers[3][2:] not in ("c2", "swap-pieces")


def test_rule_options_on_the_command_line():
    assert config_for(["--game", "hex", "--rule", "swap=on"]).rules == (("swap", True),)
    assert config_for(["--game", "y", "--rule", "swap=off", "--rule", "swap=yes"]).rules == (("swap", True),)
    for options, message in ((["--game", "star", "--rule", "swap=on"], r"\*Star has no option 'swap'"),
                             (["--game", "hex", "--rule", "swap=maybe"], "option swap is on or off"),
                             (["--game", "hex", "--rule", "swap"], "--rule wants NAME=VALUE")):
        with pytest.raises(ValueError, match=message):
            config_for(options)
    done = subprocess.run(serve_command("--game", "star", "--rule", "swap=on"), cwd=REPO, env=subprocess_env(),
                          input=b"", capture_output=True, timeout=HANG_SECONDS)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().strip().splitlines() == [
        "stargtp serve: *Star has no option 'swap' (options: none)"]


def gui_config_for(options: list[str]) -> SessionConfig:
    """The SessionConfig that ``stargtp gui OPTIONS`` would use."""
    import argparse

    from stargtp.protocol.gui import cli as gui_cli
    from stargtp.protocol.server.serve import engine_config_from_args

    parser = argparse.ArgumentParser()
    gui_cli.add_arguments(parser)
    return engine_config_from_args(parser.parse_args(options), any_game_rules=True)


def test_gui_takes_a_rule_any_game_has_and_plays_it_where_the_game_has_it():
    # serve stays strict against its --game (above); the page switches games, so
    # gui takes a rule that some registered game has, whatever its --game.
    gui_command = [*serve_command()[:-1], "gui", "--port", "0"]  # stargtp gui
    # swap=on passes (the option checked after it, a bad --workers, answers) and komi=on does not:
    for rule, line in (("swap=on", "--workers must be at least 1"),
                       ("komi=on", "no game has the rule 'komi' (rules: swap)")):
        done = subprocess.run([*gui_command, "--rule", rule, "--workers", "0"], cwd=REPO, env=subprocess_env(),
                              input=b"", capture_output=True, timeout=HANG_SECONDS)
        assert (done.returncode, done.stdout) == (2, b"")
        assert done.stderr.decode().strip().splitlines() == [f"stargtp gui: {line}"]
    gui = gui_config_for(["--rule", "swap=on"])
    assert gui.game == "star" and gui.rules == (("swap", True),)
    answers = talk(replace(config("star"), rules=gui.rules), "stargtp-rules", "game hex", "stargtp-rules",
                   "game y", "stargtp-rules swap", "game amazons", "stargtp-rules")
    assert answers == ["=", "=", "= swap on", "=", "= on", "=", "="]
    for options, message in ((["--rule", "komi=on"], "no game has the rule 'komi' (rules: swap)"),
                             (["--rule", "swap=maybe"], "option swap is on or off, not 'maybe'"),
                             (["--rule", "swap"], "--rule wants NAME=VALUE, not 'swap'")):
        with pytest.raises(ValueError) as refused:
            gui_config_for(options)
        assert str(refused.value) == message



def test_star_and_amazons_have_no_rules():
    for game in ("star", "amazons"):
        answers = talk(config(game), "stargtp-rules", "stargtp-rules swap", "stargtp-rules swap on")
        title = find_game(game).title
        assert answers == ["=", f"? unknown rule swap ({title} rules: none)",
                           f"? unknown rule swap ({title} rules: none)"]


# -- records --------------------------------------------------------------------------------


@pytest.mark.parametrize("game, moves", [("hex", ["c2", "swap-pieces", "b4", "d1"]),
                                         ("y", ["b3", "swap-pieces", "a5", "c4"])])
def test_printsgf_and_loadsgf_round_trip_through_the_protocol(tmp_path, game, moves):
    lines = [f"boardsize 5 5"] + [f"play {'bw'[i % 2]} {move}" for i, move in enumerate(moves)]
    if game == "hex":  # after a Hex swap the same colour moves again
        lines = lines[:3] + ["play w b4", "play b d1"]
    answers = talk(config(game, rules=(("swap", True),)), *lines, "printsgf", "showboard")
    record, board = answers[-2][2:], answers[-1]
    assert all(answer == "=" for answer in answers[:-2])
    path = tmp_path / "game.sgf"
    path.write_text(record + "\n")
    other = "y" if game == "hex" else "hex"  # the record says which game it is
    loaded = talk(config(other), f"loadsgf {path}", "game", "printsgf", "showboard", "stargtp-rules",
                  "stargtp-loadsgf-text " + record.replace("\n", ""), "printsgf", "loadsgf " + str(path) + " 3",
                  "showboard")
    assert loaded[:5] == ["=", f"= {game}", "= " + record, board, "= swap on"]
    assert loaded[5:7] == ["=", "= " + record]
    assert loaded[7] == "="
    assert loaded[8].split("\n")[-1].startswith("to move:") and "moves: 2" in loaded[8]


# -- showboard ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["hex", "y"])
def test_showboard_at_19_fits_80_columns(game):
    answers = talk(config(game), "boardsize 19 19", "play b a19", "play w s19" if game == "y" else "play w s1",
                   "showboard")
    lines = answers[-1].split("\n")
    assert lines[0] == "=" and len(lines) == 1 + 20 + 1
    assert max(len(line) for line in lines) <= 80
    assert "(O)" in answers[-1] and "X" in answers[-1]
