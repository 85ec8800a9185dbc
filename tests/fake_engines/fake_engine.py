"""A scripted engine for the match runner's tests: plays random legal moves,
and misbehaves on purpose when told to.

    python fake_engine.py [--mode MODE] [--at N] [--in-game G] [--seed S]
                          [--delay SECONDS] [--once-file PATH] [--stderr-bytes K]
                          [--echo-time] [--move-delay SECONDS] [--winrate W]
                          [--log-file PATH]

It speaks the protocol on stdin/stdout with the rules core from ``engine``
(so its legal moves are the referee's). ``--at N`` picks its N-th ``genmove``
(or, for ``reject``, its N-th ``play``) of each game as the moment to
misbehave; ``--in-game G`` restricts that to the G-th game this process plays
(counted by ``clear_board``). With ``--once-file`` it misbehaves only if that
file does not exist yet, and creates it when it does, so a restarted engine
plays normally; the file holds the process ids of the engine that
misbehaved and of its parent (the runner, or a cluster worker). With
``--log-file`` it appends a line ``PID COMMAND`` to that file for every
``boardsize`` and ``clear_board`` it receives, so a test can count the games
its processes started.

Modes: ``random`` (never misbehaves), ``illegal`` (an occupied cell),
``garbage`` (text that is no move), ``silent`` (never answers; it reads its
input until that closes, then exits, so it outlives no referee), ``slow``
(answers after ``--delay`` seconds), ``die`` (exits with status 3), ``close``
(closes stdout, keeps running), ``error`` (``? engine failure``), ``huge``
(a 2 MB answer), ``trickle`` (one byte every 0.1 s, forever), ``resign``,
``reject`` (``? illegal move`` to a legal ``play``), ``badscore`` (a wrong
``final_score``), ``pass`` (always passes), ``crlf`` (CRLF line ends, no ids:
sloppy but acceptable), ``nostatus`` (the move without the ``=`` and with one
newline, ``5 a1\\n``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from stargtp.engine.colour import parse_colour
from stargtp.engine.errors import GameError
from stargtp.engine.games import find_game, games, new_position

MODES = ("random", "illegal", "garbage", "silent", "slow", "die", "close", "error", "huge",
         "trickle", "resign", "reject", "badscore", "pass", "crlf", "nostatus")


class FakeEngine:
    """One engine state; ``handle`` answers one command line."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.rng = random.Random(options.seed)
        self.game = games()[0]
        self.size = 4
        self.komi = 0.0
        self.position = new_position(self.game, self.size)
        self.genmoves = 0
        self.plays = 0
        self.games = 0
        self.no_status = False
        """The next answer goes without its status character (``nostatus``)."""

    def misbehave_now(self, count: int) -> bool:
        options = self.options
        if options.mode in ("random", "crlf", "pass", "badscore") or count != options.at:
            return False
        if options.in_game is not None and self.games != options.in_game:
            return False
        if options.once_file:
            try:  # created atomically: of engines racing to misbehave, one does
                fd = os.open(options.once_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                return False
            os.write(fd, f"{os.getpid()} {os.getppid()}\n".encode())  # who misbehaves, and who started it
            os.close(fd)
        return True

    def new_game(self) -> None:
        self.position = new_position(self.game, self.size)
        self.genmoves = 0
        self.plays = 0

    def handle(self, name: str, args: list[str]) -> tuple[bool, str]:
        """``(ok, text)`` for one command; special modes act inside."""
        if name == "protocol_version":
            return True, "2"
        if name == "name":
            return True, f"fake-{self.options.mode}"
        if name == "version":
            return True, "1"
        if name == "list_commands":
            return True, "\n".join(COMMANDS)
        if name == "known_command":
            known = COMMANDS + (ANALYSIS_COMMANDS if self.options.winrate is not None else ())
            return True, "true" if args and args[0] in known else "false"
        if name == "game":
            self.game = args[0]
            self.size = find_game(self.game).default_size
            self.new_game()
            return True, ""
        if name == "boardsize":
            try:
                self.size = int(args[0])
                self.new_game()
            except (ValueError, IndexError, GameError):
                return False, "unacceptable size"
            return True, ""
        if name == "clear_board":
            self.new_game()
            self.games += 1
            return True, ""
        if name == "komi":
            self.komi = float(args[0])
            return True, ""
        if name in ("time_settings", "time_left", "kgs-time_settings"):
            if self.options.echo_time:
                sys.stderr.write(" ".join([name, *args]) + "\n")
                sys.stderr.flush()
            return True, ""
        if name == "play":
            self.plays += 1
            if self.options.mode == "reject" and self.misbehave_now(self.plays):
                return False, "illegal move"
            try:
                colour = parse_colour(args[0])
                self.position.play(self.position.parse_move(args[1]), colour)
            except (ValueError, IndexError, GameError):
                return False, "illegal move"
            return True, ""
        if name == "genmove":
            return self.genmove(parse_colour(args[0]))
        if name == "genmove_analyze" and self.options.winrate is not None:
            ok, move = self.genmove(parse_colour(args[0]))
            if not ok:
                return ok, move
            return True, f"info move {move} visits 1 winrate {self.options.winrate:g} order 0 pv {move}\nplay {move}"
        if name == "final_score":
            try:
                result = self.position.rules.score(self.position, self.komi).gtp_result()
            except GameError:
                return False, "cannot score"
            if self.options.mode == "badscore":
                result = "W+99" if not result.startswith("W") else "B+99"
            return True, result
        if name == "stargtp-param":
            if len(args) == 2 and args[0] == "bad":
                return False, "unknown parameter bad"
            return True, ""
        if name == "quit":
            return True, ""
        return False, "unknown command"

    def genmove(self, colour: int) -> tuple[bool, str]:
        self.genmoves += 1
        mode = self.options.mode
        if mode == "pass":
            return self.play_move(colour, "pass")
        if not self.misbehave_now(self.genmoves):
            return self.play_random(colour)
        if mode == "illegal":
            occupied = [m for _, m in self.position.history if self.position.format_move(m) != "pass"]
            return True, self.position.format_move(occupied[0]) if occupied else "pass pass"
        if mode == "garbage":
            return True, "@@ not-a-move"
        if mode == "silent":
            for _ in sys.stdin:  # never answer; end with the referee
                pass
            os._exit(0)
        if mode == "slow":
            time.sleep(self.options.delay)
            return self.play_random(colour)
        if mode == "die":
            os._exit(3)
        if mode == "close":
            sys.stdout.flush()
            os.close(1)
            for _ in sys.stdin:  # keep running, reading, never answering
                pass
            os._exit(0)
        if mode == "error":
            return False, "engine failure"
        if mode == "huge":
            return True, "x" * 2_000_000
        if mode == "trickle":
            while True:
                os.write(1, b"=")
                time.sleep(0.1)
        if mode == "resign":
            return True, "resign"
        if mode == "nostatus":
            self.no_status = True
        return self.play_random(colour)

    def play_random(self, colour: int) -> tuple[bool, str]:
        moves = self.position.legal_moves()
        if not moves:
            return self.play_move(colour, "pass")
        move = self.rng.choice(moves)
        self.position.play(move, colour)
        return True, self.position.format_move(move)

    def play_move(self, colour: int, text: str) -> tuple[bool, str]:
        self.position.play(self.position.parse_move(text), colour)
        return True, text


ANALYSIS_COMMANDS = ("genmove_analyze",)
COMMANDS = ("protocol_version", "name", "version", "list_commands", "known_command", "game",
            "boardsize", "clear_board", "komi", "play", "genmove", "final_score", "time_settings",
            "time_left", "kgs-time_settings", "stargtp-param", "quit")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, default="random")
    parser.add_argument("--at", type=int, default=1)
    parser.add_argument("--in-game", type=int, default=None,
                        help="misbehave only in this game (1-based, counted by clear_board)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--once-file", default=None)
    parser.add_argument("--stderr-bytes", type=int, default=0,
                        help="write this many bytes to stderr for every command")
    parser.add_argument("--echo-time", action="store_true",
                        help="copy every time_settings / time_left command to stderr")
    parser.add_argument("--winrate", type=float, default=None,
                        help="know genmove_analyze, and report this win rate with every move")
    parser.add_argument("--move-delay", type=float, default=0.0,
                        help="sleep this long before every genmove answer")
    parser.add_argument("--log-file", default=None,
                        help="append 'PID COMMAND' to this file for every boardsize and clear_board")
    options = parser.parse_args()
    engine = FakeEngine(options)
    newline = "\r\n" if options.mode == "crlf" else "\n"
    for raw in sys.stdin:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        command_id = words.pop(0) if words[0].isdigit() else ""
        if options.mode == "crlf":
            command_id = ""
        if options.stderr_bytes:
            sys.stderr.write("e" * (options.stderr_bytes - 1) + "\n")
            sys.stderr.flush()
        if words[0] == "genmove" and options.move_delay:
            time.sleep(options.move_delay)
        if options.log_file and words[0] in ("boardsize", "clear_board"):
            with open(options.log_file, "a", encoding="utf-8") as log:  # one short append: whole lines
                log.write(f"{os.getpid()} {' '.join(words)}\n")
        ok, text = engine.handle(words[0], words[1:])
        if engine.no_status:  # one line, no status, no blank line: a referee must not wait for more
            engine.no_status = False
            sys.stdout.write(command_id + (" " + text if text else "") + "\n")
            sys.stdout.flush()
            continue
        answer = ("=" if ok else "?") + command_id + (" " + text if text else "")
        sys.stdout.write(answer.replace("\n", newline) + newline + newline)
        sys.stdout.flush()
        if words[0] == "quit":
            return


if __name__ == "__main__":
    main()
