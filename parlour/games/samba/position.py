"""Build a Samba position from cards written as people write them (tests, tutorials, puzzles,
research, bug reports), checked against the table's rules.

:func:`position` returns an engine :class:`~parlour.games.samba.state.State` ready for
``GAME.legal_actions`` / ``GAME.apply``, at any point of a turn — before drawing, while melding
(a meld half built, a first meld short of the minimum), with the pile taken for a first meld that
is not complete yet, or with "partner, may I go out?" waiting for its answer — and refuses a
position the rules could never reach with a :class:`PositionError` naming the problem (a meld
illegal under the table's rules, more cards of a kind than the shoe holds, cards that do not add
up to the stock size asked for, a side with melds that never opened …).

>>> from parlour.games.samba import GAME
>>> s = position(hands={0: "9♥ 9♠ 5♣ K♦"}, melds={0: ["A♣ A♦ A♠"]}, pile="4♦ 9♦", to_act=0)
>>> [str(a) for a in GAME.legal_actions(s)]
['draw', 'take the pile with 9♥ 9♠']
>>> position(melds={0: ["9♠ Jk 2♥"]})
Traceback (most recent call last):
...
parlour.core.position.PositionError: side 0, meld 0 (9♠ Jk 2♥): a group needs at least twice as many natural cards as wild cards and holds at most two wild cards
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.cards import Card, card_str, cards_str, shoe
from parlour.core.position import Cards, position_cards
from parlour.core.position import PositionError as PositionError
from parlour.core.rng import derive_seed
from parlour.games.samba.parts.melds import (
    BLACK3,
    GROUP,
    IS_NATURAL,
    IS_WILD,
    RANK,
    RED_THREES,
    SUIT,
    Meld,
    make_meld,
)
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.state import ANSWER, DRAW, MELD, PILE_OPEN, State, sides_for

#: the points of a turn a position can stand at (``view.phase``)
PHASES = (DRAW, MELD, PILE_OPEN, ANSWER)

_PERMISSION = {"": 0, "yes": 1, "no": -1}


_cards = position_cards


def meld_problem(cards: Sequence[Card], rules: SambaRules) -> str | None:
    """Why these cards are not a meld that can lie on the table under ``rules`` (None: they are
    one).  Black 3s are melded only in the turn a player goes out, which ends the hand, so they
    are never on the table of a position."""
    if len(cards) < 3:
        return "a meld holds at least three cards"
    if any(c in RED_THREES for c in cards):
        return "red 3s are laid out on their own, never in a meld"
    if any(c % 13 == 1 and c != 52 for c in cards):
        return (
            "black 3s are melded only in the turn the player goes out (and that ends the hand); "
            "3s never go into other melds"
        )
    nats = [c for c in cards if not IS_WILD[c]]
    wilds = len(cards) - len(nats)
    if not nats:
        if not rules.wild_melds:
            return "a meld of wild cards only is allowed only with wild_melds (Bolivia)"
        if len(cards) > 7:
            return "a meld of wild cards holds at most seven (a bolivia)"
        return None
    if len({RANK[c] for c in nats}) == 1:
        if wilds > 2 or len(nats) < 2 * wilds:
            return (
                "a group needs at least twice as many natural cards as wild cards and holds at "
                "most two wild cards"
            )
        return None
    if wilds:
        return "wild cards may never be used in a sequence (and a group is of one rank)"
    if len({SUIT[c] for c in nats}) != 1:
        return "a sequence is of one suit (and a group of one rank)"
    ranks = sorted(RANK[c] for c in nats)
    if len(set(ranks)) != len(ranks) or ranks[-1] - ranks[0] != len(ranks) - 1:
        return "a sequence is three or more cards of one suit in a row (4 … A, ace high only)"
    if len(ranks) > 7:
        return "a sequence holds at most seven cards (a samba)"
    return None


def meld_of(
    text: Cards, *, wild_melds: bool = True, rules: SambaRules | None = None, where: str = "meld"
) -> Meld:
    """The table meld these cards form, checked by the meld rules (``rules``; by default any
    meld a table may hold, wild melds included); :class:`PositionError` naming the problem.

    >>> meld_of("6♥ 7♥ 8♥").kind
    'sequence'
    >>> meld_of("8♥ 8♣ 2♦ Jk")
    Traceback (most recent call last):
    ...
    parlour.core.position.PositionError: meld (8♥ 8♣ 2♦ Jk): a group needs at least twice as many natural cards as wild cards and holds at most two wild cards
    """
    cards = _cards(text, where)
    rules = rules or SambaRules(wild_melds=wild_melds)
    problem = meld_problem(cards, rules)
    if problem is not None:
        raise PositionError(f"{where} ({cards_str(cards)}): {problem}")
    m = make_meld(cards, wild_melds=rules.wild_melds)
    if m is None or m.kind == BLACK3:  # pragma: no cover - meld_problem covers every case
        raise PositionError(f"{where} ({cards_str(cards)}): not a meld")
    return m


def position(
    rules: SambaRules | None = None,
    *,
    hands: Mapping[int, Cards] | None = None,
    melds: Mapping[int, Sequence[Cards]] | None = None,
    red_threes: Mapping[int, Cards] | None = None,
    pile: Cards = "",
    stock: Cards | None = None,
    stock_size: int | None = None,
    known: Mapping[int, Cards] | None = None,
    to_act: int = 0,
    phase: str = DRAW,
    pending: Cards = "",
    taken_top: Card | str | None = None,
    asked: bool | None = None,
    permission: str = "",
    scores: Sequence[int] | None = None,
    opened: Sequence[bool] | None = None,
    hand_number: int = 0,
    dealer: int | None = None,
    seed: int = 0,
    **options: Any,
) -> State:
    """A Samba state with the cards and the turn given, checked against the rules.

    * ``rules`` / ``**options``: the table's rules (default :class:`SambaRules`) and option
      overrides (``players=6``, ``wild_melds=True`` …).
    * ``hands``: each seat's hand (unlisted seats hold nothing — convenient in tests, though in
      play only a seat that went out holds no card; with ``stock_size`` they get the cards left).
    * ``melds``: each side's melds in table order (side *i* holds seat *i*; 4 players: sides 0 =
      seats 0 and 2, 1 = seats 1 and 3).  Each is checked by the meld rules of the table.
    * ``red_threes``: red 3s laid out by each side.
    * ``pile``: the discard pile, bottom first (the last card is the top).
    * ``stock``: the top of the stock, top first (drawn first); every card not placed lies below
      it in card order.  ``stock_size``: the stock holds exactly this many cards — the cards not
      placed beyond those go to the seats not listed in ``hands``, shared out in turn from a
      seeded shuffle (refused if there are none, or the cards do not add up).
    * ``known``: cards publicly known to sit in a hand (taken with the pile); must be in it.
    * ``to_act`` / ``phase``: whose turn and where it stands — ``"draw"`` (before drawing),
      ``"meld"`` (after drawing; ``pending``: the cards of a meld half built; the acting side's
      melds, when it has not ``opened``, are this turn's first meld short of the minimum;
      ``permission``: the partner's answer ``"yes"``/``"no"`` to "partner, may I go out?"),
      ``"pile_open"`` (the pile taken for the side's first meld: ``taken_top`` — the card that
      was on top — is in one of the side's groups, ``pile`` is the rest still on the table,
      the side's melds are this turn's, short of the minimum), ``"answer"`` (``to_act`` must
      answer the partner's "partner, may I go out?").  ``asked``: the question was asked this
      turn (default: with an answer or in phase ``"answer"``).
    * ``scores``: each side's total before this hand (its opening minimum follows).
      ``opened``: which sides have opened this hand (default: the sides with melds).
    * ``hand_number`` (0-based) and ``dealer`` (default: the seat before ``to_act``; in phase
      ``"answer"`` the seat before the asker).  ``seed``: the match seed (later hands are dealt
      from it).

    >>> s = position(hands={0: "K♠ K♣ 7♦", 2: "4♥"}, melds={0: ["Q♣ Q♥ Q♠"]}, to_act=0,
    ...              phase="meld", pending="K♠", hand_number=3, dealer=3, scores=[1600, 40])
    >>> cards_str(s.pending), s.hand_no, s.dealer, s.rules.opening_minimum(s.scores[0])
    ('K♠', 3, 3, 90)
    """
    rules = rules or SambaRules()
    if options:
        rules = rules.replace(**options)
    n = rules.players
    sides = sides_for(n)
    nsides = len(sides)
    side_of = [0] * n
    for i, seats in enumerate(sides):
        for seat in seats:
            side_of[seat] = i
    if phase not in PHASES:
        raise PositionError(f"phase {phase!r}: one of {', '.join(repr(p) for p in PHASES)}")
    if not isinstance(to_act, int) or not 0 <= to_act < n:
        raise PositionError(f"to_act {to_act!r}: a seat 0–{n - 1}")
    placed: list[tuple[str, list[Card]]] = []

    def seat_of(value: Any, what: str) -> int:
        if not isinstance(value, int) or not 0 <= value < n:
            raise PositionError(f"{what}: {value!r} is not a seat (0–{n - 1})")
        return value

    def side_no(value: Any, what: str) -> int:
        if not isinstance(value, int) or not 0 <= value < nsides:
            raise PositionError(f"{what}: {value!r} is not a side (0–{nsides - 1})")
        return value

    s = State.__new__(State)
    s.rules = rules
    s.seed = seed
    s.players = n
    s.sides = sides
    s.side_of = tuple(side_of)

    # --- hands, known cards --------------------------------------------------------------------
    s.hands = [[0] * 53 for _ in range(n)]
    listed: set[int] = set()
    for seat, text in (hands or {}).items():
        seat = seat_of(seat, "hands")
        listed.add(seat)
        cs = _cards(text, f"hand of seat {seat}")
        for c in cs:
            s.hands[seat][c] += 1
        if rules.red_threes_as_canasta and any(c in RED_THREES for c in cs):
            raise PositionError(
                f"hand of seat {seat}: with red_threes_as_canasta red 3s are laid out at once "
                "(put them in red_threes)"
            )
        placed.append((f"hand of seat {seat}", cs))
    s.known = [[0] * 53 for _ in range(n)]
    for seat, text in (known or {}).items():
        seat = seat_of(seat, "known")
        for c in _cards(text, f"known cards of seat {seat}"):
            s.known[seat][c] += 1
        for c in range(53):
            if s.known[seat][c] > s.hands[seat][c]:
                raise PositionError(
                    f"known cards of seat {seat}: {card_str(c)} ×{s.known[seat][c]} is not in "
                    "that hand"
                )

    # --- melds and red 3s ----------------------------------------------------------------------
    s.melds = [() for _ in range(nsides)]
    for sd, texts in (melds or {}).items():
        sd = side_no(sd, "melds")
        if isinstance(texts, str):
            raise PositionError(f"melds of side {sd}: give a list of melds, e.g. ['9♥ 9♠ 9♦']")
        ms = []
        for i, text in enumerate(texts):
            m = meld_of(text, rules=rules, where=f"side {sd}, meld {i}")
            ms.append(m)
            placed.append((f"meld {i} of side {sd}", list(m.cards)))
        s.melds[sd] = tuple(ms)
    s.red3 = [() for _ in range(nsides)]
    for sd, text in (red_threes or {}).items():
        sd = side_no(sd, "red_threes")
        cs = _cards(text, f"red 3s of side {sd}")
        bad = [c for c in cs if c not in RED_THREES]
        if bad:
            raise PositionError(f"red 3s of side {sd}: {card_str(bad[0])} is not a red 3")
        s.red3[sd] = tuple(cs)
        placed.append((f"red 3s of side {sd}", cs))

    # --- pile, pending, the top card of a pile taken -------------------------------------------
    s.pile = tuple(_cards(pile, "pile"))
    placed.append(("pile", list(s.pile)))
    s.pending = tuple(_cards(pending, "pending"))
    placed.append(("the meld being built", list(s.pending)))
    top = _cards([taken_top] if isinstance(taken_top, int) else taken_top, "taken_top")
    if len(top) > 1:
        raise PositionError("taken_top: one card, the pile's top card taken for a first meld")
    top_of_stock = _cards(stock, "stock")
    placed.append(("stock", top_of_stock))

    # --- card counts ---------------------------------------------------------------------------
    pack = Counter(shoe(3, 6))
    used: Counter[Card] = Counter()
    for _, cs in placed:
        used.update(cs)
    for c in sorted(used):
        if used[c] > pack[c]:
            where = ", ".join(f"{label} {cs.count(c)}" for label, cs in placed if cs.count(c))
            raise PositionError(
                f"{used[c]} × {card_str(c)} are placed ({where}) but three decks and six jokers "
                f"hold only {pack[c]}"
            )
    rest = pack - used
    left = sorted(rest.elements())
    if stock_size is not None:
        extra = len(left) + len(top_of_stock) - stock_size
        empty = [seat for seat in range(n) if seat not in listed]
        if stock_size < len(top_of_stock) or extra < 0 or (extra and not empty):
            total = sum(pack.values())
            raise PositionError(
                f"stock_size {stock_size}: the shoe holds {total} cards and "
                f"{total - len(left) - len(top_of_stock)} are placed, which leaves "
                f"{len(left) + len(top_of_stock)} for the stock"
                + (f" (with {len(top_of_stock)} named on top)" if top_of_stock else "")
                + (
                    ": the cards do not add up — place more cards elsewhere or list fewer hands"
                    if extra
                    else ": the cards do not add up"
                )
            )
        rng = random.Random(derive_seed(seed, "position", hand_number))
        rng.shuffle(left)
        for i in range(extra):
            c = left.pop()
            seat = empty[i % len(empty)]
            s.hands[seat][c] += 1
        left.sort()
    s.stock = tuple(left[::-1] + top_of_stock[::-1])  # the top of the stock is the last card
    s.stock_len = len(s.stock)
    s.sizes = [sum(h) for h in s.hands]

    # --- scores, opened, the turn --------------------------------------------------------------
    s.scores = tuple(scores) if scores is not None else (0,) * nsides
    if len(s.scores) != nsides:
        raise PositionError(f"scores: one total per side ({nsides}), not {len(s.scores)}")
    if opened is not None and len(opened) != nsides:
        raise PositionError(f"opened: one flag per side ({nsides}), not {len(opened)}")
    s.opened = (
        tuple(bool(x) for x in opened) if opened is not None else tuple(bool(m) for m in s.melds)
    )
    if not isinstance(hand_number, int) or hand_number < 0:
        raise PositionError(f"hand_number {hand_number!r}: 0 or more (0 = the first hand)")
    s.hand_no = hand_number
    s.history = ()
    s.finished = False
    s.termination = ""
    asker = to_act
    if phase == ANSWER:
        if len(sides[side_of[to_act]]) < 2 or not rules.partner_permission:
            raise PositionError(
                "phase 'answer': 'partner, may I go out?' needs a partnership game with "
                "partner_permission"
            )
        mates = sides[side_of[to_act]]
        asker = mates[1] if mates[0] == to_act else mates[0]
    s.dealer = seat_of(dealer, "dealer") if dealer is not None else (asker - 1) % n
    s.to_act = to_act
    s.phase = phase
    side = side_of[asker]
    minimum = rules.opening_minimum(s.scores[side])
    staged = sum(m.value for m in s.melds[side])
    for sd in range(nsides):
        if s.opened[sd] and not s.melds[sd]:
            raise PositionError(f"side {sd} has opened but has no melds on the table")
        if s.melds[sd] and not s.opened[sd]:
            this_turn = sd == side and phase in (MELD, PILE_OPEN)
            if not this_turn:
                raise PositionError(
                    f"side {sd} has melds but has not opened: melds that miss the minimum are "
                    "taken back before the turn ends (only the side to act, in phase 'meld' or "
                    "'pile_open', can be building its first meld)"
                )
            if staged >= minimum:
                raise PositionError(
                    f"side {sd}'s melds make {staged}, which meets its minimum of {minimum}: "
                    "the side has opened (leave opened out, or set it)"
                )

    # --- the phase's own parts -----------------------------------------------------------------
    s.taken_top = -1
    if phase == PILE_OPEN:
        if s.opened[side]:
            raise PositionError(
                "phase 'pile_open' is a pile taken for the side's first meld: the side has not "
                "opened (set opened)"
            )
        if len(top) != 1:
            raise PositionError(
                "phase 'pile_open' needs taken_top: the card that was on top of the pile, now in "
                "a new group with two naturals of its rank"
            )
        t = top[0]
        if not IS_NATURAL[t]:
            raise PositionError(
                f"taken_top {card_str(t)}: the pile is never taken with a 3, a 2 or a joker on top"
            )
        if not any(m.kind == GROUP and t in m.cards for m in s.melds[side]):
            raise PositionError(
                f"taken_top {card_str(t)}: the pile's top card is melded at once in a new group "
                f"with two naturals of its rank — it must be in a group of side {side}"
            )
        s.taken_top = t
    elif top:
        raise PositionError("taken_top belongs to phase 'pile_open'")
    if s.pending:
        if phase not in (MELD, PILE_OPEN):
            raise PositionError("pending (a meld being built) belongs to phases meld and pile_open")
        if len(s.pending) > 2:
            raise PositionError(
                f"pending {cards_str(s.pending)}: three cards complete a meld — put it in melds"
            )
        if not _completable(s.pending, s.hands[asker], rules):
            raise PositionError(
                f"pending {cards_str(s.pending)}: these cards cannot become a meld with the cards "
                f"of seat {asker}'s hand (a group of one rank with at most two wild cards and "
                "twice as many naturals, or three or more in a row of one suit)"
            )
    if phase in (MELD, PILE_OPEN) and not s.sizes[asker] and not s.pending:
        raise PositionError(
            f"seat {asker} holds no card after drawing: the hand would have ended (going out)"
        )
    if permission not in _PERMISSION:
        raise PositionError(f"permission {permission!r}: '', 'yes' or 'no'")
    s.permission = _PERMISSION[permission]
    if s.permission and phase != MELD:
        raise PositionError("permission (the partner's answer) belongs to phase 'meld'")
    if s.permission and len(sides[side]) < 2:
        raise PositionError("permission: a player alone has no partner to ask")
    s.asked = bool(asked) if asked is not None else bool(s.permission) or phase == ANSWER
    if phase == ANSWER and not s.asked:
        raise PositionError("phase 'answer': the question has been asked (asked=True)")
    if s.permission and not s.asked:
        raise PositionError("permission: an answer needs the question (asked=True)")
    if s.asked and phase not in (MELD, ANSWER):
        raise PositionError("asked: 'partner, may I go out?' is asked after drawing")
    s.takebacks = 0
    s.undone = ()
    s._legal = None
    s._legal_set = None
    s._no_out = s._no_open = False
    return s


def _completable(pending: Sequence[Card], hand: Sequence[int], rules: SambaRules) -> bool:
    """The cards of a meld half built plus cards of the hand can make a valid three-card meld."""
    h = list(hand)
    kinds = [k for k in range(53) if h[k]]
    need = 3 - len(pending)
    for a in kinds:
        h[a] -= 1
        for b in kinds if need == 2 else [-1]:
            if b >= 0 and not h[b]:
                continue
            cards = (*pending, a) if b < 0 else (*pending, a, b)
            m = make_meld(cards, wild_melds=rules.wild_melds)
            if m is not None and m.kind != BLACK3:
                h[a] += 1
                return True
        h[a] += 1
    return False


#: the name the tests have always used
make_position = position

__all__ = ["PHASES", "PositionError", "make_position", "meld_of", "meld_problem", "position"]
