"""A tiny front end that knows the games only through the protocol.

It imports nothing from ``engine`` or ``protocol`` and names no game: it
starts ``stargtp serve`` as a subprocess and talks GTP over its pipes, the
way a GUI would. It learns the games from ``stargtp-games`` (their names,
sizes, how many parts a move has and what separates them, and the pass);
for each game it reads the board from ``stargtp-geometry`` (and draws it as
text from that JSON alone: ``cells`` at their x/y, or ``squares`` by column
and row), the pieces from ``stargtp-position``, the legal moves from
``all_legal`` and ``is_legal``, and plays a whole game: the front end picks
random legal moves (seeded), the engine answers with ``genmove``. At the
end it prints the board and ``final_score`` (or why there is none: a
resigned game) and saves ``printsgf``. Run it from the repository root:

    python examples/protocol_frontend.py [--seed S] [--playouts N] [--out DIR]

With ``--seed`` the games repeat move for move (the engine searches a fixed
number of playouts in one worker, and the front end's choices use the same
seed). The records go to ``DIR/GAME.sgf``: ``star.sgf``, ``amazons.sgf``,
``hex.sgf``, ``y.sgf`` with today's server.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

MIN_POINTS = 36
"""Unless ``--size`` says otherwise, each game is played on its smallest
board with at least this many points (cells or squares): *Star 4 rings,
Amazons 6x6, Hex 6x6, Y 8 a side."""

MAX_PLIES = 200
"""A safety cap: a game is stopped after this many plies."""


class GtpError(Exception):
    """A ``?`` answer from the server."""


class GtpClient:
    """One ``stargtp serve`` subprocess, spoken to one command at a time."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.next_id = 1

    def send(self, line: str) -> str:
        """Send one command; its result (lines joined by LF), or raise GtpError."""
        ident = self.next_id
        self.next_id += 1
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{ident} {line}\n")
        self.process.stdin.flush()
        lines: list[str] = []
        while True:
            text = self.process.stdout.readline()
            if not text:
                raise GtpError(f"the server closed the connection during {line!r}")
            text = text.rstrip("\n")
            if text == "":
                if lines:
                    break
                continue  # no response has started yet
            lines.append(text)
        head, _, first = lines[0].partition(" ")
        status, answer_id = head[:1], head[1:]
        if status not in "=?" or answer_id != str(ident):
            raise GtpError(f"unexpected answer to {line!r}: {lines[0]!r}")
        result = "\n".join([first] + lines[1:]) if first else "\n".join(lines[1:])
        if status == "?":
            raise GtpError(f"{line}: {result}")
        return result

    def close(self) -> int:
        """Send ``quit`` and wait for the server to end; its exit status."""
        try:
            self.send("quit")
        except (GtpError, OSError):
            pass
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


# -- drawing, from the geometry JSON alone ------------------------------------------


def draw_cells(geometry: dict, position: dict) -> str:
    """Each cell at its x/y, as its label or a stone (X black, O white)."""
    stones = {label: "X" for label in position["board"]["black"]}
    stones.update({label: "O" for label in position["board"]["white"]})
    cells = geometry["cells"]
    unit = geometry["unit"]
    min_x = min(cell["x"] for cell in cells)
    min_y = min(cell["y"] for cell in cells)
    rows_per_unit = 2.0
    width = max(len(cell["label"]) for cell in cells) + 1
    # The narrowest grid where no two cells of one text row overlap.
    for chars_per_unit in range(4, 41):
        places = [
            (
                round((cell["y"] - min_y) / unit * rows_per_unit),
                round((cell["x"] - min_x) / unit * chars_per_unit),
                cell,
            )
            for cell in cells
        ]
        rows: dict[int, list[int]] = {}
        for row, col, _ in places:
            rows.setdefault(row, []).append(col)
        if all(
            b - a >= width for cols in rows.values() for a, b in zip(sorted(cols), sorted(cols)[1:])
        ):
            break
    grid_rows = max(row for row, _, _ in places) + 1
    grid_cols = max(col for _, col, _ in places) + width
    grid = [[" "] * grid_cols for _ in range(grid_rows)]
    for row, col, cell in places:
        label = cell["label"]
        text = stones.get(label, label).center(len(label))
        for i, char in enumerate(text):
            grid[row][col + i] = char
    return "\n".join("".join(line).rstrip() for line in grid)


def draw_squares(geometry: dict, position: dict) -> str:
    """Squares by column and row, top row first: W, B pieces (the Amazons'
    amazons), x anything else on the board (its arrows)."""
    board = position["board"]
    pieces = {name: "x" for kind, names in board.items() if kind not in ("black", "white") for name in names}
    pieces.update({name: "W" for name in board["white"]})
    pieces.update({name: "B" for name in board["black"]})
    squares = geometry["squares"]
    columns = max(square["column"] for square in squares) + 1
    rows = max(square["row"] for square in squares) + 1
    names = {(square["column"], square["row"]): square["name"] for square in squares}
    files = [names[(column, 0)].rstrip("0123456789") for column in range(columns)]
    margin = " " * 4
    lines = [margin + " ".join(files)]
    for row in reversed(range(rows)):
        rank = names[(0, row)][len(files[0]) :]
        marks = [pieces.get(names[(column, row)], ".") for column in range(columns)]
        lines.append(f"{rank:>3} " + " ".join(marks) + f"  {rank}")
    lines.append(margin + " ".join(files))
    return "\n".join(lines)


def draw(geometry: dict, position: dict) -> str:
    if "cells" in geometry:
        return draw_cells(geometry, position)
    return draw_squares(geometry, position)


def points(geometry: dict) -> int:
    """How many points (cells or squares) the board has."""
    return len(geometry.get("cells", geometry.get("squares", [])))


# -- the front end's moves -----------------------------------------------------------


def pick_move(client: GtpClient, colour: str, game: dict, rng: random.Random) -> str | None:
    """A random legal move for COLOUR, or None when it has none.

    A move of one part (*Star, Hex, Y): a random one from ``all_legal``, the
    game's pass only when nothing else is left. A move of several parts (the
    Amazons' ``from-to/arrow``) is built click by click, as a GUI would: a
    first part that starts a legal move, then each next part from
    ``all_legal COLOUR PARTS-SO-FAR`` (the Amazons: an amazon, a
    destination, an arrow).
    """
    legal = client.send(f"all_legal {colour}").split()
    if not legal:
        return None
    separators = game["separators"]
    if separators:
        move = rng.choice(sorted({text.split(separators[0])[0] for text in legal}))
        for separator in separators:
            move += separator + rng.choice(client.send(f"all_legal {colour} {move}").split())
        if move not in legal:
            raise GtpError(f"{move} was built click by click but is not in all_legal")
        return move
    others = [move for move in legal if move != game["pass"]]
    return rng.choice(others) if others else game["pass"]


def pick_size(client: GtpClient, game: dict) -> int:
    """The game's smallest size with at least :data:`MIN_POINTS` points (else
    its largest), asking the server for each board's geometry."""
    client.send(f"game {game['name']}")
    for size in game["sizes"]:
        client.send(f"boardsize {size}")
        if points(json.loads(client.send("stargtp-geometry"))) >= MIN_POINTS:
            return size
    return game["sizes"][-1]


def play_game(
    client: GtpClient, game: dict, size: int | None, rng: random.Random, out: Path, max_plies: int
) -> str:
    """Play one whole game (``game``: its ``stargtp-games`` entry) on a board
    of ``size`` (None: :func:`pick_size`); print it as it goes; save its
    record. The result."""
    name = game["name"]
    size = size or pick_size(client, game)
    client.send(f"game {name}")
    client.send(f"boardsize {size}")
    geometry = json.loads(client.send("stargtp-geometry"))
    position = json.loads(client.send("stargtp-position"))
    print(f"=== {name}, size {size}: {points(geometry)} points; {position['to_move']} moves first")
    print(draw(geometry, position))
    frontend = position["to_move"]
    engine = "white" if frontend == "black" else "black"
    print(f"front end (random legal moves): {frontend}; engine (genmove): {engine}")

    plies = 0
    while not position["over"] and plies < max_plies:
        colour = position["to_move"]
        if colour == frontend:
            move = pick_move(client, colour, game, rng)
            if move is None:
                print(f"{colour} has no legal move")
                break
            if client.send(f"is_legal {colour} {move}") != "1":
                raise GtpError(f"is_legal {colour} {move} is not 1 for a move from all_legal")
            client.send(f"play {colour} {move}")
            who = "front end"
        else:
            move = client.send(f"genmove {colour}")
            who = "engine"
        plies += 1
        print(f"{plies:3d}. {colour:5s} {move:12s} ({who})")
        if move == "resign":
            break
        position = json.loads(client.send("stargtp-position"))

    if not position["over"]:
        print(f"stopped after {plies} plies, the game is not over")
    print(draw(geometry, position))
    try:
        result = client.send("final_score")
    except GtpError as error:
        result = f"? {error}"
    print(f"{name}: final_score {result}")
    record = client.send("printsgf")
    path = out / f"{name}.sgf"
    path.write_text(record + "\n", encoding="utf-8")
    print(f"{name}: record saved to {path} ({plies} plies)")
    return result


def server_command(options: argparse.Namespace) -> list[str]:
    if options.server:
        command = shlex.split(options.server)
    else:
        stargtp = Path(sys.executable).parent / "stargtp"
        if stargtp.exists():
            command = [str(stargtp), "serve"]
        else:
            command = [sys.executable, "-m", "stargtp.protocol.cli", "serve"]
    command += ["--workers", str(options.workers), "--playouts", str(options.playouts)]
    if options.seed is not None:
        command += ["--seed", str(options.seed)]
    return command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=None, help="seeds the engine and the front end")
    parser.add_argument("--playouts", type=int, default=50, help="engine playouts per move (50)")
    parser.add_argument("--workers", type=int, default=1, help="engine worker processes (1)")
    parser.add_argument(
        "--game", action="append", metavar="NAME",
        help="play only this game, one the server lists (repeatable; default: every game)",
    )
    parser.add_argument(
        "--size", type=int, default=None,
        help=f"board size, for every game played (default: each game's smallest with {MIN_POINTS} points)",
    )
    parser.add_argument("--out", type=Path, default=Path("."), help="where the SGF records go (.)")
    parser.add_argument("--max-plies", type=int, default=MAX_PLIES, help="safety cap per game (200)")
    parser.add_argument(
        "--server", default=None, help="the server command line (default: stargtp serve)"
    )
    options = parser.parse_args(argv)

    options.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(options.seed)
    command = server_command(options)
    print("server:", shlex.join(command))
    client = GtpClient(command)
    try:
        print("talking to", client.send("name"), client.send("version"))
        offered = {game["name"]: game for game in json.loads(client.send("stargtp-games"))["games"]}
        unknown = [name for name in options.game or [] if name not in offered]
        if unknown:
            raise GtpError(f"the server plays no game {unknown[0]!r} (it plays: {', '.join(offered)})")
        results = {}
        for name in options.game or offered:
            results[name] = play_game(client, offered[name], options.size, rng, options.out, options.max_plies)
    except GtpError as error:
        print(f"error: {error}", file=sys.stderr)
        client.close()
        return 1
    status = client.close()
    print("results:", ", ".join(f"{game} {result}" for game, result in results.items()))
    if status != 0:
        print(f"error: the server exited with status {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
