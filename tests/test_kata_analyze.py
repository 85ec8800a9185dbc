"""kata-analyze, genmove_analyze and gogui-analyze_commands: KataGo's field
names and order, a real stream stopped by the next line, a searched move
reported as ``play MOVE`` and played, and bad input changing nothing."""

import asyncio

from stargtp.engine.star import Position
from stargtp.protocol.server.session import SessionConfig
from tests.gtp_helpers import converse, split_responses, stream_then_stop

KATA_KEYS = ["move", "visits", "utility", "winrate", "scoreMean", "scoreLead", "prior", "lcb", "order"]
"""The fields each info block carries, in KataGo's order (docs/GTP_Extensions.md)."""


def parse_kata(line: str) -> tuple[list[dict], list[str]]:
    """A kata-analyze line -> its info blocks and the game's trailing field."""
    assert line.startswith("info move ")
    words = line.split()
    extra: list[str] = []
    for name in ("ownership", "territory"):
        if name in words:
            at = words.index(name)
            words, extra = words[:at], words[at:]
    blocks = []
    for chunk in " ".join(words).split("info ")[1:]:
        parts = chunk.split()
        keys, values = parts[0:18:2], parts[1:18:2]
        assert keys == KATA_KEYS and parts[18] == "pv", chunk
        block = dict(zip(keys, values))
        for key in ("visits", "order"):
            block[key] = int(block[key])
        for key in ("utility", "winrate", "scoreMean", "scoreLead", "prior", "lcb"):
            block[key] = float(block[key])
        block["pv"] = parts[19:]
        blocks.append(block)
    return blocks, extra


def check_blocks(blocks: list[dict], legal: set[str]) -> None:
    assert [b["order"] for b in blocks] == list(range(len(blocks)))
    visits = [b["visits"] for b in blocks]
    assert visits == sorted(visits, reverse=True) and min(visits) >= 1
    for block in blocks:
        assert block["move"] in legal
        assert 0 <= block["winrate"] <= 1 and 0 <= block["lcb"] <= block["winrate"]
        assert abs(block["utility"] - (2 * block["winrate"] - 1)) < 1e-4
        assert block["scoreMean"] == block["scoreLead"]
        assert block["pv"][0] == block["move"]


def talk(data: bytes, config: SessionConfig):
    output, session = asyncio.run(converse(data, config))
    return split_responses(output), session


UCT = SessionConfig(seed=3, playouts=200, workers=1, player="uct")


def test_a_real_kata_stream_stops_at_the_next_line():
    # Three reports, then a line stops it.
    text, _ = stream_then_stop(["--seed", "4", "--workers", "1"],
                               b"boardsize 4\nplay b *40\nplay w S41\n7 kata-analyze b interval 5\n",
                               b"=7\n", b"8 name\n", b"=8 stargtp\n\n", reports=3)
    body, tail = text.split("=7\n", 1)[1].split("\n\n", 1)
    assert tail == "=8 stargtp\n\n"
    reports = body.split("\n")
    assert len(reports) >= 3
    position = Position(4)
    for label, colour in (("*40", 1), ("S41", 2)):
        position.play(position.parse_move(label), colour)
    legal = {position.format_move(m) for m in position.legal_moves()}
    previous = 0
    for report in reports:
        blocks, extra = parse_kata(report)
        check_blocks(blocks, legal)
        assert sum(b["visits"] for b in blocks) >= previous  # the tree is kept
        previous = sum(b["visits"] for b in blocks)
        assert extra[0] == "ownership" and len(extra) == 21
        assert all(-1 <= float(v) <= 1 for v in extra[1:])


def test_pipelined_kata_analyze_amazons_reports_territory():
    responses, _ = talk(b"game amazons\nboardsize 6\n1 kata-analyze w 1\n2 name\n",
                        SessionConfig(seed=2, workers=1, player="auto"))
    assert responses[3] == b"=2 stargtp\n\n"
    head, report, end = responses[2].split(b"\n", 2)
    assert head == b"=1" and end == b"\n"
    blocks, extra = parse_kata(report.decode())
    assert blocks and "/" in blocks[0]["move"]
    assert extra[0] == "territory" and len(extra) == 3
    # The score lead is the territory estimate, the same for every move.
    assert all(b["scoreLead"] == int(extra[1]) - int(extra[2]) for b in blocks)


def genmove_analyze_response(response: bytes, legal: set[str]) -> str:
    lines = response.decode().split("\n")
    assert lines[0] == "=1" and lines[-2:] == ["", ""]
    body = lines[1:-2]
    assert len(body) >= 2 and body[-1].startswith("play ")
    for report in body[:-1]:
        blocks, _ = parse_kata(report)
        check_blocks(blocks, legal)
    return body[-1].split(" ", 1)[1]


def test_genmove_analyze_star_plays_its_move():
    responses, session = talk(b"boardsize 4\nplay b *40\n1 genmove_analyze w 1\n2 name\n", UCT)
    position = Position(4)
    position.play(position.parse_move("*40"), 1)
    legal = {position.format_move(m) for m in position.legal_moves()}
    move = genmove_analyze_response(responses[2], legal)
    assert move in legal
    assert responses[3] == b"=2 stargtp\n\n"  # the pipelined line waited; it did not stop the search
    history = session.state.position.history
    assert len(history) == 2 and history[-1][0] == 2
    assert session.state.position.format_move(history[-1][1]) == move


def test_genmove_analyze_amazons_plays_its_move():
    config = SessionConfig(seed=3, playouts=100, workers=1, player="auto")
    responses, session = talk(b"game amazons\nboardsize 6\n1 kata-genmove_analyze b 1\n", config)
    from stargtp.engine.amazons.position import Position as AmazonsPosition

    board = AmazonsPosition(6)
    board.to_move = 1  # black's moves, whoever is to move
    legal = {board.format_move(m) for m in board.legal_moves()}
    move = genmove_analyze_response(responses[2], legal)
    position = session.state.position
    assert len(position.history) == 1 and position.format_move(position.history[0][1]) == move


def test_genmove_analyze_in_a_finished_game():
    responses, session = talk(b"boardsize 2\nplay b pass\nplay w pass\n1 genmove_analyze b\n", UCT)
    assert responses[3] == b"=1\nplay pass\n\n"
    assert len(session.state.position.history) == 2


def test_bad_input_changes_nothing():
    responses, session = talk(b"boardsize 4\nplay b *40\ngenmove_analyze\ngenmove_analyze x\n"
                              b"genmove_analyze b 0\ngenmove_analyze b 1 2\nkata-analyze x\n"
                              b"kata-analyze 0\nkata-analyze interval\ngogui-analyze_commands x\n", UCT)
    errors = responses[2:]
    assert errors == [
        b"? syntax error: expected 1 or 2 arguments\n\n",
        b"? syntax error: invalid colour\n\n",
        b"? syntax error: expected an integer from 1 to 360000\n\n",
        b"? syntax error: expected 1 or 2 arguments\n\n",
        b"? syntax error: unknown key x (this command takes: minmoves, maxmoves, ownership)\n\n",
        b"? syntax error: expected an integer from 1 to 360000\n\n",
        b"? syntax error: interval needs a number of centiseconds\n\n",
        b"? syntax error: expected no arguments\n\n",
    ]
    assert len(session.state.position.history) == 1


def test_gogui_analyze_commands_lists_only_commands_that_exist():
    for game, has_stars in ((b"star", True), (b"amazons", False)):
        responses, session = talk(b"game " + game + b"\n1 gogui-analyze_commands\n", UCT)
        head, *lines = responses[1].decode().rstrip("\n").split("\n")
        assert head.startswith("=1 ")
        entries = [head[3:]] + lines
        names = set(session.registry.names(game.decode()))
        for entry in entries:
            kind, label, command = entry.split("/")
            assert kind == "string" and label and command.split()[0] in names
        assert "string/Final score/final_score" in entries
        assert "string/Legal moves/all_legal %c" in entries
        assert ("string/Stars/list_stars" in entries) == has_stars


def test_kata_keys_ownership_and_maxmoves_in_a_real_stream():
    """KataGo's key-value form, as Lizzie and friends send it: ``ownership
    false`` leaves out the game's field, ``maxmoves 2`` keeps the two most
    visited moves."""
    text, _ = stream_then_stop(["--seed", "4", "--workers", "1"],
                               b"boardsize 4\n7 kata-analyze b interval 5 ownership false maxmoves 2\n",
                               b"=7\n", b"8 name\n", b"=8 stargtp\n\n", reports=3)
    reports = text.split("=7\n", 1)[1].split("\n\n", 1)[0].split("\n")
    legal = {Position(4).format_move(m) for m in Position(4).legal_moves()}
    for report in reports:
        blocks, extra = parse_kata(report)
        assert extra == [] and 1 <= len(blocks) <= 2
        check_blocks(blocks, legal)
    text, _ = stream_then_stop(["--seed", "4", "--workers", "1"],
                               b"boardsize 4\n7 kata-analyze b 5 ownership true\n",
                               b"=7\n", b"8 name\n", b"=8 stargtp\n\n", reports=1)
    blocks, extra = parse_kata(text.split("=7\n", 1)[1].split("\n", 1)[0])
    assert extra[0] == "ownership" and len(extra) == 21


def test_minmoves_pads_with_unvisited_moves_and_maxmoves_cuts():
    from types import SimpleNamespace

    from stargtp.protocol.server.analysis import AnalyzeOptions, analysis_line, kata_line, ranked_moves

    position = Position(2)
    a, b, c = map(position.format_move, position.legal_moves()[:3])
    reply = SimpleNamespace(root={b: (5, 4.0), c: (5, 1.0)}, move=b, playouts=10, winrate=0.8,
                            variations={}, pv=(), ownership=None)
    everything = len(position.legal_moves())
    assert ranked_moves(position, reply, None) == [(b, (5, 4.0)), (c, (5, 1.0))]
    padded = ranked_moves(position, reply, AnalyzeOptions(1, 100, min_moves=everything + 5))
    assert padded[:2] == [(b, (5, 4.0)), (c, (5, 1.0))] and len(padded) == everything
    assert padded[2] == (a, (0, 0.0)) and len({move for move, _ in padded}) == everything
    assert ranked_moves(position, reply, AnalyzeOptions(1, 100, max_moves=1, min_moves=1)) == [(b, (5, 4.0))]
    line = kata_line(position, 1, reply, 0.0, AnalyzeOptions(1, 100, min_moves=3, ownership=False))
    blocks, extra = parse_kata(line)
    assert [block["visits"] for block in blocks] == [5, 5, 0] and extra == []
    assert blocks[2]["winrate"] == 0 and blocks[2]["lcb"] == 0 and blocks[2]["pv"] == [a]
    assert analysis_line(position, 1, reply, AnalyzeOptions(1, 100, max_moves=1)).count("info move") == 1


def test_bad_keys_are_syntax_errors_and_change_nothing():
    responses, session = talk(b"boardsize 4\nplay b *40\nkata-analyze ownership\nkata-analyze ownership yes\n"
                              b"kata-analyze maxmoves 0\nkata-analyze minmoves -1\nlz-analyze ownership true\n"
                              b"kata-analyze pvVisits true\n", UCT)
    assert responses[2:] == [
        b"? syntax error: ownership needs a value\n\n",
        b"? syntax error: ownership is true or false, not yes\n\n",
        b"? syntax error: expected an integer from 1 to 100000\n\n",
        b"? syntax error: expected an integer from 0 to 100000\n\n",
        b"? syntax error: unknown key ownership (this command takes: minmoves, maxmoves)\n\n",
        b"? syntax error: unknown key pvVisits (this command takes: minmoves, maxmoves, ownership)\n\n",
    ]
    assert len(session.state.position.history) == 1
