"""The raw protocol console: every line typed is sent as a command and the
answer printed as the protocol frames it (``=id result`` and a blank line).
The console follows ``game``, ``boardsize``, ``clear_board``, ``play``,
``genmove`` and ``undo`` in a position of its own, so it can complete legal
vertices and draw the board."""

from __future__ import annotations

import logging
import re
from typing import Any

from stargtp.engine.colour import parse_colour
from stargtp.engine.errors import GameError
from stargtp.engine.games import games, new_position
from stargtp.protocol.controller import ControllerError, EngineError, GtpController
from stargtp.protocol.tools.console.board import board_picture
from stargtp.protocol.tools.console.completion import matching, move_completions
from stargtp.protocol.tools.console.game import NO_LIMIT

logger = logging.getLogger(__name__)

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_COMMAND_ID = re.compile(r"(\d+)\s+(.*)")
COLOUR_COMMANDS = ("play", "genmove", "reg_genmove", "list_stars", "time_left")


class RawConsole:
    """Lines typed go to the engine as commands; answers come back framed.

    The console mirrors the engine's position from the commands that change
    it, once it knows the board: after ``game NAME`` (which sets the game's
    default size), ``boardsize N``, or ``--game`` / ``--size`` at start.
    Without them the board size of a server is unknown (the protocol has no
    command to ask it), so there is no board and no vertex completion.
    """

    def __init__(self, engine: GtpController, ui: Any, *, game: str | None = None, size: int | None = None,
                 show_board: bool = True, timeout: float | None = None) -> None:
        self.engine = engine
        self.ui = ui
        self.wanted_game = game
        """``--game``: sent as ``game NAME`` at start."""
        self.game = game
        self.size = size
        """``--size``: sent as ``boardsize N`` and ``clear_board`` at start."""
        self.show_board = show_board
        self.timeout = NO_LIMIT if timeout is None else timeout
        self.mirror: Any = None
        self.commands: list[str] = []
        self.last_command = ""

    async def run(self) -> int:
        try:
            self.commands = (await self.engine.send("list_commands")).split()
        except EngineError:
            self.commands = []
        except ControllerError as error:
            self.problem(f"stargtp play: {error}")
            return 1
        if self.game is None and "game" in self.commands:
            try:
                self.game = (await self.engine.send("game")).strip() or None
            except ControllerError:
                self.game = None
        start = []
        if self.wanted_game is not None:
            start.append(f"game {self.wanted_game}")
        if self.size is not None:
            start += [f"boardsize {self.size}", "clear_board"]
        for command in start:
            if not await self.execute(command, echo=True):
                return 1
        if not self.ui.plain:
            self.ui.say(f"connected to {self.engine.description}; lines are sent as commands "
                        f"(Tab completes, Ctrl-D leaves)", "class:info")
            if self.mirror is None:
                self.ui.say("the board appears once the size is known: after 'boardsize N' or "
                            "'game NAME' (or start with --size N)", "class:info")
        while True:
            line = await self.ui.read("" if self.ui.plain else "gtp> ")
            if line is None:
                return 0
            if not await self.execute(line):
                return 1
            if self.last_command == "quit":
                return 0

    async def execute(self, line: str, echo: bool = False) -> bool:
        """Send one line; False when the connection is gone."""
        text = _CONTROL.sub("", line.replace("\t", " ")).split("#", 1)[0].strip()
        if not text:
            return True
        command_id = ""
        match = _COMMAND_ID.fullmatch(text)
        if match:
            command_id, text = match.group(1), match.group(2)
        words = text.split()
        self.last_command = words[0]
        if echo and not self.ui.plain:  # plain output stays a pure protocol transcript
            self.ui.say(text, "class:info")
        try:
            answer = await self.engine.send(text, timeout=self.timeout)
        except EngineError as error:
            self.ui.say(f"?{command_id} {error.message}\n", "class:error")
            return True
        except ControllerError as error:
            self.problem(f"stargtp play: {error}")
            return False
        self.ui.say(f"={command_id} {answer}\n" if answer else f"={command_id}\n")
        changed = self.follow(words, answer)
        if changed and self.show_board and not self.ui.plain and self.mirror is not None:
            self.ui.show(board_picture(self.mirror, plain=False, columns=self.ui.columns, rows=self.ui.rows))
        return True

    def follow(self, words: list[str], answer: str) -> bool:
        """Update the mirror after a successful command; True if the board changed."""
        name, args = words[0], words[1:]
        try:
            if name == "game" and args:
                self.game = args[0].lower()
                self.mirror = new_position(self.game)
            elif name == "boardsize" and len(args) == 1:
                self.mirror = new_position(self.game or games()[0], int(args[0]))
            elif name == "clear_board" and self.mirror is not None:
                self.mirror = new_position(self.mirror.game, self.mirror.size)
            elif self.mirror is None:
                return False
            elif name == "play" and len(args) == 2:
                self.mirror.play(self.mirror.parse_move(args[1]), parse_colour(args[0]))
            elif name == "genmove" and len(args) == 1 and answer.strip().lower() != "resign":
                self.mirror.play(self.mirror.parse_move(answer.strip()), parse_colour(args[0]))
            elif name == "undo":
                self.mirror.undo()
            elif name in ("loadsgf", "stargtp-loadsgf-text", "stargtp-setup", "set_position", "setup"):
                self.mirror = None  # cannot follow this one
                return False
            else:
                return False
        except (GameError, ValueError) as error:
            self.problem(f"(the console lost track of the board: {error})")
            self.mirror = None
            return False
        return True

    def problem(self, text: str) -> None:
        """A message of the console's own: logged (on stderr) in plain mode,
        where stdout carries only the engine's answers."""
        if self.ui.plain:
            logger.error(text)
        else:
            self.ui.say(text, "class:error")

    def completions(self, before: list[str], word: str) -> list[str]:
        if before and before[0].isdigit():
            before = before[1:]
        if not before:
            return matching(self.commands, word)
        name = before[0]
        if name == "known_command" and len(before) == 1:
            return matching(self.commands, word)
        if name == "game" and len(before) == 1:
            return matching(games(), word)
        if name in COLOUR_COMMANDS and len(before) == 1:
            return matching(("black", "white"), word)
        if name == "play" and len(before) == 2 and self.mirror is not None:
            try:
                colour = parse_colour(before[1])
            except ValueError:
                return []
            return move_completions(self.mirror, word, colour)
        return []
