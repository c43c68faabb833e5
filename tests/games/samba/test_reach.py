"""The exact look-ahead behind Samba's legal actions (parlour/games/samba/parts/reach.py) against a
brute-force search of every way to meld the cards one step at a time (tests/games/samba/brute.py),
on thousands of small positions under every meld option."""

from __future__ import annotations

import random

from parlour.core.state import state_fields
from parlour.games.samba.parts.melds import VALUE, Meld, add_card, fits, make_meld, merge
from parlour.games.samba.parts.reach import Table, can_go_out, counts, opening_reachable
from parlour.games.samba.rules import SambaRules
from tests.games.samba.brute import brute_go_out, brute_opening


def _position(rng: random.Random, sevens: bool) -> tuple[list[int], tuple[Meld, ...]]:
    suits = rng.sample(range(4), rng.choice([1, 2]))
    ranks = rng.sample(range(4, 15), 6)
    kinds = [x * 13 + r - 2 for x in suits for r in ranks] * 2 + [52, 0, 13, 1, 40, 14]
    hand = [rng.choice(kinds) for _ in range(rng.randint(1, 8))]
    melds: list[Meld] = []
    for _ in range(rng.randint(0, 3)):
        t = rng.random()
        m: Meld | None
        if t < 0.45:
            r = rng.choice(ranks)
            cards = [rng.choice(suits) * 13 + r - 2 for _ in range(rng.randint(2, 6))]
            cards += [rng.choice([52, 0])] * rng.randint(0, 2)
            m = make_meld(cards)
        elif t < 0.85:
            x = rng.choice(suits)
            lo = rng.randint(4, 12)
            m = make_meld([x * 13 + r - 2 for r in range(lo, min(15, lo + rng.randint(3, 6)))])
        else:
            m = make_meld([rng.choice([52, 0, 13])] * rng.randint(3, 6), wild_melds=True)
        if m is not None:
            melds.append(m)
    if sevens:
        for _ in range(rng.randint(0, 2)):
            r = rng.choice(ranks)
            melds.append(make_meld([rng.choice(suits) * 13 + r - 2 for _ in range(7)]))  # type: ignore[arg-type]
    return counts(hand), tuple(melds)


def _rules(rng: random.Random) -> SambaRules:
    kw: dict[str, object] = {}
    if rng.random() < 0.3:
        kw["no_wild_on_canasta"] = True
    if rng.random() < 0.3:
        kw["wild_melds"] = True
        kw["going_out"] = rng.choice(["two_canastas", "two_sevens_one_sequence"])
    return SambaRules(**kw)  # type: ignore[arg-type]


def test_going_out_matches_brute_force() -> None:
    """issue 16 item 5 — 002_91a2786a682fea8f.txt 'Going out': 'You go out when you have no cards
    left – either by melding them all, or by melding all but one and discarding it', and only
    with 'two sambas, two canastas, or one of each'.  ``can_go_out`` (which offers "Partner, may
    I go out?") agrees with trying every way to meld the cards."""
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for _ in range(1500):
        h, melds = _position(rng, sevens=True)
        rules = _rules(rng)
        if any(m.kind == "wild" for m in melds) and not rules.wild_melds:
            continue
        need = rng.choice([None, None, 50, 90])
        budget = rng.choice([0, 1, 1])
        want = brute_go_out(h, melds, rules, need_value=need, budget=budget)
        assert can_go_out(h, melds, rules, need_value=need, budget=budget) == want, (h, melds)
        seen[want] += 1
    assert min(seen.values()) > 50


def test_going_out_prechecks_match_brute_force() -> None:
    """issue 18: the quick refusals of the go-out search (a natural pair with no group needs a
    wild card; a group of seven needs five naturals) keep ``can_go_out`` exact — more positions,
    with pairs and near-canasta groups, against trying every way to meld the cards (the rules as
    in ``test_going_out_matches_brute_force``)."""
    rng = random.Random(18)
    seen = {True: 0, False: 0}
    for _ in range(2500):
        h, melds = _position(rng, sevens=rng.random() < 0.8)
        for k in rng.sample(range(53), 2):  # pairs of a kind
            if k % 13 > 1 and rng.random() < 0.5:
                h[k] += 2
        rules = _rules(rng)
        if any(m.kind == "wild" for m in melds) and not rules.wild_melds:
            continue
        if sum(h) > 10:
            continue
        need = rng.choice([None, None, None, 50])
        budget = rng.choice([0, 1, 1])
        want = brute_go_out(h, melds, rules, need_value=need, budget=budget)
        assert can_go_out(h, melds, rules, need_value=need, budget=budget) == want, (h, melds)
        seen[want] += 1
    assert min(seen.values()) > 50


def test_going_out_with_black_threes_matches_brute_force() -> None:
    """002_91a2786a682fea8f.txt line 84: 'Black 3s: can be laid out as a group (following the
    normal group rules) only in the turn in which you go out' (000_0fa2fe02243ab02b.txt line 42
    the same); the normal group rules (002 lines 35-40): 'at least twice as many natural cards
    as wild cards, and never more than two wild cards in one group'.  ``can_go_out`` places the
    wild cards a group of black 3s can take (two black 3s need one; three take one; four or
    more up to two) as trying every way to meld the cards does — with ``black_three_wilds`` and
    without it (black 3s alone)."""
    rng = random.Random(84)
    seen = {(w, out): 0 for w in (True, False) for out in (True, False)}
    two = 0
    for _ in range(2500):
        h, melds = _position(rng, sevens=rng.random() < 0.85)
        for _ in range(rng.choice([1, 2, 2, 3, 3, 4, 5])):
            h[rng.choice([1, 40])] += 1
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
            h[rng.choice([52, 0, 13, 39])] += 1
        if sum(h) > 11:
            continue
        rules = _rules(rng)
        if any(m.kind == "wild" for m in melds) and not rules.wild_melds:
            continue
        wilds = rng.random() < 0.7
        rules = SambaRules(**{**rules.to_json(), "black_three_wilds": wilds})
        # a first meld's minimum near what the cards hold: the wild cards of the group of black
        # 3s (melded after the minimum is reached) count for none of it
        total = sum(m.value for m in melds) + sum(VALUE[k] * h[k] for k in range(53))
        need = rng.choice([None, None, 50, 90, total - rng.randint(0, 90)])
        budget = rng.choice([0, 1, 1, 1])
        want = brute_go_out(h, melds, rules, need_value=need, budget=budget)
        got = can_go_out(h, melds, rules, need_value=need, budget=budget)
        assert got == want, (h, melds, wilds, need, budget)
        seen[wilds, want] += 1
        two += want and wilds and h[1] + h[40] == 2
    assert min(seen.values()) > 40, seen
    assert two > 20  # two black 3s and a wild card went out


def test_opening_matches_brute_force() -> None:
    """issue 16 items 1 and 4 — 002_91a2786a682fea8f.txt: 'The first time your side lays anything
    out in a hand, the cards you put down in that turn must be worth at least a minimum'.
    ``opening_reachable`` (which offers the pile and every step of a first meld) agrees with
    trying every way to meld the cards, keeping a card or not."""
    rng = random.Random(4)
    seen = {True: 0, False: 0}
    for _ in range(1500):
        h, melds = _position(rng, sevens=False)
        rules = _rules(rng)
        if any(m.kind == "wild" for m in melds) and not rules.wild_melds:
            continue
        minimum = rng.choice([15, 50, 50, 90, 120])
        keep = rng.random() < 0.5
        want = brute_opening(h, melds, minimum, keep_one=keep, rules=rules)
        got = opening_reachable(h, melds, minimum, keep_one=keep, rules=rules)
        assert got == want, (h, melds, minimum, keep)
        seen[want] += 1
    assert min(seen.values()) > 100


def _same(a: Table, b: Table) -> bool:
    # state_fields: the __slots__, or the attributes of the class compiled by mypyc
    # (a leading underscore: a cache, not part of the table)
    return all(getattr(a, f) == getattr(b, f) for f in state_fields(Table) if f[0] != "_")


def test_table_after_a_move_is_the_table_of_the_melds_after_it() -> None:
    """The solver's table after a new meld, a card added or a merge equals the table built from
    the melds after that move (002_91a2786a682fea8f.txt 'Melds': extend, merge groups of a rank)."""
    rng = random.Random(3)
    done = 0
    for _ in range(400):
        _, melds = _position(rng, sevens=True)
        table = Table(melds)
        for i, m in enumerate(melds):
            for card in range(53):
                if fits(m, card):
                    after = (*melds[:i], add_card(m, card), *melds[i + 1 :])
                    assert _same(table.with_card(m, card), Table(after))
                    done += 1
            for j in range(i + 1, len(melds)):
                o = melds[j]
                if m.kind == o.kind == "group" and m.rank == o.rank:
                    rest = tuple(x for k, x in enumerate(melds) if k not in (i, j))
                    assert _same(table.with_merge(m, o), Table((*rest, merge(m, o))))
                    done += 1
        new = make_meld([0, 52, 13], wild_melds=True)
        assert new is not None
        assert _same(table.with_meld(new.cards), Table((*melds, new)))
    assert done > 500
