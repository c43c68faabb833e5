"""``X-Forwarded-For`` (issue 31, hole 12): the rate limits count a client by the address the
header names only when the request comes from a trusted proxy (``--forwarded-allow-ips``); the
shipped deploy files trust only Caddy's address, and Caddy does not pass a client's own header
through (checked with the shipped Caddyfile when Caddy is installed)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import ROOT, free_port, serve_subprocess, wait_http

DEPLOY = ROOT / "docs" / "deploy"


def _creates(base: str, n: int, *, spoof: bool) -> list[int]:
    """``n`` table creations, each naming a different client address when ``spoof``."""
    codes = []
    with httpx.Client(base_url=base, timeout=20) as http:
        for i in range(n):
            headers = {"X-Forwarded-For": f"203.0.113.{i + 1}"} if spoof else {}
            r = http.post("/api/tables", json={"game": "toy", "players": 2}, headers=headers)
            codes.append(r.status_code)
    return codes


@pytest.fixture
def parlour(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    port = free_port()
    extra = getattr(request, "param", ())
    proc = serve_subprocess(f"sqlite:///{tmp_path / 'j.db'}", port, "--rate-limit", *extra)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, proc, timeout=90)  # a loaded machine starts it slowly
        yield base
    finally:
        proc.kill()
        proc.communicate(timeout=20)


@pytest.mark.parametrize("parlour", [("--forwarded-allow-ips", "127.0.0.1")], indirect=True)
def test_the_header_counts_from_the_trusted_proxy(parlour: str) -> None:
    """From the trusted address the header names the client: 12 names, 12 creations (the
    limit is 10 at once per address).  So a proxy that passed a client's header through would
    let it escape the limits — which the test with Caddy below rules out."""
    assert _creates(parlour, 12, spoof=True) == [201] * 12


@pytest.mark.parametrize("parlour", [("--forwarded-allow-ips", "10.9.9.9")], indirect=True)
def test_the_header_is_ignored_from_anyone_else(parlour: str) -> None:
    codes = _creates(parlour, 12, spoof=True)
    assert codes[:10] == [201] * 10 and codes[10:] == [429, 429]


def test_the_deploy_files_trust_only_the_proxy() -> None:
    compose = (DEPLOY / "compose.yaml").read_text()
    trusted = re.findall(r'FORWARDED_ALLOW_IPS:\s*"([^"]*)"', compose)
    caddy = re.findall(r"ipv4_address:\s*([0-9.]+)", compose)
    assert trusted and caddy and trusted == caddy, (trusted, caddy)
    assert "*" not in trusted[0]
    docs = (ROOT / "docs" / "deploy.md").read_text()
    assert 'FORWARDED_ALLOW_IPS: "*"' not in docs and "--forwarded-allow-ips" in docs


def _caddyfile(listen: int, upstream: int) -> str:
    """The shipped Caddyfile with a port of its own and this test's server as the upstream
    instead of Docker's DNS (and no admin endpoint, no HTTPS)."""
    text = (DEPLOY / "Caddyfile").read_text()
    text = text.replace(":8080 {", f":{listen} {{", 1)
    text, n = re.subn(r"dynamic a parlour 8000 \{[^}]*\}", f"to 127.0.0.1:{upstream}", text)
    assert n == 1, "the Caddyfile's upstream changed: update this test"
    return "{\n\tadmin off\n\tauto_https off\n}\n\n" + text


def test_a_client_cannot_pass_its_own_header_through_the_shipped_caddy(
    parlour: str, tmp_path: Path
) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        reason = "caddy is not installed (apt-get install caddy)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI=true requires it")
        pytest.skip(reason)
    listen = free_port()
    conf = tmp_path / "Caddyfile"
    conf.write_text(_caddyfile(listen, int(parlour.rsplit(":", 1)[1])))
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    proc = subprocess.Popen(
        [caddy, "run", "--config", str(conf), "--adapter", "caddyfile"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{listen}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.communicate()[0]
            try:
                if httpx.get(f"{base}/api/info", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "caddy did not come up"
            time.sleep(0.1)
        codes = _creates(base, 12, spoof=True)
        # Caddy named the address it saw (127.0.0.1): one client, one budget of 10
        assert codes[:10] == [201] * 10 and codes[10:] == [429, 429], codes
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
