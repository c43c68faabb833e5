"""Deals provable against the operator (issue 14 item 6): commitments journaled when published,
player randomness in the shuffle, a hash chain over the moves, and ``verify`` that reports every
tampering as a verdict — on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from parlour.cli import app as cli_app
from parlour.server.deals import chain_heads, deal_commitment, match_seed, secret_commitment
from tests.server.conftest import Client, LiveServer, live_server


def _sql(db_url: str, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    """Run SQL on the journal behind the server's back (the operator's tampering)."""
    if db_url.startswith("sqlite:///"):
        with sqlite3.connect(db_url[len("sqlite:///") :]) as conn:
            return conn.execute(sql, params).fetchall()
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        cur = conn.execute(sql.replace("?", "%s"), params)
        return cur.fetchall() if cur.description else []


class Player:
    """A seat's connection that keeps what a browser keeps: the server commitment, its own
    contribution, the deal commitments as first seen and the chain head of every version."""

    def __init__(self, server: LiveServer, code: str, token: str) -> None:
        self.contribution = secrets.token_hex(16)
        self.c = Client(f"{server.ws_base}/ws/{code}?seat={token}&contrib={self.contribution}")
        self.server_commitment: str | None = None
        self.commitments: dict[int, dict[str, Any]] = {}
        self.heads: dict[str, str] = {}
        self.reveals: list[dict[str, Any]] = []
        self.secret: dict[str, Any] | None = None
        self.sent: dict[int, dict[str, Any]] = {}  # version → the move this seat made there
        self.avoid: dict[int, dict[str, Any]] = {}  # version → a move not to make again

    def read(self) -> dict[str, Any]:
        msg = self.c.until("state")
        self.heads.setdefault(str(msg["version"]), msg["chain"])  # as first seen
        for e in msg["events"]:
            if e["kind"] == "deal_commitment":
                self.commitments.setdefault(e["data"]["hand"], e["data"])
            elif e["kind"] == "deal_reveal":
                self.reveals.append(e["data"])
            elif e["kind"] == "secret_reveal":
                self.secret = e["data"]
        if self.server_commitment is None:
            welcome = next(m for m in self.c.messages if m["type"] == "welcome")
            self.server_commitment = welcome["table"]["fairness"]["server_commitment"]
        return msg

    def play(
        self, rng: random.Random, moves: int | None = None, first: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Play (random legal moves) until the match ends or ``moves`` were made (``first``: a
        state already read)."""
        made = 0
        while True:
            st, first = first or self.read(), None
            if st["status"] == "finished" or (moves is not None and made >= moves):
                return st
            if st["your_turn"]:
                legal = [x["action"] for x in st["legal"]]
                other = [a for a in legal if a != self.avoid.get(st["version"])]
                action = rng.choice(other or legal)
                self.sent[st["version"]] = action
                self.c.act(action)
                made += 1

    def record(self) -> dict[str, Any]:
        return {
            "code": "",
            "server_commitment": self.server_commitment,
            "contribution": self.contribution,
            "commitments": list(self.commitments.values()),
            "heads": self.heads,
        }


def _table(server: LiveServer, hands: int = 2) -> dict[str, Any]:
    return server.create(
        game="toy",
        players=2,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        options={"max_hands": hands},
    )


def _verify_cli(server: LiveServer, code: str, tmp_path: Path, client: Any = None) -> Any:
    args = ["verify", f"{server.base}/t/{code}", "--json"]
    if client is not None:
        path = tmp_path / "mine.json"
        path.write_text(json.dumps(client))
        args += ["--log", str(path)]
    res = CliRunner().invoke(cli_app, args)
    assert "Traceback" not in res.output
    return res.exit_code, json.loads(res.output)


def _failed(result: dict[str, Any]) -> list[str]:
    return [c["check"] for c in result["checks"] if c["ok"] is False]


def test_the_deal_combines_the_servers_secret_and_every_players_randomness(
    db_url: str, tmp_path: Path
) -> None:
    """Issue 14 item 6 (b, c, f): the player's contribution is published before the deal and
    used in the match seed; the secret (256 bits) matches the commitment published at creation;
    every state carries the chain head of its version; ``verify`` with the player's record
    passes every check."""
    with live_server(db_url) as server:
        t = _table(server)
        p = Player(server, t["code"], t["you"]["token"])
        rec = p.c.until("welcome")["table"]["fairness"]
        assert rec["contributions"] == {"0": p.contribution}
        assert rec["server_commitment"] == t["fairness"]["server_commitment"]
        p.play(random.Random(1))
        assert p.secret is not None
        secret = p.secret["secret"]
        assert len(secret) == 64 and secret_commitment(secret) == p.server_commitment
        assert p.secret["contributions"] == {"0": p.contribution}
        assert p.secret["match_seed"] == match_seed(secret, {0: p.contribution})
        for r in p.reveals:  # each reveal matches what this seat saw before the deal
            assert deal_commitment(r["seed"], r["salt"]) == p.commitments[r["hand"]]["commitment"]
        replay = server.http.get(f"/api/tables/{t['code']}/replay").json()
        assert replay["record"]["seed"] == p.secret["match_seed"]
        heads = chain_heads(t["code"], p.server_commitment, replay["record"]["actions"])
        assert all(heads[int(v)] == h for v, h in p.heads.items())
        code, result = _verify_cli(server, t["code"], tmp_path, p.record())
        assert code == 0 and result["all_verified"], result
        assert "your randomness" in {c["check"] for c in result["checks"]}
        p.c.close()


def test_every_state_carries_the_chain_head(server: LiveServer) -> None:
    """Issue 14 item 6 (c): every ``state`` message — to a seat, to a spectator, whole or a
    delta — carries the chain head of its version, and the heads are the chain over the
    match's moves."""
    t = _table(server, hands=1)
    code = t["code"]
    watchers = [
        Client(f"{server.ws_base}/ws/{code}"),
        Client(f"{server.ws_base}/ws/{code}?deltas=1"),
    ]
    p = Player(server, code, t["you"]["token"])
    p.play(random.Random(13))
    replay = server.http.get(f"/api/tables/{code}/replay").json()
    heads = chain_heads(code, p.server_commitment or "", replay["record"]["actions"])
    for c in [*watchers, p.c]:
        c.drain()
        states = [m for m in c.messages if m["type"] == "state"]
        assert states and states[-1]["status"] == "finished"
        for m in states:
            assert m["chain"] == heads[m["version"]], (m["version"], "patch" in m)
    assert any("patch" in m for m in watchers[1].messages)
    for c in [*watchers, p.c]:
        c.close()


def test_commitments_are_journaled_when_published(db_url: str) -> None:
    """Issue 14 item 6 (a): each published commitment is in the journal, written before anyone
    saw it, and never recomputed: the stored ones are exactly the published ones."""
    with live_server(db_url) as server:
        t = _table(server, hands=3)
        p = Player(server, t["code"], t["you"]["token"])
        p.play(random.Random(2))
        rows = _sql(
            db_url,
            "SELECT data FROM parlour_records WHERE code = ? AND kind = 'deal_commitment' "
            "ORDER BY seq",
            (t["code"],),
        )
        stored = [json.loads(r[0])["commitment"] for r in rows]
        assert stored == [p.commitments[h]["commitment"] for h in sorted(p.commitments)]
        assert len(stored) == 3
        p.c.close()


def test_changing_a_live_tables_seed_or_secret_is_caught(db_url: str, tmp_path: Path) -> None:
    """Issue 14 item 6 (reproduction: editing a live table's seed in the database re-dealt
    everyone and both verifications still said "all verified"): the seed column is not where
    the deal comes from, so editing it changes nothing; editing the secret (the deal's source)
    contradicts the commitments journaled when they were published, and the table is refused
    with that reason instead of being re-dealt."""
    with live_server(db_url) as server:
        t = _table(server)
        p = Player(server, t["code"], t["you"]["token"])
        p.play(random.Random(3), moves=2)
        p.c.drain()
        seen = {m["version"]: m for m in p.c.messages if m["type"] == "state"}
        p.c.close()
    code = t["code"]
    _sql(db_url, "UPDATE parlour_tables SET seed = seed + 1 WHERE code = ?", (code,))
    with live_server(db_url) as server:
        p2 = Player(server, code, t["you"]["token"])
        st = p2.read()
        before = seen[st["version"]]
        assert st["view"] == before["view"] and st["chain"] == before["chain"]
        p2.play(random.Random(4), first=st)
        exit_code, result = _verify_cli(server, code, tmp_path)
        assert exit_code == 0 and result["all_verified"]
        p2.c.close()
    t2 = None
    with live_server(db_url) as server:
        t2 = _table(server)
        p3 = Player(server, t2["code"], t2["you"]["token"])
        p3.play(random.Random(5), moves=1)
        p3.c.close()
    (extra,) = _sql(db_url, "SELECT extra FROM parlour_tables WHERE code = ?", (t2["code"],))[0]
    forged = json.loads(extra)
    forged["secret"] = hashlib.sha256(b"the operator's choice").hexdigest()
    _sql(
        db_url,
        "UPDATE parlour_tables SET extra = ? WHERE code = ?",
        (json.dumps(forged), t2["code"]),
    )
    with live_server(db_url) as server:
        r = server.http.get(f"/api/tables/{t2['code']}")
        assert r.status_code == 410
        assert "does not match" in r.json()["detail"] or "not legal" in r.json()["detail"]


def test_a_forged_deal_fails_verify(tmp_path: Path) -> None:
    """Issue 14 item 6: an operator who re-deals a finished match with a secret of their choice
    and rewrites the record to match cannot make it pass: the secret does not match the
    commitment published at creation, nor the deals the commitments of each hand, nor the chain
    the moves a player saw."""
    with live_server() as server:
        t = _table(server)
        p = Player(server, t["code"], t["you"]["token"])
        p.play(random.Random(10))
        replay = server.http.get(f"/api/tables/{t['code']}/replay").json()
        p.c.close()
    forged = json.loads(json.dumps(replay))
    secret = hashlib.sha256(b"the operator's choice").hexdigest()
    forged["fairness"]["secret"] = secret
    forged["record"]["seed"] = match_seed(secret, {0: p.contribution})
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(p.record()))
    res = CliRunner().invoke(cli_app, ["verify", str(path), "--log", str(mine), "--json"])
    assert res.exit_code == 1 and "Traceback" not in res.output
    result = json.loads(res.output)
    assert "secret" in _failed(result)


def test_a_changed_move_is_caught(tmp_path: Path) -> None:
    """Issue 14 item 6 (c, e): a move changed in the record breaks the chain journaled with the
    moves (and the one a player kept); an illegal move is reported with the rule; a move changed
    in the journal itself is found when the table loads and the table is refused with the
    reason, not replayed into another game."""
    db = tmp_path / "j.db"
    url = f"sqlite:///{db}"
    with live_server(url) as server:
        t = _table(server)
        code = t["code"]
        p = Player(server, code, t["you"]["token"])
        p.play(random.Random(5))
        replay = server.http.get(f"/api/tables/{code}/replay").json()
        p.c.close()
    runner = CliRunner()
    moves = replay["record"]["actions"]
    # the same move twice in a row where the record had two different ones: still a replay
    # the rules may accept or not; either way a verdict, never a traceback
    i = next(k for k in range(len(moves) - 1) if moves[k] != moves[k + 1])
    forged = json.loads(json.dumps(replay))
    forged["record"]["actions"][i + 1] = moves[i]
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    res = runner.invoke(cli_app, ["verify", str(path), "--json"])
    assert res.exit_code == 1 and "Traceback" not in res.output
    result = json.loads(res.output)
    assert "journal chain" in _failed(result)
    assert any(c["check"] == "moves" for c in result["checks"])
    # the journal itself: an illegal move written into it
    _sql(
        url,
        "UPDATE parlour_actions SET action = ? WHERE code = ? AND idx = 0",
        (json.dumps({"type": "Play", "card": 9999}), code),
    )
    with live_server(url) as server:
        r = server.http.get(f"/api/tables/{code}")
        assert r.status_code == 410 and "move 1 in the journal" in r.json()["detail"]


def test_a_dropped_move_is_caught_by_the_players_record(db_url: str, tmp_path: Path) -> None:
    """Issue 14 item 6 (c, d): moves dropped from the journal of a live table go unnoticed by a
    server that trusts its own database, but not by the record a player kept: the chain heads it
    saw no longer match the match's moves."""
    with live_server(db_url) as server:
        t = _table(server, hands=3)
        code = t["code"]
        p = Player(server, code, t["you"]["token"])
        p.play(random.Random(6), moves=4)
        version = p.c.state["version"]  # type: ignore[index]
        p.c.close()
    dropped = [v for v in p.sent if v >= version - 4]
    assert dropped  # at least one of this seat's moves is among those dropped
    _sql(db_url, "DELETE FROM parlour_actions WHERE code = ? AND idx >= ?", (code, version - 4))
    with live_server(db_url) as server:
        p2 = Player(server, code, t["you"]["token"])
        p2.avoid = dict(p.sent)  # play on differently from the moves that were dropped
        p2.heads = dict(p.heads)
        p2.commitments = dict(p.commitments)
        p2.server_commitment = p.server_commitment
        p2.contribution = p.contribution
        p2.play(random.Random(7))
        exit_code, result = _verify_cli(server, code, tmp_path, p2.record())
        assert exit_code == 1
        assert "your moves" in _failed(result)
        p2.c.close()


def test_a_hand_with_no_commitment_fails(db_url: str, tmp_path: Path) -> None:
    """Issue 14 item 6 (reproduction: a hand with no commitment passed): a deal whose
    commitment is missing from the journal is reported for that hand."""
    with live_server(db_url) as server:
        t = _table(server, hands=3)
        code = t["code"]
        p = Player(server, code, t["you"]["token"])
        p.play(random.Random(8))
        p.c.close()
    rows = _sql(
        db_url,
        "SELECT seq, data FROM parlour_records WHERE code = ? AND kind = 'deal_commitment'",
        (code,),
    )
    seq = next(r[0] for r in rows if json.loads(r[1])["hand"] == 1)
    _sql(db_url, "DELETE FROM parlour_records WHERE code = ? AND seq = ?", (code, seq))
    with live_server(db_url) as server:
        v = server.http.get(f"/api/tables/{code}/verify").json()
        assert v["all_verified"] is False
        row = next(r for r in v["deals"] if r["hand"] == 1)
        assert row["verified"] is False and "no commitment" in row["note"]
        exit_code, result = _verify_cli(server, code, tmp_path)
        assert exit_code == 1 and not result["all_verified"]


def test_verify_reports_a_bad_record_as_a_verdict(tmp_path: Path) -> None:
    """Issue 14 item 6 (e) (reproduction: a bad record crashed ``verify`` with a traceback):
    malformed replays give a verdict in words and a failing exit code, never a traceback."""
    runner = CliRunner()
    with live_server() as server:
        t = _table(server, hands=1)
        p = Player(server, t["code"], t["you"]["token"])
        p.play(random.Random(9))
        good = server.http.get(f"/api/tables/{t['code']}/replay").json()
        p.c.close()
    variants: list[Any] = []
    for change in (
        lambda d: d["record"].update(actions=[{"type": "Nope"}]),
        lambda d: d["record"].update(actions="x"),
        lambda d: d["record"].update(seed="not a number"),
        lambda d: d.update(deals=[{"hand": "zero"}]),
        lambda d: d.update(deals="x"),
        lambda d: d.update(fairness={"secret": 5, "contributions": "x"}),
        lambda d: d.update(chain=[1, 2]),
        lambda d: d["record"].update(rules={"players": "many"}),
        lambda d: d.pop("record"),
    ):
        bad = json.loads(json.dumps(good))
        change(bad)
        variants.append(bad)
    variants += [[1, 2], "text", None]
    for n, bad in enumerate(variants):
        path = tmp_path / f"bad{n}.json"
        path.write_text(json.dumps(bad))
        res = runner.invoke(cli_app, ["verify", str(path)])
        # 1: the match does not verify; 2: the file is not a readable record (said in words)
        assert res.exit_code in (1, 2), (n, res.output)
        assert "could not be verified" in res.output or "error:" in res.output, res.output
        assert res.exception is None or isinstance(res.exception, SystemExit), (n, res.output)
        assert "Traceback" not in res.output


def test_a_changed_result_or_a_cut_record_fails_verify(tmp_path: Path) -> None:
    """Issue 14 item 6 (e): the record's result must be the one its moves give, and the moves
    must reach the end of the match; a contribution under a seat no player held is flagged."""
    with live_server() as server:
        t = _table(server)
        p = Player(server, t["code"], t["you"]["token"])
        p.play(random.Random(11))
        replay = server.http.get(f"/api/tables/{t['code']}/replay").json()
        p.c.close()
    runner = CliRunner()

    def check(forged: dict[str, Any]) -> list[str]:
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(forged))
        res = runner.invoke(cli_app, ["verify", str(path), "--json"])
        assert res.exit_code == 1 and "Traceback" not in res.output, res.output
        return _failed(json.loads(res.output))

    won = json.loads(json.dumps(replay))
    won["record"]["outcome"]["scores"] = list(reversed(won["record"]["outcome"]["scores"]))
    won["record"]["outcome"]["winners"] = [1 - w for w in won["record"]["outcome"]["winners"]]
    assert "result" in check(won)
    cut = json.loads(json.dumps(replay))
    cut["record"]["actions"] = cut["record"]["actions"][:-1]
    cut["chain"] = cut["chain"][:-1]
    assert "result" in check(cut)
    stray = json.loads(json.dumps(replay))
    stray["fairness"]["contributions"]["1"] = "ab" * 16
    failed = check(stray)
    assert "contributions" in failed and "seed" in failed


def test_a_contribution_cannot_be_swapped(server: LiveServer) -> None:
    """Issue 14 item 6 (b): a seat's randomness is fixed once given (before the start); a second
    value is refused, and spectators cannot contribute."""
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    p = Player(server, t["code"], t["you"]["token"])
    p.c.until("welcome")
    p.c.send({"type": "contribute", "value": "cd" * 16})
    err = p.c.until("error")
    assert err["code"] == "bad_contribution" and "cannot be changed" in err["message"]
    p.c.send({"type": "contribute", "value": p.contribution})  # the same again: fine, no error
    p.c.send({"type": "ping", "t": 5})
    assert p.c.until("pong")["t"] == 5
    spy = Client(f"{server.ws_base}/ws/{t['code']}")
    spy.until("welcome")
    spy.send({"type": "contribute", "value": "ef" * 16})
    assert spy.until("error")["code"] == "spectator"
    rec = server.http.get(f"/api/tables/{t['code']}").json()
    assert rec["fairness"]["contributions"] == {"0": p.contribution}
    p.c.close()
    spy.close()


def test_verify_cannot_be_dodged_by_deleting_fields(tmp_path: Path) -> None:
    """Issue 14 item 6 (e): a replay without its result or without the list of players' seats
    does not skip those checks; it fails them."""
    with live_server() as server:
        t = _table(server, hands=1)
        p = Player(server, t["code"], t["you"]["token"])
        p.play(random.Random(12))
        replay = server.http.get(f"/api/tables/{t['code']}/replay").json()
        p.c.close()
    runner = CliRunner()
    for change, check in (
        (lambda d: d["record"].pop("outcome"), "result"),
        (lambda d: d["fairness"].pop("human_seats"), "contributions"),
    ):
        forged = json.loads(json.dumps(replay))
        change(forged)
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(forged))
        res = runner.invoke(cli_app, ["verify", str(path), "--json"])
        assert res.exit_code == 1, res.output
        assert check in _failed(json.loads(res.output))


def _rewrite(replay: dict[str, Any], code: str) -> dict[str, Any]:
    """Another match's replay presented as table ``code``'s, made consistent with itself: the
    code everywhere and the chain recomputed (an operator rewriting a whole match)."""
    forged = json.loads(json.dumps(replay))
    forged["fairness"]["code"] = code
    forged["record"].setdefault("meta", {})["code"] = code
    heads = chain_heads(code, forged["fairness"]["server_commitment"], forged["record"]["actions"])
    forged["chain"] = heads[len(heads) - len(forged["chain"]) :]
    return forged


Tampering = tuple[str, Any, set[str], set[str]]


def _tamper_cases(replay: dict[str, Any], other: dict[str, Any], code: str) -> list[Tampering]:
    """Each tampering of a finished match's record (docs/fairness.md, "What tampering looks
    like"), as a function of a copy of the replay, with the checks that must fail for it
    without the player's record and, in addition, with it. (A move changed to another legal one
    with the chain and the result recomputed: ``test_a_dropped_move_is_caught_by_the_players_
    record``, where the server itself plays on differently.)"""
    short = "ab" * 8  # 64 bits

    def commitment_changed(d: dict[str, Any]) -> None:
        d["deals"][0]["commitment"] = hashlib.sha256(b"another deal").hexdigest()

    def commitment_removed(d: dict[str, Any]) -> None:
        d["deals"] = d["deals"][1:]

    def commitment_for_no_hand(d: dict[str, Any]) -> None:
        d["deals"].append({**d["deals"][0], "hand": 99})

    def secret_changed(d: dict[str, Any]) -> None:
        d["fairness"]["secret"] = hashlib.sha256(b"the operator's choice").hexdigest()

    def seed_changed(d: dict[str, Any]) -> None:
        d["record"]["seed"] = int(d["record"]["seed"]) + 1

    def contribution_changed(d: dict[str, Any]) -> None:
        d["fairness"]["contributions"]["0"] = "cd" * 16

    def contribution_dropped(d: dict[str, Any]) -> None:
        d["fairness"]["contributions"] = {}

    def contribution_added(d: dict[str, Any]) -> None:
        d["fairness"]["contributions"]["1"] = "ef" * 16

    def bot_contribution_from_the_start(d: dict[str, Any]) -> None:
        contribs = {**d["fairness"]["contributions"], "1": "ef" * 16}
        d["fairness"]["contributions"] = contribs
        d["record"]["seed"] = match_seed(
            d["fairness"]["secret"], {int(k): v for k, v in contribs.items()}
        )

    def result_changed(d: dict[str, Any]) -> None:
        d["record"]["outcome"]["scores"] = list(reversed(d["record"]["outcome"]["scores"]))
        d["record"]["outcome"]["winners"] = [1 - w for w in d["record"]["outcome"]["winners"]]

    def move_changed(d: dict[str, Any]) -> None:
        moves = d["record"]["actions"]
        i = next(k for k in range(len(moves) - 1) if moves[k] != moves[k + 1])
        moves[i + 1] = moves[i]

    def moves_cut_with_chain(d: dict[str, Any]) -> None:
        d["record"]["actions"] = d["record"]["actions"][:-1]
        d["chain"] = d["chain"][:-1]

    def short_secret(d: dict[str, Any]) -> None:
        d["fairness"]["secret"] = short
        d["fairness"]["server_commitment"] = secret_commitment(short)
        contribs = {int(k): v for k, v in d["fairness"]["contributions"].items()}
        d["record"]["seed"] = match_seed(short, contribs)

    def chain_unreadable(d: dict[str, Any]) -> None:
        d["chain"] = [1, 2]

    def whole_match_rewritten(d: dict[str, Any]) -> None:
        d.clear()
        d.update(_rewrite(other, code))

    return [
        (
            "a hand's commitment changed",
            commitment_changed,
            {"hand 1"},
            {"your commitment, hand 1"},
        ),
        ("a hand's commitment removed", commitment_removed, {"hand 1"}, set()),
        ("a commitment for a hand not played", commitment_for_no_hand, {"hand 100"}, set()),
        ("the revealed secret changed", secret_changed, {"secret", "seed"}, set()),
        ("the match seed changed (a re-deal)", seed_changed, {"seed"}, set()),
        ("a contribution changed", contribution_changed, {"seed"}, {"your randomness"}),
        ("the contributions dropped", contribution_dropped, {"seed"}, {"your randomness"}),
        ("a contribution added under a bot seat", contribution_added, {"contributions"}, set()),
        (
            "a bot seat's contribution in the seed from the start",
            bot_contribution_from_the_start,
            {"contributions"},
            set(),
        ),
        ("the result changed", result_changed, {"result"}, set()),
        ("a move changed", move_changed, {"journal chain"}, {"your moves"}),
        (
            "the last move cut, with its chain entry",
            moves_cut_with_chain,
            {"result"},
            {"your moves"},
        ),
        ("a secret shorter than 128 bits", short_secret, {"secret strength"}, set()),
        ("the chain made unreadable", chain_unreadable, {"journal chain"}, set()),
        (
            "the whole match rewritten consistently",
            whole_match_rewritten,
            set(),
            {"your server commitment", "your moves"},
        ),
    ]


def _verdict(path: Path, log: Path | None) -> tuple[int, dict[str, Any]]:
    args = ["verify", str(path), "--json"] + (["--log", str(log)] if log else [])
    res = CliRunner().invoke(cli_app, args)
    assert "Traceback" not in res.output, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, json.loads(res.output)


def _failures(result: dict[str, Any]) -> list[str]:
    rows = [
        f"hand {r['hand'] + 1}: {r.get('note', '')}"
        for r in result["deals"]
        if r.get("verified") is False
    ]
    return [f"{c['check']}: {c['detail']}" for c in result["checks"] if c["ok"] is False] + rows


def test_every_tampering_of_a_record_is_caught(tmp_path: Path) -> None:
    """Issue 14 item 6 and "Done when" (the tampering cases ``verify`` catches, target all):
    each tampering of docs/fairness.md's table is a failed verdict (exit code 1, no traceback)
    with the player's record (``--log``); every one but a consistent rewrite of the whole match
    is caught by the record alone. Prints the case → verdict list (``-s``)."""
    with live_server() as server:
        replays = []
        players = []
        for n in range(2):
            t = _table(server)
            p = Player(server, t["code"], t["you"]["token"])
            p.play(random.Random(20 + n))
            replays.append(server.http.get(f"/api/tables/{t['code']}/replay").json())
            players.append(p)
            p.c.close()
    replay, other = replays
    code = replay["fairness"]["code"]
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(players[0].record()))
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(replay))
    exit_code, result = _verdict(honest, mine)
    assert exit_code == 0 and result["all_verified"], _failures(result)
    lines = []
    for name, change, alone_fails, log_fails in _tamper_cases(replay, other, code):
        forged = json.loads(json.dumps(replay))
        change(forged)
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(forged))
        alone_code, alone = _verdict(path, None)
        with_code, with_log = _verdict(path, mine)
        failed_alone = {f.split(":")[0] for f in _failures(alone)}
        failed_with_log = {f.split(":")[0] for f in _failures(with_log)}
        assert with_code == 1 and not with_log["all_verified"], name
        assert alone_fails <= failed_alone, (name, _failures(alone))
        assert alone_fails | log_fails <= failed_with_log, (name, _failures(with_log))
        if alone_fails:
            assert alone_code == 1 and not alone["all_verified"], name
        else:  # the record agrees with itself; only what the player saw shows the rewrite
            assert alone_code == 0, _failures(alone)
        lines.append(
            f"{name}: alone {'CAUGHT' if alone_code else 'passes'} "
            f"({'; '.join(_failures(alone)) or '-'}); with --log CAUGHT "
            f"({'; '.join(_failures(with_log))})"
        )
    print("\n" + "\n".join(lines))


def test_a_move_that_no_longer_matches_its_journaled_chain_is_reported(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 14 item 6 (c) (docs/fairness.md, "in the journal of a table the server still
    serves"): a move whose journaled chain entry no longer fits it is logged as a warning when
    the table loads, and the server's own ``verify`` fails its ``journal chain`` check."""
    with live_server(db_url) as server:
        t = _table(server, hands=1)
        p = Player(server, t["code"], t["you"]["token"])
        p.play(random.Random(14))
        p.c.close()
    code = t["code"]
    _sql(
        db_url,
        "UPDATE parlour_actions SET chain = ? WHERE code = ? AND idx = 1",
        (hashlib.sha256(b"another move").hexdigest(), code),
    )
    caplog.set_level(logging.WARNING, logger="parlour.server")
    with live_server(db_url) as server:
        v = server.http.get(f"/api/tables/{code}/verify").json()
    chain = next(c for c in v["checks"] if c["check"] == "journal chain")
    assert chain["ok"] is False and "move 2 does not match" in chain["detail"], chain
    assert not v["all_verified"]
    assert any("move 2 does not match the chain" in r.getMessage() for r in caplog.records)
