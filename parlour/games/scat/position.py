"""Build a Scat position from cards written as people write them (tests, tutorials, puzzles,
bug reports), checked against the table's rules.

Every card of the pack(s) is somewhere: in a hand, in the discard pile (``pile``, bottom → top,
the last card is the one that may be taken) or in the stock (``stock``, top first: the order the
cards will be drawn; every card not named goes under it, in card order).  ``stock_size`` sets the
stock's length instead: the cards not named beyond it go under the named pile.

>>> from parlour.games.scat import GAME
>>> s = position(hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "A♠ 4♣ 6♦"], pile="5♥", stock="A♥")
>>> s.to_act, s.dealer, len(s.stock), [str(a) for a in GAME.legal_actions(s)]
(0, 2, 42, ['draw from the stock', 'take the discard', 'knock'])
>>> s = GAME.apply(s, GAME.legal_actions(s)[0])[0]
>>> [str(a) for a in GAME.legal_actions(s)][:2]
['discard 2♣', 'discard 2♣ and declare 31']

A knock pending: seat 1 knocked, seat 2 has its last turn, lives 3 / 1 / 0 (on the county):

>>> s = position(hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "A♠ 4♣ 6♦"], pile="5♥", to_act=2,
...              knocker=1, lives=[3, 1, 0], hand_number=4, dealer=0)
>>> GAME.observe(s, 0).status
('3 pennies', '1 penny', 'on the county')

A stock about to run out: two cards left, the rest of the pack in the discard pile:

>>> s = position(hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "A♠ 4♣ 6♦"], pile="5♥", stock_size=2)
>>> len(s.stock), len(s.pile), card_str(s.pile[-1])
(2, 41, '5♥')
>>> position(hands=["K♥ Q♥ 2♣", "K♥ 8♦ 3♠"])
Traceback (most recent call last):
...
parlour.core.position.PositionError: 2 × K♥ named, but 1 pack holds 1
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.cards import card_str, cards_str, shoe
from parlour.core.position import PositionError as PositionError
from parlour.core.position import position_cards, seat_checker
from parlour.core.rng import derive_seed
from parlour.games.scat.parts.values import is_declarable
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import DEALT31, DISCARD, DRAW, THROW_DOWN, ScatState

PHASES = (DRAW, DISCARD, DEALT31, THROW_DOWN)


_cards = position_cards


def position(
    rules: ScatRules | None = None,
    *,
    hands: Sequence[str] | Mapping[int, str],
    pile: str = "",
    stock: str = "",
    stock_size: int | None = None,
    to_act: int | None = None,
    dealer: int | None = None,
    phase: str = DRAW,
    taken: str = "",
    knocker: int | None = None,
    turn: int | None = None,
    lives: Sequence[int] | None = None,
    out: Sequence[int] = (),
    hand_number: int = 0,
    known: Mapping[int, str] | None = None,
    undeclared: Mapping[int, str] | None = None,
    seed: int = 0,
    **options: Any,
) -> ScatState:
    """A Scat state, validated; :class:`PositionError` names what is impossible.

    - ``rules`` (default ``ScatRules()``) with ``options`` applied; ``players`` defaults to the
      number of hands given as a list.
    - ``hands``: three cards for every seat still in (four for the seat to act in the
      ``discard`` phase), none for a seat that is ``out``.
    - ``pile``: the discard pile, bottom → top; ``stock``: its top cards in drawing order — the
      cards not named anywhere lie under them, in card order.  ``stock_size``: the stock holds
      exactly this many cards (the named ``stock`` on top); the cards not named beyond those lie
      at the bottom of the discard pile, under the named ``pile``, in an order shuffled from
      ``seed`` (refused when the named cards leave too few, or more than the named stock asks).
    - ``to_act`` (default: the dealer's left) and ``dealer`` (default: the seat before
      ``to_act``), both seats still in.
    - ``phase``: ``draw`` (start of a turn), ``discard`` (four cards held; ``taken`` = the card
      just taken from the pile, which may not be discarded again), ``dealt31`` (someone was
      dealt 31: the first holder from the dealer's left shows it), ``throw_down`` (option
      ``throw_down``: the first player decides blind).
    - ``knocker``: a seat that has knocked — the others take their last turns until the one on
      its right has discarded.
    - ``turn``: turns begun in this hand (draws and knocks; 0 = the first player has not moved);
      default 0 in the draw phase without a knock, else 1.  It decides the hammer (turn 0) and
      ``knock_first_round=false`` (no knock before every player has had a turn).
    - ``lives``: per seat, lives left (points with ``showdown=highest_scores_point``); default
      everybody's starting lives (0 points).  ``out``: seats eliminated in earlier hands (lives
      0); ``hand_number``: hands finished before this one (needed ≥ 1 for anybody to be out).
    - ``known``: cards everybody knows to be in a hand (taken from the pile); the ``taken``
      card is added to the actor's.
    - ``undeclared``: a seat's undeclared 31 (the three cards; it counts 30 and can never be
      declared).  By default every three-card 31 held after the first turn is taken as
      undeclared — a 31 is declared the moment it is made, so one still held was not.

    The hand's history and the previous hand's result start empty."""
    rules = rules or ScatRules()
    if "players" not in options and not isinstance(hands, Mapping):
        options = {**options, "players": len(hands)}
    if options:
        rules = rules.replace(**options)
    n = rules.players
    if phase not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")

    seat_ok = seat_checker(n)

    # --- who is in --------------------------------------------------------------------------
    gone = {seat_ok(s, "out") for s in out}
    if not isinstance(hand_number, int) or hand_number < 0:
        raise PositionError(f"hand_number: 0 or more, not {hand_number!r}")
    if gone and hand_number == 0:
        raise PositionError("nobody is out before the first hand ends: give hand_number ≥ 1")
    if gone and rules.plays_for_points:
        raise PositionError("playing for points (French Canadian) nobody goes out")
    active = [s for s in range(n) if s not in gone]
    if len(active) < 2:
        raise PositionError("fewer than two players are still in: the match is over")

    def next_in(seat: int) -> int:
        return next(s for s in ((seat + k) % n for k in range(1, n + 1)) if s not in gone)

    def prev_in(seat: int) -> int:
        return next(s for s in ((seat - k) % n for k in range(1, n + 1)) if s not in gone)

    if dealer is not None:
        dealer = seat_ok(dealer, "dealer")
    if to_act is not None:
        to_act = seat_ok(to_act, "to_act")
    if dealer is None:
        dealer = prev_in(to_act) if to_act is not None else prev_in(0)
    if dealer in gone:
        raise PositionError(f"dealer: seat {dealer} is out; the deal passes to a seat still in")
    first = next_in(dealer)

    # --- the cards --------------------------------------------------------------------------
    given = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    held: list[tuple[int, ...]] = [() for _ in range(n)]
    for seat, text in given.items():
        seat_ok(seat, "hands")
        held[seat] = tuple(sorted(_cards(text, f"hand of seat {seat}")))
    discards = _cards(pile, "pile")
    on_top = _cards(stock, "stock")
    named = Counter(c for h in held for c in h) + Counter(discards) + Counter(on_top)
    full = Counter(shoe(rules.decks))
    too_many = sorted(c for c in named if named[c] > full[c])
    if too_many:
        c = too_many[0]
        raise PositionError(
            f"{named[c]} × {card_str(c)} named, but {rules.decks} pack"
            f"{'s hold' if rules.decks > 1 else ' holds'} {full[c]}"
        )
    rest = sorted((full - named).elements())
    if stock_size is not None:
        if isinstance(stock_size, bool) or not isinstance(stock_size, int):
            raise PositionError(f"stock_size: a whole number of cards, not {stock_size!r}")
        free = len(rest) + len(on_top)
        if not len(on_top) <= stock_size <= free:
            raise PositionError(
                f"stock_size {stock_size}: the packs hold {sum(full.values())} cards and "
                f"{sum(named.values()) - len(on_top)} are in hands or the pile, which leaves "
                f"{free} for the stock"
                + (f", {len(on_top)} of them named on top" if on_top else "")
                + f": give a stock_size from {len(on_top)} to {free}"
            )
        under = sorted(rest)
        random.Random(derive_seed(seed, "position", hand_number)).shuffle(under)
        keep = stock_size - len(on_top)
        rest = sorted(under[:keep])
        discards = under[keep:] + discards
    # the stock is kept top = last: the named top cards last, in reverse
    stock_cards = tuple(rest[::-1] + on_top[::-1])

    # --- whose decision ---------------------------------------------------------------------
    knock = -1
    if knocker is not None:
        knock = seat_ok(knocker, "knocker")
        if knock in gone:
            raise PositionError(f"knocker: seat {knock} is out")
        if phase in (DEALT31, THROW_DOWN):
            raise PositionError(f"nobody can have knocked in the {phase} phase")
    if phase == DEALT31:
        holders = [s for s in _order(first, n, gone) if is_declarable(held[s], rules)]
        if not holders:
            raise PositionError("phase dealt31: nobody holds a 31")
        actor = holders[0]
        if to_act is not None and to_act != actor:
            raise PositionError(
                f"phase dealt31: the first holder from the dealer's left, seat {actor}, shows it"
            )
    elif phase == THROW_DOWN:
        if not rules.throw_down:
            raise PositionError("phase throw_down needs the option throw_down")
        actor = first
        if to_act is not None and to_act != actor:
            raise PositionError(f"phase throw_down: the first player, seat {actor}, decides")
    else:
        actor = to_act if to_act is not None else first
        if actor in gone:
            raise PositionError(f"to_act: seat {actor} is out")
        if actor == knock:
            raise PositionError(
                f"seat {knock} knocked: when the turn comes back to it, everyone shows"
            )
    default_turn = 1 if (phase == DISCARD or knock >= 0) else 0
    turns = default_turn if turn is None else turn
    if not isinstance(turns, int) or turns < default_turn:
        raise PositionError(
            f"turn={turns!r}: a discard phase or a knock comes after at least one turn"
        )
    if phase in (DEALT31, THROW_DOWN) and turns:
        raise PositionError(f"phase {phase} is before the first turn: turn is 0")
    if phase == DRAW and turns == 0 and actor != first:
        raise PositionError(f"turn 0: the first player, seat {first} (dealer's left), moves")

    for s in range(n):
        want = 0 if s in gone else (4 if phase == DISCARD and s == actor else 3)
        if len(held[s]) != want:
            what = "is out" if s in gone else f"{'holds four cards' if want == 4 else 'is in'}"
            raise PositionError(
                f"seat {s} {what}: it holds {want} cards, not {len(held[s])} "
                f"({cards_str(held[s]) or 'none'})"
            )
    if phase != DEALT31 and turns == 0:
        dealt = [s for s in active if is_declarable(held[s], rules)]
        if dealt:
            raise PositionError(
                f"seat {dealt[0]} was dealt 31 ({cards_str(held[dealt[0]])}): it is shown at "
                "once — use phase='dealt31', or turn ≥ 1"
            )

    took = -1
    if taken:
        cards = _cards(taken, "taken")
        if phase != DISCARD or len(cards) != 1:
            raise PositionError("taken: the one card taken from the pile this turn, discard phase")
        took = cards[0]
        if took not in held[actor]:
            raise PositionError(f"taken: seat {actor} does not hold {card_str(took)}")

    shown: list[tuple[int, ...]] = [() for _ in range(n)]
    for seat, text in (known or {}).items():
        seat_ok(seat, "known")
        cards = sorted(_cards(text, f"known cards of seat {seat}"))
        if Counter(cards) - Counter(held[seat]):
            raise PositionError(f"known: seat {seat} does not hold {cards_str(cards)}")
        shown[seat] = tuple(cards)
    if took >= 0 and took not in shown[actor]:
        shown[actor] = tuple(sorted((*shown[actor], took)))

    silent: list[tuple[int, ...]] = [() for _ in range(n)]
    if undeclared is not None:
        for seat, text in undeclared.items():
            seat_ok(seat, "undeclared")
            three = tuple(sorted(_cards(text, f"undeclared 31 of seat {seat}")))
            if not is_declarable(three, rules):
                raise PositionError(f"undeclared: {cards_str(three)} is not a 31")
            if Counter(three) - Counter(held[seat]):
                raise PositionError(f"undeclared: seat {seat} does not hold {cards_str(three)}")
            silent[seat] = three
    elif turns > 0:
        for s in active:
            if len(held[s]) == 3 and is_declarable(held[s], rules):
                silent[s] = held[s]

    # --- lives or points --------------------------------------------------------------------
    start = 0 if rules.plays_for_points else rules.starting_lives
    standing = list(lives) if lives is not None else [0 if s in gone else start for s in range(n)]
    if len(standing) != n or any(not isinstance(x, int) or isinstance(x, bool) for x in standing):
        raise PositionError(f"lives: {n} whole numbers, one a seat; got {tuple(standing)!r}")
    if rules.plays_for_points:
        if any(x < 0 for x in standing):
            raise PositionError("points are 0 or more")
        top = max(standing)
        if top >= rules.target_points and standing.count(top) == 1:
            raise PositionError(
                f"seat {standing.index(top)} has {top} points ≥ target_points: the match is over"
            )
    else:
        floor = 0 if rules.on_the_county else 1
        for s in range(n):
            if s in gone and standing[s] != 0:
                raise PositionError(f"seat {s} is out: it has no lives left, not {standing[s]}")
            if s not in gone and not floor <= standing[s] <= start:
                raise PositionError(
                    f"seat {s}: lives {standing[s]} out of {floor}..{start} "
                    f"({'0 = on the county' if rules.on_the_county else 'no county'})"
                )
    if rules.max_hands is not None and hand_number >= rules.max_hands:
        raise PositionError(f"hand {hand_number + 1} is beyond max_hands={rules.max_hands}")

    return ScatState(
        rules=rules,
        seed=seed,
        players=n,
        hand_no=hand_number,
        dealer=dealer,
        lives=tuple(standing),
        out=tuple(s in gone for s in range(n)),
        out_order=tuple(max(0, hand_number - 1) if s in gone else -1 for s in range(n)),
        phase=phase,
        to_act=actor,
        hands=tuple(held),
        stock=stock_cards,
        pile=tuple(discards),
        taken=took,
        knocker=knock,
        turn_no=turns,
        known=tuple(shown),
        silent=tuple(silent),
        history=(),
        last=None,
        termination="",
    )


def _order(first: int, n: int, gone: set[int]) -> list[int]:
    return [s for s in ((first + k) % n for k in range(n)) if s not in gone]
