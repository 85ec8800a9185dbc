"""Every registered game through every tool, as a user reaches it: the server
over stdin, TCP and HTTP, the match runner, the console and ``render``.

Nothing here names a game: the cases come from the registry
(:data:`stargtp.engine.games.BUILT_IN`), so a new game is covered the moment
it is registered. Each game is played on a small board of its own sizes with
a seeded, fixed-playout engine, so the answers are exact:

* one script of commands (the game, its size, moves from ``genmove``, the
  score, the record, the pictures) gets the same bytes over stdin, over TCP
  and over the HTTP bridge, and every answer is a success;
* ``stargtp match`` plays whole games to their end, and each game's moves,
  replayed through the game's own position, end the game with the result
  the referee recorded;
* the console plays a typed legal move and draws the board;
* ``render`` draws the record the server wrote.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from stargtp.engine.colour import colour_name, opponent
from stargtp.engine.games import BUILT_IN
from tests.gtp_helpers import HANG_SECONDS, REPO, serve_command, split_responses, subprocess_env, terminate

GAMES = [game.name for game in BUILT_IN]
SERVER = ["--seed", "5", "--workers", "1", "--playouts", "60"]
PLIES = 6


def small_size(name: str) -> int:
    """The game's smallest board with at least 12 moves to choose from at the
    start, so that no game can end within the script's few moves."""
    game = next(game for game in BUILT_IN if game.name == name)
    return next(size for size in sorted(game.sizes) if len(game.new_position(size).legal_moves()) >= 12)


def script(name: str) -> str:
    lines = [f"game {name}", f"boardsize {small_size(name)}", "clear_board"]
    colours = ["b", "w"] if next(g for g in BUILT_IN if g.name == name).new_position(
        small_size(name)).to_move == 1 else ["w", "b"]
    lines += [f"genmove {colours[i % 2]}" for i in range(PLIES)]
    lines += ["showboard", "stargtp-position", "stargtp-svg", "printsgf", "undo", "all_legal "
              + colours[(PLIES - 1) % 2]]
    return "\n".join(lines) + "\n"


def answers(output: bytes) -> list[bytes]:
    responses = split_responses(output)
    for response in responses:
        assert response.startswith(b"="), response
    return responses


def over_stdin(name: str) -> bytes:
    completed = subprocess.run(serve_command(*SERVER), input=script(name).encode(), capture_output=True,
                               cwd=REPO, env=subprocess_env(), timeout=HANG_SECONDS * 5)
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")
    return completed.stdout


def started(argv: list[str], pattern: str) -> tuple[subprocess.Popen[bytes], str]:
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=REPO, env=subprocess_env())
    line = process.stderr.readline().decode()
    found = re.search(pattern, line)
    if not found:
        process.kill()
        raise AssertionError(f"no address in {line!r}: {process.communicate()[1]!r}")
    return process, found.group(1)


def over_tcp(name: str) -> bytes:
    process, port = started(serve_command("--tcp", "127.0.0.1:0", *SERVER), r"listening on 127\.0\.0\.1:(\d+)")
    try:
        wanted = script(name).count("\n")
        with socket.create_connection(("127.0.0.1", int(port)), timeout=HANG_SECONDS * 5) as connection:
            connection.sendall(script(name).encode())
            data = b""
            while data.count(b"\n\n") < wanted:
                chunk = connection.recv(1 << 20)
                assert chunk, "the server closed the connection early"
                data += chunk
        return data
    finally:
        terminate(process)


def over_http(name: str) -> bytes:
    argv = [sys.executable, "-m", "stargtp.protocol.cli", "gui", "--port", "0", *SERVER]
    process, base = started(argv, r"stargtp: gui at (http://127\.0\.0\.1:\d+)/")
    try:
        def post(path: str, body: str) -> bytes:
            request = urllib.request.Request(base + path, data=body.encode(), method="POST")
            with urllib.request.urlopen(request, timeout=HANG_SECONDS * 5) as answer:
                return answer.read()

        token = json.loads(post("/session", ""))["session"]
        return post(f"/gtp?session={token}", script(name))
    finally:
        terminate(process)


@pytest.mark.parametrize("name", GAMES)
def test_one_script_answers_the_same_over_stdin_tcp_and_http(name: str) -> None:
    expected = over_stdin(name)
    responses = answers(expected)
    assert len(responses) == script(name).count("\n")
    assert responses[-4].startswith(b"= <svg") and b"\n" not in responses[-4][:-2]
    position = json.loads(responses[-5][2:].decode())
    assert position["game"] == name and len(position["moves"]) == PLIES
    assert over_tcp(name) == expected
    assert over_http(name) == expected


@pytest.mark.parametrize("name", GAMES)
def test_match_plays_whole_games_and_the_moves_give_its_result(name: str, tmp_path: Path) -> None:
    game = next(g for g in BUILT_IN if g.name == name)
    engine = f"{sys.executable} -m stargtp.protocol.cli serve --workers 1 --playouts 40 --seed"
    results = tmp_path / "results.jsonl"
    completed = subprocess.run(
        [sys.executable, "-m", "stargtp.protocol.cli", "match", "--game", name, "--size", str(small_size(name)),
         "--black", f"{engine} 1", "--white", f"{engine} 2", "--games", "2", "--results", str(results)],
        capture_output=True, text=True, cwd=tmp_path, env=subprocess_env(), timeout=HANG_SECONDS * 10)
    assert completed.returncode == 0, completed.stderr
    games = [r for r in map(json.loads, results.read_text().splitlines()) if r["type"] == "game"]
    assert len(games) == 2
    for record in games:
        position = game.new_position(small_size(name))
        for move in record["moves"]:
            text = move["move"]
            if text.lower() == "resign":
                break
            position.play(position.parse_move(text))
        assert record["result"] not in ("", None)
        if position.is_over():
            winner = position.winner()
            expected = {1: "B+", 2: "W+", None: "0"}[winner]
            assert record["result"].startswith(expected), (record["result"], winner)
            # The reason is the game's own (Hex: connection, not no_moves), and
            # the ending says it in words.
            assert (record["reason"], record["ending"]) == (game.ended_by, position.over_reason())


@pytest.mark.parametrize("name", GAMES)
def test_the_console_plays_a_typed_move(name: str) -> None:
    game = next(g for g in BUILT_IN if g.name == name)
    position = game.new_position(small_size(name))
    if position.to_move != game.human_colour:
        pytest.skip("the person does not move first in this game's console")
    move = position.format_move(position.legal_moves()[0])
    completed = subprocess.run(
        [sys.executable, "-m", "stargtp.protocol.cli", "play", "--game", name, "--size", str(small_size(name)),
         "--seed", "1", "--playouts", "30", "--plain"],
        input=f"{move}\nquit\n", capture_output=True, text=True, cwd=REPO, env=subprocess_env(),
        timeout=HANG_SECONDS * 5)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    lines = completed.stdout.splitlines()
    typed = f"{colour_name(position.to_move)} 1> {move}"
    assert typed in lines
    # The move was taken: no error after it, and the engine answered it.
    after = lines[lines.index(typed) + 1:]
    assert not any(line.startswith(("illegal move", "unknown command")) for line in after), after
    assert any(line.startswith(f"{colour_name(opponent(position.to_move))} (engine) plays ") for line in after), after


@pytest.mark.parametrize("name", GAMES)
def test_render_draws_the_record_the_server_wrote(name: str, tmp_path: Path) -> None:
    record = answers(over_stdin(name))[-3][2:].decode()
    if not record.strip().startswith("("):
        pytest.skip("this game writes no records")
    source = tmp_path / "game.sgf"
    source.write_text(record)
    picture = tmp_path / "game.svg"
    completed = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "render", str(source),
                                "-o", str(picture)],
                               capture_output=True, text=True, cwd=REPO, env=subprocess_env(),
                               timeout=HANG_SECONDS * 5)
    assert completed.returncode == 0, completed.stderr
    assert picture.read_text().startswith("<svg")
