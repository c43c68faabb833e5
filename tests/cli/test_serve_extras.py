"""``parlour serve`` given PostgreSQL or Redis without their client library installed (the
``postgres``/``scale`` extras) says what to install and exits 2, instead of a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = "import tests.support.hide_extras; from parlour.cli import main; main()"


def _serve(hidden: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PARLOUR_HIDE_EXTRAS": "1", "PARLOUR_HIDE_MODULES": hidden}
    return subprocess.run(
        [sys.executable, "-c", RUN, "serve", "--port", "0", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("hidden", "args", "install"),
    [
        ("redis", ["--redis", "redis://127.0.0.1:9/0"], "uv sync --extra scale"),
        ("psycopg,psycopg_pool", [], "uv sync --extra postgres"),
    ],
)
def test_a_missing_client_library_names_the_extra(
    hidden: str, args: list[str], install: str
) -> None:
    got = _serve(hidden, "--db", "postgresql://nobody@127.0.0.1:9/none", *args)
    out = got.stdout + got.stderr
    assert got.returncode == 2, out
    assert install in " ".join(out.split()), out
    assert "Traceback" not in out, out
