"""The Samba Hand and Foot engine (seed ``004_bae80ddcdedd4514.txt``): the Game protocol."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from parlour.core.cards import Card, card_str, cards_str, expand
from parlour.core.game import Event, Game, HandResult, Outcome, Seat
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.games.handfoot import moves
from parlour.games.handfoot.actions import (
    ACTION_TYPES,
    Action,
    AddToMeld,
    Discard,
    Draw,
    Meld,
    Retract,
    TakePile,
)
from parlour.games.handfoot.melds import Meld as TableMeld
from parlour.games.handfoot.melds import card_value, cards_value, classify
from parlour.games.handfoot.observe import HandFootView, determinize_view, observe_state, view_json
from parlour.games.handfoot.rules import HandFootRules
from parlour.games.handfoot.scoring import side_score
from parlour.games.handfoot.state import (
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    State,
    deal_round,
    draw_cards,
    lay_out_red_threes,
)

SEAT_NAMES = ("South", "West", "North", "East")


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else f"seat {seat}"


class HandFootGame(Game[State, Action, HandFootView, HandFootRules]):
    """Samba Hand and Foot: 4 players in partnerships, 7 decks, hand and foot, four rounds."""

    name = "handfoot"
    title = "Samba Hand and Foot"
    version = 1
    rules_type = HandFootRules
    action_types = ACTION_TYPES

    seat_names: ClassVar[tuple[str, ...]] = SEAT_NAMES

    # --- setup ---------------------------------------------------------------------------------

    def new_game(self, rules: HandFootRules, seed: int) -> State:
        state = State(rules=rules, seed=seed)
        n = rules.players
        state.scores = [0] * (n if rules.rotate_partners else 2)
        deal_round(state, 0, derive_seed(seed, "deal", 0))
        return state

    def hand_number(self, state: State) -> int:
        return state.round

    def hand_seed(self, state: State) -> int:
        return state.hand_seed

    def redeal(self, state: State, seed: int) -> State:
        new = state.clone()
        if state.round > 0 and not state.rules.cut_each_round:
            # the first player passed left from the previous round's first player
            new.first = (state.first - 1) % state.rules.players
        deal_round(new, state.round, seed)
        return new

    # --- protocol ------------------------------------------------------------------------------

    def to_act(self, state: State) -> Seat | None:
        return None if state.phase == PHASE_OVER else state.to_move

    def legal_actions(self, state: State) -> Sequence[Action]:
        return moves.legal_actions(state)

    def explain(self, state: State, action: Action) -> str | None:
        return moves.explain(state, action)

    def num_seats(self, state: State) -> int:
        return state.rules.players

    def all_cards(self, state: State) -> list[Card]:
        out: list[Card] = []
        for h in state.hands:
            out.extend(expand(h))
        for f in state.feet:
            out.extend(f)
        out.extend(state.stock)
        out.extend(state.pile)
        out.extend(state.pending)
        for side in state.melds:
            for m in side:
                out.extend(m.cards)
        for r in state.red_threes:
            out.extend(r)
        return out

    def observe(self, state: State, seat: Seat | None) -> HandFootView:
        return observe_state(state, seat)

    def determinize(self, view: HandFootView, rng: random.Random) -> State:
        return determinize_view(view, rng)

    def view_to_json(self, view: HandFootView) -> dict[str, Any]:
        return view_json(view)

    # --- applying actions --------------------------------------------------------------------

    def apply_unchecked(self, state: State, action: Action) -> tuple[State, list[Event]]:
        s = state.clone()
        events: list[Event] = []
        if isinstance(action, Draw):
            self._draw(s, events)
        elif isinstance(action, TakePile):
            self._take_pile(s, action, events)
        elif isinstance(action, Meld):
            self._meld(s, -1, action.cards, events)
        elif isinstance(action, AddToMeld):
            self._meld(s, action.meld, (action.card,), events)
        elif isinstance(action, Discard):
            self._discard(s, action.card, events)
        elif isinstance(action, Retract):
            self._retract(s, events)
        else:  # pragma: no cover - guarded by explain
            raise TypeError(f"not a Hand and Foot action: {action!r}")
        return s, events

    def _draw(self, s: State, events: list[Event]) -> None:
        seat = s.to_move
        if not s.stock and s.rules.stock_out == "reshuffle" and len(s.pile) > 1:
            rest, top = s.pile[:-1], s.pile[-1]
            random.Random(derive_seed(s.hand_seed, "reshuffle", s.reshuffles)).shuffle(rest)
            s.stock, s.pile = rest, [top]
            s.reshuffles += 1
            events.append(
                Event("reshuffle", f"the stock is empty: {len(rest)} discards are shuffled into it")
            )
        if not s.stock:
            events.append(
                Event(
                    "stock_out",
                    f"{seat_name(seat)} cannot draw: the stock is empty, the round ends",
                )
            )
            self._end_round(s, events)
            return
        kept, laid = draw_cards(s, seat, s.rules.draw_count)
        events.append(
            Event(
                "draw",
                f"{seat_name(seat)} draws {len(kept) + len(laid)} cards",
                data={"seat": seat, "count": len(kept) + len(laid)},
            )
        )
        events.append(
            Event(
                "draw_private",
                f"you draw {cards_str(kept)}",
                seats=frozenset({seat}),
                data={"seat": seat, "cards": [card_str(c) for c in kept]},
            )
        )
        self._red_three_event(s, seat, laid, events)
        s.phase = PHASE_PLAY
        if not s.stock and not moves.play_actions(s):
            # the last cards of the stock were red 3s that could not be replaced: the player is
            # left with a lone card they may not discard (or none) — the stock has run out
            events.append(
                Event(
                    "stock_out",
                    f"{seat_name(seat)} drew the last cards of the stock and cannot play on: "
                    "the round ends",
                )
            )
            self._end_round(s, events)

    def _red_three_event(self, s: State, seat: int, laid: list[Card], events: list[Event]) -> None:
        if laid:
            events.append(
                Event(
                    "red_threes",
                    f"{seat_name(seat)} lays out {cards_str(laid)} and draws replacements",
                    data={"seat": seat, "cards": [card_str(c) for c in laid]},
                )
            )

    def _take_pile(self, s: State, action: TakePile, events: list[Event]) -> None:
        seat = s.to_move
        take = s.rules.pile_take
        top = s.pile[-1]
        s.pending = s.pile[-take:-1]
        s.pile = s.pile[:-take]
        s.took_pile = True
        s.taken_top = top
        s.phase = PHASE_PLAY
        events.append(
            Event(
                "take_pile",
                f"{seat_name(seat)} takes the pile: {card_str(top)} with "
                f"{cards_str(action.cards)}; {cards_str(s.pending)} join the hand after the discard",
                data={
                    "seat": seat,
                    "top": card_str(top),
                    "pending": [card_str(c) for c in s.pending],
                },
            )
        )
        self._place(s, action.meld, (top, *action.cards), from_hand=action.cards, events=events)

    def _meld(self, s: State, index: int, cards: tuple[Card, ...], events: list[Event]) -> None:
        self._place(s, index, cards, from_hand=cards, events=events)

    def _place(
        self,
        s: State,
        index: int,
        cards: tuple[Card, ...],
        *,
        from_hand: tuple[Card, ...],
        events: list[Event],
    ) -> None:
        seat = s.to_move
        side = s.side_of[seat]
        hand = s.hands[seat]
        known = s.known[seat]
        for c in from_hand:
            hand[c] -= 1
            if known[c]:
                known[c] -= 1
        melds = s.melds[side]
        if index < 0:
            kk = classify(cards)
            assert kk is not None
            meld = TableMeld(kk[0], kk[1], tuple(sorted(cards)))
            melds.append(meld)
            where = f"starts a {meld.label()}"
        else:
            old = melds[index]
            meld = TableMeld(old.kind, old.key, tuple(sorted((*old.cards, *cards))))
            melds[index] = meld
            where = f"adds to the {meld.label()}"
        done = " — a finished book" if meld.complete else ""
        events.append(
            Event(
                "meld",
                f"{seat_name(seat)} {where}: {cards_str(cards)}{done}",
                data={
                    "seat": seat,
                    "meld": index if index >= 0 else len(melds) - 1,
                    "cards": [card_str(c) for c in cards],
                },
            )
        )
        if s.down[seat]:
            return
        s.turn_value += cards_value(cards)
        on_partner = 0 <= index < s.turn_start_melds
        if on_partner or s.turn_value >= s.opening_minimum():
            s.down[seat] = True
            s.opened[side] = True
            s.provisional = False
            how = "plays on the partner's meld" if on_partner else f"melds {s.turn_value} points"
            events.append(
                Event(
                    "requirement_met",
                    f"{seat_name(seat)} {how} and meets the requirement ({s.opening_minimum()})",
                    data={"seat": seat},
                )
            )
        else:
            s.provisional = True

    def _retract(self, s: State, events: list[Event]) -> None:
        seat = s.to_move
        side = s.side_of[seat]
        hand = s.hands[seat]
        known = s.known[seat]
        back: list[Card] = []
        for m in s.melds[side][s.turn_start_melds :]:
            back.extend(m.cards)
        del s.melds[side][s.turn_start_melds :]
        if s.took_pile:
            back.remove(s.taken_top)
            s.pile.extend(s.pending)
            s.pile.append(s.taken_top)
            s.pending = []
            s.took_pile = False
            s.taken_top = -1
            s.pile_refused = True
            s.phase = PHASE_DRAW
        else:
            s.melds_refused = True
        for c in back:
            hand[c] += 1
            known[c] += 1
        s.turn_value = 0
        s.provisional = False
        events.append(
            Event(
                "retract",
                f"{seat_name(seat)} takes back {cards_str(sorted(back))}"
                + (" and returns the pile" if s.phase == PHASE_DRAW else ""),
                data={"seat": seat, "cards": [card_str(c) for c in sorted(back)]},
            )
        )

    def _discard(self, s: State, card: Card, events: list[Event]) -> None:
        seat = s.to_move
        hand = s.hands[seat]
        hand[card] -= 1
        if s.known[seat][card]:
            s.known[seat][card] -= 1
        s.pile.append(card)
        events.append(
            Event(
                "discard",
                f"{seat_name(seat)} discards {card_str(card)}",
                data={"seat": seat, "card": card_str(card)},
            )
        )
        if s.pending:
            for c in s.pending:
                hand[c] += 1
                s.known[seat][c] += 1
            events.append(
                Event(
                    "pending_joins",
                    f"{seat_name(seat)} adds the {len(s.pending)} pile cards to the hand",
                    data={"seat": seat},
                )
            )
            s.pending = []
        if s.down[seat] and not s.foot_taken[seat]:
            for c in s.feet[seat]:
                hand[c] += 1
            foot = s.feet[seat]
            s.feet[seat] = []
            s.foot_taken[seat] = True
            events.append(
                Event(
                    "foot",
                    f"{seat_name(seat)} picks up the foot ({len(foot)} cards)",
                    data={"seat": seat},
                )
            )
            events.append(
                Event(
                    "foot_private",
                    f"your foot: {cards_str(sorted(foot))}",
                    seats=frozenset({seat}),
                    data={"cards": [card_str(c) for c in sorted(foot)]},
                )
            )
            self._red_three_event(s, seat, lay_out_red_threes(s, seat), events)
        elif not any(hand) and s.foot_taken[seat]:
            s.went_out = seat
            events.append(Event("out", f"{seat_name(seat)} goes out", data={"seat": seat}))
            self._end_round(s, events)
            return
        self._next_turn(s)

    def _next_turn(self, s: State) -> None:
        nxt = s.next_seat(s.to_move)
        s.to_move = nxt
        s.phase = PHASE_DRAW
        s.turn_start_melds = len(s.melds[s.side_of[nxt]])
        s.turn_value = 0
        s.provisional = False
        s.took_pile = False
        s.taken_top = -1
        s.pending = []
        s.pile_refused = False
        s.melds_refused = False

    # --- end of a round ------------------------------------------------------------------------

    def round_breakdown(self, s: State) -> list[dict[str, int]]:
        """Each partnership's score for the round as it stands (the final one at round end)."""
        rules = s.rules
        out = []
        for side in (0, 1):
            seats = s.side_seats(side)
            left: list[Card] = []
            for seat in seats:
                left.extend(expand(s.hands[seat]))
                left.extend(s.pending if seat == s.to_move else [])
                if rules.foot_counts_against and not s.foot_taken[seat]:
                    left.extend(s.feet[seat])
            out.append(
                side_score(
                    rules,
                    melds=s.melds[side],
                    red_threes=len(s.red_threes[side]),
                    exact_cuts=sum(1 for seat in seats if s.cuts[seat] == 2 * rules.stack_size),
                    went_out=s.went_out in seats,
                    left_in_hand=left,
                )
            )
        return out

    def _end_round(self, s: State, events: list[Event]) -> None:
        rules = s.rules
        per_side = self.round_breakdown(s)
        if rules.rotate_partners:
            unit_scores = tuple(per_side[s.side_of[seat]]["total"] for seat in range(rules.players))
            breakdown = tuple(dict(per_side[s.side_of[seat]]) for seat in range(rules.players))
        else:
            unit_scores = (per_side[0]["total"], per_side[1]["total"])
            breakdown = (dict(per_side[0]), dict(per_side[1]))
        note = f"{seat_name(s.went_out)} went out" if s.went_out >= 0 else "the stock ran out"
        s.results.append(
            HandResult(
                s.round,
                tuple(float(x) for x in unit_scores),
                tuple({k: float(v) for k, v in b.items()} for b in breakdown),
                note,
            )
        )
        s.scores = [a + b for a, b in zip(s.scores, unit_scores, strict=True)]
        events.append(
            Event(
                "round_over",
                f"round {s.round + 1} over ({note}): "
                + ", ".join(f"{x:+d}" for x in unit_scores)
                + "; totals "
                + ", ".join(str(x) for x in s.scores),
                data={"round": s.round, "scores": list(unit_scores), "totals": list(s.scores)},
            )
        )
        if s.round + 1 >= rules.rounds:
            s.phase = PHASE_OVER
            s.termination = "rounds" if rules.rounds == len(rules.opening_minimums) else "max_hands"
            events.append(Event("match_over", "the match is over"))
            return
        self.deal_next(s, events)

    def deal_next(self, s: State, events: list[Event]) -> None:
        rnd = s.round + 1
        notes = deal_round(s, rnd, derive_seed(s.seed, "deal", rnd))
        events.append(
            Event(
                "deal",
                f"round {rnd + 1} dealt (minimum {s.opening_minimum()}); "
                f"{seat_name(s.first)} plays first",
                data={"round": rnd, "first": s.first, "cuts": list(s.cuts)},
            )
        )
        for _kind, seat, laid in notes:
            self._red_three_event(s, seat, laid, events)

    # --- outcome -------------------------------------------------------------------------------

    def sides(self, rules: HandFootRules) -> tuple[tuple[int, ...], ...]:
        if rules.rotate_partners:
            return tuple((seat,) for seat in range(rules.players))
        return ((0, 2), (1, 3))

    def outcome(self, state: State) -> Outcome:
        # the higher total wins; sides tied for the top share the win, all tied is a draw
        if state.termination == "max_hands":
            kind = Termination.CAPPED
        elif state.went_out < 0:  # the last round ended on an empty stock
            kind = Termination.STOCK_OUT
        else:
            kind = Termination.FINISHED
        return decide(
            self.sides(state.rules),
            state.scores,
            finished=state.phase == PHASE_OVER,
            termination=state.termination,
            kind=kind,
            tie_rule=TieRule.SHARE,
            hands=state.results,
        )

    def action_text(self, state: State, action: Action) -> str:
        if isinstance(action, TakePile) and state.pile:
            return f"take the pile ({card_str(state.pile[-1])} with {cards_str(action.cards)})"
        if isinstance(action, Discard):
            return f"discard {card_str(action.card)} ({card_value(action.card)})"
        return str(action)
