"""Legal actions of a Samba turn (RULES.md §1 "Turn", "Taking from the discard pile", "First
meld", "Going out"): which draws, takes, melds, adds and discards the rules allow now.  The exact
checks (can the first meld still reach its minimum, can the player still go out) are in
:mod:`lookahead`; building a meld card by card in :mod:`staging`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from parlour.core.canasta import RED_THREES
from parlour.core.said import N_, Card, Cards, Rank
from parlour.games.samba import actions as A
from parlour.games.samba.actions import AddToMeld, LayRedThree, MergeGroups, Stage
from parlour.games.samba.parts.lookahead import (
    can_go_out_this_turn,
    keeps_going_out,
    opening_kept,
    opening_steps,
    pile_opening_ok,
    vouched_check,
)
from parlour.games.samba.parts.melds import (
    BLACK3,
    GROUP,
    IS_NATURAL,
    IS_WILD,
    KINDS_OF_RANK,
    RANK,
    SEQUENCE,
    VALUE,
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
from parlour.games.samba.parts.reach import flags_of
from parlour.games.samba.parts.staging import continuations, stage_ok
from parlour.games.samba.state import (
    ANSWER,
    DRAW,
    MELD,
    OVER,
    PILE_OPEN,
    State,
    side_minimum,
)

Action = A.SambaAction


#: the red 3s as a tuple of any length: compiled, a loop over it indexes the tuple (over the
#: two-element ``tuple[Card, Card]`` it would go through the generic iterator)
_RED3: Final[tuple[int, ...]] = RED_THREES


def opening_minimum(s: State, side: int) -> int:
    return side_minimum(s, side)


def may_go_out(s: State, side: int) -> bool:
    """The side meets the going-out requirement and the partner has not said no."""
    return s.permission != -1 and meets_going_out(s.melds[side], flags_of(s.rules).going_out)


# --- legal actions --------------------------------------------------------------------------


def cached_legal_actions(s: State) -> list[Action]:
    """:meth:`SambaGame.legal_actions`: :func:`legal_actions`, cached on the state (none once the
    match is over).  The engine's method is this function itself (a ``staticmethod``), so a call
    runs no interpreted frame in the compiled build."""
    found: list[Action] | None = s._legal
    if found is None:
        found = s._legal = legal_actions(s) if not s.finished else []
    return found


def legal_actions(s: State) -> list[Action]:
    """The legal actions, in a fixed order.  After the partner answered yes, only the actions
    after which the asker can still go out this turn (seed 002: 'you must obey the answer')."""
    out = raw_legal_actions(s)
    if s.permission == 1 and s.phase == MELD:
        # "yes" is only offered when going out is possible, so in real play this keeps at least
        # one action; a state re-dealt by determinize (the asker's hand unknown to the searching
        # seat) may have none, and then the plain moves stay legal rather than a dead end
        vouched = vouched_check(s)
        known = _after_yes_memo(s)
        memo = known.memo
        answers = known.answers
        kept: list[Action] = []
        for a in out:
            # taking back the meld being built (listed last) keeps going out possible whenever
            # finishing it some way does: the same cards can be melded again
            if (vouched is not None and vouched.vouches(a)) or (kept and a is A.UNSTAGE):
                kept.append(a)
                continue
            t = type(a)
            if t is Stage or t is AddToMeld or t is MergeGroups or t is LayRedThree:
                # a card move: its answer follows from the position's cards (interned actions)
                found = answers.get(id(a))
                if found is None:
                    found = answers[id(a)] = keeps_going_out(s, a, memo)
            else:
                found = keeps_going_out(s, a, memo)
            if found:
                kept.append(a)
        out = kept or out
    return out


class _AfterYes:
    """The answers of :func:`keeps_going_out` for one position after "yes" (the hand, the side's
    melds and the meld being built): ``memo`` by the cards of a meld finished, ``answers`` by the
    card move (the ``id`` of an interned action).  A position comes back within the turn (a meld
    begun and taken back), and its card moves keep going out possible or not as before."""

    def __init__(self, melds: tuple[Meld, ...], rules: object) -> None:
        self.melds = melds
        self.rules = rules  # held: the key has the ids of the melds and rules
        self.memo: dict[object, bool] = {}
        self.answers: dict[int, bool] = {}


_AFTER_YES: Final[dict[tuple[object, ...], _AfterYes]] = {}
#: positions kept by :data:`_AFTER_YES`, :data:`_MELDS_TEXT` (melds tuples) and
#: :data:`_MELD_TEXT` (melds) before they start again: what comes back is the current turn's
#: position and melds, so a few dozen hit almost as often as a thousand did, and an entry kept
#: for a dead position is only work for the cyclic collector
_POSITIONS_KEPT: Final = 64
_MELDS_KEPT: Final = 256


def _after_yes_memo(s: State) -> _AfterYes:
    """The :class:`_AfterYes` of the position (made empty the first time it is seen): the card
    moves' answers depend on the hand, the side's melds, the meld being built, whether the side
    has opened and its first-meld minimum, and the rules."""
    seat = s.to_act
    side = s.side_of[seat]
    melds = s.melds[side]
    rules = s.rules
    opened = s.opened[side]
    key = (
        tuple(s.hands[seat]),
        id(melds),
        s.pending,
        opened,
        0 if opened else side_minimum(s, side),
        id(rules),
    )
    hit = _AFTER_YES.get(key)
    if hit is not None and hit.melds is melds and hit.rules is rules:
        return hit
    if len(_AFTER_YES) >= _POSITIONS_KEPT:
        _AFTER_YES.clear()
    hit = _AFTER_YES[key] = _AfterYes(melds, rules)
    return hit


def takeback_key(s: State, kind: str) -> str:
    """The position a take-back starts from, as public text (within a turn the public table
    fixes the hand: every card that left it is in view, the draw is once and known by the
    stock's size).  A take-back of a ``kind`` from a position already taken back from this turn
    is not offered again — the guard that lets every turn end while every meld stays possible."""
    return _key_with_tail(s, kind, _key_tail(s))


def _key_tail(s: State) -> str:
    """The end of :func:`takeback_key`: the side's red 3s and the meld being built."""
    red3 = s.red3[s.side_of[s.to_act]]
    pending = s.pending
    return (
        f"], red 3s [{cards_text(red3) if red3 else ''}], "
        f"building [{cards_text(pending) if pending else ''}]"
    )


def _key_with_tail(s: State, kind: str, tail: str) -> str:
    melds = _melds_text(s.melds[s.side_of[s.to_act]])
    return f"{kind} @ {s.phase}, stock {s.stock_len}, pile {len(s.pile)}, melds [{melds}" + tail


#: the text of a side's melds in :func:`takeback_key`, by the melds tuple (states share it until
#: the side's melds change; the tuple is held so that its id is not reused)
_MELDS_TEXT: Final[dict[int, tuple[tuple[Meld, ...], str]]] = {}


def _melds_text(melds: tuple[Meld, ...]) -> str:
    hit = _MELDS_TEXT.get(id(melds))
    if hit is not None and hit[0] is melds:
        return hit[1]
    if len(_MELDS_TEXT) > _POSITIONS_KEPT:
        _MELDS_TEXT.clear()
    texts: list[str] = []
    for m in melds:
        got = _MELD_TEXT.get(id(m))
        if got is not None and got[0] is m:
            texts.append(got[1])
        else:
            if len(_MELD_TEXT) > _MELDS_KEPT:
                _MELD_TEXT.clear()
            t = cards_text(m.cards)
            _MELD_TEXT[id(m)] = (m, t)
            texts.append(t)
    text = " | ".join(texts)
    _MELDS_TEXT[id(melds)] = (melds, text)
    return text


#: the text of one meld's cards, by the meld (melds are values shared by the states: a side's
#: melds tuple changes with each meld, addition or merge, most of its melds do not)
_MELD_TEXT: Final[dict[int, tuple[Meld, str]]] = {}


def may_take_back(s: State, kind: str) -> bool:
    """The take-back ``kind`` ("unstage" or "undo") has not been made from here this turn.  The
    key's end (red 3s, meld being built) is built first: when no key taken back ends so (most
    positions: another meld being built), the whole key, with the melds' text, is not needed."""
    undone = s.undone
    if not undone:
        return True
    tail = _key_tail(s)
    for u in undone:
        if u.endswith(tail):
            return _key_with_tail(s, kind, tail) not in undone
    return True


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
            out = opening_steps(s, side, out)
        if may_take_back(s, "unstage"):
            out.append(A.UNSTAGE)
        return out
    staging = not opened and (bool(melds) or s.taken_top >= 0)
    # discards first (the most common choice), then melds
    held, present, counts, nw = hand_scan(h)
    if phase == MELD and not staging:
        if n >= 2 or may_go_out(s, side):
            discard = A.DISCARD
            for k in held:
                out.append(discard[k])
        else:
            out.append(A.PASS)
    first = len(out)
    if n == 3:
        # a new meld would take the whole hand: only as going out (or reaching the minimum when
        # the rest of the pile is still to come)
        whole = make_meld(expand_counts(h), wild_melds=s.rules.wild_melds)
        if whole is not None and whole.kind != BLACK3 and _empty_ok(s, side, (*melds, whole)):
            _starters(s, held, present, counts, nw, out)
    else:
        _starters(s, held, present, counts, nw, out)
    flags = flags_of(s.rules)  # compiled fields (the rules are an interpreted dataclass)
    nwo = flags.nwo
    # the additions, written into ``out`` directly (no list of candidates per meld)
    last = n == 1  # an addition would empty the hand: checked by _add
    for i, m in enumerate(melds):
        row = A.add_row(i)
        kind = m.kind
        if kind == GROUP:
            k = m.rank - 2
            if (counts >> (k << 2)) & 15:  # some natural of the rank is held
                for x in range(k, 52, 13):  # the rank's four suits (a range: compiled, no tuple)
                    if (present >> x) & 1:
                        _add(s, side, melds, i, m, x, row, out, last)
            if nw:
                w = m.wilds + 1
                if w <= 2 and len(m.cards) - m.wilds >= 2 * w and not (nwo and m.canasta):
                    for x in WILD_KINDS:
                        if (present >> x) & 1:
                            _add(s, side, melds, i, m, x, row, out, last)
        elif kind == SEQUENCE:
            if len(m.cards) < 7:
                base = m.suit * 13 - 2
                if m.rank > 4 and (present >> (base + m.rank - 1)) & 1:
                    _add(s, side, melds, i, m, base + m.rank - 1, row, out, last)
                if m.high < 14 and (present >> (base + m.high + 1)) & 1:
                    _add(s, side, melds, i, m, base + m.high + 1, row, out, last)
        elif kind == WILD and nw and len(m.cards) < 7:
            for x in WILD_KINDS:
                if (present >> x) & 1:
                    _add(s, side, melds, i, m, x, row, out, last)
    seen = 0  # the ranks of the side's groups, as bits: two groups of one rank may merge
    for m in melds:
        if m.kind == GROUP:
            bit = 1 << m.rank
            if seen & bit:
                _merges(melds, nwo, out)
                break
            seen |= bit

    for k in _RED3:
        if h[k] and (n > 1 or (opened and may_go_out(s, side))):
            out.append(A.LAY_RED3[k])
    if not opened and len(out) > first:
        # seed 002: the first meld must reach the minimum — only steps that still can
        out[first:] = opening_kept(s, side, out[first:])
    b1, b2 = h[1], h[40]
    b = b1 + b2
    if b >= 2 and phase == MELD and opened:
        # two black 3s make a group only with a wild card (black_three_wilds)
        wilds_ok = flags.black_three_wilds
        if (b >= 3 or (wilds_ok and nw)) and may_go_out(s, side):
            _black_three_melds(wilds_ok, h, n, b1, b2, out)
    if (
        phase == MELD
        and not s.asked
        and not (s._no_out & 1)
        and flags_of(s.rules).partner_permission
        and len(s.sides[side]) > 1
    ):
        # seed 002: "Before going out, you may ask your partner" — whenever going out this turn
        # is possible
        if can_go_out_this_turn(s):
            out.append(A.ASK)
        else:
            s._no_out = s._no_out | 1
    if staging and may_take_back(s, "undo"):
        out.append(A.UNDO)
    return out


def hand_scan(h: list[int]) -> tuple[list[int], int, int, int]:
    """One pass over a count vector (compiled, a list's own iteration: no bounds checks, and the
    fixed-size tuple is returned as a C struct, not made): the kinds held in order, the same as
    bits (``present``), the natural cards of each rank (``counts``, four bits a rank from rank 2:
    at most 12 with three decks) and the wild cards — what :func:`_starters` and the additions
    read instead of the hand's list."""
    held: list[int] = []
    present = 0
    counts = 0
    nw = 0
    for k, x in enumerate(h):
        if x:
            held.append(k)
            present |= 1 << k
            j = k % 13
            if j == 0 or k == 52:
                nw += x
            else:
                counts += x << (j << 2)
    return held, present, counts, nw


def _black_three_melds(
    wilds_ok: bool, h: list[int], n: int, b1: int, b2: int, out: list[Action]
) -> None:
    """The groups of black 3s that go out (seed 002: 'only in the turn in which you go out'):
    melded last, they take every card of the hand but at most one (the discard).  With
    ``wilds_ok`` (seed 002: 'following the normal group rules') the wild cards held may join:
    at most two, and at least twice as many black 3s.  Listed: everything melded, then one
    black 3 (3♣, 3♠) or one wild card (lowest kind first) kept for the discard."""
    wilds: list[int] = []  # the wild cards held, lowest kind first
    if wilds_ok:
        for k in WILD_KINDS:
            if h[k]:
                wilds.extend([k] * h[k])
    rest = n - b1 - b2 - len(wilds)  # cards no group of black 3s can take
    if rest > 1 or len(wilds) > 3:
        return
    options = [(b1, b2, wilds)]
    if rest == 0:
        if b1:
            options.append((b1 - 1, b2, wilds))
        if b2:
            options.append((b1, b2 - 1, wilds))
        for i, k in enumerate(wilds):
            if i == 0 or wilds[i - 1] != k:
                options.append((b1, b2, wilds[:i] + wilds[i + 1 :]))
    for x, y, w in options:
        nw = len(w)
        if x + y + nw >= 3 and nw <= 2 and x + y >= 2 * nw:
            out.append(A.MeldBlackThrees((1,) * x + (40,) * y + tuple(w)))


def _last_meld_ok(
    s: State, side: int, melds: tuple[Meld, ...], pending: tuple[int, ...], k: int, h: list[int]
) -> bool:
    """Staging ``k`` commits the whole hand to the meld being built (nothing else is left to
    finish it with): legal only if that meld is valid and emptying the hand is allowed."""
    rest = expand_counts(h)
    rest.remove(k)
    m = make_meld((*pending, k, *rest), wild_melds=s.rules.wild_melds)
    return m is not None and m.kind != BLACK3 and _empty_ok(s, side, (*melds, m))


def _add(
    s: State,
    side: int,
    melds: tuple[Meld, ...],
    i: int,
    m: Meld,
    k: int,
    row: list[A.AddToMeld | None],
    out: list[Action],
    last: bool,
) -> None:
    """List adding card ``k`` to meld ``i`` (``m``); when it is the ``last`` card of the hand,
    only if the hand may be emptied (going out, or the first meld's minimum while the pile is
    still to come)."""
    if last:
        new = add_card(m, k)
        if not _empty_ok(s, side, melds[:i] + (new,) + melds[i + 1 :]):  # noqa: RUF005
            return
    act = row[k]
    out.append(act if act is not None else A.add_action(i, k))


def _merges(melds: tuple[Meld, ...], nwo: bool, out: list[Action]) -> None:
    # rank by rank in the order each rank first appears, each rank's groups in order (no list of
    # the rank's groups: the pairs of indices in order are the same)
    done = 0  # ranks listed, as bits
    n = len(melds)
    for first in range(n):
        m = melds[first]
        if m.kind != GROUP or (done >> m.rank) & 1:
            continue
        rank = m.rank
        done |= 1 << rank
        for a in range(first, n):
            ma = melds[a]
            # the rank first (an int: compiled, cheaper than the kind's text)
            if ma.rank != rank or ma.kind != GROUP:
                continue
            for b in range(a + 1, n):
                mb = melds[b]
                if (
                    mb.rank == rank
                    and mb.kind == GROUP
                    and can_merge(ma, mb, no_wild_on_canasta=nwo)
                ):
                    out.append(A.merge_action(a, b))


def _starters(
    s: State, held: list[int], present: int, counts: int, nw: int, out: list[Action]
) -> None:
    """``Stage`` actions that start a new meld: the card and two more from the hand can make a
    group or a sequence (the same test as :func:`stage_ok`, unrolled for speed).  ``held``: the
    kinds held in order; ``present``: the same as bits; ``counts``: the natural cards held of
    each rank, four bits a rank (``counts >> 4 * (rank - 2) & 15``); ``nw``: the wild cards."""
    stage = A.STAGE
    group_ok = False
    for k in held:
        if k >= 52:
            continue
        j = k % 13
        if j < 2:  # 2s and 3s
            continue
        r = j + 2
        nr = (counts >> (j << 2)) & 15
        if nr >= 2:
            group_ok = True
        if (
            nr >= 3
            or (nr >= 2 and nw)
            or (r >= 6 and (present >> (k - 2)) & 3 == 3)
            or (5 <= r <= 13 and (present >> (k - 1)) & 5 == 5)
            or (r <= 12 and (present >> (k + 1)) & 3 == 3)
        ):
            out.append(stage[k])
    if nw and (group_ok or (flags_of(s.rules).wild_melds and nw >= 3)):
        for k in WILD_KINDS:
            if (present >> k) & 1:
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
        for k in _RED3:
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
    if not (opened and empties and not meets_going_out(s.melds[side], flags_of(s.rules).going_out)):
        for i in range(4):  # the rank's four suits, each pair once (indices: no slices)
            a = kinds[i]
            if not h[a]:
                continue
            for j in range(i, 4):
                b = kinds[j]
                if h[b] >= (2 if a == b else 1) and (
                    opened or pile_opening_ok(s, side, h, a, b, top)
                ):
                    out.append(A.pair_action(a, b))
    for i, m in enumerate(s.melds[side]):
        if m.kind == SEQUENCE and fits(m, top):
            out.append(A.top_action(i))
    return out


__all__ = [
    "cached_legal_actions",
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


def explain(s: State, legal: Sequence[Action], action: Any) -> str | None:
    """Why ``action`` is illegal now (``None``: it is one of ``legal``)."""
    allowed = s._legal_set
    if allowed is None:
        allowed = s._legal_set = set(legal)
    try:
        if action in allowed:
            return None
    except TypeError:
        return N_("{action} is not a Samba action", action=repr(action))
    return why_illegal(s, action)


def _side_needs(s: State) -> str:
    if s.rules.going_out == "two_canastas":
        return N_("two sambas, two canastas or one of each")
    return N_("two seven-card melds, one of them a sequence")


def why_illegal(s: State, action: Any) -> str:
    """The rule an illegal action breaks, in words a player knows (the rule's name first)."""
    # source: seed 002_91a2786a682fea8f.txt (Samba; docs/sources.md)
    seat = s.to_act
    side = s.side_of[seat]
    h = s.hands[seat]
    t = type(action)
    if t not in A.ACTION_TYPES.values():
        return N_("{action} is not a Samba action", action=repr(action))
    if s.phase == ANSWER and t is not A.AnswerGoOut:
        return N_("you must first answer your partner's 'partner, may I go out?' (yes or no)")
    if t is A.AnswerGoOut:
        return N_("nobody has asked 'partner, may I go out?'")
    if s.permission == 1:
        try:
            raw = action in raw_legal_actions(s)
        except TypeError:
            raw = False
        if raw:
            return N_(
                "Going out: your partner said yes to 'may I go out?', so you must go out this "
                "turn (the answer must be obeyed), and after this move you could not"
            )
    if (t is A.Unstage and s.pending and not may_take_back(s, "unstage")) or (
        t is A.UndoOpening and not may_take_back(s, "undo")
    ):
        return N_(
            "you have already taken this back from this very position this turn: the same "
            "take-back is not repeated (house guard so that every turn ends; every meld stays "
            "possible — finish it)"
        )
    if s.pending and t not in (A.Stage, A.Unstage):
        return N_(
            "finish the meld you are building (three cards make a meld) or take it back first"
        )
    melds = s.melds[side]
    n = s.sizes[seat]
    minimum = opening_minimum(s, side)
    if t in (A.Draw, A.TakePile, A.TakeTop):
        if s.phase != DRAW:
            return N_(
                "you have already drawn this turn: draw or take from the pile only at its start"
            )
        if not s.pile:
            return N_("the discard pile is empty")
        top = s.pile[-1]
        if not IS_NATURAL[top]:
            return N_(
                "Taking the pile: a {card} on top blocks it (never take the pile or its top "
                "card when it is a 3, a 2 or a joker)",
                card=Card(top),
            )
        if t is A.TakePile:
            pair = action.pair
            if len(pair) != 2 or not all(
                isinstance(c, int) and 0 <= c < 53 and IS_NATURAL[c] and RANK[c] == RANK[top]
                for c in pair
            ):
                return N_(
                    "Taking the pile: you need two natural {rank}s from your hand, of the top "
                    "card's rank; you may never take it to add the top card to a group on the "
                    "table",
                    rank=Rank(RANK[top]),
                )
            if not all(h[c] >= pair.count(c) for c in pair):
                return N_("you do not hold {cards}", cards=Cards(pair))
            if not s.opened[side]:
                value = 3 * VALUE[top]
                if len(s.pile) == 1:
                    return N_(
                        "Your side's first meld: the top card with your pair makes {value}, and no "
                        "melds from your hand bring this turn's melds to the minimum of {minimum} "
                        "(for a first meld you may add cards from your hand to reach it); with "
                        "nothing under the top card a card must stay in your hand",
                        value=value,
                        minimum=minimum,
                    )
                return N_(
                    "Your side's first meld: the top card with your pair makes {value}, and no "
                    "melds from your hand bring this turn's melds to the minimum of {minimum} "
                    "(for a first meld you may add cards from your hand to reach it)",
                    value=value,
                    minimum=minimum,
                )
            return N_(
                "taking the pile with your last two cards would leave you with none, and your "
                "side may not go out yet (it needs {needs})",
                needs=_side_needs(s),
            )
        i = action.meld
        if not 0 <= i < len(melds) or melds[i].kind != SEQUENCE:
            return N_(
                "Taking the top card: meld {meld} is not a sequence of your side; only a top card "
                "that fits an end of a sequence already on the table may be taken (never to "
                "start a new sequence)",
                meld=str(i),
            )
        return N_(
            "Taking the top card: {card} does not fit an end of meld {meld} (a sequence takes "
            "the next card of its suit, at most seven cards)",
            card=Card(top),
            meld=str(i),
        )
    if s.phase == DRAW and t is not A.LayRedThree:
        return N_("first draw from the stock or take from the discard pile")
    if t is A.Unstage:
        return N_("there is no unfinished meld to take back")
    card = getattr(action, "card", -1)
    if t in (A.Stage, A.AddToMeld, A.LayRedThree, A.Discard) and not (
        isinstance(card, int) and 0 <= card < 53 and h[card] > 0
    ):
        return N_(
            "you hold no {card}",
            card=Card(card) if isinstance(card, int) and 0 <= card < 53 else str(card),
        )
    staging = not s.opened[side] and (melds or s.taken_top >= 0)
    staged_value = sum(m.value for m in melds)
    out_rule = (
        N_(
            "you may go out only when your side has {needs}; until then you must always keep "
            "at least one card",
            needs=_side_needs(s),
        )
        if s.permission != -1
        else N_("your partner said no to 'may I go out?': you must keep a card")
    )
    if t in (A.Discard, A.Pass):
        if s.phase == PILE_OPEN:
            return N_(
                "you took the pile for your side's first meld: meld from your hand until the "
                "minimum of {minimum} is reached (you have {value}), or take it back",
                minimum=minimum,
                value=staged_value,
            )
        if staging:
            return N_(
                "Your side's first meld: the cards put down in that turn must total at least "
                "{minimum}; you have {value}: meld more or take the opening back",
                minimum=minimum,
                value=staged_value,
            )
        if t is A.Discard:
            return N_(
                "discarding your last card would be going out: {rule}; say pass", rule=out_rule
            )
        if n != 1:
            return N_(
                "Passing: only with one card left (when you meld all but one card and may not "
                "go out, you say pass instead of discarding)"
            )
        if s.permission == 1:
            return N_("your partner said yes: you must go out (discard or meld your last card)")
        return N_("you may go out: discard your last card (pass is only for those who may not)")
    opening_rule = (
        N_(
            "Your side's first meld: the cards put down in that turn must reach {minimum}; "
            "after this the melds of this turn ({value} so far) and the cards left in your "
            "hand could no longer reach it",
            minimum=minimum,
            value=staged_value,
        )
        if s.phase == PILE_OPEN and s.pile
        else N_(
            "Your side's first meld: the cards put down in that turn must reach {minimum}; "
            "after this the melds of this turn ({value} so far) and the cards left in your "
            "hand could no longer reach it while keeping a card to discard",
            minimum=minimum,
            value=staged_value,
        )
    )
    if t is A.Stage:
        if card % 13 == 1:
            return N_(
                "Threes: 3s do not go into sequences or ordinary melds; red 3s are laid out "
                "singly, black 3s melded as a group only on the turn you go out"
            )
        cards = (*s.pending, card)
        complete = len(cards) == 3 and make_meld(cards, wild_melds=s.rules.wild_melds) is not None
        if complete or (len(cards) < 3 and stage_ok(s, s.pending, card, h)):
            if n == 3 - len(s.pending):
                return N_(
                    "melding {cards} would take every card in your hand: {rule}",
                    cards=Cards(cards),
                    rule=out_rule,
                )
            if not s.opened[side]:
                return opening_rule
        if not s.rules.wild_melds:
            return N_(
                "Melds: {cards} cannot become a meld with cards from your hand: a group is ≥3 "
                "cards of one rank with at most two wild cards and twice as many naturals as "
                "wilds; a sequence is ≥3 naturals of one suit in a row, 4…A, no wild cards; wild "
                "cards alone only in Bolivia",
                cards=Cards(cards),
            )
        return N_(
            "Melds: {cards} cannot become a meld with cards from your hand: a group is ≥3 "
            "cards of one rank with at most two wild cards and twice as many naturals as "
            "wilds; a sequence is ≥3 naturals of one suit in a row, 4…A, no wild cards",
            cards=Cards(cards),
        )
    if t is A.AddToMeld:
        i = action.meld
        if not 0 <= i < len(melds):
            return N_("your side has no meld {meld}", meld=str(i))
        m = melds[i]
        if fits(m, card, no_wild_on_canasta=s.rules.no_wild_on_canasta):
            if n == 1 and not (s.phase == PILE_OPEN and s.pile):
                return N_("adding your last card would be going out: {rule}", rule=out_rule)
            if not s.opened[side]:
                return opening_rule
            return N_("adding your last card would be going out: {rule}", rule=out_rule)
        if m.kind == GROUP:
            if IS_WILD[card]:
                if s.rules.no_wild_on_canasta and m.canasta:
                    return N_(
                        "house rule no_wild_on_canasta: wild cards may not be added to a canasta"
                    )
                return N_(
                    "Groups: a group may hold at most two wild cards and needs at least twice as "
                    "many naturals as wilds"
                )
            if RANK[card] != m.rank:
                return N_("meld {meld} is a group of {rank}s", meld=str(i), rank=Rank(m.rank))
        elif m.kind == SEQUENCE:
            if IS_WILD[card] or card % 13 == 1:
                return N_("Sequences: wild cards and 3s may never be used in a sequence")
            if m.samba:
                return N_(
                    "Sambas: meld {meld} is a samba (seven cards); nothing more can be added",
                    meld=str(i),
                )
            return N_(
                "Sequences: {card} does not fit either end of meld {meld}; two sequences can "
                "never be joined",
                card=Card(card),
                meld=str(i),
            )
        elif m.kind == WILD:
            if m.bolivia:
                return N_("a bolivia (seven wild cards) is complete: nothing more can be added")
            return N_("only wild cards go on a meld of wild cards")
        else:
            return N_("nothing may be added to the black 3s melded on going out")
        return N_("adding your last card would be going out: {rule}", rule=out_rule)
    if t is A.MergeGroups:
        i, j = action.meld, action.other
        if not (0 <= i < j < len(melds)):
            return N_("name two different melds of your side, the lower number first")
        if melds[i].kind != GROUP or melds[j].kind != GROUP or melds[i].rank != melds[j].rank:
            return N_("Groups: only two groups of the same rank may be merged")
        if not s.opened[side] and can_merge(
            melds[i], melds[j], no_wild_on_canasta=s.rules.no_wild_on_canasta
        ):
            return opening_rule
        return N_("the merged group would break the wild limits (at most two wild cards)")
    if t is A.LayRedThree:
        if card not in RED_THREES:
            return N_("only red 3s (3♦, 3♥) are laid out singly")
        if s.rules.red_threes_as_canasta:
            return N_("house rule red_threes_as_canasta: red 3s are laid out automatically")
        if n > 1 and not s.opened[side]:
            return opening_rule
        return N_("laying out your last card would be going out: {rule}", rule=out_rule)
    if t is A.MeldBlackThrees:
        cards = tuple(action.cards)
        wilds_ok = s.rules.black_three_wilds
        m = (
            make_meld(cards, black_three_wilds=wilds_ok)
            if all(isinstance(c, int) and 0 <= c < 53 for c in cards)
            else None
        )
        if m is None or m.kind != BLACK3:
            if wilds_ok:
                return N_(
                    "Black 3s: they are melded as a group, following the normal group rules: "
                    "at least three cards, black 3s with at most two wild cards and at least "
                    "twice as many black 3s as wild cards"
                )
            return N_(
                "black 3s are melded as a group of at least three black 3s (house rule "
                "black_three_wilds off: no wild cards)"
            )
        if not all(h[c] >= cards.count(c) for c in set(cards)):
            return N_("you do not hold {cards}", cards=Cards(cards))
        ordered = tuple(sorted(cards, key=lambda c: (c not in (1, 40), c)))
        if ordered != cards and A.MeldBlackThrees(ordered) in legal_actions(s):
            return N_(
                "name the cards in order: meld black 3s {cards} (black 3s first, 3♣ before 3♠, "
                "then wild cards: 2♣ 2♦ 2♥ 2♠ Jk)",
                cards=Cards(ordered),
            )
        return N_(
            "Black 3s: they may be melded only in the turn you go out; meld them last, leaving "
            "at most one card to discard, when your side has {needs}",
            needs=_side_needs(s),
        )
    if t is A.UndoOpening:
        return N_("there is no first meld being built to take back")
    if t is A.AskGoOut:
        if len(s.sides[side]) < 2:
            return N_("you play alone: there is no partner to ask")
        if not s.rules.partner_permission:
            return N_("house rule: asking 'partner, may I go out?' is not used")
        if s.asked:
            return N_("you have already asked this turn")
        if s.phase != MELD:
            return N_(
                "ask after drawing (or once the pile taken for a first meld is in your hand), "
                "when you can go out this turn"
            )
        return N_(
            "ask when you can go out this turn: your cards cannot all be melded (but one to "
            "discard) with your side then holding {needs}",
            needs=_side_needs(s),
        )
    if s.phase not in (MELD, PILE_OPEN):
        return N_("not now")
    return N_("{action} is not a legal move now", action=str(action))
