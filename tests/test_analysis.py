"""lz-analyze: a real stream from `stargtp serve`, stopped by the next line,
with its framing and every field checked."""

import asyncio
import random

from stargtp.engine.amazons.evaluation import queen_territory
from stargtp.engine.amazons.position import Position as AmazonsPosition
from stargtp.engine.star import Position
from stargtp.protocol.server.session import SessionConfig
from tests.amazons_reference import reference_territory
from tests.gtp_helpers import converse, split_responses, stream_then_stop


def parse_report(line: str) -> tuple[list[dict], dict[str, list[str]]]:
    """An lz-analyze line -> its info blocks and its trailing fields."""
    assert line.startswith("info move ")
    head, *extra_parts = line.split(" ownership ") if " ownership " in line else line.split(" territory ")
    extras = {}
    if extra_parts:
        extras["ownership" if " ownership " in line else "territory"] = extra_parts[0].split()
    blocks = []
    for chunk in head.split("info ")[1:]:
        words = chunk.split()
        fields = dict(zip(words[0:8:2], words[1:8:2]))
        assert words[8] == "pv"
        blocks.append({"move": fields["move"], "visits": int(fields["visits"]),
                       "winrate": int(fields["winrate"]), "order": int(fields["order"]), "pv": words[9:]})
    return blocks, extras


def test_a_real_stream_stops_at_the_next_line():
    # Three reports, then any line stops the stream.
    text, _ = stream_then_stop(["--seed", "4", "--workers", "1"],
                               b"boardsize 4\nplay b *40\nplay w S41\n7 lz-analyze b interval 5\n",
                               b"=7\n", b"8 name\n", b"=8 stargtp\n\n", reports=3)
    assert text.startswith("=\n\n=\n\n=\n\n=7\n")
    body, tail = text.split("=7\n", 1)[1].split("\n\n", 1)
    assert tail == "=8 stargtp\n\n"
    reports = body.split("\n")
    assert len(reports) >= 3
    position = Position(4)
    for label, colour in (("*40", 1), ("S41", 2)):
        position.play(position.parse_move(label), colour)
    empty = {position.format_move(m) for m in position.legal_moves()}
    previous_total = 0
    for report in reports:
        blocks, extras = parse_report(report)
        assert [b["order"] for b in blocks] == list(range(len(blocks)))
        visits = [b["visits"] for b in blocks]
        assert visits == sorted(visits, reverse=True) and min(visits) >= 1
        assert sum(visits) >= previous_total  # the tree is kept between reports
        previous_total = sum(visits)
        for block in blocks:
            assert block["move"] in empty and 0 <= block["winrate"] <= 10000
            assert block["pv"][0] == block["move"] and len(set(block["pv"])) == len(block["pv"])
        ownership = [float(v) for v in extras["ownership"]]
        assert len(ownership) == 20 and all(-1 <= v <= 1 for v in ownership)
        # Black analyses: its own stone on *40 is (nearly) always its own,
        # white's on S41 (nearly) never.
        assert ownership[0] > 0.5 and ownership[5] < -0.5


def talk(data: bytes, config=SessionConfig(seed=2, workers=1, player="uct")) -> list[bytes]:
    output, _ = asyncio.run(converse(data, config))
    return split_responses(output)


def test_pipelined_line_gets_one_report():
    responses = talk(b"boardsize 3\n1 lz-analyze 1\n2 name\n")
    assert responses[0] == b"=\n\n" and responses[2] == b"=2 stargtp\n\n"
    head, report, end = responses[1].split(b"\n", 2)
    assert head == b"=1" and end == b"\n"
    blocks, extras = parse_report(report.decode())
    assert blocks and len(extras["ownership"]) == 15


def test_amazons_reports_territory():
    responses = talk(b"game amazons\nboardsize 6\nlz-analyze w 1\n",
                     SessionConfig(seed=2, workers=1, player="auto"))
    report = responses[2].split(b"\n")[1].decode()
    blocks, extras = parse_report(report)
    assert blocks[0]["move"].count("-") == 1 and "/" in blocks[0]["move"]
    assert [int(v) for v in extras["territory"]] == list(reference_territory(AmazonsPosition(6), 2))


def test_queen_territory_matches_the_reference():
    rng = random.Random(8)
    for size in (6, 8, 10):
        for _ in range(15):
            position = AmazonsPosition(size)
            for _ in range(rng.randrange(0, 40)):
                moves = position.legal_moves()
                if not moves:
                    break
                position.play(rng.choice(moves))
            territory = queen_territory(position)
            assert (territory[2], territory[1]) == reference_territory(position, 2)


def test_errors_and_the_finished_game():
    responses = talk(b"lz-analyze x\nlz-analyze 0\nlz-analyze interval\nboardsize 2\n"
                     b"play b pass\nplay w pass\nlz-analyze 10\n")
    assert responses[0].startswith(b"? syntax error")
    assert responses[1].startswith(b"? syntax error")
    assert responses[2] == b"? syntax error: interval needs a number of centiseconds\n\n"
    # Nothing to search once the game is over, but the one report still comes.
    assert responses[-1] == b"=\ninfo move pass visits 0 winrate 0 order 0 pv pass\n\n"


def test_a_stop_before_the_first_interval_still_reports():
    # A 100 s interval, stopped by the very next line: the response holds the
    # statistics of the moment it stopped, never an empty "=".
    responses = talk(b"boardsize 4\n1 lz-analyze 10000\n2 name\n")
    assert responses[2] == b"=2 stargtp\n\n"
    head, report, end = responses[1].split(b"\n", 2)
    assert head == b"=1" and end == b"\n"
    blocks, extras = parse_report(report.decode())
    assert len(extras["ownership"]) == 20


def test_every_player_keeps_to_the_interval():
    # The random player answers at once; its reports must still come one per
    # interval, not as fast as the loop can go. On a busy machine reports only
    # come later, so the bound holds whatever the load.
    text, elapsed = stream_then_stop(["--player", "random", "--workers", "1", "--seed", "1"],
                                     b"boardsize 4\n5 lz-analyze 25\n", b"=5\n", b"6 name\n",
                                     b"=6 stargtp\n\n", wait=1.0)
    body = text.split("=5\n", 1)[1].split("\n\n", 1)[0]
    reports = body.split("\n")
    assert all(r.startswith("info move ") for r in reports)
    assert 1 <= len(reports) <= elapsed / 0.25 + 2
