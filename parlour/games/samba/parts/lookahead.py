"""The exact checks of :mod:`legal` on a state (issue 16 items 1, 4, 5): the moves of a first meld
that keep the minimum within reach, the pile taken for a first meld, going out this turn ("partner,
may I go out?") and the moves that keep it possible after "yes" — the state's cards handed to
:mod:`parlour.games.samba.parts.reach`, a meld half built finished each way the hand allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final, cast

from parlour.core.canasta import wild_count
from parlour.games.samba.actions import (
    AddToMeld,
    Discard,
    LayRedThree,
    MeldBlackThrees,
    MergeGroups,
    Pass,
    SambaAction,
    Stage,
)
from parlour.games.samba.parts.melds import GROUP, IS_WILD, RANK, Meld, meets_going_out
from parlour.games.samba.parts.reach import (
    Table,
    can_go_out,
    flags_of,
    opening_quick,
    opening_reachable,
    quick_out,
    table_of,
)
from parlour.games.samba.parts.staging import continuations
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.state import MELD, PILE_OPEN, State, side_minimum

Action = SambaAction

# ``t + (x,)`` rather than ``(*t, x)`` (ruff's RUF005) on the paths of every move: compiled, a
# starred tuple display is built as a list and then copied into a tuple


def _minimum(s: State, side: int) -> int:
    return side_minimum(s, side)


def vouched_check(s: State) -> _Vouched | None:
    """Moves that certainly keep going out possible, without a search: when the quick placement
    of :func:`parlour.games.samba.parts.reach.quick_out` (every natural to the groups of its rank,
    merged where the wild cards allow) takes the whole hand out, any move that follows it does
    too — a red 3 laid out, a natural added to or starting a group of its rank, a merge.  ``None``:
    it vouches for none (:func:`vouched_out` as an object whose ``vouches`` is called directly)."""
    seat = s.to_act
    side = s.side_of[seat]
    h = s.hands[seat]
    black = h[1] + h[40]
    if s.pending or not s.opened[side]:
        return None
    nw = wild_count(h)
    b3_wild = 0
    if black == 2:
        # two black 3s: a group only with a wild card (black_three_wilds), which it then takes
        if not (nw and flags_of(s.rules).black_three_wilds):
            return None
        b3_wild = 1
    rules = s.rules
    melds = s.melds[side]
    table = table_of(melds)
    raw = [h[k] + h[k + 13] + h[k + 26] + h[k + 39] for k in range(2, 13)]
    if not quick_out(tuple(raw), table, nw - b3_wild, 0 if black and not b3_wild else 1, rules):
        return None
    groups = table.groups
    pairs = False
    for i in range(11):
        if raw[i] == 2 and i + 4 not in groups:
            pairs = True
            break
    return _Vouched(melds, table, raw, rules.no_wild_on_canasta, pairs)


def vouched_out(s: State) -> Callable[[Action], bool]:
    """:func:`vouched_check` as a callable (one that vouches for nothing when it is ``None``)."""
    v = vouched_check(s)
    return _never if v is None else v


class _Vouched:
    """:func:`vouched_out`'s answer once the quick placement takes the whole hand out (a class,
    not a closure: a compiled closure and its frame refer to each other, a cycle left for the
    collector at every position)."""

    def __init__(
        self, melds: tuple[Meld, ...], table: Table, raw: list[int], nwo: bool, pairs: bool
    ) -> None:
        self.melds = melds
        self.groups = table.groups
        self.raw = raw
        self.nwo = nwo
        self.pairs = pairs  # a natural pair with no group: the quick placement gives it a wild

    def one_group(self, r: int) -> bool:
        """The quick placement puts every natural of rank r into one group."""
        gs = self.groups.get(r)
        if gs is None or len(gs) == 1:
            return True
        if self.nwo:
            return False
        w = 0
        for g in gs:
            w += g[1]
        return w <= 2

    def __call__(self, action: Action) -> bool:
        return self.vouches(action)

    def vouches(self, action: Action) -> bool:
        """Whether the move ``action`` certainly keeps going out possible."""
        t = type(action)
        if t is LayRedThree:
            return True
        if t is AddToMeld:
            add = cast(AddToMeld, action)
            k = add.card
            m = self.melds[add.meld]
            return not IS_WILD[k] and m.kind == GROUP and self.one_group(m.rank)
        if t is MergeGroups:
            m = self.melds[cast(MergeGroups, action).meld]
            return self.one_group(m.rank) and len(self.groups[m.rank]) > 1
        if t is Stage:
            k = cast(Stage, action).card
            if IS_WILD[k]:
                # a wild card with a pair: the quick placement gives every pair one
                return self.pairs
            n = self.raw[RANK[k] - 4]
            return self.one_group(RANK[k]) and (n >= 3 or (n == 2 and RANK[k] not in self.groups))
        return False


def _never(action: Action) -> bool:
    return False


def keeps_going_out(s: State, action: Action, memo: dict[object, bool] | None = None) -> bool:
    """After ``action`` the acting player has gone out, or can still go out this turn
    (``memo``: answers shared by the moves of one position — the first cards of one meld finish
    the same ways)."""
    t = type(action)
    if t is Discard:
        return s.sizes[s.to_act] == 1  # the last card discarded goes out; else the turn ends
    if t is Pass:
        return False
    if t is MeldBlackThrees:
        return True  # melded last: the hand is empty, or its one card is discarded next
    side = s.side_of[s.to_act]
    after = _after_cards(s, side, action)
    if after is not None:
        h, table, pending = after
        if not pending and not any(h):
            return True  # the hand is empty: the player went out
        return _can_go_out_with(s, side, h, table, pending, memo if t is Stage else None)
    # imported here (apply imports legal, which imports this module), only on this path: a
    # function's import runs at every call when compiled
    from parlour.games.samba.apply import apply

    after_state = apply(s, action, None)
    if after_state.hand_no != s.hand_no or after_state.finished:
        return True  # the hand ended on this player's move: they went out
    if after_state.to_act != s.to_act:
        return False  # the turn ended without going out
    return can_go_out_this_turn(after_state)


def can_go_out_this_turn(s: State) -> bool:
    """Some sequence of this player's moves empties the hand this turn (after drawing, with the
    partner's leave): decided over the cards by :func:`parlour.games.samba.parts.reach.can_go_out`;
    a meld half built is finished first, each way the hand allows."""
    if s.permission == -1 or s.phase != MELD:
        return False
    seat = s.to_act
    side = s.side_of[seat]
    melds = s.melds[side]
    if (
        not s.pending
        and s.sizes[seat] == 1
        and s.opened[side]
        and meets_going_out(melds, s.rules.going_out)
    ):
        return True  # discarding the last card goes out
    if s.pending:
        return _can_go_out_with(s, side, s.hands[seat], table_of(melds), s.pending)
    h = s.hands[seat]
    rules = s.rules
    minimum = -1 if s.opened[side] else _minimum(s, side)
    last = _LAST_YES
    if last.melds is melds and last.rules is rules and last.minimum == minimum and last.hand == h:
        return True
    # _can_go_out_with with nothing being built, its minimum not read again
    if can_go_out(h, table_of(melds), rules, need_value=None if minimum < 0 else minimum):
        last.melds = melds
        last.rules = rules
        last.minimum = minimum
        last.hand = h[:]
        return True
    return False


class _LastYes:
    """The position :func:`can_go_out_this_turn` last answered yes for (nothing being built): its
    hand (a copy), the side's melds (the tuple itself: held, so its id is not reused), the rules
    and the first meld's minimum (−1: the side has opened) — all the answer depends on.  A
    position comes back within the turn (a meld begun and taken back gives the same hand and
    the same melds tuple), and its answer is the same.  Not "yes for the rest of the turn": a
    move can spoil going out (a wild card put where a pair needed it), so the answer is
    remembered for this position only.  (A "no" is remembered by the state's ``_no_out``: a
    move only narrows what the hand can do.)"""

    def __init__(self) -> None:
        self.melds: tuple[Meld, ...] | None = None
        self.rules: SambaRules | None = None
        self.minimum = -1
        self.hand: list[int] = []


_LAST_YES: Final = _LastYes()


def _can_go_out_with(
    s: State,
    side: int,
    h: list[int],
    table: Table,
    pending: tuple[int, ...],
    memo: dict[object, bool] | None = None,
) -> bool:
    """Going out is possible from this hand and table, the meld being built finished first
    (``memo``: answers by the finished meld's cards, for the moves of one position that leave the
    table as it is; the meld's cards are looked up before the hand and table after them are
    made)."""
    if s.permission == -1:
        return False  # the partner said no
    minimum = None if s.opened[side] else _minimum(s, side)
    rules = s.rules
    if memo is not None and len(pending) in (1, 2):
        # the meld's cards are looked up before the hand and table after them are made
        for c2 in continuations(s, pending, h) if len(pending) == 1 else (-1,):
            h2 = h
            two = pending
            if c2 >= 0:
                h2 = h[:]
                h2[c2] = h2[c2] - 1
                two = (*pending, c2)
            for c3 in continuations(s, two, h2):
                core = (*two, c3)
                # within one position the hand left is the position's less the meld's cards, so
                # the meld's cards (as a multiset) are the whole key
                key = tuple(sorted(core))
                found = memo.get(key)
                if found is None:
                    h3 = h2[:]
                    h3[c3] = h3[c3] - 1
                    found = memo[key] = can_go_out(
                        h3, table.with_meld(core), rules, need_value=minimum
                    )
                if found:
                    return True
        return False
    if not pending:
        return can_go_out(h, table, rules, need_value=minimum)  # nothing being built
    for h2, table2, core in _completions(s, h, table, pending):
        if memo is not None and core:
            key = tuple(sorted(core))
            found = memo.get(key)
            if found is None:
                found = memo[key] = can_go_out(h2, table2, rules, need_value=minimum)
        else:
            found = can_go_out(h2, table2, rules, need_value=minimum)
        if found:
            return True
    return False


def _completions(
    s: State, h: list[int], table: Table, pending: tuple[int, ...]
) -> Iterator[tuple[list[int], Table, tuple[int, ...]]]:
    """The hand and the side's table after the meld being built is finished, each way the hand
    allows, with that meld's cards (just the position itself when nothing is being built)."""
    if not pending:
        yield h, table, ()
        return
    if len(pending) == 3:
        yield h, table.with_meld(pending), pending
        return
    for c2 in continuations(s, pending, h) if len(pending) == 1 else (-1,):
        h2 = h
        two = pending
        if c2 >= 0:
            h2 = h[:]
            h2[c2] = h2[c2] - 1
            two = pending + (c2,)  # noqa: RUF005
        for c3 in continuations(s, two, h2):
            h3 = h2[:]
            h3[c3] = h3[c3] - 1
            core = two + (c3,)  # noqa: RUF005
            yield h3, table.with_meld(core), core


def _after_cards(
    s: State, side: int, action: Action
) -> tuple[list[int], Table, tuple[int, ...]] | None:
    """The hand, the side's table and the meld being built after a card move (a step of a meld,
    an add, a merge, a red 3 laid out); None for any other action."""
    h = s.hands[s.to_act]
    melds = s.melds[side]
    table = table_of(melds)
    pending = s.pending
    t = type(action)
    if t is Stage:
        k = cast(Stage, action).card
        h = h[:]
        h[k] = h[k] - 1
        pending = pending + (k,)  # noqa: RUF005
    elif t is AddToMeld:
        add = cast(AddToMeld, action)
        k = add.card
        h = h[:]
        h[k] = h[k] - 1
        table = table.with_card(melds[add.meld], k)
    elif t is MergeGroups:
        mg = cast(MergeGroups, action)
        table = table.with_merge(melds[mg.meld], melds[mg.other])
    elif t is LayRedThree:
        h = h[:]
        k = cast(LayRedThree, action).card
        h[k] = h[k] - 1
    else:
        return None
    return h, table, pending


def _meld_key(core: tuple[int, ...]) -> int:
    """The cards of a finished three-card meld as one int, whatever their order: the key of the
    first-meld checks' memo (compiled, an int is hashed and compared for less than the tuple of
    ``tuple(sorted(core))``)."""
    a, b, c = core[0], core[1], core[2]
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return (a * 64 + b) * 64 + c


def _opening_finishes(
    s: State,
    h: list[int],
    table: Table,
    pending: tuple[int, ...],
    memo: dict[object, bool],
    minimum: int,
    keep_one: bool,
    rules: SambaRules,
) -> bool:
    """Some way of finishing the meld being built (one or two cards of it staged: ``pending``)
    keeps the first meld's minimum within reach — ``any`` of :func:`opening_reachable` over
    :func:`_completions`, with ``memo``: answers by the meld's cards (within one position they
    fix the hand left), looked up before the hand and table after them are made."""
    for c2 in continuations(s, pending, h) if len(pending) == 1 else (-1,):
        h2 = h
        two = pending
        if c2 >= 0:
            h2 = h[:]
            h2[c2] = h2[c2] - 1
            two = pending + (c2,)  # noqa: RUF005
        for c3 in continuations(s, two, h2):
            core = two + (c3,)  # noqa: RUF005
            key = _meld_key(core)
            found = memo.get(key)
            if found is None:
                h3 = h2[:]
                h3[c3] = h3[c3] - 1
                found = memo[key] = opening_reachable(
                    h3, table.with_meld(core), minimum, keep_one=keep_one, rules=rules
                )
            if found:
                return True
    return False


def opening_filter(s: State, side: int) -> Callable[[Action], bool]:
    """:func:`opening_check` as a callable."""
    return opening_check(s, side)


def opening_kept(s: State, side: int, actions: list[Action]) -> list[Action]:
    """``[a for a in actions if opening_filter(s, side)(a)]`` with a direct (compiled) call of
    the check per action instead of a call of a callable object."""
    ok = opening_check(s, side)
    kept: list[Action] = []
    for a in actions:
        if ok.check(a):
            kept.append(a)
    return kept


def opening_check(s: State, side: int) -> _OpeningCheck:
    """For a side that has not opened: which card moves keep the first meld within reach (seed
    002: the melds of the turn 'must be worth at least a minimum').  A quick placement of the
    hand that reaches the minimum vouches for starting a meld with any card it puts into a new
    meld (:func:`parlour.games.samba.parts.reach.opening_quick`); every other move is checked by
    :func:`parlour.games.samba.parts.reach.opening_reachable` (a meld half built is finished each way
    the hand allows)."""
    seat = s.to_act
    h = s.hands[seat]
    melds = s.melds[side]
    minimum = _minimum(s, side)
    # the rest of a pile taken for the first meld joins the hand when the minimum is met, so the
    # hand may run empty just then; otherwise a card must stay (for the discard) unless going out
    keep_one = not (s.phase == PILE_OPEN and s.pile)
    rules = s.rules
    under_way = bool(melds) or s.taken_top >= 0 or bool(s.pending)
    starts = (
        _opening_starts(h, melds, minimum, keep_one, rules)
        if not s.pending and not (s._no_open & 1)
        else frozenset()
    )
    vouched = bool(starts)
    # a move only narrows what the hand can still do: if the position itself cannot reach the
    # minimum, no card move can (and no later position of this turn until the hand grows)
    hopeless = bool(s._no_open & 1)
    if not hopeless and not vouched:
        hopeless = True
        for h2, table2, _ in _completions(s, h, table_of(melds), s.pending):
            if opening_reachable(h2, table2, minimum, keep_one=keep_one, rules=rules):
                hopeless = False
                break
    s._no_open = (s._no_open & 2) | (1 if hopeless else 0)
    return _OpeningCheck(s, side, minimum, keep_one, under_way, hopeless, starts)


#: :func:`opening_quick`'s answers by (hand, melds, minimum, keep_one): a position comes back
#: within a turn (a meld begun and taken back: the same hand and the same melds tuple) and its
#: quick placement is the same.  The melds and rules objects are held in the value, so their
#: ids are not reused while the entry stands.
_STARTS: Final[dict[tuple[tuple[int, ...], int, int, bool], _Starts]] = {}
#: entries of :data:`_STARTS` kept before it starts again: the positions that come back are the
#: current turn's, so a few dozen hit as often as 2,048 did, and each entry kept for a dead
#: position is objects the cyclic collector goes over again and again (docs/speed.md, sambagc)
_STARTS_KEPT: Final = 64


class _Starts:
    def __init__(self, melds: tuple[Meld, ...], rules: SambaRules, starts: frozenset[int]) -> None:
        self.melds = melds
        self.rules = rules
        self.starts = starts


def _opening_starts(
    h: list[int], melds: tuple[Meld, ...], minimum: int, keep_one: bool, rules: SambaRules
) -> frozenset[int]:
    """``opening_quick(h, melds, minimum, keep_one=keep_one, rules=rules)``, remembered."""
    key = (tuple(h), id(melds), minimum, keep_one)
    hit = _STARTS.get(key)
    if hit is not None and hit.melds is melds and hit.rules is rules:
        return hit.starts
    starts = opening_quick(h, melds, minimum, keep_one=keep_one, rules=rules)
    if len(_STARTS) >= _STARTS_KEPT:
        _STARTS.clear()
    _STARTS[key] = _Starts(melds, rules, starts)
    return starts


class _OpeningCheck:
    """:func:`opening_filter`'s check of one card move (a class, not a closure: a compiled
    closure and its frame refer to each other, a cycle left for the collector at every
    position); ``memo``: the answers by the cards of a meld finished, shared by the moves."""

    def __init__(
        self,
        s: State,
        side: int,
        minimum: int,
        keep_one: bool,
        under_way: bool,
        hopeless: bool,
        starts: frozenset[int],
    ) -> None:
        self.s = s
        self.side = side
        self.minimum = minimum
        self.keep_one = keep_one
        self.under_way = under_way
        self.hopeless = hopeless
        self.starts = starts
        self.memo: dict[object, bool] = {}

    def __call__(self, action: Action) -> bool:
        return self.check(action)

    def check(self, action: Action) -> bool:
        """Whether the card move ``action`` keeps the first meld within reach."""
        t = type(action)
        if t is LayRedThree and not self.under_way:
            return True  # no first meld under way: nothing to reach yet
        if self.hopeless:
            return False
        if t is Stage and cast(Stage, action).card in self.starts:
            return True
        s = self.s
        after = _after_cards(s, self.side, action)
        if after is None:
            return True
        h2, table2, pending = after
        minimum = self.minimum
        keep_one = self.keep_one
        rules = s.rules
        memo = self.memo
        if t is Stage and len(pending) < 3:
            return _opening_finishes(s, h2, table2, pending, memo, minimum, keep_one, rules)
        for h3, table3, core in _completions(s, h2, table2, pending):
            if t is Stage:
                # different first cards of one meld finish the same way: ask once
                key = _meld_key(core)  # the hand left follows from them (one position)
                found = memo.get(key)
                if found is None:
                    found = memo[key] = opening_reachable(
                        h3, table3, minimum, keep_one=keep_one, rules=rules
                    )
            else:
                found = opening_reachable(h3, table3, minimum, keep_one=keep_one, rules=rules)
            if found:
                return True
        return False


def opening_steps(s: State, side: int, steps: list[Action]) -> list[Action]:
    """``[a for a in steps if opening_filter(s, side)(a)]`` for the ``Stage`` actions that go on
    with a meld being built (``s.pending``) by a side that has not opened — the same answer and
    the same ``_no_open``, with less work: each step is checked over the ways it finishes the
    meld, which are some of the ways the position itself finishes it, so the position's own check
    (is the minimum still within reach at all?) is needed only when no step passes."""
    if not s.pending:
        return opening_kept(s, side, steps)
    if s._no_open & 1:
        return []  # hopeless: opening_filter keeps no step
    h = s.hands[s.to_act]
    melds = s.melds[side]
    minimum = _minimum(s, side)
    keep_one = not (s.phase == PILE_OPEN and s.pile)
    rules = s.rules
    table = table_of(melds)
    memo: dict[object, bool] = {}
    kept: list[Action] = []
    for a in steps:
        k = cast(Stage, a).card  # a Stage (compiled: a typed read, an int)
        h2 = h[:]
        h2[k] = h2[k] - 1
        pending = s.pending + (k,)  # noqa: RUF005
        if len(pending) < 3:
            found = _opening_finishes(s, h2, table, pending, memo, minimum, keep_one, rules)
        else:
            found = False
            for h3, table3, core in _completions(s, h2, table, pending):
                key = _meld_key(core)  # the hand left follows from them (one position)
                hit = memo.get(key)
                if hit is None:
                    hit = memo[key] = opening_reachable(
                        h3, table3, minimum, keep_one=keep_one, rules=rules
                    )
                if hit:
                    found = True
                    break
        if found:
            kept.append(a)
    if kept or any(
        opening_reachable(h2, table2, minimum, keep_one=keep_one, rules=rules)
        for h2, table2, _ in _completions(s, h, table, s.pending)
    ):
        s._no_open = s._no_open & 2
    else:
        s._no_open = s._no_open | 1
    return kept


def pile_opening_ok(s: State, side: int, h: list[int], a: int, b: int, top: int) -> bool:
    """Seed 002: the pile is taken for a first meld with 'more cards if this is your side's first
    meld and you need them to reach the minimum' — legal only if melds from the hand can reach
    it (issue 16 item 4).  The rest of the pile joins the hand when the minimum is met, so the
    hand may be used up then; with nothing under the top card, a card must stay."""
    h2 = h[:]
    h2[a] = h2[a] - 1
    h2[b] = h2[b] - 1
    # the side's table with the new group (what Table((*melds, group)) would build)
    table = table_of(s.melds[side]).with_meld((top, a, b))
    return opening_reachable(
        h2,
        table,
        _minimum(s, side),
        keep_one=len(s.pile) == 1,
        rules=s.rules,
    )
