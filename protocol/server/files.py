"""What a client may read from the server's disk, and reading it safely.

File commands (``loadsgf``) are the only way a client's words reach the file
system, so the policy lives here, in one place:

- Over stdin the controller is local: any path may be read.
- Over TCP a client is somebody else: nothing may be read unless the server
  was started with ``--file-dir DIR``, and then only files inside ``DIR``
  (relative paths are taken from ``DIR``; ``..`` and symbolic links that lead
  out of it are refused).
- Wherever it is read, a file must be a regular file of at most
  :data:`MAX_FILE_BYTES`: a FIFO, a device or ``/dev/stdin`` could block the
  reader for ever, and a huge file would only waste memory.

:func:`load` blocks, so the session runs it in a thread, never on the event
loop.
"""

from __future__ import annotations

import errno
import os
import stat

MAX_FILE_BYTES = 1 << 20
"""The largest file a file command reads (1 MiB): no legal record comes near it."""


class FileRefused(Exception):
    """A file that may not or cannot be read; ``str()`` says why, in a few words."""


def resolve(path: str, read_files: bool, file_dir: str | None) -> str:
    """The path to open for a client's ``path``, under the policy; FileRefused
    when the policy forbids it.

    >>> resolve("games/a.sgf", True, None)
    'games/a.sgf'
    >>> resolve("a.sgf", False, None)
    Traceback (most recent call last):
    ...
    stargtp.protocol.server.files.FileRefused: reading files is disabled on this connection (stargtp serve --tcp allows it with --file-dir DIR; stargtp-loadsgf-text takes a record as text)
    """
    if not read_files:
        raise FileRefused("reading files is disabled on this connection"
                          " (stargtp serve --tcp allows it with --file-dir DIR;"
                          " stargtp-loadsgf-text takes a record as text)")
    if "\0" in path:
        raise FileRefused("no such file")
    if file_dir is None:
        return path
    root = os.path.realpath(file_dir)
    target = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([root, target]) != root:
        raise FileRefused("the path is outside the server's file directory")
    return target


def load(path: str, read_files: bool, file_dir: str | None, limit: int = MAX_FILE_BYTES) -> bytes:
    """:func:`resolve` then :func:`read_regular_file`: what a file command reads."""
    return read_regular_file(resolve(path, read_files, file_dir), limit)


def read_regular_file(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The whole content of a regular file of at most ``limit`` bytes.

    Opening never blocks (``O_NONBLOCK``: a FIFO with no writer opens at once
    and is then refused), and nothing but a regular file is read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused(_reason(exc)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused("is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("not a regular file")
        if info.st_size > limit:
            raise FileRefused(f"file too large (more than {limit} bytes)")
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, limit + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while being read
            raise FileRefused(f"file too large (more than {limit} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefused(_reason(exc)) from None
    finally:
        os.close(fd)


def _reason(exc: OSError) -> str:
    """A short lower-case reason for an OS error, without the path."""
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EISDIR:
        return "is a directory"
    return (exc.strerror or type(exc).__name__).lower()
