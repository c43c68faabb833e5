"""Per-game terminal adapters: how a view is drawn and what typed commands mean.

:class:`Adapter` is the generic base (any game: views drawn field by field, moves by number or
by their own text); subclasses add a game's layout and card-player commands."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from parlour.cli.tui.commands import CommandError, match_generic
from parlour.core.cards import JOKER, card_str, rank_of, suit_of
from parlour.core.codec import to_json
from parlour.core.game import Event, Outcome
from parlour.core.grammar import Grammar
from parlour.core.text import card_in, compass, hand_note, sentence
from parlour.i18n import SOURCE, Messages, messages

if TYPE_CHECKING:
    from parlour.cli.tui.session import Session


_completions: list[str] = []


def set_completions(words: list[str]) -> None:
    _completions[:] = words


def _complete(text: str, state: int) -> str | None:
    matches = [w for w in _completions if w.lower().startswith(text.lower())]
    return matches[state] if state < len(matches) else None


def install_readline() -> None:
    """Tab completion where the terminal supports it."""
    try:
        import readline
    except ImportError:  # pragma: no cover - not on this platform
        return
    readline.set_completer(_complete)
    readline.set_completer_delims(" \t,")
    readline.parse_and_bind("tab: complete")


#: the language of the cards drawn by :func:`card_text` (the session sets it: ``--lang``)
_card_words: list[Messages] = [messages(SOURCE)]


def set_card_language(t: Messages) -> None:
    _card_words[0] = t


def card_text(card: int) -> Text:
    """A card in colour: red suits red, jokers magenta (its letters in the player's language:
    ``H♠`` is the Dutch heer)."""
    if card < 0:
        return Text("—")
    style = "bold magenta" if card == JOKER else ("bold red" if suit_of(card) in (1, 2) else "bold")
    t = _card_words[0]
    return Text(card_str(card) if t.lang == SOURCE else card_in(card, t), style=style)


def cards_text(cards: Sequence[int], sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c))
    return out


class Adapter:
    """Generic terminal adapter."""

    commands_help = ""
    #: the game's action grammar (set by :func:`for_game` from the game's spec)
    grammar: Grammar | None = None
    #: the player's messages (the session sets them: ``--lang``)
    t: Messages = messages(SOURCE)

    def seat_name(self, seat: int, me: int, players: int) -> str:
        if seat == me:
            return self.t.gettext("You")
        if players == 4:
            return compass(seat - me, self.t)
        return self.t.gettext("Seat {n}").format(n=seat)

    def prompt(self, view: Any) -> str:
        return self.t.gettext("your move> ")

    def help_text(self) -> str:
        return self.commands_help

    def describe(self, action: Any, view: Any) -> str:
        return self.grammar.format(action) if self.grammar is not None else str(action)

    def event_text(self, event: Event, session: Session) -> str:
        """The event in the game's words for the player at this terminal, naming the other
        seats exactly as the table panel does."""
        return sentence(session.game.describe(event, session.seat, session.names()))

    def completions(self, view: Any, legal: Sequence[Any]) -> list[str]:
        words = {"help", "hint", "quit", "review", "save", "show"}
        for a in legal:
            words.update(str(a).split()[:1])
        if self.grammar is not None:  # every move's first word, legal now or not
            words.update(t.split()[0] for t in self.grammar.examples())
        for c in getattr(view, "hand", ()):
            words.add(card_str(c, ascii=True))
        return sorted(words)

    def parse(self, text: str, view: Any, legal: Sequence[Any]) -> list[Any]:
        actions = self.macro(text.split(), view, legal)
        if actions is None:
            actions = match_generic(text, legal, self.grammar)
        if actions is None:
            raise CommandError(
                self.t.gettext("I don't know {text}; type help for the moves you can make").format(
                    text=repr(text)
                )
            )
        return actions

    def macro(self, words: list[str], view: Any, legal: Sequence[Any]) -> list[Any] | None:
        """Game-specific commands; ``None`` when the words are not one of them."""
        return None

    def log_panel(self, session: Session, lines: int = 8) -> Panel:
        return Panel(
            "\n".join(session.log[-lines:]) or "—",
            title=self.t.gettext("last events"),
            border_style="dim",
        )

    def render(self, view: Any, session: Session) -> RenderableType:
        data = to_json(view)
        table = Table(show_header=False, box=None)
        for key, value in data.items():
            if key in ("type", "rules"):
                continue
            table.add_row(key.replace("_", " "), str(value))
        return Group(Panel(table, title=session.variant.name), self.log_panel(session))

    def score_sheet(self, outcome: Outcome, session: Session) -> RenderableType:
        names = [" & ".join(session.seat_name(s) for s in side) for side in outcome.sides]
        t = self.t
        table = Table(
            t.gettext("hand"),
            *names,
            t.gettext("note"),
            title=t.gettext("{game} score sheet").format(game=session.title),
        )
        running = [0.0] * len(names)
        seat_names = session.names()
        for hand in outcome.hands:
            cells = []
            for i, sc in enumerate(hand.scores):
                running[i] += sc
                parts = ""
                if hand.breakdown:
                    items = hand.breakdown[i].items()
                    parts = "\n" + ", ".join(
                        f"{k.replace('_', ' ')} {v:+,.0f}" for k, v in items if v
                    )
                cells.append(
                    f"[bold]{self._points(sc, True)}[/] → {self._points(running[i])}{parts}"
                )
            note = hand_note(hand, session.seat, seat_names, session.game.describe)
            table.add_row(str(hand.number), *cells, escape(sentence(note)))
        return table

    def result_text(self, outcome: Outcome, session: Session) -> str:
        t = self.t
        if not outcome.winners:
            return t.gettext("a draw")
        names = [
            " & ".join(session.seat_name(s) for s in outcome.sides[w]) for w in outcome.winners
        ]
        return t.gettext("{winners} won").format(winners=", ".join(names))

    def _points(self, value: float, signed: bool = False) -> str:
        """Points as the language groups them: ``+1,500`` in English, ``+1.500`` in Dutch."""
        if self.t.lang == SOURCE:
            return f"{value:+,.0f}" if signed else f"{value:,.0f}"
        text = self.t.number(abs(round(value)))
        if value < 0:
            return "-" + text
        return ("+" if signed else "") + text


def for_game(name: str, grammar: Grammar | None = None) -> Adapter:
    """The game's adapter (the generic one for a game without its own), reading typed moves
    with ``grammar`` (the game's declared action grammar)."""
    try:
        module = importlib.import_module(f"parlour.cli.tui.{name}")
    except ModuleNotFoundError:
        adapter = Adapter()
    else:
        adapter = copy.copy(module.ADAPTER)
    adapter.grammar = grammar
    return adapter


def sort_key(card: int) -> tuple[int, int]:
    return (rank_of(card), suit_of(card))
