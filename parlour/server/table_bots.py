"""The bot driver: bots play bot seats, and stand in for players who left or are away past the
grace period.  A quick bot plays on the event loop; a search bot in a bot worker process (or a
thread), in turn with the other tables' searches.  Each table has a thinking budget that refills
with time; a table that used it up gets the quick stand-in until it refills.

The driver is a task per table (``kick`` starts it when a bot is to act); a move it chooses goes
through :meth:`parlour.server.table.Table.submit` like a player's.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import Any

from parlour import bots as bot_registry
from parlour.core.bot import Bot
from parlour.core.rng import derive_seed
from parlour.server import botpool, flow
from parlour.server.errors import Rejected
from parlour.server.table_base import TableBase

log = logging.getLogger("parlour.server")

#: one quick bot move in this many is timed with the CPU clock (``Table._drive``)
CLOCK_EVERY = 8


class TableBots(TableBase):
    """The bot driver and the table's thinking budget."""

    def _init_bots(self) -> None:
        self.bot_budget = self.server.config.bot_budget
        self._budget_at = time.monotonic()
        self._bots: dict[int, Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        #: set by ``close``: no bot is started any more (a move finishing while the server
        #: stops must not start the next bot on a journal that is closing)
        self.closed = False
        #: quick bot moves played on the event loop (one in ``CLOCK_EVERY`` is timed)
        self._inline_moves = 0

    def _bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            s = self.seats[seat]
            name = s.bot if s.kind == "bot" and s.bot else self.server.standin_bot(self.variant)
            self._bots[seat] = bot_registry.make(
                name, self.variant, seat, derive_seed(self.seed, "seat", seat)
            )
        return self._bots[seat]

    def _bot_job(self, seat: int, version: int, state: Any, failures: int) -> botpool.BotJob:
        """What a bot worker process needs to play the seat's move."""
        s = self.seats[seat]
        if failures:
            name = "random"  # a bot that just failed plays one move at random
        elif self.bot_budget <= 0:
            name = self.server.standin_bot(self.variant)
        else:
            name = s.bot if s.kind == "bot" and s.bot else self.server.standin_bot(self.variant)
        return botpool.BotJob(
            **self._job_variant(),
            bot=name,
            seat=seat,
            seed=derive_seed(self.seed, "seat", seat, version),
            state=state,
        )

    def _spend_budget(self, seconds: float) -> None:
        now = time.monotonic()
        cfg = self.server.config
        self.bot_budget = min(
            cfg.bot_budget, self.bot_budget + (now - self._budget_at) * cfg.bot_budget_rate
        )
        self._budget_at = now
        self.bot_budget -= seconds

    def kick(self) -> None:
        """Let the bots play if a bot (or a stand-in) is to act."""
        if self.closed:
            return
        if self._driver is None or self._driver.done():
            # outside the event loop (replaying at load time) there is nothing to drive yet
            with contextlib.suppress(RuntimeError):
                self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _bot_to_act(self) -> int | None:
        if self.status != "playing" or self.deals.pending:
            return None
        seat = self.game.to_act(self.state)
        if seat is None or self.controller(seat) != "bot":
            return None
        return seat

    async def _drive(self) -> None:
        """Play while a bot (or a stand-in) is to act; a bot that fails plays one random move,
        then gets another chance; a journal that is away is waited for."""
        failures = 0
        while not self.closed and (seat := self._bot_to_act()) is not None:
            delay = flow.bot_delay(self)
            if delay > 0:
                await asyncio.sleep(delay)
            await flow.wait_holds(self)  # a player reads a hand's score sheet
            if self._bot_to_act() != seat:
                continue
            self._spend_budget(0.0)
            try:
                await self._play(seat, failures)
                failures = 0
            except Rejected as exc:
                if exc.code in ("stale_version", "not_your_turn"):
                    continue
                if exc.code == "unavailable" and self.closed:
                    return  # the server is stopping
                if exc.code == "unavailable":  # the journal is away: wait, then try again
                    await asyncio.sleep(min(0.5 * 2 ** min(failures, 5), 10.0))
                    failures = 0
                    continue
                failures += 1
                log.error("table %s: bot for seat %d was refused: %s", self.code, seat, exc)
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("table %s: bot for seat %d failed", self.code, seat)
            if failures > 3:
                await asyncio.sleep(min(0.5 * 2 ** min(failures, 6), 30.0))

    def _bot_for(self, seat: int, version: int, failures: int) -> Bot:
        """The bot that plays the seat's next move."""
        if failures:
            # a bot that just failed plays one move at random, then gets another chance
            return bot_registry.make(
                "random", self.variant, seat, derive_seed(self.seed, "seat", seat, version)
            )
        if self.bot_budget <= 0:
            # this table's bots used their thinking time: the quick stand-in plays
            return bot_registry.make(
                self.server.standin_bot(self.variant),
                self.variant,
                seat,
                derive_seed(self.seed, "seat", seat, version),
            )
        return self._bot(seat)

    async def _play(self, seat: int, failures: int) -> None:
        """One bot move for the seat, chosen on the event loop (a quick bot), in a bot worker
        process, or in a thread, and submitted as the player's would be."""
        version, state, game = self.version, self.state, self.game
        bot = self._bot_for(seat, version, failures)
        action_json: Any = None
        if self.server.plays_inline(self.meta.game, bot):
            action, checked = self._play_inline(bot, seat, state)
        elif self.server.bot_procs is not None:
            # a worker process plays; what it used is charged to this table's budget
            job = self._bot_job(seat, version, state, failures)
            action_json, cpu = await asyncio.wait_for(
                self.server.search(self.code, botpool.play, job),
                self.server.config.bot_move_cap * 4 + 10,
            )
            self._spend_budget(cpu)
            action, checked = None, False
        else:
            started = time.monotonic()
            choose = functools.partial(botpool.choose, bot, game, state, seat)
            action, checked = await self.server.search(self.code, choose)
            self._spend_budget(time.monotonic() - started)
        await self.submit(seat, version, action_json, action=action, checked=checked, by_bot=True)

    def _play_inline(self, bot: Bot, seat: int, state: Any) -> tuple[Any, bool]:
        """A quick bot's move (random, basic: ~0.1 ms a move), on the event loop, with or
        without a pool of bot processes: handing it to a thread or a worker would cost more than
        the move, and in a worker it would wait behind other tables' long searches.  It is
        charged its CPU time, not wall time, so a busy machine does not make it look slow.

        The CPU clock is a system call (~1.5 us, two a move): it is read for one move in
        ``CLOCK_EVERY`` of the table, which is charged that many times what it took (the budget
        sees the same mean; a level too slow for the loop is still found, by its timed moves)."""
        self._inline_moves += 1
        timed = self._inline_moves % CLOCK_EVERY == 1
        started = time.thread_time() if timed else 0.0
        action, checked = botpool.choose(bot, self.game, state, seat)
        if timed:
            spent = time.thread_time() - started
            self.server.inline_took(self.meta.game, bot, spent)
            self._spend_budget(spent * CLOCK_EVERY)
        self.server.bot_moves_inline += 1
        return action, checked
