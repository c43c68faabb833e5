"""The Cheat engine: deal, staged plays, the blind challenge window, resolution, going out.

Rules follow ``shared/RULES.md`` §3 and the seeds ``001_e8630c614840283e.txt`` (I Doubt It /
Cheat) and ``000_0fa2fe02243ab02b.txt`` (Bullshit); ``docs/games/cheat.md`` lists every decision
made where the seeds are silent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from parlour.core.cards import JOKER, NUM_KINDS, card_str, rank_of, rank_str, shuffled_shoe
from parlour.core.game import Event, Game, HandResult, Outcome, Seat
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.games.cheat.actions import (
    ACTION_TYPES,
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
    ChallengeRecord,
    CheatView,
    ClaimRecord,
    PickupRecord,
    Play,
    State,
)
from parlour.games.cheat.view import determinize_view, observe_state, view_json

TWO_OF_CLUBS = 0

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


def is_truthful(play: Play) -> bool:
    """All cards of the claimed rank (jokers wild) and exactly as many as claimed."""
    if len(play.cards) != play.count:
        return False
    return all(c == JOKER or rank_of(c) == play.rank for c in play.cards)


def _card_key(card: int) -> tuple[int, int]:
    """Highest card order (Spain): rank, then suit ♣ < ♦ < ♥ < ♠; a joker above all."""
    return (15, 0) if card == JOKER else (rank_of(card), card // 13)


def _left_active(state: State, seat: int, out: tuple[int, ...] | None = None) -> int:
    gone = state.out if out is None else out
    n = state.rules.players
    for step in range(1, n + 1):
        s = (seat + step) % n
        if s not in gone:
            return s
    return -1


def askers_for(players: int, player: int, out: tuple[int, ...]) -> tuple[int, ...]:
    """The seats asked after ``player``'s play: every other seat still in, from its left."""
    return tuple(s for s in ((player + i) % players for i in range(1, players)) if s not in out)


def replace(state: State, **changes: object) -> State:
    """A copy of ``state`` with some fields changed (a fast ``dataclasses.replace``: no
    re-validation, unchanged parts shared)."""
    new = object.__new__(State)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    return new


_PICKS = tuple(Pick(k) for k in range(NUM_KINDS))
_CLAIMS = {(c, r): Claim(c, r) for c in range(1, 65) for r in ALL_RANKS}


def _claim_of(count: int, rank: int) -> Claim:
    return _CLAIMS.get((count, rank)) or Claim(count, rank)


def _with(seq: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


class CheatGame(Game[State, Action, CheatView, CheatRules]):
    name = "cheat"
    title = "Cheat / I Doubt It / Bullshit"
    #: 2 (issue 16): one pack for any number of players by default (was two from 6 players up)
    version = 2
    rules_type = CheatRules
    action_types: ClassVar[dict[str, type]] = ACTION_TYPES

    # --- deal ------------------------------------------------------------------------------

    def new_game(self, rules: CheatRules, seed: int) -> State:
        return self._deal(rules, seed, derive_seed(seed, "deal", 0))

    def _deal(self, rules: CheatRules, seed: int, deal_seed: int) -> State:
        rng = random.Random(deal_seed)
        cards = shuffled_shoe(rng, rules.packs, rules.jokers)
        n = rules.players
        hands = [[0] * NUM_KINDS for _ in range(n)]
        for i, c in enumerate(cards):  # one at a time from seat 0 (left of the dealer)
            hands[i % n][c] += 1
        sizes = tuple(sum(h) for h in hands)
        starter_rule = rules.starter_rule
        must = -1
        phase = PLAY
        if starter_rule == "two_of_clubs":
            first = next(s for s in range(n) if hands[s][TWO_OF_CLUBS])
            must = TWO_OF_CLUBS
        elif starter_rule == "highest_card":
            best = max(cards, key=_card_key)
            first = next(s for s in range(n) if hands[s][best])
        elif starter_rule == "dealer_chooses":
            first = n - 1
            phase = CHOOSE_FIRST
        else:
            first = rng.randrange(n)
        return State(
            rules=rules,
            seed=seed,
            phase=phase,
            hands=tuple(tuple(h) for h in hands),
            shown=sizes,
            pile=(),
            turn_seat=first,
            actor=first,
            selection=(),
            allowed=opening_ranks(rules.rank_rule),
            must_include=must,
            askers=(),
            ask_index=0,
            challengers=(),
            late_passed=(),
            out=(),
            turns=0,
            first_player=first,
            claims=(),
            challenges=(),
            pickups=tuple(() for _ in range(n)),
        )

    def hand_number(self, state: State) -> int:
        return 0

    def hand_seed(self, state: State) -> int:
        return derive_seed(state.seed, "deal", 0)

    def redeal(self, state: State, seed: int) -> State:
        return self._deal(state.rules, state.seed, seed)

    # --- whose turn, what is legal ---------------------------------------------------------

    def to_act(self, state: State) -> Seat | None:
        return None if state.phase == OVER else state.actor

    def legal_actions(self, state: State) -> Sequence[Action]:
        phase = state.phase
        if phase in (WINDOW, LATE):
            return (_CHALLENGE, _PASS)
        if phase == PLAY:
            return self._play_actions(state)
        if phase == CHOOSE_FIRST:
            return tuple(ChooseFirst(s) for s in range(state.rules.players))
        return ()

    def _play_actions(self, state: State) -> list[Action]:
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

    def explain(self, state: State, action: Action) -> str | None:
        phase = state.phase
        if phase == OVER:
            return "the game is over"
        if isinstance(action, (Challenge, Pass)):
            if phase in (WINDOW, LATE):
                return None
            return "a challenge is answered only right after a play, before the next play"
        if isinstance(action, ChooseFirst):
            if phase != CHOOSE_FIRST:
                return "the first player is chosen only at the start (Canada: by the dealer)"
            if not isinstance(action.seat, int) or not 0 <= action.seat < state.rules.players:
                return f"there is no seat {action.seat}"
            return None
        if phase != PLAY:
            what = "choose the first player" if phase == CHOOSE_FIRST else "answer the challenge"
            return f"it is time to {what}, not to play cards"
        if isinstance(action, Pick):
            return self._explain_pick(state, action.card)
        if isinstance(action, Claim):
            return self._explain_claim(state, action)
        return f"{action!r} is not a Cheat action"

    def _explain_pick(self, state: State, card: int) -> str | None:
        if not isinstance(card, int) or not 0 <= card < NUM_KINDS:
            return f"{card!r} is not a card"
        sel = state.selection
        limit = state.rules.max_cards
        if state.hands[state.turn_seat][card] == 0:
            return f"you hold no {card_str(card)} (besides those already picked)"
        if state.must_include >= 0 and state.must_include not in sel and card != state.must_include:
            return "the first play must include the 2♣ (its holder begins with it)"
        if limit is not None and len(sel) >= limit:
            return f"a play is at most {limit} cards"
        if sel and card < sel[-1]:
            return (
                f"pick cards in order (2♣ … A♠, then jokers): {card_str(card)} comes before "
                f"{card_str(sel[-1])}, already picked"
            )
        return None

    def _explain_claim(self, state: State, action: Claim) -> str | None:
        sel = state.selection
        if not sel:
            return "pick at least one card before claiming"
        if state.must_include >= 0 and state.must_include not in sel:
            return "the first play must include the 2♣ (its holder begins with it)"
        if action.rank not in state.allowed:
            names = ", ".join(rank_str(r) for r in state.allowed)
            return f"the claim must name {'one of ' if len(state.allowed) > 1 else ''}{names}"
        counts = claim_counts(state.rules, len(sel), state.shown[state.turn_seat])
        if action.count in counts:
            return None
        if len(counts) == 1:
            return f"the claimed count must be the number of cards played ({len(sel)})"
        return f"claim between {counts.start} and {counts.stop - 1} cards ({len(sel)} put down)"

    # --- apply -----------------------------------------------------------------------------

    def apply_unchecked(self, state: State, action: Action) -> tuple[State, list[Event]]:
        if isinstance(action, Pick):
            seat = state.turn_seat
            hand = state.hands[seat]
            new_hand = _with(hand, action.card, hand[action.card] - 1)
            return (
                replace(
                    state,
                    hands=(*state.hands[:seat], new_hand, *state.hands[seat + 1 :]),
                    selection=(*state.selection, action.card),
                ),
                [],
            )
        if isinstance(action, Claim):
            return self._claim(state, action)
        if isinstance(action, (Challenge, Pass)):
            return self._answer(state, isinstance(action, Challenge))
        if isinstance(action, ChooseFirst):
            seat = action.seat
            ev = Event("first_player", f"the dealer chooses seat {seat} to play first")
            return replace(state, phase=PLAY, turn_seat=seat, actor=seat, first_player=seat), [ev]
        raise TypeError(f"not a Cheat action: {action!r}")

    def _claim(self, state: State, action: Claim) -> tuple[State, list[Event]]:
        seat = state.turn_seat
        play = Play(seat, state.selection, action.count, action.rank)
        turn = state.turns + 1
        askers = askers_for(state.rules.players, seat, state.out)
        shown = _with(state.shown, seat, max(0, state.shown[seat] - action.count))
        new = replace(
            state,
            phase=WINDOW,
            pile=(*state.pile, play),
            shown=shown,
            selection=(),
            must_include=-1,
            askers=askers,
            ask_index=0,
            challengers=(),
            late_passed=(),
            actor=askers[0],
            turns=turn,
            claims=(*state.claims, ClaimRecord(turn, seat, action.count, action.rank)),
        )
        text = f"seat {seat} claims {action.count} × {rank_str(action.rank)}"
        events = [
            Event("claim", text, None, {"seat": seat, "count": action.count, "rank": action.rank}),
            Event(
                "played",
                f"you put down {' '.join(card_str(c) for c in play.cards)}",
                frozenset((seat,)),
                {"cards": [card_str(c) for c in play.cards]},
            ),
        ]
        return new, events

    def _answer(self, state: State, challenge: bool) -> tuple[State, list[Event]]:
        seat = state.actor
        if state.phase == LATE:
            if challenge:
                return self._resolve(state, (seat,), late=True)
            nxt = state.ask_index + 1
            passed = (*state.late_passed, seat)
            ev = Event("late_pass", f"seat {seat} lets it stand", None, {"seat": seat})
            if nxt < len(state.askers):
                new = replace(state, ask_index=nxt, actor=state.askers[nxt], late_passed=passed)
                return new, [ev]
            new, evs = self._play_stands(replace(state, late_passed=passed))
            return new, [ev, *evs]
        challengers = (*state.challengers, seat) if challenge else state.challengers
        nxt = state.ask_index + 1
        if nxt < len(state.askers):
            return (
                replace(state, ask_index=nxt, actor=state.askers[nxt], challengers=challengers),
                [],
            )
        if challengers:
            return self._resolve(state, challengers, late=False)
        if state.rules.challenge_any_time:
            ev = Event("late_round", "nobody challenged; the play may still be challenged")
            return (
                replace(
                    state,
                    phase=LATE,
                    ask_index=0,
                    actor=state.askers[0],
                    challengers=(),
                    late_passed=(),
                ),
                [ev],
            )
        return self._play_stands(replace(state, challengers=()))

    def _play_stands(self, state: State) -> tuple[State, list[Event]]:
        """Nobody challenged: the play stands; an empty hand goes out."""
        player = state.turn_seat
        last = state.pile[-1]
        events = [Event("unchallenged", f"nobody challenges seat {player}", None, {})]
        allowed = successors(state.rules.rank_rule, last.rank)
        return self._next_turn(state, player, allowed, events)

    def _resolve(
        self, state: State, challengers: tuple[int, ...], *, late: bool
    ) -> tuple[State, list[Event]]:
        rules = state.rules
        play = state.pile[-1]
        player = play.seat
        truthful = is_truthful(play)
        # cards put down beyond the claim (overplay, > 0) or short of it (overclaim, < 0): the
        # exposure shows everybody the true number, so the counted sizes take it in
        extra = len(play.cards) - play.count
        shown = list(state.shown)
        shown[player] = max(0, shown[player] - extra)
        pile_cards = [c for p in reversed(state.pile) for c in p.cards]  # top first
        pile_count = sum(p.count for p in state.pile) + extra
        if truthful:
            takers = challengers if rules.challenge_split else challengers[:1]
        else:
            takers = (player,)
        k = len(takers)
        got: list[list[int]] = [[] for _ in range(k)]
        for i, c in enumerate(pile_cards):  # dealt from the top, one each in seat order
            got[i % k].append(c)
        shares = tuple(pile_count // k + (1 if j < pile_count % k else 0) for j in range(k))
        hands = list(state.hands)
        pickups = list(state.pickups)
        for j, taker in enumerate(takers):
            h = list(hands[taker])
            for c in got[j]:
                h[c] += 1
            hands[taker] = tuple(h)
            shown[taker] += shares[j]
            pickups[taker] = (
                *pickups[taker],
                PickupRecord(state.turns, tuple(sorted(got[j]))),
            )
        exposed_to = tuple(takers[i % k] for i in range(len(play.cards)))
        record = ChallengeRecord(
            turn=state.turns,
            player=player,
            count=play.count,
            rank=play.rank,
            challengers=challengers,
            cards=play.cards,
            truthful=truthful,
            takers=takers,
            shares=shares,
            exposed_to=exposed_to,
            late=late,
        )
        who = ", ".join(f"seat {s}" for s in challengers)
        verdict = "it was true" if truthful else "it was a lie"
        takers_text = ", ".join(f"seat {t} ({n})" for t, n in zip(takers, shares, strict=True))
        events = [
            Event(
                "challenge",
                f"{who} challenge{'s' if len(challengers) == 1 else ''} seat {player}: "
                f"{' '.join(card_str(c) for c in play.cards)} — {verdict}; "
                f"the pile goes to {takers_text}",
                None,
                {
                    "player": player,
                    "challengers": list(challengers),
                    "cards": [card_str(c) for c in play.cards],
                    "truthful": truthful,
                    "takers": list(takers),
                    "shares": list(shares),
                },
            )
        ]
        for j, taker in enumerate(takers):
            events.append(
                Event(
                    "picked_up",
                    f"you take {' '.join(card_str(c) for c in sorted(got[j]))}",
                    frozenset((taker,)),
                    {"cards": [card_str(c) for c in sorted(got[j])]},
                )
            )
        new = replace(
            state,
            hands=tuple(hands),
            shown=tuple(shown),
            pile=(),
            pickups=tuple(pickups),
            challenges=(*state.challenges, record),
            challengers=(),
        )
        if rules.after_challenge == "restart":
            allowed = ALL_RANKS
        else:
            allowed = successors(rules.rank_rule, play.rank)
        return self._next_turn(new, player, allowed, events)

    def _next_turn(
        self, state: State, player: int, allowed: tuple[int, ...], events: list[Event]
    ) -> tuple[State, list[Event]]:
        rules = state.rules
        out = state.out
        shown = state.shown
        if not any(state.hands[player]):
            out = (*out, player)
            shown = _with(shown, player, 0)
            place = len(out)
            events.append(Event("out", f"seat {player} goes out (place {place})", None, {}))
        active = rules.players - len(out)
        termination = ""
        if out and (not rules.play_on_for_places or active <= 1):
            termination = "last_player" if rules.play_on_for_places else "went_out"
        elif rules.max_turns is not None and state.turns >= rules.max_turns:
            termination = "max_turns"
        base = replace(
            state,
            out=out,
            shown=shown,
            askers=(),
            ask_index=0,
            late_passed=(),
            challengers=(),
        )
        if termination:
            events.append(Event("game_over", f"the game is over ({termination})"))
            return replace(base, phase=OVER, actor=-1, termination=termination), events
        nxt = _left_active(base, player, out)
        return replace(base, phase=PLAY, turn_seat=nxt, actor=nxt, allowed=allowed), events

    # --- views -----------------------------------------------------------------------------

    def observe(self, state: State, seat: Seat | None) -> CheatView:
        return observe_state(state, seat)

    def determinize(self, view: CheatView, rng: random.Random) -> State:
        return determinize_view(view, rng)

    def view_to_json(self, view: CheatView) -> dict[str, Any]:
        return view_json(view)

    # --- the end ---------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome:
        n = state.rules.players
        sides = tuple((s,) for s in range(n))
        finished = state.phase == OVER
        # mid-match, only the publicly counted hand sizes: true sizes can be hidden (overplay,
        # overclaim)
        held = (
            [
                sum(h) + (len(state.selection) if s == state.turn_seat else 0)
                for s, h in enumerate(state.hands)
            ]
            if finished
            else list(state.shown)
        )
        scores = tuple(float(-held[s]) for s in range(n))
        rest = sorted((s for s in range(n) if s not in state.out), key=lambda s: (held[s], s))
        ranking = (*state.out, *rest)
        # the first player out wins (loser mode: everyone but those holding the most); at the
        # safety cap, with nobody out, the fewest cards win (a tie for the fewest is a draw)
        if state.rules.loser_mode:
            tie_rule = TieRule.ALL_BUT_LOWEST
        else:
            tie_rule = TieRule.FIRST_PLACE if state.out else TieRule.DRAW
        capped = state.termination == "max_turns"
        hands = (HandResult(0, scores, note=state.termination),) if finished else ()
        return decide(
            sides,
            scores,
            finished=finished,
            termination=state.termination,
            kind=Termination.CAPPED if capped else Termination.FINISHED,
            tie_rule=tie_rule,
            hands=hands,
            ranking=ranking,
            places=state.out,
        )

    def all_cards(self, state: State) -> list[int]:
        out: list[int] = []
        for h in state.hands:
            for kind, k in enumerate(h):
                if k:
                    out.extend([kind] * k)
        out.extend(state.selection)
        for p in state.pile:
            out.extend(p.cards)
        return out

    def action_text(self, state: State, action: Action) -> str:
        return str(action)
