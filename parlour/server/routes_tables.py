"""The lobby and seat calls over HTTP as a FastAPI router (``/api/info``, ``/api/games``,
``/api/tables`` and a table's ``claim``, ``join``, ``invite``, ``rotate``, ``leave``, ``start``,
``replay``, ``verify``), their request bodies, and what each call does to one table (run, in a
cluster, by the process that plays it: ``TABLE_OPS``)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from parlour import bots as bot_registry
from parlour import games, i18n, rules_pages
from parlour.core.registry import GameEntry
from parlour.core.said import N_
from parlour.server import flowroutes, house, players, replays
from parlour.server.errors import LobbyError, Rejected
from parlour.server.guard import STRICT_BODY
from parlour.server.guard import client_address as _client
from parlour.server.lobby import TableServer, default_bot
from parlour.server.session import PROTOCOL
from parlour.server.table import Table


class SeatSpec(BaseModel):
    model_config = STRICT_BODY

    kind: Literal["human", "bot"] = Field("human", description="who sits here")
    bot: str | None = Field(
        None, max_length=40, description="bot level for a bot seat (one of the game's `bots`)"
    )
    open: bool = Field(
        False, description="a human seat anyone may take from the lobby (default: invite only)"
    )


class CreateTable(BaseModel):
    model_config = STRICT_BODY

    game: str = Field(..., description="game name, alias, or a preset name", examples=["samba"])
    preset: str | None = Field(None, description="preset name (default: the game's default)")
    options: dict[str, Any] = Field(
        default_factory=dict, description="rules option overrides, validated by the game's schema"
    )
    players: int | None = Field(None, description="number of seats (default: the preset's)")
    seats: list[SeatSpec] | None = Field(
        None,
        max_length=16,
        description="one entry per seat (default: seat 0 human, bots elsewhere)",
    )
    claim: int | Literal["default"] | None = Field(
        "default", description="the seat the creator takes (default: first human seat)"
    )
    name: str = Field("", max_length=80, description="a name shown in the lobby")
    player: str | None = Field(
        None, max_length=80, description="the creator's name, shown at the table (24 characters)"
    )
    hints: bool | None = Field(
        None,
        description="players may ask for hints (default: on with at most one human seat)",
    )


class JoinRequest(BaseModel):
    model_config = STRICT_BODY

    seat: int | None = Field(None, description="which open seat (default: the first open one)")
    player: str | None = Field(None, max_length=80, description="your name, shown at the table")


class TokenRequest(BaseModel):
    model_config = STRICT_BODY

    token: str = Field(..., max_length=200, description="the seat token")


class InviteRequest(BaseModel):
    model_config = STRICT_BODY

    token: str = Field(..., max_length=200, description="your seat token")
    seat: int | None = Field(
        None, description="the seat (default: your own; another seat: the table's host only)"
    )


class ClaimRequest(BaseModel):
    model_config = STRICT_BODY

    invite: str = Field(..., max_length=200, description="the invite from the invite link")
    player: str | None = Field(None, max_length=80, description="your name, shown at the table")


def _option_rows(entry: GameEntry, lang: str = "en") -> list[dict[str, Any]]:

    schema = entry.rules_type.json_schema()["properties"]
    rows = []
    described = {r["name"]: r for r in entry.rules_type.describe()}
    try:  # the rules page's words for each option (label and meaning), where the game has a page
        words = rules_pages.option_words(entry.name, lang)
    except rules_pages.NoRulesPage:
        words = {}
    for f in dataclasses.fields(entry.rules_type):
        meta = f.metadata
        d = f.default
        default = list(d) if isinstance(d, tuple) else d
        rows.append(
            {
                "name": f.name,
                "default": default,
                "doc": meta.get("doc", ""),
                "label": words.get(f.name, {}).get("label", f.name.replace("_", " ").capitalize()),
                "meaning": words.get(f.name, {}).get("meaning", meta.get("doc", "")),
                "allowed": described[f.name]["allowed"],
                "choices": list(meta["choices"]) if meta.get("choices") is not None else None,
                "min": meta.get("min"),
                "max": meta.get("max"),
                "nullable": bool(meta.get("nullable")),
                "type": _first_type(
                    schema[f.name].get("type", "enum" if meta.get("choices") else "any")
                ),
            }
        )
    return rows


def _first_type(kind: Any) -> str:
    """``["integer", "null"]`` → ``"integer"`` (nullability is its own field)."""
    if isinstance(kind, list):
        return str(next((k for k in kind if k != "null"), "any"))
    return str(kind)


def games_catalogue(server: TableServer | None = None, lang: str = "en") -> list[dict[str, Any]]:
    """Every game with its presets and options in ``lang`` (issue 34): the game's name and
    description from the catalog, the presets' and options' words from the rules pages."""
    out = []
    t = i18n.messages(lang)
    for name in games.names():
        entry = games.entry(name)
        variant = games.get(name)
        try:  # the rules page's words for each preset, where the game has a page
            preset_words = rules_pages.preset_words(name, lang)
        except rules_pages.NoRulesPage:
            preset_words = {}
        presets = [
            {
                "name": p,
                "doc": preset_words.get(p) or entry.preset_docs.get(p, ""),
                "options": {k: list(v) if isinstance(v, tuple) else v for k, v in o.items()},
            }
            for p, o in entry.presets.items()
        ]
        out.append(
            {
                "name": name,
                # English keeps the long title ("Cheat / I Doubt It / Bullshit"); another
                # language the name its players use, as the table and the terminal say it
                "title": entry.title if t.lang == i18n.SOURCE else i18n.game_title(name, t),
                "description": t.gettext(entry.description),
                "engine_version": entry.game.version,
                "default_preset": entry.default_preset,
                # whether seats play in partnerships (the lobby says who sits with whom)
                "partnerships": entry.sides is not None,
                "aliases": list(entry.aliases),
                "preset_aliases": dict(entry.preset_aliases),
                "presets": presets,
                "options": _option_rows(entry, lang),
                "schema": entry.rules_type.json_schema(),
                "bots": server.bot_levels(variant) if server else bot_registry.available(variant),
                "default_bot": default_bot(entry, variant),
                "random_play_options": dict(entry.random_play_options),
                "rules_url": f"/rules/{name}" if name in rules_pages.PAGES else None,
            }
        )
    return out


# --- what the lobby does to one table (in a cluster: run by the process that owns it) -------


async def _op_record(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return table.record()


async def _op_claim(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.claim(table.code, args.get("invite"), args.get("player"))


async def _op_join(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.join(table.code, args.get("seat"), args.get("player"))


async def _op_invite(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.reinvite(table, args.get("token"), args.get("seat"))


async def _op_rotate(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.rotate(table, args.get("token"))


async def _op_leave(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    seat = await server.seat_of(table, args.get("token"))
    try:
        await table.leave(seat)
    except Rejected as exc:
        raise LobbyError(409, exc.message) from None
    return {"seat": seat, "left": True}


async def _op_start(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    await server.seat_of(table, args.get("token"))
    try:
        await table.start()
    except Rejected as exc:
        raise LobbyError(503, exc.message) from None
    return table.record()


async def _op_replay(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    if table.status != "finished":
        raise LobbyError(
            409, N_("the match is not finished; its replay (with the seed) opens when it ends")
        )
    lang = i18n.from_accept_language(str(args.get("lang") or ""))
    return await asyncio.get_running_loop().run_in_executor(
        server.work_pool, replays.replay_json, table, lang
    )


async def _op_verify(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await asyncio.get_running_loop().run_in_executor(
        server.work_pool, replays.verify_json, table
    )


TableOp = Callable[[TableServer, Table, dict[str, Any]], Awaitable[dict[str, Any]]]
TABLE_OPS: dict[str, TableOp] = {
    "record": _op_record,
    "claim": _op_claim,
    "join": _op_join,
    "invite": _op_invite,
    "rotate": _op_rotate,
    "leave": _op_leave,
    "start": _op_start,
    "replay": _op_replay,
    "verify": _op_verify,
    **flowroutes.OPS,  # rematch, hold, speed
    **players.OPS,  # issue 33 hook: sit
    **house.OPS,  # issue 33 hook: house (rated, turn timer)
}


async def on_table(server: TableServer, code: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run a lobby operation on a table: here, or (in a cluster) on the process that owns it."""
    if server.cluster is not None:
        return await server.cluster.call(code, op, args)
    table = await server.get(code)
    return await TABLE_OPS[op](server, table, args)


def table_routes(server: TableServer, version: str) -> APIRouter:
    """The lobby and seat calls over HTTP (``/api/...``): tables, seats, replays, checks."""
    router = APIRouter()
    _lobby_routes(router, server, version)
    _seat_routes(router, server)
    return router


def _lobby_routes(router: APIRouter, server: TableServer, version: str) -> None:
    """The server, its games, the table list; a table made or looked up."""

    @router.get("/api/info", summary="Protocol and server version")
    async def info() -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "server": "parlour",
            "version": version,
            "games": games.names(),
        }

    @router.get("/api/games", summary="Games, presets, options and bot levels")
    async def list_games(lang: str | None = None) -> dict[str, Any]:
        try:
            language = i18n.choose(lang)
        except i18n.LanguageError as exc:
            raise LobbyError(400, str(exc)) from None
        return {"games": games_catalogue(server, language)}

    @router.post("/api/tables", status_code=201, summary="Create a table")
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        await server.limit("create", _client(request))
        _, response = await server.create(
            req.game,
            req.preset,
            req.options,
            req.players,
            [s.model_dump() for s in req.seats] if req.seats is not None else None,
            req.claim,
            req.name,
            req.player,
            req.hints,
        )
        return response

    @router.get("/api/tables", summary="List tables (paginated)")
    async def list_tables(
        request: Request,
        status: Literal["open", "all"] = Query(
            "open", description="open: with a seat anyone may take"
        ),
        offset: int = Query(0, ge=0, le=1_000_000, description="skip this many tables"),
        limit: int = Query(50, ge=1, le=200, description="at most this many tables"),
    ) -> dict[str, Any]:
        await server.limit("lookup", _client(request))
        limit = min(limit, server.config.list_limit)
        if server.cluster is not None:
            return await server.cluster.list(status, offset, limit)
        return server.list(status, offset, limit)

    @router.get("/api/tables/{code}", summary="One table")
    async def get_table(code: str, request: Request) -> dict[str, Any]:
        await server.limit("lookup", _client(request))
        return await on_table(server, code, "record", {})


def _seat_routes(router: APIRouter, server: TableServer) -> None:
    """A table's seats (claim, join, invite, rotate, leave), its start, replay and checks."""

    @router.post("/api/tables/{code}/claim", summary="Open an invite: a fresh seat token")
    async def claim(code: str, req: ClaimRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "claim", {"invite": req.invite, "player": req.player})

    @router.post("/api/tables/{code}/join", summary="Take an open seat by table code")
    async def join(code: str, request: Request, req: JoinRequest | None = None) -> dict[str, Any]:
        await server.limit("join", _client(request))
        args = {"seat": req.seat if req else None, "player": req.player if req else None}
        return await on_table(server, code, "join", args)

    @router.post("/api/tables/{code}/invite", summary="A new one-time invite for a seat")
    async def reinvite(code: str, req: InviteRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "invite", {"token": req.token, "seat": req.seat})

    @router.post("/api/tables/{code}/rotate", summary="A new token for your seat")
    async def rotate(code: str, req: TokenRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "rotate", {"token": req.token})

    @router.post("/api/tables/{code}/leave", summary="Give up a seat for good (a bot plays it)")
    async def leave(code: str, req: TokenRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "leave", {"token": req.token})

    @router.post("/api/tables/{code}/start", summary="Start now; bots fill the free seats")
    async def start(code: str, req: TokenRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "start", {"token": req.token})

    @router.get("/api/tables/{code}/replay", summary="A finished match, step by step")
    async def replay(code: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        """In ``?lang=`` (else the browser's ``Accept-Language``): the moves, event lines and
        notes as its reader reads them (issue 34)."""
        await server.limit("lookup", _client(request))
        if lang is None:
            lang = request.headers.get("accept-language")
        return await on_table(server, code, "replay", {"lang": lang or ""})

    @router.get("/api/tables/{code}/verify", summary="Check the revealed deals")
    async def verify(code: str, request: Request) -> dict[str, Any]:
        await server.limit("lookup", _client(request))
        return await on_table(server, code, "verify", {})
