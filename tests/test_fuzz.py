"""Seeded fuzzing: 12,000 random lines, valid commands mixed with junk.

In process, every line is checked as it is answered: the response is well
framed, carries the line's id, and the session's position matches a shadow
position kept with the engine directly (so failed commands changed nothing).
Then the same bytes go through a real ``stargtp serve``, which must give the
same answers byte for byte and exit normally.
"""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import time

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import GameError
from stargtp.engine.games import new_position
from tests.gtp_helpers import HANG_SECONDS, REPO, RESPONSE, config_for, serve_command, subprocess_env
from stargtp.protocol.server.conversation import Conversation
from stargtp.protocol.server.session import Session

LINES = 12_000
SEED = 20240601
# The random player keeps searches instant (flat Monte Carlo on an Amazons board
# needs thousands of playouts); the fuzz is about the protocol, not the search.
OPTIONS = ["--seed", "3", "--player", "random", "--size", "4"]

try:
    new_position("amazons")
    HAVE_AMAZONS = True
except GameError:
    HAVE_AMAZONS = False

COMMAND_NAMES = ["protocol_version", "name", "version", "known_command", "list_commands",
                 "boardsize", "clear_board", "komi", "play", "genmove", "undo", "final_score",
                 "showboard", "time_settings", "time_left", "kgs-time_settings", "reg_genmove",
                 "list_stars", "perft", "gogui-interrupt", "game"]
COLOURS = ["b", "w", "B", "W", "black", "white", "Black", "WHITE"]
BAD_COLOURS = ["x", "bw", "blue", "0", "", "b\u0301"]


def visible_text(raw: bytes) -> str:
    """Reference preprocessing, written independently of protocol.framing:
    drop C0, DEL and C1 control characters except tab, cut the comment."""
    text = raw.decode("utf-8", errors="replace")
    text = "".join(ch for ch in text if ch == "\t" or not (ord(ch) < 32 or 127 <= ord(ch) < 160))
    return text.split("#", 1)[0]


def expects_response(raw: bytes) -> bool:
    """A line gets a response unless it is blank once control characters and
    the comment go; over-long lines always get one."""
    return len(raw) > 65536 or visible_text(raw).strip(" \t") != ""


def command_tokens(raw: bytes) -> tuple[bytes | None, list[str]]:
    """The id a response must carry (canonical decimal) and the other tokens.
    GTP separates words by spaces and tabs only, never by other Unicode spaces."""
    tokens = [t for t in visible_text(raw).replace("\t", " ").split(" ") if t]
    if tokens and re.fullmatch(r"[0-9]+", tokens[0]):
        return (tokens[0].lstrip("0") or "0").encode(), tokens[1:]
    return None, tokens


def junk_token(rng: random.Random) -> str:
    alphabet = "abcxyz*STAR0123456789-_.+é漢\u2028\u00a0\x00\x07\x7f\x85\t#"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))


def vertex(rng: random.Random, shadow) -> str:
    roll = rng.random()
    if shadow.game != "star" and rng.random() < 0.7:
        roll = 1.0   # Amazons move lists are long to build: mostly junk there
    if roll < 0.65 and not shadow.is_over():
        moves = shadow.legal_moves()
        if moves:
            text = shadow.format_move(rng.choice(moves))
            return text.lower() if rng.random() < 0.3 else text
    if roll < 0.75:
        return rng.choice(["pass", "PASS", "Pass"])
    return rng.choice(["*10", "S43", "R99", "Z12", "*", "", "d1-d7/g7", junk_token(rng)])


def command_line(rng: random.Random, shadow) -> str:
    name = rng.choice(COMMAND_NAMES + ["play"] * 12 + ["undo"] * 4)
    if name == "genmove" or name == "reg_genmove":
        if rng.random() > 0.08:   # searches are rare: they are the slow lines
            name = "showboard"
    args: list[str] = []
    if name == "play":
        colour = rng.choice(COLOURS) if rng.random() < 0.92 else rng.choice(BAD_COLOURS)
        args = [colour, vertex(rng, shadow)]
    elif name in ("genmove", "reg_genmove"):
        args = [rng.choice(COLOURS) if rng.random() < 0.9 else rng.choice(BAD_COLOURS)]
    elif name == "boardsize":
        args = [str(rng.choice([2, 3, 3, 4, 4, 5, 0, 1, 11, -2, 10**30, "x", "4.5"]))]
    elif name == "komi":
        args = [rng.choice(["0", "6.5", "-3", ".5", "1e2", "nan", "x", "7,5", str(rng.uniform(-20, 20))])]
    elif name == "perft":
        deepest = 1 if shadow.game != "star" else 3
        args = [str(rng.choice(list(range(deepest + 1)) + [-1, "x"]))]
    elif name == "known_command":
        args = [rng.choice(COMMAND_NAMES + ["Name", "quit", "lz-analyze", junk_token(rng)])]
    elif name == "list_stars":
        args = rng.choice([[], ["b"], ["white"], ["x"]])
    elif name == "game":
        choices = [[], ["star"], ["STAR"], ["chess"]] + ([["amazons"]] if HAVE_AMAZONS else [])
        args = rng.choice(choices)
    elif name == "time_settings":
        args = [str(rng.randint(0, 600)), str(rng.randint(0, 60)), str(rng.randint(0, 25))]
    elif name == "time_left":
        args = [rng.choice(COLOURS), str(rng.randint(-5, 600)), str(rng.randint(0, 25))]
    elif name == "kgs-time_settings":
        args = rng.choice([["none"], ["absolute", "300"], ["byoyomi", "60", "10", "5"],
                           ["canadian", "60", "30", "10"], ["sudden"]])
    if rng.random() < 0.05:
        args.append(junk_token(rng))   # an extra argument
    if rng.random() < 0.05 and args:
        args.pop()                     # a missing one
    return " ".join([name, *args])


def random_line(rng: random.Random, shadow) -> bytes:
    roll = rng.random()
    if roll < 0.62:
        text = command_line(rng, shadow)
    elif roll < 0.72:
        text = rng.choice(["", "   ", "\t", "# a comment", "   # indented comment", "\r", "\x00"])
    elif roll < 0.88:
        text = " ".join(junk_token(rng) for _ in range(rng.randint(1, 4)))
    else:
        data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))).replace(b"\n", b"")
        if rng.random() < 0.001:
            data += b"z" * 70_000     # over-long
        if command_tokens(data)[1][:1] == ["quit"]:
            data = b"name"
        return data
    if rng.random() < 0.5:
        text = f"{rng.choice([0, 1, 7, 42, 1000, rng.randint(0, 10**6)])} {text}"
    if rng.random() < 0.1:
        text = text.replace(" ", "\t")
    if rng.random() < 0.1:
        text += " # trailing " + junk_token(rng)
    if rng.random() < 0.05:
        text += "\r"
    line = text.encode("utf-8")
    if command_tokens(line)[1][:1] == ["quit"]:   # quit would end the run early
        line = b"name"
    return line


class Shadow:
    """The position the session should have, kept with the engine directly."""

    def __init__(self, game: str, size: int) -> None:
        self.position = new_position(game, size)

    def apply(self, raw: bytes, response: bytes) -> None:
        _, tokens = command_tokens(raw)
        if not tokens or not response.startswith(b"="):
            return
        name, args = tokens[0], tokens[1:]
        position = self.position
        colour = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}.get(args[0].lower() if args else "")
        if name == "boardsize":
            self.position = new_position(position.game, int(args[0]))
        elif name == "clear_board":
            self.position = new_position(position.game, position.size)
        elif name == "game" and args:
            self.position = new_position(args[0].lower())
        elif name == "undo":
            position.undo()
        elif name == "play":
            position.play(position.parse_move(args[1]), colour)
        elif name == "genmove":
            answer = response.split(b"\n")[0].split(b" ", 1)[1].decode()
            if answer != "resign" and not position.is_over():
                position.play(position.parse_move(answer), colour)


def test_fuzz_in_process_then_subprocess() -> None:
    rng = random.Random(SEED)
    config = config_for(OPTIONS)

    async def in_process() -> tuple[list[bytes], bytes]:
        output = bytearray()
        finished = asyncio.Event()
        session = Session(config)
        conversation = Conversation(session, output.extend, finished.set)
        shadow = Shadow("star", 4)
        sent: list[bytes] = []
        answered = 0
        for number in range(LINES):
            line = random_line(rng, shadow.position)
            sent.append(line)
            conversation.feed(line + b"\n")
            deadline = time.monotonic() + HANG_SECONDS
            while conversation.busy:
                assert time.monotonic() < deadline, f"line {number} hangs: {line!r}"
                await asyncio.sleep(0.001)
            fresh = bytes(output[answered:])
            answered = len(output)
            if not expects_response(line):
                assert fresh == b"", f"line {number} {line!r} got {fresh!r}"
                continue
            match = RESPONSE.fullmatch(fresh)
            assert match, f"line {number} {line!r}: badly framed {fresh!r}"
            if len(line) <= 65536:
                assert match.group(1) == command_tokens(line)[0], f"line {number} {line!r}: id of {fresh!r}"
            shadow.apply(line, fresh)
            # Consistency: the session's game state is the shadow's, so every
            # failed command left it untouched.
            position = session.position
            assert (position.game, position.size) == (shadow.position.game, shadow.position.size)
            assert position.history == shadow.position.history, f"after line {number} {line!r}"
        sent.append(b"999 quit")
        conversation.feed(b"999 quit\n")
        await asyncio.wait_for(finished.wait(), HANG_SECONDS)
        assert output.endswith(b"=999\n\n")
        await conversation.close()
        return sent, bytes(output)

    sent, expected = asyncio.run(in_process())
    assert sum(expects_response(line) for line in sent) > LINES // 2

    result = subprocess.run(serve_command(*OPTIONS), input=b"\n".join(sent) + b"\n",
                            capture_output=True, cwd=REPO, env=subprocess_env(), timeout=HANG_SECONDS)
    assert result.returncode == 0
    assert result.stdout == expected
    assert b"Traceback" not in result.stderr
