"""stargtp-evaluate: one search of the position answered as one line of JSON,
in the workers (the event loop of other sessions goes on), the position
unchanged, the same answer as the same seeded player searching in process,
a finished game's result, ``# interrupt``, and bad input changing nothing."""

from __future__ import annotations

import asyncio
import json
import time

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.games import new_position
from stargtp.engine.players import make_player
from stargtp.engine.search import Limits
from stargtp.protocol.server.session import SessionConfig
from tests.gtp_helpers import HANG_SECONDS, converse, split_responses
from tests.test_server import Harness

UCT = SessionConfig(seed=3, workers=1, player="uct")


def talk(lines: list[str], config: SessionConfig = UCT) -> list[str]:
    """The response texts (after ``= ``/``? ``) of ``lines``, run in a fresh session."""
    data = "".join(f"{line}\n" for line in lines).encode()
    output, _ = asyncio.run(converse(data, config))
    return [response.decode()[:-2] for response in split_responses(output)]


def reference(game: str, size: int, moves: list[tuple[int, str]], playouts: int, seed: int,
              komi: float = 0.0) -> dict:
    """What stargtp-evaluate must answer, computed in process: a fresh player
    with the seed searching exactly ``playouts`` playouts; its most visited
    root move (more wins first among equals), that move's win rate turned
    into black's, and the player's own line."""
    position = new_position(game, size)
    for colour, text in moves:
        position.play(position.parse_move(text), colour)
    player = make_player("uct", seed=seed)
    player.set_param("komi", repr(float(komi)))
    result = player.genmove(position, Limits(playouts=playouts))
    root = {position.format_move(m): (v, w) for m, (v, w) in result.root.items()}
    move, (visits, wins) = min(root.items(), key=lambda item: (-item[1][0], -item[1][1]))
    mine = wins / visits
    pv = [position.format_move(m) for m in result.pv]
    assert pv[0] == move
    black = mine if position.to_move == BLACK else 1 - mine
    lead = position.rules.score_estimate(position, BLACK, komi)
    return {"to_move": "black" if position.to_move == BLACK else "white", "over": False,
            "black_winrate": round(black, 6), "black_lead": None if lead is None else round(lead, 6),
            "move": move, "pv": pv, "visits": visits, "playouts": result.playouts}


def test_the_answer_is_the_seeded_players_own_search_and_the_position_is_unchanged():
    lines = ["boardsize 4", "play b *40", "stargtp-position", "stargtp-evaluate playouts 300",
             "stargtp-position", "stargtp-evaluate playouts 300"]
    answers = talk(lines)
    assert answers[:2] == ["=", "="]
    before, evaluated, after, again = answers[2:]
    assert before == after  # nothing changed: the pieces, the moves, the side to move
    assert evaluated == again  # the same position gets the same answer
    data = json.loads(evaluated[2:])
    assert data == reference("star", 4, [(BLACK, "*40")], 300, seed=3)
    assert data["to_move"] == "white" and data["playouts"] == 300
    # Black's win rate is the other side of white's own.
    assert 0 <= data["black_winrate"] <= 1


def test_the_answer_does_not_depend_on_what_was_searched_before():
    # A playout count is deterministic: a fresh seeded player each time, so a
    # review gives the same numbers whatever the session did first.
    direct = talk(["boardsize 4", "play b *40", "stargtp-evaluate playouts 200"])[-1]
    after_other_searches = talk(["boardsize 4", "genmove b", "undo", "stargtp-evaluate playouts 50",
                                 "play b *40", "stargtp-evaluate playouts 200"])[-1]
    assert direct.startswith("= {") and direct == after_other_searches


def test_every_game_answers_and_black_is_always_the_reference():
    # The Amazons (white moves first: black's win rate is 1 - white's) and Y (no lead before the end).
    amazons = talk(["game amazons", "boardsize 6", "stargtp-evaluate playouts 120"])[-1]
    assert json.loads(amazons[2:]) == reference("amazons", 6, [], 120, seed=3)
    assert json.loads(amazons[2:])["to_move"] == "white"
    y = talk(["game y", "boardsize 5", "play b c3", "stargtp-evaluate playouts 150"])[-1]
    data = json.loads(y[2:])
    assert data == reference("y", 5, [(BLACK, "c3")], 150, seed=3)
    assert data["black_lead"] is None


def test_a_finished_game_answers_its_result_without_a_search():
    # Black joins north and south on a 3x3 Hex board: black has won.
    moves = ["play b b2", "play w a1", "play b b1", "play w a2", "play b b3"]
    answer = talk(["game hex", "boardsize 3", *moves, "stargtp-evaluate playouts 100"])[-1]
    assert json.loads(answer[2:]) == {"to_move": "white", "over": True, "black_winrate": 1.0,
                                      "black_lead": 1.0, "move": None, "pv": [], "visits": 0,
                                      "playouts": 0}


def test_bad_arguments_are_syntax_errors_and_change_nothing():
    answers = talk(["boardsize 3", "play b *30", "stargtp-evaluate", "stargtp-evaluate playouts",
                    "stargtp-evaluate playouts 0", "stargtp-evaluate playouts 10000001",
                    "stargtp-evaluate playouts many", "stargtp-evaluate seconds 0",
                    "stargtp-evaluate seconds -1", "stargtp-evaluate seconds 3601",
                    "stargtp-evaluate seconds inf", "stargtp-evaluate minutes 3",
                    "stargtp-evaluate playouts 10 more", "stargtp-position"])
    assert answers[2:-1] == [
        "? syntax error: expected 2 arguments",
        "? syntax error: expected 2 arguments",
        "? syntax error: expected an integer from 1 to 10000000",
        "? syntax error: expected an integer from 1 to 10000000",
        "? syntax error: expected an integer",
        "? syntax error: seconds must be more than 0 and at most 3600",
        "? syntax error: expected a number >= 0",
        "? syntax error: seconds must be more than 0 and at most 3600",
        "? syntax error: expected a number",
        "? syntax error: expected playouts N or seconds S, not minutes",
        "? syntax error: expected 2 arguments",
    ]
    position = json.loads(answers[-1][2:])
    assert position["moves"] == [["black", "*30"]] and position["to_move"] == "white"


def test_a_long_evaluation_runs_in_the_workers_and_an_interrupt_answers_it_now():
    """An hour's evaluation: another session on the same event loop answers
    meanwhile (the loop is free), and ``# interrupt`` makes it answer with
    what it has; the next command runs normally."""
    async def scenario() -> None:
        slow = Harness(SessionConfig(seed=5, workers=1, player="uct", size=4))
        other = Harness(SessionConfig(size=4))
        slow.send("1 play b *40\n2 stargtp-evaluate seconds 3600\n")
        # The evaluation has started once its worker is searching: wait for
        # the session's pool to exist, then see the other session answer.
        deadline = time.monotonic() + HANG_SECONDS
        while slow.session.search.pool is None:
            assert time.monotonic() < deadline, "the evaluation never started its workers"
            await asyncio.sleep(0.01)
        other.send("1 name\n")
        assert await other.responses(1) == [b"=1 stargtp\n\n"]
        assert len(split_responses(bytes(slow.output))) == 1  # the evaluation still runs
        slow.send("# interrupt\n3 stargtp-position\n")
        responses = await slow.responses(3)
        assert responses[1].startswith(b"=2 {")
        data = json.loads(responses[1][3:-2])
        position = new_position("star", 4)
        position.play(position.parse_move("*40"), BLACK)
        assert data["to_move"] == "white" and data["over"] is False
        assert position.is_legal(position.parse_move(data["move"]), WHITE)
        assert data["playouts"] >= 0 and data["pv"][0] == data["move"]
        assert json.loads(responses[2][3:-2])["moves"] == [["black", "*40"]]
        await slow.close()
        await other.close()

    asyncio.run(scenario())


def test_an_interrupt_right_behind_the_evaluation_still_counts():
    async def scenario() -> None:
        harness = Harness(SessionConfig(seed=5, workers=1, player="uct", size=4))
        harness.send("1 stargtp-evaluate seconds 3600\n# interrupt\n2 name\n")
        responses = await harness.responses(2)
        assert responses[0].startswith(b"=1 {") and responses[1] == b"=2 stargtp\n\n"
        await harness.close()

    asyncio.run(scenario())
