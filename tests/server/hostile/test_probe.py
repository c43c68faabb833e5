"""The outside probe, rerun (issue 14 "Done when"): hostile WebSocket messages and lobby calls
against a live server on each journal — every one refused with a clear error or answered,
no server error, no crash, no traceback in the log."""

from __future__ import annotations

import importlib.util
import logging
import sys

import pytest

from tests.server.conftest import ROOT, live_server

_spec = importlib.util.spec_from_file_location("hostile_probe", ROOT / "bench" / "hostile.py")
assert _spec is not None and _spec.loader is not None
probe = importlib.util.module_from_spec(_spec)
sys.modules["hostile_probe"] = probe  # its dataclasses look themselves up there
_spec.loader.exec_module(probe)


def test_hostile_probe(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """``bench/hostile.py``'s probe with smaller counts: zero server errors, zero crashes, and no
    traceback logged by the server."""
    caplog.set_level(logging.WARNING)
    with live_server(db_url) as server:
        counts = probe.run_probe(server.base, messages=800, lobby=200, seed=3)
    assert counts.tried >= 1000
    assert counts.server_errors == 0 and counts.crashes == 0, counts
    assert counts.refused > 0.8 * counts.tried  # nearly everything hostile is refused, clearly
    assert {"bad_text", "bad_json", "too_large", "bad_action", "stale_version"} <= set(counts.codes)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert not tracebacks, [r.getMessage() for r in tracebacks]
