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
from parlour.core.cards import card_str, counts
from parlour.games.handfoot import actions as A
from parlour.games.handfoot.legal import canonical_cards

if TYPE_CHECKING:
    from parlour.cli.tui.session import Session


def _target(words: list[str]) -> tuple[list[str], int | None]:
    lowered = [w.lower() for w in words]
    for key in ("to", "onto"):
        if key in lowered:
            k = lowered.index(key)
            rest = words[k + 1 :]
            if len(rest) != 1 or not rest[0].isdigit():
                raise CommandError("say the meld's number after 'to', e.g. add 10♥ to 2")
            return words[:k], int(rest[0]) - 1
    return words, None


class HandFootAdapter(Adapter):
    commands_help = (
        "Hand and Foot: draw · take 9♦ 9♥ [to 2] (pile) · meld 7♥ 8♥ 9♥ · add 10♥ to 2 ·\n"
        "  discard K♣ · undo (take back this turn's melds)\n"
    )

    def describe(self, action: Any, view: Any) -> str:
        if isinstance(action, A.AddToMeld):
            return f"add {card_text(action.card).plain} to meld {action.meld + 1}"
        if isinstance(action, A.TakePile) and action.meld >= 0:
            return f"take the pile, top card with {cards_text(action.cards).plain} onto meld {action.meld + 1}"
        return str(action)

    def prompt(self, view: Any) -> str:
        return f"[round {view.round + 1}, {view.phase}]> "

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
            cards_words, target = _target(rest)
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
            cards_words, target = _target(rest)
            if target is None:
                raise CommandError("add which card to which meld? e.g. add 10♥ to 2")
            return [A.AddToMeld(target, c) for c in parse_card_words(cards_words)]
        if verb == "discard":
            cards = parse_card_words(rest)
            if len(cards) != 1:
                raise CommandError("discard one card, e.g. discard K♣")
            return [A.Discard(cards[0])]
        return None

    def render(self, view: Any, session: Session) -> RenderableType:
        head = Text(
            f"Round {view.round + 1} of {view.rounds} · opening minimum {view.opening_minimum} · "
        )
        head.append(
            "match over" if view.to_act is None else f"{session.seat_name(view.to_act)} to play",
            style="bold yellow",
        )
        sides = []
        for sv in view.sides:
            t = Table(show_header=False, box=None, pad_edge=False)
            t.add_row(
                Text(
                    f"{'opened' if sv.opened else 'not down yet'} · on the board {sv.board_points}"
                    f" · needs: {', '.join(sv.missing) or 'nothing — may go out'}",
                    style="dim",
                )
            )
            for m in sv.melds:
                row = Text(f"{m.index + 1:>2}. ")
                row.append_text(cards_text(m.cards))
                if m.complete:
                    row.append(f"  {m.label.upper()}", style="bold green")
                t.add_row(row)
            if sv.red_threes:
                t.add_row(Text(f"red 3s: {len(sv.red_threes)}"))
            names = " & ".join(session.seat_name(s) for s in sv.seats)
            sides.append(
                Panel(t, title=names, border_style="green" if view.seat in sv.seats else "blue")
            )
        table = Text("pile: ")
        table.append_text(card_text(view.pile_top) if view.pile_size else Text("empty"))
        table.append(f" ({view.pile_size} cards) · stock {view.stock_size} · ")
        table.append(
            ", ".join(
                f"{session.seat_name(p.seat)} {p.hand_size}{'' if p.foot_taken else ' + foot ' + str(p.foot_size)}"
                for p in view.players
            )
        )
        mine = Text("your hand: ")
        mine.append_text(grouped_hand(view.hand))
        if view.pending_size and view.to_act == view.seat:
            up = (
                f": {' '.join(card_str(c) for c in view.pending)}"
                if view.pending
                else ", face down"
            )
            mine.append(f"\n{view.pending_size} pile cards join your hand after the discard{up}")
        return Group(
            head, Columns(sides), table, Panel(mine, border_style="yellow"), self.log_panel(session)
        )


ADAPTER = HandFootAdapter()
