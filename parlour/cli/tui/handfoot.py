"""Samba Hand and Foot at the terminal: ``draw``, ``take 9♦ 9♥`` (the pile, top card with two
hand cards; ``take 9♦ 9♥ to 2`` onto meld 2), ``meld 7♥ 8♥ 9♥``, ``add 10♥ to 2``,
``discard K♣``, ``undo`` (take back this turn's melds).  Melds are numbered from 1."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from parlour.cli.tui.adapters import Adapter, card_text, cards_text
from parlour.cli.tui.commands import CommandError, parse_card_words
from parlour.cli.tui.samba import grouped_hand
from parlour.core.cards import counts
from parlour.core.text import tell
from parlour.games.handfoot import actions as A
from parlour.games.handfoot.legal import canonical_cards
from parlour.games.handfoot.scoring import missing_book_words
from parlour.i18n import Messages

if TYPE_CHECKING:
    from parlour.cli.tui.session import Session


def _target(words: list[str], t: Messages) -> tuple[list[str], int | None]:
    lowered = [w.lower() for w in words]
    for key in ("to", "onto"):
        if key in lowered:
            k = lowered.index(key)
            rest = words[k + 1 :]
            if len(rest) != 1 or not rest[0].isdigit():
                raise CommandError(t.gettext("say the meld's number after 'to', e.g. add 10♥ to 2"))
            return words[:k], int(rest[0]) - 1
    return words, None


def book_label(meld: Any, t: Messages) -> str:
    """A finished meld as the needs line counts it: samba, book of 7s, wild book, clean or dirty
    book (the words of the web table, ``parlour/web/js/handfoot.js``)."""
    if meld.samba:
        return t.pgettext("meld", "samba")
    if meld.sevens:
        return t.gettext("book of 7s")
    if meld.wilds:
        return t.gettext("wild book")
    if meld.clean:
        return t.gettext("clean book")
    if meld.dirty:
        return t.gettext("dirty book")
    return str(meld.label)


class HandFootAdapter(Adapter):
    def help_text(self) -> str:
        return self.t.gettext(
            "Hand and Foot: draw · take 9♦ 9♥ [to 2] (pile) · meld 7♥ 8♥ 9♥ · add 10♥ to 2 ·\n"
            "  discard K♣ · undo (take back this turn's melds)\n"
        )

    def describe(self, action: Any, view: Any) -> str:
        """A move in the player's language, melds numbered from 1 as the table shows them."""
        t = self.t
        if isinstance(action, A.Draw):
            return t.gettext("draw")
        if isinstance(action, A.AddToMeld):
            return t.gettext("add {card} to meld {meld}").format(
                card=card_text(action.card).plain, meld=action.meld + 1
            )
        if isinstance(action, A.TakePile):
            cards = cards_text(action.cards).plain
            if action.meld < 0:
                return t.gettext("take the pile, top card with {cards} onto a new meld").format(
                    cards=cards
                )
            return t.gettext("take the pile, top card with {cards} onto meld {meld}").format(
                cards=cards, meld=action.meld + 1
            )
        if isinstance(action, A.Meld):
            return t.gettext("meld {cards}").format(cards=cards_text(action.cards).plain)
        if isinstance(action, A.Discard):
            return t.gettext("discard {card}").format(card=card_text(action.card).plain)
        if isinstance(action, A.Retract):
            return t.gettext("take back this turn's melds")
        return str(action)

    def prompt(self, view: Any) -> str:
        t = self.t
        phase = {
            "draw": t.gettext("draw or take"),
            "play": t.gettext("meld / discard"),
            "over": t.gettext("match over"),
        }.get(view.phase, view.phase)
        return t.gettext("[round {round}, {phase}]> ").format(round=view.round + 1, phase=phase)

    def macro(self, words: list[str], view: Any, legal: Sequence[Any]) -> list[Any] | None:
        actions = self._macro(words, view, legal)
        if actions is None:
            return None
        # the suits of 2s, 4s–7s and black 3s never matter: play the one the table lists
        hand = counts(view.hand)
        out = []
        for a in actions:
            try:
                if isinstance(a, A.Meld):
                    a = A.Meld(canonical_cards(hand, a.cards))
                elif isinstance(a, A.TakePile):
                    a = A.TakePile(canonical_cards(hand, a.cards), a.meld)
                elif isinstance(a, A.AddToMeld):
                    a = A.AddToMeld(a.meld, canonical_cards(hand, (a.card,))[0])
                elif isinstance(a, A.Discard):
                    a = A.Discard(canonical_cards(hand, (a.card,))[0])
            except (ValueError, KeyError, IndexError):
                pass  # not held: the engine explains
            out.append(a)
        return out

    def _macro(self, words: list[str], view: Any, legal: Sequence[Any]) -> list[Any] | None:
        if not words:
            return None
        verb, rest = words[0].lower(), words[1:]
        if verb == "draw" and not rest:
            return [A.Draw()]
        if verb == "undo" and not rest:
            return [A.Retract()]
        if verb == "take":
            cards_words, target = _target(rest, self.t)
            cards = sorted(parse_card_words(cards_words))
            meld = -1 if target is None else target
            for a in legal:
                if isinstance(a, A.TakePile) and sorted(a.cards) == cards and a.meld == meld:
                    return [a]
            return [A.TakePile(tuple(cards), meld)]
        if verb == "meld":
            cards = sorted(parse_card_words(rest))
            for a in legal:
                if isinstance(a, A.Meld) and sorted(a.cards) == cards:
                    return [a]
            return [A.Meld(tuple(cards))]
        if verb == "add":
            cards_words, target = _target(rest, self.t)
            if target is None:
                raise CommandError(
                    self.t.gettext("add which card to which meld? e.g. add 10♥ to 2")
                )
            return [A.AddToMeld(target, c) for c in parse_card_words(cards_words)]
        if verb == "discard":
            cards = parse_card_words(rest)
            if len(cards) != 1:
                raise CommandError(self.t.gettext("discard one card, e.g. discard K♣"))
            return [A.Discard(cards[0])]
        return None

    def render(self, view: Any, session: Session) -> RenderableType:
        t = self.t
        head = Text(
            t.gettext("Round {round} of {rounds} · opening minimum {minimum} · ").format(
                round=view.round + 1, rounds=view.rounds, minimum=t.number(view.opening_minimum)
            )
        )
        head.append(
            t.gettext("match over")
            if view.to_act is None
            else t.gettext("Your turn")
            if view.to_act == session.seat
            else t.gettext("{player} to play").format(player=session.seat_name(view.to_act)),
            style="bold yellow",
        )
        sides = []
        for sv in view.sides:
            table = Table(show_header=False, box=None, pad_edge=False)
            missing = [tell(w, t) for w in missing_book_words(view.rules, (), dict(sv.books))]
            table.add_row(
                Text(
                    t.gettext("{status} · on the board {points} · needs: {missing}").format(
                        status=t.pgettext("hand and foot side", "opened")
                        if sv.opened
                        else t.gettext("not down yet"),
                        points=t.number(sv.board_points),
                        missing=", ".join(missing) or t.gettext("nothing — may go out"),
                    ),
                    style="dim",
                )
            )
            for m in sv.melds:
                row = Text(f"{m.index + 1:>2}. ")
                row.append_text(cards_text(m.cards))
                if m.complete:
                    row.append(f"  {book_label(m, t).upper()}", style="bold green")
                table.add_row(row)
            if sv.red_threes:
                table.add_row(Text(t.gettext("red 3s: {count}").format(count=len(sv.red_threes))))
            names = " & ".join(session.seat_name(s) for s in sv.seats)
            sides.append(
                Panel(table, title=names, border_style="green" if view.seat in sv.seats else "blue")
            )
        pile = Text(t.gettext("pile: "))
        pile.append_text(card_text(view.pile_top) if view.pile_size else Text(t.gettext("empty")))
        pile.append(
            t.ngettext(
                " ({count} card) · stock {stock}",
                " ({count} cards) · stock {stock}",
                view.pile_size,
            ).format(count=view.pile_size, stock=view.stock_size)
            + " · "
        )
        pile.append(
            ", ".join(
                f"{session.seat_name(p.seat)} {p.hand_size}"
                if p.foot_taken
                else t.gettext("{player} {count} + foot {foot}").format(
                    player=session.seat_name(p.seat), count=p.hand_size, foot=p.foot_size
                )
                for p in view.players
            )
        )
        mine = Text(t.gettext("your hand: "))
        mine.append_text(grouped_hand(view.hand))
        if view.pending_size and view.to_act == view.seat:
            n = view.pending_size
            if view.pending:
                waiting = t.ngettext(
                    "{count} pile card joins your hand after the discard: {cards}",
                    "{count} pile cards join your hand after the discard: {cards}",
                    n,
                ).format(count=n, cards=cards_text(view.pending).plain)
            else:
                waiting = t.ngettext(
                    "{count} pile card joins your hand after the discard, face down",
                    "{count} pile cards join your hand after the discard, face down",
                    n,
                ).format(count=n)
            mine.append("\n" + waiting)
        return Group(
            head, Columns(sides), pile, Panel(mine, border_style="yellow"), self.log_panel(session)
        )


ADAPTER = HandFootAdapter()
