"""Match history and ratings (issue 33), with OpenSkill's Plackett–Luce model.

When a match ends, the table's owner writes it into the history (``parlour_matches`` and one
``parlour_match_players`` row per player) and, when it is rated, updates the players' ratings
for that game.  OpenSkill is made for teams and several players at once: each side of the
outcome is a team (Samba and Hand and Foot partnerships, one player a side in Cheat and Scat),
ranked by the outcome's ranking (equal scores tie).

A match is **rated** when the host did not turn rating off (``rated``: the default is on), every
human seat was held by a player with a key — one player a seat from start to end (the seat never
changed hands: nobody left, no second player sat there) — no player held two seats, and the match
was not abandoned.  Bots play at fixed ratings taken from the published strength ladder
(docs/ladder.md), so a player who plays only bots gets a rating too; the bots' own ratings never
move.

A rating is shown as ``mu ± 3 sigma`` (and OpenSkill's ordinal ``mu - 3 sigma`` orders the
leaderboard).  Every change is kept (``parlour_rating_history``) for the player page's chart.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any, cast

from fastapi import FastAPI, Request

from parlour.core.said import N_
from parlour.server.storage import StorageError

if TYPE_CHECKING:
    from collections.abc import Callable

    from parlour.server.lobby import TableServer
    from parlour.server.players import PlayerStore
    from parlour.server.table import Table

log = logging.getLogger("parlour.server")

#: a new player's rating (OpenSkill's defaults)
MU = 25.0
SIGMA = 25.0 / 3
#: a bot's fixed uncertainty (small: its strength is measured)
BOT_SIGMA = 1.0
#: Elo points to OpenSkill mu: Plackett–Luce with beta = 25/6 puts two certain players' win
#: chance at logistic((mu_a - mu_b) / c), c = sqrt(2) * 25/6; Elo at logistic(D * ln 10 / 400).
#: Equal chances for equal gaps: mu per Elo point = c * ln 10 / 400 ≈ 0.0339
MU_PER_ELO = (2**0.5) * (25 / 6) * 2.302585092994046 / 400
#: the bots' ladder ratings (docs/ladder.md, Elo scale centred on the bots' mean), by the level a
#: table offers: ``strong:0.3`` and ``strong:1`` are the iteration budgets the ladder measured
#: for those times on its machine; ``expert`` (not yet on the ladder) as ``strong:3``
BOT_ELO: dict[str, dict[str, float]] = {
    "samba": {
        "random": -320,
        "basic": -58,
        "strong:0.3": 79,
        "strong:1": 185,
        "strong:3": 185,
        "expert": 185,
    },
    "handfoot": {
        "random": -465,
        "basic": -38,
        "strong:0.3": 152,
        "strong:1": 351,
        "strong:3": 351,
        "expert": 351,
    },
    "cheat": {
        "random": -420,
        "basic": 123,
        "strong:0.3": 157,
        "strong:1": 140,
        "strong:3": 140,
        "expert": 140,
    },
    "scat": {
        "random": -360,
        "basic": 19,
        "strong:0.3": 138,
        "strong:1": 114,
        "strong:3": 90,
        "expert": 90,
    },
}
#: a leaderboard lists players with at least this many rated matches
LEADER_MATCHES = 5


def bot_rating(game: str, level: str | None) -> tuple[float, float]:
    """A bot's fixed (mu, sigma) in this game (a level or game the ladder lacks: the mean)."""
    elo = BOT_ELO.get(game, {}).get(level or "", 0.0)
    return MU + elo * MU_PER_ELO, BOT_SIGMA


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def side_ranks(outcome: dict[str, Any]) -> list[int]:
    """Each side's place (1 = best; equal scores share a place).

    >>> side_ranks({"sides": [[0, 2], [1, 3]], "scores": [120, 80], "ranking": [0, 1]})
    [1, 2]
    >>> side_ranks({"sides": [[0], [1], [2]], "scores": [3, 3, 1], "ranking": []})
    [1, 1, 3]
    """
    scores = [float(s) for s in outcome.get("scores") or []]
    n = len(outcome.get("sides") or [])
    order = list(outcome.get("ranking") or []) or sorted(range(n), key=lambda i: -scores[i])
    ranks = [0] * n
    for place, side in enumerate(order):
        ranks[side] = place + 1
        if place and scores and scores[side] == scores[order[place - 1]]:
            ranks[side] = ranks[order[place - 1]]
    for i in range(n):  # a side the ranking left out comes last
        if not ranks[i]:
            ranks[i] = n
    return ranks


def record_match(st: PlayerStore, info: dict[str, Any]) -> bool:
    """Write a finished match (blocking), in one transaction: the match, its players and the
    rating changes are seen together or not at all; ``False`` if it was written already."""
    run_batch = getattr(st.storage, "run_batch", None)
    if run_batch is None:
        return _record_match(st, info)
    # a batch of two calls is one transaction (the second does nothing; inside a journal batch
    # already, the calls simply run in it)
    (ok, result), _ = run_batch([lambda: _record_match(st, info), lambda: None])
    if not ok:
        raise result
    return bool(result)


def _record_match(st: PlayerStore, info: dict[str, Any]) -> bool:
    code, game = info["code"], info["game"]
    try:
        st._q(
            "INSERT INTO parlour_matches (code, game, preset, finished, rated, result) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                code,
                game,
                info["preset"],
                info["finished"],
                int(info["rated"]),
                json.dumps(info["result"], ensure_ascii=False),
            ),
        )
    except StorageError:
        if st._q("SELECT 1 FROM parlour_matches WHERE code = ?", (code,)):
            return False
        raise
    result = info["result"]
    ranks = side_ranks(result)
    sides = result["sides"]
    for seat, pid in info["players"].items():
        side = next(i for i, members in enumerate(sides) if seat in members)
        st._q(
            "INSERT INTO parlour_match_players (code, player, seat, game, finished, won, rank) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (code, pid, seat, game, info["finished"], int(side in result["winners"]), ranks[side]),
        )
    if info["rated"]:
        _rate(st, info, ranks)
    return True


def current(st: PlayerStore, pid: str, game: str) -> tuple[float, float, int]:
    rows = st._q(
        "SELECT mu, sigma, matches FROM parlour_ratings WHERE player = ? AND game = ?",
        (pid, game),
    )
    if not rows:
        return MU, SIGMA, 0
    return float(rows[0][0]), float(rows[0][1]), int(rows[0][2])


def _rate(st: PlayerStore, info: dict[str, Any], ranks: list[int]) -> None:
    model = _model()
    game, sides, seats = info["game"], info["result"]["sides"], info["seats"]
    players: dict[int, str] = info["players"]
    before = {pid: current(st, pid, game) for pid in players.values()}
    teams = []
    for members in sides:
        team = []
        for seat in members:
            if seat in players:
                mu, sigma, _ = before[players[seat]]
            else:
                mu, sigma = bot_rating(game, seats[seat].get("bot"))
            team.append(model.rating(mu=mu, sigma=sigma))
        teams.append(team)
    rated = model.rate(teams, ranks=ranks)
    now = info["finished"]
    for members, team in zip(sides, rated, strict=True):
        for seat, r in zip(members, team, strict=True):
            pid = players.get(seat)
            if pid is None:
                continue  # a bot's rating stays as the ladder measured it
            mu, sigma, matches = before[pid]
            if matches:
                st._q(
                    "UPDATE parlour_ratings SET mu = ?, sigma = ?, matches = ?, updated = ? "
                    "WHERE player = ? AND game = ?",
                    (r.mu, r.sigma, matches + 1, now, pid, game),
                )
            else:
                st._q(
                    "INSERT INTO parlour_ratings (player, game, mu, sigma, matches, updated) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (pid, game, r.mu, r.sigma, 1, now),
                )
            st._q(
                "INSERT INTO parlour_rating_history (player, game, code, ts, mu, sigma) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (pid, game, info["code"], now, r.mu, r.sigma),
            )


def of_player(st: PlayerStore, pid: str) -> dict[str, Any]:
    """A player's ratings per game, with their history (oldest first)."""
    out: dict[str, Any] = {}
    for game, mu, sigma, matches in st._q(
        "SELECT game, mu, sigma, matches FROM parlour_ratings WHERE player = ? ORDER BY game",
        (pid,),
    ):
        history = st._q(
            "SELECT code, ts, mu, sigma FROM parlour_rating_history "
            "WHERE player = ? AND game = ? ORDER BY ts",
            (pid, game),
        )
        out[str(game)] = {
            "mu": round(float(mu), 2),
            "sigma": round(float(sigma), 2),
            "ordinal": round(float(mu) - 3 * float(sigma), 2),
            "matches": int(matches),
            "history": [
                {
                    "code": h[0],
                    "ts": float(h[1]),
                    "mu": round(float(h[2]), 2),
                    "sigma": round(float(h[3]), 2),
                }
                for h in history[-200:]
            ],
        }
    return out


def leaders(st: PlayerStore, game: str, limit: int = 100) -> list[dict[str, Any]]:
    rows = st._q(
        "SELECT r.player, p.name, r.mu, r.sigma, r.matches FROM parlour_ratings r "
        "JOIN parlour_players p ON p.id = r.player WHERE r.game = ? AND r.matches >= ?",
        (game, LEADER_MATCHES),
    )
    ranked = sorted(rows, key=lambda r: -(float(r[2]) - 3 * float(r[3])))[:limit]
    return [
        {
            "rank": i + 1,
            "id": r[0],
            "name": r[1],
            "url": f"/p/{r[0]}",
            "mu": round(float(r[2]), 2),
            "sigma": round(float(r[3]), 2),
            "ordinal": round(float(r[2]) - 3 * float(r[3]), 2),
            "matches": int(r[4]),
        }
        for i, r in enumerate(ranked)
    ]


# --- the table's end (the hook in ``Table.submit``) -------------------------------------------


def finished(table: Table) -> None:
    """The match just ended: write it into the players' history (in the background)."""
    with contextlib.suppress(RuntimeError):
        task = asyncio.get_running_loop().create_task(_finished(table))
        table.flow.history_task = task


async def _finished(table: Table) -> None:
    from parlour.server import house, players

    server = cast(Any, table.server)  # the TableServer (the table types it as its TableHost)
    st = players.store(server)
    try:
        bound = await server.db(st.seat_players, table.code)
    except StorageError as exc:
        log.error("table %s: cannot read its players for the history: %s", table.code, exc)
        return
    humans = [s.seat for s in table.seats if s.kind == "human"]
    # a seat's player at the end is the one who sat with the token that holds it now: a seat
    # given to someone else (a new invite, a leave) is not credited to its first player
    seat_player = {
        seat: next(pid for pid, token_hash in sat if token_hash == table.seats[seat].token_hash)
        for seat, sat in bound.items()
        if table.seats[seat].token_hash is not None
        and any(token_hash == table.seats[seat].token_hash for _, token_hash in sat)
    }
    if not seat_player:
        return  # nobody with a key held a seat at the end: nothing to remember
    outcome = table.game.outcome(table.state).to_json()
    choice = house.rated_choice(table)
    one_each = all(len(bound.get(seat, [])) == 1 and seat in seat_player for seat in humans)
    nobody_left = not any(table.seats[seat].left for seat in humans)
    distinct = len(set(seat_player.values())) == len(seat_player)
    rated = (
        choice is not False
        and one_each
        and nobody_left
        and distinct
        and outcome.get("kind") != "abandoned"
    )
    names = [
        {
            "seat": s.seat,
            "name": s.name if s.kind == "human" else None,
            "bot": s.bot if s.kind == "bot" else None,
            "player": seat_player.get(s.seat),
        }
        for s in table.seats
    ]
    info = {
        "code": table.code,
        "game": table.entry.name,
        "preset": table.meta.preset,
        # the last move's time (a history row written late, after a restart, keeps it)
        "finished": table.timestamps[-1] if table.timestamps else time.time(),
        "rated": rated,
        "players": seat_player,
        "seats": [{"bot": s.bot} for s in table.seats],
        "result": {
            "name": table.meta.name,
            "players": names,
            "sides": outcome.get("sides", []),
            "scores": outcome.get("scores", []),
            "winners": outcome.get("winners", []),
            "ranking": outcome.get("ranking", []),
            "kind": outcome.get("kind", ""),
        },
    }
    try:
        await server.db(record_match, st, info)
    except StorageError as exc:
        log.error("table %s: cannot write the match into the history: %s", table.code, exc)


#: how far back a starting server looks for finished matches missing from the history
CATCH_UP_SECONDS = 7 * 24 * 3600
#: and how many such tables it reads at most
CATCH_UP_LIMIT = 200


def unrecorded(st: PlayerStore, since: float, limit: int) -> list[str]:
    """Finished tables (updated after ``since``) where a player with a key sat but whose match
    is not in the history: the process stopped between the last move and the history row."""
    rows = st._q(
        "SELECT t.code FROM parlour_tables t WHERE t.status = ? AND t.updated >= ? "
        "AND EXISTS (SELECT 1 FROM parlour_seat_players s WHERE s.code = t.code) "
        "AND NOT EXISTS (SELECT 1 FROM parlour_matches m WHERE m.code = t.code) "
        "ORDER BY t.updated DESC LIMIT ?",
        ("finished", since, limit),
    )
    return [str(r[0]) for r in rows]


async def catch_up(server: TableServer) -> int:
    """Write the history rows a stopped process did not get to (run once at startup, in the
    background; writing a match twice is refused by its key, so several processes may race).
    Returns how many tables were looked at."""
    from parlour.server import players

    st = players.store(server)
    try:
        codes = await server.db(unrecorded, st, time.time() - CATCH_UP_SECONDS, CATCH_UP_LIMIT)
    except StorageError as exc:
        log.error("cannot look for finished matches missing from the history: %s", exc)
        return 0
    for code in codes:
        try:
            table = await server.get(code)
        except Exception as exc:  # a table that cannot be read is reported by the lobby
            log.warning("table %s: not added to the history: %s", code, exc)
            continue
        if table.status == "finished":
            await _finished(table)
    if codes:
        log.info("looked again at %d finished tables missing from the history", len(codes))
    return len(codes)


async def leaders_json(server: TableServer, game: str, client_address: str) -> dict[str, Any]:
    """``GET /api/leaders/{game}`` (and ``/leaders/{game}`` asked for JSON)."""
    from parlour import games
    from parlour.core.errors import ParlourError
    from parlour.server import players
    from parlour.server.errors import LobbyError

    await server.limit("lookup", client_address)
    try:
        name = games.entry(game).name
    except (ParlourError, KeyError, ValueError):
        raise LobbyError(404, N_("no game {game}", game=repr(game[:40]))) from None
    try:
        rows = await server.db(leaders, players.store(server), name)
    except StorageError as exc:
        raise LobbyError(
            503, N_("the ratings cannot be read just now: {error}", error=str(exc))
        ) from None
    return {"game": name, "min_matches": LEADER_MATCHES, "players": rows}


def add_routes(app: FastAPI, server: TableServer, client: Callable[[Request], str]) -> None:
    """``GET /api/leaders/{game}``."""

    @app.get("/api/leaders/{game}", summary="The best rated players of a game")
    async def leaders_route(game: str, request: Request) -> dict[str, Any]:
        return await leaders_json(server, game, client(request))
