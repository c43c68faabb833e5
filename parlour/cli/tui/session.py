"""The terminal play loop: one person, one seat, bots in the others."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from parlour import bots as bot_registry
from parlour import games
from parlour.bots import advice
from parlour.cli.tui import adapters
from parlour.cli.tui.commands import CommandError
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.game import Event
from parlour.core.registry import Variant
from parlour.core.replay import MatchRecord
from parlour.core.rng import derive_seed
from parlour.core.text import Names, tell
from parlour.i18n import SOURCE, Messages, game_title, messages


def help_words(t: Messages) -> str:
    """The terminal's own commands (the command words stay English: they are what you type)."""
    return t.gettext(
        "Commands (cards as 10♥, TH or th; Jk for a joker):\n"
        "  help            list the moves you can make now, numbered; a number plays that move\n"
        "  hint            what the search bot would do here, the moves it compared, and why\n"
        "  review          your decisions of the last finished hand that the search would change\n"
        "  save [FILE]     write a replayable match file (also done on Ctrl-C when --save is "
        "given)\n"
        "  quit            save (with --save) and leave\n"
    )


HELP = help_words(messages(SOURCE))


class Session:
    """A match between one person (``seat``) and bots, drawn on ``console``."""

    def __init__(
        self,
        variant: Variant,
        seat: int,
        bot_names: Sequence[str],
        seed: int,
        *,
        console: Console,
        read: Callable[[str], str] = input,
        delay: float = 0.7,
        save: Path | None = None,
        record: MatchRecord | None = None,
        hint_budget: Any = 1.0,
        review_budget: Any = 0.25,
        lang: str = SOURCE,
    ) -> None:
        #: the player's language (``--lang``, ``LANG``/``LC_ALL``) and its messages
        self.lang = lang
        self.t = messages(lang)
        self.variant = variant
        self.game = variant.game
        self.seat = seat
        self.console = console
        self.read = read
        self.delay = delay
        self.save_path = save
        self.adapter = adapters.for_game(variant.name, variant.entry.grammar)
        self.adapter.t = self.t
        adapters.set_card_language(self.t)
        players = int(variant.rules.players)  # type: ignore[attr-defined]
        if not 0 <= seat < players:
            raise ParlourError(f"--seat must be 0…{players - 1}")
        names = list(bot_names) or ["basic"]
        self.bot_names = [names[i % len(names)] for i in range(players - 1)]
        self.bots: dict[int, Any] = {}
        others = [s for s in range(players) if s != seat]
        for name, s in zip(self.bot_names, others, strict=True):
            try:
                self.bots[s] = bot_registry.make(name, variant, s, derive_seed(seed, "seat", s))
            except ParlourError:
                self.bots[s] = bot_registry.make("random", variant, s, derive_seed(seed, "seat", s))
        labels = ["you" if s == seat else self.bots[s].name for s in range(players)]
        self.record = record or MatchRecord.start(variant, seed, labels)
        self.log: list[str] = []
        self.seed = seed
        self.hint_budget = hint_budget
        self.review_budget = review_budget
        #: your decisions in the hand being played; the reviews of finished hands (in a thread)
        self.decisions: list[advice.Decision] = []
        self.reviews: list[Future[advice.HandReview]] = []
        self._reviewer: ThreadPoolExecutor | None = None
        if record is not None:
            self.state, events = record.replay(games)
            self.log.extend(self.adapter.event_text(e, self) for e in events if e.visible_to(seat))
        else:
            self.state = self.game.new_game(variant.rules, seed)

    # --- helpers ---------------------------------------------------------------------------

    @property
    def title(self) -> str:
        """The game's name in the player's language (the banner, the score sheet)."""
        return game_title(self.variant.entry.name, self.t)

    def seat_name(self, s: int) -> str:
        return self.adapter.seat_name(s, self.seat, self.game.num_seats(self.state))

    def names(self) -> Names:
        """The seats as this terminal names them (the table panel and the log alike)."""
        n = self.game.num_seats(self.state)
        return Names(
            tuple(self.seat_name(s) for s in range(n)), self.game.sides_of(self.state), self.lang
        )

    def _events(self, events: list[Event]) -> None:
        for ev in events:
            if ev.visible_to(self.seat):
                self.log.append(self.adapter.event_text(ev, self))
        del self.log[:-200]

    def save(self, path: Path | None = None) -> Path | None:
        target = path or self.save_path
        if target is None:
            return None
        self.record.outcome = self.game.outcome(self.state).to_json()
        self.record.save(target)
        return target

    def _apply(self, action: Any) -> None:
        if self.game.to_act(self.state) == self.seat:
            self.decisions.append(
                advice.Decision(
                    self.game.hand_number(self.state),
                    len(self.record.actions),
                    self.game.observe(self.state, self.seat),
                    self.game.legal_actions(self.state),
                    action,
                )
            )
        self.state, events = self.game.apply(self.state, action)
        self.record.actions.append(self.game.action_to_json(action))
        self._events(events)

    def show(self) -> None:
        view = self.game.observe(self.state, self.seat)
        self.console.print(self.adapter.render(view, self))

    # --- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        try:
            return self._run()
        except (KeyboardInterrupt, EOFError):
            where = self.save()
            t = self.t
            self.console.print(
                "\n"
                + (
                    t.gettext("bye — saved to {file}").format(file=where)
                    if where
                    else t.gettext("bye")
                )
            )
            return 130

    def _run(self) -> int:
        self.save()
        hands_seen = len(self.game.outcome(self.state).hands)
        self.show()
        while True:
            seat = self.game.to_act(self.state)
            if seat is None:
                break
            if seat != self.seat:
                view = self.game.observe(self.state, seat)
                legal = self.game.legal_actions(self.state)
                action = self.bots[seat].act(view, legal)
                if self.delay:  # the move in words, as the table's buttons say it
                    words = tell(self.game.action_words(self.state, action), self.t, self.names())
                    self.console.print(f"[dim]{escape(self.seat_name(seat))}: {escape(words)}[/]")
                    time.sleep(self.delay)
                self._apply(action)
            else:
                if not self._human_turn():
                    self.save()
                    return 0
                self.save()
            hands = self.game.outcome(self.state).hands
            if len(hands) > hands_seen:
                hands_seen = len(hands)
                self._start_review()
                self.console.print(self.adapter.score_sheet(self.game.outcome(self.state), self))
            if self.game.to_act(self.state) == self.seat:
                self.show()
        self.show()
        outcome = self.game.outcome(self.state)
        self._start_review()
        self.console.print(self.adapter.score_sheet(outcome, self))
        t = self.t
        over = (
            t.gettext("[bold]Match over[/] ({why}, cut short by a safety cap): {result}")
            if outcome.capped
            else t.gettext("[bold]Match over[/] ({why}): {result}")
        )
        self.console.print(
            over.format(why=outcome.termination, result=self.adapter.result_text(outcome, self))
        )
        self.save()
        return 0

    def _human_turn(self) -> bool:
        """Read commands until one move was made; False when the person quits."""
        while True:
            legal = self.game.legal_actions(self.state)
            view = self.game.observe(self.state, self.seat)
            adapters.set_completions(self.adapter.completions(view, legal))
            self.save()  # the file is current whenever the person is asked (and on Ctrl-C)
            try:
                text = self.read(self.adapter.prompt(view)).strip()
            except EOFError:
                return False
            if not text:
                continue
            word = text.split()[0].lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?", "h"):
                self.console.print(help_words(self.t) + escape(self.adapter.help_text()))
                for i, a in enumerate(legal, 1):
                    self.console.print(f"  {i:>3}. {self.adapter.describe(a, view)}")
                continue
            if word == "hint":
                self.console.print(self._hint(view, legal))
                continue
            if word == "review":
                self.console.print(self._review())
                continue
            if word == "save":
                parts = text.split(maxsplit=1)
                where = self.save(Path(parts[1]) if len(parts) > 1 else None)
                self.console.print(
                    self.t.gettext("saved to {file}").format(file=where)
                    if where
                    else self.t.gettext("give a file: save FILE")
                )
                continue
            if word in ("show", "look", "table"):
                self.show()
                continue
            try:
                actions = self.adapter.parse(text, view, legal)
            except CommandError as exc:
                self.console.print(f"[red]{escape(exc.told(self.t))}[/]")
                continue
            if self._apply_all(actions):
                return True

    def _apply_all(self, steps: list[Any]) -> bool:
        """Apply a command's moves all or nothing; print the rule when one is illegal."""
        state, n_actions, n_log = self.state, len(self.record.actions), len(self.log)
        n_decisions = len(self.decisions)
        try:
            for step in steps:
                action = step(self.game.observe(self.state, self.seat)) if callable(step) else step
                self._apply(action)
        except (IllegalAction, CommandError) as exc:
            self.state = state
            del self.decisions[n_decisions:]
            del self.record.actions[n_actions:]
            del self.log[n_log:]
            if self.save_path is not None:
                self.save()
            if isinstance(exc, IllegalAction):
                self.console.print(
                    self.t.gettext("[red]Not allowed:[/] {rule}").format(
                        rule=tell(exc.rule, self.t)
                    )
                )
            else:
                self.console.print(f"[red]{escape(exc.told(self.t))}[/]")
            return False
        return True

    def _hint(self, view: Any, legal: Sequence[Any]) -> str:
        """The search's suggestion from your view only (the hidden cards are dealt at random
        many times), the moves it compared with their estimated values, and why."""
        try:
            result = advice.advise(
                self.variant,
                view,
                legal,
                self.seat,
                seed=derive_seed(self.seed, "hint", len(self.record.actions)),
                budget=self.hint_budget,
            )
        except ParlourError as exc:
            return self.t.gettext("no hint: {why}").format(why=exc)
        best = result.best
        t = self.t

        def said(o: advice.Option) -> str:
            return o.text or self.adapter.describe(o.action, view)

        lines = [
            t.gettext("hint: {move} — {why}").format(move=said(best), why=tell(best.reason, t))
        ]
        ties = [said(o) for o in result.options[1:] if o.rank == 1]
        if ties:
            lines.append(
                t.gettext("  about as good (within the search's noise): {moves}").format(
                    moves="; ".join(ties)
                )
            )
        if len(result.options) > 1:
            lines.append(
                t.gettext(
                    "  compared (rank, estimated value, 0.5 = level with the others; "
                    "one rank = equal within the search's noise):"
                )
            )
            for o in result.options:
                pts = (
                    t.gettext(", about {points} points").format(points=f"{o.points:+.0f}")
                    if o.points is not None
                    else ""
                )
                lines.append(f"    {o.rank}. {o.value:.2f}{pts}  {said(o)}: {tell(o.reason, t)}")
        return "\n".join(lines)

    def _start_review(self) -> None:
        """A hand ended: review your decisions of it in a background thread."""
        if not self.decisions:
            return
        decisions, self.decisions = self.decisions, []
        if self._reviewer is None:
            self._reviewer = ThreadPoolExecutor(1, thread_name_prefix="parlour-review")
        self.reviews.append(
            self._reviewer.submit(
                advice.review,
                self.variant,
                decisions,
                self.seat,
                seed=derive_seed(self.seed, "review", decisions[0].version),
                budget=self.review_budget,
            )
        )

    def _review(self) -> str:
        if not self.reviews:
            return self.t.gettext("no hand is finished yet: the review comes after each hand")
        t = self.t
        if not self.reviews[-1].done():
            self.console.print(t.gettext("[dim]reviewing the last hand…[/]"))
        result = self.reviews[-1].result()
        lines = [
            t.gettext(
                "Review of hand {hand}: {checked} of your {decisions} decisions checked by the "
                "search"
            ).format(hand=result.hand + 1, checked=result.checked, decisions=result.decisions)
        ]
        if not result.remarks:
            lines.append(
                t.gettext("  no decision stands out: the search would have played as you did")
            )
        else:
            lines.append(
                t.gettext(
                    "  (values: the search's estimate of the hand for your side, 0.5 = level "
                    "with the others; listed only when its move is better beyond its noise)"
                )
            )
        for r in result.remarks:
            view = r.decision.view
            lines.append(
                t.gettext(
                    "  you played {chosen} ({chosen_value}); the search prefers {better} "
                    "({better_value}), +{difference}: {why}"
                ).format(
                    chosen=r.chosen.text or self.adapter.describe(r.chosen.action, view),
                    chosen_value=f"{r.chosen.value:.2f}",
                    better=r.better.text or self.adapter.describe(r.better.action, view),
                    better_value=f"{r.better.value:.2f}",
                    difference=f"{r.difference:.2f}",
                    why=tell(r.better.reason, t),
                )
            )
        return "\n".join(lines)
