"""What third-party GTP front ends send and rely on (docs/clients.md).

- Quarry's whole conversation, byte for byte as its source writes it
  (src/gtp/gtp-client.c, src/gui-gtk/gtk-goban-window.c), with each answer
  read the way Quarry reads it; tests/test_quarry.py plays it with the real
  Quarry.
- ``list_games`` / ``set_game``; ``boardsize N N``; colours in every case
  and form for every command that takes one; ``genmove`` once the game is
  over; ``known_command`` against ``list_commands``.
- examples/gtp_session.py, the standard-library client, run as it is, and
  a session through netcat (``nc``) over TCP.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys

import pytest

from stargtp.engine.games import GAME_LIST, new_position
from stargtp.protocol.server.session import SessionConfig
from tests.gtp_helpers import HANG_SECONDS, REPO, converse, run_serve, split_responses, \
    subprocess_env


def talk(lines: list[str], config: SessionConfig = SessionConfig(workers=1, playouts=20, seed=1)
         ) -> list[str]:
    """Send ``lines`` to a fresh in-process session; the responses, as text."""
    data = "".join(line + "\n" for line in lines).encode()
    output, _ = asyncio.run(converse(data, config))
    return [response.decode() for response in split_responses(output)]


# -- Quarry ---------------------------------------------------------------------------

# Quarry's point: a column letter (A..T, I included for the Amazons) and a row
# number; a move: point '-' point, then '-', '/' or 'x', then point, and
# nothing else on the line (amazons_parse_move, parse_generated_move).
QUARRY_POINT = r"[A-Za-z](?:[1-9]|1[0-9]|2[0-5])"
QUARRY_MOVE = re.compile(rf"{QUARRY_POINT}-{QUARRY_POINT}[-/x]{QUARRY_POINT}")


def test_quarry_conversation_byte_for_byte():
    """The commands Quarry 0.2.0 sends for a clocked 10x10 Amazons game in
    which stargtp plays Black (White, a person, opens with D1-D7-G7), with
    its format strings: ``boardsize %d``, ``time_settings %d %d %d``,
    ``time_left %s %d %d``, ``play %s %s``, ``genmove %s`` with colours
    ``black``/``white`` and moves ``A1-B2-C3``."""
    sent = (b"protocol_version\nname\nversion\nlist_commands\nlist_games\n"
            b"set_game Amazons\nboardsize 10\nclear_board\ntime_settings 0 300 10\n"
            b"play white D1-D7-G7\ntime_left black 300 10\ngenmove black\nquit\n")
    output = run_serve(sent, ["--workers", "1", "--playouts", "20", "--seed", "1"])
    responses = [response.decode() for response in split_responses(output)]
    assert len(responses) == 13
    assert responses[:3] == ["= 2\n\n", "= stargtp\n\n", responses[2]]
    # list_commands: one word a line, and both set_game and list_games among them
    # (Quarry sends set_game only to an engine that lists it).
    listed = responses[3][2:].split()
    assert "set_game" in listed and "list_games" in listed
    assert all(" " not in line and line for line in responses[3][2:-2].split("\n"))
    # list_games: one game a line; Quarry looks its own names up in them.
    assert responses[4] == "= " + "\n".join(game.gtp_name for game in GAME_LIST) + "\n\n"  # Star, Amazons, ...
    # set_game, boardsize, clear_board, time_settings, play, time_left: an empty
    # answer is what Quarry checks for (change_client_integer_parameter).
    assert responses[5:11] == ["=\n\n"] * 6
    # genmove: one line that Quarry's Amazons parser reads whole, a legal move.
    answer = responses[11]
    assert answer.startswith("= ") and answer.endswith("\n\n") and answer.count("\n") == 2
    move_text = answer[2:-2]
    assert QUARRY_MOVE.fullmatch(move_text), move_text
    position = new_position("amazons", 10)
    position.play(position.parse_move("D1-D7-G7"), position.to_move)
    assert position.is_legal(position.parse_move(move_text))
    assert responses[12] == "=\n\n"


@pytest.mark.parametrize("text", ["D1-D7-G7", "D1-D7/G7", "D1-D7xG7", "d1-d7-g7", "d1-d7xg7"])
def test_every_amazons_move_form_quarry_knows_is_played(text):
    responses = talk(["set_game Amazons", f"play white {text}", "stargtp-position"])
    assert responses[:2] == ["=\n\n", "=\n\n"]
    assert '"moves":[["white","d1-d7/g7"]]' in responses[2]


def test_quarry_is_never_asked_past_the_end_but_genmove_there_answers_a_word():
    """Quarry stops asking once the side to move has no move (it reads
    ``resign`` as no move at all); a client that asks anyway gets the game's
    word: the Amazons ``resign``, *Star ``pass``, in every colour form."""
    # The 28 moves of a 6x6 game Quarry played between two stargtp engines
    # (tests/test_quarry.py), White first; Black won: White, to move, has none.
    moves = [
        "f2-d4/f6", "e6-e2/c4", "b1-b3/d3", "f5-e5/c5", "d4-f4/d4", "a5-a3/b4", "a2-b2/a2",
        "a3-a4/a3", "b2-d2/d1", "b6-c6/e4", "e1-f2/f1", "e2-e3/e1", "f4-f5/e6", "e3-f3/f4",
        "f2-e2/f2", "f3-e3/f3", "d2-c1/d2", "c6-a6/c6", "c1-b2/a1", "a6-a5/b5", "b2-c1/b1",
        "a5-a6/b6", "c1-b2/c1", "a6-a5/a6", "b2-c2/b2", "e5-d5/e5", "b3-c3/b3", "d5-d6/d5"
    ]
    finished = ["set_game Amazons", "boardsize 6"] + [
        f"play {'white' if i % 2 == 0 else 'black'} {move}" for i, move in enumerate(moves)]
    responses = talk(finished + ["genmove WHITE", "genmove Black", "genmove w", "reg_genmove B",
                                 "stargtp-position"])
    assert responses[:30] == ["=\n\n"] * 30
    assert '"over":true' in responses[-1] and '"to_move":"white"' in responses[-1]
    assert responses[30:34] == ["= resign\n\n"] * 4
    responses = talk(["set_game star", "boardsize 2", "play B pass", "play white pass",
                      "genmove BLACK", "genmove White"])
    assert responses == ["=\n\n"] * 4 + ["= pass\n\n"] * 2


# -- list_games / set_game ----------------------------------------------------------


def test_list_games_names_every_game_and_set_game_takes_each_in_any_case():
    names = [game.gtp_name for game in GAME_LIST]
    assert names[:2] == ["Star", "Amazons"]
    for game in GAME_LIST:
        for spelling in (game.gtp_name, game.gtp_name.upper(), game.gtp_name.lower()):
            responses = talk(["list_games", f"set_game {spelling}", "game", "query_boardsize"])
            assert responses == ["= " + "\n".join(names) + "\n\n", "=\n\n", f"= {game.name}\n\n",
                                 f"= {game.default_size}\n\n"]


def test_set_game_of_a_game_we_do_not_play_is_an_error_and_changes_nothing():
    responses = talk(["set_game Amazons", "boardsize 6", "play w b1-b4/b5", "set_game Go",
                      "set_game", "set_game Amazons Star", "game", "query_boardsize",
                      "stargtp-position"])
    assert responses[3:8] == [
        f"? unknown game Go (known: {', '.join(game.gtp_name for game in GAME_LIST)})\n\n",
        "? syntax error: expected 1 argument\n\n",
        "? syntax error: expected 1 argument\n\n",
        "= amazons\n\n", "= 6\n\n"]
    assert '"moves":[["white","b1-b4/b5"]]' in responses[8]


def test_set_game_refuses_a_game_the_player_cannot_play():
    responses = talk(["set_game Star", "game"], SessionConfig(workers=1, player="amazons-mcts",
                                                              game="amazons"))
    assert responses[0].startswith("? player amazons-mcts cannot play star")
    assert responses[1] == "= amazons\n\n"


# -- boardsize N N ------------------------------------------------------------------


def test_boardsize_with_two_equal_numbers_is_boardsize_n():
    assert talk(["boardsize 6 6", "query_boardsize", "set_game Amazons", "boardsize 8 08",
                 "query_boardsize"]) == ["=\n\n", "= 6\n\n", "=\n\n", "=\n\n", "= 8\n\n"]


@pytest.mark.parametrize("args, error", [
    ("6 8", "unacceptable size: boards are square"),
    ("8 6", "unacceptable size: boards are square"),
    ("6 x", "syntax error: expected an integer"),
    ("x 6", "syntax error: expected an integer"),
    ("11 11", "unacceptable size"),
    ("6 6 6", "syntax error: expected 1 or 2 arguments"),
    ("6 " + "9" * 5000, "unacceptable size"),
])
def test_boardsize_two_numbers_errors_change_nothing(args, error):
    responses = talk(["boardsize 4", "play b *41", f"boardsize {args}", "query_boardsize",
                      "stargtp-position"])
    assert responses[2] == f"? {error}\n\n"
    assert responses[3] == "= 4\n\n"
    assert '"moves":[["black","*41"]]' in responses[4]


# -- colours --------------------------------------------------------------------------

COLOUR_FORMS = ["B", "b", "black", "Black", "BLACK", "W", "w", "white", "White", "WHITE"]

# Every command that takes a colour, with the rest of its arguments, in a
# 6x6 Amazons game where both sides can move (the *Star-only list_stars
# has its own case below).
COLOUR_COMMANDS = {
    "play": "{c} {move}",
    "genmove": "{c}",
    "reg_genmove": "{c}",
    "time_left": "{c} 30 0",
    "is_legal": "{c} {move}",
    "all_legal": "{c}",
    "lz-analyze": "{c} 100",
    "kata-analyze": "{c} 100",
    "genmove_analyze": "{c} 100",
    "kata-genmove_analyze": "{c} 100",
}


@pytest.mark.parametrize("form", COLOUR_FORMS)
@pytest.mark.parametrize("command", sorted(COLOUR_COMMANDS))
def test_every_command_that_takes_a_colour_takes_every_form(command, form):
    white = form.lower().startswith("w")
    move = "b1-b4/b5" if white else "b6-b3/b2"
    args = COLOUR_COMMANDS[command].format(c=form, move=move)
    lines = ["set_game Amazons", "boardsize 6", f"{command} {args}"]
    if command in ("lz-analyze", "kata-analyze"):
        lines.append("name")  # any command stops the analysis
    responses = talk(lines, SessionConfig(workers=1, playouts=5, seed=1))
    assert responses[:2] == ["=\n\n", "=\n\n"]
    assert responses[2].startswith("="), responses[2]
    if command == "play":
        colour = "white" if white else "black"
        assert f'"moves":[["{colour}","{move}"]]' in talk(lines + ["stargtp-position"])[3]
    if command == "is_legal":
        assert responses[2] == "= 1\n\n"


@pytest.mark.parametrize("form", COLOUR_FORMS)
def test_list_stars_takes_every_colour_form(form):
    responses = talk(["boardsize 4", "play b *41", "play b *30", "play b R43", "play w T40",
                      "play w T41", f"list_stars {form}"])
    assert responses[-1] == ("= white 2 1 T40 T41\n\n" if form.lower().startswith("w")
                             else "= black 3 1 *40 *41 R43\n\n")


# -- known_command and list_commands ------------------------------------------------


def test_known_command_and_list_commands_agree_in_every_game():
    """Each command list_commands shows (in any game) is known; each known
    command is listed in at least one game; set_game and list_games in all."""
    listed_anywhere: set[str] = set()
    for game in GAME_LIST[:2]:
        listed = talk([f"game {game.name}", "list_commands"])[1][2:].split()
        assert {"list_games", "set_game", "game"} <= set(listed)
        listed_anywhere |= set(listed)
        answers = talk([f"known_command {name}" for name in listed])
        assert answers == ["= true\n\n"] * len(listed)
    from stargtp.protocol.server.commands import COMMANDS

    every = [name for name, _ in COMMANDS]
    assert set(every) == listed_anywhere
    assert talk([f"known_command {name}" for name in every]) == ["= true\n\n"] * len(every)
    assert talk(["known_command Set_game", "known_command list_game"]) == ["= false\n\n"] * 2


# -- examples/gtp_session.py ----------------------------------------------------------


def test_the_standard_library_example_session_runs():
    done = subprocess.run([sys.executable, str(REPO / "examples" / "gtp_session.py")],
                          capture_output=True, text=True, timeout=HANG_SECONDS * 5,
                          env=subprocess_env(), cwd=REPO)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == ["> 1 protocol_version", "< =1 2", "> 2 name", "< =2 stargtp"]
    assert "< =11 B+1" in lines and "< =13 W+1.5" in lines
    genmove = lines.index("> 14 genmove w")
    assert re.fullmatch(r"< =14 ([A-Z]\d+|\*\d+|pass)", lines[genmove + 1])
    assert lines[-4:] == ["> 15 play w S99", "< ?15 illegal move: 'S99' is not a cell of the 4-ring board",
                          "> 16 quit", "< =16"]


# -- netcat ---------------------------------------------------------------------------

NETCAT = shutil.which("nc")


def test_netcat_session_over_tcp():
    """The docs/clients.md recipe: ``printf ... | nc -N 127.0.0.1 PORT`` with
    Debian's netcat-openbsd (``-N``: shut the socket's sending side at the end
    of input); every answer comes back, then the connection ends. Skipped
    without nc unless STARGTP_REQUIRE_NETCAT=1 (as in .ci/run)."""
    if NETCAT is None:
        if os.environ.get("STARGTP_REQUIRE_NETCAT") == "1":
            pytest.fail("STARGTP_REQUIRE_NETCAT=1 but nc is not installed", pytrace=False)
        pytest.skip("needs nc (apt-get install netcat-openbsd)")
    from tests.test_tcp import serve_process

    lines = (b"1 set_game Amazons\n2 boardsize 6 6\n3 play White b1-b4-b5\n4 genmove BLACK\n"
             b"5 stargtp-position\n6 quit\n")
    with serve_process("--workers", "1", "--playouts", "20", "--seed", "1") as (_, port):
        done = subprocess.run([NETCAT, "-N", "127.0.0.1", str(port)], input=lines,
                              capture_output=True, timeout=HANG_SECONDS)
    assert done.returncode == 0, done.stderr
    responses = split_responses(done.stdout)
    assert responses[:3] == [b"=1\n\n", b"=2\n\n", b"=3\n\n"]
    move = re.fullmatch(rb"=4 ([a-f][1-6]-[a-f][1-6]/[a-f][1-6])\n\n", responses[3]).group(1)
    assert b'["black","' + move + b'"]' in responses[4]
    assert responses[5] == b"=6\n\n" and len(responses) == 6
