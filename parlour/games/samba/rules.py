"""Samba rules options (RULES.md §1) and the presets built from them.

Every reading where the seeds disagree or are silent is a named field; the engine reads fields and
never branches on a preset's name.

>>> SambaRules.from_json({"players": 6}).cards_per_player()
13
>>> SambaRules.from_json({"opening_table": "strict"})
Traceback (most recent call last):
...
parlour.core.errors.RulesError: opening_table: 'strict' is not allowed; allowed values: 'standard', 'high'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core.errors import RulesError
from parlour.core.rules import Rules, option
from parlour.core.said import N_

#: (score below which the row applies, minimum) — seed 002's table, filled from published rules
OPENING_TABLES: dict[str, tuple[tuple[float, int], ...]] = {
    "standard": ((0, 15), (1500, 50), (3000, 90), (7000, 120), (float("inf"), 150)),
    "high": ((0, 15), (1500, 50), (3000, 90), (7000, 120), (float("inf"), 160)),
}


@dataclass(frozen=True)
class SambaRules(Rules):
    """The options of Samba and Bolivia (see ``docs/games/samba.md``)."""

    players: int = option(4, "number of players (2, 3, 5 alone; 4 = 2×2; 6 = 3×2)", min=2, max=6)
    hand_size: int | None = option(
        None,
        "cards dealt to each player (None: 15, or 13 with 6 players)",
        type=int,
        min=5,
        max=20,
    )
    opening_table: str = option(
        "standard",
        "first-meld minimum by side score: standard 15/50/90/120/150, high: 160 from 7,000",
        choices=("standard", "high"),
    )
    red_threes_as_canasta: bool = option(
        False,
        "red 3s are laid out at once and replaced from the stock (not when taken with the pile)",
    )
    sequence_take_whole_pile: bool = option(
        False, "taking the top card onto a sequence takes the whole pile"
    )
    no_wild_on_canasta: bool = option(False, "wild cards may not be added to a finished canasta")
    partner_permission: bool = option(
        True, "a partner may be asked 'partner, may I go out?' (the answer binds)"
    )
    target_score: int = option(10000, "a side reaching this score at the end of a hand wins", min=1)
    upcard_redeal: bool = option(
        False, "a wild or 3 turned as upcard is buried in the stock and another turned"
    )
    wild_melds: bool = option(False, "melds of wild cards only are allowed (Bolivia)")
    bolivia_bonus: int = option(
        2500, "bonus for a meld of seven wild cards (with wild_melds)", min=0
    )
    going_out: str = option(
        "two_canastas",
        "going-out requirement: two sambas/canastas, or two 7-card melds with one a sequence",
        choices=("two_canastas", "two_sevens_one_sequence"),
    )
    # source: seed 002 "Black 3s: can be laid out as a group (following the normal group rules)
    # only in the turn in which you go out"; seed 000 the same ("following the normal rules for
    # groups"): wild cards are allowed in the group as in any group
    black_three_wilds: bool = option(
        True,
        "a group of black 3s (melded only on going out) may take wild cards, as any group: at "
        "most two, and at least twice as many black 3s (False: black 3s only)",
    )
    black_three_penalty: int = option(
        0, "cost of each black 3 left in hand (0: its card value of 5 counts)", min=0
    )
    # source: seed 002 "otherwise each costs 100 points"
    six_red_threes_penalty: int = option(
        600,
        "cost of all six red 3s laid out by a side without the going-out requirement "
        "(600: each costs 100 points; 1000: the bonus mirrored)",
        choices=(600, 1000),
    )
    max_hands: int | None = option(
        None,
        "safety cap: stop the match after this many hands (the match counts as cut short)",
        type=int,
        min=1,
    )

    def check(self) -> None:
        if self.players == 6 and self.hand_size is not None and self.hand_size * 6 > 150:
            raise RulesError(N_("hand_size: too many cards for six players"))

    def cards_per_player(self) -> int:
        if self.hand_size is not None:
            return self.hand_size
        return 13 if self.players == 6 else 15

    def opening_minimum(self, score: float) -> int:
        """The first-meld minimum for a side with this cumulative score."""
        for bound, minimum in OPENING_TABLES[self.opening_table]:
            if score < bound:
                return minimum
        raise AssertionError("unreachable")  # pragma: no cover


PRESETS: dict[str, dict[str, Any]] = {
    "samba": {},
    "bolivia": {
        "wild_melds": True,
        "going_out": "two_sevens_one_sequence",
        "target_score": 15000,
        "black_three_penalty": 100,
    },
}

# source: samba = seed 002 (002_91a2786a682fea8f.txt); bolivia = RULES.md §1 "Bolivia" (seeds
# 000/002/003 "Variants")
PRESET_DOCS = {
    "samba": "Samba: three decks and six jokers, sequences, sambas, canastas",
    "bolivia": "Bolivia: wild melds (7 = bolivia, 2,500), escalera, two 7-card melds with one a "
    "sequence to go out; house readings, not from the published rules: game to 15,000, black 3 "
    "in hand −100, nothing added to a bolivia",
}
