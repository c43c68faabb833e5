"""Cheat at the terminal: ``play 7♥ 7♣`` (claims the rank in turn), ``play 7♥ 2♠ as 7``,
``cheat`` (also ``challenge``, ``bullshit``, ``doubt``), ``pass``, ``first 2``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from parlour.cli.tui.adapters import Adapter, cards_text, sort_key
from parlour.cli.tui.commands import CommandError, parse_card_words, rank_word
from parlour.core.cards import rank_of, rank_str
from parlour.core.text import rank_in
from parlour.games.cheat import actions as A

if TYPE_CHECKING:
    from parlour.cli.tui.session import Session

CHALLENGE_WORDS = {"cheat", "challenge", "bullshit", "bs", "doubt", "cheat!"}


class CheatAdapter(Adapter):
    def help_text(self) -> str:
        return self.t.gettext(
            "Cheat: play 7♥ 7♣ (claims the rank in turn) · play 7♥ 2♠ as 7 · cheat (challenge) ·\n"
            "  pass (let the play stand) · first N (choose who starts, where the rules ask)\n"
        )

    def _rank(self, rank: int) -> str:
        return rank_in(rank, self.t)

    def prompt(self, view: Any) -> str:
        t = self.t
        if view.phase in ("window", "late"):
            last = view.claims[-1] if view.claims else None
            if last is not None:
                return t.gettext("[cheat or pass on {count} × {rank}]> ").format(
                    count=last.count, rank=self._rank(last.rank)
                )
            return t.gettext("[cheat or pass]> ")
        ranks = "/".join(self._rank(r) for r in view.allowed_ranks) or t.gettext("any")
        return t.gettext("[play, claiming {ranks}]> ").format(ranks=ranks)

    def macro(self, words: list[str], view: Any, legal: Sequence[Any]) -> list[Any] | None:
        if not words:
            return None
        verb, rest = words[0].lower(), words[1:]
        if verb in CHALLENGE_WORDS or " ".join(w.lower() for w in words) == "i doubt it":
            return [A.Challenge()]
        if verb == "pass" and not rest:
            return [A.Pass()]
        if verb == "first" and len(rest) == 1 and rest[0].isdigit():
            return [A.ChooseFirst(int(rest[0]))]
        if verb != "play":
            return None
        lowered = [w.lower() for w in rest]
        rank: int | None = None
        if "as" in lowered:
            k = lowered.index("as")
            if k + 1 >= len(rest):
                raise CommandError(
                    self.t.gettext("play which cards as which rank? e.g. play 7♥ 7♣ as 7")
                )
            rank = rank_word(rest[k + 1])
            rest = rest[:k]
        cards = sorted(parse_card_words(rest))
        if not cards and not view.selection:
            raise CommandError(self.t.gettext("play which cards? e.g. play 7♥ 7♣"))
        count = len(cards) + len(view.selection)
        if rank is None:
            allowed = list(view.allowed_ranks)
            if len(allowed) == 1:
                rank = allowed[0]
            else:
                natural = {rank_of(c) for c in cards if rank_of(c) in allowed}
                if len(natural) != 1:
                    raise CommandError(
                        self.t.gettext("say which rank you claim ({ranks}): play … as R").format(
                            ranks="/".join(rank_str(r) for r in allowed)
                        )
                    )
                rank = natural.pop()
        return [*(A.Pick(c) for c in cards), A.Claim(count, rank)]

    def render(self, view: Any, session: Session) -> RenderableType:
        t = self.t
        head = Text()
        turn = (
            t.gettext("game over")
            if view.to_act is None
            else t.gettext("Your turn")
            if view.to_act == session.seat
            else t.gettext("{player} to act").format(player=session.seat_name(view.to_act))
        )
        head.append(turn, style="bold yellow")
        head.append(
            t.ngettext(
                " · pile {count} card · hands: ", " · pile {count} cards · hands: ", view.pile_size
            ).format(count=view.pile_size)
        )
        head.append(", ".join(f"{session.seat_name(s)} {n}" for s, n in enumerate(view.hand_sizes)))
        if view.out:
            head.append(
                t.gettext(" · out: {players}").format(
                    players=", ".join(session.seat_name(s) for s in view.out)
                )
            )
        claims = Text()
        for c in view.claims[-6:]:
            claims.append(
                t.gettext("{player} claims {count} × {rank}").format(
                    player=session.seat_name(c.seat), count=c.count, rank=self._rank(c.rank)
                )
                + "\n"
            )
        mine = Text(t.gettext("your hand: "))
        mine.append_text(cards_text(sorted(view.hand, key=sort_key)))
        if view.selection:
            mine.append("\n" + t.gettext("picked: "))
            mine.append_text(cards_text(view.selection))
        if view.allowed_ranks and view.phase not in ("window", "late"):
            mine.append(
                "\n"
                + t.gettext("you may claim: {ranks}").format(
                    ranks=", ".join(self._rank(r) for r in view.allowed_ranks)
                )
            )
        return Group(
            head,
            Panel(
                claims or t.gettext("no claims yet"), title=t.gettext("claims"), border_style="blue"
            ),
            Panel(mine, border_style="yellow"),
            self.log_panel(session),
        )


ADAPTER = CheatAdapter()
