"""Stopping the server while tables play (issue 31): a move that finishes after its table was
closed starts no bot, and a journal call made after the journal's threads were shut down is
answered "the journal is closed" (a :class:`StorageError`, so "unavailable"), not a bare
``RuntimeError`` logged as a failed bot.

The race this pins was seen in CI: on PostgreSQL, ``TableServer.shutdown`` awaits the appender's
close after shutting down the journal threads; a player's move still in flight finished then,
kicked the next seat's bot, and the bot's move reached the closed thread pool
("bot for seat 1 failed: cannot schedule new futures after shutdown")."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

import pytest

from parlour.server.batch import Batcher
from parlour.server.storage import JournalClosed, StorageError
from tests.server.inproc import held_samba_table, memory_server


def test_a_call_after_the_journal_threads_stopped_is_refused_as_journal_closed() -> None:
    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    batcher = Batcher(pool, width=1)

    async def main() -> None:
        with pytest.raises(JournalClosed) as exc:
            await batcher.call(lambda: 1)
        assert isinstance(exc.value, StorageError)
        assert batcher.batches == 0

    asyncio.run(main())


def test_a_move_finishing_after_its_table_closed_starts_no_bot(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        server = memory_server()
        try:
            # the seat to act first a person, the others bots: after the person's move a bot
            # is to act, and the move's end would start the bot driver
            table = await held_samba_table(server)
            game = table.game
            first = game.to_act(table.state)
            assert first is not None
            for s in table.seats:
                if s.seat != first:
                    s.kind, s.bot = "bot", "random"
            # the person plays until their next move ends the turn (draw, then discard)
            while True:
                legal = game.legal_actions(table.state)
                ends = [
                    a
                    for a in legal
                    if game.to_act(game.apply_unchecked(table.state, a)[0]) != first
                ]
                if ends:
                    break
                await table.submit(first, table.version, game.action_to_json(legal[0]))
            action = game.action_to_json(ends[0])
            version = table.version
            move = asyncio.get_running_loop().create_task(table.submit(first, version, action))
            await asyncio.sleep(0)  # the move is waiting for the journal
            assert not move.done()
            table.close()  # the server stops meanwhile
            await move  # the move was journaled and is applied
            assert table.version == version + 1
            assert table.controller(game.to_act(table.state)) == "bot"
            assert table._driver is None or table._driver.done()
            table.kick()
            assert table._driver is None or table._driver.done()
        finally:
            await server.shutdown()

    with caplog.at_level(logging.WARNING):
        asyncio.run(main())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_stopping_while_bots_play_logs_no_error(caplog: pytest.LogCaptureFixture) -> None:
    """Bot-only tables playing flat out, stopped mid-play: no error line, and a table read
    back from the journal replays every acknowledged move."""

    async def main() -> list[str]:
        server = memory_server()
        codes = []
        for _ in range(4):
            table, _ = await server.create(
                "samba",
                None,
                {"max_hands": 1},
                4,
                [{"kind": "bot", "bot": "random"}] * 4,
                "default",
                "t",
            )
            await table.start()
            codes.append(table.code)
        await asyncio.sleep(0.3)
        played = {c: server.tables[c].version for c in codes}
        assert sum(played.values()) > 0, "the bots did not play"
        await server.shutdown()
        await asyncio.sleep(0.1)  # whatever was cancelled or still running settles
        return codes

    with caplog.at_level(logging.WARNING):
        asyncio.run(main())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
