"""Legal actions of a Samba turn (RULES.md §1 "Turn", "Taking from the discard pile", "First
meld", "Going out"): which draws, takes, melds, adds and discards the rules allow now."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from parlour.games.samba import actions as A
from parlour.games.samba.melds import (
    BLACK3,
    GROUP,
    IS_NATURAL,
    IS_WILD,
    KINDS_OF_RANK,
    RANK,
    SEQUENCE,
    SUIT,
    WILD,
    WILD_KINDS,
    Meld,
    add_card,
    build,
    can_merge,
    cards_text,
    expand_counts,
    fits,
    make_meld,
    meets_going_out,
)
from parlour.games.samba.reach import (
    Table,
    can_go_out,
    opening_quick,
    opening_reachable,
    quick_out,
    table_of,
)
from parlour.games.samba.state import ANSWER, DRAW, MELD, OVER, PILE_OPEN, State

Action = A.SambaAction


def opening_minimum(s: State, side: int) -> int:
    return s.rules.opening_minimum(s.scores[side])


def may_go_out(s: State, side: int) -> bool:
    """The side meets the going-out requirement and the partner has not said no."""
    return s.permission != -1 and meets_going_out(s.melds[side], s.rules.going_out)


# --- staging a new meld, one card at a time ------------------------------------------------


def _seq_window_ok(h: list[int], suit: int, ranks: list[int], need_from_hand: int) -> bool:
    """Some 3-rank window of ``suit`` holds ``ranks``; the missing ranks are in the hand."""
    lo_min = max(4, max(ranks) - 2)
    lo_max = min(12, min(ranks))
    base = suit * 13 - 2
    for lo in range(lo_min, lo_max + 1):
        missing = [r for r in (lo, lo + 1, lo + 2) if r not in ranks]
        if len(missing) == need_from_hand and all(h[base + r] for r in missing):
            return True
    return False


def stage_ok(s: State, pending: tuple[int, ...], card: int, h: list[int]) -> bool:
    """Whether ``card`` (still counted in ``h``) can join the pending cards so that three cards
    from the hand can still complete a valid new meld."""
    cards = (*pending, card)
    k = len(cards)
    if k == 3:
        meld = make_meld(cards, wild_melds=s.rules.wild_melds)
        return meld is not None and meld.kind != BLACK3
    h[card] -= 1
    try:
        need = 3 - k
        nats = [c for c in cards if not IS_WILD[c]]
        wilds = k - len(nats)
        if any(not IS_NATURAL[c] for c in nats):
            return False
        nw = sum(h[w] for w in WILD_KINDS)
        if not nats:
            # all wild so far: a wild meld, or a group of some rank with two naturals in hand
            if s.rules.wild_melds and nw >= need:
                return True
            if wilds >= 2:
                return False
            return any(sum(h[x] for x in KINDS_OF_RANK[r]) >= 2 for r in range(4, 15))
        ranks = [RANK[c] for c in nats]
        if len(set(ranks)) == 1 and wilds <= 1:
            r = ranks[0]
            nr = sum(h[x] for x in KINDS_OF_RANK[r])
            for a in range(need + 1):
                b = need - a
                if a <= nr and b <= nw and wilds + b <= 1 and len(nats) + a >= 2:
                    return True
        if wilds or len({SUIT[c] for c in nats}) != 1 or len(set(ranks)) != len(ranks):
            return False
        if max(ranks) - min(ranks) > 2:
            return False
        return _seq_window_ok(h, SUIT[nats[0]], ranks, need)
    finally:
        h[card] += 1


# --- legal actions --------------------------------------------------------------------------


def legal_actions(s: State) -> list[Action]:
    """The legal actions, in a fixed order.  After the partner answered yes, only the actions
    after which the asker can still go out this turn (seed 002: 'you must obey the answer')."""
    out = raw_legal_actions(s)
    if s.permission == 1 and s.phase == MELD:
        # "yes" is only offered when going out is possible, so in real play this keeps at least
        # one action; a state re-dealt by determinize (the asker's hand unknown to the searching
        # seat) may have none, and then the plain moves stay legal rather than a dead end
        vouched = _vouched_out(s)
        memo: dict[object, bool] = {}
        out = [a for a in out if vouched(a) or keeps_going_out(s, a, memo)] or out
    return out


def _vouched_out(s: State) -> Callable[[Action], bool]:
    """Moves that certainly keep going out possible, without a search: when the quick placement
    of :func:`parlour.games.samba.reach.quick_out` (every natural to the groups of its rank,
    merged where the wild cards allow) takes the whole hand out, any move that follows it does
    too — a red 3 laid out, a natural added to or starting a group of its rank, a merge."""
    seat = s.to_act
    side = s.side_of[seat]
    h = s.hands[seat]
    black = h[1] + h[40]
    if s.pending or not s.opened[side] or black == 2:
        return _never
    rules = s.rules
    melds = s.melds[side]
    table = table_of(melds)
    raw = [h[k] + h[k + 13] + h[k + 26] + h[k + 39] for k in range(2, 13)]
    nw = h[0] + h[13] + h[26] + h[39] + h[52]
    if not quick_out(tuple(raw), table, nw, 0 if black else 1, rules):
        return _never
    nwo = rules.no_wild_on_canasta
    groups = table.groups

    def one_group(r: int) -> bool:
        """The quick placement puts every natural of rank r into one group."""
        gs = groups.get(r)
        return gs is None or len(gs) == 1 or (not nwo and sum([w for _, w in gs]) <= 2)

    pairs = any(n == 2 and i + 4 not in groups for i, n in enumerate(raw))

    def vouched(action: Action) -> bool:
        t = type(action)
        if t is A.LayRedThree:
            return True
        if t is A.AddToMeld:
            k = action.card  # type: ignore[union-attr]
            m = melds[action.meld]  # type: ignore[union-attr]
            return not IS_WILD[k] and m.kind == GROUP and one_group(m.rank)
        if t is A.MergeGroups:
            m = melds[action.meld]  # type: ignore[union-attr]
            return one_group(m.rank) and len(groups[m.rank]) > 1
        if t is A.Stage:
            k = action.card  # type: ignore[union-attr]
            if IS_WILD[k]:
                return pairs  # a wild card with a pair: the quick placement gives every pair one
            n = raw[RANK[k] - 4]
            return one_group(RANK[k]) and (n >= 3 or (n == 2 and RANK[k] not in groups))
        return False

    return vouched


def _never(action: Action) -> bool:
    return False


def keeps_going_out(s: State, action: Action, memo: dict[object, bool] | None = None) -> bool:
    """After ``action`` the acting player has gone out, or can still go out this turn
    (``memo``: answers shared by the moves of one position — the first cards of one meld finish
    the same ways)."""
    from parlour.games.samba.turn import apply

    t = type(action)
    if t is A.Discard:
        return s.sizes[s.to_act] == 1  # the last card discarded goes out; else the turn ends
    if t is A.Pass:
        return False
    if t is A.MeldBlackThrees:
        return True  # melded last: the hand is empty, or its one card is discarded next
    side = s.side_of[s.to_act]
    after = _after_cards(s, side, action)
    if after is not None:
        h, table, pending = after
        if not pending and not any(h):
            return True  # the hand is empty: the player went out
        return _can_go_out_with(s, side, h, table, pending, memo if t is A.Stage else None)
    after_state = apply(s, action, [])
    if after_state.hand_no != s.hand_no or after_state.finished:
        return True  # the hand ended on this player's move: they went out
    if after_state.to_act != s.to_act:
        return False  # the turn ended without going out
    return can_go_out_this_turn(after_state)


def can_go_out_this_turn(s: State) -> bool:
    """Some sequence of this player's moves empties the hand this turn (after drawing, with the
    partner's leave): decided over the cards by :func:`parlour.games.samba.reach.can_go_out`;
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
    return _can_go_out_with(s, side, s.hands[seat], table_of(melds), s.pending)


def _can_go_out_with(
    s: State,
    side: int,
    h: list[int],
    table: Table,
    pending: tuple[int, ...],
    memo: dict[object, bool] | None = None,
) -> bool:
    """Going out is possible from this hand and table, the meld being built finished first
    (``memo``: answers by hand and finished meld, for moves that leave the table as it is)."""
    if s.permission == -1:
        return False  # the partner said no
    minimum = None if s.opened[side] else opening_minimum(s, side)
    rules = s.rules
    for h2, table2, core in _completions(s, h, table, pending):
        if memo is not None and core:
            key = (tuple(h2), tuple(sorted(core)))
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
    for c2 in _continuations(s, pending, h) if len(pending) == 1 else (-1,):
        h2 = h
        two = pending
        if c2 >= 0:
            h2 = h[:]
            h2[c2] -= 1
            two = (*pending, c2)
        for c3 in _continuations(s, two, h2):
            h3 = h2[:]
            h3[c3] -= 1
            core = (*two, c3)
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
    if t is A.Stage:
        k = action.card  # type: ignore[union-attr]
        h = h[:]
        h[k] -= 1
        pending = (*pending, k)
    elif t is A.AddToMeld:
        k = action.card  # type: ignore[union-attr]
        h = h[:]
        h[k] -= 1
        table = table.with_card(melds[action.meld], k)  # type: ignore[union-attr]
    elif t is A.MergeGroups:
        table = table.with_merge(melds[action.meld], melds[action.other])  # type: ignore[union-attr]
    elif t is A.LayRedThree:
        h = h[:]
        h[action.card] -= 1  # type: ignore[union-attr]
    else:
        return None
    return h, table, pending


def takeback_key(s: State, kind: str) -> str:
    """The position a take-back starts from, as public text (within a turn the public table
    fixes the hand: every card that left it is in view, the draw is once and known by the
    stock's size).  A take-back of a ``kind`` from a position already taken back from this turn
    is not offered again — the guard that lets every turn end while every meld stays possible."""
    side = s.side_of[s.to_act]
    melds = " | ".join(cards_text(m.cards) for m in s.melds[side])
    return (
        f"{kind} @ {s.phase}, stock {s.stock_len}, pile {len(s.pile)}, melds [{melds}], "
        f"red 3s [{cards_text(s.red3[side])}], building [{cards_text(s.pending)}]"
    )


def may_take_back(s: State, kind: str) -> bool:
    """The take-back ``kind`` ("unstage" or "undo") has not been made from here this turn."""
    return not s.undone or takeback_key(s, kind) not in s.undone


def raw_legal_actions(s: State) -> list[Action]:
    phase = s.phase
    seat = s.to_act
    side = s.side_of[seat]
    h = s.hands[seat]
    if phase == DRAW:
        return _draw_actions(s, seat, side, h)
    if phase == ANSWER:
        return [A.YES, A.NO]
    if phase == OVER:
        return []
    out: list[Action] = []
    n = s.sizes[seat]
    melds = s.melds[side]
    opened = s.opened[side]
    pending = s.pending
    if pending:
        last = n == 3 - len(pending)  # finishing this meld uses every card in the hand
        for k in _continuations(s, pending, h):
            if last and not _last_meld_ok(s, side, melds, pending, k, h):
                continue
            out.append(A.STAGE[k])
        if not opened:
            ok = _opening_filter(s, side)
            out = [a for a in out if ok(a)]
        if may_take_back(s, "unstage"):
            out.append(A.UNSTAGE)
        return out
    staging = not opened and (bool(melds) or s.taken_top >= 0)
    # discards first (the most common choice), then melds
    held = [k for k in _ALL_KINDS if h[k]]
    if phase == MELD and not staging:
        if n >= 2 or may_go_out(s, side):
            discard = A.DISCARD
            out.extend([discard[k] for k in held])
        else:
            out.append(A.PASS)
    first = len(out)
    if n == 3:
        # a new meld would take the whole hand: only as going out (or reaching the minimum when
        # the rest of the pile is still to come)
        whole = make_meld(expand_counts(h), wild_melds=s.rules.wild_melds)
        if whole is not None and whole.kind != BLACK3 and _empty_ok(s, side, (*melds, whole)):
            _starters(s, h, held, out)
    else:
        _starters(s, h, held, out)
    nwo = s.rules.no_wild_on_canasta
    nw = h[0] + h[13] + h[26] + h[39] + h[52]
    add = A.ADD
    for i, m in enumerate(melds):
        row = add[i] if i < len(add) else A.add_row(i)
        kind = m.kind
        cands: list[int] = []
        if kind == GROUP:
            k = m.rank - 2
            for x in (k, k + 13, k + 26, k + 39):
                if h[x]:
                    cands.append(x)
            if nw:
                w = m.wilds + 1
                if w <= 2 and len(m.cards) - m.wilds >= 2 * w and not (nwo and m.canasta):
                    cands.extend([x for x in WILD_KINDS if h[x]])
        elif kind == SEQUENCE:
            if len(m.cards) < 7:
                base = m.suit * 13 - 2
                if m.rank > 4 and h[base + m.rank - 1]:
                    cands.append(base + m.rank - 1)
                if m.high < 14 and h[base + m.high + 1]:
                    cands.append(base + m.high + 1)
        elif kind == WILD and nw and len(m.cards) < 7:
            cands.extend([x for x in WILD_KINDS if h[x]])
        for k in cands:
            if n == 1:
                new = add_card(m, k)
                if not _empty_ok(s, side, (*melds[:i], new, *melds[i + 1 :])):
                    continue
            out.append(row[k])
    group_ranks = [m.rank for m in melds if m.kind == GROUP]
    if len(set(group_ranks)) < len(group_ranks):
        _merges(melds, nwo, out)

    for k in (14, 27):
        if h[k] and (n > 1 or (opened and may_go_out(s, side))):
            out.append(A.LAY_RED3[k])
    if not opened and len(out) > first:
        # seed 002: the first meld must reach the minimum — only steps that still can
        ok = _opening_filter(s, side)
        out[first:] = [a for a in out[first:] if ok(a)]
    b1, b2 = h[1], h[40]
    if b1 + b2 >= 3 and phase == MELD and opened and may_go_out(s, side):
        rest = n - b1 - b2
        options = []
        if rest <= 1:
            options.append((b1, b2))
        if rest == 0:
            if b1:
                options.append((b1 - 1, b2))
            if b2:
                options.append((b1, b2 - 1))
        for x, y in options:
            if x + y >= 3:
                out.append(A.MeldBlackThrees((1,) * x + (40,) * y))
    if (
        phase == MELD
        and not s.asked
        and not s._no_out
        and s.rules.partner_permission
        and len(s.sides[side]) > 1
    ):
        # seed 002: "Before going out, you may ask your partner" — whenever going out this turn
        # is possible
        if can_go_out_this_turn(s):
            out.append(A.ASK)
        else:
            s._no_out = True
    if staging and may_take_back(s, "undo"):
        out.append(A.UNDO)
    return out


def _last_meld_ok(
    s: State, side: int, melds: tuple[Meld, ...], pending: tuple[int, ...], k: int, h: list[int]
) -> bool:
    """Staging ``k`` commits the whole hand to the meld being built (nothing else is left to
    finish it with): legal only if that meld is valid and emptying the hand is allowed."""
    rest = expand_counts(h)
    rest.remove(k)
    m = make_meld((*pending, k, *rest), wild_melds=s.rules.wild_melds)
    return m is not None and m.kind != BLACK3 and _empty_ok(s, side, (*melds, m))


def _opening_filter(s: State, side: int) -> Callable[[Action], bool]:
    """For a side that has not opened: which card moves keep the first meld within reach (seed
    002: the melds of the turn 'must be worth at least a minimum').  A quick placement of the
    hand that reaches the minimum vouches for starting a meld with any card it puts into a new
    meld (:func:`parlour.games.samba.reach.opening_quick`); every other move is checked by
    :func:`parlour.games.samba.reach.opening_reachable` (a meld half built is finished each way
    the hand allows)."""
    seat = s.to_act
    h = s.hands[seat]
    melds = s.melds[side]
    minimum = opening_minimum(s, side)
    # the rest of a pile taken for the first meld joins the hand when the minimum is met, so the
    # hand may run empty just then; otherwise a card must stay (for the discard) unless going out
    keep_one = not (s.phase == PILE_OPEN and s.pile)
    rules = s.rules
    under_way = bool(melds) or s.taken_top >= 0 or bool(s.pending)
    starts = (
        opening_quick(h, melds, minimum, keep_one=keep_one, rules=rules)
        if not s.pending and not s._no_open
        else frozenset()
    )
    vouched = bool(starts)
    # a move only narrows what the hand can still do: if the position itself cannot reach the
    # minimum, no card move can (and no later position of this turn until the hand grows)
    hopeless = s._no_open or (
        not vouched
        and not any(
            opening_reachable(h2, table2, minimum, keep_one=keep_one, rules=rules)
            for h2, table2, _ in _completions(s, h, table_of(melds), s.pending)
        )
    )
    s._no_open = hopeless

    def ok(action: Action) -> bool:
        t = type(action)
        if t is A.LayRedThree and not under_way:
            return True  # no first meld under way: nothing to reach yet
        if hopeless:
            return False
        if t is A.Stage and action.card in starts:  # type: ignore[union-attr]
            return True
        after = _after_cards(s, side, action)
        if after is None:
            return True
        h2, table2, pending = after
        for h3, table3, core in _completions(s, h2, table2, pending):
            if t is A.Stage:
                # different first cards of one meld finish the same way: ask once
                key = (tuple(h3), tuple(sorted(core)))
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

    memo: dict[object, bool] = {}
    return ok


def _merges(melds: tuple[Meld, ...], nwo: bool, out: list[Action]) -> None:
    by_rank: dict[int, list[int]] = {}
    for i, m in enumerate(melds):
        if m.kind == GROUP:
            by_rank.setdefault(m.rank, []).append(i)
    for same in by_rank.values():
        for x, a in enumerate(same):
            for b in same[x + 1 :]:
                if can_merge(melds[a], melds[b], no_wild_on_canasta=nwo):
                    out.append(A.merge_action(a, b))


def _continuations(s: State, pending: tuple[int, ...], h: list[int]) -> list[int]:
    """Kinds in the hand that can join the pending cards so that the hand can still complete a
    valid three-card meld (the rule of :func:`stage_ok`, written out for speed)."""
    nw = h[0] + h[13] + h[26] + h[39] + h[52]
    wild_melds = s.rules.wild_melds
    out: list[int] = []
    if len(pending) == 1:
        p = pending[0]
        if IS_WILD[p]:
            for r in range(4, 15):
                ks = KINDS_OF_RANK[r]
                if h[ks[0]] + h[ks[1]] + h[ks[2]] + h[ks[3]] >= 2:
                    out.extend([k for k in ks if h[k]])
            if wild_melds and nw >= 2:
                out.extend([k for k in WILD_KINDS if h[k]])
            return sorted(out)
        r = RANK[p]
        ks = KINDS_OF_RANK[r]
        nr = h[ks[0]] + h[ks[1]] + h[ks[2]] + h[ks[3]]
        if nr >= 2 or (nr >= 1 and nw >= 1):
            out.extend([k for k in ks if h[k]])
        if nr >= 1:
            out.extend([k for k in WILD_KINDS if h[k]])
        base = p - r  # kind of rank x in this suit: base + x
        lo_ok = r >= 5 and h[base + r - 1]
        hi_ok = r <= 13 and h[base + r + 1]
        if r >= 6 and h[base + r - 2] and lo_ok:
            out.append(base + r - 2)
        if lo_ok and ((r >= 6 and h[base + r - 2]) or hi_ok):
            out.append(base + r - 1)
        if hi_ok and (lo_ok or (r <= 12 and h[base + r + 2])):
            out.append(base + r + 1)
        if r <= 12 and h[base + r + 2] and hi_ok:
            out.append(base + r + 2)
        return sorted(out)
    a, b = pending
    if IS_WILD[a] and IS_WILD[b]:
        return [k for k in WILD_KINDS if h[k]] if wild_melds else []
    if IS_WILD[a] or IS_WILD[b]:
        nat = b if IS_WILD[a] else a
        return [k for k in KINDS_OF_RANK[RANK[nat]] if h[k]]
    ra, rb = RANK[a], RANK[b]
    if ra == rb:
        return sorted([k for k in (*KINDS_OF_RANK[ra], *WILD_KINDS) if h[k]])
    lo, hi = min(ra, rb), max(ra, rb)
    base = a - ra
    if hi - lo == 2:
        return [base + lo + 1] if h[base + lo + 1] else []
    res = []
    if lo >= 5 and h[base + lo - 1]:
        res.append(base + lo - 1)
    if hi <= 13 and h[base + hi + 1]:
        res.append(base + hi + 1)
    return res


_ALL_KINDS = tuple(range(53))


def _starters(s: State, h: list[int], held: list[int], out: list[Action]) -> None:
    """``Stage`` actions that start a new meld: the card and two more from the hand can make a
    group or a sequence (the same test as :func:`stage_ok`, unrolled for speed)."""
    nw = h[0] + h[13] + h[26] + h[39] + h[52]
    stage = A.STAGE
    group_ok = False
    for k in held:
        r = k % 13 + 2
        if r < 4 or k == 52:
            continue
        j = r - 2
        nr = h[j] + h[j + 13] + h[j + 26] + h[j + 39]
        if nr >= 2:
            group_ok = True
        m = nr - 1
        if (
            m >= 2
            or (m >= 1 and nw)
            or (r >= 6 and h[k - 2] and h[k - 1])
            or (5 <= r <= 13 and h[k - 1] and h[k + 1])
            or (r <= 12 and h[k + 1] and h[k + 2])
        ):
            out.append(stage[k])
    if nw and (group_ok or (s.rules.wild_melds and nw >= 3)):
        for k in WILD_KINDS:
            if h[k]:
                out.append(stage[k])


def _empty_ok(s: State, side: int, melds_after: tuple[Meld, ...]) -> bool:
    """May an action that leaves the hand empty be taken?  While the pile taken for a first meld
    is still on the table, yes if the melds then reach the minimum: the rest of the pile comes
    into the hand, the player is not going out (issue 16 item 1).  Otherwise only going out: the
    side must meet the requirement afterwards, have opened (or be opening now), and not be told
    no."""
    if not s.opened[side] and s.phase == PILE_OPEN and s.pile:
        return sum(m.value for m in melds_after) >= opening_minimum(s, side)
    if s.permission == -1 or not meets_going_out(melds_after, s.rules.going_out):
        return False
    if s.opened[side]:
        return True
    return sum(m.value for m in melds_after) >= opening_minimum(s, side)


def _draw_actions(s: State, seat: int, side: int, h: list[int]) -> list[Action]:
    out: list[Action] = [A.DRAW]
    # seed 002: red 3s are laid out "at any point during your turn" — before drawing too (with an
    # empty stock, drawing ends the hand and a red 3 still held costs 750)
    if h[14] or h[27]:
        n = s.sizes[seat]
        for k in (14, 27):
            if h[k] and (n > 1 or (s.opened[side] and may_go_out(s, side))):
                out.append(A.LAY_RED3[k])
    pile = s.pile
    if not pile:
        return out
    top = pile[-1]
    if not IS_NATURAL[top]:
        return out  # a 3, 2 or joker on top blocks the pile
    kinds = KINDS_OF_RANK[RANK[top]]
    n = s.sizes[seat]
    opened = s.opened[side]
    empties = n - 2 + len(pile) - 1 == 0
    # an opened side taking the pile with its last two cards and nothing under the top card would
    # be going out, which needs the requirement
    if not (opened and empties and not meets_going_out(s.melds[side], s.rules.going_out)):
        for i, a in enumerate(kinds):
            if not h[a]:
                continue
            for b in kinds[i:]:
                if h[b] >= (2 if a == b else 1) and (
                    opened or _pile_opening_ok(s, side, h, a, b, top)
                ):
                    out.append(A.pair_action(a, b))
    for i, m in enumerate(s.melds[side]):
        if m.kind == SEQUENCE and fits(m, top):
            out.append(A.top_action(i))
    return out


def _pile_opening_ok(s: State, side: int, h: list[int], a: int, b: int, top: int) -> bool:
    """Seed 002: the pile is taken for a first meld with 'more cards if this is your side's first
    meld and you need them to reach the minimum' — legal only if melds from the hand can reach
    it (issue 16 item 4).  The rest of the pile joins the hand when the minimum is met, so the
    hand may be used up then; with nothing under the top card, a card must stay."""
    h2 = h[:]
    h2[a] -= 1
    h2[b] -= 1
    group = build(GROUP, RANK[top], -1, RANK[top], (top, a, b))
    return opening_reachable(
        h2,
        (*s.melds[side], group),
        opening_minimum(s, side),
        keep_one=len(s.pile) == 1,
        rules=s.rules,
    )
