"""The Samba engine: the Game protocol over :mod:`state`, :mod:`turn` and :mod:`observe`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from parlour.core.cards import Card, card_str, rank_str
from parlour.core.game import Event, Game, HandResult, Outcome
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.games.samba import actions as A
from parlour.games.samba import legal, turn
from parlour.games.samba.melds import (
    BLACK_THREES,
    GROUP,
    IS_NATURAL,
    IS_WILD,
    RANK,
    RED_THREES,
    SEQUENCE,
    VALUE,
    WILD,
    can_merge,
    expand_counts,
    fits,
    make_meld,
)
from parlour.games.samba.observe import SambaView, determinize, observe, view_json
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.scoring import hand_result
from parlour.games.samba.state import ANSWER, DRAW, MELD, PILE_OPEN, State, deal, new_match

SambaAction = A.SambaAction


class SambaGame(Game[State, SambaAction, SambaView, SambaRules]):
    """Samba (seeds 002, 000, 003) and its variants, Bolivia among them."""

    name: ClassVar[str] = "samba"
    title: ClassVar[str] = "Samba"
    #: 2: take-backs limited to three a turn.  3 (issue 16): six red 3s without the requirement
    #: −600 by default, red 3s before drawing, exact legal actions (pile and first meld only when
    #: the minimum can be met, the question whenever going out is possible), take-backs not
    #: repeated from a position instead of limited
    version: ClassVar[int] = 3
    rules_type: ClassVar[type[SambaRules]] = SambaRules
    action_types: ClassVar[dict[str, type]] = A.ACTION_TYPES

    def new_game(self, rules: SambaRules, seed: int) -> State:
        return new_match(rules, seed)

    def to_act(self, state: State) -> int | None:
        return None if state.finished else state.to_act

    def legal_actions(self, state: State) -> Sequence[SambaAction]:
        legal = state._legal
        if legal is None:
            legal = state._legal = turn.legal_actions(state) if not state.finished else []
        return legal  # type: ignore[no-any-return]

    def apply_unchecked(self, state: State, action: SambaAction) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return turn.apply(state, action, events), events

    def explain(self, state: State, action: SambaAction) -> str | None:
        if state.finished:
            return "the match is over"
        legal = self.legal_actions(state)
        allowed = state._legal_set
        if allowed is None:
            allowed = state._legal_set = set(legal)
        try:
            if action in allowed:
                return None
        except TypeError:
            return f"{action!r} is not a Samba action"
        return why_illegal(state, action)

    def observe(self, state: State, seat: int | None) -> SambaView:
        return observe(state, seat)

    def view_to_json(self, view: SambaView) -> dict[str, Any]:
        return view_json(view)

    def determinize(self, view: SambaView, rng: random.Random) -> State:
        return determinize(view, rng)

    def outcome(self, state: State) -> Outcome:
        # RULES.md §1 "Game": the higher score wins; equal = draw
        capped = state.termination == "max_hands"
        return decide(
            state.sides,
            state.scores,
            finished=state.finished,
            termination=state.termination,
            kind=Termination.CAPPED if capped else Termination.FINISHED,
            tie_rule=TieRule.DRAW,
            hands=state.history,
        )

    def all_cards(self, state: State) -> list[Card]:
        out: list[Card] = list(state.stock[: state.stock_len])
        for h in state.hands:
            out.extend(expand_counts(h))
        out.extend(state.pile)
        out.extend(state.pending)
        for melds in state.melds:
            for m in melds:
                out.extend(m.cards)
        for r in state.red3:
            out.extend(r)
        return out

    def num_seats(self, state: State) -> int:
        return state.players

    def hand_number(self, state: State) -> int:
        return state.hand_no

    def hand_seed(self, state: State) -> int:
        return derive_seed(state.seed, "deal", state.hand_no)

    def redeal(self, state: State, seed: int) -> State:
        s = state.clone()
        deal(s, seed)
        return s

    def action_text(self, state: State, action: SambaAction) -> str:
        return f"seat {state.to_act}: {action}"

    def hand_breakdown(self, state: State) -> HandResult:
        """Every side's score for the hand as it stands — as if it ended now with nobody going
        out (:func:`parlour.games.samba.scoring.hand_result`: cards melded and in hand, bonuses,
        red 3s).  A finished hand's result is ``state.history[-1]`` (the view's
        ``score_sheet``)."""
        return hand_result(
            state.hand_no,
            state.rules,
            state.sides,
            state.melds,
            state.red3,
            state.hands,
            None,
            "the hand as it stands",
        )


def _side_needs(s: State) -> str:
    if s.rules.going_out == "two_canastas":
        return "two sambas, two canastas or one of each"
    return "two seven-card melds, one of them a sequence"


def why_illegal(s: State, action: Any) -> str:
    """The rule an illegal action breaks, in words a player knows (the rule's name first)."""
    # source: /work/shared/seeds/002_91a2786a682fea8f.txt (Samba), quoted in RULES.md §1
    seat = s.to_act
    side = s.side_of[seat]
    h = s.hands[seat]
    t = type(action)
    if t not in A.ACTION_TYPES.values():
        return f"{action!r} is not a Samba action"
    if s.phase == ANSWER and t is not A.AnswerGoOut:
        return f"seat {seat} must first answer 'partner, may I go out?' (yes or no)"
    if t is A.AnswerGoOut:
        return "nobody has asked 'partner, may I go out?'"
    if s.permission == 1:
        try:
            raw = action in legal.raw_legal_actions(s)
        except TypeError:
            raw = False
        if raw:
            return (
                "Going out: your partner said yes to 'may I go out?', so you must go out this "
                "turn (the answer must be obeyed), and after this move you could not"
            )
    if (t is A.Unstage and s.pending and not legal.may_take_back(s, "unstage")) or (
        t is A.UndoOpening and not legal.may_take_back(s, "undo")
    ):
        return (
            "you have already taken this back from this very position this turn: the same "
            "take-back is not repeated (house guard so that every turn ends; every meld stays "
            "possible — finish it)"
        )
    if s.pending and t not in (A.Stage, A.Unstage):
        return "finish the meld you are building (three cards make a meld) or take it back first"
    melds = s.melds[side]
    n = s.sizes[seat]
    minimum = turn.opening_minimum(s, side)
    if t in (A.Draw, A.TakePile, A.TakeTop):
        if s.phase != DRAW:
            return "you have already drawn this turn: draw or take from the pile only at its start"
        if not s.pile:
            return "the discard pile is empty"
        top = s.pile[-1]
        if not IS_NATURAL[top]:
            return (
                f"Taking the pile: a {card_str(top)} on top blocks it (never take the pile or "
                "its top card when it is a 3, a 2 or a joker)"
            )
        if t is A.TakePile:
            pair = action.pair
            if len(pair) != 2 or not all(
                isinstance(c, int) and 0 <= c < 53 and IS_NATURAL[c] and RANK[c] == RANK[top]
                for c in pair
            ):
                return (
                    f"Taking the pile: you need two natural {rank_str(RANK[top])}s from your "
                    "hand, of the top card's rank; you may never take it to add the top card to "
                    "a group on the table"
                )
            if not all(h[c] >= pair.count(c) for c in pair):
                return f"you do not hold {' '.join(card_str(c) for c in pair)}"
            if not s.opened[side]:
                value = 3 * VALUE[top]
                return (
                    f"Your side's first meld: the top card with your pair makes {value}, and no "
                    f"melds from your hand bring this turn's melds to the minimum of {minimum} "
                    "(for a first meld you may add cards from your hand to reach it)"
                    + (
                        "; with nothing under the top card a card must stay in your hand"
                        if len(s.pile) == 1
                        else ""
                    )
                )
            return (
                "taking the pile with your last two cards would leave you with none, and your "
                f"side may not go out yet (it needs {_side_needs(s)})"
            )
        i = action.meld
        if not 0 <= i < len(melds) or melds[i].kind != SEQUENCE:
            return (
                f"Taking the top card: meld {i} is not a sequence of your side; only a top card "
                "that fits an end of a sequence already on the table may be taken (never to "
                "start a new sequence)"
            )
        return (
            f"Taking the top card: {card_str(top)} does not fit an end of meld {i} (a sequence "
            "takes the next card of its suit, at most seven cards)"
        )
    if s.phase == DRAW and t is not A.LayRedThree:
        return "first draw from the stock or take from the discard pile"
    if t is A.Unstage:
        return "there is no unfinished meld to take back"
    card = getattr(action, "card", -1)
    if t in (A.Stage, A.AddToMeld, A.LayRedThree, A.Discard) and not (
        isinstance(card, int) and 0 <= card < 53 and h[card] > 0
    ):
        return f"you hold no {card_str(card) if isinstance(card, int) and 0 <= card < 53 else card}"
    staging = not s.opened[side] and (melds or s.taken_top >= 0)
    staged_value = sum(m.value for m in melds)
    out_rule = (
        f"you may go out only when your side has {_side_needs(s)}; until then you must always "
        "keep at least one card"
        if s.permission != -1
        else "your partner said no to 'may I go out?': you must keep a card"
    )
    if t in (A.Discard, A.Pass):
        if s.phase == PILE_OPEN:
            return (
                f"you took the pile for your side's first meld: meld from your hand until the "
                f"minimum of {minimum} is reached (you have {staged_value}), or take it back"
            )
        if staging:
            return (
                f"Your side's first meld: the cards put down in that turn must total at least "
                f"{minimum}; you have {staged_value}: meld more or take the opening back"
            )
        if t is A.Discard:
            return f"discarding your last card would be going out: {out_rule}; say pass"
        if n != 1:
            return (
                "Passing: only with one card left (when you meld all but one card and may not "
                "go out, you say pass instead of discarding)"
            )
        if s.permission == 1:
            return "your partner said yes: you must go out (discard or meld your last card)"
        return "you may go out: discard your last card (pass is only for those who may not)"
    opening_rule = (
        f"Your side's first meld: the cards put down in that turn must reach {minimum}; "
        f"after this the melds of this turn ({staged_value} so far) and the cards left in your "
        "hand could no longer reach it"
        + ("" if s.phase == PILE_OPEN and s.pile else " while keeping a card to discard")
    )
    if t is A.Stage:
        if card % 13 == 1:
            return (
                "Threes: 3s do not go into sequences or ordinary melds; red 3s are laid out "
                "singly, black 3s melded as a group only on the turn you go out"
            )
        cards = (*s.pending, card)
        complete = len(cards) == 3 and make_meld(cards, wild_melds=s.rules.wild_melds) is not None
        if complete or (len(cards) < 3 and legal.stage_ok(s, s.pending, card, h)):
            if n == 3 - len(s.pending):
                return (
                    f"melding {' '.join(card_str(c) for c in cards)} would take every card in your "
                    f"hand: {out_rule}"
                )
            if not s.opened[side]:
                return opening_rule
        return (
            f"Melds: {' '.join(card_str(c) for c in cards)} cannot become a meld with cards from your "
            f"hand: a group is ≥3 cards of one rank with at most two wild cards and twice as many "
            f"naturals as wilds; a sequence is ≥3 naturals of one suit in a row, 4…A, no wild "
            f"cards{'; wild cards alone only in Bolivia' if not s.rules.wild_melds else ''}"
        )
    if t is A.AddToMeld:
        i = action.meld
        if not 0 <= i < len(melds):
            return f"your side has no meld {i}"
        m = melds[i]
        if fits(m, card, no_wild_on_canasta=s.rules.no_wild_on_canasta):
            if n == 1 and not (s.phase == PILE_OPEN and s.pile):
                return f"adding your last card would be going out: {out_rule}"
            if not s.opened[side]:
                return opening_rule
            return f"adding your last card would be going out: {out_rule}"
        if m.kind == GROUP:
            if IS_WILD[card]:
                if s.rules.no_wild_on_canasta and m.canasta:
                    return "house rule no_wild_on_canasta: wild cards may not be added to a canasta"
                return (
                    "Groups: a group may hold at most two wild cards and needs at least twice as "
                    "many naturals as wilds"
                )
            if RANK[card] != m.rank:
                return f"meld {i} is a group of {rank_str(m.rank)}s"
        elif m.kind == SEQUENCE:
            if IS_WILD[card] or card % 13 == 1:
                return "Sequences: wild cards and 3s may never be used in a sequence"
            if m.samba:
                return f"Sambas: meld {i} is a samba (seven cards); nothing more can be added"
            return (
                f"Sequences: {card_str(card)} does not fit either end of meld {i}; two sequences "
                "can never be joined"
            )
        elif m.kind == WILD:
            if m.bolivia:
                return "a bolivia (seven wild cards) is complete: nothing more can be added"
            return "only wild cards go on a meld of wild cards"
        else:
            return "nothing may be added to the black 3s melded on going out"
        return f"adding your last card would be going out: {out_rule}"
    if t is A.MergeGroups:
        i, j = action.meld, action.other
        if not (0 <= i < j < len(melds)):
            return "name two different melds of your side, the lower number first"
        if melds[i].kind != GROUP or melds[j].kind != GROUP or melds[i].rank != melds[j].rank:
            return "Groups: only two groups of the same rank may be merged"
        if not s.opened[side] and can_merge(
            melds[i], melds[j], no_wild_on_canasta=s.rules.no_wild_on_canasta
        ):
            return opening_rule
        return "the merged group would break the wild limits (at most two wild cards)"
    if t is A.LayRedThree:
        if card not in RED_THREES:
            return "only red 3s (3♦, 3♥) are laid out singly"
        if s.rules.red_threes_as_canasta:
            return "house rule red_threes_as_canasta: red 3s are laid out automatically"
        if n > 1 and not s.opened[side]:
            return opening_rule
        return f"laying out your last card would be going out: {out_rule}"
    if t is A.MeldBlackThrees:
        cards = tuple(action.cards)
        if not all(c in BLACK_THREES for c in cards) or len(cards) < 3:
            return "black 3s are melded as a group of at least three black 3s"
        if not all(h[c] >= cards.count(c) for c in set(cards)):
            return "you do not hold those black 3s"
        return (
            "Black 3s: they may be melded only in the turn you go out; meld them last, leaving "
            f"at most one card to discard, when your side has {_side_needs(s)}"
        )
    if t is A.UndoOpening:
        return "there is no first meld being built to take back"
    if t is A.AskGoOut:
        if len(s.sides[side]) < 2:
            return "you play alone: there is no partner to ask"
        if not s.rules.partner_permission:
            return "house rule: asking 'partner, may I go out?' is not used"
        if s.asked:
            return "you have already asked this turn"
        if s.phase != MELD:
            return (
                "ask after drawing (or once the pile taken for a first meld is in your hand), "
                "when you can go out this turn"
            )
        return (
            "ask when you can go out this turn: your cards cannot all be melded (but one to "
            f"discard) with your side then holding {_side_needs(s)}"
        )
    if s.phase not in (MELD, PILE_OPEN):
        return "not now"
    return f"{action} is not a legal move now"
