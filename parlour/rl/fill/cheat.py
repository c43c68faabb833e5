"""Cheat's observation tensor, written into a float32 buffer (the layout of
:class:`parlour.rl.encoding.cheat.CheatEncoding`; compiled).

The pile's sums are kept per viewer and grow with the plays appended to the pile; the
pick-ups and exposures of the match are gathered once per version of the record (the engine
shares an unchanged record between states)."""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from parlour.games.cheat.actions import Challenge, Claim, Pass, Pick
from parlour.games.cheat.state import (
    OVER,
    WINDOW,
    ChallengeRecord,
    CheatView,
    PickupRecord,
    PileEntry,
    Play,
    State,
)
from parlour.rl.fill.common import KINDS, CardBlocks, Slow, put_count_tuple

PHASES = ("choose_first", "play", "window", "late", "over")


class PileSums:
    """One viewer's sums over one pile: claimed cards per seat (from the viewer) and per
    rank, and the viewer's own cards in it."""

    def __init__(self, pile: tuple[object, ...], n: int) -> None:
        self.pile = pile
        self.by_seat = [0.0] * n
        self.by_rank = [0.0] * 13
        self.mine: list[int] = []


class Record:
    """One viewer's cards picked up and cards exposed to each seat (from the viewer), as the
    segments' count vectors (float32 blocks, copied in whole; ``None``: no card)."""

    picked: array[float] | None
    exposed: list[array[float] | None]

    def __init__(
        self,
        picked_up: tuple[PickupRecord, ...],
        challenges: tuple[ChallengeRecord, ...],
        me: int,
        n: int,
        old: Record | None = None,
    ) -> None:
        self.picked_up = picked_up
        self.challenges = challenges
        # a record grows by pick-ups and challenges appended (the earlier ones the same
        # objects): only the new ones are counted in, on copies of the last record's vectors
        # (counted from scratch each time, they were most of a late step's filling)
        done_p = done_c = 0
        picked: array[float] | None = None
        exposed: list[array[float] | None] = [None] * n
        if old is not None and len(old.exposed) == n:
            if _extends(old.picked_up, picked_up):
                done_p = len(old.picked_up)
                picked = old.picked
            if _extends(old.challenges, challenges):
                done_c = len(old.challenges)
                exposed = old.exposed[:]
        copied = False
        for j in range(done_p, len(picked_up)):
            for card in picked_up[j].cards:
                if picked is None:
                    picked = array("f", ZEROS)
                elif not copied:
                    picked = array("f", picked)
                copied = True
                picked[card] = picked[card] + 1.0
        self.picked = picked
        fresh = [False] * n
        for j in range(done_c, len(challenges)):
            record = challenges[j]
            to = record.exposed_to
            cards = record.cards
            for i in range(min(len(cards), len(to))):
                k = (to[i] - me) % n
                block = exposed[k]
                if block is None:
                    block = array("f", ZEROS)
                elif not fresh[k]:
                    block = array("f", block)
                fresh[k] = True
                exposed[k] = block
                card = cards[i]
                block[card] = block[card] + 1.0
        self.exposed = exposed


#: a card segment's zero vector (copied to start a count vector)
ZEROS = array("f", [0.0] * KINDS)


def _extends(old: tuple[object, ...], new: tuple[object, ...]) -> bool:
    """``new`` is ``old`` with items appended (the engine appends to a record's tuple; the old
    tuple, kept alive by its holder, keeps its last item's identity from being reused)."""
    k = len(old)
    return len(new) >= k and (k == 0 or new[k - 1] is old[k - 1])


class CheatFill:
    def __init__(self, start: dict[str, int], players: int) -> None:
        #: the layout, for :meth:`fresh`
        self.start = start
        self.n = players
        self.cards = CardBlocks()
        self.phase = start["phase"]
        self.to_act = start["to_act"]
        self.turn_seat = start["turn_seat"]
        self.first_player = start["first_player"]
        self.hand = start["hand"]
        self.selection = start["selection"]
        self.allowed = start["allowed"]
        self.must_include = start["must_include"]
        self.hand_sizes = start["hand_sizes"]
        self.out = start["out"]
        self.pile = start["pile"]
        self.pile_by_seat = start["pile_by_seat"]
        self.pile_by_rank = start["pile_by_rank"]
        self.pile_mine = start["pile_mine"]
        self.last_claim = start["last_claim"]
        self.picked_up = start["picked_up"]
        self.exposed = [start[f"seat+{k}.exposed"] for k in range(players)]
        self.counters = start["counters"]
        self.late_passed = start["late_passed"]
        self.sums: dict[int, PileSums] = {}
        #: the same for the state's pile (``fill_state``), whose plays stay the same objects
        self.state_sums: dict[int, PileSums] = {}
        self.records: dict[int, Record] = {}

    def fresh(self) -> CheatFill:
        """A filler of the same layout with caches of its own: one per match played side by
        side (``BatchEnv``).  Its pile sums and records are kept per viewer, for the pile and
        record last seen: one filler for all the matches would see another match's each time
        and sum the whole pile and every pick-up and exposure again (most of a batched step)."""
        return CheatFill(self.start, self.n)

    def _sums(self, pile: tuple[PileEntry, ...], me: int) -> PileSums:
        n = self.n
        old = self.sums.get(me)
        if old is not None and old.pile is pile:
            return old
        sums = PileSums(pile, n)
        done = 0
        if old is not None:
            prev = old.pile
            done = len(prev)
            # a pile grows by plays appended (its earlier plays the same objects) until someone
            # picks it up: only the new plays are added
            if done and len(pile) >= done and pile[done - 1] is prev[-1] and pile[0] is prev[0]:
                sums.by_seat = old.by_seat[:]
                sums.by_rank = old.by_rank[:]
                sums.mine = old.mine[:]
            else:
                done = 0
        for j in range(done, len(pile)):
            p = pile[j]
            sums.by_seat[(p.seat - me) % n] += p.count
            sums.by_rank[p.rank - 2] += p.count
            if p.seat == me:
                sums.mine.extend(p.cards)
        self.sums[me] = sums
        return sums

    def _state_sums(self, pile: tuple[Play, ...], me: int) -> PileSums:
        """:meth:`_sums` of the state's pile (a play's cards count as the viewer's own only
        when it made the play, as in its view)."""
        n = self.n
        old = self.state_sums.get(me)
        if old is not None and old.pile is pile:
            return old
        sums = PileSums(pile, n)
        done = 0
        if old is not None:
            prev = old.pile
            done = len(prev)
            if done and len(pile) >= done and pile[done - 1] is prev[-1] and pile[0] is prev[0]:
                sums.by_seat = old.by_seat[:]
                sums.by_rank = old.by_rank[:]
                sums.mine = old.mine[:]
            else:
                done = 0
        for j in range(done, len(pile)):
            p = pile[j]
            sums.by_seat[(p.seat - me) % n] += p.count
            sums.by_rank[p.rank - 2] += p.count
            if p.seat == me:
                sums.mine.extend(p.cards)
        self.state_sums[me] = sums
        return sums

    def fill_state(self, state: State, seat: int, buf: memoryview[float], base: int) -> None:
        """What :meth:`fill` writes for ``observe_state(state, seat)``, read from the state
        without building the view (the fields the view takes: what ``seat`` may know;
        ``tests/rl/test_fill.py`` keeps the two byte-identical)."""
        me = seat
        n = self.n
        phase = state.phase
        buf[base + self.phase + PHASES.index(phase)] = 1.0
        if phase != OVER:
            buf[base + self.to_act + (state.to_act - me) % n] = 1.0
        buf[base + self.turn_seat + (state.turn_seat - me) % n] = 1.0
        buf[base + self.first_player + (state.first_player - me) % n] = 1.0
        put_count_tuple(buf, base + self.hand, state.hands[me])
        if me == state.turn_seat:
            self.cards.put(buf, base + self.selection, state.selection)
        for r in state.allowed:
            buf[base + self.allowed + r - 2] = 1.0
        if state.must_include >= 0:
            buf[base + self.must_include + state.must_include] = 1.0
        sizes = state.shown
        b = base + self.hand_sizes
        for k in range(min(n, len(sizes))):
            buf[b + k] = float(sizes[(me + k) % n])
        for place, s in enumerate(state.out):
            buf[base + self.out + (s - me) % n] = float(place + 1)
        pile = state.pile
        buf[base + self.pile] = float(len(pile))
        if pile:
            sums = self._state_sums(pile, me)
            size = 0.0
            b = base + self.pile_by_seat
            for k in range(n):
                buf[b + k] = sums.by_seat[k]
                size += sums.by_seat[k]
            buf[base + self.pile + 1] = size
            b = base + self.pile_by_rank
            for k in range(13):
                buf[b + k] = sums.by_rank[k]
            b = base + self.pile_mine
            for c in sums.mine:
                buf[b + c] = buf[b + c] + 1.0
            last = pile[-1]
            b = base + self.last_claim
            buf[b] = float(last.count)
            buf[b + 1 + last.rank - 2] = 1.0
            buf[b + 14 + (last.seat - me) % n] = 1.0
        picked_up = state.pickups[me]
        challenges = state.challenges
        record = self.records.get(me)
        if (
            record is None
            or record.picked_up is not picked_up
            or record.challenges is not challenges
        ):
            record = Record(picked_up, challenges, me, n, record)
            self.records[me] = record
        picked = record.picked
        if picked is not None:
            b = base + self.picked_up
            buf[b : b + KINDS] = picked
        for k in range(n):
            exposed = record.exposed[k]
            if exposed is not None:
                b = base + self.exposed[k]
                buf[b : b + KINDS] = exposed
        b = base + self.counters
        buf[b] = float(state.turns)
        buf[b + 1] = float(len(challenges))
        if phase == WINDOW and me in state.askers[: state.ask_index]:
            if me in state.challengers:
                buf[b + 2] = 1.0
            else:
                buf[b + 3] = 1.0
        for s in state.late_passed:
            buf[base + self.late_passed + (s - me) % n] = 1.0

    def fill(self, view: CheatView, buf: memoryview[float], base: int) -> None:
        seat = view.seat
        assert seat is not None
        me: int = seat
        n = self.n
        buf[base + self.phase + PHASES.index(view.phase)] = 1.0
        to_act = view.to_act
        if to_act is not None:
            buf[base + self.to_act + (to_act - me) % n] = 1.0
        buf[base + self.turn_seat + (view.turn_seat - me) % n] = 1.0
        buf[base + self.first_player + (view.first_player - me) % n] = 1.0
        self.cards.put(buf, base + self.hand, view.hand)
        self.cards.put(buf, base + self.selection, view.selection)
        for r in view.allowed_ranks:
            buf[base + self.allowed + r - 2] = 1.0
        if view.must_include >= 0:
            buf[base + self.must_include + view.must_include] = 1.0
        sizes = view.hand_sizes
        b = base + self.hand_sizes
        for k in range(min(n, len(sizes))):
            buf[b + k] = float(sizes[(me + k) % n])
        for place, s in enumerate(view.out):
            buf[base + self.out + (s - me) % n] = float(place + 1)
        pile = view.pile
        buf[base + self.pile] = float(len(pile))
        buf[base + self.pile + 1] = float(view.pile_size)
        if pile:
            sums = self._sums(pile, me)
            b = base + self.pile_by_seat
            for k in range(n):
                buf[b + k] = sums.by_seat[k]
            b = base + self.pile_by_rank
            for k in range(13):
                buf[b + k] = sums.by_rank[k]
            b = base + self.pile_mine
            for c in sums.mine:
                buf[b + c] = buf[b + c] + 1.0
            last = pile[-1]
            b = base + self.last_claim
            buf[b] = float(last.count)
            buf[b + 1 + last.rank - 2] = 1.0
            buf[b + 14 + (last.seat - me) % n] = 1.0
        record = self.records.get(me)
        if (
            record is None
            or record.picked_up is not view.picked_up
            or record.challenges is not view.challenges
        ):
            record = Record(view.picked_up, view.challenges, me, n, record)
            self.records[me] = record
        picked = record.picked
        if picked is not None:
            b = base + self.picked_up
            buf[b : b + KINDS] = picked
        for k in range(n):
            exposed = record.exposed[k]
            if exposed is not None:
                b = base + self.exposed[k]
                buf[b : b + KINDS] = exposed
        b = base + self.counters
        buf[b] = float(view.turns)
        buf[b + 1] = float(len(view.challenges))
        decision = view.my_decision
        if decision == "challenge":
            buf[b + 2] = 1.0
        elif decision == "pass":
            buf[b + 3] = 1.0
        for s in view.late_passed:
            buf[base + self.late_passed + (s - me) % n] = 1.0


class CheatIds:
    """The ids of Cheat's picks, claims, challenges and passes (compiled); a dealer's choice
    of who plays first by the encoding's ``_action_to_id`` (``slow``)."""

    def __init__(
        self, pick: int, claim: int, challenge: int, pas: int, implied_count: bool
    ) -> None:
        self.pick = pick
        self.claim = claim
        self.challenge = challenge
        self.pas = pas
        self.implied_count = implied_count

    def ids(self, state: State, actions: Sequence[object], slow: Slow) -> list[int]:
        out: list[int] = []
        for a in actions:
            if isinstance(a, Pick):
                out.append(self.pick + a.card)
            elif isinstance(a, Claim):
                if self.implied_count:
                    if a.count != len(state.selection):
                        raise ValueError("the claimed count must be the number of cards picked")
                    out.append(self.claim + a.rank - 2)
                else:
                    out.append(self.claim + (a.count - 1) * 13 + a.rank - 2)
            elif isinstance(a, Challenge):
                out.append(self.challenge)
            elif isinstance(a, Pass):
                out.append(self.pas)
            else:
                out.append(int(slow(state, a)))
        return out
