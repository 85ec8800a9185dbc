"""Set-up shared by every test: how test files import each other's helpers.

**The one way:** import a helper module of ``tests/`` by its package path,
from the repository root::

    from tests.gtp_helpers import converse, split_responses
    from tests.amazons_reference import literal_moves
    from tests.diagrams import amazons_diagram

never by its bare name (``from gtp_helpers import ...``). The bare name only
works because pytest happens to put ``tests/`` itself on ``sys.path``, and
mixing the two forms loads a helper twice, as two modules with separate
state. The package path is also the name a helper has in every other process
the tests start: the subprocesses get the repository root on ``PYTHONPATH``
(:func:`tests.gtp_helpers.subprocess_env`), and the server's worker processes
inherit ``sys.path`` from their parent.

``tests`` is a namespace package (no ``__init__.py``): this file puts the
repository root at the front of ``sys.path``, so the form works under
``pytest`` as well as ``python -m pytest``, started from any directory.

**The code under test is the installed ``stargtp``** (``pip install .`` or
``pip install -e .``): the source folders ``engine/`` and ``protocol/`` are
the packages ``stargtp.engine`` and ``stargtp.protocol`` only once installed.
So that a stale install is never tested in place of the checkout, the run
stops at once, saying what to do, when ``stargtp`` is not installed or when
the installed files differ from this checkout's (an editable install always
agrees).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The repository root: the directory that holds ``tests/``, ``engine/`` and
``protocol/``."""

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def _installed_mismatch() -> str | None:
    """Why the installed ``stargtp`` is not this checkout, or None."""
    try:
        import stargtp.engine
        import stargtp.protocol
    except ImportError as error:
        return f"stargtp is not installed ({error})"
    for package, folder in ((stargtp.engine, "engine"), (stargtp.protocol, "protocol")):
        installed = Path(package.__file__).resolve().parent
        source = REPO / folder
        if installed == source:
            continue  # an editable install: the checkout itself
        for path in sorted(source.rglob("*")):
            if path.is_dir() or "__pycache__" in path.parts:
                continue
            copy = installed / path.relative_to(source)
            if not copy.is_file() or copy.read_bytes() != path.read_bytes():
                return (f"the installed stargtp ({installed}) is not this checkout: "
                        f"{path.relative_to(REPO)} differs")
    return None


_MISMATCH = _installed_mismatch()


def pytest_sessionstart(session) -> None:  # noqa: ANN001 (pytest's hook)
    if _MISMATCH is not None:
        import pytest

        pytest.exit(f"{_MISMATCH}; install the checkout first: pip install -e '.[test,cluster]' "
                    "(or pip install '.[test,cluster]' again after each change)", returncode=2)
