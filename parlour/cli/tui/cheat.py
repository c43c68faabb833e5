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
from parlour.games.cheat import actions as A

if TYPE_CHECKING:
    from parlour.cli.tui.session import Session

CHALLENGE_WORDS = {"cheat", "challenge", "bullshit", "bs", "doubt", "cheat!"}


class CheatAdapter(Adapter):
    commands_help = (
        "Cheat: play 7♥ 7♣ (claims the rank in turn) · play 7♥ 2♠ as 7 · cheat (challenge) ·\n"
        "  pass (let the play stand) · first N (choose who starts, where the rules ask)\n"
    )

    def prompt(self, view: Any) -> str:
        if view.phase in ("window", "late"):
            last = view.claims[-1] if view.claims else None
            if last is not None:
                return f"[cheat or pass on {last.count} × {rank_str(last.rank)}]> "
            return "[cheat or pass]> "
        ranks = "/".join(rank_str(r) for r in view.allowed_ranks) or "any"
        return f"[play, claiming {ranks}]> "

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
                raise CommandError("play which cards as which rank? e.g. play 7♥ 7♣ as 7")
            rank = rank_word(rest[k + 1])
            rest = rest[:k]
        cards = sorted(parse_card_words(rest))
        if not cards and not view.selection:
            raise CommandError("play which cards? e.g. play 7♥ 7♣")
        count = len(cards) + len(view.selection)
        if rank is None:
            allowed = list(view.allowed_ranks)
            if len(allowed) == 1:
                rank = allowed[0]
            else:
                natural = {rank_of(c) for c in cards if rank_of(c) in allowed}
                if len(natural) != 1:
                    raise CommandError(
                        f"say which rank you claim ({'/'.join(rank_str(r) for r in allowed)}): "
                        "play … as R"
                    )
                rank = natural.pop()
        return [*(A.Pick(c) for c in cards), A.Claim(count, rank)]

    def render(self, view: Any, session: Session) -> RenderableType:
        head = Text()
        turn = "game over" if view.to_act is None else f"{session.seat_name(view.to_act)} to act"
        head.append(turn, style="bold yellow")
        head.append(f" · pile {view.pile_size} cards · hands: ")
        head.append(", ".join(f"{session.seat_name(s)} {n}" for s, n in enumerate(view.hand_sizes)))
        if view.out:
            head.append(" · out: " + ", ".join(session.seat_name(s) for s in view.out))
        claims = Text()
        for c in view.claims[-6:]:
            claims.append(f"{session.seat_name(c.seat)} claims {c.count} × {rank_str(c.rank)}\n")
        mine = Text("your hand: ")
        mine.append_text(cards_text(sorted(view.hand, key=sort_key)))
        if view.selection:
            mine.append("\npicked: ")
            mine.append_text(cards_text(view.selection))
        if view.allowed_ranks and view.phase not in ("window", "late"):
            mine.append(f"\nyou may claim: {', '.join(rank_str(r) for r in view.allowed_ranks)}")
        return Group(
            head,
            Panel(claims or "no claims yet", title="claims", border_style="blue"),
            Panel(mine, border_style="yellow"),
            self.log_panel(session),
        )


ADAPTER = CheatAdapter()
