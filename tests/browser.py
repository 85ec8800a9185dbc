"""A small Chromium driver for the browser tests, standard library only.

It starts headless Chromium with ``--remote-debugging-pipe`` and speaks the
DevTools protocol over that pipe: Chromium reads commands on its file
descriptor 3 and writes answers and events on 4, each message one JSON
object ended by a NUL byte. No WebDriver, no port, no third-party package
(docs/gui.md explains the choice).

    with Browser(tmp_path) as browser:
        page = browser.new_page(1280, 860)
        page.goto("http://127.0.0.1:8000/")
        page.wait_for("document.readyState === 'complete'")
        page.click("#new-game")
        png = page.screenshot()

A :class:`Page` evaluates JavaScript (``evaluate``), waits for a condition
by polling it (``wait_for``), clicks an element at its centre with real
mouse events (``click``), types text and presses keys (``type_text``,
``press``) and takes screenshots.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("STARGTP_CHROMIUM", "/usr/bin/chromium")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--font-render-hinting=none",
    "--remote-debugging-pipe",
)


class BrowserError(Exception):
    """A DevTools command failed, the browser went away, or a wait timed out."""


def chromium_path() -> str | None:
    """The Chromium the tests use, or None when it is not installed."""
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else None


class Browser:
    """One headless Chromium process, driven over its DevTools pipe."""

    def __init__(self, workdir: Path, executable: str = CHROMIUM) -> None:
        workdir = Path(workdir)
        profile = workdir / "chromium-profile"
        profile.mkdir(parents=True, exist_ok=True)
        self.log_path = workdir / "chromium.log"
        # Our end writes to Chromium's fd 3 and reads from its fd 4.
        to_child_read, self._to_child = os.pipe()
        self._from_child, from_child_write = os.pipe()
        log_fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        argv = [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
        actions = [
            (os.POSIX_SPAWN_DUP2, to_child_read, 3),
            (os.POSIX_SPAWN_DUP2, from_child_write, 4),
            (os.POSIX_SPAWN_DUP2, log_fd, 1),
            (os.POSIX_SPAWN_DUP2, log_fd, 2),
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        ]
        try:
            self.pid = os.posix_spawn(executable, argv, dict(os.environ), file_actions=actions,
                                      setpgroup=0)
        finally:
            for fd in (to_child_read, from_child_write, log_fd):
                os.close(fd)
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self.dialogs: list[dict[str, Any]] = []
        """The dialogs pages opened (``Page.javascriptDialogOpening``), oldest first."""
        self._next_id = 0
        self._waiting: dict[int, dict[str, Any]] = {}
        self._answers: dict[int, threading.Event] = {}
        self.events: list[dict[str, Any]] = []
        self._closed = False
        self._reader = threading.Thread(target=self._read, name="cdp-reader", daemon=True)
        self._reader.start()
        self.version = self.send("Browser.getVersion", timeout=60)

    # -- the pipe ---------------------------------------------------------------

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_child, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for raw in messages:
                message = json.loads(raw)
                ident = message.get("id")
                if ident is None:
                    with self._lock:
                        self.events.append(message)
                    if message.get("method") == "Page.javascriptDialogOpening":
                        self._on_dialog(message)
                    continue
                with self._lock:
                    event = self._answers.get(ident)
                    if event is not None:
                        self._waiting[ident] = message
                if event is not None:
                    event.set()
        self._closed = True
        with self._lock:
            for event in self._answers.values():
                event.set()

    def _on_dialog(self, message: dict[str, Any]) -> None:
        """Note a dialog; a page's leave warning (``beforeunload``) is accepted
        at once, so navigating away or reloading never waits for a person."""
        params = message.get("params", {})
        with self._lock:
            self.dialogs.append(params)
        if params.get("type") == "beforeunload":
            self._post("Page.handleJavaScriptDialog", {"accept": True}, message.get("sessionId"))

    def _write(self, data: bytes) -> None:
        with self._write_lock:  # the reader thread answers dialogs: messages must not interleave
            while data:
                data = data[os.write(self._to_child, data):]

    def _post(self, method: str, params: dict[str, Any], session: str | None) -> None:
        """Send a command without waiting for its answer (from the reader thread)."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        try:
            self._write(json.dumps(message).encode() + b"\0")
        except OSError:
            pass  # the browser is gone; the waiting side reports it

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             session: str | None = None, timeout: float = 60) -> dict[str, Any]:
        """Send one DevTools command and wait for its result."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            done = self._answers[ident] = threading.Event()
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        try:
            self._write(data)
        except OSError as exc:
            raise BrowserError(f"{method}: the browser is gone ({exc}); see {self.log_path}") from exc
        if not done.wait(timeout):
            raise BrowserError(f"{method}: no answer in {timeout} s")
        with self._lock:
            del self._answers[ident]
            answer = self._waiting.pop(ident, None)
        if answer is None:
            raise BrowserError(f"{method}: the browser closed the pipe; see {self.log_path}")
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    # -- pages ------------------------------------------------------------------

    def new_page(self, width: int = 1280, height: int = 860) -> Page:
        """A fresh tab with a fixed viewport, attached in flat mode."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.set_viewport(width, height)
        return page

    def allow_downloads(self, directory: Path) -> None:
        """Downloads of every page go to ``directory`` without asking."""
        self.send("Browser.setDownloadBehavior",
                  {"behavior": "allow", "downloadPath": str(directory), "eventsEnabled": True})

    def console_messages(self) -> list[str]:
        """What the pages logged (console calls and uncaught exceptions), oldest first."""
        lines = []
        with self._lock:
            events = list(self.events)
        for event in events:
            params = event.get("params", {})
            if event.get("method") == "Runtime.consoleAPICalled":
                text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"])
                lines.append(f"console.{params['type']}: {text}")
            elif event.get("method") == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                description = details.get("exception", {}).get("description", details.get("text"))
                lines.append(f"exception: {description}")
        return lines

    def close(self) -> None:
        """Ask the browser to quit; kill its process group if it lingers."""
        if not self._closed:
            try:
                self.send("Browser.close", timeout=10)
            except BrowserError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.05)
        else:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
        try:  # helpers (zygote, renderers) of the same process group
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Page:
    """One tab: JavaScript, waiting, mouse, keyboard and screenshots."""

    def __init__(self, browser: Browser, session: str, target: str) -> None:
        self.browser = browser
        self.session = session
        self.target = target

    def send(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> dict[str, Any]:
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def set_viewport(self, width: int, height: int) -> None:
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def reload(self, timeout: float = 60) -> None:
        """Reload the page (as F5 does) and wait until the document has loaded again."""
        self.evaluate("window.__reloading = true")
        self.send("Page.reload", {}, timeout=timeout)
        deadline = time.monotonic() + timeout
        problem = "still loading"
        while True:
            try:  # while the old document goes, an evaluation may find no context: ask again
                if self.evaluate("document.readyState === 'complete' && !window.__reloading"):
                    return
            except BrowserError as exc:
                problem = str(exc)
            if time.monotonic() > deadline:
                raise BrowserError(f"the page did not load again in {timeout} s ({problem})")
            time.sleep(0.05)

    def goto(self, url: str, timeout: float = 60) -> None:
        """Load ``url`` and wait until the document has loaded."""
        answer = self.send("Page.navigate", {"url": url}, timeout=timeout)
        if answer.get("errorText"):
            raise BrowserError(f"cannot load {url}: {answer['errorText']}")
        self.wait_for("document.readyState === 'complete'", timeout=timeout)

    def evaluate(self, expression: str, timeout: float = 60) -> Any:
        """The value of a JavaScript expression (promises are awaited)."""
        answer = self.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True,
            "userGesture": True}, timeout=timeout)
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"{expression[:200]}: {text}")
        return answer["result"].get("value")

    describe: str | None = None
    """An expression whose value a timed-out wait reports (the page's state, say)."""

    def wait_for(self, expression: str, timeout: float = 120, interval: float = 0.05,
                 message: str | None = None) -> Any:
        """Poll ``expression`` until it is truthy; its value. A generous
        deadline, no timing assertion: slow machines only wait longer."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                state = ""
                if self.describe:
                    try:
                        state = f"; the page: {self.evaluate(self.describe)}"
                    except BrowserError as exc:
                        state = f"; the page cannot say ({exc})"
                raise BrowserError(f"timed out after {timeout} s waiting for {message or expression}{state}")
            time.sleep(interval)

    def centre(self, selector: str) -> tuple[float, float]:
        """The viewport coordinates of the centre of the first element matching ``selector``,
        scrolled into view first, once its place holds still for two frames."""
        box = self.evaluate(
            f"""(async () => {{
                const e = document.querySelector({json.dumps(selector)});
                if (!e) return null;
                e.scrollIntoView({{block: 'center', inline: 'center'}});
                const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
                const place = () => {{
                    const r = e.getBoundingClientRect();
                    return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];
                }};
                let before = place();
                for (let i = 0; i < 50; i++) {{
                    await frame();
                    await frame();
                    const now = place();
                    if (now.every((v, k) => v === before[k])) return now;
                    before = now;
                }}
                return before;
            }})()""")
        if box is None:
            raise BrowserError(f"no element matches {selector}")
        if box[2] <= 0 or box[3] <= 0:
            raise BrowserError(f"{selector} is not visible")
        return box[0], box[1]

    def click_at(self, x: float, y: float) -> None:
        """A real left click at viewport coordinates: move, press, release."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1})

    def click(self, selector: str) -> None:
        """Click the centre of the first element matching ``selector``."""
        self.click_at(*self.centre(selector))

    def type_text(self, text: str) -> None:
        """Type ``text`` into the focused element."""
        self.send("Input.insertText", {"text": text})

    def press(self, key: str) -> None:
        """Press and release one key, such as ``Enter``, ``Escape`` or ``ArrowLeft``."""
        codes = {"Enter": 13, "Escape": 27, "ArrowLeft": 37, "ArrowRight": 39, "ArrowUp": 38,
                 "ArrowDown": 40, "Home": 36, "End": 35, "Tab": 9, "Backspace": 8}
        params: dict[str, Any] = {"key": key, "code": key, "windowsVirtualKeyCode": codes.get(key, 0)}
        if key == "Enter":
            params["text"] = "\r"
        self.send("Input.dispatchKeyEvent", {"type": "keyDown", **params})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", **{k: v for k, v in params.items() if k != "text"}})

    def set_files(self, selector: str, paths: list[Path]) -> None:
        """Choose files in an ``<input type=file>``, as the file dialog would."""
        root = self.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        if not node:
            raise BrowserError(f"no element matches {selector}")
        self.send("DOM.setFileInputFiles", {"nodeId": node, "files": [str(p) for p in paths]})

    def screenshot(self, path: Path | None = None) -> bytes:
        """A PNG of the viewport; written to ``path`` too when given."""
        data = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])
        if path is not None:
            Path(path).write_bytes(data)
        return data


def copy_screenshot(source: Path, destination: Path) -> None:
    """Copy a screenshot into the documentation's image folder."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, destination)
