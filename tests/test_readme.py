"""The README cannot drift from the program: its first session is run exactly
as the README's set-up command line runs it, and every line the README shows
is checked against what the server wrote; its Tools table names every
``stargtp`` subcommand.

The first session's block shows the server's output with notes beside it:

* a line of output, then optionally two or more spaces and a note;
* an empty line of output (the end of a response), as blank or as a note;
* a note going on from the line before, starting at column 24 or later;
* a long line cut short with ``...``, which stands for one or more whole
  words of the real line (``S40 S41 ... R43``).

The empty line that ends the last response (``quit``'s) may be left out.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

from stargtp.protocol.cli import SUBCOMMANDS
from tests.gtp_helpers import HANG_SECONDS, REPO, subprocess_env

README = REPO / "README.md"

NOTE_COLUMN = 24
"""Where a note that has a line to itself starts (or later)."""

# The set-up line pipes printf's output into stargtp serve.
SESSION_COMMAND = re.compile(r"printf '([^']*)' \| \.venv/bin/stargtp (serve[^`\n]*)")


def readme() -> str:
    return README.read_text(encoding="utf-8")


def first_session() -> tuple[str, list[str]]:
    """The README's first session: the input printf writes and the options of
    ``stargtp serve``."""
    found = SESSION_COMMAND.findall(readme())
    assert len(found) == 1, f"expected one `printf '...' | .venv/bin/stargtp serve` line, found {len(found)}"
    text, command = found[0]
    # printf's format: only \n escapes here (and no % conversions), or this
    # test would have to learn the others.
    assert "%" not in text and "\\" not in text.replace("\\n", ""), text
    return text.replace("\\n", "\n"), shlex.split(command)


def shown_session() -> list[str]:
    """The lines of the first code block after "Your first session"."""
    after = readme().split("### Your first session", 1)[1]
    block = re.search(r"^```\n(.*?)^```$", after, re.MULTILINE | re.DOTALL)
    assert block, "no code block after 'Your first session'"
    return block.group(1).split("\n")[:-1]


def shows(line: str, real: str) -> bool:
    """Whether a README line shows the real output line ``real`` (with or
    without a note, and with ``...`` for words left out)."""
    if not real:
        return not line[:NOTE_COLUMN].strip()
    if " ... " in line:
        answer = line.partition("  ")[0]  # a note, if any, follows two spaces
        words = r" \S+(?: \S+)* "  # one or more whole words
        pattern = words.join(re.escape(part) for part in answer.split(" ... "))
        return re.fullmatch(pattern, real) is not None
    rest = line[len(real):]
    return line.startswith(real) and (not rest.strip() or rest.startswith("  "))


def check_annotated(shown: list[str], real: list[str]) -> None:
    """Every README line shows the next real line or is a note; every real
    line is shown (the last empty one may be left out)."""
    k = 0
    for number, line in enumerate(shown, 1):
        if k < len(real) and shows(line, real[k]):
            k += 1
        elif line.startswith(" " * NOTE_COLUMN) and line.strip():
            continue  # a note going on from the line before
        else:
            wrote = repr(real[k]) if k < len(real) else "nothing more"
            raise AssertionError(f"README first-session line {number}, {line!r}: the server wrote {wrote}")
    assert real[k:] in ([], [""]), f"the README leaves out the server's lines {real[k:]!r}"


def test_the_first_session_shows_what_the_server_answers() -> None:
    text, options = first_session()
    assert options[0] == "serve"
    result = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", *options], input=text.encode(),
                            capture_output=True, cwd=REPO, env=subprocess_env(), timeout=HANG_SECONDS)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    output = result.stdout.decode()
    assert output.endswith("\n\n")
    real = output[:-1].split("\n")
    shown = shown_session()
    check_annotated(shown, real)
    # A guard against a check that passes by treating everything as notes.
    assert sum(1 for line in shown if line.startswith(("=", "?"))) == text.count("\n")


def test_the_annotation_check_catches_drift() -> None:
    """The checker itself: a README line that is not what the server wrote fails."""
    real = ["= black 4 1 *40 *41 S40 S41", "", "= B+3", "", "=", "  X  O", "to move: white", "", "="]
    good = ["= black 4 1 *40 *41 ... S41", "                        list_stars: the star",
            "                        and more", "= B+3     final_score", "",
            "=         showboard", "  X  O             the board", "to move: white", "", "=  quit"]
    check_annotated(good, real)
    for number, bad in ((0, "= black 4 1 *40 ... *41 S40"), (0, "= black 4 1 *41 ... S41"),
                        (0, "= black 4 1 ... S40 S41 T40"), (3, "= B+4     final_score"),
                        (6, "  X  X             the board"), (9, "=quit")):
        changed = list(good)
        changed[number] = bad
        try:
            check_annotated(changed, real)
        except AssertionError:
            continue
        raise AssertionError(f"not caught: {bad!r}")
    try:
        check_annotated(good[:-2], real)
    except AssertionError:
        pass
    else:
        raise AssertionError("a session cut short is not caught")


def test_the_tools_table_lists_every_subcommand() -> None:
    tools = readme().split("## Tools", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `stargtp (\w+)` \|", tools, re.MULTILINE)
    assert sorted(listed) == sorted(SUBCOMMANDS)
    for link in re.findall(r"\]\((docs/[^)#]+)", tools):
        assert (REPO / link).is_file(), link
