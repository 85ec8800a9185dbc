"""The text protocol: framing, command registry, sessions, servers, controller,
match runner and tools built on :mod:`stargtp.engine`.

``__version__`` is the one place the version is written: the distribution's
metadata (``pyproject.toml`` reads it), ``stargtp --version`` and the protocol's
``version`` command all take it from here. CHANGELOG.md says what each version
changed.
"""

__version__ = "0.3.0"
