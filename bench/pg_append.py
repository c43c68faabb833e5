"""PostgreSQL backend CPU per journal append statement (not a test).

Runs the fenced multi-row append (``leases.FENCED_APPEND_MANY_SQL``) against variants on one
connection of its own, in a schema of its own, with 1,800 lease rows of two owners (this
process's half renewed every second, as a server does), and prints the backend's CPU per
statement (``/proc/<backend pid>/stat``: run it on the database's machine) for 1, 3 and 9 rows
a statement:

- ``join``: the earlier statement (the lease rows joined to the unnested rows;
  its generic plan scans every lease row),
- ``any``: the lease rows picked by ``code = ANY(ARRAY(SELECT code FROM v))`` (tried, dropped),
- ``lateral``: the branch's statement, plan cache ``auto`` (the thread path),
- ``lateral_generic``: the same with ``plan_cache_mode = force_generic_plan`` (the loop path),
- ``plain``: the unfenced ``INSERT … unnest`` (a single process's; what the commit costs).

    uv run python bench/pg_append.py --db postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

import psycopg
from psycopg import pq

from parlour.server.leases import _LEASE_SCHEMA, FENCED_APPEND_MANY_SQL
from parlour.server.storage import _SCHEMA, APPEND_MANY_SQL, numbered

_V = (
    "WITH v AS (SELECT * FROM unnest(%s::text[], %s::bigint[], %s::int[], "
    "%s::text[], %s::int[], %s::float8[], %s::text[]) "
    "AS v(code, token, idx, action, seat, ts, chain)), "
)
_INSERT = (
    "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
    "SELECT v.code, v.idx, v.action, v.seat, v.ts, v.chain FROM v "
    "JOIN fence ON fence.code = v.code RETURNING code"
)
JOIN = (
    _V + "fence AS (SELECT l.code FROM parlour_leases l JOIN v "
    "ON l.code = v.code AND l.token = v.token WHERE l.owner = %s FOR KEY SHARE OF l) " + _INSERT
)
ANY = JOIN.replace(
    "WHERE l.owner = %s", "WHERE l.code = ANY(ARRAY(SELECT code FROM v)) AND l.owner = %s"
)
VARIANTS = {
    "join": (JOIN, "auto"),
    "any": (ANY, "auto"),
    "lateral": (FENCED_APPEND_MANY_SQL, "auto"),
    "lateral_generic": (FENCED_APPEND_MANY_SQL, "force_generic_plan"),
    "plain": (APPEND_MANY_SQL, "auto"),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--statements", type=int, default=1000, help="per cell")
    ap.add_argument("--rows", default="1,3,9", help="rows a statement, comma-separated")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--leases", type=int, default=1800)
    args = ap.parse_args()
    schema = f"parlour_pgappend_{os.getpid()}"
    admin = psycopg.connect(args.db, autocommit=True)
    admin.execute(f"CREATE SCHEMA {schema}")
    try:
        url = f"{args.db}{'&' if '?' in args.db else '?'}options=-csearch_path%3D{schema}"
        run(url, args)
    finally:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")


def run(url: str, args: argparse.Namespace) -> None:
    conn = psycopg.connect(url, autocommit=True)
    renewer = psycopg.connect(url, autocommit=True)
    for stmt in _SCHEMA + _LEASE_SCHEMA:
        conn.execute(stmt)
    codes = [f"T{i:05d}" for i in range(args.leases)]
    mine = codes[::2]
    conn.execute(
        "INSERT INTO parlour_leases SELECT c, CASE WHEN o %% 2 = 1 THEN 'n1' ELSE 'n2' END, 1, "
        "now() + interval '1 hour' FROM unnest(%s::text[]) WITH ORDINALITY AS x(c, o)",
        (codes,),
    )
    pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]  # type: ignore[index]
    tick = os.sysconf("SC_CLK_TCK")

    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick

    pg = conn.pgconn
    for name, (sql, _) in VARIANTS.items():
        pg.prepare(name.encode(), numbered(sql).encode())
    idx = dict.fromkeys(mine, 0)
    action = json.dumps({"type": "draw", "from": "stock", "n": 1})

    def arr(items: list[str]) -> bytes:
        return ("{" + ",".join(items) + "}").encode()

    def params(name: str, rows: int) -> list[bytes | None]:
        cs = random.sample(mine, rows)
        ix = []
        for c in cs:
            idx[c] += 1
            ix.append(str(idx[c]))
        quoted = '"' + action.replace("\\", "\\\\").replace('"', '\\"') + '"'
        base: list[bytes | None] = [
            arr(cs),
            arr(ix),
            arr([quoted] * rows),
            arr(["1"] * rows),
            arr([repr(time.time())] * rows),
            arr(['"' + "ab01" * 16 + '"'] * rows),
        ]
        if name == "plain":
            return base
        return [base[0], arr(["1"] * rows), *base[1:], b"n1"]

    sizes = [int(x) for x in args.rows.split(",")]
    out: dict[tuple[int, str], list[float]] = {}
    for _ in range(args.rounds):
        for rows in sizes:
            for name, (_, mode) in VARIANTS.items():
                conn.execute(f"SET plan_cache_mode = {mode}")
                c0, last = cpu(), time.monotonic()
                for _ in range(args.statements):
                    if time.monotonic() - last > 1.0:  # the renewal, as a server does it
                        renewer.execute(
                            "UPDATE parlour_leases SET expires = now() + interval '1 hour' "
                            "WHERE owner = 'n1' AND code = ANY(%s)",
                            (mine,),
                        )
                        last = time.monotonic()
                    res = pg.exec_prepared(name.encode(), params(name, rows))
                    if res.status not in (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK):
                        raise SystemExit(res.error_message.decode())
                    if name != "plain" and res.ntuples != rows:
                        raise SystemExit(f"{name}: {res.ntuples} rows written of {rows}")
                out.setdefault((rows, name), []).append(1000 * (cpu() - c0) / args.statements)
    for (rows, name), ms in out.items():
        print(f"{rows:2d} rows  {name:16s} " + "  ".join(f"{x:.3f}" for x in ms) + "  ms/statement")
    plans = conn.execute(
        "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name"
    ).fetchall()
    print("plans (name, generic, custom):", plans)


if __name__ == "__main__":
    main()
