"""The score of one bridge deal, row by row from the seed's tables (seed 003, RULES.md §5).

Trick score (below the line) per odd trick bid and made: ♣♦ 20, ♥♠ 30, notrump 40 for the first
and 30 for each after; ×2 doubled, ×4 redoubled.  Everything else is above the line: overtricks,
game / slam / grand-slam bonuses, the bonus for making a doubled or redoubled contract, the
partscore bonus, honors, and the defenders' points for undertricks.

>>> s = score_deal(Contract.parse("4♥X"), 11, vulnerable=True)
>>> [(i.what, i.points, i.below) for i in s.declarer]
[('trick score', 240, True), ('1 overtrick doubled', 200, False), ('game', 500, False), ('making doubled', 50, False)]
>>> s.declarer_total, s.defenders_total
(990, 0)
>>> score_deal(Contract.parse("3NT"), 7, vulnerable=False).defenders_total
100
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.said import N_, Said, ngettext
from parlour.scoring.contract import Contract, Doubling, HonorKind, Honors, Strain

__all__ = [
    "FOURTH_DEAL_PARTSCORE_BONUS",
    "GAME_TRICK_SCORE",
    "STANDALONE_PARTSCORE_BONUS",
    "DealScore",
    "ScoreItem",
    "game_bonus",
    "honors_points",
    "insult_bonus",
    "overtrick_points",
    "score_deal",
    "slam_bonus",
    "trick_score",
    "undertrick_points",
]

#: Trick points below the line that make a game.
GAME_TRICK_SCORE = 100
#: "Non-game bid made on 4th deal" (seed 003 bonus table).
FOURTH_DEAL_PARTSCORE_BONUS = 100
#: A partscore made when every deal is scored alone (``partscore_carryover`` off; RULES.md §5).
STANDALONE_PARTSCORE_BONUS = 50

_TRICK_VALUE = {
    Strain.CLUBS: 20,
    Strain.DIAMONDS: 20,
    Strain.HEARTS: 30,
    Strain.SPADES: 30,
    Strain.NOTRUMP: 30,
}
# Undertricks, doubled: down 1, 2, 3, 4, then this much for each additional trick.
_DOUBLED_SETS = {False: (100, 300, 500, 800), True: (200, 500, 800, 1100)}
_DOUBLED_EACH_MORE = 300


@dataclass(frozen=True)
class ScoreItem:
    """One line on the score sheet: what it is for, the points, below or above the line."""

    what: str
    points: int
    below: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "what": self.what,
            "points": self.points,
            "line": "below" if self.below else "above",
        }


@dataclass(frozen=True)
class DealScore:
    """Both sides' points from one deal: the declaring side's and the defenders'."""

    declarer: tuple[ScoreItem, ...]
    defenders: tuple[ScoreItem, ...]
    made: bool
    game: bool

    @property
    def declarer_total(self) -> int:
        return sum(i.points for i in self.declarer)

    @property
    def defenders_total(self) -> int:
        return sum(i.points for i in self.defenders)

    @property
    def below(self) -> int:
        """Trick score the declaring side wrote below the line."""
        return sum(i.points for i in self.declarer if i.below)


def trick_score(contract: Contract) -> int:
    """Points below the line for the tricks bid and made (odd tricks only, not overtricks).

    >>> trick_score(Contract.parse("3NT")), trick_score(Contract.parse("2♣X"))
    (100, 80)
    """
    per_trick = _TRICK_VALUE[contract.strain]
    first_extra = 10 if contract.strain is Strain.NOTRUMP else 0
    return (per_trick * contract.level + first_extra) * contract.doubling


def overtrick_points(contract: Contract, overtricks: int, vulnerable: bool) -> int:
    """Overtricks: trick value each undoubled; doubled 100 / 200, redoubled 200 / 400 (NV / V)."""
    if contract.doubling is Doubling.UNDOUBLED:
        return _TRICK_VALUE[contract.strain] * overtricks
    each = (200 if vulnerable else 100) * (contract.doubling // 2)
    return each * overtricks


def undertrick_points(down: int, doubling: Doubling, vulnerable: bool) -> int:
    """Defenders' points for a set of ``down`` tricks (seed 003 "Sets" table).

    >>> [undertrick_points(n, Doubling.DOUBLED, False) for n in range(1, 7)]
    [100, 300, 500, 800, 1100, 1400]
    """
    if down <= 0:
        return 0
    if doubling is Doubling.UNDOUBLED:
        return (100 if vulnerable else 50) * down
    steps = _DOUBLED_SETS[vulnerable]
    doubled = steps[min(down, 4) - 1] + _DOUBLED_EACH_MORE * max(0, down - 4)
    return doubled * (doubling // 2)


def game_bonus(vulnerable: bool) -> int:
    """Game bid and made (or completed by a partscore carried over): 300 NV, 500 V."""
    return 500 if vulnerable else 300


def slam_bonus(level: int, vulnerable: bool) -> int:
    """Small slam (6) 500 / 750, grand slam (7) 1,000 / 1,500, nothing below (NV / V)."""
    if level == 7:
        return 1500 if vulnerable else 1000
    if level == 6:
        return 750 if vulnerable else 500
    return 0


def insult_bonus(doubling: Doubling) -> int:
    """Making a doubled contract 50, a redoubled one 100."""
    return {Doubling.UNDOUBLED: 0, Doubling.DOUBLED: 50, Doubling.REDOUBLED: 100}[doubling]


def honors_points(kind: HonorKind) -> int:
    """Four trump honors in one hand 100, five 150, four aces at notrump 150."""
    return 100 if kind is HonorKind.FOUR_TRUMPS else 150


def _tricks_item(n: int, doubling: Doubling, *, over: bool) -> Said:
    """ "2 overtricks doubled", "1 undertrick": one catalog message each (issue 34: the sheet
    is told in its reader's language)."""
    if over:
        if doubling is Doubling.DOUBLED:
            return ngettext("{count} overtrick doubled", "{count} overtricks doubled", n, count=n)
        if doubling is Doubling.REDOUBLED:
            return ngettext(
                "{count} overtrick redoubled", "{count} overtricks redoubled", n, count=n
            )
        return ngettext("{count} overtrick", "{count} overtricks", n, count=n)
    if doubling is Doubling.DOUBLED:
        return ngettext("{count} undertrick doubled", "{count} undertricks doubled", n, count=n)
    if doubling is Doubling.REDOUBLED:
        return ngettext("{count} undertrick redoubled", "{count} undertricks redoubled", n, count=n)
    return ngettext("{count} undertrick", "{count} undertricks", n, count=n)


def score_deal(
    contract: Contract,
    tricks: int,
    *,
    vulnerable: bool,
    honors: Honors | None = None,
    partial_before: int = 0,
    fourth_deal: bool = False,
    carryover: bool = True,
) -> DealScore:
    """Score one deal.  ``vulnerable`` is the declaring side's vulnerability.

    ``partial_before`` is the declaring side's trick score already below the line in this game
    (the partscores carried over); a game is scored when it and this deal's trick score reach 100.
    With ``carryover`` off the deal stands alone: a game needs 100 in this deal, and a partscore
    earns 50.  With it on, a partscore made on the fourth deal that does not complete a game
    earns 100 (``fourth_deal``).
    """
    declarer: list[ScoreItem] = []
    defenders: list[ScoreItem] = []
    need = contract.tricks_needed
    made = tricks >= need
    game = False
    if made:
        below = trick_score(contract)
        declarer.append(ScoreItem(N_("trick score"), below, below=True))
        over = tricks - need
        if over:
            points = overtrick_points(contract, over, vulnerable)
            declarer.append(ScoreItem(_tricks_item(over, contract.doubling, over=True), points))
        game = (partial_before if carryover else 0) + below >= GAME_TRICK_SCORE
        if game:
            declarer.append(ScoreItem(N_("game"), game_bonus(vulnerable)))
        elif not carryover:
            declarer.append(ScoreItem(N_("partscore"), STANDALONE_PARTSCORE_BONUS))
        elif fourth_deal:
            declarer.append(ScoreItem(N_("partscore on the 4th deal"), FOURTH_DEAL_PARTSCORE_BONUS))
        if contract.level >= 6:
            name = N_("grand slam") if contract.level == 7 else N_("slam")
            declarer.append(ScoreItem(name, slam_bonus(contract.level, vulnerable)))
        if contract.doubling is not Doubling.UNDOUBLED:
            name = (
                N_("making doubled")
                if contract.doubling is Doubling.DOUBLED
                else N_("making redoubled")
            )
            declarer.append(ScoreItem(name, insult_bonus(contract.doubling)))
    else:
        down = need - tricks
        points = undertrick_points(down, contract.doubling, vulnerable)
        defenders.append(ScoreItem(_tricks_item(down, contract.doubling, over=False), points))
    if honors is not None:
        honors.check(contract)
        name = {
            HonorKind.FOUR_TRUMPS: N_("four trump honors"),
            HonorKind.FIVE_TRUMPS: N_("five trump honors"),
            HonorKind.FOUR_ACES: N_("four aces"),
        }[honors.kind]
        (defenders if honors.defenders else declarer).append(
            ScoreItem(name, honors_points(honors.kind))
        )
    return DealScore(tuple(declarer), tuple(defenders), made, game)
