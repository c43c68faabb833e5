"""``parlour serve`` compresses WebSocket messages by default (permessage-deflate: a whole Samba
match is ~7x fewer bytes on the wire, ``bench/ws_bytes.py``); ``--no-ws-compression`` turns it
off. A client that does not offer the extension is served uncompressed either way."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.conftest import free_port, serve_subprocess, wait_http


@contextlib.contextmanager
def served(tmp_path: Path, *extra: str) -> Iterator[str]:
    port = free_port()
    proc = serve_subprocess(f"sqlite:///{tmp_path / 'j.db'}", port, *extra)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(base, proc, timeout=60)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _extensions(base: str, *, offer: bool) -> str:
    code = httpx.post(f"{base}/api/tables", json={"game": "toy"}, timeout=20).json()["code"]
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    with connect(url, compression="deflate" if offer else None, open_timeout=20) as ws:
        assert ws.response is not None
        return ws.response.headers.get("Sec-WebSocket-Extensions", "")


@pytest.mark.parametrize("flag", [None, "--no-ws-compression"])
def test_websocket_compression_is_on_unless_turned_off(tmp_path: Path, flag: str | None) -> None:
    with served(tmp_path, *([flag] if flag else [])) as base:
        offered = _extensions(base, offer=True)
        assert ("permessage-deflate" in offered) == (flag is None), offered
        assert _extensions(base, offer=False) == ""
