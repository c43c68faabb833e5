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

from parlour.cli.base import app
from parlour.cli.common import console, fail
from parlour.core.said import N_

#: deepest nesting a replay or a kept record may have (a real one is a few levels deep; a file
#: nested thousands of levels deep, which a hostile server could send, is refused with a clear
#: error instead of exhausting the interpreter's stack)
MAX_DEPTH = 64


def _json(text: str | bytes, where: str) -> Any:
    """``text`` as JSON, or exit 2 saying why (nesting too deep included)."""
    from parlour.server.guard import BadInput, parse_json

    try:
        return parse_json(text, max_depth=MAX_DEPTH)
    except BadInput as exc:
        raise fail(f"{where}: not a Parlour file: {exc.message}") from None
    except (ValueError, RecursionError) as exc:
        raise fail(f"{where}: not valid JSON: {exc}") from None


def load_replay(source: str) -> dict[str, Any]:
    """The replay JSON from a table URL, an API URL, or a file."""
    if source.startswith(("http://", "https://")):
        m = re.match(r"(https?://[^/]+)(?:/t/|/api/tables/)([A-Za-z0-9]+)", source)
        if not m:
            raise fail(f"{source}: expected a table URL like http://host:8000/t/CODE")
        url = f"{m.group(1)}/api/tables/{m.group(2)}/replay"
        try:
            with urllib.request.urlopen(url, timeout=60) as resp:
                body = resp.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")
            raise fail(f"{url}: HTTP {exc.code} {detail}") from None
        except (urllib.error.URLError, OSError) as exc:
            raise fail(f"{url}: {exc}") from None
        data: dict[str, Any] = _json(body, url)
        return data
    try:
        text = Path(source).read_bytes()
    except OSError as exc:
        raise fail(f"{source}: {exc}") from None
    loaded: dict[str, Any] = _json(text, source)
    return loaded


def check_replay(data: dict[str, Any], client: dict[str, Any] | None = None) -> dict[str, Any]:
    """Verify a replay JSON (and what a player's browser kept): checks and one row per deal."""
    from parlour import games
    from parlour.core.errors import ParlourError
    from parlour.core.replay import MatchRecord
    from parlour.server.deals import verify_match

    if not isinstance(data, dict) or "record" not in data or "deals" not in data:
        raise fail("not a Parlour replay (needs 'record' and 'deals')")
    try:
        record = MatchRecord.from_json(data["record"])
        entry = games.entry(record.game)
        rules = entry.rules_type.from_json(record.rules)
    except (ParlourError, ValueError, TypeError, KeyError) as exc:
        raise fail(f"the replay's record cannot be read: {exc}") from None
    if entry.game.version != record.engine_version:
        raise fail(
            f"the match was played with {record.game} engine v{record.engine_version}; "
            f"this Parlour has v{entry.game.version}"
        )
    fairness = data.get("fairness") or {}
    code = str(fairness.get("code") or (record.meta or {}).get("code") or "")
    chain = data.get("chain")  # checked (and a malformed one reported) by verify_match
    return verify_match(
        entry.game,
        rules,
        code=code,
        seed=record.seed,
        actions=record.actions,
        fairness=fairness,
        deals=data["deals"] if isinstance(data["deals"], list) else [],
        chain=chain,
        client=client,
        # a replay is of a finished match: it must carry the result its moves lead to
        outcome=record.outcome if record.outcome is not None else {"missing": True},
    )


@app.command(short_help=N_("Check a served match: every deal from its seed, every move as played."))
def verify(
    source: Annotated[
        str, typer.Argument(help="table URL (http://host:8000/t/CODE) or replay file")
    ],
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            help="the record your browser kept (Download my record): checks that the server "
            "did not change commitments or moves after you saw them",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
) -> None:
    """Check that every deal of a served match came from its committed seed, and every move is
    the one that was played."""
    data = load_replay(source)
    client = None
    if log is not None:
        try:
            kept = log.read_bytes()
        except OSError as exc:
            raise fail(f"{log}: {exc}") from None
        client = _json(kept, str(log))
        if not isinstance(client, dict):
            raise fail(f"{log}: not a record kept by a Parlour table page")
    result = check_replay(data, client)
    rows, checks, ok = result["deals"], result["checks"], result["all_verified"]
    if as_json:
        console.print_json(json.dumps(result))
    else:
        summary = Table("check", "verdict", "detail")
        for c in checks:
            summary.add_row(str(c["check"]), _mark(c["ok"]), str(c["detail"]))
        console.print(summary)
        table = Table("hand", "step", "commitment", "seed", "hash", "re-deal", "verdict")
        for r in rows:
            table.add_row(
                str(int(r["hand"]) + 1),
                str(r.get("step", "-")),
                str(r.get("commitment") or "-")[:16] + "…",
                str(r.get("seed", "-")),
                _mark(r.get("commitment_ok")),
                _mark(r.get("redeal_ok")),
                "verified"
                if r.get("verified")
                else f"FAILED {r.get('note', '')}".strip()
                if r.get("verified") is False
                else str(r.get("note", "pending")),
            )
        console.print(table)
        if ok:
            console.print(
                f"all {len(rows)} deals verified: each hand was dealt from its committed seed"
            )
        else:
            console.print("[bold red]the match could not be verified[/]")
    if not ok:
        raise typer.Exit(1)


def _mark(value: Any) -> str:
    return {True: "ok", False: "MISMATCH", None: "-"}.get(value, str(value))
