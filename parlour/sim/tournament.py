"""Tournaments between bots: a plan of seeded games (duplicate deals if asked), results per game,
and a summary per bot with intervals and ratings.

Bots sit by *side*: with one name per side (``--bots A,B`` in 4-player Samba) bot ``i`` plays every
seat of side ``i`` (A at seats 0 and 2, B at 1 and 3); with one name per seat each seat gets its own;
with fewer names than sides, dividing them (``--bots A,B`` in 4-player Cheat, every player a side of
its own), the bots take turns round the table (A at seats 0 and 2, B at 1 and 3) and a bot's sides
count as one *team*: it wins a game when any of its sides wins.
A **duplicate** tournament plays every deal once per rotation of that assignment (bots move one
side — or one seat — along each time, the cards stay where they were), so the luck of the deal
cancels as in duplicate bridge.  Every game records its match seed and seating: ``play_match(variant,
seed, seating)`` replays it exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from parlour.core.game import Outcome
from parlour.core.outcome import Termination, TieRule, winners
from parlour.core.registry import Variant
from parlour.core.rng import derive_seed
from parlour.sim.match import play_match
from parlour.sim.stats import bradley_terry, mean_interval, wilson


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament: which deal, which match seed, who sits where."""

    index: int
    deal: int
    rotation: int
    seed: int
    seating: tuple[str, ...]


@dataclass(frozen=True)
class GameResult:
    """What a tournament keeps of a finished game (enough to replay it: seed + seating)."""

    index: int
    deal: int
    rotation: int
    seed: int
    seating: tuple[str, ...]
    side_labels: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    hands: tuple[tuple[float, ...], ...]
    termination: str
    decisions: int
    seconds: float = field(default=0.0, compare=False)
    #: how the match ended (``Outcome.kind``: finished, stock_out, capped, abandoned)
    kind: str = "finished"
    #: the side that won each hand alone (``-1``: nobody), see :func:`hand_winners`; empty in
    #: results made before it was kept (the hand scores decide then)
    hand_won_by: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def sides_of(variant: Variant) -> tuple[tuple[int, ...], ...]:
    game = variant.game
    return tuple(tuple(s) for s in game.outcome(variant.new_game(0)).sides)


def seatings(variant: Variant, bots: Sequence[str]) -> list[tuple[str, ...]]:
    """Every rotation of the bots over the table (the first is the one asked for)."""
    sides = sides_of(variant)
    seats = sum(len(s) for s in sides)
    if not bots:
        raise ValueError("name at least one bot")
    if len(bots) == len(sides):
        out = []
        for r in range(len(sides)):
            seating = [""] * seats
            for i, side in enumerate(sides):
                for seat in side:
                    seating[seat] = bots[(i - r) % len(bots)]
            out.append(tuple(seating))
        return out
    if len(bots) == seats:
        return [tuple(bots[(s - r) % seats] for s in range(seats)) for r in range(seats)]
    k = len(bots)
    if len(sides) % k == 0:  # fewer bots than sides: they take turns round the table
        out = []
        for r in range(k):
            seating = [""] * seats
            for i, side in enumerate(sides):
                for seat in side:
                    seating[seat] = bots[(i - r) % k]
            out.append(tuple(seating))
        return out
    raise ValueError(
        f"{variant.name} with {seats} players has {len(sides)} sides: give one bot per side "
        f"({len(sides)} names), one per seat ({seats} names) or a number of bots that divides "
        f"the sides, not {len(bots)}"
    )


def plan(
    variant: Variant, bots: Sequence[str], deals: int, seed: int = 0, duplicate: bool = False
) -> list[GameSpec]:
    """The games to play: ``deals`` deals, each once per rotation when ``duplicate``.

    Without duplicate the seating still rotates from deal to deal so no bot keeps one seat."""
    if deals < 1:
        raise ValueError(f"--games must be at least 1, got {deals}")
    rotations = seatings(variant, bots)
    specs: list[GameSpec] = []
    for d in range(deals):
        match_seed = derive_seed(seed, "match", d)
        chosen = range(len(rotations)) if duplicate else [d % len(rotations)]
        for r in chosen:
            specs.append(GameSpec(len(specs), d, r, match_seed, rotations[r]))
    return specs


def run_game(variant: Variant, spec: GameSpec) -> GameResult:
    """Play one planned game (in whatever process the executor chose)."""
    started = time.perf_counter()
    result = play_match(variant, spec.seed, spec.seating, record=False)
    out = result.outcome
    labels = tuple("+".join(sorted({spec.seating[s] for s in side})) for side in out.sides)
    return GameResult(
        index=spec.index,
        deal=spec.deal,
        rotation=spec.rotation,
        seed=spec.seed,
        seating=spec.seating,
        side_labels=labels,
        scores=tuple(float(x) for x in out.scores),
        winners=tuple(out.winners),
        hands=tuple(tuple(float(x) for x in h.scores) for h in out.hands),
        termination=out.termination,
        decisions=result.stats.decisions,
        seconds=time.perf_counter() - started,
        kind=out.kind,
        hand_won_by=hand_winners(out),
    )


def hand_winners(outcome: Outcome) -> tuple[int, ...]:
    """The side that won each hand of a match alone, ``-1`` where nobody did.

    A hand is won by the side with the highest hand score among the sides still playing, when
    no other such side has it too.  Sides put out of the match (a hand's ``note_data["out"]``
    names the seats it put out, as in Scat) no longer count: their 0 does not tie with the
    survivor of a heads-up hand.  So in Scat played for lives a hand has a winner when one
    player makes 31 (everyone else loses a life) or when two players are left; a hand where
    everyone but the loser keeps their lives has none."""
    side_of = {seat: i for i, side in enumerate(outcome.sides) for seat in side}
    gone: set[int] = set()
    out: list[int] = []
    for hand in outcome.hands:
        playing = [i for i in range(len(hand.scores)) if i not in gone]
        best = max((hand.scores[i] for i in playing), default=0.0)
        top = [i for i in playing if hand.scores[i] == best]
        out.append(top[0] if len(top) == 1 and len(playing) > 1 else -1)
        for seat in (hand.note_data or {}).get("out", ()):
            if seat in side_of:
                gone.add(side_of[seat])
    return tuple(out)


def teams(labels: Sequence[str]) -> list[tuple[str, tuple[int, ...]]]:
    """The sides of one game grouped by the bot that played them: ``(label, sides)``.  When
    bots took turns round the table (``A,B,A,B``) each bot's sides are one team; when every side
    has the same label (self-play) each side stays a team of its own."""
    if len(set(labels)) == 1:
        return [(label, (i,)) for i, label in enumerate(labels)]
    grouped: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        grouped.setdefault(label, []).append(i)
    return [(label, tuple(sides)) for label, sides in grouped.items()]


def team_won(sides: Sequence[int], winners: Iterable[int]) -> bool:
    """Whether a team won: any of its sides is among the winners."""
    return any(i in sides for i in winners)


def _team_diff(scores: Sequence[float], sides: Sequence[int]) -> float:
    """A team's mean score minus the mean score of the other sides (alone: its score)."""
    rest = [x for i, x in enumerate(scores) if i not in sides]
    own = sum(scores[i] for i in sides) / len(sides)
    return float(own - sum(rest) / len(rest)) if rest else float(own)


def _hand_winners(scores: Sequence[float]) -> set[int]:
    """The side that won a hand, from its scores alone (results without ``hand_won_by``): the
    one with the highest hand score, alone; when it is shared nobody won the hand."""
    best = winners(scores, TieRule.SHARE)
    return set(best) if len(best) == 1 else set()


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    hands: int = 0
    hand_wins: int = 0
    by_deal: dict[int, list[float]] = field(default_factory=dict)
    hand_diffs: list[float] = field(default_factory=list)


def summarize(results: Iterable[GameResult], *, bt_prior: float = 1.0) -> dict[str, Any]:
    """Per bot (side label): games, wins, draws, win rate with a 95 % Wilson interval, hands and
    hands won alone (Wilson; see :func:`_hand_winners`), mean score difference per game with a 95 % interval (over deals, so a
    duplicate deal counts once), mean difference per hand, and Bradley–Terry ratings (Elo scale)
    with standard errors."""
    results = sorted(results, key=lambda r: r.index)
    tallies: dict[str, _Tally] = {}
    pairwise: dict[tuple[str, str], float] = {}
    for res in results:
        grouped = teams(res.side_labels)
        won = [team_won(sides, res.winners) for _, sides in grouped]
        for (label, sides), w in zip(grouped, won, strict=True):
            t = tallies.setdefault(label, _Tally())
            t.games += 1
            if not res.winners:
                t.draws += 1
            elif w:
                t.wins += 1
            t.by_deal.setdefault(res.deal, []).append(_team_diff(res.scores, sides))
            won_by = res.hand_won_by
            for h, hand in enumerate(res.hands):
                t.hands += 1
                if len(won_by) == len(res.hands):
                    if won_by[h] in sides:
                        t.hand_wins += 1
                elif team_won(sides, _hand_winners(hand)):
                    t.hand_wins += 1
                t.hand_diffs.append(_team_diff(hand, sides))
        for i, (a, _) in enumerate(grouped):
            for j, (b, _) in enumerate(grouped):
                if i == j or a == b:
                    continue
                pts = 0.5 if not res.winners or won[i] == won[j] else float(won[i])
                pairwise[(a, b)] = pairwise.get((a, b), 0.0) + pts
    names = sorted(tallies)
    ratings = (
        {r.name: r for r in bradley_terry(pairwise, names, prior=bt_prior)} if pairwise else {}
    )
    bots: dict[str, Any] = {}
    for name in names:
        t = tallies[name]
        lo, hi = wilson(t.wins, t.games)
        hlo, hhi = wilson(t.hand_wins, t.hands) if t.hands else (0.0, 1.0)
        deal_means = [sum(v) / len(v) for _, v in sorted(t.by_deal.items())]
        m, mlo, mhi = mean_interval(deal_means)
        hm, hmlo, hmhi = mean_interval(t.hand_diffs)
        rating = ratings.get(name)
        bots[name] = {
            "games": t.games,
            "wins": t.wins,
            "draws": t.draws,
            "win_rate": t.wins / t.games if t.games else 0.0,
            "win_rate_ci": [lo, hi],
            "hands": t.hands,
            "hands_won": t.hand_wins,
            "hand_win_rate": t.hand_wins / t.hands if t.hands else 0.0,
            "hand_win_rate_ci": [hlo, hhi],
            "mean_score_diff": m,
            "mean_score_diff_ci": [mlo, mhi],
            "mean_hand_score_diff": hm,
            "mean_hand_score_diff_ci": [hmlo, hmhi],
            "elo": rating.elo if rating else 0.0,
            "elo_stderr": rating.stderr if rating else 0.0,
        }
    return {
        "games": len(results),
        "deals": len({r.deal for r in results}),
        "decisions": sum(r.decisions for r in results),
        "endings": endings(r.kind for r in results),
        "bots": bots,
    }


def endings(kinds: Iterable[str]) -> dict[str, int]:
    """How many matches ended each way (``finished``, ``capped`` …), most common first."""
    counts: dict[str, int] = {}
    for k in kinds:
        counts[k or "unfinished"] = counts.get(k or "unfinished", 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def cap_note(endings: Mapping[str, int], games: int) -> str:
    """A warning line when a safety cap cut matches short (``""`` when none was)."""
    capped = endings.get(Termination.CAPPED, 0)
    if not capped:
        return ""
    return (
        f"{capped} of {games} matches were cut short by a safety cap (max_hands / max_turns) and "
        "were decided by the scores at the cap, not played to the end"
    )


def running_text(results: Sequence[GameResult]) -> str:
    """A one-line running result for progress bars: ``basic 12/15 · random 3/15``."""
    tally = RunningTally()
    for res in results:
        tally.add(res)
    return tally.text()


class RunningTally:
    """:func:`running_text` kept up game by game (a progress bar shows it after every game:
    counting every finished game again each time grew with the square of the games)."""

    def __init__(self) -> None:
        self.wins: dict[str, list[int]] = {}

    def add(self, res: GameResult) -> None:
        for label, sides in teams(res.side_labels):
            w = self.wins.setdefault(label, [0, 0])
            w[1] += 1
            if team_won(sides, res.winners):
                w[0] += 1

    def text(self) -> str:
        return " · ".join(f"{k} {w}/{n}" for k, (w, n) in sorted(self.wins.items()))


ProgressCallback = Callable[[GameResult, Sequence[GameResult]], None]


@dataclass
class Tournament:
    """A planned tournament: ``Tournament(variant, ["basic", "random"], games=50).run()``."""

    variant: Variant
    bots: Sequence[str]
    games: int = 10
    seed: int = 0
    duplicate: bool = False
    specs: list[GameSpec] = field(init=False)

    def __post_init__(self) -> None:
        self.specs = plan(self.variant, self.bots, self.games, self.seed, self.duplicate)

    def run(
        self,
        executor: str = "local",
        workers: int | None = None,
        address: str | None = None,
        progress: ProgressCallback | None = None,
        deadline: float | None = None,
    ) -> list[GameResult]:
        """The results in plan order: every game, or those finished when the ``deadline``
        (``time.monotonic()``) passed or Ctrl-C was pressed."""
        from parlour.sim.executors import run_specs

        return run_specs(
            self.variant,
            self.specs,
            executor=executor,
            workers=workers,
            address=address,
            progress=progress,
            deadline=deadline,
        )
