"""Scat / 31 / Blitz rules options and presets (seed ``001_e8630c614840283e.txt``, RULES.md §4).

>>> ScatRules().lives, ScatRules().knock_tie
(3, 'knocker_safe')
>>> ScatRules(players=12).decks  # "From 2 to 9 or more people can play" with one pack
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core.errors import RulesError
from parlour.core.rules import Rules, option

KNOCK_TIES = (
    "knocker_safe",
    "knocker_loses_two_others_one",
    "only_knocker_loses",
    "knocker_loses_two_others_safe",
)
SHOWDOWNS = ("lowest_loses", "knocker_must_be_highest", "highest_scores_point")
TOKENS = ("pennies", "nickels", "letters", "bus")


@dataclass(frozen=True)
class ScatRules(Rules):
    # source: seed 001 "From 2 to 9 or more people can play"; "A standard 52 card deck is used"
    players: int = option(
        4,
        "number of players (2 to 9 or more can play); one pack seats "
        "up to 16 (12 players leave a 15-card stock, 16 a 3-card one)",
        min=2,
        max=16,
    )
    decks: int = option(
        1,
        "packs shuffled together: one standard 52-card pack for any "
        "number of players; two is an option for a longer stock",
        choices=(1, 2),
    )
    lives: int = option(3, "lives (pennies) each player starts with", min=1, max=20)
    on_the_county: bool = option(
        True,
        "a player who has lost every life stays in 'on the county' until losing once more",
    )
    extra_levels: int = option(
        0,
        "extra lives agreed on for everyone (Ride the Bus: 'on the second step', 'asking the "
        "driver to stop' …)",
        min=0,
        max=10,
    )
    tokens: str = option(
        "pennies",
        "how lives are shown: pennies, nickels, letters G-I-N, bus positions",
        choices=TOKENS,
    )
    knock_tie: str = option(
        "knocker_safe",
        "tie for lowest involving the knocker: knocker_safe (the others lose one), "
        "knocker_loses_two_others_one (also: a 31 after a knock costs the knocker two), "
        "only_knocker_loses (the knocker loses one), knocker_loses_two_others_safe (Cadillac)",
        choices=KNOCK_TIES,
    )
    knocker_lowest_loses: int = option(
        2, "lives a knocker with the sole lowest hand loses", choices=(1, 2)
    )
    three_of_a_kind: float | None = option(
        None,
        "value of three cards of one rank (None: no special value)",
        type=float,
        choices=(None, 30, 30.5),
    )
    three_aces_33: bool = option(
        False, "three aces are a 'Grand Cadillac' worth 33, declared like a 31 (Cadillac)"
    )
    straight_flush_30: bool = option(
        False, "three cards of one suit in sequence are worth 30 (A-K-Q stays 31; ace high only)"
    )
    min_knock: int | None = option(
        None,
        "lowest hand value with which a player may knock (None: any)",
        type=int,
        min=1,
        max=33,
    )
    knock_needs_one_suit: bool = option(
        False, "a player may knock only holding three cards of one suit"
    )
    knock_first_round: bool = option(
        True, "players may knock during the first round of turns of a hand"
    )
    hammer: bool = option(
        False,
        "the first player may call a 'hammer' (knocking under the gun) instead of drawing: "
        "everyone shows at once, scored as a knock",
    )
    throw_down: bool = option(
        False,
        "'throw-down' / 'shotgun': the first player decides before looking at the cards whether "
        "to call an immediate showdown, scored as a knock",
    )
    showdown: str = option(
        "lowest_loses",
        "how a showdown is scored: lowest_loses (Scat), knocker_must_be_highest (GIN: a knock "
        "promises the highest hand), highest_scores_point (French Canadian: points to "
        "target_points)",
        choices=SHOWDOWNS,
    )
    target_points: int = option(
        31, "points that win the match when showdown=highest_scores_point", min=1, max=1000
    )
    poker_tiebreak: bool = option(
        False,
        "equal highest hands are split by the ranks of the point cards as in poker (A-10-9 beats "
        "K-Q-J); with highest_scores_point",
    )
    # source: seed 001 "the discard pile is always kept 'squared up' so that only the top card
    # is visible and available to be taken" — the default; open_pile is a house rule
    open_pile: bool = option(
        False,
        "a house rule: the discard pile is spread so every card in it can be seen (the standard "
        "rule keeps it squared up: only the top card is visible)",
    )
    max_hands: int | None = option(
        None,
        "safety cap: the match ends after this many hands (termination 'max_hands'; most lives "
        "or points wins)",
        type=int,
        min=1,
        max=100_000,
    )

    def check(self) -> None:
        if self.min_knock is not None and (
            not isinstance(self.min_knock, int) or isinstance(self.min_knock, bool)
        ):
            raise RulesError(f"min_knock: must be a whole number or None, not {self.min_knock!r}")

    @property
    def starting_lives(self) -> int:
        return self.lives + self.extra_levels

    @property
    def plays_for_points(self) -> bool:
        return self.showdown == "highest_scores_point"


PRESETS: dict[str, dict[str, Any]] = {
    "scat": {},
    "cadillac": {
        "lives": 4,
        "tokens": "nickels",
        "three_aces_33": True,
        "three_of_a_kind": 30,
        "knock_tie": "knocker_loses_two_others_safe",
    },
    "gin": {
        "showdown": "knocker_must_be_highest",
        "lives": 3,
        "on_the_county": False,
        "tokens": "letters",
        "three_of_a_kind": 30.5,
    },
    "ride_the_bus": {"lives": 4, "tokens": "bus"},
    "french_canadian": {
        "showdown": "highest_scores_point",
        "target_points": 31,
        "poker_tiebreak": True,
    },
}

PRESET_DOCS = {
    "scat": "Scat / 31 / Blitz: three pennies, lowest hand loses a life, 31 wins the hand",
    "cadillac": "Kent Hamilton's Cadillac: four nickels, Grand Cadillac A-A-A = 33, three of a "
    "kind 30, a knocker tied for lowest loses two and the others nothing",
    "gin": "Angie Barry's GIN: a knock promises the highest hand; letters G-I-N; three of a "
    "kind 30.5",
    "ride_the_bus": "Ride the Bus: seated, standing, middle, front, stairs, off (add "
    "extra_levels for 'the second step' …)",
    "french_canadian": "French Canadian 31: highest hand after a knock scores a point (poker-style "
    "tie-break, then the non-knocker wins ties), 31 scores a point, first to 31 points; add "
    "knock_needs_one_suit=true for Jeffrey Jacobs' version",
}
