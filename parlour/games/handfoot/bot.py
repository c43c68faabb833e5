"""A rule-of-thumb Samba Hand and Foot player (``basic``): it sees only its view.

Club habits it follows: take the pile whenever it may (eight cards for one); meld naturals first
and keep wilds for finishing books and the book of wilds; open with everything it can and take
the melds back when they miss the round's minimum; discard black 3s first, then lone low cards
that fit none of the side's unfinished melds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from parlour.core.bot import Bot
from parlour.core.cards import expand, rank_of
from parlour.games.handfoot.actions import AddToMeld, Discard, Draw, Meld, Retract, TakePile
from parlour.games.handfoot.parts.melds import Meld as TableMeld
from parlour.games.handfoot.parts.melds import card_value, is_black_three, is_wild
from parlour.games.handfoot.state import State
from parlour.games.handfoot.view import HandFootView, MeldView


class _QuickSide:
    __slots__ = ("melds", "seats")

    def __init__(self, seats: tuple[int, ...], melds: Sequence[TableMeld]) -> None:
        self.seats = seats
        self.melds = melds


class QuickView:
    """What the basic bot reads of a view, built straight from a state (ISMCTS play-outs): the
    same information as ``observe`` gives that seat, without the full view."""

    __slots__ = ("down", "hand", "phase", "results", "round", "sides", "stock_size")

    def __init__(self, state: State, seat: int) -> None:
        self.down = state.down[seat]
        self.phase = state.phase
        self.round = state.round
        self.stock_size = len(state.stock)
        self.results = state.results
        self.hand = expand(state.hands[seat])
        self.sides = tuple(_QuickSide(state.side_seats(s), state.melds[s]) for s in (0, 1))


# a bot of one's own may subclass the compiled basic bot (docs/speed.md)
@mypyc_attr(allow_interpreted_subclasses=True)
class HandFootBasicBot(Bot):
    name = "basic"

    def __init__(self, game: Any, seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self._gave_up: tuple[int, int, int] | None = None

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        turn = (view.round, view.stock_size, len(view.results))
        if view.phase == "draw":
            takes = [a for a in legal if isinstance(a, TakePile) and turn != self._gave_up]
            return max(takes, key=lambda a: self._meld_score(view, a)) if takes else legal[0]
        melds = [a for a in legal if isinstance(a, (Meld, AddToMeld))]
        if turn != self._gave_up:
            scored = [(self._meld_score(view, a), i, a) for i, a in enumerate(melds)]
            good = [x for x in scored if x[0] > 0]
            if good:
                return max(good)[2]
        retract = [a for a in legal if isinstance(a, Retract)]
        if retract:
            self._gave_up = turn
            return retract[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return min(discards, key=lambda a: self._keep_score(view, a.card))
        return legal[0]

    def ranked_discards(self, view: Any, discards: Sequence[Discard]) -> list[Discard]:
        """The discards from the one the bot would make to the one it would make last (one per
        card kind)."""
        unique = list(dict.fromkeys(discards))
        return sorted(unique, key=lambda a: self._keep_score(view, a.card))

    @staticmethod
    def search_candidates(
        policy: HandFootBasicBot, view: Any, legal: Sequence[Any], favourite: Any, limit: int
    ) -> list[Any]:
        """The moves the ``strong`` bot weighs against the policy's ``favourite`` (first in the
        list): at the draw, drawing and every way of taking the pile; at a discard, the next
        least harmful discards by the policy's own ranking (and the meld steps it passed over).
        Meld steps the policy takes are played unsearched: the policy melds what it can, which
        the search rarely improves on, and a turn has many of them."""
        out = [favourite]
        others: list[Any]
        if isinstance(favourite, (Draw, TakePile)):
            others = [a for a in legal if isinstance(a, Draw)]
            takes = [a for a in legal if isinstance(a, TakePile)]
            others += sorted(takes, key=lambda a: -policy._meld_score(view, a))
        elif isinstance(favourite, Discard):
            others = [*policy.ranked_discards(view, [a for a in legal if isinstance(a, Discard)])]
            others += [a for a in legal if isinstance(a, (Meld, AddToMeld))]
        else:
            return out
        for a in others:
            if len(out) >= limit:
                break
            if a not in out:
                out.append(a)
        return out

    def _my_melds(self, view: HandFootView | QuickView) -> Sequence[MeldView | TableMeld]:
        for side in view.sides:
            if self.seat in side.seats:
                return side.melds
        return ()

    def _meld_score(self, view: Any, action: Any) -> float:
        if isinstance(action, TakePile):
            return 100.0 - sum(1 for c in action.cards if is_wild(c))
        melds = self._my_melds(view)
        if isinstance(action, AddToMeld):
            meld = melds[action.meld]
            if is_wild(action.card) and meld.kind != "wilds":
                # a wild only finishes a book (one dirty book is needed; clean ones score more)
                return 5.0 if len(meld.cards) >= 6 else -1.0
            return 10.0 + len(meld.cards)
        if isinstance(action, Meld):
            wilds = sum(1 for c in action.cards if is_wild(c))
            if wilds == 3:
                return 4.0
            return 8.0 - 6 * wilds + sum(card_value(c) for c in action.cards) / 100
        return 0.0

    def _keep_score(self, view: Any, card: int) -> float:
        """How much the bot wants to keep ``card`` (the lowest is discarded)."""
        if is_black_three(card):
            return -100.0
        if is_wild(card):
            return 100.0 + card_value(card)
        counts = Counter(rank_of(c) for c in view.hand)
        wanted = {m.key for m in self._my_melds(view) if m.kind == "book" and not m.complete}
        score = 10.0 * counts[rank_of(card)] + card_value(card) / 10
        if rank_of(card) in wanted:
            score += 30
        return score


def _has_met_minimum(view: Any, seat: int) -> bool:
    """Whether ``seat`` has met the round's meld requirement (a full view or a ``QuickView``)."""
    if isinstance(view, QuickView):
        return view.down
    return bool(view.players[seat].down)


@mypyc_attr(allow_interpreted_subclasses=True)
class HandFootPlayoutBot(HandFootBasicBot):
    """The ``strong`` bot's policy (its favourite move and its play-outs): ``basic`` with a
    discipline for wild cards, which ``basic`` spends on books worth 300 that a natural would
    have made clean (500), while seven wilds make a book of wilds (2,000).

    - once the player has met the meld requirement it starts no meld with a wild (two naturals
      and a wild), and starts the book of wilds before anything else when it holds three wilds;
    - it finishes a book with a wild (a dirty book) only late in the round, when
      ``late_stock`` or fewer cards are left in the stock: unfinished melds then score their
      cards only.

    Measured against ``basic`` (duplicate hands, docs/bots.md): it wins most hands by itself."""

    name = "playout"
    late_stock = 40

    def _meld_score(self, view: Any, action: Any) -> float:
        if isinstance(action, Meld):
            wilds = sum(1 for c in action.cards if is_wild(c))
            if wilds == 3:
                return 30.0
            if wilds and _has_met_minimum(view, self.seat):
                return -1.0
        elif isinstance(action, AddToMeld) and is_wild(action.card):
            meld = self._my_melds(view)[action.meld]
            if meld.kind != "wilds":
                if len(meld.cards) >= 6 and view.stock_size <= self.late_stock:
                    return 5.0
                return -1.0
        return HandFootBasicBot._meld_score(self, view, action)
