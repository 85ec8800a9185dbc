"""The browser page's files, read as text (no browser needed, so these run
wherever the tests run; tests/test_gui_browser.py drives the page itself).

The page learns the games from the protocol (stargtp-games): no file of it
may name one."""

from __future__ import annotations

import re

from tests.gtp_helpers import REPO

STATIC = REPO / "protocol" / "gui" / "static"


def game_identifiers() -> set[str]:
    """Every way the engine names a game (name, title, GTP name), and the
    games being added (Hex, Y), in lower case."""
    from stargtp.engine.games import GAME_LIST

    return {text.lower() for game in GAME_LIST for text in (game.name, game.title, game.gtp_name)} | {"hex", "y"}


def test_the_page_names_no_game() -> None:
    """No file of the page names a game: no string literal is a game's name,
    title or GTP name (``"star"``, ``'amazons'``, ``"y"``), and no word of
    its text is one (``*Star``, ``Amazons``; ``stargtp`` is a word of its
    own, and a lone ``y`` is a coordinate)."""
    names = game_identifiers()
    files = sorted(STATIC.iterdir())
    assert {f.name for f in files} >= {"index.html", "style.css", "app.js", "bridge.js", "state.js", "board.js",
                                       "panels.js", "analysis.js"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        literals = re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'|`([^`]*)`", text)
        for groups in literals:
            literal = "".join(groups).strip().lower()
            assert literal not in names, f"{path.name} names a game: {literal!r}"
        words = {word.lower() for word in re.findall(r"\*?[A-Za-z]+", text)}
        assert not (words & (names - {"y"})), f"{path.name}: {sorted(words & names)}"
        assert not re.search(r"\bamazon\b|\bhex\b", text, re.IGNORECASE), path.name
    # The check itself finds a game's name where there is one.
    assert "star" in names and "*star" in names and "amazons" in names
    sample = 'if (game === "amazons") draw();'
    assert any("".join(g).lower() in names for g in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'|`([^`]*)`", sample))
