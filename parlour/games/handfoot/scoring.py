"""Scoring a round of Samba Hand and Foot (seed ``004_bae80ddcdedd4514.txt``, "Scoring").

Per partnership: base score (exact cut 100, going out 2,000, red 3s 100 each or 1,000 for a book of
seven red 3s plus 100 for each further one, samba / book of 7s / book of wilds 2,000 each, clean
book 500, dirty book 300) plus the card points of every card on the table, minus the card points
of cards left in hand (black 3 −100 each).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.cards import Card, expand
from parlour.core.said import Said, ngettext
from parlour.games.handfoot.parts.melds import Meld, card_value, is_black_three
from parlour.games.handfoot.rules import HandFootRules

BREAKDOWN_KEYS = (
    "exact_cut",
    "going_out",
    "red_threes",
    "sambas",
    "sevens_books",
    "wild_books",
    "clean_books",
    "dirty_books",
    "table_cards",
    "hand_cards",
    "black_threes",
)


def book_counts(melds: Sequence[Meld]) -> dict[str, int]:
    """Finished books of each kind a side holds."""
    out = {"sambas": 0, "sevens": 0, "wilds": 0, "clean": 0, "dirty": 0}
    for m in melds:
        if m.is_samba:
            out["sambas"] += 1
        elif m.is_sevens:
            out["sevens"] += 1
        elif m.is_wild_book:
            out["wilds"] += 1
        elif m.is_clean:
            out["clean"] += 1
        elif m.is_dirty:
            out["dirty"] += 1
    return out


def missing_books(
    rules: HandFootRules, melds: Sequence[Meld], have: dict[str, int] | None = None
) -> list[str]:
    """The books a side still needs before it may go out (empty = it may go out)."""
    if have is None:
        have = book_counts(melds)
    need = (
        ("sambas", rules.required_sambas, "samba", "sambas"),
        ("sevens", rules.required_sevens, "book of 7s", "books of 7s"),
        ("wilds", rules.required_wilds, "book of wilds", "books of wilds"),
        ("clean", rules.required_clean, "clean book", "clean books"),
        ("dirty", rules.required_dirty, "dirty book", "dirty books"),
    )
    out = []
    for key, n, one, more in need:
        if have[key] < n:
            out.append(f"{n - have[key]} more {one if n - have[key] == 1 else more}")
    return out


def missing_book_words(
    rules: HandFootRules, melds: Sequence[Meld], have: dict[str, int] | None = None
) -> list[Said]:
    """:func:`missing_books` as catalog messages (issue 34: told in the reader's language; the
    English is the same text)."""
    if have is None:
        have = book_counts(melds)
    out = []
    n = rules.required_sambas - have["sambas"]
    if n > 0:
        out.append(ngettext("{count} more samba", "{count} more sambas", n, count=n))
    n = rules.required_sevens - have["sevens"]
    if n > 0:
        out.append(ngettext("{count} more book of 7s", "{count} more books of 7s", n, count=n))
    n = rules.required_wilds - have["wilds"]
    if n > 0:
        out.append(
            ngettext("{count} more book of wilds", "{count} more books of wilds", n, count=n)
        )
    n = rules.required_clean - have["clean"]
    if n > 0:
        out.append(ngettext("{count} more clean book", "{count} more clean books", n, count=n))
    n = rules.required_dirty - have["dirty"]
    if n > 0:
        out.append(ngettext("{count} more dirty book", "{count} more dirty books", n, count=n))
    return out


def red_three_score(rules: HandFootRules, count: int) -> int:
    """Seed 004: "If a team manages to get 7 red 3s they have created a book and will get 1000
    points for the book. If they get additional red 3s they get 100 points for each one."

    >>> red_three_score(HandFootRules(), 3), red_three_score(HandFootRules(), 7)
    (300, 1000)
    >>> red_three_score(HandFootRules(), 9)
    1200
    """
    if count >= 7:
        return rules.red_three_book + (count - 7) * rules.red_three_bonus
    return count * rules.red_three_bonus


def hand_penalty(rules: HandFootRules, cards: Sequence[Card]) -> tuple[int, int]:
    """(card points, black-3 penalty) of cards left in a hand, both ≥ 0."""
    points = sum(card_value(c) for c in cards if not is_black_three(c))
    black = sum(rules.black_three_penalty for c in cards if is_black_three(c))
    return points, black


def side_score(
    rules: HandFootRules,
    *,
    melds: Sequence[Meld],
    red_threes: int,
    exact_cuts: int,
    went_out: bool,
    left_in_hand: Sequence[Card],
) -> dict[str, int]:
    """The breakdown and ``total`` of one partnership's round score."""
    books = book_counts(melds)
    points, black = hand_penalty(rules, left_in_hand)
    out = {
        "exact_cut": exact_cuts * rules.exact_cut_bonus,
        "going_out": rules.going_out_bonus if went_out else 0,
        "red_threes": red_three_score(rules, red_threes),
        "sambas": books["sambas"] * rules.samba_bonus,
        "sevens_books": books["sevens"] * rules.sevens_bonus,
        "wild_books": books["wilds"] * rules.wilds_bonus,
        "clean_books": books["clean"] * rules.clean_bonus,
        "dirty_books": books["dirty"] * rules.dirty_bonus,
        "table_cards": sum(card_value(c) for m in melds for c in m.cards),
        "hand_cards": -points,
        "black_threes": -black,
    }
    out["total"] = sum(out.values())
    return out


def cards_of(count_vector: Sequence[int]) -> list[Card]:
    return expand(count_vector)
