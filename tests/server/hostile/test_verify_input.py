"""``parlour verify`` on a file or a server answer nested thousands of levels deep (issue 31,
hole 8): it crashed with ``RecursionError`` (exit 1); the docs promise a clear error, exit 2."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.cli import app as cli_app

DEEP = "[" * 100_000 + "]" * 100_000


def _run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli_app, ["verify", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, res.output


def test_a_deeply_nested_replay_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    code, out = _run(str(path))
    assert code == 2 and "nested deeper" in out
    # nested inside a replay's fields, under the parser's own limit but over ours
    inner = {"record": {"game": "toy"}, "deals": json.loads("[" * 500 + "]" * 500)}
    path.write_text(json.dumps(inner))
    code, out = _run(str(path))
    assert code == 2 and "nested deeper" in out
    # not UTF-8, not JSON: still exit 2
    path.write_bytes(b"\xff\xfe{")
    assert _run(str(path))[0] == 2
    path.write_text("{")
    assert _run(str(path))[0] == 2


def test_a_deeply_nested_player_record_is_a_clear_error(tmp_path: Path) -> None:
    replay, log = tmp_path / "replay.json", tmp_path / "log.json"
    replay.write_text(json.dumps({"record": {}, "deals": []}))
    log.write_text(DEEP)
    code, out = _run(str(replay), "--log", str(log))
    assert code == 2 and "nested deeper" in out


@pytest.fixture
def hostile_server() -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = DEEP.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_hostile_server_answering_deep_json_is_a_clear_error(hostile_server: str) -> None:
    code, out = _run(f"{hostile_server}/t/ABC123")
    assert code == 2 and "nested deeper" in out
