"""What a client may read from the server's disk, and reading it safely.

File commands (``loadsgf``) are the only way a client's words reach the file
system, so the policy lives here, in one place:

- Over stdin the controller is local: any path may be read.
- Over TCP a client is somebody else: nothing may be read unless the server
  was started with ``--file-dir DIR``, and then only files inside ``DIR``
  (relative paths are taken from ``DIR``; ``..`` and symbolic links are
  followed while they stay in it, refused where they lead out of it).
- Wherever it is read, a file must be a regular file of at most
  :data:`MAX_FILE_BYTES`: a FIFO, a device or ``/dev/stdin`` could block the
  reader for ever, and a huge file would only waste memory.

Under ``--file-dir`` the file that is read is the file that was checked,
even while somebody who can write in ``DIR`` swaps names for symbolic links:
the path is never handed to the kernel whole. It is walked one name at a
time from a descriptor of ``DIR``, each name opened relative to the
directory before it and without following a link (``O_NOFOLLOW``); a link
is read (``readlink``) and its target walked the same way, so ``..`` and
links are resolved by this module, and nothing above ``DIR`` is ever
opened. (Checking a path, then opening it, leaves a moment in which a name
can change: 242 of 3,000 loads read a file outside that way.)

:func:`load` blocks, so the session runs it in a thread, never on the event
loop. Every failure, of the policy or of the file system, is a
:class:`FileRefused`.
"""

from __future__ import annotations

import collections
import errno
import os
import stat

MAX_FILE_BYTES = 1 << 20
"""The largest file a file command reads (1 MiB): no legal record comes near it."""

MAX_LINKS = 40
"""The symbolic links one path may go through under ``--file-dir`` (Linux's
own limit); more is a loop, refused as the kernel refuses it."""

OUTSIDE = "the path is outside the server's file directory"
DISABLED = ("reading files is disabled on this connection"
            " (stargtp serve --tcp allows it with --file-dir DIR;"
            " stargtp-loadsgf-text takes a record as text)")

_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
"""How the file itself is opened: never blocking (a FIFO with no writer opens
at once, and is then refused), never becoming the controlling terminal."""

_SEARCH = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW
"""How a directory on the way is opened under ``--file-dir``: only to look
names up in it (``O_PATH`` where there is one), never through a link."""


class FileRefused(Exception):
    """A file that may not or cannot be read; ``str()`` says why, in a few words."""


def load(path: str, read_files: bool, file_dir: str | None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The content of the file a client's ``path`` names, under the policy:
    a regular file of at most ``limit`` bytes; FileRefused (with the reason)
    for anything else, including every error of the file system.

    >>> load("a.sgf", False, None)
    Traceback (most recent call last):
    ...
    stargtp.protocol.server.files.FileRefused: reading files is disabled on this connection (stargtp serve --tcp allows it with --file-dir DIR; stargtp-loadsgf-text takes a record as text)
    """
    if not read_files:
        raise FileRefused(DISABLED)
    if "\0" in path:
        raise FileRefused("no such file")
    try:
        fd = os.open(path, _READ) if file_dir is None else open_beneath(file_dir, path)
    except OSError as exc:
        raise FileRefused(_reason(exc)) from None
    try:
        return _read_regular(fd, limit)
    except OSError as exc:
        raise FileRefused(_reason(exc)) from None
    finally:
        os.close(fd)


def open_beneath(file_dir: str, path: str) -> int:
    """A descriptor of the file ``path`` names inside ``file_dir``, opened to
    be read (``O_NONBLOCK``) without ever following a name out of the
    directory; FileRefused when ``path`` leads out of it, OSError when the
    file system refuses.

    A relative path starts at the directory, and ``..`` goes up. Where the
    walk would leave the directory (an absolute path, the client's or a
    link's target, or ``..`` at the top), the rest of the path must lead
    straight back into it (:func:`_come_back`), and the walk goes on from
    there. Symbolic links are followed, at most :data:`MAX_LINKS` of them.
    So for a tree nobody changes, the file read is the one
    ``os.path.realpath`` finds, when that lies in the directory.
    """
    root = os.path.realpath(file_dir)
    pending = collections.deque(_names(path))
    if os.path.isabs(path):
        _come_back(root, pending)
    dirs = [os.open(root, _SEARCH & ~os.O_NOFOLLOW)]  # the operator's directory, links and all
    links = 0
    try:
        while pending:
            name = pending.popleft()
            if name == ".":  # last: the path names a directory
                continue
            if name == "..":
                if len(dirs) > 1:
                    os.close(dirs.pop())
                else:  # out of the directory: only straight back in
                    pending.extendleft(reversed(_names(os.path.dirname(root))))
                    _come_back(root, pending)
                continue
            last = not pending
            try:
                fd = os.open(name, (_READ | os.O_NOFOLLOW) if last else _SEARCH, dir_fd=dirs[-1])
            except OSError as refused:
                # A link refuses O_NOFOLLOW: ELOOP as the file, ENOTDIR on
                # the way (EMLINK on some systems).
                if refused.errno not in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR):
                    raise
                try:
                    target = os.readlink(name, dir_fd=dirs[-1])
                except OSError as not_link:
                    if not_link.errno != errno.EINVAL:
                        raise  # gone meanwhile, say
                    if refused.errno == errno.ENOTDIR and not _directory_or_link(name, dirs[-1]):
                        raise refused from None  # a file where a directory should be
                    target = name  # a link a moment ago, not now: look again
                links += 1
                if links > MAX_LINKS:
                    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP)) from None
                pending.extendleft(reversed(_names(target)))
                if os.path.isabs(target):
                    for below in dirs[1:]:
                        os.close(below)
                    del dirs[1:]
                    _come_back(root, pending)
                continue
            if last:
                return fd
            dirs.append(fd)
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR))  # the path names a directory
    finally:
        for fd in dirs:
            os.close(fd)


def _directory_or_link(name: str, dir_fd: int) -> bool:
    """Whether ``name`` in the directory ``dir_fd`` is (now) a directory or a
    link, which is worth another look when it was refused as a directory."""
    mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    return stat.S_ISDIR(mode) or stat.S_ISLNK(mode)


def _names(path: str) -> list[str]:
    """The names a path goes through, without the empty ones and ``.``, but
    for a last ``.`` when it ends in ``/`` or ``/.``: then, as for the
    kernel, its last name must be a directory.

    >>> _names("sub//./a.sgf"), _names("a.sgf/"), _names("/")
    (['sub', 'a.sgf'], ['a.sgf', '.'], [])
    """
    parts = path.split("/")
    names = [name for name in parts if name not in ("", ".")]
    if names and parts[-1] in ("", "."):
        names.append(".")
    return names


def _come_back(root: str, names: collections.deque[str]) -> None:
    """Take from ``names`` (an absolute path's, from ``/``) the shortest
    beginning whose real path is ``root`` (the directory's real path), so
    that the rest is walked from the directory: ``DIR/a.sgf`` is ``a.sgf``
    however DIR is spelled (``/tmp`` or ``/private/tmp`` on macOS, a link to
    it). FileRefused when no beginning names the directory.

    Only which file is meant depends on this look (a name changed meanwhile
    can only make a path refused or accepted): what is read is then walked
    from the directory's own descriptor by :func:`open_beneath`.
    """
    real = os.sep
    while real != root:
        if not names:
            raise FileRefused(OUTSIDE)
        try:  # one name at a time, so a long path costs its length, not its square
            real = os.path.realpath(os.path.join(real, names.popleft()))
        except OSError:  # no such directory, a loop, a name that changed...
            raise FileRefused(OUTSIDE) from None


def _read_regular(fd: int, limit: int) -> bytes:
    """The whole content of the open file ``fd``, if it is a regular file of
    at most ``limit`` bytes (judged by the descriptor itself, before reading
    a byte); FileRefused otherwise."""
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


def _reason(exc: OSError) -> str:
    """A short lower-case reason for an OS error, without the path."""
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EISDIR:
        return "is a directory"
    return (exc.strerror or type(exc).__name__).lower()
