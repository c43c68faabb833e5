"""Cheat / I Doubt It / Bullshit: action ids and observation tensors.

The one module of ``parlour.rl`` that imports Cheat's action classes.

A play is built card by card (``pick`` ids, in card order), then claimed.  When the claimed
count is always the number of cards put down (no ``overplay``, no ``overclaim``) a claim id
names only the rank (13 ids) and the count is the number picked; otherwise it names count and
rank (``C`` × 13 ids, ``C`` = the most cards a claim can name under the rules).
"""

from __future__ import annotations

from typing import Any

from parlour.core.cards import NUM_KINDS, rank_str
from parlour.games.cheat.actions import Challenge, ChooseFirst, Claim, Pass, Pick
from parlour.rl.encoding.base import Encoding, Writer, rel
from parlour.rl.fill.cheat import CheatFill, CheatIds

PHASES = ("choose_first", "play", "window", "late", "over")
RANKS = tuple(range(2, 15))
RANK_NAMES = tuple(rank_str(r) for r in RANKS)


class CheatEncoding(Encoding):
    game_name = "cheat"

    def _build_actions(self) -> None:
        rules = self.rules
        sp = self.space
        self.implied_count = not (rules.overplay or rules.overclaim)
        cards = 52 * rules.decks + rules.jokers
        self.max_count = 1 if self.implied_count else min(rules.max_cards or cards, cards)
        self.PICK = sp.add("pick", NUM_KINDS, "pick this card kind for the play being built")
        if self.implied_count:
            self.CLAIM = sp.add(
                "claim", 13, "claim the cards picked as this rank (2 … A); count = cards picked"
            )
        else:
            self.CLAIM = sp.add(
                "claim",
                13 * self.max_count,
                f"claim (count − 1) × 13 + (rank − 2), count 1 … {self.max_count}",
            )
        self.CHALLENGE = sp.add("challenge", 1, "challenge the most recent play")
        self.PASS = sp.add("pass", 1, "let the most recent play stand")
        self.FIRST = sp.add("choose_first", self.players, "(dealer) this seat plays first")

    def _action_to_id(self, state: Any, action: Any) -> Any:
        t = type(action)
        if t is Pick:
            return self.PICK + action.card
        if t is Claim:
            if self.implied_count:
                if action.count != len(state.selection):
                    raise ValueError("the claimed count must be the number of cards picked")
                return self.CLAIM + action.rank - 2
            return self.CLAIM + (action.count - 1) * 13 + action.rank - 2
        if t is Challenge:
            return self.CHALLENGE
        if t is Pass:
            return self.PASS
        if t is ChooseFirst:
            return self.FIRST + action.seat
        raise ValueError(f"not a Cheat action: {action!r}")

    def id_to_action(self, state: Any, action_id: int) -> Any:
        r = self.space.range_of(action_id)
        i = action_id - r.start
        if r.name == "pick":
            return Pick(i)
        if r.name == "claim":
            if self.implied_count:
                return Claim(len(state.selection), i + 2)
            count, rank = divmod(i, 13)
            return Claim(count + 1, rank + 2)
        if r.name == "challenge":
            return Challenge()
        if r.name == "pass":
            return Pass()
        if r.name == "choose_first":
            return ChooseFirst(i)
        raise AssertionError(r.name)  # pragma: no cover

    # --- observations -----------------------------------------------------------------------

    def _build_layout(self) -> None:
        self._memo: dict[int, tuple[Any, Any, list[int], list[list[int]]]] = {}
        self._pile_memo: dict[int, tuple[Any, list[float], list[float], tuple[int, ...]]] = {}
        lay = self.layout
        n = self.players
        seats = [f"seat+{k}" for k in range(n)]
        lay.add("phase", len(PHASES), "onehot", "phase", PHASES)
        lay.add("to_act", n, "onehot", "seat to act, numbered from the viewer", seats)
        lay.add("turn_seat", n, "onehot", "seat playing (or whose play is challenged)", seats)
        lay.add("first_player", n, "onehot", "seat that played first", seats)
        lay.cards("hand", "the viewer's hand, picked cards excluded")
        lay.cards("selection", "cards the viewer has picked for the play being built")
        lay.add("allowed", 13, "flags", "ranks the next claim may name", RANK_NAMES)
        lay.cards("must_include", "card the next play must contain (the opening 2♣)")
        lay.add("hand_sizes", n, "numbers", "hand sizes as counted, by seat from the viewer", seats)
        lay.add("out", n, "numbers", "places of seats gone out (1 = first), by seat", seats)
        lay.add("pile", 2, "numbers", "plays in the pile, cards claimed in it", ("plays", "cards"))
        lay.add("pile_by_seat", n, "numbers", "cards claimed in the pile per seat", seats)
        lay.add("pile_by_rank", 13, "numbers", "cards claimed in the pile per rank", RANK_NAMES)
        lay.cards("pile_mine", "the viewer's own cards in the pile")
        lay.add(
            "last_claim",
            1 + 13 + n,
            "numbers",
            "the pile's last claim: count, rank (one-hot), seat (one-hot)",
            ("count", *RANK_NAMES, *seats),
        )
        lay.cards("picked_up", "cards the viewer took from the pile (all pick-ups)")
        for k in range(n):
            lay.cards(f"seat+{k}.exposed", f"exposed cards that went to seat viewer+{k}'s hand")
        lay.add(
            "counters",
            4,
            "numbers",
            "plays made, challenges so far, my answer: challenged, passed",
            ("turns", "challenges", "I challenged", "I passed"),
        )
        lay.add("late_passed", n, "flags", "seats that passed openly in the late round", seats)

    def _make_ids(self) -> Any:
        return CheatIds(self.PICK, self.CLAIM, self.CHALLENGE, self.PASS, self.implied_count)

    def _make_filler(self) -> Any:
        return CheatFill(self.layout.start_of, self.players)

    def _write(self, view: Any, w: Writer) -> None:
        me = view.seat
        n = self.players
        w.onehot("phase", PHASES.index(view.phase))
        w.onehot("to_act", None if view.to_act is None else rel(view.to_act, me, n))
        w.onehot("turn_seat", rel(view.turn_seat, me, n))
        w.onehot("first_player", rel(view.first_player, me, n))
        w.cards("hand", view.hand)
        w.cards("selection", view.selection)
        for r in view.allowed_ranks:
            w.set("allowed", 1.0, r - 2)
        w.onehot("must_include", view.must_include)
        w.values("hand_sizes", [view.hand_sizes[(me + k) % n] for k in range(n)])
        for place, s in enumerate(view.out):
            w.set("out", place + 1, rel(s, me, n))
        w.values("pile", (len(view.pile), view.pile_size))
        # the pile's sums, once per viewer for each pile (a tuple the engine keeps while the
        # pile does not change)
        pile = view.pile
        sums = self._pile_memo.get(me)
        if sums is None or sums[0] is not pile:
            # a pile grows by plays appended to it (its earlier plays the same objects) until
            # someone picks it up: only the new plays are added
            old: tuple[Any, ...] = () if sums is None else sums[0]
            done = len(old)
            if done and len(pile) >= done and pile[done - 1] is old[-1] and pile[0] is old[0]:
                assert sums is not None
                by_seat = sums[1][:]
                by_rank = sums[2][:]
                mine = list(sums[3])
            else:
                done = 0
                by_seat = [0.0] * n
                by_rank = [0.0] * 13
                mine = []
            for p in pile[done:]:
                by_seat[rel(p.seat, me, n)] += p.count
                by_rank[p.rank - 2] += p.count
                if p.seat == me:
                    mine.extend(p.cards)
            sums = self._pile_memo[me] = (pile, by_seat, by_rank, tuple(mine))
        if pile:
            w.values("pile_by_seat", sums[1])
            w.values("pile_by_rank", sums[2])
            w.cards("pile_mine", sums[3])
        if view.pile:
            last = view.pile[-1]
            w.set("last_claim", last.count, 0)
            w.set("last_claim", 1.0, 1 + last.rank - 2)
            w.set("last_claim", 1.0, 14 + rel(last.seat, me, n))
        # the pick-ups and exposures of the whole match, gathered once per viewer for each
        # version of the record (the engine shares an unchanged record between states)
        memo = self._memo.get(me)
        if memo is None or memo[0] is not view.picked_up or memo[1] is not view.challenges:
            exposed: list[list[int]] = [[] for _ in range(n)]
            for c in view.challenges:
                for card, seat in zip(c.cards, c.exposed_to, strict=False):
                    exposed[(seat - me) % n].append(card)
            picked = [card for p in view.picked_up for card in p.cards]
            memo = self._memo[me] = (view.picked_up, view.challenges, picked, exposed)
        w.cards("picked_up", memo[2])
        for k, cards in enumerate(memo[3]):
            if cards:
                w.cards(f"seat+{k}.exposed", cards)
        w.values(
            "counters",
            (
                view.turns,
                len(view.challenges),
                float(view.my_decision == "challenge"),
                float(view.my_decision == "pass"),
            ),
        )
        for s in view.late_passed:
            w.set("late_passed", 1.0, rel(s, me, n))
