"""Scat / 31 at the terminal: ``draw``, ``take`` (the discard), ``knock``, ``discard K♣``
(``discard K♣ 31`` declares a 31 made with that discard), ``declare`` (a dealt 31), ``hammer``,
``throw`` / ``play on``, ``end`` (stock exhausted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from parlour.cli.tui.adapters import Adapter, card_text, cards_text, sort_key
from parlour.cli.tui.commands import CommandError, parse_card_words
from parlour.games.scat import actions as S

if TYPE_CHECKING:
    from parlour.cli.tui.session import Session


class ScatAdapter(Adapter):
    def help_text(self) -> str:
        return self.t.gettext(
            "Scat: draw · take (the discard) · knock · discard K♣ (add 31 to declare a 31) ·\n"
            "  declare (a dealt 31) · hammer · throw / play on · end (when the stock is empty)\n"
        )

    def prompt(self, view: Any) -> str:
        value = (
            ""
            if view.hand_value is None
            else self.t.gettext("hand {value}").format(value=f"{view.hand_value:g}")
        )
        return f"[{view.phase} {value}]> "

    def macro(self, words: list[str], view: Any, legal: Sequence[Any]) -> list[Any] | None:
        if not words:
            return None
        verb, rest = words[0].lower(), [w.lower() for w in words[1:]]
        simple = {
            "draw": S.DrawStock(),
            "take": S.TakeDiscard(),
            "knock": S.Knock(),
            "hammer": S.Hammer(),
            "declare": S.Declare31(),
            "end": S.EndHand(),
            "throw": S.ThrowDown(True),
        }
        if verb in simple and not rest:
            return [simple[verb]]
        if verb == "play" and rest == ["on"]:
            return [S.ThrowDown(False)]
        if verb == "discard":
            declare = "31" in rest or "declare" in rest
            cards = parse_card_words([w for w in words[1:] if w.lower() not in ("31", "declare")])
            if len(cards) != 1:
                raise CommandError(self.t.gettext("discard one card, e.g. discard K♣"))
            return [S.Discard(cards[0], declare)]
        return None

    def render(self, view: Any, session: Session) -> RenderableType:
        w = self.t
        head = Text(
            w.gettext("Hand {hand} · dealer {dealer} · ").format(
                hand=view.hand_number + 1, dealer=session.seat_name(view.dealer)
            )
        )
        head.append(
            w.gettext("game over")
            if view.to_act is None
            else w.gettext("Your turn")
            if view.to_act == session.seat
            else w.gettext("{player} to play").format(player=session.seat_name(view.to_act)),
            style="bold yellow",
        )
        if view.knocker is not None:
            head.append(
                w.gettext(" · {player} knocked").format(player=session.seat_name(view.knocker)),
                style="bold red",
            )
        lives = Text()
        # each seat's standing ("3 pennies", "on the county") told as the table tells it
        told = session.game.tell_view(session.state, {}, w)["status"]
        for s, n in enumerate(view.lives):
            status = told[s] if s < len(told) else ""
            lives.append(
                f"{session.seat_name(s)}: "
                + w.ngettext("{count} life", "{count} lives", n).format(count=n)
                + (f" ({status})" if status else "")
                + " · "
                + w.ngettext("{count} card", "{count} cards", view.hand_sizes[s]).format(
                    count=view.hand_sizes[s]
                )
                + "\n"
            )
        table = Text(w.gettext("pile top: "))
        table.append_text(card_text(view.pile_top))
        table.append(
            w.ngettext(
                " ({count} card) · stock {stock}",
                " ({count} cards) · stock {stock}",
                view.pile_size,
            ).format(count=view.pile_size, stock=view.stock_size)
        )
        mine = Text(w.gettext("your hand: "))
        mine.append_text(cards_text(sorted(view.hand, key=sort_key)))
        if view.hand_value is not None:
            mine.append(f"  = {view.hand_value:g}")
        parts: list[RenderableType] = [
            head,
            Panel(lives, title=w.gettext("players"), border_style="blue"),
            table,
            Panel(mine, border_style="yellow"),
        ]
        if view.last_hand is not None:
            shown = "\n".join(
                f"{session.seat_name(sc.seat)}: {cards_text(sc.cards).plain}"
                for sc in view.last_hand.shown
            )
            parts.append(
                Panel(
                    shown or "—",
                    title=w.gettext("last showdown ({why})").format(why=view.last_hand.reason),
                )
            )
        parts.append(self.log_panel(session))
        return Group(*parts)


ADAPTER = ScatAdapter()
