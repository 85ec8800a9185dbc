"""The text protocol: framing, command registry, sessions, servers, controller,
match runner and tools built on :mod:`engine`."""
