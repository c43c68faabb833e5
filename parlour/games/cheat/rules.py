"""The options of Cheat / I Doubt It / Bullshit and its named variants.

>>> CheatRules().rank_rule, CheatRules().max_cards, CheatRules(players=10).packs
('ascending', None, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core.errors import RulesError
from parlour.core.rules import Rules, option
from parlour.core.said import N_

RANK_RULES = (
    "ascending",
    "bullshit",
    "descending",
    "descending_from_twos",
    "up_or_down",
    "same_up_or_down",
    "free",
)
#: the rank the first claim must name under each rank rule (None: any rank)
OPENING_RANK: dict[str, int | None] = {
    "ascending": 14,
    "bullshit": 2,
    "descending": 14,
    "descending_from_twos": 2,
    "up_or_down": None,
    "same_up_or_down": None,
    "free": None,
}
FIRST_PLAYERS = ("auto", "random", "two_of_clubs", "highest_card", "dealer_chooses")


# source: the option and preset texts below restate seed 001_e8630c614840283e.txt (I Doubt It /
# Cheat, pagat) and seed 000_0fa2fe02243ab02b.txt (Bullshit and its national variants; the seeds
# are listed in docs/sources.md); each option's comment names its source.


@dataclass(frozen=True)
class CheatRules(Rules):
    players: int = option(4, "number of players", min=2, max=10)
    # source: seed 001 "One standard pack of 52 cards is used"; "If there are a lot of players,
    # you may use two or more packs shuffled together"
    decks: int = option(
        1,
        "52-card packs shuffled together: one pack serves any number of players; with many "
        "players two or more packs may be shuffled together",
        min=1,
        max=8,
    )
    # source: seed 000 "a stand-in for any other card"
    jokers: int = option(
        0,
        "jokers added to the pack; a joker is wild — it matches any claimed rank when a play "
        "is exposed",
        min=0,
        max=16,
    )
    # source: ascending and descending seed 001; bullshit and descending_from_twos seed 000
    # ("you will start with twos, then move back to aces, kings, queens")
    rank_rule: str = option(
        "ascending",
        "which rank must be claimed: ascending (A first, then 2 … K, A …), bullshit (the "
        "holder of 2♣ starts with 2s, then 3 … A, 2 …), descending (A, K, Q …), "
        "descending_from_twos (the holder of 2♣ starts with 2s, then A, K, Q …), up_or_down "
        "(next rank above or below the previous claim), same_up_or_down (same, above or "
        "below), free (any rank; all cards of a play claimed equal — Chinese 吹牛)",
        choices=RANK_RULES,
    )
    # source: random seed 001; two_of_clubs seed 000; highest_card and dealer_chooses seed 000
    # (Spain, Canada)
    first_player: str = option(
        "auto",
        "who plays first: random, two_of_clubs (the holder of 2♣ starts and that first play "
        "includes the 2♣), highest_card (Spain: the holder of the highest card — A♠ high, a "
        "joker above all), dealer_chooses (Canada: the dealer, the last seat, picks the first "
        "player); auto = two_of_clubs for the rank rules that open with 2s (bullshit, "
        "descending_from_twos), random otherwise; two_of_clubs needs a rank rule whose first "
        "claim may be 2s",
        choices=FIRST_PLAYERS,
    )
    # source: seed 001 "discarding one or more cards"; seed 000 online game "up to four"
    max_cards: int | None = option(
        None,
        "most cards in one play; None = any number (one or more cards); the online game "
        "(preset online) allows up to four",
        type=int,
        min=1,
        max=999,
        nullable=True,
    )
    # source: seed 001 "say three eights while playing three eights and a jack"
    overplay: bool = option(
        False,
        "a play may hold more cards than claimed (say three eights while playing three eights "
        "and a jack); the number of cards put down is then not announced and hand sizes are "
        "shown as counted from the claims",
    )
    # source: seed 000 (Hawaiian) "they can lie about the number of cards they are playing"
    overclaim: bool = option(
        False,
        "Hawaiian: a claim may name more cards than were put down (players may lie about the "
        "number of cards they play): up to the cards of one rank in the pack (4 a pack, plus "
        "the jokers), the hand size as counted and max_cards; the number put down is then not "
        "announced. An over-claim is a lie: challenged, the player takes the pile",
    )
    # source: seed 000
    challenge_split: bool = option(
        True,
        "several wrong challengers split the pile evenly, the remainder one card each in seat "
        "order from the player's left; False = the first challenger in that order takes it all",
    )
    # source: next_rank seed 001; restart seed 000 "the next person in line will start another
    # round"
    after_challenge: str = option(
        "next_rank",
        "after a challenge the seat left of the challenged player plays: next_rank = the next "
        "rank in sequence after the challenged claim; restart = any rank (a new round starts)",
        choices=("next_rank", "restart"),
    )
    # source: seed 000 (Hawaiian)
    challenge_any_time: bool = option(
        False,
        "Hawaiian: the most recent play can still be challenged at any point before the next "
        "play — when nobody challenged in the blind window, the other seats are asked again, "
        "openly, in seat order from the player's left; the first to challenge does",
    )
    # source: seed 000
    play_on_for_places: bool = option(
        False,
        "when a player goes out the others play on for places until one is left",
    )
    # source: seed 000 (Canada, Spain)
    loser_mode: bool = option(
        False,
        "Canada/Spain: the aim is not to be left with the most cards when the game ends — "
        "everybody but the holder(s) of the most cards wins",
    )
    max_turns: int | None = option(
        1000,
        "safety cap: the game stops after this many plays and counts as cut short; the first "
        "player out wins if any, else the fewest cards (a tie for the fewest is a draw) — in "
        "loser_mode the holder(s) of most cards lose. Random players can cycle for ever, people "
        "finish far sooner; None = no cap",
        min=1,
        max=1_000_000,
        nullable=True,
    )

    @property
    def packs(self) -> int:
        """The number of 52-card packs shuffled together (``decks``)."""
        return self.decks

    @property
    def starter_rule(self) -> str:
        """``first_player`` with ``auto`` resolved."""
        if self.first_player != "auto":
            return self.first_player
        return "two_of_clubs" if OPENING_RANK.get(self.rank_rule) == 2 else "random"

    def check(self) -> None:
        opening = OPENING_RANK.get(self.rank_rule)
        if self.starter_rule == "two_of_clubs" and opening not in (None, 2):
            raise RulesError(
                N_(
                    "first_player: two_of_clubs makes the holder of 2♣ open with it, but "
                    "rank_rule={rule} opens with Aces, so that first play would be a forced "
                    "lie; choose a rank rule that opens with 2s (bullshit, descending_from_twos) "
                    "or with any rank (up_or_down, same_up_or_down, free), or another "
                    "first_player",
                    rule=self.rank_rule,
                )
                if opening == 14
                else N_(
                    "first_player: two_of_clubs makes the holder of 2♣ open with it, but "
                    "rank_rule={rule} opens with {rank}, so that first play would be a forced "
                    "lie; choose a rank rule that opens with 2s (bullshit, descending_from_twos) "
                    "or with any rank (up_or_down, same_up_or_down, free), or another "
                    "first_player",
                    rule=self.rank_rule,
                    rank=str(opening),
                )
            )
        if self.max_cards is not None and not isinstance(self.max_cards, int):
            raise RulesError(f"max_cards: must be a whole number or None, not {self.max_cards!r}")
        if self.max_turns is not None and not isinstance(self.max_turns, int):
            raise RulesError(f"max_turns: must be a whole number or None, not {self.max_turns!r}")


PRESETS: dict[str, dict[str, Any]] = {
    "cheat": {},
    "bullshit": {
        "rank_rule": "bullshit",
        "after_challenge": "restart",
        "play_on_for_places": True,
    },
    "descending": {"rank_rule": "descending"},
    "bullshit-descending": {
        "rank_rule": "descending_from_twos",
        "after_challenge": "restart",
        "play_on_for_places": True,
    },
    "up-or-down": {"rank_rule": "up_or_down"},
    "same-up-or-down": {"rank_rule": "same_up_or_down"},
    "online": {"rank_rule": "same_up_or_down", "after_challenge": "restart", "max_cards": 4},
    "overplay": {"overplay": True},
    "chinese": {"rank_rule": "free", "decks": 3, "max_cards": None},
    "canada": {
        "rank_rule": "bullshit",
        "first_player": "dealer_chooses",
        "after_challenge": "restart",
        "loser_mode": True,
    },
    "spain": {
        "rank_rule": "bullshit",
        "first_player": "highest_card",
        "after_challenge": "restart",
        "loser_mode": True,
    },
    "fours-hit": {"rank_rule": "bullshit", "after_challenge": "restart", "decks": 1},
    "eights-hit": {
        "rank_rule": "bullshit",
        "after_challenge": "restart",
        "decks": 2,
        "max_cards": 8,
    },
    "hawaiian": {
        "rank_rule": "bullshit",
        "after_challenge": "restart",
        "challenge_any_time": True,
        "overplay": True,
        "overclaim": True,
    },
}

PRESET_ALIASES = {
    "i-doubt-it": "cheat",
    "england": "cheat",
    "bologna": "bullshit",
    "indian": "bullshit",
    "bluff-challenge": "bullshit",
    "russian": "bullshit",
    "verish-ne-verish": "bullshit",
    "chui-niu": "chinese",
    "shuo-huang": "chinese",
    "bluff": "canada",
}

# source: cheat = seed 001; bullshit, bullshit-descending, online, canada, spain, fours-hit,
# eights-hit, hawaiian = seed 000; descending, up-or-down, same-up-or-down, overplay = seed 001
# variations (up-or-down also seed 000); chinese = seeds 001 and 000
PRESET_DOCS = {
    "cheat": "Cheat / I Doubt It: one pack for any number of players, a random first player "
    "claims Aces, then 2, 3 … K, A; one or more cards a play; after a challenge the seat left "
    "of the challenged player claims the next rank; the first player out who survives the "
    "challenges wins. Aliases: i-doubt-it, england.",
    "bullshit": "Bullshit (US): the holder of 2♣ starts with it and claims 2s, then 3 … A, 2 …; "
    "wrong challengers split the pile; after any challenge the next player starts a new round "
    "with any rank; the others play on for places. Aliases: bologna (Hoyle), indian / "
    "bluff-challenge (Indian Bluff is similar to the US game), russian / verish-ne-verish "
    "(Russia's Bullshit).",
    "descending": "Ranks go down: A, K, Q, J, 10 …",
    "bullshit-descending": "Bullshit in descending order: the holder of 2♣ starts with it and "
    "claims 2s, then A, K, Q … 3, 2, A …; otherwise as the bullshit preset.",
    "up-or-down": "Claim the rank next above or below the previous claim, cyclic A–2.",
    "same-up-or-down": "Claim the same rank as the previous claim or the next above or below.",
    "online": "The online game: up to four cards; any rank on the first turn and after an "
    "accusation, otherwise the same value or the next above or below.",
    "overplay": "Cheat where a play may hold more cards than claimed.",
    "chinese": "吹牛 / 说谎 (chuī niú): no restriction on the claimed rank, three packs "
    "shuffled together, any number of cards a play. Aliases: chui-niu, shuo-huang.",
    "canada": "Canadian Bluff: Bullshit order, the dealer picks who starts, and the aim is not "
    "to hold the most cards when someone goes out. Alias: bluff.",
    "spain": "Spanish Bluff: Bullshit order, the holder of the highest card starts, and the "
    "aim is not to hold the most cards when someone goes out.",
    "fours-hit": "Australian 'Fours hit': Bullshit with a single pack.",
    "eights-hit": "Australian 'Eights hit': Bullshit with two packs, up to 8 cards a play (our "
    "reading of the name).",
    "hawaiian": "Hawaiian Bullshit: a play can be challenged at any time before the next play "
    "(a late open round after the blind window), and players may lie about the number of "
    "cards they play: put down more cards than they claim (overplay) or claim more than they "
    "put down (overclaim).",
}
