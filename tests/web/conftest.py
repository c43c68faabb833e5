"""Browser tests: a real ``parlour serve`` on 127.0.0.1 (free port, temp SQLite) driven by
Debian's Chromium through Playwright's sync API.

Chromium is ``/usr/bin/chromium`` (``playwright install`` cannot download here). Without it these
tests skip — except under ``CI=true``, where they fail so a broken CI image cannot pass silently.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Debian's Chromium; PARLOUR_CHROMIUM points elsewhere (e.g. to check the CI failure path)
CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
#: bots move this fast in tests (seconds); people watching use the server's default
BOT_DELAY = "0.01"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"{CHROMIUM} is missing: apt-get install -y chromium (the browser tests need it)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


class Server:
    def __init__(self, base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.base = base
        self.proc = proc
        self.log = log

    def get(self, path: str) -> Any:
        return _get(self.base + path)

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.loads(r.read())

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Any request; returns (HTTP status, JSON body) for errors too."""
        req = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method=method,
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                return exc.code, json.loads(raw or b"null")
            except json.JSONDecodeError:
                return exc.code, raw.decode(errors="replace")


@contextlib.contextmanager
def serve(tmp: Path, *extra: str) -> Iterator[Server]:
    """``parlour serve`` on a free port with a fresh SQLite file in ``tmp``; stopped afterwards."""
    port = _free_port()
    log = tmp / "server.log"
    cmd = [
        sys.executable,
        "-c",
        "from parlour.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{tmp / 'parlour.db'}",
        "--bot-delay",
        BOT_DELAY,
        *extra,
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            _get(base + "/api/info")
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"parlour serve did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
    try:
        yield Server(base, proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server most tests share. Every request comes from 127.0.0.1, so the per-address
    limits on creating and joining tables are off here (``limited_server`` has them)."""
    with serve(tmp_path_factory.mktemp("parlour-web"), "--no-rate-limit") as s:
        yield s


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with its default per-address rate limits."""
    with serve(tmp_path_factory.mktemp("parlour-limited")) as s:
        yield s


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.js_errors = errors
    yield p
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here drives Chromium: marked ``browser``, a tier of its own (``uv run pytest
    -n 0 -m browser``, run one at a time by ``.ci/run``: a browser, a server and its bots beside
    another worker's tests on two cores made waits time out)."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.browser)
