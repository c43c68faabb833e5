"""Fair deals anyone can check, even against the server's operator.

How a match is seeded (``docs/fairness.md`` has the long form):

1. When the table is created the server draws a 256-bit ``secret`` and publishes
   ``server_commitment = sha256("parlour-secret:" + secret)`` in the table record.
2. Each player's browser sends a random contribution (128 bits, hex) when it connects, before the
   table starts.  The contributions are public.
3. When the table starts, the match seed is ``sha256("parlour-match:" + secret + ":" + P)``
   (first 8 bytes, big-endian, shifted right by one bit) where ``P`` lists the contributions as
   ``seat=hex`` joined by commas.  The server fixed its secret before any contribution arrived
   and no player knows the secret, so neither side can choose the deal.
4. Every hand's deal seed comes from the match seed (``game.hand_seed``).  Before anyone acts in a
   hand the server publishes ``sha256("parlour-deal:" + seed + ":" + salt)`` (``salt`` is 256 bits
   derived from the secret, so the commitment cannot be brute-forced) and writes it to the
   journal at that moment; it is never recomputed.  Seed and salt are revealed when the hand ends;
   the secret when the match ends.
5. A hash chain over the moves (``chain_next``) is sent with every state message, so a client
   that kept the heads it saw can prove a move was changed or dropped afterwards.

>>> s = "ab" * 32
>>> len(secret_commitment(s)), match_seed(s, {}) == match_seed(s, {})
(64, True)
>>> match_seed(s, {0: "00" * 16}) != match_seed(s, {0: "01" * 16})
True
>>> canonical({"type": "Discard", "card": "7♦"})
'{"card":"7♦","type":"Discard"}'
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from parlour.core.game import Event, Game

SECRET_BITS = 256
CONTRIBUTION = re.compile(r"^[0-9a-f]{32,64}$")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_secret() -> str:
    return secrets.token_hex(SECRET_BITS // 8)


def secret_commitment(secret: str) -> str:
    return _sha(f"parlour-secret:{secret}")


def contributions_text(contributions: Mapping[int, str]) -> str:
    return ",".join(f"{seat}={contributions[seat]}" for seat in sorted(contributions))


def match_seed(secret: str, contributions: Mapping[int, str]) -> int:
    """The match seed from the server's secret and every player's contribution (63 bits)."""
    digest = hashlib.sha256(
        f"parlour-match:{secret}:{contributions_text(contributions)}".encode()
    ).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def hand_salt(secret: str, hand: int) -> str:
    return _sha(f"parlour-salt:{secret}:{hand}")


def deal_commitment(seed: int, salt: str) -> str:
    return _sha(f"parlour-deal:{seed}:{salt}")


def canonical(action: Mapping[str, Any]) -> str:
    """The action's text in the chain (what :func:`chain_next` hashes, as UTF-8)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: the types whose orjson text is exactly ``json.dumps``' (floats are not: ``1e+16`` vs ``1e16``)
_PLAIN = (str, int, bool, type(None))


def _plain(value: Any) -> bool:
    """Only ``dict`` (text keys), ``list``/``tuple``, text, integers, booleans and ``None``."""
    kind = type(value)
    if kind is dict:
        for k, v in value.items():
            if type(k) is not str or (type(v) not in _PLAIN and not _plain(v)):
                return False
        return True
    if kind is list or kind is tuple:
        return all(type(v) in _PLAIN or _plain(v) for v in value)
    return kind in _PLAIN


def _canonical_bytes(action: Mapping[str, Any]) -> bytes:
    """:func:`canonical` as UTF-8: orjson (~10x faster than ``json.dumps``) for plain JSON, which
    it writes byte for byte as ``json.dumps(sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)`` does (tests/server/test_path.py); anything else (a float, a key that is
    not text, an integer beyond 64 bits, a lone surrogate) through :func:`canonical`."""
    if _plain(action):
        try:
            return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an integer beyond 64 bits
            pass
    return canonical(action).encode("utf-8")


def chain_start(code: str, server_commitment: str) -> str:
    return _sha(f"parlour-chain:{code}:{server_commitment}")


def chain_next(head: str, action: Mapping[str, Any]) -> str:
    return hashlib.sha256(head.encode() + b"|" + _canonical_bytes(action)).hexdigest()


def chain_heads(
    code: str, server_commitment: str, actions: Iterable[Mapping[str, Any]]
) -> list[str]:
    """``heads[v]`` = the chain head after ``v`` actions."""
    heads = [chain_start(code, server_commitment)]
    for a in actions:
        heads.append(chain_next(heads[-1], a))
    return heads


def valid_contribution(value: Any) -> bool:
    return isinstance(value, str) and CONTRIBUTION.match(value) is not None


@dataclass
class Deal:
    """One hand's deal: dealt after ``step`` actions, from ``seed`` (secret until revealed).

    ``commitment`` is what was published and journaled (``None``: none was recorded)."""

    hand: int
    step: int
    seed: int
    salt: str
    commitment: str | None
    revealed: bool = False

    def public_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.hand, "step": self.step, "commitment": self.commitment}
        if self.revealed:
            out["seed"] = self.seed
            out["salt"] = self.salt
        return out


class DealTracker:
    """Watches a table's states: when a hand is dealt, a commitment is due; when it ends, a reveal.

    ``stored`` maps hand → the commitment record journaled when it was published.  ``after``
    returns the events for the log and the commitments that must be journaled *before* those
    events are sent (``pending``)."""

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        secret: str,
        stored: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        self.game = game
        self.secret = secret
        self.stored = dict(stored or {})
        self.deals: list[Deal] = []
        self.pending: list[dict[str, Any]] = []

    def after(self, state: Any, step: int, *, replaying: bool = False) -> list[Event]:
        """Call with the state after the deal (step 0) and after every action (step = actions
        applied).  ``replaying``: the journal is being read back; a hand dealt earlier than the
        last step whose commitment is not in the journal is marked as having none."""
        game = self.game
        events: list[Event] = []
        number = game.hand_number(state)
        if not self.deals or self.deals[-1].hand != number:
            if self.deals and not self.deals[-1].revealed:
                events.append(self._reveal(self.deals[-1]))
            seed = game.hand_seed(state)
            salt = hand_salt(self.secret, number)
            record = self.stored.get(number)
            if record is not None:
                commitment: str | None = str(record.get("commitment"))
            elif replaying:
                commitment = None  # resolved by ``finish_replay``
            else:
                commitment = deal_commitment(seed, salt)
                self.pending.append({"hand": number, "step": step, "commitment": commitment})
                self.stored[number] = self.pending[-1]
            deal = Deal(number, step, seed, salt, commitment)
            self.deals.append(deal)
            if commitment is not None:
                events.append(self._commit_event(deal))
        if game.to_act(state) is None and self.deals and not self.deals[-1].revealed:
            events.append(self._reveal(self.deals[-1]))
        return events

    def finish_replay(self, steps: int) -> list[Event]:
        """After reading the journal back: the last hand, if nobody acted in it yet and its
        commitment was never journaled, is committed now (it was never shown to anyone)."""
        events: list[Event] = []
        for deal in self.deals:
            if deal.commitment is None and deal.step == steps and not deal.revealed:
                deal.commitment = deal_commitment(deal.seed, deal.salt)
                self.pending.append(
                    {"hand": deal.hand, "step": deal.step, "commitment": deal.commitment}
                )
                self.stored[deal.hand] = self.pending[-1]
                events.append(self._commit_event(deal))
        return events

    def take_pending(self) -> list[dict[str, Any]]:
        out, self.pending = self.pending, []
        return out

    def _commit_event(self, deal: Deal) -> Event:
        assert deal.commitment is not None
        return Event(
            "deal_commitment",
            {"hand": deal.hand, "commitment": deal.commitment, "step": deal.step},
        )

    def _reveal(self, deal: Deal) -> Event:
        deal.revealed = True
        return Event(
            "deal_reveal",
            {
                "hand": deal.hand,
                "seed": deal.seed,
                "salt": deal.salt,
                "commitment": deal.commitment,
                "step": deal.step,
            },
        )

    def public(self) -> list[dict[str, Any]]:
        return [d.public_json() for d in self.deals]


# --- verification ------------------------------------------------------------------------------


def _check(name: str, ok: bool | None, detail: str) -> dict[str, Any]:
    return {"check": name, "ok": ok, "detail": detail}


def verify_match(
    game: Game[Any, Any, Any, Any],
    rules: Any,
    *,
    code: str,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    fairness: Mapping[str, Any],
    deals: Iterable[Mapping[str, Any]],
    chain: Sequence[str] | None = None,
    client: Mapping[str, Any] | None = None,
    outcome: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Check a match against what was published; every problem is a verdict, never an exception.

    ``fairness``: ``server_commitment``, ``secret`` (once revealed), ``contributions``;
    ``deals``: the published commitments (with ``seed``/``salt`` once revealed); ``chain``: the
    heads the server journaled with each move; ``client``: what a player's browser kept
    (``server_commitment``, ``contribution``, ``commitments``, ``heads``); ``outcome``: the
    result the record claims (checked against the replay, which must reach the match's end)."""
    checks: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    try:
        _verify(
            game, rules, code, seed, actions, fairness, deals, chain, client, outcome, checks, rows
        )
    except Exception as exc:  # a malformed record is a verdict, not a traceback
        checks.append(_check("record", False, f"the record could not be read: {exc!r}"))
    ok = (
        any(r.get("verified") is True for r in rows)
        and all(c["ok"] is not False for c in checks)
        and all(r.get("verified") is not False for r in rows)
    )
    return {"checks": checks, "deals": rows, "all_verified": ok}


def _verify(
    game: Game[Any, Any, Any, Any],
    rules: Any,
    code: str,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    fairness: Mapping[str, Any],
    deals: Iterable[Mapping[str, Any]],
    chain: Sequence[str] | None,
    client: Mapping[str, Any] | None,
    outcome: Mapping[str, Any] | None,
    checks: list[dict[str, Any]],
    rows: list[dict[str, Any]],
) -> None:
    server_commitment = str(fairness.get("server_commitment") or "")
    contributions = {int(k): str(v) for k, v in dict(fairness.get("contributions") or {}).items()}
    _secret_checks(fairness, server_commitment, contributions, seed, outcome, checks)
    published: dict[int, Mapping[str, Any]] = {}
    for d in deals:
        published[int(d["hand"])] = d
    heads = _chain_checks(code, server_commitment, actions, chain, checks)
    if client is not None:
        _client_checks(client, server_commitment, contributions, published, heads, checks)
    hands_seen = _replay_checks(game, rules, seed, actions, outcome, checks)
    if hands_seen is not None:
        _deal_rows(game, hands_seen, published, rows)


def _secret_checks(
    fairness: Mapping[str, Any],
    server_commitment: str,
    contributions: dict[int, str],
    seed: int,
    outcome: Mapping[str, Any] | None,
    checks: list[dict[str, Any]],
) -> None:
    """Who contributed, the server's commitment and secret, and the match seed they give."""
    secret = fairness.get("secret")
    humans = fairness.get("human_seats")
    if humans is None and outcome is not None:
        checks.append(
            _check("contributions", False, "the record does not say which seats players held")
        )
    elif humans is not None and not isinstance(humans, list):
        checks.append(_check("contributions", False, "the record's list of seats is unreadable"))
    if isinstance(humans, list):
        strays = sorted(set(contributions) - {int(h) for h in humans})
        checks.append(
            _check(
                "contributions",
                not strays,
                "every contribution came from a player's seat"
                if not strays
                else f"contributions from seats no player held: {strays}",
            )
        )
    if not server_commitment:
        checks.append(_check("server commitment", False, "no server commitment was published"))
    if secret is None:
        checks.append(_check("secret", None, "the server's secret is revealed when the match ends"))
    else:
        secret = str(secret)
        strong = len(secret) >= 32 and re.fullmatch(r"[0-9a-f]+", secret) is not None
        checks.append(
            _check(
                "secret strength",
                strong,
                f"{len(secret) * 4} bits" if strong else "the secret is shorter than 128 bits",
            )
        )
        same = secret_commitment(secret) == server_commitment
        checks.append(
            _check(
                "secret",
                same,
                "the revealed secret matches the commitment published at creation"
                if same
                else "the revealed secret does not match the published commitment",
            )
        )
        expected = match_seed(secret, contributions)
        checks.append(
            _check(
                "seed",
                expected == int(seed),
                "the match seed comes from the secret and the players' contributions"
                if expected == int(seed)
                else f"wrong seed: the record says {seed}, the secret and contributions give "
                f"{expected}",
            )
        )


def _chain_checks(
    code: str,
    server_commitment: str,
    actions: Sequence[Mapping[str, Any]],
    chain: Sequence[str] | None,
    checks: list[dict[str, Any]],
) -> list[str]:
    """The moves against the chain the server journaled with them; the chain's heads."""
    heads = chain_heads(code, server_commitment, actions)
    if chain is not None and (
        not isinstance(chain, list | tuple) or any(not isinstance(h, str) for h in chain)
    ):
        checks.append(_check("journal chain", False, "the chain in the record is unreadable"))
        chain = None
    if chain is not None:
        bad = next((i for i, h in enumerate(chain) if i >= len(heads) or heads[i] != h), None)
        if bad is None and len(chain) != len(heads):
            bad = min(len(chain), len(heads))
        checks.append(
            _check(
                "journal chain",
                bad is None,
                f"all {len(actions)} moves match the chain journaled with them"
                if bad is None
                else f"move {bad} does not match the chain journaled with it (changed or dropped)",
            )
        )
    return heads


def _replay_checks(
    game: Game[Any, Any, Any, Any],
    rules: Any,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    outcome: Mapping[str, Any] | None,
    checks: list[dict[str, Any]],
) -> list[tuple[int, int, Any]] | None:
    """Every move replayed with the rules, and the result; each hand's number, first step and
    state (``None``: a move is unreadable or illegal)."""
    state = game.new_game(rules, int(seed))
    hands_seen: list[tuple[int, int, Any]] = [(game.hand_number(state), 0, state)]
    for i, data in enumerate(actions):
        try:
            action = game.action_from_json(data)
            reason = game.explain(state, action)
        except Exception as exc:
            checks.append(_check("moves", False, f"move {i + 1} cannot be read: {exc}"))
            return None
        if reason is not None:
            checks.append(_check("moves", False, f"move {i + 1} is not legal: {reason}"))
            return None
        state = game.apply_quiet(state, action)
        number = game.hand_number(state)
        if number != hands_seen[-1][0]:
            hands_seen.append((number, i + 1, state))
    checks.append(_check("moves", True, f"all {len(actions)} moves are legal"))
    if outcome is not None and outcome.get("missing"):
        checks.append(_check("result", False, "the record has no result"))
    elif outcome is not None:
        ended = game.to_act(state) is None
        replayed = json.loads(json.dumps(game.outcome(state).to_json()))
        same = ended and _scored(replayed) == _scored(json.loads(json.dumps(outcome)))
        checks.append(
            _check(
                "result",
                same,
                "the moves end the match with the recorded result"
                if same
                else "the moves do not reach the end of the match"
                if not ended
                else "the recorded result differs from the one the moves give",
            )
        )
    return hands_seen


def _deal_rows(
    game: Game[Any, Any, Any, Any],
    hands_seen: list[tuple[int, int, Any]],
    published: dict[int, Mapping[str, Any]],
    rows: list[dict[str, Any]],
) -> None:
    """Each hand's deal against the commitment published for it."""
    for number, step, at in hands_seen:
        found = published.get(number)
        row: dict[str, Any] = {"hand": number, "step": step}
        if found is None or not found.get("commitment"):
            row.update(verified=False, note="no commitment was published for this hand")
            rows.append(row)
            continue
        pub: Mapping[str, Any] = found
        row["commitment"] = pub["commitment"]
        if pub.get("seed") is None:
            row.update(verified=None, note="not revealed yet (the hand is still being played)")
            rows.append(row)
            continue
        s, salt = int(pub["seed"]), str(pub.get("salt", ""))
        row.update(seed=s, salt=salt)
        row["step_ok"] = int(pub.get("step", step)) == step
        row["commitment_ok"] = deal_commitment(s, salt) == pub["commitment"]
        row["hand_seed_ok"] = game.hand_seed(at) == s
        try:
            row["redeal_ok"] = bool(game.redeal(at, s) == at)
        except Exception as exc:
            row["redeal_ok"] = False
            row["note"] = f"dealing again failed: {exc}"
        row["verified"] = all(
            row[k] for k in ("step_ok", "commitment_ok", "hand_seed_ok", "redeal_ok")
        )
        if not row["verified"] and "note" not in row:
            wrong = [
                k[:-3]
                for k in ("step_ok", "commitment_ok", "hand_seed_ok", "redeal_ok")
                if not row[k]
            ]
            row["note"] = "mismatch: " + ", ".join(wrong)
        rows.append(row)
    extra = sorted(set(published) - {n for n, _, _ in hands_seen})
    for number in extra:
        rows.append(
            {"hand": number, "verified": False, "note": "published for a hand that was not played"}
        )


def _client_checks(
    client: Mapping[str, Any],
    server_commitment: str,
    contributions: Mapping[int, str],
    published: Mapping[int, Mapping[str, Any]],
    heads: Sequence[str],
    checks: list[dict[str, Any]],
) -> None:
    seen = client.get("server_commitment")
    if seen is not None:
        same = seen == server_commitment
        checks.append(
            _check(
                "your server commitment",
                same,
                "the server commitment is the one you saw"
                if same
                else "the server commitment differs from the one you saw",
            )
        )
    mine = client.get("contribution")
    if mine:
        seat = client.get("seat")
        used = (
            contributions.get(int(seat)) == mine
            if isinstance(seat, int) and not isinstance(seat, bool)
            else mine in contributions.values()
        )
        checks.append(
            _check(
                "your randomness",
                used,
                "your contribution was used in the shuffle"
                if used
                else "your contribution is missing from the shuffle",
            )
        )
    for c in client.get("commitments") or []:
        hand = int(c["hand"])
        d = published.get(hand)
        same = d is not None and d.get("commitment") == c.get("commitment")
        checks.append(
            _check(
                f"your commitment, hand {hand + 1}",
                same,
                "matches the record" if same else "differs from the record (changed afterwards)",
            )
        )
    kept = dict(client.get("heads") or {})
    if kept:
        wrong = sorted(
            int(v) for v, h in kept.items() if int(v) >= len(heads) or heads[int(v)] != h
        )
        checks.append(
            _check(
                "your moves",
                not wrong,
                f"the record's moves are the moves you saw ({len(kept)} states)"
                if not wrong
                else f"the record differs from what you saw from version {wrong[0]} on",
            )
        )


def _scored(outcome: Mapping[str, Any]) -> Mapping[str, Any]:
    """An outcome without its hands' notes, to compare a record's result with its replay: the
    notes follow from the moves, and records written before notes had data (``note_data``)
    said them in words ("seat 2 went out")."""
    hands = outcome.get("hands")
    if not isinstance(hands, list):
        return outcome
    bare = [
        {k: v for k, v in h.items() if k not in ("note", "note_data", "note_kind")}
        if isinstance(h, dict)
        else h
        for h in hands
    ]
    return {**outcome, "hands": bare}
