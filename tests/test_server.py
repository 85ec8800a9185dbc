"""Sessions and the stdin/stdout server: searches off the loop, interrupts,
ordering, failures, game switching, and the ``stargtp serve`` process."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import select
import signal
import subprocess
import time

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.games import new_position
from stargtp.engine.search import Limits
from tests.gtp_helpers import (HANG_SECONDS, REPO, config_for, converse, process_gone, serve_command,
                         split_responses, subprocess_env)
from stargtp.protocol.server.conversation import Conversation
from stargtp.protocol.server.serve import default_playouts, parse_address
from stargtp.protocol.server.session import Session, SessionConfig
from stargtp.protocol.server.workers import SearchReply, merge_results

class _LogCapture(logging.Handler):
    """Collects the server's log messages (the logging module's) in a list."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


class Harness:
    """A session driven through a Conversation in process, as a transport would."""

    def __init__(self, config: SessionConfig) -> None:
        self.output = bytearray()
        self.logs: list[str] = []
        self.finished = asyncio.Event()
        self.inputs = 0
        self.session = Session(config)
        self._capture = _LogCapture(self.logs)
        logging.getLogger("stargtp.protocol").addHandler(self._capture)
        logging.getLogger("stargtp.protocol").setLevel(logging.INFO)
        original = self.session.notify_input

        def counting_notify() -> None:
            self.inputs += 1
            original()

        self.session.notify_input = counting_notify  # type: ignore[method-assign]
        self.conversation = Conversation(self.session, self.output.extend, self.finished.set)

    def send(self, text: str | bytes) -> None:
        self.conversation.feed(text.encode() if isinstance(text, str) else text)

    async def responses(self, count: int) -> list[bytes]:
        """Wait for ``count`` complete responses in all."""
        deadline = time.monotonic() + HANG_SECONDS
        while True:
            done = bytes(self.output).count(b"\n\n") >= count
            if done:
                responses = split_responses(bytes(self.output))
                if len(responses) >= count:
                    return responses
            assert time.monotonic() < deadline, f"no answer: {bytes(self.output)!r}"
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        await self.conversation.close()
        logging.getLogger("stargtp.protocol").removeHandler(self._capture)


def long_search(**overrides: object) -> SessionConfig:
    """A search that only an interrupt can end in reasonable time."""
    settings = dict(seed=5, player="flat", seconds=120.0, playouts=None)
    settings.update(overrides)
    return SessionConfig(**settings)  # type: ignore[arg-type]


# -- interrupts and ordering -------------------------------------------------------------


def test_interrupt_answers_promptly_with_a_legal_move_and_keeps_order() -> None:
    async def scenario() -> None:
        harness = Harness(long_search(size=6))
        harness.send("1 genmove b\n2 name\n3 play w S30\n4 showboard\n")
        await asyncio.sleep(0.5)
        assert harness.output == b""            # the search is still running
        assert harness.session.position.history == []
        started = time.monotonic()
        harness.send("# interrupt\n")
        responses = await harness.responses(4)
        assert time.monotonic() - started < HANG_SECONDS
        first = responses[0].decode()
        assert first.startswith("=1 ") and first.endswith("\n\n")
        move_text = first[3:-2]
        position = new_position("star", 6)
        move = position.parse_move(move_text)
        assert position.is_legal(move, BLACK)
        assert responses[1] == b"=2 stargtp\n\n"
        assert responses[2] == b"=3\n\n"
        assert harness.session.position.history == [(BLACK, move), (WHITE, position.parse_move("S30"))]
        assert harness.inputs == 3                # each queued line reached the streaming hook
        await harness.close()

    asyncio.run(scenario())


def test_an_interrupt_right_behind_the_genmove_still_counts() -> None:
    """The interrupt arrives before the search has even started its worker."""
    async def scenario() -> None:
        harness = Harness(long_search(size=4))
        harness.send("1 genmove b\n# interrupt\n2 name\n")
        responses = await harness.responses(2)
        assert responses[0].startswith(b"=1 ") and responses[1] == b"=2 stargtp\n\n"
        # The interrupt does not carry over to the next search: this one runs
        # until it is interrupted in turn.
        harness.send("3 genmove w\n")
        await asyncio.sleep(0.5)
        assert len(split_responses(bytes(harness.output))) == 2
        harness.send("# interrupt\n")
        assert (await harness.responses(3))[2].startswith(b"=3 ")
        await harness.close()

    asyncio.run(scenario())


def test_interrupt_when_idle_is_just_a_comment() -> None:
    output, _ = asyncio.run(converse(b"# interrupt\n1 name\n# interrupt\n"))
    assert output == b"=1 stargtp\n\n"


def test_end_of_input_during_a_search_still_answers_everything() -> None:
    config = SessionConfig(size=3, seed=1, player="flat", playouts=30)
    output, session = asyncio.run(converse(b"1 genmove b\n2 genmove w\n3 undo\n4 name", config))
    responses = split_responses(output)
    assert [r[:2] for r in responses] == [b"=1", b"=2", b"=3", b"=4"]
    assert len(session.position.history) == 1


def test_genmove_plays_for_the_colour_asked_even_out_of_turn() -> None:
    config = SessionConfig(size=3, seed=2, player="random")
    output, session = asyncio.run(converse(b"genmove w\ngenmove w\n", config))
    assert [colour for colour, _ in session.position.history] == [WHITE, WHITE]
    answers = [r[2:-2].decode() for r in split_responses(output)]
    assert answers == [session.position.format_move(m) for _, m in session.position.history]


def test_reg_genmove_is_reproducible_and_plays_nothing() -> None:
    config = SessionConfig(size=4, seed=None, player="flat", playouts=200)
    lines = b"play b *40\n1 reg_genmove w\n2 reg_genmove w\n3 showboard\n"
    output, session = asyncio.run(converse(lines, config))
    played, first, second, board = split_responses(output)
    assert played == b"=\n\n"
    assert first[2:] == second[2:]
    assert len(session.position.history) == 1
    assert b"moves: 1" in board


def test_seeded_genmove_games_reproduce() -> None:
    config = SessionConfig(size=4, seed=9, player="flat", playouts=60)
    lines = b"".join(b"genmove %s\n" % colour for colour in [b"b", b"w"] * 4)
    first, _ = asyncio.run(converse(lines, config))
    second, _ = asyncio.run(converse(lines, config))
    assert first == second


def test_a_dead_worker_is_replaced_and_the_search_retried_once() -> None:
    async def scenario() -> None:
        harness = Harness(long_search(size=4))

        async def kill_worker() -> int:
            """Kill the running worker once its search has begun; its pid."""
            deadline = time.monotonic() + HANG_SECONDS
            while not (harness.session.search.pool and harness.session.search.pool.pids):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.3)
            pid = harness.session.search.pool.pids[0]
            os.kill(pid, signal.SIGKILL)
            return pid

        async def replaced(pid: int) -> None:
            deadline = time.monotonic() + HANG_SECONDS
            while harness.session.search.pool.pids in ([], [pid]):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)

        # One crash: the search runs again in a new worker and answers a real move.
        harness.send("1 genmove b\n")
        killed = await kill_worker()
        await replaced(killed)
        await asyncio.sleep(0.3)
        harness.send("# interrupt\n")
        (response,) = await harness.responses(1)
        assert response.startswith(b"=1 ") and len(harness.session.position.history) == 1
        assert any("search failed" in line and "trying once more" in line for line in harness.logs)
        # Two crashes in one genmove: the command fails with the reason; no
        # substitute move is played.
        harness.send("2 genmove w\n")
        killed = await kill_worker()
        await replaced(killed)
        await kill_worker()
        responses = await harness.responses(2)
        assert re.fullmatch(rb"\?2 search failed: worker 0: worker [0-9]+ died\n\n", responses[1])
        assert len(harness.session.position.history) == 1
        # The session goes on: the next genmove works.
        harness.send("3 genmove w\n")
        await asyncio.sleep(0.3)
        harness.send("# interrupt\n")
        responses = await harness.responses(3)
        assert responses[2].startswith(b"=3 ") and len(harness.session.position.history) == 2
        await harness.close()

    asyncio.run(scenario())


def test_closing_a_session_mid_search_ends_its_worker() -> None:
    async def scenario() -> None:
        harness = Harness(long_search(size=5))
        harness.send("genmove b\n")
        deadline = time.monotonic() + HANG_SECONDS
        while not (harness.session.search.pool and harness.session.search.pool.pids):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)
        pid = harness.session.search.pool.pids[0]
        started = time.monotonic()
        await harness.close()
        assert time.monotonic() - started < HANG_SECONDS
        assert process_gone(pid)
        assert harness.output == b""

    asyncio.run(scenario())


# -- failures --------------------------------------------------------------------------


def test_an_unexpected_exception_is_an_internal_error_and_serving_goes_on() -> None:
    async def scenario() -> None:
        harness = Harness(SessionConfig(size=3))

        def broken(args: tuple[str, ...]) -> str:
            raise ZeroDivisionError("boom")

        async def broken_async(args: tuple[str, ...]) -> str:
            raise KeyError("bang")

        harness.session.registry.register("x-broken", broken)
        harness.session.registry.register("x-broken-async", broken_async)
        harness.send("1 x-broken\n2 x-broken-async\n3 name\n")
        responses = await harness.responses(3)
        assert responses == [b"?1 internal error: ZeroDivisionError: boom\n\n",
                             b"?2 internal error: KeyError: 'bang'\n\n",
                             b"=3 stargtp\n\n"]
        assert sum("Traceback" in line for line in harness.logs) == 2
        await harness.close()

    asyncio.run(scenario())


def test_sessions_share_nothing() -> None:
    first, second = Session(SessionConfig(size=3)), Session(SessionConfig(size=3))
    first.execute(b"play b *30")
    first.execute(b"komi 7")
    first.execute(b"time_settings 60 0 0")
    assert second.position.history == [] and second.state.komi == 0.0
    assert second.state.clock.move_budget(BLACK, 10) is None
    assert first.registry is not second.registry


def test_session_move_limits_follow_the_clock() -> None:
    session = Session(SessionConfig(size=4, playouts=500, seconds=3.0))
    assert session.search.move_limits(BLACK) == Limits(playouts=500, seconds=3.0, stop_early=True)
    session.execute(b"time_settings 180 0 0")    # absolute: 180 s over 18 expected moves
    limits = session.search.move_limits(BLACK)
    assert limits.playouts == 500 and limits.stop_early
    assert limits.seconds == pytest.approx(180 / 18 * 0.95 - 0.1)


def test_default_move_limits_come_from_the_game_and_the_board_size() -> None:
    # Nothing set: the descriptor's playouts for the size (docs/search.md's
    # table), shared among the workers, stopping early. --playouts alone, or a
    # playouts parameter given explicitly: every playout, no early stop (a
    # seeded search repeats exactly). A clock rules over the default.
    expected = {("star", 2): 5000, ("star", 4): 5000, ("star", 10): 5000,
                ("amazons", 6): 3000, ("amazons", 8): 3000, ("amazons", 10): 3000}
    for (game, size), playouts in expected.items():
        session = Session(SessionConfig(game=game, size=size))
        assert session.search.move_limits(BLACK) == Limits(playouts=playouts, stop_early=True)
        assert session.search.move_limits(BLACK, 2) == Limits(playouts=playouts // 2, stop_early=True)
        assert session.search.move_limits(BLACK, 3) == Limits(playouts=-(-playouts // 3), stop_early=True)
    session = Session(SessionConfig(size=4, playouts=500))
    assert session.search.move_limits(BLACK, 2) == Limits(playouts=500)
    session = Session(SessionConfig(size=4, params=(("playouts", "700"),)))
    assert session.search.move_limits(BLACK, 2) == Limits(playouts=700)
    session = Session(SessionConfig(size=4))
    session.execute(b"time_settings 0 2 1")      # byo-yomi: 2 s a move, lost when unused: no early stop
    assert session.search.move_limits(BLACK) == Limits(seconds=2 * 0.95 - 0.1)
    session.execute(b"time_settings 0 10 5")     # Canadian: 10 s for 5 stones, carried over in the block
    assert session.search.move_limits(BLACK) == Limits(seconds=10 / 5 * 0.95 - 0.1, stop_early=True)
    session.execute(b"time_left b 3 1")          # the block's last stone
    assert session.search.move_limits(BLACK) == Limits(seconds=3 * 0.95 - 0.1)
    session.execute(b"time_settings 0 1 0")      # no time limit (GTP): the default
    assert session.search.move_limits(BLACK) == Limits(playouts=5000, stop_early=True)


def test_serve_help_lists_the_default_playouts_from_the_descriptors() -> None:
    assert default_playouts() == ("*Star 5000 on every size; Amazons 3000 on every size; Hex 8000 on every size;"
                                  " Y 8000 on every size")


def test_a_default_genmove_shares_its_playouts_among_the_workers() -> None:
    # Two workers search 2,500 playouts each on 4 rings (not 5,000 each, which
    # took twice as long on a busy machine); reg_genmove's single worker, all 5,000.
    sent: list[Limits] = []

    async def scenario() -> None:
        harness = Harness(SessionConfig(size=4, seed=1, workers=2))
        pool = harness.session.search._pool()
        original = pool._ask

        async def record(index, body, time_limit, stoppable):
            if hasattr(body, "limits"):
                sent.append(body.limits)
            return await original(index, body, time_limit, stoppable)

        pool._ask = record
        harness.send("1 genmove b\n2 reg_genmove w\n")
        responses = await harness.responses(2)
        assert responses[0].startswith(b"=1 ") and responses[1].startswith(b"=2 ")
        await harness.close()

    asyncio.run(scenario())
    assert sent == [Limits(playouts=2500, stop_early=True)] * 2 + [Limits(playouts=5000, stop_early=True)]


def test_list_stars_and_scoring_follow_the_position() -> None:
    session = Session(SessionConfig(size=4))
    for line in (b"play b *40", b"play b *41"):
        assert session.execute(line).now == "=\n\n"
    # One black star owning the whole board: 20 peris, 5 quarks (+1), 20 + 1 - 2 = 19 vs 2.
    assert session.execute(b"final_score").now == "= B+17\n\n"
    perimeter = " ".join(session.position.format_move(c) for c in session.position.geometry.perimeter)
    assert session.execute(b"list_stars").now == f"= black 20 5 {perimeter}\n\n"
    assert session.execute(b"list_stars white").now == "=\n\n"


def test_merge_results() -> None:
    one = SearchReply("S43", 100, 0.6, ("S43",))
    assert merge_results([one]) is one
    votes = merge_results([SearchReply("a", 10), SearchReply("b", 30), SearchReply("a", 25)])
    assert votes.move == "a" and votes.playouts == 65
    tie = merge_results([SearchReply("b", 10), SearchReply("a", 10)])
    assert tie.move == "b"                       # a tie goes to the earliest worker
    rooted = merge_results([SearchReply("a", 50, 0.5, ("a",), {"a": (30, 15.0), "c": (20, 12.0)}),
                            SearchReply("b", 50, 0.5, ("b",), {"b": (25, 10.0), "c": (25, 15.0)})])
    assert rooted.move == "c" and rooted.pv == ("c",) and rooted.root["c"] == (45, 27.0)
    assert rooted.winrate == pytest.approx(27 / 45)
    resign = merge_results([SearchReply(None, 5), SearchReply(None, 5), SearchReply("a", 5)])
    assert resign.move is None                   # most workers resigned


def test_doctests() -> None:
    import doctest

    from stargtp.protocol.server import serve as server
    assert doctest.testmod(server).failed == 0


def test_parse_address() -> None:
    assert parse_address("0.0.0.0:5000") == ("0.0.0.0", 5000)
    assert parse_address(":0") == ("127.0.0.1", 0)
    assert parse_address("7000") == ("127.0.0.1", 7000)
    assert parse_address("[::1]:7") == ("::1", 7)
    assert parse_address("localhost:65535") == ("localhost", 65535)
    for bad in ("host:", "host:port", "1:65536", "[::1", "[::1]x", "-1"):
        with pytest.raises(ValueError):
            parse_address(bad)


# -- games ------------------------------------------------------------------------------


def test_game_amazons_through_the_same_commands() -> None:
    config = SessionConfig(seed=3, player="random")
    lines = (b"1 game amazons\n2 game\n3 list_stars\n4 final_score\n5 perft 1\n"
             b"6 play w d1-d7/g7\n7 play b d1-d7/g7\n8 genmove b\n9 undo\n10 undo\n"
             b"11 boardsize 6\n12 perft 1\n13 game star\n14 game\n")
    output, session = asyncio.run(converse(lines, config))
    responses = split_responses(output)
    assert responses[0] == b"=1\n\n"
    assert responses[1] == b"=2 amazons\n\n"
    assert responses[2] == b"?3 list_stars is only available for star\n\n"
    assert responses[3] == (b"?4 cannot score: the game is not over (white has moves)"
                            b" and the amazons are not separated\n\n")
    assert responses[4] == b"=5 2176\n\n"
    assert responses[5] == b"=6\n\n"
    assert responses[6] == b"?7 illegal move: no black amazon on d1\n\n"
    assert responses[7].startswith(b"=8 ")
    assert responses[8] == b"=9\n\n" and responses[9] == b"=10\n\n"
    assert responses[10] == b"=11\n\n"
    assert responses[11] == b"=12 544\n\n"
    assert responses[12:] == [b"=13\n\n", b"=14 star\n\n"]


def test_amazons_perft_can_be_interrupted() -> None:
    async def scenario() -> None:
        harness = Harness(SessionConfig(game="amazons"))
        harness.send("1 perft 4\n2 name\n")
        await asyncio.sleep(0.5)
        harness.send("# interrupt\n")
        responses = await harness.responses(2)
        assert responses == [b"?1 perft interrupted\n\n", b"=2 stargtp\n\n"]
        await harness.close()

    asyncio.run(scenario())


# -- the stargtp serve process ---------------------------------------------------------------


def start_serve(*options: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(serve_command(*options), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=REPO, env=subprocess_env(), bufsize=0)


def read_responses(process: subprocess.Popen[bytes], count: int) -> list[bytes]:
    """The next ``count`` responses (fails on a hang). Bytes read past them are
    kept on the process object for the next call."""
    data: bytes = getattr(process, "unread", b"")
    deadline = time.monotonic() + HANG_SECONDS
    fd = process.stdout.fileno()
    while data.count(b"\n\n") < count:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no answer from the server: {data!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"the server closed stdout: {data!r}"
            data += chunk
    end = 0
    for _ in range(count):
        end = data.index(b"\n\n", end) + 2
    process.unread = data[end:]  # type: ignore[attr-defined]
    return split_responses(data[:end])


def test_serve_interrupt_over_a_pipe() -> None:
    process = start_serve("--size", "5", "--seconds", "120", "--seed", "4", "--player", "flat")
    try:
        process.stdin.write(b"1 protocol_version\n2 genmove w\n3 name\n")
        assert read_responses(process, 1) == [b"=1 2\n\n"]   # answered at once
        time.sleep(0.8)
        process.stdin.write(b"# interrupt\n")
        responses = read_responses(process, 2)
        move = responses[0].decode()[3:-2]
        position = new_position("star", 5)
        assert responses[0].startswith(b"=2 ") and position.is_legal(position.parse_move(move), WHITE)
        assert responses[1] == b"=3 stargtp\n\n"
        process.stdin.write(b"4 quit\n")
        assert process.stdout.read() == b"=4\n\n"
        assert process.wait(HANG_SECONDS) == 0
    finally:
        process.kill()
        process.wait()


def test_serve_sigterm_mid_search_exits_cleanly() -> None:
    process = start_serve("--size", "5", "--seconds", "120")
    try:
        process.stdin.write(b"1 name\n2 genmove b\n")
        assert read_responses(process, 1) == [b"=1 stargtp\n\n"]
        time.sleep(0.5)
        process.send_signal(signal.SIGTERM)
        assert process.wait(HANG_SECONDS) == 0
        assert process.stdout.read() == b""    # the interrupted genmove is not half answered
        assert b"Traceback" not in process.stderr.read()
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("options, message", [
    (["--size", "11"], b"rings"),
    (["--param", "nonsense"], b"NAME=VALUE"),
    (["--player", "flat", "--param", "bogus=1"], b"bogus"),
    (["--workers", "0"], b"--workers"),
    (["--tcp", "localhost:http"], b"bad port"),
    (["--player", "amazons-mcts"],
     b"player amazons-mcts cannot play star (players for star: auto, uct, flat, random)"),
    (["--game", "star", "--player", "amazons-mcts"], b"cannot play star"),
    (["--file-dir", "/nonexistent/records"], b"--file-dir '/nonexistent/records' is not a directory"),
    (["--idle-timeout", "-1"], b"--idle-timeout must be a number of seconds"),
    (["--idle-timeout", "nan"], b"--idle-timeout must be a number of seconds"),
    (["--command-timeout", "-1"], b"--command-timeout must be a number of seconds, 0 or more (0: never)"),
    (["--command-timeout", "inf"], b"--command-timeout must be a number of seconds, 0 or more (0: never)"),
    (["--seconds", "inf"], b"--seconds must be a positive number of seconds"),
    (["--seconds", "0"], b"--seconds must be a positive number of seconds"),
    (["--seconds", "5x"], b"argument --seconds: invalid float value: '5x'"),
    (["--game", "amazons", "--size", "7"], b"7"),
])
def test_serve_rejects_bad_options(options: list[str], message: bytes) -> None:
    result = subprocess.run(serve_command(*options), input=b"name\n", capture_output=True, cwd=REPO,
                            env=subprocess_env(), timeout=HANG_SECONDS)
    assert result.returncode == 2
    assert result.stdout == b""
    assert message in result.stderr and result.stderr.count(b"\n") == 1  # one clear line


def test_a_player_for_the_game_is_accepted() -> None:
    config = config_for(["--game", "amazons", "--player", "amazons-mcts"])
    assert config.game == "amazons" and config.player == "amazons-mcts"


def test_workers_start_before_the_first_genmove() -> None:
    # boardsize, clear_board, game and time_settings start the search's
    # workers in the background, so the first move does not pay for them.
    async def scenario(command: str) -> None:
        harness = Harness(long_search(size=4))
        harness.send(f"1 {command}\n")
        await harness.responses(1)
        deadline = time.monotonic() + HANG_SECONDS
        while not (harness.session.search.pool and harness.session.search.pool.pids):
            assert time.monotonic() < deadline, f"{command} started no worker"
            await asyncio.sleep(0.01)
        await harness.close()

    for command in ("boardsize 5", "clear_board", "game amazons", "time_settings 0 1 1",
                    "kgs-time_settings absolute 60"):
        asyncio.run(scenario(command))


def test_genmove_analyze_with_a_time_limit_is_not_cut_at_the_players_playout_count() -> None:
    # With seconds per move and no playout limit, a plain genmove searches for
    # the time (the player's own playout count applies only without any
    # limit); genmove_analyze, which searches in chunks, must do the same:
    # no chunk may ask for the player's 20 playouts.
    sent: list[tuple[int | None, float | None]] = []

    async def scenario() -> None:
        harness = Harness(SessionConfig(seed=1, player="flat", seconds=3.0, workers=1,
                                        params=(("playouts", "20"),)))
        pool = harness.session.search._pool()
        original = pool._ask

        async def record(index, body, time_limit, stoppable):
            if hasattr(body, "limits"):  # a search, not the preparation of a worker
                sent.append((body.limits.playouts, body.limits.seconds))
            return await original(index, body, time_limit, stoppable)

        pool._ask = record
        harness.send("boardsize 4\n1 genmove_analyze b 100\n")
        responses = await harness.responses(2)
        assert responses[1].startswith(b"=1\n") and b"\nplay " in responses[1]
        await harness.close()

    asyncio.run(scenario())
    assert sent and all(playouts is None for playouts, _ in sent), sent
    assert all(seconds is not None and seconds <= 1.0 for _, seconds in sent), sent


def test_startup_time_comes_out_of_the_move_budget() -> None:
    # A genmove with a 1 s budget whose workers are not running yet: the
    # search is sent what is left after starting them (which always takes
    # some time), never the whole second.
    sent: list[float] = []

    async def scenario() -> None:
        harness = Harness(SessionConfig(seed=1, player="flat", seconds=1.0, workers=1))
        pool = harness.session.search._pool()
        original = pool._ask

        async def record(index, body, time_limit, stoppable):
            sent.append(body.limits.seconds)
            return await original(index, body, time_limit, stoppable)

        pool._ask = record
        harness.send("1 genmove b\n")
        (response,) = await harness.responses(1)
        assert response.startswith(b"=1 ")
        await harness.close()

    asyncio.run(scenario())
    assert 0 < sent[0] < 1.0

def test_config_from_options() -> None:
    config = config_for(["--size", "6", "--seed", "3", "--player", "random", "--workers", "2",
                         "--playouts", "50", "--seconds", "1.5", "--param", "komi=0.5"])
    assert config == SessionConfig(game="star", size=6, seed=3, player="random", workers=2,
                                   playouts=50, seconds=1.5, params=(("komi", "0.5"),))


def test_list_commands_lists_what_works_in_the_current_game() -> None:
    # A command that only some games have is listed only in them, and
    # answered with the reason elsewhere (known_command still knows it).
    session = Session(SessionConfig(size=4))
    star = session.execute(b"list_commands").now.split("\n")
    assert "list_stars" in star
    assert session.execute(b"game amazons").now == "=\n\n"
    assert session.execute(b"list_stars").now == "? list_stars is only available for star\n\n"
    assert session.execute(b"known_command list_stars").now == "= true\n\n"
    assert session.execute(b"game amazons").now == "=\n\n"
    amazons = session.execute(b"list_commands").now.split("\n")
    assert "printsgf" in amazons and "list_stars" not in amazons
    assert set(star) - {"list_stars"} == set(amazons)
    assert session.execute(b"list_stars").now == "? list_stars is only available for star\n\n"


def _poll_forever(flag) -> None:
    """A worker's part: poll the stop flag until killed."""
    while True:
        flag.is_set()


def test_a_worker_killed_while_polling_the_stop_flag_leaves_it_usable() -> None:
    """The pool's stop flag is shared with its workers; a worker killed while
    polling it (as test_a_dead_worker_... does, and a crash or the OOM killer
    can) must not leave anything held. A multiprocessing Event did: its
    is_set takes a process-shared lock, and the server's next clear() then
    blocked the event loop for ever (the first kill sufficed). Thirty kills at
    seeded moments; each time set and clear must return (60 s margin; they
    take microseconds)."""
    import random
    import threading

    from stargtp.protocol.server.workers import StopFlag, _context

    context = _context()
    flag = StopFlag(context)
    rng = random.Random(1)
    for kill in range(30):
        process = context.Process(target=_poll_forever, args=(flag,), daemon=True)
        process.start()
        time.sleep(0.05 + rng.random() * 0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.join(HANG_SECONDS)
        seen = []
        worker = threading.Thread(target=lambda: (flag.set(), seen.append(flag.is_set()), flag.clear(),
                                                  seen.append(flag.is_set())), daemon=True)
        worker.start()
        worker.join(60)
        assert not worker.is_alive(), f"the stop flag hung after kill {kill + 1}"
        assert seen == [True, False]
