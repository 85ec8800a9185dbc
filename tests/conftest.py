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
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The repository root: the directory that holds ``tests/``, ``engine/`` and
``protocol/``."""

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
