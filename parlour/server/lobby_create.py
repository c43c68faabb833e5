"""A new table, as the lobby makes it: the game and rules read from the request, the seats
(humans, bots at an offered level), the creator's seat token and the others' one-time invites,
the table's journal entry, and the answer the creator gets (the only time the invites are
shown).  The lobby (``TableServer.create``) saves the table and puts it in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour import games
from parlour.core.errors import ParlourError
from parlour.core.registry import Variant
from parlour.core.said import N_
from parlour.server.errors import LobbyError, said_of
from parlour.server.lobby_seats import invite_url
from parlour.server.seats import SeatState, clean_name, hash_token, new_token
from parlour.server.storage_base import TableMeta

if TYPE_CHECKING:
    from parlour.server.table import Table


def read_variant(
    game: str, preset: str | None, options: dict[str, Any] | None, players: int | None
) -> Variant:
    """The game, preset and rules asked for (:class:`LobbyError` 422 when they make none)."""
    opts = dict(options or {})
    if "players" in opts:  # the player count may come as an option too
        if players is not None and opts["players"] != players:
            raise LobbyError(
                422,
                N_(
                    "players: {players} and options.players {option} differ",
                    players=repr(players),
                    option=repr(opts["players"]),
                ),
            )
        players = opts.pop("players")
    try:
        variant = games.get(game, preset, None)
        return Variant(
            variant.entry,
            variant.preset,
            variant.entry.rules(variant.preset, players, opts),
        )
    except (ParlourError, ValueError, TypeError) as exc:
        raise LobbyError(422, said_of(exc)) from None


def seat_states(
    variant: Variant,
    seats: list[dict[str, Any]] | None,
    level: str,
    check_bot: Callable[[Variant, Any], str],
) -> list[SeatState]:
    """The seats asked for (by default: one human, bots of ``level`` in the others)."""
    n = int(variant.rules.players)  # type: ignore[attr-defined]
    if seats is None:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": level}] * (n - 1)
    if len(seats) != n:
        raise LobbyError(
            422, N_("{n} players need {n} seats; got {count} seat entries", n=n, count=len(seats))
        )
    states: list[SeatState] = []
    for i, spec in enumerate(seats):
        kind = spec.get("kind", "human")
        if kind == "human":
            states.append(SeatState(i, "human", open=bool(spec.get("open", False))))
        elif kind == "bot":
            states.append(SeatState(i, "bot", bot=check_bot(variant, spec.get("bot") or level)))
        else:
            raise LobbyError(
                422, N_("seat {n}: kind must be 'human' or 'bot', not {kind}", n=i, kind=repr(kind))
            )
    return states


def hand_out(
    states: list[SeatState], claim: int | str | None, player: str | None
) -> tuple[int | None, dict[str, Any] | None, dict[int, str]]:
    """The creator's seat (``claim``; ``"default"``: the first human seat) gets a token, every
    other human seat an invite.  Returns the claimed seat, the creator's ``you`` (seat and
    token) and the invites by seat; only their hashes stay in ``states``."""
    humans = [s.seat for s in states if s.kind == "human"]
    if claim == "default":
        claim = humans[0] if humans else None
    if claim is not None and (not isinstance(claim, int) or claim not in humans):
        raise LobbyError(
            422,
            N_(
                "claim: seat {seat} is not a human seat; human seats: {humans}",
                seat=repr(claim),
                humans=str(humans),
            ),
        )
    you = None
    invites: dict[int, str] = {}
    for s in states:
        if s.kind != "human":
            continue
        if s.seat == claim:
            token = new_token()
            s.token_hash, s.claimed = hash_token(token), True
            s.name = clean_name(player)
            you = {"seat": s.seat, "token": token}
        else:
            invites[s.seat] = new_token()
            s.invite_hash = hash_token(invites[s.seat])
    return claim, you, invites


def new_meta(
    code: str,
    variant: Variant,
    states: list[SeatState],
    name: str,
    extra: dict[str, Any],
    now: float,
) -> TableMeta:
    """The new table's journal entry (``extra``: its secret, host seat and hints choice)."""
    return TableMeta(
        code=code,
        game=variant.name,
        preset=variant.preset,
        rules=variant.rules.to_json(),
        engine_version=variant.game.version,
        seed=0,
        seats=[s.stored() for s in states],
        status="waiting",
        name=name or f"{variant.entry.game.title} table",
        created=now,
        extra=extra,
    )


def created(table: Table, you: dict[str, Any] | None, invites: dict[int, str]) -> dict[str, Any]:
    """What the creator is told: the table, their seat token, every other seat's invite."""
    seat_rows: list[dict[str, Any]] = []
    for s in table.seats:
        row: dict[str, Any] = {"seat": s.seat, "kind": s.kind}
        if s.kind == "bot":
            row["bot"] = s.bot
        else:
            row.update(open=s.open, claimed=s.claimed)
            if s.seat in invites:
                invite = invites[s.seat]
                row.update(invite=invite, invite_url=invite_url(table.code, invite))
        seat_rows.append(row)
    return {
        **table.record(),
        "you": you,
        "seats": seat_rows,
        "watch_url": f"/t/{table.code}",
    }
