"""The options of Samba Hand and Foot and its presets.

Source: seed ``004_bae80ddcdedd4514.txt`` (docs/sources.md); option docs say "standard"
for what it gives.

Every point the seed leaves open is an option here; the defaults are what the seed says or, where it
is silent, what hand-and-foot players usually do (written in each option's doc).
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.errors import RulesError
from parlour.core.rules import Rules, option
from parlour.core.said import N_


@dataclass(frozen=True)
class HandFootRules(Rules):
    """Samba Hand and Foot rules (seed 004).

    >>> HandFootRules().opening_minimums
    (50, 90, 120, 150)
    """

    players: int = option(4, "number of players (two partnerships of two)", choices=(4,))
    decks: int = option(7, "52-card decks in the pack (standard: 7)", min=4, max=10)
    jokers_per_deck: int = option(2, "jokers added with each deck (standard: 2)", min=0, max=4)
    stack_size: int = option(
        15,
        "cards in each of the two stacks a player deals (hand and foot; standard: 15)",
        min=5,
        max=20,
    )
    draw_count: int = option(
        4,
        "cards drawn from the stock at the start of a turn (standard: 4; other games 2 or 3)",
        min=1,
        max=6,
    )
    opening_minimums: tuple[int, ...] = option(
        (50, 90, 120, 150),
        "meld minimum of each round; the match has one round per entry (standard: 50, 90, 120, 150)",
        min=0,
        max_items=20,
    )
    pile_take: int = option(
        8,
        "the discard pile may be taken once it holds at least this many cards; the taker gets the "
        "top card plus the next (this − 1) cards (standard: 8 = top card + 7)",
        min=2,
        max=20,
    )
    cut_spread: float = option(
        3.0,
        "how a player's cut is modelled: the portion taken is 30 + round(N(0, cut_spread)) cards, "
        "drawn from the deal seed; exactly 30 scores the exact-cut bonus (3.0 ≈ 13% of cuts; "
        "0 = every cut exact)",
        min=0.0,
        max=20.0,
    )
    exact_cut_bonus: int = option(100, "bonus to the side of a player whose cut is exactly 30")
    going_out_bonus: int = option(2000, "bonus for the side that goes out")
    red_three_bonus: int = option(100, "each red 3 laid out (standard: 100)")
    red_three_book: int = option(
        1000, "a side's 7 red 3s form a book worth this (each further red 3 adds red_three_bonus)"
    )
    samba_bonus: int = option(2000, "each samba (A K Q J 10 9 8 of one suit)")
    sevens_bonus: int = option(2000, "each book of seven 7s")
    wilds_bonus: int = option(2000, "each book of seven wild cards")
    clean_bonus: int = option(500, "each clean book (no wild cards)")
    dirty_bonus: int = option(300, "each dirty book (with wild cards)")
    black_three_penalty: int = option(100, "each black 3 left in a hand (or unplayed foot)")
    required_sambas: int = option(1, "sambas a side needs to go out", min=0, max=4)
    required_sevens: int = option(1, "books of 7s a side needs to go out", min=0, max=4)
    required_wilds: int = option(1, "books of wilds a side needs to go out", min=0, max=4)
    required_clean: int = option(5, "clean books a side needs to go out", min=0, max=12)
    required_dirty: int = option(1, "dirty books a side needs to go out", min=0, max=12)
    foot_counts_against: bool = option(
        True,
        "a house rule where the standard rules are silent: a foot never picked up counts against its side like cards in hand "
        "(usual hand-and-foot practice)",
    )
    stock_out: str = option(
        "end_round",
        "a house rule where the standard rules are silent: when a player must draw and the stock is empty — 'end_round' (usual "
        "hand-and-foot rule: the round ends at once, nobody gets the going-out bonus; the player "
        "may still take the pile instead if allowed) or 'reshuffle' (the discard pile below its "
        "top card is shuffled into a new stock; the round ends when that leaves nothing to draw). "
        "Either way, a draw that empties the stock and leaves the player no legal play (red 3s "
        "that could not be replaced) ends the round",
        choices=("end_round", "reshuffle"),
    )
    # source: seed 004 "without looking take the next 7 cards from the bottom of the stack,
    # keeping them face down. Set them to the side" — the default; face up is a house rule
    pile_cards_face_up: bool = option(
        False,
        "a house rule: the cards taken with the pile (below its top card) are set aside face up "
        "for everyone to see until they join the hand (the standard rule takes them without "
        "looking and keeps them face down)",
    )
    rotate_partners: bool = option(
        False,
        "variation: partners change each round (seats 0+2 / 1+3, then 0+1 / 2+3, then "
        "0+3 / 1+2, …; play alternates between the partnerships); scores are individual and the "
        "highest individual total wins",
    )
    cut_each_round: bool = option(
        False,
        "cut for the first player every round (the usual way with rotate_partners); off: cut "
        "once, then the first player passes to the left each round",
    )
    max_hands: int | None = option(
        None,
        "safety cap: stop the match after this many rounds (None = play every round)",
        type=int,
        min=1,
    )

    def check(self) -> None:
        if not self.opening_minimums:
            raise RulesError(N_("opening_minimums: the match needs at least one round"))
        for m in self.opening_minimums:
            if not isinstance(m, int) or isinstance(m, bool) or m < 0:
                raise RulesError(
                    N_("opening_minimums: {value} is not a whole number ≥ 0", value=repr(m))
                )
        cards = self.decks * 52 + self.decks * self.jokers_per_deck
        dealt = self.players * 2 * self.stack_size
        if cards < dealt + self.pile_take + 10:
            raise RulesError(
                N_(
                    "decks: {decks} decks ({cards} cards) are too few to deal {players} × 2 "
                    "stacks of {size} and keep a stock",
                    decks=self.decks,
                    cards=cards,
                    players=self.players,
                    size=self.stack_size,
                )
            )

    @property
    def rounds(self) -> int:
        """Rounds in the match (one per opening minimum, cut short by ``max_hands``)."""
        n = len(self.opening_minimums)
        return n if self.max_hands is None else min(n, self.max_hands)


PRESETS: dict[str, dict[str, object]] = {
    "handfoot": {},
    "rotate": {"rotate_partners": True, "cut_each_round": True},
}

# source: handfoot = seed 004 as given; rotate = seed 004 "variation"
PRESET_DOCS: dict[str, str] = {
    "handfoot": (
        "Samba Hand and Foot: 4 players in two fixed partnerships, 7 decks with 14 jokers, hand "
        "and foot of 15, draw 4, pile taken at 8 cards, four rounds with minimums "
        "50/90/120/150. House rules where the standard rules are silent (options): an empty "
        "stock ends the round "
        "(stock_out='end_round', nobody gets the going-out bonus), an unpicked foot counts "
        "against its side, the first player passes left each round after the first cut."
    ),
    "rotate": (
        "The rotating variation: partners change every round and each round starts with a cut "
        "for first player; scores are individual, the highest individual total wins."
    ),
}
