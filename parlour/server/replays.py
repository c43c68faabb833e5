"""Finished matches as replays (record + a spectator view per step), deal checks, Chicago sheets."""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import HTTPException, Request, Response
from pydantic import BaseModel, Field, StringConstraints

from parlour import i18n
from parlour.core.replay import MatchRecord
from parlour.core.said import Said
from parlour.core.text import Names
from parlour.core.text import tell as said_in
from parlour.i18n import SOURCE, messages
from parlour.server import redact
from parlour.server.deals import DealTracker, verify_match
from parlour.server.guard import STRICT_BODY

if TYPE_CHECKING:
    from fastapi import FastAPI

    from parlour.server.table import Table

#: spends one request of a kind for the request's address (``TableServer.limit``)
Limiter = Callable[[str, Any], Awaitable[None]]


def match_record(table: Table) -> MatchRecord:
    players = [
        s.bot if s.kind == "bot" and s.bot else f"seat {s.seat} (human)" for s in table.seats
    ]
    return MatchRecord(
        game=table.entry.name,
        preset=table.meta.preset,
        rules=table.meta.rules,
        seed=table.seed,
        actions=list(table.actions),
        players=players,
        engine_version=table.meta.engine_version,
        outcome=table.game.outcome(table.state).to_json(),
        meta={"code": table.code, "name": table.meta.name, "timestamps": list(table.timestamps)},
    )


def fairness_json(table: Table) -> dict[str, Any]:
    """What was published for the deals; the secret and seed only once the match is over."""
    out: dict[str, Any] = {
        "code": table.code,
        **table.fairness(),
        "human_seats": [s.seat for s in table.seats if s.kind == "human"],
    }
    if table.status == "finished" and not table.legacy:
        out["secret"] = table.secret
        out["match_seed"] = table.seed
    return out


def _move_words(table: Table, state: Any, lang: str) -> Callable[[Any, Any], str]:
    """A replay's moves in words: the engine's text in English, else the move's words told in
    ``lang`` (``Game.action_words``)."""
    game = table.game
    if lang == SOURCE:
        return game.action_text
    t = messages(lang)
    names = Names.table(table.players, game.sides_of(state), table.player_names(), lang)
    return lambda state, action: said_in(game.action_words(state, action), t, names)


def _watched(game: Any, state: Any, words: i18n.Messages) -> dict[str, Any]:
    """A watcher's view of ``state``, its words told as the table tells them ("3 Pfennige")."""
    return game.tell_view(state, game.view_to_json(game.observe(state, None)), words)  # type: ignore[no-any-return]


def replay_json(table: Table, lang: str = SOURCE) -> dict[str, Any]:
    """The record and, for every step, the spectator view and the public events: the moves,
    event lines and hands' notes in ``lang`` (issue 34: a replay reads in its reader's
    language; English: the engines' own texts)."""
    game = table.game
    state = game.new_game(table.rules, table.seed)
    tracker = DealTracker(game, table.secret, table.deals.stored)
    counter = 0

    tell = redact.teller(game, state, table.players, None, table.player_names(), lang)
    move_text = _move_words(table, state, lang)

    def public(events: list[Any]) -> list[dict[str, Any]]:
        nonlocal counter
        out = []
        for ev in events:
            if ev.visible_to(None):
                out.append(redact.event_json(counter, ev, tell(ev)))
            counter += 1
        return out

    seats = range(table.players)
    held: list[Any] = [None] * table.players
    words = messages(lang)

    def hands_now() -> dict[str, list[Any]]:
        """Every seat's hand (all cards are public once the match is over), only the seats whose
        hand changed since the previous step: the viewer carries the others forward."""
        out = {}
        for seat in seats:
            hand = game.view_to_json(game.observe(state, seat)).get("hand")
            if hand != held[seat]:
                held[seat] = hand
                out[str(seat)] = list(hand) if isinstance(hand, list | tuple) else []
        return out

    steps = [
        {
            "step": 0,
            "action": None,
            "text": "deal",
            "seat": None,
            "view": _watched(game, state, words),
            "events": public(tracker.after(state, 0, replaying=True)),
            "hands": hands_now(),
        }
    ]
    for i, data in enumerate(table.actions, start=1):
        action = game.action_from_json(data)
        seat = game.to_act(state)
        text = move_text(state, action)
        state, evs = game.apply_unchecked(state, action)
        steps.append(
            {
                "step": i,
                "action": data,
                "text": text,
                "seat": seat,
                "view": _watched(game, state, words),
                "events": public([*evs, *tracker.after(state, i, replaying=True)]),
                "hands": hands_now(),
            }
        )
    checked = {row["hand"]: row for row in verify_json(table)["deals"]}
    return {
        "record": match_record(table).to_json(),
        # the result as a spectator reads it (the hands' notes in words; the record keeps data)
        "outcome": redact.told_outcome(game, table.state, None, table.player_names(), lang),
        "fairness": fairness_json(table),
        "chain": list(table.journal_chain),
        "deals": [
            {**d.public_json(), "verified": checked.get(d.hand, {}).get("verified", False)}
            for d in table.deals.deals
        ],
        "steps": steps,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name} for s in table.seats
        ],
    }


def verify_json(table: Table) -> dict[str, Any]:
    """Check the table against what it published (every revealed deal, the moves' chain)."""
    chain = table.journal_chain
    result = verify_match(
        table.game,
        table.rules,
        code=table.code,
        seed=table.seed,
        actions=table.actions,
        fairness=fairness_json(table),
        deals=[d.public_json() for d in table.deals.deals],
        chain=None if any(h is None for h in chain) else [str(h) for h in chain],
        outcome=table.game.outcome(table.state).to_json() if table.status == "finished" else None,
    )
    return {"code": table.code, **result}


#: most deals one Chicago sheet may hold (a long evening is a few dozen; each costs ~0.1 ms of
#: CPU and ~700 bytes of answer), and the longest score-pad line
MAX_SHEET_ENTRIES = 400
MAX_ENTRY_CHARS = 64


class ChicagoSheetRequest(BaseModel):
    model_config = STRICT_BODY

    entries: list[Annotated[str, StringConstraints(max_length=MAX_ENTRY_CHARS)]] = Field(
        default_factory=list,
        max_length=MAX_SHEET_ENTRIES,
        description='score-pad lines in order, e.g. "3NT S =", "4HX E -2 honors4", "pass"',
        examples=[["3S N +1", "3NT E =", "pass"]],
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="ChicagoOptions as JSON (vulnerability, honors …)"
    )


def chicago_sheet_body(entries: list[str], options: dict[str, Any], lang: str = SOURCE) -> bytes:
    """The sheet's JSON answer (its score items' words in ``lang``, issue 34), or
    :class:`SheetError`: all of it CPU work, run on a worker thread
    (``TableServer.work_pool``), never on the event loop."""
    from parlour.core.errors import ParlourError

    chicago = importlib.import_module("parlour.scoring.chicago")
    try:
        sheet = chicago.sheet_from_entries(entries, options)
    except (ParlourError, ValueError, TypeError, KeyError) as exc:
        # a pad line's fault is a catalog message (EntryError.said): told in the caller's words
        said = getattr(exc, "said", None)
        text = said_in(said, messages(lang)) if isinstance(said, Said) else str(exc)
        raise SheetError(text) from None
    data = sheet.to_json()
    if lang != SOURCE:
        data = _told(data, messages(lang))
    return json.dumps(data, separators=(",", ":")).encode()


def _told(data: Any, t: Any) -> Any:
    """JSON with every catalog message in it (:class:`parlour.core.said.Said`) told in the
    language of ``t``."""
    if isinstance(data, Said):
        return said_in(data, t)
    if isinstance(data, dict):
        return {k: _told(v, t) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_told(v, t) for v in data]
    return data


class SheetError(ValueError):
    """A score-pad line or option the sheet cannot take (answered 422)."""


def add_chicago(app: FastAPI, work: Callable[..., Awaitable[bytes]], limit: Limiter) -> None:
    """``POST /api/chicago/sheet`` when ``parlour.scoring.chicago`` is installed.  ``limit``
    spends one request of the caller's budget (429 when it is spent); ``work`` runs the sheet
    off the event loop."""
    if importlib.util.find_spec("parlour.scoring.chicago") is None:
        return

    @app.post("/api/chicago/sheet", summary="Chicago bridge score sheet from the deals played")
    async def chicago_sheet(req: ChicagoSheetRequest, request: Request) -> Any:
        await limit("sheet", request)
        try:
            lang = i18n.from_accept_language(request.headers.get("accept-language"))
            body = await work(chicago_sheet_body, req.entries, req.options, lang)
        except SheetError as exc:
            raise HTTPException(422, str(exc)) from None
        return Response(body, media_type="application/json")
