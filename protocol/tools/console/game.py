"""A human against the engine: :class:`HumanGame` speaks the protocol to the
engine through :class:`stargtp.protocol.controller.GtpController` and keeps its own
position with the rules core. The human's input is checked there before it
is sent, the engine's answers are played there (an answer the rules reject
ends the session: console and engine no longer agree), and the board is drawn
from it after every move. The score report is the game's own
(``rules.score(position, komi).describe(position)``)."""

from __future__ import annotations

import asyncio
import os
import signal
import textwrap
import threading
import time
from typing import Any

from stargtp.engine.colour import colour_name, opponent
from stargtp.engine.errors import GameError
from stargtp.engine.games import find_game
from stargtp.protocol.controller import ControllerError, EngineError, GtpController
from stargtp.protocol.tools import plural
from stargtp.protocol.tools.console.board import board_for, board_picture
from stargtp.protocol.tools.console.completion import matching, move_completions

NO_LIMIT = 86400.0
"""Seconds allowed for an answer when no timeout is given: a day, i.e. none."""

QUIT_WINDOW = 1.0
"""Seconds after a Ctrl-C that interrupted the engine in which a second Ctrl-C quits."""


class ConsoleError(Exception):
    """The session cannot go on (engine gone, or engine and console disagree)."""


HUMAN_COMMANDS: dict[str, str] = {
    "undo": "take back your last move (and the engine's answer)",
    "hint": "ask the engine which move it would play for you",
    "board": "draw the board again",
    "score": "the score as it stands (Amazons: territories)",
    "moves": "list the legal moves",
    "new": "start a new game",
    "save": "write the game's SGF record to FILE",
    "resign": "give up this game",
    "help": "this list",
    "quit": "leave (also: exit, Ctrl-D)",
}

COMMAND_ARGUMENTS: dict[str, str] = {"save": "FILE"}
"""The arguments of the commands that take one, as ``help`` shows them."""


def score_report(position: Any, komi: float = 0.0) -> list[str]:
    """The game's score report, a line each: for *Star all three systems,
    each star's owned pericells, the dead groups and the result; for the
    Amazons the result once decided, and the territories."""
    return position.rules.score(position, komi).describe(position)


class HumanGame:
    """One human against one engine, both following the same position."""

    def __init__(self, engine: GtpController, ui: Any, *, game: str, size: int | None, human: int,
                 komi: float = 0.0, move_timeout: float | None = None, start: Any = None,
                 options: dict[str, bool] | None = None) -> None:
        self.engine = engine
        self.ui = ui
        self.game = game
        self.rules = find_game(game)
        self.size = size if size is not None else self.rules.default_size
        self.human = human
        self.komi = komi
        self.move_timeout = NO_LIMIT if move_timeout is None else move_timeout
        self.options = dict(options or {})
        """The game's options (``--rule``: ``{"swap": True}``) for every new game."""
        self.position: Any = self.rules.new_position(self.size, self.options)
        self.start = start
        """A recorded game to go on from (its moves are replayed at setup), or None."""
        self.resigned: int | None = None
        """The colour that resigned this game, if any."""
        self.announced = False
        self.hint: Any = None
        self.thinking = False
        """Whether the engine is searching (``genmove``, ``reg_genmove``): Ctrl-C interrupts it."""
        self.interrupted_at: float | None = None
        """When Ctrl-C last interrupted the engine (``time.monotonic``)."""
        self.loop: asyncio.AbstractEventLoop | None = None

    @property
    def engine_colour(self) -> int:
        return opponent(self.human)

    def is_over(self) -> bool:
        return self.resigned is not None or self.position.is_over()

    def passes(self) -> bool:
        """Whether a player with nothing to play passes (*Star), rather than
        losing the game (the Amazons)."""
        return self.rules.no_move(self.position, self.komi) is not None

    # -- talking to the engine ----------------------------------------------------------
    async def send(self, command: str, timeout: float | None = None) -> str:
        try:
            return await self.engine.send(command, timeout=timeout)
        except EngineError:
            raise
        except ControllerError as error:
            raise ConsoleError(f"the engine stopped answering: {error}") from None

    async def setup(self) -> None:
        """Tell the engine the game, size and komi, on a cleared board."""
        try:
            if await self.engine.known_command("game"):
                await self.send(f"game {self.game}")
            await self.send(f"boardsize {self.size}")
            await self.send("clear_board")
            await self.send(f"komi {self.komi:g}")
            if self.start is not None and self.start.setup() is not None:
                await self.set_up(self.start)
            for colour, move in self.start.history if self.start is not None else ():
                await self.send(f"play {colour_name(colour)} {self.start.format_move(move)}")
                self.position.play(move, colour)
        except EngineError as error:
            raise ConsoleError(f"the engine refused the game setup: {error.message}") from None
        except ControllerError as error:
            raise ConsoleError(f"the engine stopped answering: {error}") from None

    async def set_up(self, start: Any) -> None:
        """Give the engine the set-up a recorded game starts from
        (``stargtp-setup``), and start the console's board from it."""
        found = self.rules.setup_of(start)
        if found is None:
            raise ConsoleError(f"the record starts from a set-up, and {self.rules.title} has none")
        to_move, pieces = found
        words = "".join(f" {kind} {' '.join(points)}" for kind, points in pieces.items() if points)
        await self.send(f"stargtp-setup {colour_name(to_move)}{words}")
        self.position = self.rules.from_setup(*start.setup())

    async def search(self, command: str, notice: str | None = None) -> str:
        """``genmove`` or ``reg_genmove``: from before ``notice`` is said until
        the answer, Ctrl-C makes the engine answer now (:meth:`on_interrupt`)."""
        self.thinking = True
        try:
            if notice is not None:
                self.say(notice, "class:info")
            return await self.send(command, timeout=self.move_timeout)
        finally:
            self.thinking = False

    # -- Ctrl-C ---------------------------------------------------------------------------
    def on_interrupt(self, signum: int = signal.SIGINT, frame: Any = None) -> None:
        """The session's SIGINT handler. While the engine thinks, the first
        Ctrl-C sends it ``# interrupt`` (it answers with its best move so far);
        a second one within :data:`QUIT_WINDOW` seconds, or one while the
        engine does not think, quits (KeyboardInterrupt, as Python's own
        handler does)."""
        if not self.thinking or self.second_press():
            raise KeyboardInterrupt
        self.interrupted_at = time.monotonic()
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.interrupt_engine)

    def second_press(self) -> bool:
        """Whether a Ctrl-C now comes within :data:`QUIT_WINDOW` seconds of one that interrupted the engine."""
        return self.interrupted_at is not None and time.monotonic() - self.interrupted_at < QUIT_WINDOW

    def interrupt_engine(self) -> None:
        if self.thinking:
            self.engine.interrupt()
            self.say("interrupted: the engine moves now (Ctrl-C again within a second quits)", "class:info")

    # -- the session --------------------------------------------------------------------
    async def run(self) -> int:
        """The session, with :meth:`on_interrupt` as the SIGINT handler (in the main thread)."""
        previous = None
        if threading.current_thread() is threading.main_thread():
            self.loop = asyncio.get_running_loop()
            previous = signal.signal(signal.SIGINT, self.on_interrupt)
        self.ui.quit_on_interrupt = self.second_press
        try:
            return await self.session()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    async def session(self) -> int:
        await self.setup()
        self.say(self.greeting(), "class:title")
        self.draw()
        while True:
            if not self.is_over() and self.position.to_move == self.engine_colour:
                await self.engine_move()
                continue
            if self.is_over() and not self.announced:
                await self.announce()
            line = await self.ui.read(self.prompt())
            if line is None:
                return 0
            words = line.split()
            if not words:
                continue
            if words[0].lower() in ("quit", "exit"):
                return 0
            await self.command(words, line)

    def greeting(self) -> str:
        """The first line: the game, the human's colour, where help is."""
        text = f"{self.title()} -- you play {colour_name(self.human)}; 'help' lists the commands"
        return text if self.ui.plain else text + ", Tab completes"

    def say(self, text: str, style: str = "") -> None:
        """A message, wrapped to the terminal's width (continuation lines indented)."""
        columns = self.ui.columns
        if len(text) <= columns:
            self.ui.say(text, style)
            return
        indent = " " * (len(text) - len(text.lstrip(" ")) + 4)
        for line in textwrap.wrap(text, columns, subsequent_indent=indent, break_on_hyphens=False):
            self.ui.say(line, style)

    def title(self) -> str:
        return board_for(self.position).heading(self.size)

    def prompt(self) -> str:
        if self.is_over():
            return "game over> "
        return f"{colour_name(self.human)} {len(self.position.history) + 1}> "

    def draw(self) -> None:
        self.ui.show(board_picture(self.position, plain=self.ui.plain, columns=self.ui.columns,
                                   rows=self.ui.rows, hint=self.hint, komi=self.komi))

    async def engine_move(self) -> None:
        colour = self.engine_colour
        try:
            answer = await self.search(f"genmove {colour_name(colour)}",
                                       f"{colour_name(colour)} (engine) is thinking...")
        except EngineError as error:
            raise ConsoleError(f"genmove failed: {error.message}") from None
        answer = answer.strip()
        if answer.lower() == "resign":
            self.resigned = colour
            self.say(f"{colour_name(colour)} (engine) resigns.", "class:engine")
            return
        try:
            move = self.position.parse_move(answer)
            self.position.play(move, colour)
        except GameError as error:
            raise ConsoleError(f"the engine played {answer!r}, which the rules here reject ({error}); "
                               f"engine and console no longer agree") from None
        self.hint = None
        self.say(f"{colour_name(colour)} (engine) plays {self.position.format_move(move)}", "class:engine")
        self.draw()

    async def human_move(self, text: str) -> None:
        position = self.position
        if self.is_over():
            self.say("the game is over: 'undo', 'new' or 'quit'", "class:error")
            return
        try:
            move = position.parse_move(text)
            position.play(move, self.human)
        except GameError as error:
            self.say(f"illegal move: {error}", "class:error")
            return
        canonical = position.format_move(move)
        try:
            await self.send(f"play {colour_name(self.human)} {canonical}")
        except EngineError as error:
            position.undo()
            self.say(f"the engine refused {canonical}: {error.message}", "class:error")
            return
        self.hint = None
        self.draw()

    def _names_a_move(self, text: str) -> bool:
        """Whether ``text`` is a move of the game (legal now or not)."""
        try:
            self.position.parse_move(text)
        except GameError:
            return False
        return True

    async def command(self, words: list[str], line: str = "") -> None:
        name = words[0].lower()
        if name not in HUMAN_COMMANDS:
            if (len(words) == 1 and name != "pass" and not any(ch.isdigit() for ch in name)
                    and not self._names_a_move(name)):
                # Every cell label and Amazons move has a digit, and this is no other
                # move (swap-pieces): it was meant as a command.
                self.say(f"unknown command {words[0]!r} ('help' lists the commands)", "class:error")
                return
            await self.human_move(" ".join(words))
            return
        if name == "help":
            for command, text in HUMAN_COMMANDS.items():
                usage = f"{command} {COMMAND_ARGUMENTS.get(command, '')}".strip()
                self.say(f"  {usage:<11}{text}")
            self.say("  or a move: " + self.rules.move_hint)
            if not self.ui.plain:
                self.say("  Tab completes commands and moves; Ctrl-C while the engine thinks makes it move")
        elif name == "save":
            await self.save((line or " ".join(words)).strip()[len(words[0]):].strip())
        elif name == "board":
            self.draw()
        elif name == "score":
            self.report()
        elif name == "moves":
            self.list_moves()
        elif name == "undo":
            await self.undo()
        elif name == "hint":
            await self.ask_hint()
        elif name == "resign":
            if self.is_over():
                self.say("the game is already over", "class:error")
            else:
                self.resigned = self.human
        elif name == "new":
            self.start = None  # a new game starts from the usual start, not from a --load record
            await self.setup()
            self.position = self.rules.new_position(self.size, self.options)
            self.resigned, self.announced, self.hint = None, False, None
            self.say("new game", "class:title")
            self.draw()

    async def save(self, path: str) -> None:
        """``save FILE``: the game's SGF record (:meth:`record`) written to FILE."""
        if not path:
            self.say("save: give a file name: save FILE", "class:error")
            return
        record = await self.record()
        if record is None:
            return
        path = os.path.expanduser(path)
        try:
            with open(path, "w", encoding="utf-8") as file:
                file.write(record.rstrip("\n") + "\n")
        except OSError as error:
            self.say(f"save: cannot write {path}: {error.strerror or error}", "class:error")
            return
        self.say(f"saved the game ({plural(len(self.position.history), 'move')}) to {path}", "class:info")

    async def record(self) -> str | None:
        """The game's SGF record: the engine's ``printsgf`` answer or, when it
        has none, the console's own (the game's record writer); None, said,
        when neither can give one."""
        try:
            return await self.send("printsgf")
        except EngineError as error:
            refusal = error.message
        if self.rules.write_record is None:
            self.say(f"save: no record: the engine answered {refusal!r} to printsgf, "
                     f"and {self.game} has no records", "class:error")
            return None
        return self.rules.write_record(self.position, komi=self.komi)

    def report(self) -> None:
        for line in score_report(self.position, self.komi):
            self.say(line)

    def list_moves(self) -> None:
        if self.is_over():
            self.say("no moves: the game is over")
            return
        self.say(board_for(self.position).list_moves(self.position))

    async def undo(self) -> None:
        """Undo back to before the human's last move: the engine's answer too."""
        history = self.position.history
        if not any(colour == self.human for colour, _ in history):
            self.say("cannot undo: you have not moved yet", "class:error")
            return
        while True:
            colour, _ = history[-1]
            try:
                await self.send("undo")
            except EngineError as error:
                raise ConsoleError(f"the engine could not undo: {error.message}") from None
            self.position.undo()
            if colour == self.human:
                break
        self.resigned, self.announced, self.hint = None, False, None
        self.say("undone", "class:info")
        self.draw()

    async def ask_hint(self) -> None:
        if self.is_over():
            self.say("the game is over", "class:error")
            return
        try:
            answer = (await self.search(f"reg_genmove {colour_name(self.human)}")).strip()
        except EngineError as error:
            self.say(f"no hint: {error.message}", "class:error")
            return
        if answer.lower() == "resign":
            self.say("hint: the engine would resign here", "class:engine")
            return
        try:
            move = self.position.parse_move(answer)
        except GameError:
            self.say(f"the engine hinted {answer!r}, which is not a move here", "class:error")
            return
        # A pass is not marked on the board: it has no place there.
        self.hint = None if move == self.rules.no_move(self.position, self.komi) else move
        self.say(f"hint: {self.position.format_move(move)}", "class:engine")
        self.draw()  # last, so that on a small terminal the board stays whole above the prompt

    async def announce(self) -> None:
        """The end of the game: who won, and the full score."""
        self.announced = True
        position = self.position
        if self.resigned is not None:
            winner = opponent(self.resigned)
            self.say(f"{colour_name(self.resigned)} resigned: {colour_name(winner)} wins", "class:title")
        elif self.passes():
            self.say("game over", "class:title")  # two passes
        else:
            self.say(f"game over: {colour_name(position.to_move)} has no move, "
                        f"{colour_name(opponent(position.to_move))} wins", "class:title")
        if self.passes() or self.resigned is None:
            self.report()  # a resigned game without passes (the Amazons) has nothing to score
        if self.resigned is None:
            try:
                self.say(f"  the engine's final_score: {(await self.send('final_score')).strip()}", "class:info")
            except EngineError as error:
                self.say(f"  the engine's final_score failed: {error.message}", "class:info")

    # -- completion ---------------------------------------------------------------------
    def completions(self, before: list[str], word: str) -> list[str]:
        if before:
            return []
        found = [] if self.is_over() else move_completions(self.position, word, self.human)
        return found + matching(list(HUMAN_COMMANDS) + ["exit"], word)
