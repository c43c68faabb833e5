"""The strength ladder (issue 19): a round robin of bots per game with duplicate deals,
Bradley–Terry ratings with 95 % intervals, and a page (``docs/ladder.md``) with one PNG per game.

Every pair of bots plays the same ``deals`` deals, each deal twice with the sides swapped (a
duplicate tournament, :mod:`parlour.sim.tournament`), so the luck of the cards cancels within a
pair and every pair faces the same cards.  All games of all pairs go to one executor run (process
pool or Ray), so the workers stay busy.  Each game's result is kept in ``docs/ladder/GAME.json``;
the page is rendered from every such file present, so re-running one game rewrites its section
and keeps the others.

Ratings: maximum-likelihood Bradley–Terry strengths fitted by the MM algorithm
(:func:`parlour.sim.stats.bradley_terry`; a draw counts half a win each way), with one virtual draw
per pair that met so a bot that won every game keeps a finite rating, on the Elo scale centred on
the mean; 95 % intervals are ``±1.96`` standard errors from the observed Fisher information
(not a bootstrap).
"""

from __future__ import annotations

import itertools
import json
import os
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour import games
from parlour.core.registry import Variant
from parlour.sim.stats import bradley_terry, wilson
from parlour.sim.tournament import GameResult, GameSpec, endings, plan, team_won, teams

DEFAULT_BOTS: tuple[str, ...] = ("random", "basic", "strong:0.1", "strong:0.3", "strong:1")


@dataclass(frozen=True)
class Setup:
    """How a game is played on the ladder: the table and what one "game" is."""

    players: int
    max_hands: int | None
    unit: str  # what one ladder game is, in words


#: One game per ladder game: the partnership games play one hand each (as bench/strength.py does —
#: a whole Samba or Hand and Foot match is thousands of decisions), Scat a whole game heads-up.
#: Cheat is a whole game of 4 players, bot A at seats 0 and 2 and bot B at 1 and 3 (swapped for
#: the duplicate deal), A winning when one of its seats goes out first: heads-up one-pack Cheat
#: looked decided by the deal, and at 4 players the deal does not decide (bench/seatluck.py:
#: among ``basic``'s deals whose two plays differed, the same seat won both in 18 of 50).
SETUPS: dict[str, Setup] = {
    "samba": Setup(4, 1, "one hand, 4 players in partnerships (bot A at seats 0 and 2)"),
    "handfoot": Setup(4, 1, "one hand, 4 players in partnerships (bot A at seats 0 and 2)"),
    "cheat": Setup(
        4,
        None,
        "one whole game, 4 players: bot A at seats 0 and 2, B at 1 and 3; A wins when one of "
        "its seats goes out first",
    ),
    "scat": Setup(2, None, "one whole game (players lose lives until one is left), 2 players"),
}
LADDER_GAMES: tuple[str, ...] = tuple(SETUPS)


def ladder_variant(game: str) -> Variant:
    """The variant a game is laddered in (see :data:`SETUPS`)."""
    setup = SETUPS.get(game)
    if setup is None:
        raise ValueError(f"no ladder for {game!r}; games: {', '.join(LADDER_GAMES)}")
    options: dict[str, Any] = {}
    if setup.max_hands is not None:
        options["max_hands"] = setup.max_hands
    return games.get(game, None, setup.players, **options)


@dataclass
class PairResult:
    """One pair's games: ``a`` against ``b`` over the same duplicate deals."""

    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    capped: int = 0

    @property
    def a_score(self) -> float:
        return self.a_wins + self.draws / 2

    @property
    def a_rate(self) -> float:
        return self.a_score / self.games if self.games else 0.0

    @property
    def a_interval(self) -> tuple[float, float]:
        return wilson(self.a_score, self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "capped": self.capped,
        }


@dataclass
class LadderResult:
    """A finished ladder of one game (everything the page shows, JSON-able)."""

    game: str
    preset: str
    bots: list[str]
    deals: int
    seed: int
    pairs: list[PairResult]
    ratings: dict[str, dict[str, float]]
    endings: dict[str, int]
    decisions: int
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "preset": self.preset,
            "bots": self.bots,
            "deals": self.deals,
            "seed": self.seed,
            "pairs": [p.to_json() for p in self.pairs],
            "ratings": self.ratings,
            "endings": self.endings,
            "decisions": self.decisions,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LadderResult:
        return cls(
            game=data["game"],
            preset=data["preset"],
            bots=list(data["bots"]),
            deals=int(data["deals"]),
            seed=int(data["seed"]),
            pairs=[PairResult(**p) for p in data["pairs"]],
            ratings=data["ratings"],
            endings=data["endings"],
            decisions=int(data["decisions"]),
            meta=data.get("meta", {}),
        )


def ladder_plan(
    variant: Variant, bots: Sequence[str], deals: int, seed: int
) -> tuple[list[GameSpec], list[tuple[str, str]]]:
    """Every game of the round robin, numbered across pairs, and the pair of each game.

    Every pair plays the same deals (match seeds derived from ``seed``), each once per rotation."""
    if len(set(bots)) != len(bots):
        raise ValueError(f"bots must differ: {', '.join(bots)}")
    if len(bots) < 2:
        raise ValueError("a ladder needs at least two bots")
    specs: list[GameSpec] = []
    owners: list[tuple[str, str]] = []
    for a, b in itertools.combinations(bots, 2):
        for s in plan(variant, [a, b], deals, seed, duplicate=True):
            specs.append(GameSpec(len(specs), s.deal, s.rotation, s.seed, s.seating))
            owners.append((a, b))
    return specs, owners


def tally(
    bots: Sequence[str], owners: Sequence[tuple[str, str]], results: Sequence[GameResult]
) -> tuple[list[PairResult], dict[str, dict[str, float]]]:
    """Pairwise results and Bradley–Terry ratings (Elo scale, 95 % interval) from the games."""
    by_pair: dict[tuple[str, str], PairResult] = {
        (a, b): PairResult(a, b) for a, b in itertools.combinations(bots, 2)
    }
    for res in sorted(results, key=lambda r: r.index):
        a, b = owners[res.index]
        pr = by_pair[(a, b)]
        pr.games += 1
        pr.capped += res.kind == "capped"
        grouped = dict(teams(res.side_labels))
        a_won, b_won = team_won(grouped[a], res.winners), team_won(grouped[b], res.winners)
        if a_won and not b_won:
            pr.a_wins += 1
        elif b_won and not a_won:
            pr.b_wins += 1
        else:
            pr.draws += 1
    pairwise: dict[tuple[str, str], float] = {}
    for pr in by_pair.values():
        if pr.games:
            pairwise[(pr.a, pr.b)] = pr.a_score
            pairwise[(pr.b, pr.a)] = pr.games - pr.a_score
    ratings: dict[str, dict[str, float]] = {}
    if pairwise:
        for r in bradley_terry(pairwise, list(bots), prior=1.0):
            lo, hi = r.interval
            ratings[r.name] = {"elo": r.elo, "stderr": r.stderr, "lo": lo, "hi": hi}
    return list(by_pair.values()), ratings


ProgressHook = Callable[[GameResult, Sequence[GameResult]], None]


def run_ladder(
    game: str,
    bots: Sequence[str] = DEFAULT_BOTS,
    deals: int = 2,
    seed: int = 0,
    *,
    executor: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: ProgressHook | None = None,
    variant: Variant | None = None,
    deadline: float | None = None,
) -> LadderResult:
    """Play the round robin of ``bots`` at ``game`` and fit the ratings (of the games finished
    when the ``deadline``, a ``time.monotonic()`` time, passed or Ctrl-C was pressed: the
    result's ``games`` and ``planned`` tell)."""
    from parlour.sim.executors import run_specs

    variant = variant or ladder_variant(game)
    specs, owners = ladder_plan(variant, bots, deals, seed)
    results = run_specs(
        variant,
        specs,
        executor=executor,
        workers=workers,
        address=address,
        progress=progress,
        deadline=deadline,
    )
    pairs, ratings = tally(bots, owners, results)
    return LadderResult(
        game=variant.name,
        preset=variant.preset,
        bots=list(bots),
        deals=deals,
        seed=seed,
        pairs=pairs,
        ratings=ratings,
        endings=endings(r.kind for r in results),
        decisions=sum(r.decisions for r in results),
    )


def machine() -> str:
    """``platform`` and CPU count, for the page."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return f"{platform.platform()}, Python {platform.python_version()}, {cpus} CPUs"


# --------------------------------------------------------------------------------------- output

TITLES = {"samba": "Samba", "handfoot": "Hand and Foot", "cheat": "Cheat", "scat": "Scat (31)"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def data_path(docs: Path, game: str) -> Path:
    return docs / "ladder" / f"{game}.json"


def png_path(docs: Path, game: str) -> Path:
    return docs / "img" / f"ladder-{game}.png"


def save(result: LadderResult, docs: Path) -> Path:
    path = data_path(docs, result.game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result.to_json(), indent=1, sort_keys=True) + "\n")
    return path


def load_all(docs: Path) -> list[LadderResult]:
    """Every saved ladder under ``docs/ladder/``, in the order of :data:`LADDER_GAMES`."""
    folder = docs / "ladder"
    found = {p.stem: p for p in folder.glob("*.json")} if folder.is_dir() else {}
    order = [g for g in LADDER_GAMES if g in found] + sorted(set(found) - set(LADDER_GAMES))
    return [LadderResult.from_json(json.loads(found[g].read_text())) for g in order]


def render_section(result: LadderResult) -> str:
    title = TITLES.get(result.game, result.game)
    setup = SETUPS.get(result.game)
    meta = result.meta
    games_per_pair = {p.games for p in result.pairs}
    lines = [
        f"## {title}",
        "",
        f"![{title} ladder](img/ladder-{result.game}.png)",
        "",
        f"- Command: `{meta.get('command', '')}`",
        f"- Run: {meta.get('date', '?')} on {meta.get('machine', '?')}; "
        f"executor {meta.get('executor', '?')} with {meta.get('workers', '?')} workers, "
        f"{meta.get('seconds', '?')} s wall time.",
        f"- Preset `{result.preset}`; one ladder game = {setup.unit if setup else 'one match'}. "
        f"{result.deals} deal{'s' if result.deals != 1 else ''} per pair, each played twice "
        "with the sides swapped: "
        f"{', '.join(str(g) for g in sorted(games_per_pair))} games per pair, seed {result.seed}, "
        f"{result.decisions:,} decisions in all.",
    ]
    if meta.get("note"):
        lines.append(f"- Note: {meta['note']}")
    capped = result.endings.get("capped", 0)
    if capped:
        total = sum(result.endings.values())
        lines.append(
            f"- {capped} of {total} games ended at the `max_hands` cap (the one-hand format): "
            "decided by that hand's score."
        )
    lines += [
        "",
        "Ratings (Bradley–Terry, Elo scale, mean 0; 95 % interval from the Fisher information):",
        "",
        "| rank | bot | rating | 95 % interval |",
        "|---:|---|---:|---|",
    ]
    ranked = sorted(result.ratings.items(), key=lambda kv: -kv[1]["elo"])
    for i, (name, r) in enumerate(ranked, 1):
        lines.append(f"| {i} | `{name}` | {r['elo']:+.0f} | [{r['lo']:+.0f}, {r['hi']:+.0f}] |")
    lines += [
        "",
        "Pairwise results (A's score = wins + half the draws; 95 % Wilson interval):",
        "",
        "| A | B | games | A won | B won | drawn | A's score | 95 % interval |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for p in result.pairs:
        lo, hi = p.a_interval
        lines.append(
            f"| `{p.a}` | `{p.b}` | {p.games} | {p.a_wins} | {p.b_wins} | {p.draws} | "
            f"{_pct(p.a_rate)} | [{_pct(lo)}, {_pct(hi)}] |"
        )
    return "\n".join(lines) + "\n"


HEADER = """# Strength ladder

A round robin of the bots in every game, written by `parlour ladder` (`parlour ladder GAME`, or
`--all`; `parlour ladder --help`). Each pair of bots plays the same deals, each deal twice with the
sides swapped (duplicate deals), so the luck of the cards cancels. `strong:T` is the search bot
(`strong`, [bots.md](bots.md)) with `T` seconds per decision, `strong:NNNit` the same bot with
`NNN` play-outs per decision (its time per decision on the measuring machine is in
[bots.md](bots.md), measured with `bench/strength.py --speed-decisions`); `basic` is each game's
rule-based bot. Cheat is played by 4 players, each bot at two seats across the table (a bot wins
when one of its seats goes out first): heads-up, the deal seemed to decide most games.

Ratings are Bradley–Terry strengths fitted by maximum likelihood (MM iterations; a draw counts half
a win each way, and one virtual draw is added to every pair that met so a bot that won every game
keeps a finite rating), shown on the Elo scale (400·log10 of the strength, centred on the mean of
the bots); their 95 % intervals are ±1.96 standard errors from the observed Fisher information.
An Elo difference of 200 means the stronger bot is expected to score 76 %.

Re-running a command with the same seed plays the same deals with the same seatings. Bots bounded
by iterations (`random`, `basic`, `strong:300it`) then give the same numbers; `strong:T` is bounded
by time, so how far it searches — and so its results — depends on the machine and its load (each
section names its machine; on a busy machine the time-bounded bots search less). With few games
per pair the intervals are wide: read the order of the bots, not the exact gaps.

The ladder issue 36 asks for (`random`, `basic`, `strong:0.3`, `strong:1` and `expert` by their
iteration budgets, at least 100 deals per pair): its commands, its cost and how much of it has
been run are in [ladder-commands.md](ladder-commands.md).
"""


def render_page(results: Sequence[LadderResult]) -> str:
    parts = [HEADER]
    done = {r.game for r in results}
    missing = [TITLES[g] for g in LADDER_GAMES if g not in done]
    if missing:
        parts.append(f"\nNo ladder saved yet for: {', '.join(missing)}.\n")
    for res in results:
        parts.append("\n" + render_section(res))
    return "".join(parts)


def plot_ladder(result: LadderResult, path: Path) -> Path:
    """Ratings with their 95 % intervals (left) and the pairwise score matrix (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = result.bots
    fig, (left, right) = plt.subplots(1, 2, figsize=(11.0, 4.2))
    ys = list(range(len(bots)))[::-1]
    elos = [result.ratings[b]["elo"] for b in bots]
    los = [result.ratings[b]["elo"] - result.ratings[b]["lo"] for b in bots]
    his = [result.ratings[b]["hi"] - result.ratings[b]["elo"] for b in bots]
    left.errorbar(elos, ys, xerr=[los, his], fmt="o", capsize=5, color="#3b7dd8")
    left.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    left.set_yticks(ys)
    left.set_yticklabels(bots)
    left.set_xlabel("Bradley–Terry rating, Elo scale (95 % interval)")
    left.set_title("ratings")
    k = len(bots)
    grid = [[float("nan")] * k for _ in range(k)]
    counts = [[""] * k for _ in range(k)]
    idx = {b: i for i, b in enumerate(bots)}
    for p in result.pairs:
        if not p.games:
            continue
        i, j = idx[p.a], idx[p.b]
        grid[i][j], grid[j][i] = p.a_rate, 1 - p.a_rate
        counts[i][j] = f"{p.a_score:g}/{p.games}"
        counts[j][i] = f"{p.games - p.a_score:g}/{p.games}"
    im = right.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if counts[i][j]:
                right.text(j, i, counts[i][j], ha="center", va="center", fontsize=8)
    right.set_xticks(range(k))
    right.set_xticklabels(bots, rotation=30, ha="right")
    right.set_yticks(range(k))
    right.set_yticklabels(bots)
    right.set_title("row's score against column")
    fig.colorbar(im, ax=right, fraction=0.046, pad=0.04)
    games_per_pair = max((p.games for p in result.pairs), default=0)
    fig.suptitle(
        f"{TITLES.get(result.game, result.game)} ladder — {games_per_pair} games per pair, "
        f"duplicate deals, seed {result.seed}"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path


def publish(result: LadderResult, docs: Path, *, plot: bool = True) -> tuple[Path, Path | None]:
    """Save the game's data, draw its PNG, and rewrite ``docs/ladder.md`` from every saved game."""
    save(result, docs)
    png = plot_ladder(result, png_path(docs, result.game)) if plot else None
    page = docs / "ladder.md"
    page.write_text(render_page(load_all(docs)))
    return page, png


def rerender(docs: Path) -> list[Path]:
    """Rewrite ``docs/ladder.md`` and every game's PNG from the saved results (no games played)."""
    results = load_all(docs)
    written = [plot_ladder(r, png_path(docs, r.game)) for r in results]
    page = docs / "ladder.md"
    page.write_text(render_page(results))
    return [page, *written]
