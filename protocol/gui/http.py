"""Just enough HTTP/1.1 for the bridge: reading requests off an asyncio
stream, strictly and with bounded memory, and writing responses.

What is read: a request line and header fields of at most
:data:`MAX_HEAD_BYTES` together, then a body of at most
:data:`MAX_BODY_BYTES` framed by ``Content-Length`` (chunked request bodies
are refused: nothing the bridge serves needs them). Anything else is an
:class:`HttpError` whose status and one-line message go back to the client.
Keep-alive is HTTP/1.1's default; ``Expect: 100-continue`` is honoured.

Nothing here knows the bridge's routes (:mod:`stargtp.protocol.gui.bridge`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from http import HTTPStatus

MAX_HEAD_BYTES = 16 * 1024
"""The request line and every header field, together (more: 431)."""

MAX_BODY_BYTES = 64 * 1024
"""The largest request body (more: 413)."""

READ_CHUNK = 64 * 1024

LINGER_SECONDS = 2.0
"""How long a connection closed after an error answer keeps reading and
dropping what the client still sends, so that the answer arrives instead of
a connection reset."""

LINGER_BYTES = 1 << 20

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_REQUEST_LINE = re.compile(r"([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([!-~]+) HTTP/([0-9])\.([0-9])")
_BAD_VALUE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


class HttpError(Exception):
    """A request the server answers with an error status; ``close``: the
    connection cannot go on (its framing is lost), so it is closed."""

    def __init__(self, status: int, message: str, close: bool = False,
                 headers: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.close = close
        self.headers = tuple(headers)


@dataclass
class Request:
    method: str
    target: str
    minor: int
    """HTTP/1.minor."""
    headers: dict[str, list[str]] = field(default_factory=dict)
    """Field names in lower case, each with its values in order."""
    body: bytes = b""
    body_length: int | None = None
    """The Content-Length sent, None when there was none."""

    @property
    def path(self) -> str:
        return self.target.partition("?")[0]

    @property
    def query(self) -> str:
        return self.target.partition("?")[2]

    def header(self, name: str) -> str | None:
        """The one value of a field (several are joined by commas), or None."""
        values = self.headers.get(name)
        return None if values is None else ", ".join(values)

    @property
    def keep_alive(self) -> bool:
        """Whether the client lets the connection carry another request."""
        tokens = {token.strip().lower() for token in (self.header("connection") or "").split(",")}
        if self.minor == 0:
            return "keep-alive" in tokens
        return "close" not in tokens


class RequestReader:
    """Reads requests one after another from a stream, with its own buffer
    (so that nothing beyond the limits is ever held)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self.buffer = bytearray()
        self.eof = False

    async def fill(self) -> bool:
        """Read more bytes into the buffer; False at the end of the input."""
        if self.eof:
            return False
        try:
            data = await self._reader.read(READ_CHUNK)
        except (ConnectionError, OSError):
            data = b""
        if not data:
            self.eof = True
            return False
        self.buffer += data
        return True

    async def wait_for_request(self) -> bool:
        """Wait until a request starts (some bytes are there); False when the
        client closed the connection instead."""
        return bool(self.buffer) or await self.fill()

    async def read_request(self) -> Request | None:
        """The next whole request, body included; None when the client closed
        the connection between requests. HttpError for a bad one."""
        head = await self._read_head()
        if head is None:
            return None
        request = parse_head(head)
        length = body_length(request)
        request.body_length = length
        if length:
            expect = request.header("expect")
            if expect is not None:
                if expect.strip().lower() != "100-continue":
                    raise HttpError(417, f"unsupported Expect: {expect}", close=True)
                if request.minor >= 1 and len(self.buffer) < length:
                    self._writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            while len(self.buffer) < length:
                if not await self.fill():
                    raise HttpError(400, "the request ended before its body did", close=True)
            request.body = bytes(self.buffer[:length])
            del self.buffer[:length]
        return request

    async def _read_head(self) -> bytes | None:
        skipped = 0
        while True:
            # Empty lines before a request line are ignored (RFC 9112, 2.2).
            while self.buffer[:1] == b"\n" or self.buffer[:2] == b"\r\n":
                cut = 1 if self.buffer[:1] == b"\n" else 2
                del self.buffer[:cut]
                skipped += cut
                if skipped > MAX_HEAD_BYTES:
                    raise HttpError(400, "no request line", close=True)
            end = head_end(self.buffer)
            if end >= 0:
                if end > MAX_HEAD_BYTES:
                    break
                head = bytes(self.buffer[:end])
                del self.buffer[:end]
                return head
            if len(self.buffer) > MAX_HEAD_BYTES:
                break
            if not await self.fill():
                if not self.buffer:
                    return None
                raise HttpError(400, "the request ended before its header did", close=True)
        raise HttpError(431, f"request line and header fields over {MAX_HEAD_BYTES} bytes", close=True)


def head_end(buffer: bytes | bytearray) -> int:
    """Where the header block ends (just after its empty line), or -1.

    >>> head_end(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nbody"), head_end(b"GET / HTTP/1.0\\n\\n")
    (27, 16)
    """
    ends = [at + len(mark) for mark in (b"\n\r\n", b"\n\n") if (at := buffer.find(mark)) >= 0]
    return min(ends) if ends else -1


def parse_head(head: bytes) -> Request:
    """The request line and header fields; HttpError (400, 505) when malformed.

    >>> request = parse_head(b"POST /gtp?session=x HTTP/1.1\\r\\nHost: h\\r\\nContent-Length: 5\\r\\n\\r\\n")
    >>> request.method, request.path, request.query, request.header("content-length")
    ('POST', '/gtp', 'session=x', '5')
    """
    text = head.decode("latin-1")
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise HttpError(400, "no request line", close=True)
    match = _REQUEST_LINE.fullmatch(lines[0])
    if match is None:
        raise HttpError(400, "malformed request line", close=True)
    method, target, major, minor = match.groups()
    if major != "1":
        raise HttpError(505, f"HTTP/{major}.{minor} is not supported (HTTP/1.1 is)", close=True)
    request = Request(method, target, int(minor))
    for line in lines[1:]:
        if line[:1] in (" ", "\t"):
            raise HttpError(400, "folded header lines are not accepted", close=True)
        name, colon, value = line.partition(":")
        if not colon or not _TOKEN.fullmatch(name):
            raise HttpError(400, "malformed header field", close=True)
        value = value.strip(" \t")
        if _BAD_VALUE.search(value):
            raise HttpError(400, f"control character in header field {name}", close=True)
        request.headers.setdefault(name.lower(), []).append(value)
    if request.minor >= 1 and len(request.headers.get("host", ())) != 1:
        raise HttpError(400, "an HTTP/1.1 request needs exactly one Host header", close=True)
    return request


def body_length(request: Request) -> int | None:
    """The body's Content-Length (None: none was sent); HttpError for a
    transfer coding, a malformed length or one over :data:`MAX_BODY_BYTES`."""
    if "transfer-encoding" in request.headers:
        raise HttpError(411, "send the body with a Content-Length (transfer codings are not accepted)",
                        close=True)
    values = request.headers.get("content-length")
    if values is None:
        return None
    lengths = {part.strip() for value in values for part in value.split(",")}
    if len(lengths) != 1:
        raise HttpError(400, "conflicting Content-Length values", close=True)
    (text,) = lengths
    if not (text.isascii() and text.isdigit()):
        raise HttpError(400, f"malformed Content-Length: {text[:40]}", close=True)
    if len(text.lstrip("0")) > 12 or int(text) > MAX_BODY_BYTES:
        raise HttpError(413, f"request body over {MAX_BODY_BYTES} bytes", close=True)
    return int(text)


def response_head(status: int, headers: Iterable[tuple[str, str]], keep_alive: bool) -> bytes:
    """The status line and header fields, with the blank line."""
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}"]
    lines += [f"{name}: {value}" for name, value in headers]
    lines.append("Connection: keep-alive" if keep_alive else "Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def response(status: int, body: bytes = b"", content_type: str | None = None,
             headers: Iterable[tuple[str, str]] = (), keep_alive: bool = True,
             head_only: bool = False) -> bytes:
    """A whole response with a Content-Length (``head_only``: without the
    body, for HEAD)."""
    fields = [*headers]
    if content_type is not None:
        fields.append(("Content-Type", content_type))
    if status not in (204, 304):
        fields.append(("Content-Length", str(len(body))))
    fields += [("X-Content-Type-Options", "nosniff")]
    data = response_head(status, fields, keep_alive)
    return data if head_only or status in (204, 304) else data + body


def error_response(status: int, message: str, headers: Iterable[tuple[str, str]] = (),
                   keep_alive: bool = True) -> bytes:
    """An error: ``text/plain``, the one-line message."""
    return response(status, (" ".join(message.split()) + "\n").encode("utf-8"),
                    "text/plain; charset=utf-8", [*headers, ("Cache-Control", "no-store")], keep_alive)


async def linger_and_close(reader: RequestReader, writer: asyncio.StreamWriter) -> None:
    """Close after an answer that ends the connection: send it, shut the
    sending side, then read and drop what the client still sends (a
    bounded amount, for a bounded time) so that closing does not reset the
    connection before the client has read the answer."""
    try:
        await asyncio.wait_for(writer.drain(), LINGER_SECONDS)
        if writer.can_write_eof():
            writer.write_eof()
        dropped = 0

        async def drop() -> None:
            nonlocal dropped
            while dropped < LINGER_BYTES and await reader.fill():
                dropped += len(reader.buffer)
                reader.buffer.clear()

        await asyncio.wait_for(drop(), LINGER_SECONDS)
    except (TimeoutError, ConnectionError, OSError):
        pass
    finally:
        writer.close()
