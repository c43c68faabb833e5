"""Hints and post-hand reviews (issue 19): a hint is the search's suggestion from the asking
seat's view only; a review looks again at a human seat's decisions of a finished hand and
points out where another move was clearly better.  Both run in a bot worker process (a thread
when the server has none), a hint within the table's thinking budget.

Reviews belong to the person who played the hand: a seat that changes hands (``new_holder``)
drops what was kept for the previous holder.  The searches are ``parlour.bots.advice``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import Any

from parlour.bots import advice
from parlour.core.rng import derive_seed
from parlour.core.said import N_
from parlour.core.text import Names, tell
from parlour.i18n import SOURCE, messages
from parlour.server import botpool
from parlour.server.connection import Connection
from parlour.server.errors import Rejected
from parlour.server.table_base import TableBase

log = logging.getLogger("parlour.server")


class TableAdvice(TableBase):
    """Hints on request and reviews after each hand, per seat."""

    def _init_advice(self) -> None:
        #: each human seat's decisions in the hand being played, the reviews of its finished
        #: hands (newest last), the seats whose review is being searched
        self.decisions: dict[int, list[advice.Decision]] = {}
        self.reviews: dict[int, list[dict[str, Any]]] = {}
        self.reviews_due: set[int] = set()
        #: the last finished hand's decisions of seats nobody asked reviews for yet
        self._unreviewed: dict[int, list[advice.Decision]] = {}
        #: when each seat last asked for a hint, and the seats whose hint is being searched
        self._hint_at: dict[int, float] = {}
        self._hinting: set[int] = set()
        #: each seat's holder, counted up when the seat changes hands (a review searched for
        #: the one before is not kept for the next: reviews belong to the person who played)
        self._holder: dict[int, int] = {}

    def _note_decision(self, seat: int, hand: int, action: Any) -> None:
        """A human seat chose ``action`` (before it is applied): kept for the hand's review."""
        self.decisions.setdefault(seat, []).append(
            advice.Decision(
                hand,
                self.version,
                self.game.observe(self.state, seat),
                self.game.legal_actions(self.state),
                action,
            )
        )

    @property
    def hints_on(self) -> bool:
        """Hints were switched on at creation, or (by default) at most one seat is human."""
        chosen = self.meta.extra.get("hints")
        if chosen is not None:
            return bool(chosen)
        return sum(1 for s in self.seats if s.kind == "human") <= 1

    def _texts(self, view: Any, actions: list[Any]) -> list[tuple[str, str]]:
        """Moves in words, written on a determinization of the view (never the real state): the
        English text and the move's words (``Game.action_words``, told per reader by
        :func:`_told_option`)."""
        import random

        world = self.game.determinize(view, random.Random(0))
        return [
            (self.game.action_text(world, a), self.game.action_words(world, a)) for a in actions
        ]

    def _options_json(self, view: Any, options: list[advice.Option]) -> list[dict[str, Any]]:
        texts = self._texts(view, [o.action for o in options])
        return [
            {
                "action": self.game.action_to_json(o.action),
                # the hint's own words when they say more (a staged card as the meld it starts)
                "text": o.text or text,
                WORDS: o.text or words,
                "value": round(o.value, 3),
                "points": None if o.points is None else round(o.points),
                "reason": o.reason,
                # moves of one rank are within the search's noise of each other (advice.tiers)
                "rank": o.rank,
            }
            for o, (text, words) in zip(options, texts, strict=True)
        ]

    async def hint(self, conn: Connection) -> None:
        """Answer ``{"type": "hint"}``: the search's suggestion from the seat's view only, run
        in a bot worker process (a bot thread when the server has none) within the table's bot
        budget; one at a time per seat, at most one per
        ``hint_interval`` seconds."""
        cfg = self.server.config
        seat = conn.seat
        if seat is None:
            raise Rejected("spectator", N_("spectators cannot ask for hints"))
        if not self.hints_on:
            raise Rejected(
                "hints_off", N_("hints are off at this table (they are chosen when it is created)")
            )
        if self.status != "playing" or self.game.to_act(self.state) != seat:
            raise Rejected("not_your_turn", N_("a hint is for your own turn"))
        now = time.monotonic()
        wait = self._hint_at.get(seat, -1e9) + cfg.hint_interval - now
        if seat in self._hinting or wait > 0:
            raise Rejected(
                "too_many",
                N_(
                    "one hint at a time: try again in {seconds} s",
                    seconds=max(1, int(wait + 0.999)),
                ),
            )
        self._spend_budget(0.0)
        if self.bot_budget <= 0:
            raise Rejected(
                "busy", N_("this table's thinking time is used up for now; try again in a while")
            )
        version = self.version
        view = self.game.observe(self.state, seat)
        legal = self.game.legal_actions(self.state)
        budget: Any = (
            f"{cfg.hint_iterations}it"
            if cfg.hint_iterations
            else min(cfg.hint_seconds, cfg.bot_move_cap)
        )
        seed = derive_seed(0, "hint", self.code, version, seat)
        call = functools.partial(
            advice.advise, self.variant, view, legal, seat, seed=seed, budget=budget
        )
        self._hinting.add(seat)
        self._hint_at[seat] = now
        started = time.monotonic()
        spent: float | None = None
        try:
            if self.server.bot_procs is not None:
                # a worker process searches (the search never holds the event loop's
                # interpreter); the table's budget is charged the CPU time it used
                job = self._think_job(
                    "advise", (view, legal, seat), {"seed": seed, "budget": budget}
                )
                result, spent = await self.server.search(self.code, botpool.think, job, urgent=True)
            else:
                result = await self.server.search(self.code, call, urgent=True)
        finally:
            self._hinting.discard(seat)
            self._hint_at[seat] = time.monotonic()
            self._spend_budget(time.monotonic() - started if spent is None else spent)
        t = messages(conn.lang)
        # the moves and reasons in this connection's language (parlour.core.said), seats by
        # the names the table shows
        names = self._names(conn.lang)
        options = [_told_option(o, t, names) for o in self._options_json(view, result.options)]
        conn.send(
            {
                "type": "hint",
                "version": version,
                "seat": seat,
                "move": options[0]["action"],
                "text": options[0]["text"],
                "reason": options[0]["reason"],
                "value": options[0]["value"],
                "options": options,
                "rounds": result.rounds,
                "seconds": round(result.seconds, 3),
            }
        )

    def _start_reviews(self) -> None:
        """A hand ended: review each human seat's decisions of it in the background (one work
        thread, a bounded number of decisions)."""
        done = {s: d for s, d in self.decisions.items() if d}
        self.decisions = {}
        # only seats someone asked reviews for are searched now (the search shares the
        # process); the others keep their last hand, reviewed when they ask
        wanted = {}
        for seat, decisions in done.items():
            if any(c.wants_review for c in self.seats[seat].connections):
                wanted[seat] = decisions
            else:
                self._unreviewed[seat] = decisions
        self._schedule_reviews(wanted)

    def _schedule_reviews(self, done: dict[int, list[advice.Decision]]) -> None:
        if not done:
            return
        self.reviews_due.update(done)
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._review(done))

    def new_holder(self, seat: int) -> None:
        """The seat changed hands (its player left, or someone else took it): what was kept
        of the previous holder's decisions and reviews is not the new one's to read."""
        self._holder[seat] = self._holder.get(seat, 0) + 1
        self.decisions.pop(seat, None)
        self.reviews.pop(seat, None)
        self._unreviewed.pop(seat, None)
        self.reviews_due.discard(seat)

    async def _review(self, done: dict[int, list[advice.Decision]]) -> None:
        cfg = self.server.config
        budget: Any = f"{cfg.review_iterations}it" if cfg.review_iterations else cfg.review_seconds
        loop = asyncio.get_running_loop()
        holders = {seat: self._holder.get(seat, 0) for seat in done}
        for seat, decisions in done.items():
            kwargs = {
                "seed": derive_seed(0, "review", self.code, seat),
                "budget": budget,
                "most": cfg.review_decisions,
                "threshold": cfg.review_threshold,
            }
            try:
                if self.server.bot_procs is not None:
                    # in a bot worker process, like hints; a review is not charged to the
                    # table's bot budget (it runs after the hand, once per hand and seat)
                    job = self._think_job("review", (decisions, seat), kwargs)
                    result, _ = await self.server.search(self.code, botpool.think, job)
                else:
                    call = functools.partial(advice.review, self.variant, decisions, seat, **kwargs)
                    result = await loop.run_in_executor(self.server.work_pool, call)
                entry = self._review_json(result)
            except Exception:
                log.exception("table %s: the review of seat %d failed", self.code, seat)
                entry = None
            finally:
                self.reviews_due.discard(seat)
            if self._holder.get(seat, 0) != holders[seat]:
                continue  # the seat changed hands while its review was searched
            if entry is not None:
                kept = self.reviews.setdefault(seat, [])
                kept.append(entry)
                del kept[:-10]
            for conn in self.seats[seat].connections:
                if conn.wants_review:
                    self.send_review(conn)

    def _review_json(self, result: advice.HandReview) -> dict[str, Any]:
        remarks = []
        for r in result.remarks:
            chosen, better = self._options_json(r.decision.view, [r.chosen, r.better])
            remarks.append(
                {
                    "version": r.decision.version,
                    "played": chosen,
                    "better": better,
                    "difference": round(r.difference, advice.DIFFERENCE_DIGITS),
                }
            )
        return {
            "hand": result.hand + 1,
            "decisions": result.decisions,
            "checked": result.checked,
            "remarks": remarks,
        }

    def send_review(self, conn: Connection) -> None:
        """``{"type": "review"}``: the reviews of the seat's finished hands (newest last)."""
        seat = conn.seat
        if seat is None:
            raise Rejected("spectator", N_("a review is of your own decisions: take a seat"))
        conn.wants_review = True
        waiting = self._unreviewed.pop(seat, None)
        if waiting:
            self._schedule_reviews({seat: waiting})
        conn.send(
            {
                "type": "review",
                "seat": seat,
                "pending": seat in self.reviews_due,
                "threshold": self.server.config.review_threshold,
                "hands": _told(
                    self.reviews.get(seat, []), messages(conn.lang), self._names(conn.lang)
                ),
            }
        )

    def _names(self, lang: str) -> Names:
        """The seats' names as this table shows them in ``lang`` (a hint's "… plays first")."""
        state = self.state
        return Names.table(
            self.game.num_seats(state), self.game.sides_of(state), self.player_names(), lang
        )

    def _think_job(
        self, kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> botpool.ThinkJob:
        """A hint's or a review's search for a bot worker process."""
        return botpool.ThinkJob(
            **self._job_variant(),
            kind=kind,
            args=args,
            kwargs=kwargs,
        )


#: an option's key for the move's words (told in the reader's language, never sent as is)
WORDS = "_words"


def _told_option(option: dict[str, Any], t: Any, names: Names | None = None) -> dict[str, Any]:
    """An option of a hint or review as one connection reads it: the move (English: the
    engine's text, as before) and the reason in its language (``parlour.core.said``)."""
    out = {k: v for k, v in option.items() if k != WORDS}
    if t.lang != SOURCE:
        out["text"] = tell(option.get(WORDS, option["text"]), t, names)
    out["reason"] = tell(option["reason"], t, names)
    return out


def _told(hands: list[dict[str, Any]], t: Any, names: Names | None = None) -> list[dict[str, Any]]:
    """The reviews with each move and its reason in one connection's language
    (``parlour.core.said``: the kept reviews hold them as the search gave them)."""
    out = []
    for hand in hands:
        remarks = [
            {
                **r,
                "played": _told_option(r["played"], t, names),
                "better": _told_option(r["better"], t, names),
            }
            for r in hand["remarks"]
        ]
        out.append({**hand, "remarks": remarks})
    return out
