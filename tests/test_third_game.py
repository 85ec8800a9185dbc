"""The proof that a game has one home: tic-tac-toe (tests/third_game.py), a
game the engine has never heard of, registered at run time with
:func:`stargtp.engine.games.register` and played through everything: the contract of
tests/test_conformance.py, the players and the UCT search, the protocol
server in process, ``stargtp serve`` as a subprocess, and ``stargtp match``.

Nothing outside tests/ changes for this: the game lives in tests/third_game.py
and is registered by the tests (and, for subprocess engines, by
tests/third_game_engine.py); the server hands it to its worker processes.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import GameError
from stargtp.engine.games import find_game, games, new_position, register
from stargtp.engine.players import check_plays, make_player
from stargtp.engine.search import Limits
from stargtp.protocol.pictures import DRAWINGS
from stargtp.protocol.server.session import SessionConfig
from tests import third_game
from tests.gtp_helpers import HANG_SECONDS, REPO, converse, split_responses, subprocess_env
from tests.conformance import check_game, sizes_of
from tests.third_game import NAME, TICTACTOE

ENGINE = REPO / "tests" / "third_game_engine.py"



@pytest.fixture(autouse=True, scope="module")
def registered():
    """The game is registered while this module's tests run, and only then
    (engine.games' own doctest lists exactly the built-in games)."""
    third_game.register()
    yield TICTACTOE
    third_game.unregister()


def play_texts(position, *texts: str) -> None:
    for text in texts:
        position.play(position.parse_move(text))


def gtp(lines: list[str], **config) -> list[str]:
    """Run ``lines`` (given the ids 1, 2, ...) through a fresh in-process
    session playing tic-tac-toe; each response as one string, ``=`` or ``?``
    and its text, without the id and the blank line that ends it."""
    config = SessionConfig(**{"game": NAME, "player": "uct", "seed": 1, "playouts": 200, "workers": 1,
                              **config})
    data = "".join(f"{i} {line}\n" for i, line in enumerate(lines, 1)).encode()
    output, _ = asyncio.run(converse(data, config))
    responses = []
    for i, response in enumerate(split_responses(output), 1):
        text = response.decode()
        head = text[0] + str(i)
        assert text.startswith(head), (i, text)
        responses.append(text[0] + text[len(head):].rstrip("\n"))
    assert len(responses) == len(lines), output
    return responses


# -- the engine ------------------------------------------------------------------------


def test_registered_game_is_found_like_a_built_in_one() -> None:
    assert NAME in games() and find_game(NAME) is TICTACTOE
    position = new_position(NAME, 4)
    assert position.rules is TICTACTOE and position.size == 4 and position.game == NAME
    assert new_position(NAME).size == TICTACTOE.default_size == 3
    with pytest.raises(GameError):
        new_position(NAME, 5)
    with pytest.raises(ValueError, match="already registered"):
        register(TICTACTOE)


@pytest.mark.parametrize("size", sizes_of(TICTACTOE))
def test_the_contract_of_every_game(size: int) -> None:
    """The seeded random games of tests/test_conformance.py, every check."""
    assert check_game(TICTACTOE, size) == {"over"}


def test_descriptor_parts() -> None:
    position = TICTACTOE.new_position()
    report = TICTACTOE.score(position, 0.0)
    with pytest.raises(GameError):
        report.gtp_result()
    assert report.describe(position) == ["not decided yet (the game is not over)"]
    play_texts(position, "a1", "b1", "a2", "b2", "a3")
    report = TICTACTOE.score(position, 6.5)
    assert report.winner == BLACK and report.gtp_result() == "B+1"
    assert report.describe(position) == ["result: B+1 (black has 3 in a row)"]
    assert json.loads(json.dumps(report.to_json(position))) == {"over": True, "winner": "black", "empty": 4}
    draw = TICTACTOE.new_position()
    play_texts(draw, "a1", "b2", "c3", "a2", "c2", "c1", "a3", "b3", "b1")
    assert draw.is_over() and draw.winner() is None and TICTACTOE.score(draw, 0).gtp_result() == "0"
    assert "game over, a draw" in draw.render_text()
    assert TICTACTOE.no_move(draw, 0.0) is None
    hooks = TICTACTOE.tree_hooks(position)
    assert hooks.amaf_width == 0
    set_up = TICTACTOE.from_setup(list(draw.board), WHITE)
    assert set_up.setup() == (tuple(draw.board), WHITE) and set_up.history == []


# -- players and the UCT search ------------------------------------------------------


def test_players_that_play_every_game_play_it() -> None:
    for name in ("auto", "uct", "flat", "random"):
        check_plays(name, NAME)
    with pytest.raises(ValueError, match="cannot play tictactoe"):
        check_plays("amazons-mcts", NAME)
    position = TICTACTOE.new_position()
    for name in ("auto", "uct", "flat", "random"):
        move = make_player(name, seed=1).genmove(position, Limits(playouts=50)).move
        assert position.is_legal(move), name


def test_uct_wins_and_blocks() -> None:
    uct = make_player("uct", seed=1, playouts="200")
    win = TICTACTOE.new_position()
    play_texts(win, "a1", "b2", "b1", "c3")  # Black to move wins on c1
    assert win.format_move(uct.genmove(win, Limits()).move) == "c1"
    block = TICTACTOE.new_position()
    play_texts(block, "a1", "b2", "a2")  # White must take a3
    assert block.format_move(make_player("uct", seed=1, playouts="200").genmove(block, Limits()).move) == "a3"


def test_uct_plays_a_whole_game_against_itself() -> None:
    """Tic-tac-toe played well is a draw; the tree is kept from move to move."""
    players = {BLACK: make_player("uct", seed=1, playouts="400"), WHITE: make_player("uct", seed=2, playouts="400")}
    position = TICTACTOE.new_position()
    while not position.is_over():
        result = players[position.to_move].genmove(position, Limits())
        assert result.move is not None and position.is_legal(result.move)
        position.play(result.move)
    assert position.winner() is None and TICTACTOE.score(position, 0.0).gtp_result() == "0"
    assert players[BLACK].genmove(position, Limits()).move is None  # nothing left: resign


# -- the protocol server, in process --------------------------------------------------


def test_server_plays_and_scores_it_without_searching() -> None:
    answers = gtp([
        "game", "boardsize 5", "boardsize 3", "list_commands", "known_command list_stars",
        "play b b2", "play w B2", "play w pass", "play x a1", "final_score", "perft 2", "showboard",
        "play w a1", "play b c3", "play w a3", "play b a2", "play w c1", "play b b1", "play w b3",
        "play b c2", "showboard", "final_score", "genmove w", "reg_genmove b", "perft 1",
        "undo", "final_score", "list_stars", "printsgf",
        "game star", "game", "game tictactoe", "game", "boardsize 4", "perft 1",
    ])
    listed = answers[3][2:].split("\n")
    assert {"genmove", "play", "final_score", "undo", "perft", "showboard", "game"} <= set(listed)
    assert "list_stars" not in listed and "printsgf" not in listed
    assert answers[:3] == ["= tictactoe", "? unacceptable size", "="]
    assert answers[4:12] == ["= true", "=", "? illegal move: b2 is taken",
                             "? illegal move: not a tic-tac-toe square: 'pass' (expected e.g. b2)",
                             "? syntax error: invalid colour", "? cannot score: the game is not over", "= 56", "=\n3  . . .\n2  . X .\n1  . . .\n   a b c\n"
                             "White (O) to move, 1 move played"]
    assert answers[12:20] == ["="] * 8
    assert answers[20:25] == ["=\n3  O O X\n2  X X X\n1  O X O\n   a b c\n"
                              "White (O) to move, 9 moves played; game over, black wins",
                              "= B+1", "= resign", "= resign", "= 0"]
    assert answers[25:29] == ["=", "? cannot score: the game is not over", "? list_stars is only available for star",
                              "? printsgf is only available for "
                              + ", ".join(name for name in games() if "printsgf" in find_game(name).commands)]
    assert answers[29:] == ["=", "= star", "=", "= tictactoe", "=", "= 16"]


def test_server_genmove_in_process() -> None:
    answers = gtp(["boardsize 3", "play b a1", "play w b2", "play b a2", "genmove w", "showboard",
                   "reg_genmove b", "final_score"])
    assert answers[4] == "= a3"  # the only move that does not lose at once
    assert answers[5].endswith("Black (X) to move, 4 moves played")
    assert answers[6].startswith("= ") and answers[7] == "? cannot score: the game is not over"


def test_server_perft_in_a_worker_in_process() -> None:
    """A perft too big for the event loop runs in a worker process."""
    assert gtp(["boardsize 4", "perft 4"])[1] == f"= {16 * 15 * 14 * 13}"


def test_server_svg_of_a_game_without_a_picture() -> None:
    # A game without a picture does not list stargtp-svg, and is told why.
    answers = gtp(["stargtp-svg", "list_commands"])
    assert answers[0] == f"? stargtp-svg is only available for {', '.join(DRAWINGS)}"
    assert NAME not in DRAWINGS
    assert "stargtp-svg" not in answers[1].split("\n")


# -- stargtp serve and stargtp match, as subprocesses ----------------------------------


def run_engine(lines: list[str], *options: str) -> list[str]:
    """The response texts of ``python tests/third_game_engine.py OPTIONS``."""
    data = "".join(line + "\n" for line in lines).encode()
    result = subprocess.run([sys.executable, str(ENGINE), *options], input=data, capture_output=True,
                            cwd=REPO, env=subprocess_env(), timeout=HANG_SECONDS)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return [response.decode().rstrip("\n") for response in split_responses(result.stdout)]


def test_serve_subprocess_plays_it_with_its_workers() -> None:
    """The engine script registers the game at import, so the forkserver's
    workers, which re-import the main script, know it too."""
    answers = run_engine(["game", "play b a1", "play w b2", "play b a2", "genmove w", "final_score",
                          "boardsize 4", "perft 4", "quit"], "--workers", "2", "--seed", "1", "--playouts", "200")
    # genmove searches in both workers; perft 4 on the empty 4x4 board is too
    # big for the event loop and runs in a worker too.
    assert answers == ["= tictactoe", "=", "=", "=", "= a3", "? cannot score: the game is not over", "=",
                       f"= {16 * 15 * 14 * 13}", "="]


def test_stargtp_match_plays_it(tmp_path) -> None:
    """``stargtp match`` (in process) between two seeded UCT engines (subprocesses)."""
    from stargtp.protocol.cli import main as stargtp

    results = tmp_path / "results.jsonl"
    engine = shlex.join([sys.executable, str(ENGINE), "--workers", "1", "--player", "uct",
                         "--playouts", "{playouts}"])
    status = stargtp(["match", "--game", NAME, "--size", "3", "--games", "4", "--playouts", "60",
                      "--black", f"one={engine} --seed 1", "--white", f"two={engine} --seed 2",
                      "--results", str(results), "--quiet"])
    assert status == 0
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    records = [line for line in lines if line.get("type") == "game"]
    assert lines[0]["type"] == "header" and lines[0]["settings"]["game"] == NAME and len(records) == 4
    for record in records:
        assert record["game"] == NAME and record["fault"] is None, record
        assert record["result"] in ("B+1", "W+1", "0") or record["reason"] == "resign", record
        assert record["score_disagreements"] == [], record
        position = new_position(NAME, 3)
        for move in record["moves"]:
            if move["move"] != "resign":
                position.play(position.parse_move(move["move"]), BLACK if move["colour"] == "black" else WHITE)
        if record["reason"] != "resign":
            assert position.is_over()
            assert TICTACTOE.score(position, 0.0).gtp_result() == record["result"]


def test_console_draws_a_game_without_a_board_of_its_own() -> None:
    from stargtp.protocol.tools.console.board import board_for, board_picture
    from stargtp.protocol.tools.console.drawing import plain_text

    position = new_position(NAME, 3)
    play_texts(position, "b2")
    assert plain_text(board_picture(position, plain=True)) == position.render_text() + "\n"
    assert board_for(position).complete(position, "a") == ["a1", "a2", "a3"]
