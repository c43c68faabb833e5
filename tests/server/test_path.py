"""The cheaper table/message path: bot moves handed to the table as action
objects, the chain text by orjson, the seat's payload built once per version, a slow socket that
holds nobody else up."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from parlour.server import deals
from parlour.server.connection import Connection
from parlour.server.errors import Rejected
from parlour.server.lobby import TableServer
from parlour.server.table import Table
from tests.server.inproc import held_samba_table, memory_server


def _close(server: TableServer) -> None:
    for t in server.tables.values():
        t.close()
    server.bot_pool.shutdown()
    server.db_pool.shutdown()
    server.work_pool.shutdown()


def test_a_bot_move_as_a_checked_object_is_journaled_as_its_json() -> None:
    async def main() -> None:
        server = memory_server()
        try:
            table = await held_samba_table(server)
            game = table.game
            seat = game.to_act(table.state)
            legal = game.legal_actions(table.state)
            table.seats[seat].kind = "bot"  # the seat is a bot's: it may hand over an object
            v = table.version
            await table.submit(seat, v, action=legal[0], checked=True, by_bot=True)
            assert table.version == v + 1
            assert table.actions[-1] == game.action_to_json(legal[0])
            # the chain is the one a journal read back gives (JSON read, checked, hashed)
            assert (
                table.head
                == deals.chain_heads(table.code, table.server_commitment, table.actions)[-1]
            )
            loaded = server.storage.load_table(table.code)
            assert loaded is not None
            meta, journal = loaded
            assert [e.action for e in journal] == table.actions
            # read back as a restarted server would: every move checked again, the same chain
            again = Table(
                server, meta, table.entry, table.rules, journal, server.storage.records(table.code)
            )
            assert again.head == table.head and not again.notes
        finally:
            _close(server)

    asyncio.run(main())


def test_an_illegal_object_is_refused_unless_a_bot_checked_it() -> None:
    async def main() -> None:
        server = memory_server()
        try:
            table = await held_samba_table(server)
            game = table.game
            seat = game.to_act(table.state)
            legal = game.legal_actions(table.state)
            # a legal move of another state: the seat to act after one move
            other, _ = game.apply_unchecked(table.state, legal[0])
            wrong = next(
                a for a in game.legal_actions(other) if game.explain(table.state, a) is not None
            )
            v = table.version
            # ``checked`` counts only for a bot's move: a person's is checked all the same
            with pytest.raises(Rejected) as exc:
                await table.submit(seat, v, action=wrong, checked=True)
            assert exc.value.code == "illegal_action"
            # a bot's object not marked checked: the engine checks it, as it checks a client's
            table.seats[seat].kind = "bot"
            with pytest.raises(Rejected) as exc:
                await table.submit(seat, v, action=wrong, by_bot=True)
            assert exc.value.code == "illegal_action"
            # and a stale version is refused before anything is looked at
            with pytest.raises(Rejected) as exc:
                await table.submit(seat, v + 1, action=legal[0], checked=True, by_bot=True)
            assert exc.value.code == "stale_version"
            assert table.version == v
        finally:
            _close(server)

    asyncio.run(main())


def test_choose_says_whether_the_bot_returned_one_of_the_legal_objects() -> None:
    from parlour.server.botpool import choose

    class Picks:
        needs_view = False

        def __init__(self, game: Any, fresh: bool) -> None:
            self.game = game
            self.fresh = fresh

        def act(self, view: Any, legal: list[Any]) -> Any:
            if self.fresh:  # an equal action made anew (not the object offered)
                return self.game.action_from_json(self.game.action_to_json(legal[0]))
            return legal[0]

    async def main() -> None:
        server = memory_server()
        try:
            table = await held_samba_table(server)
            for fresh, checked in ((False, True), (True, False)):
                bot = Picks(table.game, fresh)
                got = choose(bot, table.game, table.state, 0)  # type: ignore[arg-type]
                assert got[1] is checked
        finally:
            _close(server)

    asyncio.run(main())


@pytest.mark.parametrize(
    "action",
    [
        {"type": "Discard", "card": "7♦"},
        {"b": [1, 2, {"z": None, "a": True}], "a": 'x\x00\x1f"\\/\n\u2028é'},
        {"type": "Meld", "cards": [2**63 - 1, -(2**63)], "to": None},
        {"big": 2**70},  # beyond orjson's integers: json writes it
        {"x": 1.5e16, "y": 1e-7, "z": 0.1},  # floats: json's spelling is kept
        {1: "a", 3: "b"},  # keys that are not text
        {"t": (1, 2)},
        {"k": "é", "K": "e", "é": 1, "\U0001f600": 2},
    ],
)
def test_the_chain_text_is_json_dumps_byte_for_byte(action: dict[Any, Any]) -> None:
    expected = json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert deals._canonical_bytes(action) == expected.encode("utf-8")
    head = "ab" * 32
    assert deals.chain_next(head, action) == deals._sha(f"{head}|{expected}")


def test_the_payload_is_built_once_per_version_and_again_for_a_new_one() -> None:
    async def main() -> None:
        server = memory_server()
        try:
            table = await held_samba_table(server)
            built: list[tuple[int | None, int]] = []
            original = table._build_payload

            def counting(seat: int | None, lang: str = "en") -> dict[str, Any]:
                built.append((seat, table.version))
                return original(seat, lang)

            table._build_payload = counting  # type: ignore[method-assign]
            seat = table.game.to_act(table.state)
            table._payloads.clear()  # (the start's broadcast built this version's already)
            first = table.payload(seat)
            assert table.payload(seat) is first  # the same version: reused
            assert len(built) == 1
            assert first["your_turn"] and first["legal"]
            legal = table.game.legal_actions(table.state)
            await table.submit(seat, table.version, table.game.action_to_json(legal[0]))
            # the broadcast built the new version's payloads; asking again reuses them
            n = len(built)
            second = table.payload(seat)
            assert second is not first and len(built) == n
            assert (seat, table.version) in built
            assert second["view"] != first["view"] or second["to_act"] != first["to_act"]
        finally:
            _close(server)

    asyncio.run(main())


def test_a_connection_that_does_not_read_holds_nobody_else_up() -> None:
    """Each connection has its own queue and sender: one whose socket never takes a message
    falls behind alone (its backlog dropped, a resync due); the others get every state."""

    async def main() -> None:
        server = memory_server()
        try:
            table = await held_samba_table(server)
            slow = Connection(None, table.resync_text, max_messages=4)
            table.attach(slow)
            fast = table.seats[0].connections[0]
            got: list[str] = []

            async def reader(conn: Connection) -> None:
                while (text := await conn.next()) is not None:
                    got.append(text)

            task = asyncio.create_task(reader(fast))
            game = table.game
            moves = 0
            while table.status == "playing" and moves < 12:
                seat = game.to_act(table.state)
                action = game.legal_actions(table.state)[0]
                await table.submit(seat, table.version, game.action_to_json(action))
                moves += 1
                await asyncio.sleep(0)
            await asyncio.sleep(0.01)
            assert slow.lagging and slow.behind >= 1  # the slow one fell behind
            states = [json.loads(t) for t in got if '"type":"state"' in t]
            assert states and states[-1]["version"] == table.version  # the fast one is current
            fast.close()
            await asyncio.wait_for(task, 5)
        finally:
            _close(server)

    asyncio.run(main())
