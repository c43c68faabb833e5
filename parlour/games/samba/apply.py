"""Applying actions: the effects of a Samba turn (RULES.md §1 "Turn", "Taking from the discard
pile", "First meld", "Going out", "Scoring a hand", "Game")."""

from __future__ import annotations

from typing import Final, cast

from parlour.core.canasta import RED_THREES
from parlour.core.game import Event
from parlour.core.rng import derive_seed
from parlour.games.samba import actions as A

# the classes by name: compiled, ``A.Discard`` is a module attribute look-up at every use, a
# name imported here a static reference
from parlour.games.samba.actions import (
    AddToMeld,
    AnswerGoOut,
    AskGoOut,
    Discard,
    Draw,
    LayRedThree,
    MeldBlackThrees,
    MergeGroups,
    Pass,
    Stage,
    TakePile,
    TakeTop,
    UndoOpening,
    Unstage,
)
from parlour.games.samba.legal import (
    legal_actions,
    may_go_out,
    opening_minimum,
    stage_ok,
    takeback_key,
)
from parlour.games.samba.parts.melds import (
    BLACK3,
    GROUP,
    RANK,
    VALUE,
    Meld,
    add_card,
    build,
    make_meld,
    merge,
)
from parlour.games.samba.parts.placement import cached_table, table_after
from parlour.games.samba.parts.reach import flags_of
from parlour.games.samba.scoring import hand_result
from parlour.games.samba.state import (
    ANSWER,
    DRAW,
    MELD,
    OVER,
    PILE_OPEN,
    State,
    deal,
    replace_red_threes,
)

Action = A.SambaAction

# ``t + (x,)`` rather than ``(*t, x)`` (ruff's RUF005) on the paths of every move: compiled, a
# starred tuple display is built as a list and then copied into a tuple


# --- applying -------------------------------------------------------------------------------


def _own(s: State, seat: int) -> list[int]:
    """Copy-on-write: the seat's hand (and the sizes list) made private to ``s``."""
    hands = s.hands = s.hands[:]
    h = hands[seat] = hands[seat][:]
    s.sizes = s.sizes[:]
    return h


def _play_from_hand(s: State, seat: int, *cards: int) -> None:
    """Cards leave the seat's hand (to the table, the pile or a meld being built)."""
    h = _own(s, seat)
    for card in cards:
        h[card] = h[card] - 1
        _forget(s, seat, card)
    s.sizes[seat] = s.sizes[seat] - len(cards)


def _play_card(s: State, seat: int, card: int) -> None:
    """``_play_from_hand(s, seat, card)`` without the tuple of its ``*cards`` (compiled, a call
    with ``*`` arguments packs them into a new tuple)."""
    h = _own(s, seat)
    h[card] = h[card] - 1
    _forget(s, seat, card)
    s.sizes[seat] = s.sizes[seat] - 1


def _forget(s: State, seat: int, card: int) -> None:
    """A card left the hand: one fewer card of that kind is publicly known to sit there."""
    if s.known[seat][card]:
        known = s.known = s.known[:]
        kv = known[seat] = known[seat][:]
        kv[card] = kv[card] - 1


def _set_melds(s: State, side: int, melds: tuple[Meld, ...]) -> None:
    ms = s.melds = s.melds[:]
    ms[side] = melds


def _take_rest_of_pile(s: State, seat: int, events: list[Event] | None) -> None:
    rest = s.pile
    s.pile = ()
    s.taken_top = -1
    s._no_out = s._no_open = False  # the hand grows
    if not rest:
        return
    h = s.hands[seat]  # already private
    known = s.known = s.known[:]
    kv = known[seat] = known[seat][:]
    side = s.side_of[seat]
    laid: list[int] = []
    as_canasta = flags_of(s.rules).red_threes_as_canasta  # read once, not once a card
    for c in rest:
        if as_canasta and c in RED_THREES:
            laid.append(c)  # laid out, not replaced, when taken with the pile
            continue
        h[c] = h[c] + 1
        kv[c] = kv[c] + 1
    if laid:
        r3 = s.red3 = s.red3[:]
        r3[side] = r3[side] + tuple(laid)
    s.sizes[seat] = s.sizes[seat] + (len(rest) - len(laid))
    if events is not None:
        events.append(Event("take_pile", {"seat": seat, "count": len(rest)}))


def _after_meld(s: State, seat: int, side: int, events: list[Event] | None) -> None:
    """Opening check, then going out when the hand is empty."""
    if not s.opened[side]:
        total = sum(m.value for m in s.melds[side])
        if total >= opening_minimum(s, side):
            op = list(s.opened)
            op[side] = True
            s.opened = tuple(op)
            if events is not None:
                events.append(Event("opened", {"seat": seat, "total": total}))
            if s.phase == PILE_OPEN:
                _take_rest_of_pile(s, seat, events)
                s.phase = MELD
    if s.sizes[seat] == 0:
        _end_hand(s, seat, events)


def _next_turn(s: State) -> None:
    s.to_act = (s.to_act + 1) % s.players
    s.phase = DRAW
    s.asked = False
    s.takebacks = 0
    s.undone = ()
    s.permission = 0
    s.taken_top = -1


#: moves that only take cards out of the hand: the caches of what the turn can still reach stay
_NARROWING: Final = frozenset({Stage, AddToMeld, MergeGroups, LayRedThree, MeldBlackThrees})


def apply(s0: State, action: Action, events: list[Event] | None) -> State:
    """The state after ``action`` (known to be legal); its events are appended to ``events``,
    or none are built when it is ``None`` (the quiet apply of play-outs and probes)."""
    s = s0.clone()
    seat = s.to_act
    side = s.side_of[seat]
    t = type(action)
    if not (
        t is Stage or t is AddToMeld or t is MergeGroups or t is LayRedThree or t is MeldBlackThrees
    ):  # not one of _NARROWING (compiled, five tests of identity cost less than a set look-up)
        s._no_out = s._no_open = False
    if t is Discard:
        card = cast(Discard, action).card
        _play_card(s, seat, card)
        s.pile = s.pile + (card,)  # noqa: RUF005
        if events is not None:
            events.append(Event("discard", {"seat": seat, "card": card}))
        if s.sizes[seat] == 0:
            _end_hand(s, seat, events)
        else:
            _next_turn(s)
        return s
    if t is Stage:
        card = cast(Stage, action).card
        _play_card(s, seat, card)
        p = s.pending
        np = len(p)
        # the tuple written out (compiled, ``p + (card,)`` is a generic concatenation of two)
        pending = (card,) if np == 0 else (p[0], card) if np == 1 else p + (card,)  # noqa: RUF005
        if len(pending) == 1:
            # a new meld begun here: what is known impossible here holds again after taking it
            # back (bit 2, see State)
            s._no_out = 3 if s._no_out & 1 else 0
            s._no_open = 3 if s._no_open & 1 else 0
        elif len(pending) == 3:
            s._no_out = s._no_out & 1
            s._no_open = s._no_open & 1
        if len(pending) == 3:
            meld = make_meld(pending, wild_melds=flags_of(s.rules).wild_melds)
            assert meld is not None
            s.pending = ()
            old = s.melds[side]
            new = old + (meld,)  # noqa: RUF005
            _set_melds(s, side, new)
            table = cached_table(old)
            if table is not None and meld.kind != BLACK3:
                table_after(old, new, table.with_meld(meld.cards))
            if events is not None:
                events.append(
                    Event("meld", {"seat": seat, "cards": meld.cards, "black_threes": False})
                )
            _after_meld(s, seat, side, events)
        else:
            s.pending = pending
        return s
    if t is Draw:
        if s.stock_len == 0:
            if events is not None:
                events.append(Event("stock_out"))
            _end_hand(s, None, events)
            return s
        h = _own(s, seat)
        take = min(2, s.stock_len)
        drawn = s.stock[s.stock_len - take : s.stock_len]
        s.stock_len -= take
        for c in drawn:
            h[c] = h[c] + 1
        s.sizes[seat] = s.sizes[seat] + take
        if flags_of(s.rules).red_threes_as_canasta and (h[14] or h[27]):
            s.red3 = s.red3[:]
            replace_red_threes(s, seat)
        s.phase = MELD
        if events is not None:
            events.append(Event("draw", {"seat": seat, "count": take}))
            events.append(Event("drew", {"seat": seat, "cards": tuple(drawn)}, frozenset({seat})))
        return s
    if t is AddToMeld:
        add = cast(AddToMeld, action)
        i, card = add.meld, add.card
        _play_card(s, seat, card)
        old = s.melds[side]
        new = old[:i] + (add_card(old[i], card),) + old[i + 1 :]  # noqa: RUF005
        _set_melds(s, side, new)
        table = cached_table(old)
        if table is not None:
            table_after(old, new, table.with_card(old[i], card))
        if events is not None:
            events.append(Event("add", {"seat": seat, "card": card, "meld": i}))
        _after_meld(s, seat, side, events)
        return s
    if t is Unstage:
        s.undone = s.undone + (takeback_key(s0, "unstage"),)  # noqa: RUF005
        # back to the position where the meld was begun: the same hand and table
        s._no_out = 1 if s0._no_out & 2 else 0
        s._no_open = 1 if s0._no_open & 2 else 0
        h = _own(s, seat)
        for c in s.pending:
            h[c] = h[c] + 1
        s.sizes[seat] = s.sizes[seat] + len(s.pending)
        s.pending = ()
        s.takebacks += 1
        return s
    if t is TakePile:
        a, b = cast(TakePile, action).pair
        _play_from_hand(s, seat, a, b)
        top = s.pile[-1]
        s.pile = s.pile[:-1]
        meld = build(GROUP, RANK[top], -1, RANK[top], (top, a, b))
        old = s.melds[side]
        new = old + (meld,)  # noqa: RUF005
        _set_melds(s, side, new)
        table = cached_table(old)
        if table is not None:
            table_after(old, new, table.with_meld(meld.cards))
        if events is not None:
            events.append(Event("take", {"seat": seat, "top": top, "cards": (a, b)}))
        if s.opened[side]:
            _take_rest_of_pile(s, seat, events)
            s.phase = MELD
            if s.sizes[seat] == 0:
                _end_hand(s, seat, events)
        else:
            s.taken_top = top
            s.phase = PILE_OPEN
            _after_meld(s, seat, side, events)
        return s
    if t is TakeTop:
        i = cast(TakeTop, action).meld
        top = s.pile[-1]
        s.pile = s.pile[:-1]
        old = s.melds[side]
        new = old[:i] + (add_card(old[i], top),) + old[i + 1 :]  # noqa: RUF005
        _set_melds(s, side, new)
        table = cached_table(old)
        if table is not None:
            table_after(old, new, table.with_card(old[i], top))
        s.phase = MELD
        if events is not None:
            events.append(Event("take_top", {"seat": seat, "card": top, "meld": i}))
        if flags_of(s.rules).sequence_take_whole_pile:
            _own(s, seat)
            _take_rest_of_pile(s, seat, events)
        return s
    if t is MergeGroups:
        mg = cast(MergeGroups, action)
        i, j = mg.meld, mg.other
        old = s.melds[side]
        melds = list(old)
        melds[i] = merge(melds[i], melds[j])
        del melds[j]
        new = tuple(melds)
        _set_melds(s, side, new)
        table = cached_table(old)
        if table is not None:
            table_after(old, new, table.with_merge(old[i], old[j]))
        if events is not None:
            events.append(Event("merge", {"seat": seat, "meld": i, "other": j}))
        return s
    if t is LayRedThree:
        card = cast(LayRedThree, action).card
        _play_card(s, seat, card)
        r3 = s.red3 = s.red3[:]
        r3[side] = r3[side] + (card,)
        if events is not None:
            events.append(Event("red3", {"seat": seat, "card": card}))
        if s.sizes[seat] == 0:
            _end_hand(s, seat, events)
        return s
    if t is MeldBlackThrees:
        cards = cast(MeldBlackThrees, action).cards
        _play_from_hand(s, seat, *cards)
        _set_melds(s, side, (*s.melds[side], build(BLACK3, 3, -1, 3, cards)))
        if events is not None:
            events.append(Event("meld", {"seat": seat, "cards": cards, "black_threes": True}))
        if s.sizes[seat] == 0:
            _end_hand(s, seat, events)
        return s
    if t is UndoOpening:
        s.undone = (*s.undone, takeback_key(s0, "undo"))
        h = _own(s, seat)
        back = [c for m in s.melds[side] for c in m.cards]
        back.extend(s.pending)
        if s.taken_top >= 0:
            back.remove(s.taken_top)
            s.pile = (*s.pile, s.taken_top)
            s.taken_top = -1
            s.phase = DRAW
        for c in back:
            h[c] = h[c] + 1
        s.sizes[seat] = s.sizes[seat] + len(back)
        s.pending = ()
        s.takebacks += 1
        _set_melds(s, side, ())
        if events is not None:
            events.append(Event("undo", {"seat": seat}))
        return s
    if t is Pass:
        if events is not None:
            events.append(Event("pass", {"seat": seat}))
        _next_turn(s)
        return s
    if t is AskGoOut:
        s.asked = True
        s.phase = ANSWER
        s.to_act = partner_of(s, seat)
        if events is not None:
            events.append(Event("ask", {"seat": seat}))
        return s
    if t is AnswerGoOut:
        yes = cast(AnswerGoOut, action).yes
        s.permission = 1 if yes else -1
        s.phase = MELD
        s.to_act = partner_of(s, seat)
        if events is not None:
            events.append(Event("answer", {"seat": seat, "yes": yes}))
        return s
    raise TypeError(f"not a Samba action: {action!r}")


def apply_quiet(s: State, action: Action) -> State:
    """:meth:`SambaGame.apply_quiet`: :func:`apply` building no events (the engine's method is
    this function itself, a ``staticmethod``: no interpreted frame in the compiled build)."""
    return apply(s, action, None)


def partner_of(s: State, seat: int) -> int:
    seats = s.sides[s.side_of[seat]]
    return seats[1] if seats[0] == seat else seats[0]


def _end_hand(s: State, went_out: int | None, events: list[Event] | None) -> None:
    result = hand_result(s.hand_no, s.rules, s.sides, s.melds, s.red3, s.hands, went_out)
    s.history = (*s.history, result)
    s.scores = tuple(a + int(b) for a, b in zip(s.scores, result.scores, strict=True))
    if events is not None:
        events.append(
            Event(
                "hand_end",
                {"hand": s.hand_no, "scores": result.scores, "went_out": went_out},
            )
        )
    rules = s.rules
    if max(s.scores) >= rules.target_score:
        s.finished, s.termination = True, "target_score"
    elif rules.max_hands is not None and s.hand_no + 1 >= rules.max_hands:
        s.finished, s.termination = True, "max_hands"
    if s.finished:
        s.phase = OVER
        s.pending = ()
        s.taken_top = -1
        return
    s.hand_no += 1
    s.dealer = (s.dealer + 1) % s.players
    deal(s, derive_seed(s.seed, "deal", s.hand_no))


__all__ = [
    "VALUE",
    "apply",
    "apply_quiet",
    "legal_actions",
    "may_go_out",
    "opening_minimum",
    "stage_ok",
]
