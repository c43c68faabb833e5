"""``parlour verify``: check a served match's deals from the revealed seeds (fair shuffles).

Give it the table's URL (``http://host:8000/t/CODE``) or a replay JSON saved from
``/api/tables/CODE/replay``.  It replays the match itself and, for every hand, checks that the
revealed seed hashes to the commitment published before the deal, and that dealing the hand
again from that seed gives exactly the hands and stock that were played."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from parlour.cli import app
from parlour.cli.common import console, fail


def load_replay(source: str) -> dict[str, Any]:
    """The replay JSON from a table URL, an API URL, or a file."""
    if source.startswith(("http://", "https://")):
        m = re.match(r"(https?://[^/]+)(?:/t/|/api/tables/)([A-Za-z0-9]+)", source)
        if not m:
            raise fail(f"{source}: expected a table URL like http://host:8000/t/CODE")
        url = f"{m.group(1)}/api/tables/{m.group(2)}/replay"
        try:
            with urllib.request.urlopen(url, timeout=60) as resp:
                data: dict[str, Any] = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")
            raise fail(f"{url}: HTTP {exc.code} {detail}") from None
        except (urllib.error.URLError, OSError) as exc:
            raise fail(f"{url}: {exc}") from None
        return data
    try:
        loaded: dict[str, Any] = json.loads(Path(source).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise fail(f"{source}: {exc}") from None
    return loaded


def check_replay(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Verify every published deal of a replay JSON; returns one row per deal."""
    from parlour import games
    from parlour.core.replay import MatchRecord
    from parlour.server.deals import verify_deals

    if "record" not in data or "deals" not in data:
        raise fail("not a Parlour replay (needs 'record' and 'deals')")
    record = MatchRecord.from_json(data["record"])
    entry = games.entry(record.game)
    if entry.game.version != record.engine_version:
        raise fail(
            f"the match was played with {record.game} engine v{record.engine_version}; "
            f"this Parlour has v{entry.game.version}"
        )
    rules = entry.rules_type.from_json(record.rules)
    return verify_deals(entry.game, rules, record.seed, record.actions, data["deals"])


@app.command()
def verify(
    source: Annotated[
        str, typer.Argument(help="table URL (http://host:8000/t/CODE) or replay file")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
) -> None:
    """Check that every deal of a served match came from its committed seed."""
    data = load_replay(source)
    rows = check_replay(data)
    ok = bool(rows) and all(r.get("verified") for r in rows)
    if as_json:
        console.print_json(json.dumps({"deals": rows, "all_verified": ok}))
    else:
        table = Table("hand", "step", "commitment", "seed", "hash", "re-deal", "verdict")
        for r in rows:
            table.add_row(
                str(int(r["hand"]) + 1),
                str(r["step"]),
                str(r["commitment"])[:16] + "…",
                str(r.get("seed")),
                _mark(r.get("commitment_ok")),
                _mark(r.get("redeal_ok")),
                "verified" if r.get("verified") else f"FAILED {r.get('note', '')}".strip(),
            )
        console.print(table)
        if ok:
            console.print(
                f"all {len(rows)} deals verified: each hand was dealt from its committed seed"
            )
        else:
            console.print("[bold red]some deals could not be verified[/]")
    if not ok:
        raise typer.Exit(1)


def _mark(value: Any) -> str:
    return {True: "ok", False: "MISMATCH", None: "-"}[value]
