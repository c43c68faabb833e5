"""Legal actions of Cheat and why others are illegal (RULES.md §3): which ranks a claim may
name (the rank rules), how many cards it may claim, picking cards in order, answering a play.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.cards import NUM_KINDS
from parlour.core.said import N_, Card, Ranks, ngettext
from parlour.games.cheat.actions import (
    Action,
    Challenge,
    ChooseFirst,
    Claim,
    Pass,
    Pick,
)
from parlour.games.cheat.rules import OPENING_RANK, CheatRules
from parlour.games.cheat.state import (
    ALL_RANKS,
    CHOOSE_FIRST,
    LATE,
    OVER,
    PLAY,
    WINDOW,
    State,
)

_CHALLENGE = Challenge()
_PASS = Pass()


def next_rank(rank: int) -> int:
    """The rank above, cyclic: … Q, K, A, 2, 3 …"""
    return 2 if rank == 14 else rank + 1


def prev_rank(rank: int) -> int:
    """The rank below, cyclic: … 3, 2, A, K, Q …"""
    return 14 if rank == 2 else rank - 1


def successors(rule: str, rank: int) -> tuple[int, ...]:
    """Ranks the claim after a claim of ``rank`` may name under ``rank_rule``."""
    if rule in ("ascending", "bullshit"):
        return (next_rank(rank),)
    if rule in ("descending", "descending_from_twos"):
        return (prev_rank(rank),)
    if rule == "up_or_down":
        return tuple(sorted({next_rank(rank), prev_rank(rank)}))
    if rule == "same_up_or_down":
        return tuple(sorted({rank, next_rank(rank), prev_rank(rank)}))
    return ALL_RANKS


def opening_ranks(rule: str) -> tuple[int, ...]:
    """Ranks the very first claim may name (seed 001: Aces; seed 000: twos; else any)."""
    first = OPENING_RANK[rule]
    return ALL_RANKS if first is None else (first,)


def claim_counts(rules: CheatRules, picked: int, shown: int) -> range:
    """The counts a claim may name when ``picked`` cards were put down by a seat whose hand is
    counted ``shown`` cards before the play: exactly ``picked``; with ``overplay`` also fewer
    (down to 1); with ``overclaim`` also more — up to the cards that can be of one rank (4 a
    pack plus the jokers), the counted hand and ``max_cards`` (a bigger claim would be visibly
    impossible).

    >>> list(claim_counts(CheatRules(overplay=True, overclaim=True), 2, 9))
    [1, 2, 3, 4]
    >>> list(claim_counts(CheatRules(overclaim=True), 1, 2)), list(claim_counts(CheatRules(), 3, 9))
    ([1, 2], [3])
    """
    lo = 1 if rules.overplay else picked
    hi = picked
    if rules.overclaim:
        cap = min(4 * rules.packs + rules.jokers, shown)
        if rules.max_cards is not None:
            cap = min(cap, rules.max_cards)
        hi = max(picked, cap)
    return range(lo, hi + 1)


_PICKS = tuple(Pick(k) for k in range(NUM_KINDS))
_CLAIMS = {(c, r): Claim(c, r) for c in range(1, 65) for r in ALL_RANKS}


def _claim_of(count: int, rank: int) -> Claim:
    return _CLAIMS.get((count, rank)) or Claim(count, rank)


def legal_actions(state: State) -> Sequence[Action]:
    phase = state.phase
    if phase in (WINDOW, LATE):
        return (_CHALLENGE, _PASS)
    if phase == PLAY:
        return _play_actions(state)
    if phase == CHOOSE_FIRST:
        return tuple(ChooseFirst(s) for s in range(state.rules.players))
    return ()


def _play_actions(state: State) -> list[Action]:
    sel = state.selection
    hand = state.hands[state.turn_seat]
    limit = state.rules.max_cards
    out: list[Action] = []
    if state.must_include >= 0 and state.must_include not in sel:
        return [_PICKS[state.must_include]]
    if limit is None or len(sel) < limit:
        lo = sel[-1] if sel else 0
        out.extend(_PICKS[k] for k in range(lo, NUM_KINDS) if hand[k])
    if sel:
        counts = claim_counts(state.rules, len(sel), state.shown[state.turn_seat])
        out.extend(_claim_of(c, r) for r in state.allowed for c in counts)
    return out


def explain(state: State, action: Action) -> str | None:
    phase = state.phase
    if phase == OVER:
        return N_("the game is over")
    if isinstance(action, (Challenge, Pass)):
        if phase in (WINDOW, LATE):
            return None
        return N_("a challenge is answered only right after a play, before the next play")
    if isinstance(action, ChooseFirst):
        if phase != CHOOSE_FIRST:
            return N_("the first player is chosen only at the start (Canada: by the dealer)")
        if not isinstance(action.seat, int) or not 0 <= action.seat < state.rules.players:
            return N_("there is no such player: the table has {count}", count=state.rules.players)
        return None
    if phase != PLAY:
        if phase == CHOOSE_FIRST:
            return N_("it is time to choose the first player, not to play cards")
        return N_("it is time to answer the challenge, not to play cards")
    if isinstance(action, Pick):
        return _explain_pick(state, action.card)
    if isinstance(action, Claim):
        return _explain_claim(state, action)
    return N_("{action} is not a Cheat action", action=repr(action))


def _explain_pick(state: State, card: int) -> str | None:
    if not isinstance(card, int) or not 0 <= card < NUM_KINDS:
        return N_("{card} is not a card", card=repr(card))
    sel = state.selection
    limit = state.rules.max_cards
    if state.hands[state.turn_seat][card] == 0:
        return N_("you hold no {card} (besides those already picked)", card=Card(card))
    if state.must_include >= 0 and state.must_include not in sel and card != state.must_include:
        return N_("the first play must include the 2♣ (its holder begins with it)")
    if limit is not None and len(sel) >= limit:
        return ngettext(
            "a play is at most {count} card", "a play is at most {count} cards", limit, count=limit
        )
    if sel and card < sel[-1]:
        return N_(
            "pick cards in order (2♣ … A♠, then jokers): {card} comes before {picked}, "
            "already picked",
            card=Card(card),
            picked=Card(sel[-1]),
        )
    return None


def _explain_claim(state: State, action: Claim) -> str | None:
    sel = state.selection
    if not sel:
        return N_("pick at least one card before claiming")
    if state.must_include >= 0 and state.must_include not in sel:
        return N_("the first play must include the 2♣ (its holder begins with it)")
    if action.rank not in state.allowed:
        if len(state.allowed) > 1:
            return N_("the claim must name one of {ranks}", ranks=Ranks(state.allowed))
        return N_("the claim must name {ranks}", ranks=Ranks(state.allowed))
    counts = claim_counts(state.rules, len(sel), state.shown[state.turn_seat])
    if action.count in counts:
        return None
    if len(counts) == 1:
        return N_("the claimed count must be the number of cards played ({count})", count=len(sel))
    return N_(
        "claim between {low} and {high} cards ({count} put down)",
        low=counts.start,
        high=counts.stop - 1,
        count=len(sel),
    )
