"""The ``basic`` Samba bot: the play of a sound club player, from the view and the legal actions.

Rules of thumb (seed 002 "Tips for beginners", RULES.md §1):

- lay out red 3s at once (one left in the hand costs 750);
- take the pile whenever the side can (it is opened, or the pile's top with the pair and melds
  from the hand reach the opening minimum); take the top card onto a sequence when it fits;
- keep natural pairs in the hand: they are what takes the pile;
- meld runs (8-9-10 first — every samba holds an 8, 9 or 10) as soon as the side has opened,
  extend sequences towards sambas and groups towards canastas; merge groups of one rank;
- open only with melds that reach the minimum for the side's score;
- keep wild cards for blocking the pile and for completing canastas; add a wild to a group when it
  makes a canasta, when the side still needs canastas to go out, or when the hand ends soon;
- discard what helps the opponents least: never a card that fits their sequences or a rank they
  are known to hold; block the pile with a black 3 (or a wild) when it is large;
- when the opponents can go out, shed expensive cards; go out when allowed, asking the partner
  when the partner still holds many cards; answer "no" while holding a red 3 or a costly hand.

The ``strong`` bot's search hints for Samba (``parlour.games.samba.HINTS``) use
:class:`FastView`, ``parts.search.candidates`` and ``evaluation.evaluate``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from parlour.core.bot import Bot
from parlour.core.canasta import BLACK_THREES, RED_THREES, WILD_KINDS
from parlour.games.samba import actions as A
from parlour.games.samba.parts.melds import (
    GROUP,
    IS_NATURAL,
    IS_WILD,
    KINDS_OF_RANK,
    RANK,
    SEQUENCE,
    SUIT,
    VALUE,
    Meld,
    expand_counts,
    meets_going_out,
)
from parlour.games.samba.state import DRAW, PILE_OPEN, State
from parlour.games.samba.view import SambaView

#: the pile counts as large (worth blocking / worth taking) from this many cards
BIG_PILE = 8


def _counts(cards: Sequence[int]) -> list[int]:
    h = [0] * 53
    for c in cards:
        h[c] += 1
    return h


def _runs(h: list[int]) -> list[list[int]]:
    """Natural runs of ≥ 3 consecutive ranks in one suit (split at 7 cards), best first:
    longest, then the one holding most of 8, 9, 10."""
    out: list[list[int]] = []
    for suit in range(4):
        base = suit * 13 - 2
        r = 4
        while r <= 14:
            if not h[base + r]:
                r += 1
                continue
            start = r
            while r <= 14 and h[base + r]:
                r += 1
            ranks = list(range(start, r))
            while len(ranks) >= 3:
                chunk, ranks = ranks[:7], ranks[7:]
                if len(chunk) >= 3:
                    out.append([base + x for x in chunk])
    out.sort(key=lambda run: (-len(run), -sum(1 for c in run if 8 <= RANK[c] <= 10)))
    return out


def plan_melds(hand: Sequence[int], *, use_wilds: bool) -> list[list[int]]:
    """New melds the hand can make, disjoint: sequences first, then groups of ≥ 3 naturals, then
    (with ``use_wilds``) natural pairs with one wild.  Each meld's cards in staging order."""
    h = _counts(hand)
    melds: list[list[int]] = []
    for run in _runs(h):
        if all(h[c] for c in run):
            for c in run:
                h[c] -= 1
            melds.append(run)
    for rank in range(14, 3, -1):
        kinds = KINDS_OF_RANK[rank]
        n = h[kinds[0]] + h[kinds[1]] + h[kinds[2]] + h[kinds[3]]
        if n >= 3:
            cards = [k for k in kinds for _ in range(h[k])]
            for k in kinds:
                h[k] = 0
            melds.append(cards)
    if use_wilds:
        for rank in range(14, 3, -1):
            kinds = KINDS_OF_RANK[rank]
            n = h[kinds[0]] + h[kinds[1]] + h[kinds[2]] + h[kinds[3]]
            if n != 2:
                continue
            wild = next((w for w in WILD_KINDS if h[w]), None)
            if wild is not None:
                cards = [k for k in kinds for _ in range(h[k])]
                for k in kinds:
                    h[k] = 0
                h[wild] -= 1
                melds.append([*cards, wild])
    return melds


def _meld_value(cards: Sequence[int]) -> int:
    return sum(VALUE[c] for c in cards)


# a bot of one's own may subclass the compiled basic bot (docs/speed.md)
@mypyc_attr(allow_interpreted_subclasses=True)
class SambaBasicBot(Bot):
    """Heuristic Samba player (see the module docstring)."""

    name: ClassVar[str] = "basic"

    def __init__(self, game: Any, seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        #: the new meld being staged (its cards in order), to finish it as planned
        self._meld_plan: list[int] = []
        #: the turn (hand number, stock size) in which an opening or a meld was taken back
        self._undone: tuple[int, int] | None = None

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self._meld_plan = []
        self._undone = None

    # --- the decision -------------------------------------------------------------------

    def act(self, view: SambaView | FastView, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        named = _Named(legal)
        if view.phase == "answer":
            return self._answer(view, named)
        if view.phase == DRAW:
            # red 3s go out at once, before drawing too (seed 002: "at any point during your
            # turn"; with an empty stock the draw ends the hand and a held red 3 costs 750)
            for k in RED_THREES:
                if k in named.red3:
                    return A.LAY_RED3[k]
            return self._draw(view, legal)
        choice = self._meld_step(view, legal, named)
        if choice is not None:
            return choice
        return self._discard(view, legal, named)

    # --- drawing ------------------------------------------------------------------------

    def _draw(self, view: SambaView | FastView, legal: Sequence[Any]) -> Any:
        me = view.sides[view.players[view.seat or 0].side]
        tops = [a for a in legal if isinstance(a, A.TakeTop)]
        pairs = [a for a in legal if isinstance(a, A.TakePile)]
        if pairs and self._undone != (view.hand_number, view.stock_size):
            if me.opened:
                # the pile is worth taking even when small: cards to meld, the top into a group
                return self._best_pair(view, pairs)
            hand = list(view.hand)
            for act in sorted(pairs, key=lambda p: self._pair_cost(view, p)):
                rest = list(hand)
                for c in act.pair:
                    rest.remove(c)
                value = VALUE[view.pile_top] + _meld_value(act.pair)
                value += sum(_meld_value(m) for m in plan_melds(rest, use_wilds=True))
                if value >= me.opening_minimum:
                    return act
        if tops:
            return tops[0]
        return A.DRAW

    def _pair_cost(self, view: SambaView | FastView, act: Any) -> int:
        """Prefer pairs whose cards are not in a run of the hand."""
        h = _counts(view.hand)
        cost = 0
        for c in act.pair:
            base = SUIT[c] * 13 - 2
            r = RANK[c]
            cost += sum(1 for d in (-2, -1, 1, 2) if 4 <= r + d <= 14 and h[base + r + d])
        return cost

    def _best_pair(self, view: SambaView | FastView, pairs: Sequence[Any]) -> Any:
        return min(pairs, key=lambda p: self._pair_cost(view, p))

    # --- melding ------------------------------------------------------------------------

    def _meld_step(self, view: SambaView | FastView, legal: Sequence[Any], named: _Named) -> Any:
        seat = view.seat or 0
        side = view.players[seat].side
        me = view.sides[side]
        hand = list(view.hand)
        n = len(hand)
        for k in RED_THREES:
            if k in named.red3:
                return A.LAY_RED3[k]
        if view.pending:
            return self._continue_stage(view, legal, named)
        for a in legal:
            if isinstance(a, A.MergeGroups):
                return a
        staging = view.phase == PILE_OPEN or (not me.opened and bool(me.melds))
        if not me.opened:
            if staging:
                # the rest of a planned meld longer than three cards goes on by adding
                for a in legal:
                    if isinstance(a, A.AddToMeld) and not IS_WILD[a.card]:
                        return a
            need = me.opening_minimum - sum(m.value for m in me.melds)
            plan = plan_melds(hand, use_wilds=True)
            turn_id = (view.hand_number, view.stock_size)
            if plan and sum(_meld_value(m) for m in plan) >= need and self._undone != turn_id:
                plan.sort(key=lambda m: -_meld_value(m))
                card = plan[0][0]
                if named.stage[card]:
                    self._meld_plan = plan[0]
                    return A.STAGE[card]
            if staging and named.undo:
                self._undone = turn_id
                return A.UNDO
            return None
        # the side has opened: extend melds, then new melds
        adds = [a for a in legal if isinstance(a, A.AddToMeld)]
        wild_adds = []
        for a in adds:
            if IS_WILD[a.card]:
                wild_adds.append(a)
                continue
            return a
        opponents_out = any(sv.can_go_out for sv in view.sides if sv.side != side)
        can_out_after = me.can_go_out
        for a in wild_adds:
            m = me.melds[a.meld]
            makes_canasta = m.kind == GROUP and len(m.cards) == 6
            needs = not me.can_go_out and m.kind == GROUP and len(m.cards) >= 5
            if makes_canasta or needs or opponents_out or (can_out_after and n <= 4):
                return a
        plan = plan_melds(hand, use_wilds=opponents_out or (can_out_after and n <= 5))
        if self._undone == (view.hand_number, view.stock_size):
            plan = []
        for meld in plan:
            if len(meld) == n and not me.can_go_out:
                continue  # would empty the hand without being allowed out
            if named.stage[meld[0]]:
                self._meld_plan = meld
                return A.STAGE[meld[0]]
        return None

    def _continue_stage(
        self, view: SambaView | FastView, legal: Sequence[Any], named: _Named
    ) -> Any:
        pending = list(view.pending)
        plan = self._meld_plan
        if len(plan) > len(pending) and plan[: len(pending)] == pending:
            nxt = plan[len(pending)]
            if named.stage[nxt]:
                return A.STAGE[nxt]
        stages = [a.card for a in legal if isinstance(a, A.Stage)]
        if not stages:
            self._undone = (view.hand_number, view.stock_size)
            return A.UNSTAGE if named.unstage else legal[0]
        nats = [c for c in pending if not IS_WILD[c]]

        # the first best card (as max() would choose), scored without a closure (a compiled
        # closure and its frame refer to each other: garbage for the cycle collector)
        best = stages[0]
        best_score = _stage_score(best, nats, len(pending))
        for c in stages[1:]:
            sc = _stage_score(c, nats, len(pending))
            if sc > best_score:
                best, best_score = c, sc
        return A.STAGE[best]

    # --- discarding ---------------------------------------------------------------------

    def _discard(self, view: SambaView | FastView, legal: Sequence[Any], named: _Named) -> Any:
        seat = view.seat or 0
        side = view.players[seat].side
        discards = [a for a in legal if isinstance(a, A.Discard)]
        if named.ask and len(view.hand) == 1:
            partner = next(p for p in view.players if p.side == side and p.seat != seat)
            if partner.hand_size > 6 and not view.asked:
                return A.ASK
        if not discards:
            for a in legal:
                if isinstance(a, A.Pass):
                    return a
            return legal[0]
        return self.ranked_discards(view, discards)[0]

    def ranked_discards(self, view: SambaView | FastView, discards: Sequence[Any]) -> list[Any]:
        """The legal discards, the one that helps the opponents least (and costs the side
        least) first."""
        seat = view.seat or 0
        side = view.players[seat].side
        me = view.sides[side]
        h = _counts(view.hand)
        nplayers = len(view.players)
        left = view.players[(seat + 1) % nplayers]
        opp_sides = [sv for sv in view.sides if sv.side != side]
        opponents_out = any(sv.can_go_out for sv in opp_sides)
        # which cards fit the melds, worked out once per meld rather than once per card and meld
        # (what reaches the meld tests below is a natural card of rank 4 to ace)
        own_fits = [0] * 53  # how many of the side's melds each card fits
        for m in me.melds:
            _mark_fits(m, own_fits)
        sequence_fits = [0] * 53  # how many of the opponents' sequences it fits
        groups_of_rank = [0] * 15  # the opponents' groups of each rank
        for sv in opp_sides:
            for m in sv.melds:
                if m.kind == SEQUENCE:
                    _mark_fits(m, sequence_fits)
                elif m.kind == GROUP and 0 <= m.rank <= 14:
                    groups_of_rank[m.rank] += 1
        # a card of a rank the next player is known to hold (the card itself among them)
        known_ranks = {RANK[k] for k in left.known}
        pile_size = view.pile_size
        costs = _DiscardCosts(
            h, own_fits, sequence_fits, groups_of_rank, known_ranks, pile_size, opponents_out
        )
        return sorted(discards, key=costs.key)

    # --- answering "partner, may I go out?" ---------------------------------------------

    def _answer(self, view: SambaView | FastView, named: _Named) -> Any:
        hand = view.hand
        if any(c in RED_THREES for c in hand):
            return A.NO if named.no else A.YES
        cost = _meld_value(hand)
        return A.NO if cost > 150 and named.no else A.YES


class _FastPlayer:
    """What :class:`SambaBasicBot` reads of a ``PlayerView``, built lazily from a state."""

    __slots__ = ("_state", "hand_size", "seat", "side")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat
        self.side = state.side_of[seat]
        self.hand_size = state.sizes[seat]

    @property
    def known(self) -> tuple[int, ...]:
        k = self._state.known[self.seat]
        return tuple(expand_counts(k)) if any(k) else ()


class _FastSide:
    """What :class:`SambaBasicBot` reads of a ``SideView`` (the minimum and the going-out
    requirement worked out only when read)."""

    __slots__ = ("_can_go_out", "_state", "melds", "opened", "side")

    def __init__(self, state: State, side: int) -> None:
        self._state = state
        self.side = side
        self.melds = state.melds[side]
        self.opened = state.opened[side]
        self._can_go_out = -1

    @property
    def opening_minimum(self) -> int:
        state = self._state
        return state.rules.opening_minimum(state.scores[self.side])

    @property
    def can_go_out(self) -> bool:
        known = self._can_go_out
        if known < 0:
            known = self._can_go_out = int(meets_going_out(self.melds, self._state.rules.going_out))
        return known == 1


class FastView:
    """The fields of :class:`SambaView` the basic bot reads, made cheaply from a state for the
    play-outs of the search (it exposes exactly what ``observe(state, seat)`` shows)."""

    __slots__ = (
        "asked",
        "hand",
        "hand_number",
        "pending",
        "phase",
        "pile_size",
        "pile_top",
        "players",
        "seat",
        "sides",
        "stock_size",
    )

    def __init__(self, state: State, seat: int) -> None:
        h = state.hands[seat]
        self.seat = seat
        self.phase = state.phase
        self.hand = tuple(expand_counts(h))
        self.pending = state.pending
        self.pile_size = len(state.pile)
        self.pile_top = state.pile[-1] if state.pile else -1
        self.hand_number = state.hand_no
        self.stock_size = state.stock_len
        self.asked = state.asked
        self.players = tuple([_FastPlayer(state, i) for i in range(state.players)])
        self.sides = tuple([_FastSide(state, i) for i in range(len(state.sides))])


def _stage_score(c: int, nats: list[int], pending: int) -> tuple[int, int]:
    """How well card ``c`` continues the meld being staged (``nats``: its natural cards,
    ``pending``: how many cards it holds); the highest is staged."""
    if not nats:
        return (0 if IS_WILD[c] else 1, VALUE[c])
    r, s = RANK[nats[0]], SUIT[nats[0]]
    if IS_WILD[c]:
        return (1, -VALUE[c])
    if len(nats) == 1 and pending == 1:
        # prefer continuing a run (toward a samba) over a group
        if SUIT[c] == s and abs(RANK[c] - r) == 1:
            return (3, 0)
        if SUIT[c] == s and abs(RANK[c] - r) == 2:
            return (2, 1)
        return (2, 0) if RANK[c] == r else (0, 0)
    if RANK[c] == r:
        return (3, 0)
    if SUIT[c] == s:
        return (3, 1)
    return (0, 0)


class _DiscardCosts:
    """What keeping a card is worth to the side and discarding it to the opponents
    (:meth:`SambaBasicBot.ranked_discards`), from the counts worked out once per decision: the
    hand, how many of the side's melds and of the opponents' sequences each card fits, the
    opponents' groups by rank, the ranks the next player is known to hold.  An object rather
    than a closure: a compiled closure and its frame refer to each other (garbage for the cycle
    collector)."""

    __slots__ = (
        "big_pile",
        "groups_of_rank",
        "h",
        "known_ranks",
        "opponents_out",
        "own_fits",
        "pile_size",
        "sequence_fits",
    )

    def __init__(
        self,
        h: list[int],
        own_fits: list[int],
        sequence_fits: list[int],
        groups_of_rank: list[int],
        known_ranks: set[int],
        pile_size: int,
        opponents_out: bool,
    ) -> None:
        self.h = h
        self.own_fits = own_fits
        self.sequence_fits = sequence_fits
        self.groups_of_rank = groups_of_rank
        self.known_ranks = known_ranks
        self.pile_size = pile_size
        self.big_pile = pile_size >= BIG_PILE
        self.opponents_out = opponents_out

    def key(self, action: Any) -> tuple[float, int]:
        card: int = action.card
        return (self.cost(card), card)

    def cost(self, card: int) -> float:
        opponents_out = self.opponents_out
        pile_size = self.pile_size
        if card in RED_THREES:
            return 1e6
        if card in BLACK_THREES:  # black 3: blocks the next player, nearly worthless to keep
            return -50.0 if self.big_pile or opponents_out else -5.0
        if IS_WILD[card]:
            keep = 60.0 + VALUE[card]
            if opponents_out:
                keep -= 2 * VALUE[card]
            if self.big_pile:
                keep -= 40.0 + pile_size
            return keep
        h = self.h
        r, s = RANK[card], SUIT[card]
        base = s * 13 - 2
        same = h[r - 2] + h[r + 11] + h[r + 24] + h[r + 37]
        keep = 0.0
        if same >= 2:
            keep += 40.0 + 10 * same  # a natural pair takes the pile
        near = 0
        for d in (-2, -1, 1, 2):
            if 4 <= r + d <= 14 and h[base + r + d]:
                near += 1
        keep += 12.0 * near
        keep += 6.0 if 8 <= r <= 10 else 0.0
        # every term so far and below is a whole (or half) number: the sums are exact in any
        # order, as when they were added meld by meld
        keep += 100.0 * self.own_fits[card]
        danger = 300.0 * self.sequence_fits[card] + (10.0 + 3 * pile_size) * self.groups_of_rank[r]
        if r in self.known_ranks:
            danger += 40.0 + 5 * pile_size
        danger += pile_size * 1.5
        keep -= VALUE[card] * (1.0 if opponents_out else 0.2)
        return keep + danger


class _Named:
    """Which of the moves the basic bot names (a red 3 to lay out, a card to stage, take back,
    ask, answer no) are among the legal actions, found in one pass: the same answers as
    ``action in set(legal)`` (an action equals another of its class with the same fields)
    without hashing every action (a dataclass's generated ``__hash__`` runs interpreted)."""

    __slots__ = ("ask", "no", "red3", "stage", "undo", "unstage")

    def __init__(self, legal: Sequence[Any]) -> None:
        stage = [False] * 53
        red3: list[int] = []
        self.ask = self.no = self.undo = self.unstage = False
        for a in legal:
            if isinstance(a, A.Stage):
                card = a.card
                if 0 <= card < 53:
                    stage[card] = True
            elif isinstance(a, A.LayRedThree):
                red3.append(a.card)
            elif isinstance(a, A.AnswerGoOut):
                if not a.yes:
                    self.no = True
            elif isinstance(a, A.AskGoOut):
                self.ask = True
            elif isinstance(a, A.UndoOpening):
                self.undo = True
            elif isinstance(a, A.Unstage):
                self.unstage = True
        self.stage = stage
        self.red3 = red3


def _mark_fits(m: Meld, table: list[int]) -> None:
    """Count ``m`` in ``table`` at every natural card of rank 4 to ace it takes
    (``_fits(m, card)`` for those cards)."""
    if m.kind == GROUP:
        if 4 <= m.rank <= 14:
            for k in KINDS_OF_RANK[m.rank]:
                table[k] += 1
    elif m.kind == SEQUENCE and len(m.cards) < 7 and 0 <= m.suit < 4:
        base = m.suit * 13 - 2
        if 5 <= m.rank <= 15:
            table[base + m.rank - 1] += 1
        if 3 <= m.high <= 13:
            table[base + m.high + 1] += 1


def _fits(m: Meld, card: int) -> bool:
    if m.kind == GROUP:
        return IS_NATURAL[card] and RANK[card] == m.rank
    if m.kind == SEQUENCE:
        if len(m.cards) >= 7 or IS_WILD[card] or SUIT[card] != m.suit:
            return False
        r = RANK[card]
        return (r == m.rank - 1 and r >= 4) or (r == m.high + 1 and r <= 14)
    return False


__all__ = ["FastView", "SambaBasicBot", "plan_melds"]
