"""Legal actions of a Samba turn (RULES.md §1 "Turn", "Taking from the discard pile", "First
meld", "Going out"): which draws, takes, melds, adds and discards the rules allow now."""

from __future__ import annotations

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
    can_merge,
    fits,
    make_meld,
    meets_going_out,
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


#: take-backs (of a meld being built or of an opening) allowed in one turn; after that no new
#: meld may be started and the pile not taken this turn.  Not in the seeds: a guard so that no
#: player (bots included) can take back and redo forever — every turn ends.
MAX_TAKEBACKS = 3

#: "partner, may I go out?" is offered with at most this many cards left in the hand
ASK_MAX_CARDS = 5


def legal_actions(s: State) -> list[Action]:
    """The legal actions, in a fixed order.  After the partner answered yes, only the actions
    after which the asker can still go out this turn (seed 002: 'you must obey the answer')."""
    out = raw_legal_actions(s)
    if s.permission == 1 and s.phase == MELD:
        # "yes" is only offered when going out is possible, so in real play this keeps at least
        # one action; a state re-dealt by determinize (the asker's hand unknown to the searching
        # seat) may have none, and then the plain moves stay legal rather than a dead end
        out = [a for a in out if keeps_going_out(s, a)] or out
    return out


def keeps_going_out(s: State, action: Action) -> bool:
    """After ``action`` the acting player has gone out, or can still go out this turn."""
    from parlour.games.samba.turn import apply

    after = apply(s, action, [])
    if after.hand_no != s.hand_no or after.finished:
        return True  # the hand ended on this player's move: they went out
    if after.to_act != s.to_act:
        return False  # the turn ended (a discard or pass) without going out
    return can_go_out_this_turn(after, {})


_NO_SEARCH = (A.Unstage, A.MergeGroups, A.AskGoOut, A.Pass)


def can_go_out_this_turn(s: State, memo: dict[object, bool]) -> bool:
    """Some sequence of this player's moves empties the hand this turn (a small search: the hand
    holds at most ``ASK_MAX_CARDS`` cards when it matters)."""
    from parlour.games.samba.turn import apply

    seat = s.to_act
    key = (tuple(s.hands[seat]), s.pending, s.melds[s.side_of[seat]])
    if key in memo:
        return memo[key]
    memo[key] = False
    found = False
    for a in raw_legal_actions(s):
        if isinstance(a, _NO_SEARCH):
            continue
        after = apply(s, a, [])
        if (
            after.hand_no != s.hand_no
            or after.finished
            or (after.to_act == seat and can_go_out_this_turn(after, memo))
        ):
            found = True
        if found:
            break
    memo[key] = found
    return found


def _may_ask(s: State, side: int, n: int) -> bool:
    if n == 1:
        return True  # discarding the last card goes out
    if n > ASK_MAX_CARDS:
        return False
    probe = s.clone()
    probe.permission = 1
    probe.asked = True
    return can_go_out_this_turn(probe, {})


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
        for k in _continuations(s, pending, h):
            if len(pending) == 2 and n == 1:
                m = make_meld((*pending, k), wild_melds=s.rules.wild_melds)
                if m is None or not _empty_ok(s, side, (*melds, m)):
                    continue
            out.append(A.STAGE[k])
        if s.takebacks < MAX_TAKEBACKS:
            out.append(A.UNSTAGE)
        return out
    staging = not opened and (melds or s.taken_top >= 0)
    # discards first (the most common choice), then melds
    held = [k for k in _ALL_KINDS if h[k]]
    if phase == MELD and not staging:
        if n >= 2 or may_go_out(s, side):
            discard = A.DISCARD
            out.extend([discard[k] for k in held])
        else:
            out.append(A.PASS)
        if (
            n <= ASK_MAX_CARDS
            and not s.asked
            and s.rules.partner_permission
            and len(s.sides[side]) > 1
            and meets_going_out(melds, s.rules.going_out)
            and _may_ask(s, side, n)
        ):
            out.append(A.ASK)
    if s.takebacks < MAX_TAKEBACKS:
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
    if staging:
        out.append(A.UNDO)
    return out


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
    """May an action that leaves the hand empty be taken?  Only going out: the side must meet the
    requirement afterwards, have opened (or be opening now), and not be told no."""
    if s.permission == -1 or not meets_going_out(melds_after, s.rules.going_out):
        return False
    if s.opened[side]:
        return True
    if s.phase == PILE_OPEN and s.pile:
        return False  # the rest of the pile comes into the hand: it does not empty
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
    empties = n - 2 + len(pile) - 1 == 0
    if s.takebacks < MAX_TAKEBACKS and (
        not empties or (s.opened[side] and meets_going_out(s.melds[side], s.rules.going_out))
    ):
        for i, a in enumerate(kinds):
            if not h[a]:
                continue
            for b in kinds[i:]:
                if h[b] >= (2 if a == b else 1):
                    out.append(A.pair_action(a, b))
    for i, m in enumerate(s.melds[side]):
        if m.kind == SEQUENCE and fits(m, top):
            out.append(A.top_action(i))
    return out
