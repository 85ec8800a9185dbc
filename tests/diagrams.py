"""Board diagrams shared by several test files, kept in ``tests/data/``.

>>> print(amazons_diagram("finished").splitlines()[0])
W x . . . .
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

_HEADER = re.compile(r"\[([A-Za-z0-9_-]+)\]")


def load_diagrams(path: Path) -> dict[str, str]:
    """The diagrams of a diagram file: ``[name]`` lines, each followed by its
    rows (``#`` lines and blank lines are skipped). ValueError for a row
    before the first name or a name used twice."""
    diagrams: dict[str, list[str]] = {}
    current: list[str] | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        header = _HEADER.fullmatch(text)
        if header:
            if header.group(1) in diagrams:
                raise ValueError(f"{path.name}:{number}: diagram {header.group(1)!r} named twice")
            current = diagrams[header.group(1)] = []
        elif current is None:
            raise ValueError(f"{path.name}:{number}: a row before the first [name] line")
        else:
            current.append(text)
    return {name: "\n".join(rows) for name, rows in diagrams.items()}


@lru_cache(maxsize=None)
def _amazons() -> dict[str, str]:
    return load_diagrams(DATA / "amazons_diagrams.txt")


def amazons_diagram(name: str) -> str:
    """The text of the Amazons diagram ``name`` of ``data/amazons_diagrams.txt``,
    for ``engine.amazons.Position.from_diagram``: one row a line, top rank first."""
    return _amazons()[name]
