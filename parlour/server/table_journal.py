"""A table's journal: reading it back when the table is loaded (the deal, then every move,
checked again by the engine and against the hash chain and the published deal commitments), and
writing the seats and status, retried while the journal is away.

The moves themselves are journaled by :meth:`parlour.server.table.Table.submit` (before anyone
hears of them); the records of the fair deal are read by ``parlour.server.table_fair``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from parlour.core.errors import ParlourError
from parlour.core.said import N_
from parlour.server.deals import chain_next, chain_start, deal_commitment, match_seed
from parlour.server.errors import JournalError, said_of
from parlour.server.storage import JournalEntry, StorageError
from parlour.server.table_base import TableBase

log = logging.getLogger("parlour.server")


class TableJournal(TableBase):
    """Replay at load time; the seats and status written back."""

    def _init_journal(self) -> None:
        self.persist_due = False
        self._retry: asyncio.Task[None] | None = None

    def _replay(self, journal: list[JournalEntry], started: bool) -> None:
        """The table as its journal left it: the deal (``started``: a ``start`` record was read),
        then each move.  Raises :class:`JournalError` for a journal that cannot be right."""
        self.heads = [chain_start(self.code, self.server_commitment)]
        self.journal_chain = [self.heads[0]]
        self.status = self.meta.status
        self.dealt = (self.legacy and self.meta.status != "waiting") or started
        self.seed = self.meta.seed if self.legacy else 0
        if started:
            self.seed = match_seed(self.secret, self.contributions)
        # before the deal the state is a placeholder nobody is shown
        self.state = self.game.new_game(self.rules, self.seed)
        if self.dealt:
            self._log(self.deals.after(self.state, 0, replaying=True))
        elif journal:
            raise JournalError(
                N_("table {code}: moves are journaled but the deal never was", code=self.code)
            )
        for e in journal:
            self._replay_move(e)
        if self.dealt:
            self._log(self.deals.finish_replay(len(self.actions)))
            for deal in self.deals.deals:
                if deal.commitment is not None and deal.commitment != deal_commitment(
                    deal.seed, deal.salt
                ):
                    raise JournalError(
                        N_(
                            "table {code}: the deal of hand {hand} does not match the "
                            "commitment published for it (the journal was changed)",
                            code=self.code,
                            hand=deal.hand + 1,
                        )
                    )
        if self.dealt and self.game.to_act(self.state) is None:
            self.status = "finished"
        if self.status == "finished":
            self.finished_at = time.monotonic()
            self._reveal_secret()
        for note in self.notes:
            log.warning("table %s: %s", self.code, note)

    def _replay_move(self, e: JournalEntry) -> None:
        try:
            action = self.game.action_from_json(e.action)
            reason = self.game.explain(self.state, action)
        except (ParlourError, ValueError, TypeError, KeyError) as exc:
            raise JournalError(
                N_(
                    "table {code}: move {move} in the journal cannot be read: {error}",
                    code=self.code,
                    move=e.index + 1,
                    error=said_of(exc),
                )
            ) from None
        if reason is not None:
            raise JournalError(
                N_(
                    "table {code}: move {move} in the journal is not legal: {reason}",
                    code=self.code,
                    move=e.index + 1,
                    reason=reason,
                )
            )
        self.state, evs = self.game.apply_unchecked(self.state, action)
        self.actions.append(e.action)
        self.timestamps.append(e.ts)
        self.heads.append(chain_next(self.heads[-1], e.action))
        self.journal_chain.append(e.chain)
        if e.chain is not None and e.chain != self.heads[-1]:
            self.notes.append(f"move {e.index + 1} does not match the chain journaled with it")
        self._log(evs)
        self._log(self.deals.after(self.state, len(self.actions), replaying=True))

    async def _write_seats(self) -> None:
        await self.server.db(
            self.server.storage.update_table,
            self.code,
            [s.stored() for s in self.seats],
            self.status,
            time.time(),
        )
        self.persist_due = False

    async def persist(self) -> None:
        """Write the seats and status; a journal that is away is retried until it answers."""
        try:
            await self._write_seats()
        except StorageError as exc:
            log.error("table %s: cannot save the seats (%s); retrying", self.code, exc)
            self.persist_due = True
            self._schedule_retry()

    def _schedule_retry(self) -> None:
        if self._retry is None or self._retry.done():
            with contextlib.suppress(RuntimeError):
                self._retry = asyncio.get_running_loop().create_task(self._retry_loop())

    async def _retry_loop(self) -> None:
        delay = 0.5
        while self.persist_due or self.deals.pending:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)
            try:
                if self.deals.pending:
                    async with self.lock:
                        await self._flush_commitments()
                        self.broadcast()
                if self.persist_due:
                    await self._write_seats()
            except StorageError as exc:
                log.warning("table %s: the journal is still away: %s", self.code, exc)
        self.kick()

    async def _flush_commitments(self) -> None:
        """Journal the deal commitments due, before anyone is told of them."""
        while self.deals.pending:
            rec = self.deals.pending[0]
            await self.server.db(
                self.server.storage.add_record, self.code, "deal_commitment", rec, time.time()
            )
            self.deals.pending.pop(0)
