"""Legal actions of a Samba turn (RULES.md §1 "Turn", "Taking from the discard pile", "First
meld", "Going out"): which draws, takes, melds, adds and discards the rules allow now.  The exact
checks (can the first meld still reach its minimum, can the player still go out) are in
:mod:`lookahead`; building a meld card by card in :mod:`staging`."""

from __future__ import annotations

from parlour.core.canasta import RED_THREES, wild_count
from parlour.games.samba import actions as A
from parlour.games.samba.lookahead import (
    can_go_out_this_turn,
    keeps_going_out,
    opening_filter,
    pile_opening_ok,
    vouched_out,
)
from parlour.games.samba.melds import (
    BLACK3,
    GROUP,
    IS_NATURAL,
    KINDS_OF_RANK,
    RANK,
    SEQUENCE,
    WILD,
    WILD_KINDS,
    Meld,
    add_card,
    can_merge,
    cards_text,
    expand_counts,
    fits,
    make_meld,
    meets_going_out,
)
from parlour.games.samba.staging import continuations, stage_ok
from parlour.games.samba.state import ANSWER, DRAW, MELD, OVER, PILE_OPEN, State

Action = A.SambaAction


def opening_minimum(s: State, side: int) -> int:
    return s.rules.opening_minimum(s.scores[side])


def may_go_out(s: State, side: int) -> bool:
    """The side meets the going-out requirement and the partner has not said no."""
    return s.permission != -1 and meets_going_out(s.melds[side], s.rules.going_out)


# --- legal actions --------------------------------------------------------------------------


def legal_actions(s: State) -> list[Action]:
    """The legal actions, in a fixed order.  After the partner answered yes, only the actions
    after which the asker can still go out this turn (seed 002: 'you must obey the answer')."""
    out = raw_legal_actions(s)
    if s.permission == 1 and s.phase == MELD:
        # "yes" is only offered when going out is possible, so in real play this keeps at least
        # one action; a state re-dealt by determinize (the asker's hand unknown to the searching
        # seat) may have none, and then the plain moves stay legal rather than a dead end
        vouched = vouched_out(s)
        memo: dict[object, bool] = {}
        out = [a for a in out if vouched(a) or keeps_going_out(s, a, memo)] or out
    return out


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
        for k in continuations(s, pending, h):
            if last and not _last_meld_ok(s, side, melds, pending, k, h):
                continue
            out.append(A.STAGE[k])
        if not opened:
            ok = opening_filter(s, side)
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
    nw = wild_count(h)
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

    for k in RED_THREES:
        if h[k] and (n > 1 or (opened and may_go_out(s, side))):
            out.append(A.LAY_RED3[k])
    if not opened and len(out) > first:
        # seed 002: the first meld must reach the minimum — only steps that still can
        ok = opening_filter(s, side)
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


_ALL_KINDS = tuple(range(53))


def _starters(s: State, h: list[int], held: list[int], out: list[Action]) -> None:
    """``Stage`` actions that start a new meld: the card and two more from the hand can make a
    group or a sequence (the same test as :func:`stage_ok`, unrolled for speed)."""
    nw = wild_count(h)
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
        for k in RED_THREES:
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
                    opened or pile_opening_ok(s, side, h, a, b, top)
                ):
                    out.append(A.pair_action(a, b))
    for i, m in enumerate(s.melds[side]):
        if m.kind == SEQUENCE and fits(m, top):
            out.append(A.top_action(i))
    return out


__all__ = [
    "can_go_out_this_turn",
    "keeps_going_out",
    "legal_actions",
    "may_go_out",
    "may_take_back",
    "opening_minimum",
    "raw_legal_actions",
    "stage_ok",
    "takeback_key",
]
