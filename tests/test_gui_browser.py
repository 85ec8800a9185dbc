"""The browser front end of ``stargtp gui``, in a real (headless) Chromium.

A ``stargtp gui`` subprocess serves the page and the bridge; Chromium is
driven over its DevTools pipe (:mod:`tests.browser`, standard library only).
The tests click the board with real mouse events at the elements' centres,
type moves, and after every move compare what the page draws (the SVG
elements carry ``data-cell`` / ``data-square`` and ``data-colour``) with
``stargtp-position`` fetched through the bridge by the test itself, on the
page's own session. The engine searches a fixed number of playouts with a
fixed seed in one worker, so the games repeat; nothing is timed: every wait
polls the page until a condition holds, with a generous deadline.

Skipped when ``/usr/bin/chromium`` is missing, unless
``STARGTP_REQUIRE_BROWSER=1`` (CI), which makes that a failure. With
``STARGTP_SCREENSHOTS=1`` the screenshots taken on the way (always written
to the test's temporary directory) are also copied to ``docs/images/``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import Browser, Page, chromium_path, copy_screenshot
from tests.gtp_helpers import REPO, subprocess_env

REQUIRE = os.environ.get("STARGTP_REQUIRE_BROWSER") == "1"
SCREENSHOTS = os.environ.get("STARGTP_SCREENSHOTS") == "1"
IMAGES = REPO / "docs" / "images"
DEADLINE = 120.0
"""Seconds a wait may take before the test fails: it only catches a hang."""
PLAYOUTS = 150
SEED = 11
VIEWPORT = (1280, 860)

if chromium_path() is None and not REQUIRE:  # with REQUIRE, the browser fixture fails instead
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (set STARGTP_REQUIRE_BROWSER=1 to fail instead)")


# -- the server and the browser ------------------------------------------------------


class GuiServer:
    """A ``stargtp gui`` subprocess; its URL comes from the first line on stderr."""

    def __init__(self, *options: str, command: list[str] | None = None) -> None:
        if command is None:
            command = [sys.executable, "-m", "stargtp.protocol.cli", "gui", "--port", "0", *options]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True, env=subprocess_env(), cwd=REPO)
        self.log: list[str] = []
        assert self.process.stderr is not None
        deadline = time.monotonic() + 60
        self.url = ""
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            self.log.append(line)
            found = re.search(r"gui at (http://\S+)", line)
            if found:
                self.url = found.group(1).rstrip("/")
                break
        if not self.url:
            self.process.kill()
            raise RuntimeError("stargtp gui did not report its address:\n" + "".join(self.log))
        # Keep draining stderr so the server never blocks on it.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.append(line)

    def gtp(self, session: str, *lines: str) -> list[tuple[bool, str]]:
        """Run commands on a session through the bridge: (ok, text) per response."""
        request = urllib.request.Request(f"{self.url}/gtp?session={session}",
                                         data=("\n".join(lines) + "\n").encode(), method="POST",
                                         headers={"Content-Type": "text/plain; charset=utf-8"})
        with urllib.request.urlopen(request, timeout=DEADLINE) as answer:
            text = answer.read().decode()
        responses = []
        for block in text.split("\n\n")[:-1]:
            rest = block[1:]  # after "=" or "?" (the test sends no ids)
            responses.append((block[0] == "=", rest[1:] if rest[:1] in (" ", "\n") else rest))
        assert len(responses) == len(lines), text
        return responses

    def one(self, session: str, line: str) -> str:
        ok, text = self.gtp(session, line)[0]
        assert ok, f"{line}: ? {text}"
        return text

    def position(self, session: str) -> dict:
        return json.loads(self.one(session, "stargtp-position"))

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def server() -> Iterator[GuiServer]:
    gui = GuiServer("--workers", "1", "--playouts", str(PLAYOUTS), "--seed", str(SEED))
    try:
        yield gui
    finally:
        gui.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    if chromium_path() is None:
        pytest.fail("STARGTP_REQUIRE_BROWSER=1 but there is no Chromium at /usr/bin/chromium")
    with Browser(tmp_path_factory.mktemp("chromium")) as chromium:
        yield chromium


@pytest.fixture
def page(browser: Browser, server: GuiServer, tmp_path: Path) -> Iterator[Page]:
    tab = browser.new_page(*VIEWPORT)
    tab.describe = "JSON.stringify(window.stargtpState ? window.stargtpState() : null)"
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.allow_downloads(downloads)
    tab.downloads = downloads  # type: ignore[attr-defined]
    # Each test starts from a fresh page: forget the game an earlier test's page kept (docs/gui.md).
    tab.send("Storage.clearDataForOrigin", {"origin": server.url, "storageTypes": "local_storage"})
    tab.goto(server.url + "/")
    wait_idle(tab)
    try:
        yield tab
    finally:
        problems = [line for line in browser.console_messages() if "exception" in line or "console.error" in line]
        try:
            tab.goto("about:blank")  # pagehide: the page closes its session
            browser.send("Target.closeTarget", {"targetId": tab.target})
        finally:
            assert not problems, problems


def screenshot(page: Page, tmp_path: Path, name: str) -> Path:
    """A screenshot in the test's directory, copied to docs/images with STARGTP_SCREENSHOTS=1."""
    path = tmp_path / name
    page.evaluate("document.activeElement && document.activeElement.blur && document.activeElement.blur()")
    page.screenshot(path)
    if SCREENSHOTS:
        copy_screenshot(path, IMAGES / name)
    return path


# -- reading the page ---------------------------------------------------------------


def wait_idle(page: Page, extra: str = "true") -> None:
    page.wait_for(f"document.body.dataset.idle === '1' && document.body.dataset.moves !== undefined && ({extra})",
                  timeout=DEADLINE, message=f"the page to be idle and {extra}")


def session_of(page: Page) -> str:
    return page.evaluate("document.body.dataset.session")


PIECES = """(() => {
    // The pieces the server's picture shows, by point: every element of the
    // picture (not of the page's overlay) that names a point and has a colour.
    const pieces = {};
    for (const e of document.querySelectorAll('#board svg [data-point]')) {
        if (e.closest('.overlay')) continue;
        const kind = ['black', 'white', 'arrow'].find(k => e.classList.contains(k));
        if (kind) pieces[e.dataset.point] = kind;
    }
    return pieces;
})()"""


def drawn(page: Page) -> dict:
    """What the board shows: the pieces by point, the move count, the side to move."""
    return page.evaluate("""(() => {
        const svg = document.getElementById('board');
        const pieces = """ + PIECES + """;
        const list = [...document.querySelectorAll('#move-list li.played')].map(li => [li.dataset.colour, li.dataset.move]);
        return {game: svg.dataset.game, size: Number(svg.dataset.size), moves: Number(svg.dataset.moves),
                to_move: svg.dataset.toMove, over: svg.dataset.over === '1', pieces, list,
                result: document.getElementById('score').dataset.result};
    })()""")


def expected_pieces(position: dict) -> dict:
    board = position["board"]
    pieces = {point: "black" for point in board["black"]}
    pieces.update({point: "white" for point in board["white"]})
    pieces.update({point: "arrow" for point in board.get("arrows", [])})
    return pieces


def check_agrees(page: Page, server: GuiServer) -> dict:
    """The page's board, side to move, move list and score agree with stargtp-position."""
    position = server.position(session_of(page))
    shown = drawn(page)
    assert shown["game"] == position["game"] and shown["size"] == position["size"]
    assert shown["moves"] == len(position["moves"])
    assert shown["to_move"] == position["to_move"]
    assert shown["over"] == position["over"]
    assert shown["pieces"] == expected_pieces(position)
    assert shown["list"] == position["moves"]
    assert shown["result"] == (position["score"]["result"] if position["score"] else "")
    return position


def choose(page: Page, select: str, value: str) -> None:
    """Pick an option of a <select>, as a person would with the keyboard."""
    page.evaluate(f"""(() => {{ const s = document.querySelector({json.dumps(select)});
        s.focus(); s.value = {json.dumps(value)}; s.dispatchEvent(new Event('change', {{bubbles: true}})); }})()""")


def new_game(page: Page, game: str, size: int, engine: str) -> None:
    choose(page, "#game-select", game)
    wait_idle(page, f"document.getElementById('board').dataset.game === '{game}'")
    choose(page, "#engine-select", "none")
    choose(page, "#size-select", str(size))
    wait_idle(page, f"document.getElementById('board').dataset.size === '{size}' && document.body.dataset.moves === '0'")
    choose(page, "#engine-select", engine)


def targets(page: Page, part: int) -> list[str]:
    """The choices the board offers for a move's part ``part`` (0: the first)."""
    page.wait_for(f"document.body.dataset.idle === '1' && document.getElementById('board').dataset.part === '{part}'",
                  timeout=DEADLINE, message=f"the choices for part {part}")
    found = page.evaluate("[...document.querySelectorAll('#board .target')].map(e => [e.dataset.point, e.dataset.part])")
    assert all(p == str(part) for _, p in found)
    legal = page.evaluate("[...document.querySelectorAll('#board svg .legal')].map(e => e.dataset.point)")
    assert sorted(legal) == sorted(point for point, _ in found)
    return [point for point, _ in found]


def click_point(page: Page, point: str) -> None:
    """A real click on a point of the server's picture."""
    page.click(f'#board svg.picture [data-point="{point}"]')  # the first: the picture's own


def board_after(game: str, moves: list, start: dict) -> dict:
    """The pieces after ``moves`` from the start position ``start`` (pieces by point)."""
    pieces = dict(start)
    for colour, move in moves:
        if game == "star":
            if move != "pass":
                pieces[move] = colour
        else:
            origin, destination, arrow = re.split(r"[-/]", move)
            pieces[destination] = pieces.pop(origin)
            pieces[arrow] = "arrow"
    return pieces


RECORD_SNAPSHOTS = """(() => {
    // Every board the page draws, one snapshot per move count, as it is drawn.
    window.__snapshots = [];
    const svg = document.getElementById('board');
    const take = () => {
        const pieces = """ + PIECES + """;
        window.__snapshots.push({moves: Number(svg.dataset.moves), pieces});
    };
    new MutationObserver(take).observe(svg, {attributes: true, attributeFilter: ['data-moves']});
})()"""


def check_snapshots(page: Page, position: dict, start: dict) -> None:
    """Every intermediate board the page drew matches the game's moves up to then."""
    snapshots = page.evaluate("window.__snapshots.splice(0)")
    for snap in snapshots:
        expected = board_after(position["game"], position["moves"][:snap["moves"]], start)
        assert snap["pieces"] == expected, snap["moves"]


def score_panel(page: Page) -> dict:
    return page.evaluate("""(() => {
        const rows = {black: {}, white: {}};
        for (const cell of document.querySelectorAll('#score .score-table td[data-key]')) {
            rows[cell.dataset.colour][cell.dataset.key] = cell.textContent;
        }
        const stars = [...document.querySelectorAll('#board svg .star')].map(g => ({
            colour: g.classList.contains('black') ? 'black' : 'white',
            pericells: [...g.querySelectorAll('.owned')].map(p => p.dataset.cell)}));
        return {result: document.getElementById('score').dataset.result, rows, stars,
                listed: document.querySelectorAll('#score .score-list[data-key="stars"] li[data-index]').length,
                dead: Number(document.querySelector('#score .detail').dataset.deadGroups),
                text: document.getElementById('score').textContent};
    })()""")


def fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def check_star_score(page: Page, server: GuiServer) -> None:
    """The score panel and the board's score overlay against stargtp-position and final_score."""
    session = session_of(page)
    final = server.one(session, "final_score")
    score = server.position(session)["score"]
    panel = score_panel(page)
    assert panel["result"] == final == score["result"]
    for colour in ("black", "white"):
        row, totals = panel["rows"][colour], score[colour]
        assert row["stars"] == str(totals["stars"]) and row["peris"] == str(totals["peris"])
        assert row["quarks"] == str(totals["quarks"]) and row["quark_peri"] == str(totals["quark_peri"])
        assert row["conventional"] == fmt(totals["conventional"])
        assert row["simplified"] == fmt(totals["simplified"])
        assert row["schmittberger"].lstrip("+") == fmt(totals["schmittberger"])
    assert panel["stars"] == [{"colour": s["colour"], "pericells": s["pericells"]} for s in score["stars"]]
    assert panel["listed"] == len(score["stars"])
    assert panel["dead"] == score["dead_groups"]


def save_and_reload(page: Page, server: GuiServer, game: str, size: int) -> str:
    """Save the record (a real download), start a new game, load the file back."""
    session = session_of(page)
    before = server.position(session)
    record = server.one(session, "printsgf")
    page.click("#save")
    downloads: Path = page.downloads  # type: ignore[attr-defined]
    deadline = time.monotonic() + DEADLINE
    while True:
        files = [f for f in downloads.glob("*.sgf") if f.stat().st_size > 0]
        if files:
            break
        assert time.monotonic() < deadline, "the record was not downloaded"
        time.sleep(0.05)
    saved = files[0].read_text(encoding="utf-8")
    # The page writes its game tree with stargtp-sgf-write (tests/test_gui_tree.py checks
    # variations and properties); a game without variations is the game printsgf writes.
    def shape(text: str) -> dict:
        return json.loads(server.one(session, "stargtp-sgf-tree " + " ".join(text.split())))
    assert shape(saved) == shape(record)
    assert page.evaluate("document.getElementById('record-text').value") == saved
    # Start afresh, then load the file through the file picker.
    choose(page, "#engine-select", "none")
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0'")
    check_agrees(page, server)
    page.set_files("#load-file", [files[0]])
    wait_idle(page, f"document.body.dataset.moves === '{len(before['moves'])}'")
    after = check_agrees(page, server)
    assert after["moves"] == before["moves"] and after["board"] == before["board"]
    assert (after["game"], after["size"]) == (game, size)
    return saved


# -- the tests ----------------------------------------------------------------------


def test_star_game_by_clicking(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """A whole 4-ring *Star game: black clicks cells, the engine answers as white."""
    new_game(page, "star", 4, "white")
    check_agrees(page, server)
    page.evaluate(RECORD_SNAPSHOTS)
    rng = random.Random(5)
    human = "black"
    for _ in range(100):
        shown = drawn(page)
        if shown["over"]:
            break
        assert shown["to_move"] == human
        legal = page.evaluate("[...document.querySelectorAll('#board svg .legal')].map(e => e.dataset.point)")
        position = server.position(session_of(page))
        empty = [c for c in server.one(session_of(page), f"all_legal {human}").split() if c != "pass"]
        assert sorted(legal) == sorted(empty)  # every empty cell, and only those, is offered
        cell = rng.choice(legal)
        count = len(position["moves"])
        click_point(page, cell)
        wait_idle(page, f"Number(document.body.dataset.moves) > {count} && "
                        f"(document.getElementById('board').dataset.over === '1' || "
                        f"document.getElementById('board').dataset.toMove === '{human}')")
        position = check_agrees(page, server)
        assert position["moves"][count] == [human, cell]
        assert all(colour == "white" for colour, _ in position["moves"][count + 1:])
        check_snapshots(page, position, {})
        if len(position["moves"]) == 12:
            screenshot(page, tmp_path, "gui-star-midgame.png")
    else:
        pytest.fail("the game did not end")
    assert server.position(session_of(page))["over"]
    check_star_score(page, server)
    assert "Game over" in page.evaluate("document.getElementById('to-move').textContent")
    screenshot(page, tmp_path, "gui-star.png")

    saved = save_and_reload(page, server, "star", 4)
    assert saved.startswith("(;GM[2004]")
    check_star_score(page, server)

    # Step back and forth through the loaded game.
    total = int(page.evaluate("document.body.dataset.moves"))
    page.click("#nav-back")
    wait_idle(page, f"document.body.dataset.moves === '{total - 1}'")
    check_agrees(page, server)
    page.click("#nav-first")
    wait_idle(page, "document.body.dataset.moves === '0'")
    check_agrees(page, server)
    page.click(f'#move-list button.move[data-index="{total // 2}"]')
    wait_idle(page, f"document.body.dataset.moves === '{total // 2}'")
    check_agrees(page, server)
    page.evaluate("document.activeElement.blur()")  # the arrow keys step too
    page.press("ArrowRight")
    wait_idle(page, f"document.body.dataset.moves === '{total // 2 + 1}'")
    check_agrees(page, server)
    page.click("#nav-last")
    wait_idle(page, f"document.body.dataset.moves === '{total}'")
    position = check_agrees(page, server)
    assert position["over"]
    check_star_score(page, server)


def test_amazons_game_by_clicking(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """A whole 6x6 Amazons game: white builds each move in three clicks, each
    step offering exactly what all_legal allows; the engine answers as black."""
    new_game(page, "amazons", 6, "black")
    start = check_agrees(page, server)
    start_pieces = expected_pieces(start)
    page.evaluate(RECORD_SNAPSHOTS)
    session = session_of(page)
    rng = random.Random(7)
    human = "white"
    for _ in range(60):
        shown = drawn(page)
        if shown["over"]:
            break
        assert shown["to_move"] == human
        whole = server.one(session, f"all_legal {human}").split()
        amazons = targets(page, 0)
        assert amazons == list(dict.fromkeys(move.split("-")[0] for move in whole))
        origin = rng.choice(amazons)
        click_point(page, origin)
        destinations = targets(page, 1)
        assert destinations == server.one(session, f"all_legal {human} {origin}").split()
        destination = rng.choice(destinations)
        click_point(page, destination)
        arrows = targets(page, 2)
        assert arrows == server.one(session, f"all_legal {human} {origin}-{destination}").split()
        # While a move is being built, the chosen points are marked and the
        # amazon is drawn on its destination (faded on its origin).
        assert page.evaluate("[...document.querySelectorAll('#board .chosen')].map(e => e.dataset.chosen)") == [
            origin, destination]
        assert page.evaluate(f"""document.querySelector('#board .amazon.moving[data-moving="{destination}"]') !== null
            && document.querySelector('#board svg .amazon.origin[data-point="{origin}"]') !== null""")
        arrow = rng.choice(arrows)
        count = len(server.position(session)["moves"])
        if count == 6:
            screenshot(page, tmp_path, "gui-amazons-move.png")
        click_point(page, arrow)
        wait_idle(page, f"Number(document.body.dataset.moves) > {count} && "
                        f"(document.getElementById('board').dataset.over === '1' || "
                        f"document.getElementById('board').dataset.toMove === '{human}')")
        position = check_agrees(page, server)
        assert position["moves"][count] == [human, f"{origin}-{destination}/{arrow}"]
        check_snapshots(page, position, start_pieces)
    else:
        pytest.fail("the game did not end")
    final = server.one(session, "final_score")
    position = server.position(session)
    assert position["over"] and position["score"]["result"] == final
    assert page.evaluate("document.getElementById('score').dataset.result") == final
    territory = page.evaluate("document.querySelectorAll('#board .territory').length")
    assert territory == sum(position["score"]["territory"].values())
    screenshot(page, tmp_path, "gui-amazons.png")

    saved = save_and_reload(page, server, "amazons", 6)
    assert saved.startswith("(;GM[18]")
    assert page.evaluate("document.getElementById('score').dataset.result") == server.one(session, "final_score")


@pytest.mark.parametrize("game, size", [("hex", 4), ("y", 5)])
def test_hex_and_y_games_by_clicking(page: Page, server: GuiServer, tmp_path: Path, game: str, size: int) -> None:
    """A whole small game of Hex and of Y by clicking, on the page that
    knows neither: black clicks cells the board offers (exactly all_legal's
    moves), the engine answers as white, until one side has joined its
    edges; then the score card and the picture's winning group."""
    new_game(page, game, size, "white")
    check_agrees(page, server)
    session = session_of(page)
    # The analysis marks the best moves on the board of a game it has never heard of.
    page.click("#analysis-toggle")
    page.wait_for("document.getElementById('board').dataset.analysis === '1' && "
                  "document.querySelectorAll('#board .best').length >= 1", timeout=DEADLINE)
    marked = page.evaluate("[...document.querySelectorAll('#board .best')].map(e => e.dataset.move)")
    assert set(marked) <= set(server.one(session, "all_legal black").split())
    page.click("#analysis-toggle")
    page.wait_for("document.getElementById('board').dataset.analysis === '0'")
    wait_idle(page)
    rng = random.Random(3)
    human = "black"
    for _ in range(size * size):
        shown = drawn(page)
        if shown["over"]:
            break
        assert shown["to_move"] == human
        legal = page.evaluate("[...document.querySelectorAll('#board svg .legal')].map(e => e.dataset.point)")
        assert sorted(legal) == sorted(server.one(session, f"all_legal {human}").split())
        assert page.evaluate("document.querySelectorAll('#board .target').length") == 0  # moves of one part
        cell = rng.choice(legal)
        count = len(server.position(session)["moves"])
        click_point(page, cell)
        wait_idle(page, f"Number(document.body.dataset.moves) > {count} && "
                        f"(document.getElementById('board').dataset.over === '1' || "
                        f"document.getElementById('board').dataset.toMove === '{human}')")
        position = check_agrees(page, server)
        assert position["moves"][count] == [human, cell]
        assert all(colour == "white" for colour, _ in position["moves"][count + 1:])
    else:
        pytest.fail("the game did not end")
    position = server.position(session)
    final = server.one(session, "final_score")
    assert position["over"] and position["score"]["result"] == final
    assert page.evaluate("document.getElementById('score').dataset.result") == final
    assert "Game over" in page.evaluate("document.getElementById('to-move').textContent")
    detail = page.evaluate("Object.assign({}, document.querySelector('#score .detail').dataset)")
    assert detail == {"reason": position["score"]["reason"], "group": " ".join(position["score"]["group"])}
    screenshot(page, tmp_path, f"gui-{game}.png")


def test_typing_moves_undo_and_settings(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """Moves typed in the move box; Undo takes back the engine's reply too;
    the time per move reaches the session's search settings."""
    # The page opens on the server's default board, *Star on 10 rings, the engine white.
    session = session_of(page)
    assert (drawn(page)["game"], drawn(page)["size"]) == ("star", 10)
    assert page.evaluate("document.getElementById('engine-select').value") == "white"
    for count, move in enumerate(("s42", "*75", "a63")):
        page.click("#move-input")
        page.type_text(move)
        page.press("Enter")
        wait_idle(page, f"document.body.dataset.moves === '{2 * count + 2}'")
        position = check_agrees(page, server)
        assert position["moves"][2 * count] == ["black", move.upper()]
    screenshot(page, tmp_path, "gui-star-10.png")
    # The picture's colours are the page's palette variables: setting one recolours the stones.
    fill = "getComputedStyle(document.querySelector('#board svg .stone.black')).fill"
    assert page.evaluate(fill) == "rgb(27, 27, 27)"  # #1b1b1b, from /static/palette.css
    page.evaluate("document.documentElement.style.setProperty('--stargtp-stone-black', 'rgb(200, 0, 0)')")
    assert page.evaluate(fill) == "rgb(200, 0, 0)"
    page.evaluate("document.documentElement.style.removeProperty('--stargtp-stone-black')")
    # An illegal move is refused with the server's reason, and nothing changes.
    for move, message in (("S42", "illegal move: S42 is occupied"),
                          ("Z99", "illegal move: 'Z99' is not a cell of the 10-ring board")):
        page.evaluate("document.getElementById('message').hidden = true")
        page.click("#move-input")
        page.type_text(move)
        page.press("Enter")
        page.wait_for("!document.getElementById('message').hidden")
        assert page.evaluate("document.getElementById('message').textContent") == message
        wait_idle(page)
        assert check_agrees(page, server)["moves"] == position["moves"]
        page.evaluate("document.getElementById('move-input').value = ''")
    page.click("#undo")
    wait_idle(page, "document.body.dataset.moves === '4'")
    check_agrees(page, server)

    choose(page, "#time-select", "2")
    wait_idle(page)
    assert server.one(session, "stargtp-param seconds") == "2"
    # The server's playout cap is lifted (the answer is then the player's own default).
    assert server.one(session, "stargtp-param playouts") != str(PLAYOUTS)
    choose(page, "#time-select", "default")
    wait_idle(page)
    assert server.one(session, "stargtp-param playouts") == str(PLAYOUTS)
    assert server.one(session, "stargtp-param seconds") == "none"

    # Amazons: typing the first part highlights that amazon's destinations.
    new_game(page, "amazons", 6, "none")
    page.click("#move-input")
    page.type_text("b1")
    shown = targets(page, 1)
    assert shown == server.one(session, "all_legal w b1").split()
    page.type_text("-b4")
    shown = targets(page, 2)
    assert shown == server.one(session, "all_legal w b1-b4").split()
    page.type_text("/e4")
    page.press("Enter")
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert check_agrees(page, server)["moves"] == [["white", "b1-b4/e4"]]


def test_analysis_shows_win_rate_and_marks(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """Live analysis: the win rate, the best moves marked with their visits, the ownership overlay."""
    new_game(page, "star", 6, "none")
    session = session_of(page)
    for count, cell in enumerate(("*60", "S63", "T60", "A63", "R60", "*63", "S60", "T63", "*30", "A31")):
        click_point(page, cell)
        wait_idle(page, f"document.body.dataset.moves === '{count + 1}'")
    check_agrees(page, server)
    page.click("#analysis-toggle")
    page.wait_for("document.getElementById('board').dataset.analysis === '1' && "
                  "document.querySelectorAll('#board .best').length >= 3 && "
                  "document.querySelectorAll('#best-moves tbody tr').length >= 3", timeout=DEADLINE)
    info = page.evaluate("""(() => ({
        winrate: Number(document.getElementById('winrate').dataset.winrate),
        text: document.getElementById('winrate').textContent,
        marks: [...document.querySelectorAll('#board .best')].sort((a, b) => a.dataset.order - b.dataset.order)
            .map(e => [e.dataset.move, Number(e.dataset.visits)]),
        rows: [...document.querySelectorAll('#best-moves tbody tr')].map(r => [r.dataset.move, Number(r.dataset.visits)]),
        badges: [...document.querySelectorAll('#board .badge text')].map(t => t.textContent),
        ownership: document.querySelectorAll('#board .ownership').length}))()""")
    assert 0 <= info["winrate"] <= 1 and "Black" in info["text"] and "%" in info["text"]
    assert info["marks"][0][0] == info["rows"][0][0]
    assert [v for _, v in info["marks"]] == sorted((v for _, v in info["marks"]), reverse=True)
    assert all(visits > 0 for _, visits in info["marks"])
    assert len(info["badges"]) == len(info["marks"])
    if SCREENSHOTS:  # a picture with a settled analysis
        page.wait_for("Number(document.querySelector('#best-moves tbody tr').dataset.visits) >= 2000", timeout=DEADLINE)
    occupied = set(page.evaluate("[...document.querySelectorAll('#board svg .stone')].map(e => e.dataset.point)"))
    assert not occupied & {cell for cell, _ in info["marks"]}
    assert info["ownership"] == 5 * 6  # one per pericell
    screenshot(page, tmp_path, "gui-analysis.png")

    # Amazons: the territory overlay counts what the engine's analysis reports.
    new_game(page, "amazons", 8, "none")
    for count, move in enumerate(("c1-c6/f3", "c8-c7/d6")):
        page.click("#move-input")
        page.type_text(move)
        page.press("Enter")
        wait_idle(page, f"document.body.dataset.moves === '{count + 1}'")
    page.wait_for("document.getElementById('board').dataset.analysis === '1' && "
                  "document.querySelectorAll('#board .best').length >= 1 && "
                  "document.getElementById('winrate').dataset.territoryMine !== undefined", timeout=DEADLINE)
    counts = page.evaluate("""(() => { const b = document.getElementById('board').dataset,
        w = document.getElementById('winrate').dataset;
        return [w.colour, Number(w.territoryMine), Number(w.territoryTheirs),
                Number(b.territoryBlack), Number(b.territoryWhite)]; })()""")
    colour, mine, theirs, black, white = counts
    assert (mine, theirs) == ((black, white) if colour == "black" else (white, black))
    screenshot(page, tmp_path, "gui-analysis-amazons.png")

    # With analysis on, the engine's own search shows as it thinks, and Move now
    # makes it play at once (a 600 s search would outlast the deadline).
    session = session_of(page)
    assert all(ok for ok, _ in server.gtp(session, "stargtp-param playouts none", "stargtp-param seconds 600"))
    wait_idle(page)
    page.click("#engine-move")
    page.wait_for("document.body.dataset.thinking === '1' && !document.getElementById('thinking').hidden && "
                  "document.getElementById('analysis').dataset.source === 'engine' && "
                  "document.querySelectorAll('#board .best').length >= 1", timeout=DEADLINE)
    page.click("#move-now")
    wait_idle(page, "document.body.dataset.moves === '3'")
    assert check_agrees(page, server)["moves"][2][0] == "white"
    page.click("#analysis-toggle")
    page.wait_for("document.getElementById('board').dataset.analysis === '0'")
    wait_idle(page)
    check_agrees(page, server)


# -- the page learns the games from the protocol ------------------------------------------
# (that no file of the page names a game is tests/test_gui_static.py's, run without a browser)


def menu(page: Page) -> dict:
    return page.evaluate("""(() => ({
        games: [...document.querySelectorAll('#game-select option')].map(o => [o.value, o.textContent]),
        game: document.getElementById('game-select').value,
        sizes: [...document.querySelectorAll('#size-select option')].map(o => [o.value, o.textContent]),
        size: document.getElementById('size-select').value,
        engine: document.getElementById('engine-select').value,
        pass: !document.getElementById('pass').hidden,
        hint: document.getElementById('move-input').placeholder}))()""")


def check_menu(page: Page, server: GuiServer) -> dict:
    """The page's menus are what stargtp-games says, for the current game."""
    data = json.loads(server.one(session_of(page), "stargtp-games"))
    entry = next(game for game in data["games"] if game["name"] == data["game"])
    shown = menu(page)
    assert shown["games"] == [[game["name"], game["title"]] for game in data["games"]]
    assert (shown["game"], shown["size"]) == (data["game"], str(data["size"]))
    assert shown["sizes"] == [[str(n), f"{n} {entry['size_word']}"] for n in entry["sizes"]]
    assert shown["pass"] == (entry["pass"] is not None)
    assert shown["hint"] == f"e.g. {entry['move_hint']}"
    return entry


def test_the_menus_are_stargtp_games(page: Page, server: GuiServer) -> None:
    """The Game and Size menus, the Pass button and the move hint come from
    stargtp-games; choosing a game takes the engine to the side a person
    does not play and starts the game's default size."""
    entry = check_menu(page, server)
    assert menu(page)["engine"] == ("white" if entry["human"] == "black" else "black")
    games = json.loads(server.one(session_of(page), "stargtp-games"))["games"]
    for game in games[1:] + games[:1]:
        choose(page, "#game-select", game["name"])
        wait_idle(page, f"document.getElementById('board').dataset.game === '{game['name']}' && "
                        f"document.getElementById('board').dataset.size === '{game['default_size']}'")
        entry = check_menu(page, server)
        assert menu(page)["engine"] == ("white" if entry["human"] == "black" else "black")
        if entry["picture"]:
            check_agrees(page, server)
        else:  # a game without a picture is said to have none, never drawn as another
            assert page.evaluate("document.querySelectorAll('#board svg').length") == 0
            assert page.evaluate("document.querySelector('#board .board-message').textContent").startswith(
                f"{entry['title']} has no picture")


@pytest.fixture(scope="module")
def third_game_server() -> Iterator[GuiServer]:
    """``stargtp gui`` with the test's third game (tests/third_game.py, which
    has no picture) registered and current."""
    script = ("import sys; from tests.third_game import NAME, register; register(); "
              "from stargtp.protocol.cli import main; "
              "sys.exit(main(['gui', '--port', '0', '--game', NAME, '--workers', '1', '--playouts', '20']))")
    gui = GuiServer(command=[sys.executable, "-c", script])
    try:
        yield gui
    finally:
        gui.close()


def test_a_game_without_a_picture_is_never_drawn_as_another(browser: Browser, third_game_server: GuiServer,
                                                             tmp_path: Path) -> None:
    """A game the page has never heard of is in the menu as stargtp-games
    lists it; it has no picture, so the board says so and draws nothing;
    choosing a game with a picture draws that one."""
    server = third_game_server
    tab = browser.new_page(*VIEWPORT)
    tab.describe = "JSON.stringify(window.stargtpState ? window.stargtpState() : null)"
    try:
        tab.goto(server.url + "/")
        tab.wait_for("document.body.dataset.idle === '1' && document.body.dataset.game === 'tictactoe'",
                     timeout=DEADLINE)
        shown = menu(tab)
        from stargtp.engine.games import GAME_LIST

        assert shown["games"] == [[game.name, game.title] for game in GAME_LIST] + [["tictactoe", "Tic-tac-toe"]]
        assert (shown["game"], shown["size"]) == ("tictactoe", "3")
        assert shown["sizes"] == [["3", "3 squares a side"], ["4", "4 squares a side"]]
        message = tab.evaluate("document.querySelector('#board .board-message').hidden ? null : "
                               "document.querySelector('#board .board-message').textContent")
        assert message is not None and message.startswith("Tic-tac-toe has no picture")
        assert "stargtp-svg is only available for " in message
        assert tab.evaluate("document.querySelectorAll('#board svg, #board [data-point]').length") == 0
        screenshot(tab, tmp_path, "gui-no-picture.png")
        choose(tab, "#game-select", "star")
        tab.wait_for("document.body.dataset.idle === '1' && document.getElementById('board').dataset.game === 'star' "
                     "&& document.querySelectorAll('#board svg [data-point]').length === 275", timeout=DEADLINE)
        assert tab.evaluate("document.querySelector('#board .board-message').hidden")
    finally:
        tab.goto("about:blank")
        browser.send("Target.closeTarget", {"targetId": tab.target})
