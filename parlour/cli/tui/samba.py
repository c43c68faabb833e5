"""Samba at the terminal: the hand sorted as players hold it, melds per side, and commands
``draw``, ``take 9♦ 9♥``, ``take top 2``, ``meld 7♥ 8♥ 9♥``, ``add 10♥ to 2``, ``merge 3 into 1``,
``red``, ``discard K♣``, ``pass``, ``ask``, ``yes``/``no``, ``undo``.  Melds are numbered from 1."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from parlour.cli.tui.adapters import Adapter, card_text, cards_text, sort_key
from parlour.cli.tui.commands import CommandError, parse_card_words
from parlour.core.canasta import RED_THREES
from parlour.core.cards import JOKER, rank_of, suit_of
from parlour.core.text import tell
from parlour.games.samba import actions as A
from parlour.games.samba.text import action_words
from parlour.i18n import Messages

if TYPE_CHECKING:
    from parlour.cli.tui.session import Session

RED3 = RED_THREES


def is_wild(c: int) -> bool:
    return c == JOKER or rank_of(c) == 2


def grouped_hand(hand: Sequence[int]) -> Text:
    """Naturals by rank, then 3s, then wilds — the way Samba players sort (seed 002 tips)."""
    naturals = sorted((c for c in hand if not is_wild(c) and rank_of(c) != 3), key=sort_key)
    threes = sorted((c for c in hand if rank_of(c) == 3), key=sort_key)
    wilds = sorted((c for c in hand if is_wild(c)), key=lambda c: (c == JOKER, suit_of(c)))
    out = Text()
    last_rank = None
    for c in naturals:
        if last_rank is not None:
            out.append("  " if rank_of(c) != last_rank else " ")
        out.append_text(card_text(c))
        last_rank = rank_of(c)
    for part in (threes, wilds):
        if part:
            out.append("   │ ")
            out.append_text(cards_text(part))
    return out


def meld_label(meld: Any, t: Messages) -> str:
    """A finished meld's tag as the web table says it (``parlour/web/js/samba.js``)."""
    if getattr(meld, "bolivia", False):
        return t.pgettext("meld", "bolivia")
    if meld.samba:
        return t.pgettext("meld", "samba")
    if meld.canasta == "pure":
        return t.gettext("pure canasta")
    if meld.canasta == "mixed":
        return t.gettext("mixed canasta")
    return ""


class SambaAdapter(Adapter):
    def help_text(self) -> str:
        return self.t.gettext(
            "Samba: draw · take 9♦ 9♥ (pile with a pair) · take top 2 (top card onto sequence 2) ·\n"
            "  meld 7♥ 8♥ 9♥ · add 10♥ to 2 · merge 3 into 1 · red (lay red 3s) · discard K♣ ·\n"
            "  pass · ask (partner, may I go out?) · yes / no · undo (take back a staged meld)\n"
        )

    def describe(self, action: Any, view: Any) -> str:
        """A move as the table's button says it, in the player's language (melds numbered from
        1)."""
        return tell(action_words(action), self.t)

    def prompt(self, view: Any) -> str:
        t = self.t
        phase = {
            "draw": t.gettext("draw or take"),
            "meld": t.gettext("meld / discard"),
            "pile_open": t.gettext("open with the pile"),
            "answer": t.gettext("answer your partner"),
        }.get(view.phase, view.phase)
        return f"[{phase}]> "

    def _my_side(self, view: Any) -> Any:
        for sv in view.sides:
            if view.seat in sv.seats:
                return sv
        raise CommandError(self.t.gettext("you have no side"))

    def macro(self, words: list[str], view: Any, legal: Sequence[Any]) -> list[Any] | None:
        if not words:
            return None
        verb, rest = words[0].lower(), words[1:]
        if verb == "draw" and not rest:
            return [A.Draw()]
        if verb == "take":
            if rest and rest[0].lower() == "top":
                nums = [w for w in rest[1:] if w.isdigit()]
                if not nums:
                    seqs = [a for a in legal if isinstance(a, A.TakeTop)]
                    if len(seqs) == 1:
                        return [seqs[0]]
                    raise CommandError(self.t.gettext("say which sequence: take top N"))
                return [A.TakeTop(int(nums[0]) - 1)]
            cards = parse_card_words(rest)
            if len(cards) != 2:
                raise CommandError(
                    self.t.gettext(
                        "take the pile with two cards of the top card's rank: take 9♦ 9♥"
                    )
                )
            for a in legal:
                if isinstance(a, A.TakePile) and sorted(a.pair) == sorted(cards):
                    return [a]
            return [A.TakePile(tuple(sorted(cards)))]
        if verb == "meld":
            cards = parse_card_words(rest)
            if not cards:
                raise CommandError(self.t.gettext("meld which cards? e.g. meld 7♥ 8♥ 9♥"))
            if all(rank_of(c) == 3 and c not in RED3 for c in cards):
                return [A.MeldBlackThrees(tuple(sorted(cards)))]
            steps: list[Any] = []
            staged_before = len(view.pending)
            for i, c in enumerate(cards):
                if staged_before + i < 3:
                    steps.append(A.Stage(c))
                else:
                    steps.append(lambda v, c=c: A.AddToMeld(len(self._my_side(v).melds) - 1, c))
            return steps
        if verb == "add":
            if "to" in [w.lower() for w in rest]:
                k = [w.lower() for w in rest].index("to")
                cards, target = parse_card_words(rest[:k]), rest[k + 1 :]
            else:
                cards, target = parse_card_words(rest[:-1]), rest[-1:]
            if not target or not target[0].isdigit() or not cards:
                raise CommandError(
                    self.t.gettext("add which card to which meld? e.g. add 10♥ to 2")
                )
            return [A.AddToMeld(int(target[0]) - 1, c) for c in cards]
        if verb == "merge":
            targets = [int(w) for w in rest if w.isdigit()]
            if len(targets) != 2:
                raise CommandError(self.t.gettext("merge which groups? e.g. merge 3 into 1"))
            return [A.MergeGroups(targets[1] - 1, targets[0] - 1)]
        if verb in ("red", "lay"):
            cards = parse_card_words(rest) if rest else [c for c in view.hand if c in RED3]
            if not cards:
                raise CommandError(self.t.gettext("you hold no red 3"))
            return [A.LayRedThree(c) for c in cards]
        if verb == "discard":
            cards = parse_card_words(rest)
            if len(cards) != 1:
                raise CommandError(self.t.gettext("discard one card, e.g. discard K♣"))
            return [A.Discard(cards[0])]
        if verb == "pass" and not rest:
            return [A.Pass()]
        if verb == "ask":
            return [A.AskGoOut()]
        if verb in ("yes", "no") and not rest:
            return [A.AnswerGoOut(verb == "yes")]
        if verb == "undo":
            for a in legal:
                if isinstance(a, A.Unstage | A.UndoOpening):
                    return [a]
            raise CommandError(
                self.t.gettext(
                    "nothing to take back: undo takes back a meld being built or an "
                    "opening that does not reach the minimum"
                )
            )
        return None

    def render(self, view: Any, session: Session) -> RenderableType:
        n = len(view.players)
        me = view.seat
        w = self.t
        head = Text()
        head.append(
            w.gettext("Hand {hand} · dealer {dealer} · ").format(
                hand=view.hand_number + 1, dealer=session.seat_name(view.dealer)
            )
        )
        turn = (
            w.gettext("match over")
            if view.to_act is None
            else w.gettext("Your turn")
            if view.to_act == session.seat
            else w.gettext("{player} to play").format(player=session.seat_name(view.to_act))
        )
        head.append(turn, style="bold yellow")
        if view.asked:
            head.append(w.gettext(" · asked partner to go out"), style="cyan")
        if view.permission == "yes":
            head.append(w.gettext(" · partner said yes"), style="cyan")
        elif view.permission:
            head.append(w.gettext(" · partner said no"), style="cyan")
        sides = []
        for sv in view.sides:
            names = " & ".join(session.seat_name(s) for s in sv.seats)
            t = Table(show_header=False, box=None, pad_edge=False)
            t.add_row(
                Text(
                    w.gettext("score {score} · needs {points} to open").format(
                        score=self._points(sv.score), points=w.number(sv.opening_minimum)
                    )
                    + (w.gettext(" · opened") if sv.opened else "")
                    + (w.gettext(" · may go out") if sv.can_go_out else ""),
                    style="dim",
                )
            )
            for i, m in enumerate(sv.melds):
                row = Text(f"{i + 1:>2}. ")
                row.append_text(cards_text(m.cards))
                label = meld_label(m, w).upper()
                if label:
                    row.append(f"  {label}", style="bold green")
                t.add_row(row)
            if sv.red_threes:
                row = Text(w.gettext("red 3s: "))
                row.append_text(cards_text(sv.red_threes))
                t.add_row(row)
            style = "green" if me in sv.seats else "blue"
            sides.append(Panel(t, title=names, border_style=style))
        table = Text()
        table.append(w.gettext("pile: "))
        table.append_text(card_text(view.pile_top) if view.pile_size else Text(w.gettext("empty")))
        table.append(
            w.ngettext(
                " ({count} card)   stock: {stock}   hands: ",
                " ({count} cards)   stock: {stock}   hands: ",
                view.pile_size,
            ).format(count=view.pile_size, stock=view.stock_size)
        )
        table.append(", ".join(f"{session.seat_name(p.seat)} {p.hand_size}" for p in view.players))
        known = [p for p in view.players if p.known and p.seat != me]
        for p in known:
            table.append(
                "\n"
                + w.gettext("{player} holds (from the pile): ").format(
                    player=session.seat_name(p.seat)
                )
            )
            table.append_text(cards_text(p.known))
        mine = Text(w.gettext("your hand: "))
        mine.append_text(grouped_hand(view.hand))
        mine.append(
            "  "
            + w.ngettext("({count} card)", "({count} cards)", len(view.hand)).format(
                count=len(view.hand)
            )
        )
        if view.pending:
            mine.append("\n" + w.gettext("being melded: "))
            mine.append_text(cards_text(view.pending))
        del n
        return Group(
            head, Columns(sides), table, Panel(mine, border_style="yellow"), self.log_panel(session)
        )


ADAPTER = SambaAdapter()
