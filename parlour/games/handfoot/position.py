"""Build a Samba Hand and Foot position from cards written as people write them (tests, bug
reports, puzzles, research), checked against the rules of seed ``004_bae80ddcdedd4514.txt``.

:func:`position` returns an engine :class:`~parlour.games.handfoot.state.State` ready for
``GAME.legal_actions`` / ``GAME.apply``; it refuses a position the game could never reach with a
:class:`PositionError` naming the problem (an illegal meld, more cards of a kind than the packs
hold, a stock of the wrong length, a foot picked up before its side went down …).

>>> from parlour.games.handfoot import GAME
>>> s = position(hands={0: "9♥ 9♠ 5♣"}, pile="4♦ 7♣ 8♠ 10♦ 6♥ J♣ K♠ 9♦", to_act=0)
>>> [GAME.action_text(s, a) for a in GAME.legal_actions(s)]
['draw', 'take the pile (9♦ with 9♥ 9♠)']
>>> position(melds={0: ["9♥ 9♠ 2♣ 2♦"]})
Traceback (most recent call last):
...
parlour.core.position.PositionError: side 0, meld 0 (9♥ 9♠ 2♣ 2♦): a book needs more natural cards than wild cards
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from parlour.core.cards import NUM_KINDS, Card, card_str, cards_str, shoe
from parlour.core.position import Cards, position_cards
from parlour.core.position import PositionError as PositionError
from parlour.core.rng import derive_seed
from parlour.games.handfoot.parts.melds import (
    MIN_MELD,
    Meld,
    cards_value,
    classify,
    is_black_three,
    is_red_three,
    meld_problem,
)
from parlour.games.handfoot.rules import HandFootRules
from parlour.games.handfoot.state import (
    PHASE_DRAW,
    PHASE_PLAY,
    State,
    pairs_for_round,
    playing_order,
)

#: the points of a turn ``position`` can start from
PHASES = ("draw", "drawn", "melding", "pile_taken", "pile_returned", "melds_returned")


_cards = position_cards


def meld_of(cards: Cards, *, where: str = "meld") -> Meld:
    """The table meld these cards form (a book, a run of 8–A in one suit, or a book of wilds),
    checked by the meld rules; :class:`PositionError` naming the problem otherwise.

    >>> str(meld_of("A♣ A♦ A♥ A♠ A♠ A♠ Jk"))
    'book of As [A♣ A♦ A♥ A♠ A♠ A♠ Jk]'
    >>> meld_of("7♥ 7♠ 2♣")
    Traceback (most recent call last):
    ...
    parlour.core.position.PositionError: meld (7♥ 7♠ 2♣): wild cards may never be played in the book of 7s
    """
    cs = _cards(cards, where)
    label = f"{where} ({cards_str(cs)})"
    if len(cs) < MIN_MELD:
        raise PositionError(f"{label}: a meld holds at least {MIN_MELD} cards")
    for c in cs:
        if is_red_three(c):
            raise PositionError(f"{label}: red 3s are laid out beside the melds, never in one")
        if is_black_three(c):
            raise PositionError(f"{label}: black 3s are never melded")
    kk = classify(cs)
    if kk is None:
        raise PositionError(
            f"{label}: not a meld — a book is one rank 4–A (with fewer wilds than naturals), a "
            "samba run is consecutive cards 8–A of one suit, a book of wilds is 2s and jokers"
        )
    problem = meld_problem(kk[0], kk[1], cs)
    if problem is not None:
        raise PositionError(f"{label}: {problem}")
    return Meld(kk[0], kk[1], tuple(sorted(cs)))


def _seats(values: Iterable[int], what: str, players: int) -> set[int]:
    out = set()
    for s in values:
        if not isinstance(s, int) or not 0 <= s < players:
            raise PositionError(f"{what}: {s!r} is not a seat (0–{players - 1})")
        out.add(s)
    return out


def position(
    rules: HandFootRules | None = None,
    *,
    hands: Mapping[int, Cards] | None = None,
    feet: Mapping[int, Cards] | None = None,
    foot_taken: Iterable[int] | None = None,
    down: Iterable[int] = (),
    melds: Mapping[int, Sequence[Cards]] | None = None,
    red_threes: Mapping[int, Cards] | None = None,
    pile: Cards = "",
    stock: Cards = "",
    stock_size: int | None = None,
    known: Mapping[int, Cards] | None = None,
    round: int = 0,
    first: int | None = None,
    to_act: int | None = None,
    phase: str = "draw",
    turn_melds: int = 0,
    turn_value: int | None = None,
    taken_top: str | Card | None = None,
    pending: Cards = "",
    scores: Sequence[int] | None = None,
    cuts: Sequence[int] | None = None,
    seed: int = 0,
    **options: Any,
) -> State:
    """A Hand and Foot state with the cards and turn given, checked against the rules.

    Cards are text (``"9♥ 9♠ Jk"``, ``"9h 9s jk"``) or card numbers.  Every card of the packs
    that is not placed lies in a foot not given or in the stock, so cards always add up.

    * ``rules`` / ``**options``: the table's rules (default :class:`HandFootRules`) and option
      overrides (``decks=4``, ``rotate_partners=True`` …).
    * ``round``: the round (0-based; its opening minimum applies).  Partnerships are those of
      the round (seats 0+2 / 1+3, or rotating with ``rotate_partners``); side 0 is the
      partnership holding seat 0.
    * ``first``: the round's first player (Hand and Foot has no dealer — each player deals their
      own stacks; the first player found by the cut, then passing left, plays the dealer's part);
      play alternates between the partnerships from there.  Default: ``to_act`` (or seat 0).
    * ``to_act``: the seat whose turn it is (default: ``first``).
    * ``hands``: each seat's hand (unlisted hands are empty).  Red 3s never stay in a hand.
    * ``feet``: the foot (``stack_size`` cards, face down) of a seat that has not picked it up;
      a seat neither listed here nor in ``foot_taken`` gets ``stack_size`` cards at random
      (from ``seed``) of those not placed.
    * ``foot_taken``: seats that picked up their foot (default: the seats in ``down``).  A foot
      is picked up after the discard of the turn its player met the meld requirement, so every
      seat in ``foot_taken`` is in ``down`` and every seat in ``down`` except the one acting is
      in ``foot_taken``.
    * ``down``: seats that met the meld requirement this round.
    * ``melds``: each side's melds, in table order (index 0 first); finished books are melds of
      7 cards.  Each is checked by the meld rules, and a side holds at most one unfinished meld
      of a rank / of a suit's run / of wilds.
    * ``red_threes``: red 3s laid out by each side.
    * ``pile``: the discard pile, bottom first (the last card is the top).  No red 3s.
    * ``stock``: the top of the stock, top first (drawn first); the other cards not placed are
      below in a seeded random order.  ``stock_size``: the stock's length — the cards must then
      add up to exactly that many (place the others in hands, melds or the pile).
    * ``known``: cards publicly known to be in a seat's hand (taken with the pile, or melds taken
      back); must be in that hand.
    * ``phase``: where the turn of ``to_act`` stands — ``"draw"`` (before drawing),
      ``"drawn"`` (drawn, nothing melded yet), ``"melding"`` (melds made this turn: the last
      ``turn_melds`` melds of the side were started this turn, ``turn_value`` points melded
      toward the minimum, default the points of those melds), ``"pile_taken"`` (the pile was
      taken this turn: ``taken_top`` is the card that was on top, now in one of the side's
      melds, and ``pending`` the ``pile_take − 1`` cards joining the hand after the discard;
      ``turn_melds`` / ``turn_value`` as for ``melding``), ``"pile_returned"`` (a pile taken
      back this turn: the player must draw), ``"melds_returned"`` (melds taken back this turn:
      the player must discard).  Until the acting seat meets the requirement its melds this
      turn are provisional, and they must total less than the round's minimum.
    * ``scores``: totals before this round per scoring unit (2 partnerships, or 4 seats with
      ``rotate_partners``).  ``cuts``: cards each seat grabbed in the cut (exactly
      ``2 × stack_size`` scores ``exact_cut_bonus``; default: nobody cut exactly).
    * ``seed``: the match seed (later rounds are dealt from it) and the random feet and stock.

    >>> s = position(
    ...     hands={0: "K♥ K♠ 4♣ 5♦", 1: "6♣ 6♦"}, down=[0], melds={0: ["K♣ K♦ K♥ K♠ K♠ K♠ 2♦"]},
    ...     to_act=0, phase="drawn")
    >>> s.melds[0][0].is_dirty, s.foot_taken, len(s.feet[1])
    (True, [True, False, False, False], 15)
    """
    rules = rules or HandFootRules()
    if options:
        rules = rules.replace(**options)
    n = rules.players
    if phase not in PHASES:
        raise PositionError(f"phase {phase!r}: one of {', '.join(PHASES)}")
    rounds = len(rules.opening_minimums)
    if not isinstance(round, int) or not 0 <= round < rules.rounds:
        raise PositionError(
            f"round {round!r}: the match has rounds 0–{rules.rounds - 1} "
            f"({rounds} opening minimums"
            + (f", max_hands {rules.max_hands})" if rules.max_hands else ")")
        )
    if to_act is None:
        to_act = first if first is not None else 0
    if first is None:
        first = to_act
    (to_act_seat,) = _seats([to_act], "to_act", n)
    (first_seat,) = _seats([first], "first", n)

    s = State(rules=rules, seed=seed)
    s.round = round
    s.hand_seed = derive_seed(seed, "deal", round)
    pairs = pairs_for_round(rules, round)
    s.first = first_seat
    s.order = playing_order(pairs, first_seat)
    s.side_of = [0 if seat in pairs[0] else 1 for seat in range(n)]
    side = s.side_of[to_act_seat]
    placed: list[tuple[str, list[Card]]] = []

    # --- hands, known cards ---------------------------------------------------------------
    s.hands = [[0] * NUM_KINDS for _ in range(n)]
    for seat, text in (hands or {}).items():
        (seat,) = _seats([seat], "hands", n)
        cs = _cards(text, f"hand of seat {seat}")
        for c in cs:
            if is_red_three(c):
                raise PositionError(
                    f"hand of seat {seat}: {card_str(c)} — red 3s go to the side's board at once "
                    "(put them in red_threes)"
                )
            s.hands[seat][c] += 1
        placed.append((f"hand of seat {seat}", cs))
    s.known = [[0] * NUM_KINDS for _ in range(n)]
    for seat, text in (known or {}).items():
        (seat,) = _seats([seat], "known", n)
        cs = _cards(text, f"known cards of seat {seat}")
        for c in cs:
            s.known[seat][c] += 1
        for c, k in enumerate(s.known[seat]):
            if k > s.hands[seat][c]:
                raise PositionError(
                    f"known cards of seat {seat}: {card_str(c)} ×{k} is not in that hand"
                )

    # --- melds and red 3s ------------------------------------------------------------------
    s.melds = [[], []]
    for sd, texts in (melds or {}).items():
        if sd not in (0, 1):
            raise PositionError(f"melds: {sd!r} is not a side (0 holds seat 0, 1 the other)")
        if isinstance(texts, str):
            raise PositionError(f"melds of side {sd}: give a list of melds, e.g. ['9♥ 9♠ 9♦']")
        unfinished: dict[tuple[str, int], int] = {}
        for i, text in enumerate(texts):
            m = meld_of(text, where=f"side {sd}, meld {i}")
            if not m.complete:
                key = (m.kind, m.key)
                if key in unfinished:
                    raise PositionError(
                        f"side {sd}, meld {i} ({cards_str(m.cards)}): the side already has an "
                        f"unfinished {m.label()} (meld {unfinished[key]}); a side holds one "
                        "unfinished meld of each rank, run and wilds"
                    )
                unfinished[key] = i
            s.melds[sd].append(m)
            placed.append((f"meld {i} of side {sd}", list(m.cards)))
    s.red_threes = [[], []]
    for sd, text in (red_threes or {}).items():
        if sd not in (0, 1):
            raise PositionError(f"red_threes: {sd!r} is not a side (0 or 1)")
        cs = _cards(text, f"red 3s of side {sd}")
        bad = [c for c in cs if not is_red_three(c)]
        if bad:
            raise PositionError(f"red 3s of side {sd}: {card_str(bad[0])} is not a red 3")
        s.red_threes[sd] = cs
        placed.append((f"red 3s of side {sd}", cs))

    # --- pile, turn --------------------------------------------------------------------------
    s.pile = _cards(pile, "pile")
    for c in s.pile:
        if is_red_three(c):
            raise PositionError(f"pile: {card_str(c)} — red 3s are never discarded")
    placed.append(("pile", s.pile))
    s.pending = _cards(pending, "pending")
    top = _cards([taken_top] if isinstance(taken_top, int) else taken_top, "taken_top")
    if phase == "pile_taken":
        need = rules.pile_take - 1
        if len(top) != 1 or len(s.pending) != need:
            raise PositionError(
                f"phase 'pile_taken' needs taken_top (the card that was on top of the pile, now "
                f"in a meld) and pending (the {need} cards below it, joining the hand after the "
                f"discard); got {len(top)} and {len(s.pending)}"
            )
        for c in s.pending:
            if is_red_three(c):
                raise PositionError(f"pending: {card_str(c)} — red 3s are never discarded")
        placed.append(("pending pile cards", s.pending))
    elif top or s.pending:
        raise PositionError("taken_top and pending belong to phase 'pile_taken'")

    # --- card counts --------------------------------------------------------------------------
    pack = Counter(shoe(rules.decks, rules.decks * rules.jokers_per_deck))
    given_feet: dict[int, list[Card]] = {}
    for seat, text in (feet or {}).items():
        (seat,) = _seats([seat], "feet", n)
        cs = _cards(text, f"foot of seat {seat}")
        if len(cs) != rules.stack_size:
            raise PositionError(
                f"foot of seat {seat}: a foot holds {rules.stack_size} cards "
                f"(stack_size), not {len(cs)}"
            )
        given_feet[seat] = cs
        placed.append((f"foot of seat {seat}", cs))
    top_of_stock = _cards(stock, "stock")
    placed.append(("stock", top_of_stock))
    used: Counter[Card] = Counter()
    for _, cs in placed:
        used.update(cs)
    for c in sorted(used):
        if used[c] > pack[c]:
            where = ", ".join(f"{label} {cs.count(c)}" for label, cs in placed if cs.count(c))
            raise PositionError(
                f"{used[c]} × {card_str(c)} are placed ({where}) but {rules.decks} decks with "
                f"{rules.jokers_per_deck} jokers each hold only {pack[c]}"
            )

    # --- down, feet, opened -----------------------------------------------------------------
    down_seats = _seats(down, "down", n)
    taken = _seats(foot_taken, "foot_taken", n) if foot_taken is not None else set(down_seats)
    for seat in sorted(taken - down_seats):
        raise PositionError(
            f"seat {seat} picked up its foot without meeting the meld requirement: a foot is "
            "picked up after the turn its player met it (list the seat in down)"
        )
    acting_may_hold_foot = phase not in ("draw", "pile_returned")
    for seat in sorted(down_seats - taken):
        if seat != to_act_seat or not acting_may_hold_foot:
            raise PositionError(
                f"seat {seat} met the meld requirement in an earlier turn, so it picked up its foot "
                "after that turn's discard (list it in foot_taken); only the player to act who "
                "met it this turn, before discarding, still has a foot"
            )
    for seat in sorted(given_feet):
        if seat in taken:
            raise PositionError(f"foot of seat {seat}: that seat has picked up its foot")
    for seat in range(n):
        if seat in taken and not any(s.hands[seat]) and not (seat == to_act_seat and s.pending):
            raise PositionError(
                f"seat {seat} has picked up its foot and holds no card: it went out and the round "
                "is over"
            )
    s.down = [seat in down_seats for seat in range(n)]
    s.foot_taken = [seat in taken for seat in range(n)]
    s.opened = [any(s.down[x] for x in range(n) if s.side_of[x] == sd) for sd in (0, 1)]

    # --- the turn -------------------------------------------------------------------------
    acting_down = to_act_seat in down_seats
    if acting_down and phase in ("pile_returned", "melds_returned"):
        raise PositionError(
            f"phase {phase!r}: only melds that miss the requirement are taken back, but seat "
            f"{to_act_seat} has met it (it is in down)"
        )
    s.to_act = to_act_seat
    s.phase = PHASE_DRAW if phase in ("draw", "pile_returned") else PHASE_PLAY
    s.pile_refused = phase == "pile_returned"
    s.melds_refused = phase == "melds_returned"
    if phase not in ("melding", "pile_taken") and (turn_melds or turn_value):
        raise PositionError("turn_melds and turn_value belong to phases melding and pile_taken")
    side_melds = s.melds[side]
    if not 0 <= turn_melds <= len(side_melds):
        raise PositionError(
            f"turn_melds {turn_melds}: side {side} (of seat {to_act_seat}) has "
            f"{len(side_melds)} melds"
        )
    s.turn_start_melds = len(side_melds) - turn_melds
    this_turn = side_melds[s.turn_start_melds :]
    if turn_value is None:
        turn_value = 0 if acting_down else sum(cards_value(m.cards) for m in this_turn)
    s.turn_value = turn_value
    s.took_pile = phase == "pile_taken"
    s.taken_top = top[0] if top else -1
    if s.took_pile:
        t = s.taken_top
        if is_black_three(t) or is_red_three(t):
            raise PositionError(f"taken_top {card_str(t)}: a pile with a 3 on top is never taken")
        holders = [i for i, m in enumerate(side_melds) if t in m.cards]
        if not holders:
            raise PositionError(
                f"taken_top {card_str(t)}: the pile's top card is melded at once — it must be in a "
                f"meld of side {side}"
            )
        if not acting_down and not any(i >= s.turn_start_melds for i in holders):
            raise PositionError(
                f"taken_top {card_str(t)}: played on a meld from before this turn it would have "
                f"met the requirement (put seat {to_act_seat} in down, or count the meld in "
                "turn_melds)"
            )
    s.provisional = not acting_down and (bool(this_turn) or turn_value > 0 or s.took_pile)
    minimum = s.opening_minimum()
    if s.provisional and turn_value >= minimum:
        raise PositionError(
            f"seat {to_act_seat} melded {turn_value} points this turn, which meets the minimum "
            f"({minimum}): it would be down (list it in down)"
        )
    for sd in (0, 1):
        earlier = s.melds[sd] if sd != side else side_melds[: s.turn_start_melds]
        if earlier and not s.opened[sd]:
            raise PositionError(
                f"side {sd} has melds from earlier turns but none of its seats met the meld "
                "requirement (list the seat that did in down)"
            )
        if s.opened[sd] and not s.melds[sd]:
            raise PositionError(
                f"side {sd} has a seat that met the meld requirement but no melds on the table"
            )
    if s.phase == PHASE_PLAY and not any(s.hands[to_act_seat]):
        raise PositionError(
            f"seat {to_act_seat} holds no card but must end the turn with a discard"
        )

    # --- feet and stock from the cards left -------------------------------------------------
    rest = pack - used
    left = sorted(rest.elements())
    random.Random(derive_seed(seed, "position", round)).shuffle(left)
    s.feet = [[] for _ in range(n)]
    for seat in range(n):
        if seat in taken:
            continue
        if seat in given_feet:
            s.feet[seat] = given_feet[seat]
            continue
        if len(left) < rules.stack_size:
            raise PositionError(
                f"foot of seat {seat}: only {len(left)} cards are left for it, a foot holds "
                f"{rules.stack_size} (place fewer cards or give the feet)"
            )
        s.feet[seat] = [left.pop() for _ in range(rules.stack_size)]
    s.stock = left + top_of_stock[::-1]  # the top of the stock is the last card
    if stock_size is not None and len(s.stock) != stock_size:
        total = sum(pack.values())
        extra = len(s.stock) - stock_size
        raise PositionError(
            f"stock_size {stock_size}: the packs hold {total} cards and {total - len(s.stock)} "
            f"are placed (hands, feet, melds, red 3s, pile, pending), which leaves "
            f"{len(s.stock)} for the stock: the cards do not add up — place "
            + (f"{extra} more cards elsewhere" if extra > 0 else f"{-extra} fewer cards")
        )

    # --- scores and the rest ---------------------------------------------------------------
    units = n if rules.rotate_partners else 2
    s.scores = list(scores) if scores is not None else [0] * units
    if len(s.scores) != units:
        raise PositionError(
            f"scores: {units} totals ("
            + ("one per seat with rotate_partners" if rules.rotate_partners else "one per side")
            + f"), not {len(s.scores)}"
        )
    exact = 2 * rules.stack_size
    s.cuts = list(cuts) if cuts is not None else [exact + 1] * n
    if len(s.cuts) != n:
        raise PositionError(f"cuts: one number of cards per seat ({n}), not {len(s.cuts)}")
    s.first_cuts = []
    s.results = []
    s.reshuffles = 0
    s.went_out = -1
    s.termination = ""
    s.legal_cache = None
    return s
