"""Applying Cheat's actions: the deal, staged plays, the blind challenge window, resolution and
going out (RULES.md §3; ``docs/games/cheat.md`` lists every decision made where the rules are
silent)."""

from __future__ import annotations

import random

from parlour.core.cards import JOKER, NUM_KINDS, rank_of, shuffled_shoe
from parlour.core.game import Event
from parlour.games.cheat.actions import (
    Action,
    Challenge,
    ChooseFirst,
    Claim,
    Pass,
    Pick,
)
from parlour.games.cheat.legal import opening_ranks, successors
from parlour.games.cheat.rules import CheatRules
from parlour.games.cheat.state import (
    ALL_RANKS,
    CHOOSE_FIRST,
    LATE,
    OVER,
    PLAY,
    WINDOW,
    ChallengeRecord,
    ClaimRecord,
    PickupRecord,
    Play,
    State,
)

TWO_OF_CLUBS = 0

_CHALLENGE = Challenge()
_PASS = Pass()


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


def _with(seq: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


def deal(rules: CheatRules, seed: int, deal_seed: int) -> State:
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
        to_act=first,
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


def apply(state: State, action: Action, events: list[Event] | None) -> State:
    """The state after ``action`` (known to be legal); its events are appended to ``events``,
    or none are built when it is ``None`` (the quiet apply of play-outs and simulations)."""
    if isinstance(action, Pick):
        seat = state.turn_seat
        hand = state.hands[seat]
        new_hand = _with(hand, action.card, hand[action.card] - 1)
        new = state.clone()
        new.hands = (*state.hands[:seat], new_hand, *state.hands[seat + 1 :])
        new.selection = (*state.selection, action.card)
        return new
    if isinstance(action, Claim):
        return _claim(state, action, events)
    if isinstance(action, (Challenge, Pass)):
        return _answer(state, isinstance(action, Challenge), events)
    if isinstance(action, ChooseFirst):
        seat = action.seat
        if events is not None:
            events.append(Event("first_player", {"seat": seat}))
        new = state.clone()
        new.phase = PLAY
        new.turn_seat = new.to_act = new.first_player = seat
        return new
    raise TypeError(f"not a Cheat action: {action!r}")


def apply_quiet(state: State, action: Action) -> State:
    """:meth:`CheatGame.apply_quiet` (the engine's method is this function itself)."""
    return apply(state, action, None)


def _claim(state: State, action: Claim, events: list[Event] | None) -> State:
    seat = state.turn_seat
    play = Play(seat, state.selection, action.count, action.rank)
    turn = state.turns + 1
    askers = askers_for(state.rules.players, seat, state.out)
    shown = _with(state.shown, seat, max(0, state.shown[seat] - action.count))
    new = state.clone()
    new.phase = WINDOW
    new.pile = (*state.pile, play)
    new.shown = shown
    new.selection = ()
    new.must_include = -1
    new.askers = askers
    new.ask_index = 0
    new.challengers = ()
    new.late_passed = ()
    new.to_act = askers[0]
    new.turns = turn
    new.claims = (*state.claims, ClaimRecord(turn, seat, action.count, action.rank))
    if events is not None:
        events.append(Event("claim", {"seat": seat, "count": action.count, "rank": action.rank}))
        events.append(Event("played", {"seat": seat, "cards": play.cards}, frozenset((seat,))))
    return new


def _answer(state: State, challenge: bool, events: list[Event] | None) -> State:
    seat = state.to_act
    if state.phase == LATE:
        if challenge:
            return _resolve(state, (seat,), events, late=True)
        nxt = state.ask_index + 1
        passed = (*state.late_passed, seat)
        if events is not None:
            events.append(Event("late_pass", {"seat": seat}))
        new = state.clone()
        new.late_passed = passed
        if nxt < len(state.askers):
            new.ask_index = nxt
            new.to_act = state.askers[nxt]
            return new
        return _play_stands(new, events)
    challengers = (*state.challengers, seat) if challenge else state.challengers
    nxt = state.ask_index + 1
    if nxt < len(state.askers):
        new = state.clone()
        new.ask_index = nxt
        new.to_act = state.askers[nxt]
        new.challengers = challengers
        return new
    if challengers:
        return _resolve(state, challengers, events, late=False)
    if state.rules.challenge_any_time:
        if events is not None:
            events.append(Event("late_round"))
        new = state.clone()
        new.phase = LATE
        new.ask_index = 0
        new.to_act = state.askers[0]
        new.challengers = ()
        new.late_passed = ()
        return new
    new = state.clone()
    new.challengers = ()
    return _play_stands(new, events)


def _play_stands(state: State, events: list[Event] | None) -> State:
    """Nobody challenged: the play stands; an empty hand goes out."""
    player = state.turn_seat
    last = state.pile[-1]
    if events is not None:
        events.append(Event("unchallenged", {"seat": player}))
    allowed = successors(state.rules.rank_rule, last.rank)
    return _next_turn(state, player, allowed, events)


def _resolve(
    state: State, challengers: tuple[int, ...], events: list[Event] | None, *, late: bool
) -> State:
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
    # a true claim: the (first) challenger takes the pile; a lie: the player
    takers = (challengers if rules.challenge_split else challengers[:1]) if truthful else (player,)
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
    if events is not None:
        events.append(
            Event(
                "challenge",
                {
                    "player": player,
                    "challengers": tuple(challengers),
                    "cards": play.cards,
                    "truthful": truthful,
                    "takers": tuple(takers),
                    "shares": tuple(shares),
                },
            )
        )
        for j, taker in enumerate(takers):
            events.append(
                Event(
                    "picked_up",
                    {"seat": taker, "cards": tuple(sorted(got[j]))},
                    frozenset((taker,)),
                )
            )
    new = state.clone()
    new.hands = tuple(hands)
    new.shown = tuple(shown)
    new.pile = ()
    new.pickups = tuple(pickups)
    new.challenges = (*state.challenges, record)
    new.challengers = ()
    if rules.after_challenge == "restart":
        allowed = ALL_RANKS
    else:
        allowed = successors(rules.rank_rule, play.rank)
    return _next_turn(new, player, allowed, events)


def _next_turn(
    state: State, player: int, allowed: tuple[int, ...], events: list[Event] | None
) -> State:
    rules = state.rules
    out = state.out
    shown = state.shown
    if not any(state.hands[player]):
        out = (*out, player)
        shown = _with(shown, player, 0)
        place = len(out)
        if events is not None:
            events.append(Event("out", {"seat": player, "place": place}))
    active = rules.players - len(out)
    termination = ""
    if out and (not rules.play_on_for_places or active <= 1):
        termination = "last_player" if rules.play_on_for_places else "went_out"
    elif rules.max_turns is not None and state.turns >= rules.max_turns:
        termination = "max_turns"
    base = state.clone()
    base.out = out
    base.shown = shown
    base.askers = ()
    base.ask_index = 0
    base.late_passed = ()
    base.challengers = ()
    if termination:
        if events is not None:
            events.append(Event("game_over", {"termination": termination}))
        base.phase = OVER
        base.to_act = -1
        base.termination = termination
        return base
    nxt = _left_active(base, player, out)
    base.phase = PLAY
    base.turn_seat = base.to_act = nxt
    base.allowed = allowed
    return base
