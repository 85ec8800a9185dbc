"""Quarry, the GTK board-game front end Debian packages (``quarry``), plays a
whole 6x6 Amazons game between two ``stargtp serve`` engines under Xvfb.

Quarry has no command line for starting a game, so the test writes its
configuration file in a temporary HOME (one GTP engine, a new Amazons game of
size 6 with both sides played by it), then drives the GUI with xdotool:
New Game, Forward, Play (their keyboard mnemonics); at the end Save (to an
SGF file) and Quit. Quarry's own GTP log (``--gtp-log``) is kept.

The engine command line is ``tests/quarry_engine.py``: ``stargtp serve``
behind a relay that passes every byte through and, when Quarry closes its
input (Quarry sends no ``quit``), asks the engine for its own record
(``stargtp-position``, ``printsgf``).

Checked: Quarry's exact set-up sequence (including ``list_games`` and
``set_game Amazons``); every move in Quarry's log is the move in each
engine's own record, in order and colour; Quarry's saved game has the same
moves and a result, the winner stargtp's record gives; the final position of
``stargtp-position`` is the one Quarry's moves lead to, and it is over.

With STARGTP_QUARRY_SCREENSHOT=PATH.png the board window is saved at the end
of the game (xwd and ImageMagick): docs/images/quarry-amazons.png was made so.

Skipped when Quarry, Xvfb or xdotool is missing, unless
STARGTP_REQUIRE_QUARRY=1 (as in .ci/run), where that fails.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.games import BUILT_IN, new_position
from stargtp.protocol.server.views import position_data

HERE = Path(__file__).resolve().parent
QUARRY = shutil.which("quarry") or shutil.which("quarry", path="/usr/games")
TOOLS = {"quarry": QUARRY, "Xvfb": shutil.which("Xvfb"), "xdotool": shutil.which("xdotool")}
REQUIRED = os.environ.get("STARGTP_REQUIRE_QUARRY") == "1"

SIZE = 6
ENGINE_OPTIONS = ["--workers", "1", "--playouts", "50", "--seed", "1"]
GAME_SECONDS = 600.0
"""A whole game takes about 10 s on a busy 2-core machine; this only catches a hang."""
STEP_SECONDS = 60.0
"""For one GUI step (a window to appear, a file to be written)."""


def require_tools() -> None:
    """Skip without Quarry, Xvfb or xdotool; fail under STARGTP_REQUIRE_QUARRY=1."""
    missing = ", ".join(name for name, path in TOOLS.items() if path is None)
    if missing and REQUIRED:
        pytest.fail(f"STARGTP_REQUIRE_QUARRY=1 but {missing} is not installed", pytrace=False)
    if missing:
        pytest.skip(f"needs {missing} (apt-get install quarry xvfb xdotool)")


def quarry_config(records: Path) -> str:
    """Quarry's configuration file: one GTP engine (stargtp behind the relay)
    playing both sides of a new 6x6 Amazons game without a clock."""
    command = " ".join(shlex.quote(word) for word in
                       [sys.executable, str(HERE / "quarry_engine.py"), str(records), *ENGINE_OPTIONS])
    return f"""[GTP Engine "stargtp test"]
Screen name format	= "%n %v"
Name			= "stargtp"
Version			= "test"
Command line		= {json.dumps(command)}
Supported games		= "Amazons"

[New Game Parameters]
Game			= "Amazons"
White player name	= "stargtp"
White is computer	= true
Engine playing white	= "stargtp test"
Black player name	= "stargtp"
Black is computer	= true
Engine playing black	= "stargtp test"

[New Amazons Game Parameters]
Board size		= {SIZE}
Time control type	= 0
"""


class Display:
    """An Xvfb server on a display number it picks itself (-displayfd)."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [TOOLS["Xvfb"], "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        assert number.isdigit(), "Xvfb did not report its display"
        self.name = f":{number}"

    def xdotool(self, *args: str) -> str:
        done = subprocess.run([TOOLS["xdotool"], *args], env={**os.environ, "DISPLAY": self.name},
                              capture_output=True, text=True, timeout=STEP_SECONDS)
        return done.stdout

    def window(self, title: str) -> str:
        """The id of the visible window whose title matches ``title``, waiting for it."""
        deadline = time.monotonic() + STEP_SECONDS
        while time.monotonic() < deadline:
            found = self.xdotool("search", "--onlyvisible", "--name", title).split()
            if found:
                return found[-1]
            time.sleep(0.2)
        raise AssertionError(f"no window {title!r} appeared")

    def keys(self, window: str, *keys: str) -> None:
        """Type ``keys`` into ``window``. Without a window manager the
        keyboard goes to the window under the pointer, so the pointer moves
        into the window first; the keys are the buttons' mnemonics, which
        do not depend on the layout or the fonts."""
        geometry = self.xdotool("getwindowgeometry", "--shell", window)
        size = dict(line.split("=") for line in geometry.split())
        self.xdotool("mousemove", "--window", window,
                     str(int(size["WIDTH"]) // 2), str(int(size["HEIGHT"]) // 2))
        for key in keys:
            self.xdotool("key", key)

    def screenshot(self, window: str, path: str) -> None:
        """Save ``window`` as a PNG (needs xwd and ImageMagick's convert)."""
        env = {**os.environ, "DISPLAY": self.name}
        picture = subprocess.run(["xwd", "-silent", "-id", window], env=env, capture_output=True,
                                 check=True, timeout=STEP_SECONDS).stdout
        subprocess.run(["convert", "xwd:-", f"png:{path}"], input=picture, check=True,
                       timeout=STEP_SECONDS)

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=STEP_SECONDS)


def wait_for(predicate, what: str, seconds: float = STEP_SECONDS):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


# -- reading the logs ---------------------------------------------------------------

COMMAND = re.compile(r"^> (.*)$")


def exchanges(text: str) -> list[tuple[str, str]]:
    """(command, response text) pairs of a GTP log written as Quarry writes it
    (``> command``, then the response lines indented by two spaces) or as the
    relay does (``> command``, then the response as sent)."""
    pairs: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        match = COMMAND.match(line)
        if match:
            pairs.append((match.group(1).strip(), []))
        elif pairs and line.strip():
            pairs[-1][1].append(line.strip())
    return [(command, "\n".join(lines)) for command, lines in pairs]


def moves_of(pairs: list[tuple[str, str]]) -> list[tuple[int, str]]:
    """The moves a log shows, in order: ``play C M`` and ``genmove C``'s answer,
    each as (colour, stargtp's canonical text)."""
    position = new_position("amazons", SIZE)
    moves = []
    for command, response in pairs:
        words = command.split()
        if words[0] == "play" and response == "=":
            colour, text = words[1], words[2]
        elif words[0] == "genmove" and response.startswith("= "):
            colour, text = words[1], response[2:]
        else:
            continue
        moves.append((BLACK if colour.lower() == "black" else WHITE,
                      position.format_move(position.parse_move(text))))
    return moves


def sgf_moves(record: str) -> tuple[list[tuple[int, str]], str]:
    """The moves and the RE value of Quarry's saved game. Quarry writes an
    Amazons move as from, to and arrow points, columns and rows as letters,
    rows from the top, and names each side by its own colour (W moves first)."""
    position = new_position("amazons", SIZE)
    names = "abcdefghij"

    def square(point: str) -> str:
        return f"{point[0]}{SIZE - names.index(point[1])}"

    moves = []
    for colour, value in re.findall(r";\s*([BW])\[([a-z]{6})\]", record):
        text = "-".join(square(value[i:i + 2]) for i in (0, 2, 4))
        moves.append((BLACK if colour == "B" else WHITE, position.format_move(position.parse_move(text))))
    result = re.search(r"RE\[([^\]]*)\]", record)
    return moves, result.group(1) if result else ""


def game_over(records: Path) -> bool:
    """Both engines have every move of a finished game (the relay's logs)."""
    logs = sorted(records.glob("*.log"))
    if len(logs) != 2:
        return False
    games = [moves_of(exchanges(log.read_text())) for log in logs]
    if not games[0] or games[0] != games[1]:
        return False
    position = new_position("amazons", SIZE)
    for colour, text in games[0]:
        position.play(position.parse_move(text), colour)
    return position.is_over()


# -- the test -----------------------------------------------------------------------


def test_quarry_plays_a_whole_amazons_game(tmp_path):
    require_tools()
    home = tmp_path / "home"
    home.mkdir()
    records = tmp_path / "records"
    records.mkdir()
    (home / ".quarry").write_text(quarry_config(records))
    saved = tmp_path / "quarry-game.sgf"

    display = Display()
    quarry = None
    try:
        env = {**os.environ, "HOME": str(home), "DISPLAY": display.name}
        quarry = subprocess.Popen([QUARRY, f"--gtp-log={tmp_path / 'gtp'}"], env=env, cwd=tmp_path,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        centre = display.window("^Quarry Control Center$")
        display.xdotool("windowmove", centre, "900", "0")  # no window manager: keep it in sight
        display.keys(centre, "alt+n")  # New Game
        assistant = display.window("^New Game$")
        # Forward (Game & Players, preset by the configuration), then Play (the
        # 6x6 board, preset too): the X server queues the keys, and Quarry
        # shows the second page before it reads the second key.
        display.keys(assistant, "alt+f", "alt+p")
        board = display.window(" vs\\. ")

        def ended() -> bool:
            assert quarry.poll() is None, f"Quarry stopped (status {quarry.returncode}) during the game"
            return game_over(records)

        wait_for(ended, "the end of the game", GAME_SECONDS)

        if os.environ.get("STARGTP_QUARRY_SCREENSHOT"):
            time.sleep(1.0)  # let Quarry draw the last move
            display.screenshot(board, os.environ["STARGTP_QUARRY_SCREENSHOT"])
        display.keys(board, "ctrl+s")  # Save: a new record, so Quarry asks for a file name
        chooser = display.window("^Save As")
        display.keys(chooser, "ctrl+a")  # the name field has the focus
        display.xdotool("type", "--delay", "10", str(saved))
        display.xdotool("key", "Return")
        wait_for(saved.exists, "Quarry to save the game")
        display.keys(centre, "alt+q")  # Quit: Quarry sends quit to both engines
        quarry.wait(timeout=STEP_SECONDS)
        wait_for(lambda: len(list(records.glob("*.json"))) == 2, "the engines' records")
    finally:
        if quarry is not None and quarry.poll() is None:
            quarry.terminate()
            quarry.wait(timeout=STEP_SECONDS)
        display.close()

    quarry_moves, result = sgf_moves(saved.read_text())
    assert result in ("B+", "W+"), f"Quarry did not end the game: RE[{result}]"
    assert quarry_moves

    logs = sorted(tmp_path.glob("gtp.*"))
    assert len(logs) == 2
    for log in logs:
        pairs = exchanges(log.read_text())
        # Quarry's set-up, exactly as its source sends it.
        assert [command for command, _ in pairs[:8]] == [
            "protocol_version", "name", "version", "list_commands", "list_games",
            "set_game Amazons", f"boardsize {SIZE}", "clear_board"]
        assert pairs[4][1] == "= " + "\n".join(game.gtp_name for game in BUILT_IN)
        assert all(response.startswith("=") for _, response in pairs), \
            [pair for pair in pairs if not pair[1].startswith("=")]

        # Every move in Quarry's log is the move in the engine's own record.
        engine = json.loads((records / (log.name.split(".")[-1] + ".json")).read_text())
        position = json.loads(engine["stargtp-position"][2:])
        own = [(BLACK if colour == "black" else WHITE, text) for colour, text in position["moves"]]
        assert moves_of(pairs) == own == quarry_moves

        # The final position is the one Quarry's moves lead to, and it is over.
        replay = new_position("amazons", SIZE)
        for colour, text in quarry_moves:
            replay.play(replay.parse_move(text), colour)
        assert replay.is_over() and position["over"] is True
        assert position == position_data(replay, 0.0)
        assert len(position["board"]["arrows"]) == len(quarry_moves)
        winner = position["score"]["result"][0]
        assert result == f"{winner}+"
