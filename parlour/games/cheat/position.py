"""Build a Cheat position from cards written as people write them (tests, tutorials, puzzles,
bug reports), checked against the table's rules.

Every card of the shoe (``decks`` packs plus ``jokers``) must be somewhere: in a hand, in the
play being built (``selection``) or in the pile — or, with ``rest=seat``, the cards not named go
to that seat.  The pile is a list of plays, bottom first, each ``(seat, cards, rank)`` (the claim
is "as many cards as put down × rank") or ``(seat, cards, rank, count)`` (another count: with
``overplay`` fewer, with ``overclaim`` more).

>>> from parlour.games.cheat import GAME
>>> s = position(hands=["7♣ 9♦", "8♥ 8♠ K♣", "2♦"], pile=[(0, "7♦", 7)], turns=6, rest=2)
>>> s.turn_seat, s.allowed, GAME.outcome(s).scores
(1, (8,), (-2.0, -3.0, -46.0))
>>> [str(a) for a in GAME.legal_actions(s)]
['pick K♣', 'pick 8♥', 'pick 8♠']

A claim awaiting challenges (``phase="window"``): seat 0 opened the game claiming two Aces
with A♣ and a 9 — seat 1 has already challenged (hidden from the others), seat 2 is asked now:

>>> s = position(hands=["5♠", "A♦ A♥", ""], pile=[(0, "A♣ 9♦", 14)], phase="window",
...              challengers=[1], asked=1, rest=2)
>>> s.to_act, [str(a) for a in GAME.legal_actions(s)]
(2, ['challenge', 'pass'])
>>> position(hands=["A♣ A♣"], rest=0, players=2)
Traceback (most recent call last):
...
parlour.core.position.PositionError: 2 × A♣ named, but the shoe (1 pack, 0 jokers) holds 1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parlour.core.cards import NUM_KINDS, card_str, rank_str, shoe
from parlour.core.position import PositionError as PositionError
from parlour.core.position import position_cards, seat_checker
from parlour.games.cheat.apply import TWO_OF_CLUBS, _card_key, askers_for
from parlour.games.cheat.legal import claim_counts, opening_ranks, successors
from parlour.games.cheat.rules import CheatRules
from parlour.games.cheat.state import (
    ALL_RANKS,
    CHOOSE_FIRST,
    LATE,
    PLAY,
    WINDOW,
    ClaimRecord,
    Play,
    State,
)

PHASES = (PLAY, WINDOW, LATE, CHOOSE_FIRST)

#: a pile play as given: (seat, cards, rank) or (seat, cards, rank, count)
PlaySpec = tuple[int, str, int] | tuple[int, str, int, int]


_cards = position_cards


def position(
    rules: CheatRules | None = None,
    *,
    hands: Sequence[str] | Mapping[int, str],
    pile: Sequence[PlaySpec] = (),
    phase: str = PLAY,
    to_play: int | None = None,
    selection: str = "",
    allowed: Sequence[int] | None = None,
    challengers: Sequence[int] = (),
    asked: int = 0,
    late_passed: Sequence[int] = (),
    out: Sequence[int] = (),
    shown: Sequence[int] | None = None,
    turns: int | None = None,
    first_player: int | None = None,
    rest: int | None = None,
    seed: int = 0,
    **options: Any,
) -> State:
    """A Cheat state, validated; :class:`PositionError` names what is impossible.

    - ``rules`` (default ``CheatRules()``) with ``options`` applied (``players=3`` …); the
      number of players defaults to the number of hands given as a list.
    - ``hands``: the cards of each seat (a list, or ``{seat: cards}``; seats not named hold
      nothing unless ``rest`` names them).  ``rest=seat`` gives that seat every card not named
      anywhere; without it the cards named must be the whole shoe.
    - ``pile``: the plays in the pile, bottom first, ``(seat, cards, rank[, count])``.  The
      claims must follow the rank rule (the first one, when it is the game's first play, must
      be an opening rank and hold the 2♣ if its holder opens); counts must be allowed by
      ``overplay``/``overclaim``/``max_cards``.
    - ``phase``: ``"play"`` (``to_play`` picks cards and claims — by default the seat left of
      the top play's, skipping seats out; with no plays made the starter of the rules;
      ``selection`` = the cards it has picked so far; ``allowed`` = the ranks it may claim, by
      default those after the top claim, the opening ranks before any play, or every rank after
      a challenge with ``after_challenge="restart"`` — otherwise, the pile cleared by a
      challenge, it must be given); ``"window"`` (the top play awaits challenges: ``asked``
      seats, in seat order from the player's left, have answered, ``challengers`` those of them
      who challenged — hidden from the others); ``"late"`` (``challenge_any_time``: the open
      late round, ``late_passed`` the seats that let the play stand so far); ``"choose_first"``
      (``dealer_chooses``: the dealer, the last seat, picks the first player before any play).
    - ``out``: seats that went out, in order (their hands empty); only with
      ``play_on_for_places`` does the game go on after that.
    - ``hands`` never include ``selection`` (the cards being picked are out of the hand).
    - ``shown``: hand sizes as everybody counts them (they differ from the true ones only with
      ``overplay``/``overclaim``); default the true sizes.
    - ``turns``: plays made so far (default: the plays in the pile); the claims history holds
      the pile's claims as the last ones; challenges before the position are not recorded.
    - ``first_player``: who made the game's first play (default: the pile's first player when
      the pile holds every play, else the seat to play).

    Cheat is a single deal: the hand number is always 0, the dealer is the last seat (seat 0
    is on its left) and the scores are −(cards held), so they follow from the hands."""
    rules = rules or CheatRules()
    if "players" not in options and not isinstance(hands, Mapping):
        options = {**options, "players": len(hands)}
    if options:
        rules = rules.replace(**options)
    n = rules.players
    rule = rules.rank_rule
    if phase not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")

    seat_ok = seat_checker(n)

    # --- the cards ------------------------------------------------------------------------
    given = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    vectors = [[0] * NUM_KINDS for _ in range(n)]
    named: Counter[int] = Counter()
    for seat, text in given.items():
        seat_ok(seat, "hands")
        for c in _cards(text, f"hand of seat {seat}"):
            vectors[seat][c] += 1
            named[c] += 1
    picked = sorted(_cards(selection, "selection"))
    named.update(picked)
    plays = [_play(rules, i, spec, seat_ok) for i, spec in enumerate(pile)]
    for p in plays:
        named.update(p.cards)
    full: Counter[int] = Counter(shoe(rules.packs, rules.jokers))
    too_many = sorted(c for c in named if named[c] > full[c])
    if too_many:
        c = too_many[0]
        raise PositionError(
            f"{named[c]} × {card_str(c)} named, but the shoe ({rules.packs} pack"
            f"{'s' if rules.packs > 1 else ''}, {rules.jokers} jokers) holds {full[c]}"
        )
    missing = full - named
    if rest is not None:
        seat_ok(rest, "rest")
        for c, k in missing.items():
            vectors[rest][c] += k
    elif missing:
        raise PositionError(
            f"the cards do not add up: the shoe holds {sum(full.values())}, "
            f"{sum(named.values())} are placed ({sum(missing.values())} missing, e.g. "
            f"{card_str(min(missing))}); name them or give them to a seat with rest=…"
        )
    sizes = [sum(v) for v in vectors]

    # --- who is in, how far the game is -----------------------------------------------------
    gone = tuple(seat_ok(s, "out") for s in out)
    if len(set(gone)) != len(gone):
        raise PositionError("out: a seat goes out only once")
    for s in gone:
        if sizes[s]:
            raise PositionError(f"seat {s} went out but holds cards")
    if gone and not rules.play_on_for_places:
        raise PositionError(f"seat {gone[0]} went out: without play_on_for_places the game is over")
    if n - len(gone) < 2:
        raise PositionError("fewer than two players are still in: the game is over")

    made = len(plays) if turns is None else turns
    if not isinstance(made, int) or made < len(plays):
        raise PositionError(f"turns={made!r}, but the pile holds {len(plays)} plays")
    base = made - len(plays)  # plays before the pile's first one
    for i in range(1, len(plays)):
        after = successors(rule, plays[i - 1].rank)
        if plays[i].rank not in after:
            raise PositionError(
                f"pile play {i}: a claim of {rank_str(plays[i].rank)} cannot follow a claim of "
                f"{rank_str(plays[i - 1].rank)} (rank_rule={rule}: "
                f"{', '.join(rank_str(r) for r in after)})"
            )
    two_clubs = rules.starter_rule == "two_of_clubs"
    if plays and base == 0:
        if plays[0].rank not in opening_ranks(rule):
            raise PositionError(
                f"pile play 0 is the game's first play: it claims "
                f"{', '.join(rank_str(r) for r in opening_ranks(rule))}, not "
                f"{rank_str(plays[0].rank)}"
            )
        if two_clubs and TWO_OF_CLUBS not in plays[0].cards:
            raise PositionError("the game's first play holds the 2♣ (its holder opens with it)")

    def ranks_after(k: int) -> tuple[int, ...] | None:
        """The ranks the claim after the pile's first ``k`` plays may name (None: unknown)."""
        if k:
            return successors(rule, plays[k - 1].rank)
        if base == 0:
            return opening_ranks(rule)
        return ALL_RANKS if rules.after_challenge == "restart" else None

    # --- whose decision ---------------------------------------------------------------------
    must = -1
    askers: tuple[int, ...] = ()
    answered = 0
    pending: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()
    if phase in (WINDOW, LATE):
        if not plays:
            raise PositionError(f"phase {phase}: no play in the pile awaits a challenge")
        if picked:
            raise PositionError("a selection is built only in the play phase")
        turn_seat = plays[-1].seat
        if to_play is not None and to_play != turn_seat:
            raise PositionError(f"phase {phase}: the seat judged is the top play's, {turn_seat}")
        if turn_seat in gone:
            raise PositionError(f"seat {turn_seat} is judged: it has not gone out yet")
        if phase == LATE and not rules.challenge_any_time:
            raise PositionError("the late round is played only with challenge_any_time")
        askers = askers_for(n, turn_seat, gone)
        if phase == LATE:
            if challengers or asked:
                raise PositionError("the late round has no pending challengers: use late_passed")
            answered = len(late_passed)
            if tuple(late_passed) != askers[:answered]:
                raise PositionError(
                    f"late_passed: the seats are asked in the order {askers}; "
                    f"got {tuple(late_passed)}"
                )
            passed = askers[:answered]
        else:
            if late_passed:
                raise PositionError("late_passed belongs to the late phase")
            answered = asked
            pending = tuple(seat_ok(s, "challengers") for s in challengers)
            if not isinstance(answered, int) or not set(pending) <= set(askers[:answered]):
                raise PositionError(
                    f"challengers {pending}: only seats that answered already "
                    f"({askers[: max(0, answered)]}) can have challenged"
                )
            pending = tuple(s for s in askers[:answered] if s in pending)
        if not 0 <= answered < len(askers):
            raise PositionError(
                f"{answered} seats answered, but {len(askers)} are asked (seats "
                f"{', '.join(map(str, askers))}, in order): one must be left to answer"
            )
        actor = askers[answered]
        known = ranks_after(len(plays) - 1)
        ranks = tuple(allowed) if allowed is not None else known or ALL_RANKS
        if known is not None and plays[-1].rank not in known:
            raise PositionError(f"the top claim may not name {rank_str(plays[-1].rank)}")
    else:
        if challengers or asked or late_passed:
            raise PositionError("challengers, asked and late_passed belong to the window phases")
        if phase == CHOOSE_FIRST:
            if rules.starter_rule != "dealer_chooses" or made or picked:
                raise PositionError(
                    "the dealer chooses the first player only with first_player=dealer_chooses, "
                    "before any play"
                )
            turn_seat = n - 1
        else:
            turn_seat = _to_play(rules, vectors, picked, plays, gone, made, to_play, seat_ok)
            if turn_seat in gone:
                raise PositionError(f"seat {turn_seat} went out: it does not play any more")
            if not sizes[turn_seat] and not picked:
                raise PositionError(f"seat {turn_seat} is to play but holds no card")
            if made == 0 and two_clubs:
                if not vectors[turn_seat][TWO_OF_CLUBS] and TWO_OF_CLUBS not in picked:
                    raise PositionError(
                        f"the holder of 2♣ opens with it; seat {turn_seat} holds none"
                    )
                must = TWO_OF_CLUBS
            if rules.max_cards is not None and len(picked) > rules.max_cards:
                raise PositionError(f"selection: a play is at most {rules.max_cards} cards")
        actor = turn_seat
        known = ranks_after(len(plays))
        if allowed is not None:
            ranks = tuple(sorted(set(allowed)))
            if known is not None and set(ranks) != set(known):
                raise PositionError(
                    f"allowed {ranks}: after this pile the claim names "
                    f"{', '.join(rank_str(r) for r in known)}"
                )
        elif known is not None:
            ranks = known
        else:
            raise PositionError(
                "the pile is empty after plays were made (a challenge cleared it): give the "
                "ranks the next claim may name with allowed=…"
            )
        if not ranks or any(r not in ALL_RANKS for r in ranks):
            raise PositionError(f"allowed: ranks are 2..14 (A = 14), not {tuple(ranks)!r}")
    if picked and phase != PLAY:
        raise PositionError("a selection is built only in the play phase")
    for s in range(n):
        exempt = s == turn_seat and (phase in (WINDOW, LATE) or picked)
        if s not in gone and not sizes[s] and not exempt:
            raise PositionError(
                f"seat {s} holds no card but has not gone out (a seat goes out when its last "
                "play stands; list it in out=…, or give it cards)"
            )

    counted = list(sizes)
    if picked:
        counted[turn_seat] += len(picked)
    if shown is not None:
        if len(shown) != n or any(not isinstance(x, int) or x < 0 for x in shown):
            raise PositionError(f"shown: {n} hand sizes, each 0 or more; got {tuple(shown)!r}")
        if not (rules.overplay or rules.overclaim) and list(shown) != counted:
            raise PositionError(
                f"shown {tuple(shown)} differs from the true sizes {tuple(counted)}: only with "
                "overplay or overclaim are the sizes hidden"
            )
        if any(shown[s] for s in gone):
            raise PositionError("seats that went out are shown with 0 cards")
        counted = list(shown)

    if first_player is not None:
        first = seat_ok(first_player, "first_player")
    elif plays and base == 0:
        first = plays[0].seat
    else:
        first = turn_seat
    claims = tuple(ClaimRecord(base + i + 1, p.seat, p.count, p.rank) for i, p in enumerate(plays))
    state = State(
        rules=rules,
        seed=seed,
        phase=phase,
        hands=tuple(tuple(v) for v in vectors),
        shown=tuple(counted),
        pile=tuple(plays),
        turn_seat=turn_seat,
        to_act=actor,
        selection=tuple(picked),
        allowed=ranks,
        must_include=must,
        askers=askers,
        ask_index=answered,
        challengers=pending,
        late_passed=passed,
        out=gone,
        turns=made,
        first_player=first,
        claims=claims,
        challenges=(),
        pickups=tuple(() for _ in range(n)),
    )
    return state


def _play(rules: CheatRules, i: int, spec: object, seat_ok: Callable[[object, str], int]) -> Play:
    """One pile play from ``(seat, cards, rank[, count])``, checked on its own."""
    if not isinstance(spec, tuple) or len(spec) not in (3, 4):
        raise PositionError(
            f"pile play {i}: give (seat, cards, rank) or (seat, cards, rank, count), not {spec!r}"
        )
    seat = seat_ok(spec[0], f"pile play {i}")
    cards = tuple(sorted(_cards(spec[1], f"pile play {i}")))
    rank = spec[2]
    count = spec[3] if len(spec) == 4 else len(cards)
    if not cards:
        raise PositionError(f"pile play {i}: a play puts down at least one card")
    if rank not in ALL_RANKS:
        raise PositionError(f"pile play {i}: rank {rank!r} is not 2..14 (A = 14)")
    if rules.max_cards is not None and len(cards) > rules.max_cards:
        raise PositionError(
            f"pile play {i}: {len(cards)} cards, but a play is at most {rules.max_cards}"
        )
    if count not in claim_counts(rules, len(cards), 10**6):
        raise PositionError(
            f"pile play {i}: a claim of {count!r} for {len(cards)} cards put down is not allowed "
            "(the count is the cards put down; with overplay fewer, with overclaim more)"
        )
    return Play(seat, cards, count, rank)


def _to_play(
    rules: CheatRules,
    vectors: list[list[int]],
    picked: list[int],
    plays: list[Play],
    gone: tuple[int, ...],
    made: int,
    to_play: int | None,
    seat_ok: Callable[[object, str], int],
) -> int:
    """The seat to play: given (checked against the top play) or the one the rules name."""
    n = rules.players
    if plays:
        nxt = next(s for s in ((plays[-1].seat + k) % n for k in range(1, n + 1)) if s not in gone)
        if to_play is not None and to_play != nxt:
            raise PositionError(
                f"to_play={to_play}: after seat {plays[-1].seat}'s play, seat {nxt} plays"
            )
        return nxt
    if to_play is not None:
        return seat_ok(to_play, "to_play")
    if made == 0 and rules.starter_rule == "two_of_clubs":
        for s in range(n):
            if vectors[s][TWO_OF_CLUBS]:
                return s
        return 0
    if made == 0 and rules.starter_rule == "highest_card":
        held = [(c, s) for s in range(n) for c in range(NUM_KINDS) if vectors[s][c]]
        return max(held, key=lambda cs: (_card_key(cs[0]), -cs[1]))[1] if held else 0
    return 0
