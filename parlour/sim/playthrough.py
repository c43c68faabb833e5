"""Readable golden playthroughs: one seeded match per game and preset, written as text.

In the style of OpenSpiel's playthrough files.  A header names the game, preset, engine version,
seed, the options added for the recording and the whole rules object; then, for every decision,
the step number, the acting seat, the legal actions as text (``game.action_text``), the chosen
action (index, text and JSON), the events' texts (with who may see them) and each seat's view
afterwards; the outcome closes the file.  ``tests/golden/playthroughs/`` holds one file per game
and preset, written by ``uv run python scripts/playthroughs.py`` and checked by
``tests/golden/test_playthroughs.py``; ``parlour playthrough GAME --preset P`` prints one.

How the recordings are chosen (see :func:`playthrough_options`):

* seed :data:`SEED` for every file (the seed of the hashed Samba golden ``tests/golden/
  samba_4p.json``);
* one random bot (:class:`parlour.bots.random_bot.RandomBot`) chooses for every seat from a
  single ``random.Random(seed)`` stream — the stream ``scripts/golden.py`` uses, so the Samba
  default-preset file is the readable counterpart of ``samba_4p.json`` (same match, move by move);
* the options each game's registry entry gives random play (``random_play_options``: random
  players rarely reach a target score), with ``max_hands`` set where the game has it
  (:data:`HANDS`: two Samba hands as in ``samba_4p.json``; one Hand and Foot round — about 220
  decisions; otherwise the entry's value, or 1);
* at most :data:`MAX_STEPS` decisions (the file then says the match was cut short).

Views are written as text lines ``path: value`` flattened from ``game.view_to_json(view)``
(the ``rules`` object is in the header, not repeated): a record of plain values is one line
(``players[1]: seat=1 side=1 hand_size=15``), lists of plain values are written inline, cards
as ``[9♣ 10♦ Jk]``.  Every seat's full view is written when a hand is dealt; after each step only
the lines that changed are written — under "every seat" when the change is the same for all
seats (public information), else under the seat (``path: (gone)`` for a removed line).  Why
not every full view at every step: Hand and Foot views are ~8 KB of JSON per seat, so a file
would be ~7 MB; the terminal renderer (``parlour.cli.tui``, Rich panels) gives 2–4 MB a file,
takes 4–7 ms a view, shows less than the view holds (only the pile's top card) and would pin the
terminal layout rather than the engine.  With changes only, files stay between 25 and 460 KB.

>>> text = playthrough("scat", "scat")
>>> print(text.splitlines()[0])
# parlour playthrough: scat, preset scat
>>> first_difference("a\\nb\\nc\\n", "a\\nB\\nc\\n")
(2, 'b', 'B')
>>> first_difference("a\\n", "a\\n") is None
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour import games
from parlour.bots.random_bot import RandomBot
from parlour.core.game import Event, Game
from parlour.core.registry import Variant
from parlour.core.text import Names

#: the seed of every recorded match (the hashed Samba golden's seed)
SEED = 20261129
#: a recording stops after this many decisions
MAX_STEPS = 3000
#: ``max_hands`` of the recording where it is not the registry's random-play value
HANDS: dict[str, int] = {"samba": 2, "handfoot": 1}
#: the command that rewrites the stored files
REGENERATE = "uv run python scripts/playthroughs.py"
#: the folder (relative to the repository) holding the stored files
FOLDER = "tests/golden/playthroughs"


@dataclass(frozen=True)
class Spec:
    """One recording: a game, a preset and the options added to the preset."""

    game: str
    preset: str
    options: Mapping[str, Any]
    seed: int = SEED

    @property
    def file_name(self) -> str:
        return file_name(self.game, self.preset)

    def variant(self) -> Variant:
        return games.get(self.game, preset=self.preset, **dict(self.options))


def file_name(game: str, preset: str) -> str:
    """``samba-bolivia.txt``: the stored file of a game and preset."""
    return f"{game}-{preset}.txt"


def playthrough_options(game: str) -> dict[str, Any]:
    """The options a recording adds to every preset of ``game``: the registry's random-play
    options, with ``max_hands`` from :data:`HANDS` (or 1) where the rules have it.

    >>> playthrough_options("samba")
    {'max_hands': 2}
    """
    entry = games.entry(game)
    options = dict(entry.random_play_options)
    fields = entry.rules_type.__dataclass_fields__
    if "max_hands" in fields:
        options["max_hands"] = HANDS.get(entry.name, options.get("max_hands") or 1)
    return options


def specs() -> list[Spec]:
    """Every game × preset of the registry, in registry order."""
    out: list[Spec] = []
    for name in games.names():
        entry = games.entry(name)
        options = playthrough_options(name)
        out.extend(Spec(name, preset, options) for preset in entry.presets)
    return out


def spec_for(game: str, preset: str | None = None, seed: int = SEED) -> Spec:
    """The recording of ``game`` (any of its names; a preset's name picks that preset) and
    ``preset`` (default: the game's).

    >>> spec_for("bullshit").preset, spec_for("31").game
    ('bullshit', 'scat')
    """
    variant = games.get(game, preset)
    return Spec(variant.name, variant.preset, playthrough_options(variant.name), seed)


# --- text rendering ------------------------------------------------------------------------------


def _is_plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _is_flat(value: Any) -> bool:
    """A plain value or a (nested) list of plain values: written on one line."""
    if isinstance(value, list):
        return all(_is_flat(v) for v in value)
    return _is_plain(value)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        if value and not any(ch.isspace() or ch in '="[]{}' for ch in value):
            return value
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def value_text(value: Any) -> str:
    """One value on one line: cards and words bare, lists in brackets.

    >>> value_text(["9♣", "10♦", "Jk"]), value_text(["1 more samba"]), value_text([[1, 2], []])
    ('[9♣ 10♦ Jk]', '["1 more samba"]', '[[1 2] []]')
    >>> value_text({"seat": 1, "type": "PlayerView", "known": []})
    'seat=1 known=[]'
    """
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            parts = [_scalar(v) for v in value]
            if any(p.startswith('"') for p in parts):
                return "[" + ", ".join(parts) + "]"
            return "[" + " ".join(parts) + "]"
        return "[" + " ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return " ".join(f"{k}={value_text(v)}" for k, v in value.items() if k != "type")
    return _scalar(value)


def flatten(data: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(path, text) lines of a JSON value.  Inside a record the plain fields (and lists of plain
    values) share one line at the record's path; nested records and lists of records get lines
    of their own (``sides[0].melds[2]: …``).  At the top level every field has its own line.

    >>> list(flatten({"a": 1, "b": [{"c": [], "d": [{"e": 2}]}]}))
    [('a', '1'), ('b[0]', 'c=[]'), ('b[0].d[0]', 'e=2')]
    """
    if isinstance(data, dict):
        items = [(k, v) for k, v in data.items() if k != "type"]
        if prefix:
            flat = {k: v for k, v in items if _is_flat(v)}
            if flat or not items:
                yield prefix, value_text(flat)
            items = [(k, v) for k, v in items if not _is_flat(v)]
        for k, v in items:
            yield from flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(data, list) and not _is_flat(data):
        for i, v in enumerate(data):
            yield from flatten(v, f"{prefix}[{i}]")
    else:
        yield prefix, value_text(data)


def view_lines(game: Game[Any, Any, Any, Any], view: Any) -> dict[str, str]:
    """A seat's view as ``{path: text}`` (the rules object left out: it is in the header).

    >>> from parlour import games
    >>> v = games.get("scat")
    >>> lines = view_lines(v.game, v.game.observe(v.new_game(1), 0))
    >>> lines["seat"], lines["hand_sizes"]
    ('0', '[3 3 3 3]')
    """
    data = dict(game.view_to_json(view))
    data.pop("rules", None)
    return dict(flatten(data))


def _changes(
    old: Sequence[dict[str, str]], new: Sequence[dict[str, str]]
) -> tuple[list[str], list[list[str]]]:
    """Lines that changed, as (lines common to every seat, lines of each seat)."""
    per_seat: list[list[str]] = []
    for before, after in zip(old, new, strict=True):
        lines = [f"{p}: {t}" for p, t in after.items() if before.get(p) != t]
        lines.extend(f"{p}: (gone)" for p in before if p not in after)
        per_seat.append(lines)
    if not per_seat:
        return [], []
    rest = [set(lines) for lines in per_seat[1:]]
    common = [ln for ln in per_seat[0] if all(ln in r for r in rest)]
    shared = set(common)
    return common, [[ln for ln in lines if ln not in shared] for lines in per_seat]


def _seat_label(game: Game[Any, Any, Any, Any], seat: int) -> str:
    names: Sequence[str] = getattr(game, "seat_names", ()) or ()
    return f"seat {seat} ({names[seat]})" if 0 <= seat < len(names) else f"seat {seat}"


def _event_line(game: Game[Any, Any, Any, Any], state: Any, event: Event) -> str:
    """A public event as a spectator is told it; a private one as its only seat is told it."""
    labels: Sequence[str] = getattr(game, "seat_names", ()) or ()
    names = (
        Names(tuple(labels), game.sides_of(state))
        if labels
        else Names.numbered(game.num_seats(state), game.sides_of(state))
    )
    if event.seats is None:
        return f"  {game.describe(event, None, names)}"
    who = ", ".join(str(s) for s in sorted(event.seats))
    viewer = next(iter(event.seats)) if len(event.seats) == 1 else None
    return f"  [seen by seat {who}] {game.describe(event, viewer, names)}"


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def lines(spec: Spec, max_steps: int = MAX_STEPS) -> Iterator[str]:
    """The playthrough of ``spec``, line by line (no newlines)."""
    variant = spec.variant()
    game = variant.game
    rules_json = variant.rules.to_json()
    state = game.new_game(variant.rules, spec.seed)
    seats = game.num_seats(state)
    chooser = RandomBot(game, 0, spec.seed)
    chooser.rng = random.Random(spec.seed)  # one stream for every seat, as scripts/golden.py

    yield f"# parlour playthrough: {spec.game}, preset {spec.preset}"
    yield f"# regenerate: {REGENERATE}"
    yield f"game: {spec.game} ({game.title})"
    yield f"preset: {spec.preset}"
    yield f"engine version: {game.version}"
    yield f"seed: {spec.seed}"
    yield f"options added to the preset: {_json(dict(spec.options))}"
    yield (
        "chooser: one random bot (parlour.bots.random_bot.RandomBot) for every seat, "
        "drawing from random.Random(seed)"
    )
    yield f"seats: {seats}"
    yield "rules:"
    for line in json.dumps(rules_json, ensure_ascii=False, sort_keys=True, indent=2).splitlines():
        yield f"  {line}"

    hand = -1
    views: list[dict[str, str]] = [{} for _ in range(seats)]
    step = 0

    def write_views(heading: str) -> Iterator[str]:
        nonlocal views
        new = [view_lines(game, game.observe(state, s)) for s in range(seats)]
        common, own = _changes(views, new)
        views = new
        if common:
            yield f"{heading}, every seat:"
            yield from (f"  {ln}" for ln in common)
        for s in range(seats):
            if own[s]:
                yield f"{heading}, {_seat_label(game, s)}:"
                yield from (f"  {ln}" for ln in own[s])

    while True:
        if game.hand_number(state) != hand and game.to_act(state) is not None:
            hand = game.hand_number(state)
            views = [{} for _ in range(seats)]
            yield ""
            yield f"=== hand {hand} dealt: the full views ==="
            yield from write_views("view")
        seat = game.to_act(state)
        if seat is None or step >= max_steps:
            break
        step += 1
        legal = list(game.legal_actions(state))
        action = chooser.act(None, legal)
        index = legal.index(action)
        yield ""
        yield f"--- step {step} · hand {hand} · {_seat_label(game, seat)} to act ---"
        yield f"legal actions ({len(legal)}):"
        width = len(str(len(legal) - 1))
        for i, a in enumerate(legal):
            yield f"  {i:>{width}}  {game.action_text(state, a)}"
        yield (
            f"chosen: {index}  {game.action_text(state, action)}  "
            f"{_json(game.action_to_json(action))}"
        )
        state, events = game.apply(state, action)
        yield "events:" if events else "events: none"
        yield from (_event_line(game, state, e) for e in events)
        if game.to_act(state) is not None and game.hand_number(state) != hand:
            yield "(a new hand: the full views follow)"
        else:
            yield from write_views("view changes")

    outcome = game.outcome(state)
    yield ""
    if game.to_act(state) is not None:
        yield f"=== stopped after {step} steps: the match was not over ==="
    else:
        yield f"=== the match is over after {step} steps ==="
    for path, text in flatten(outcome.to_json(), "outcome"):
        yield f"{path}: {text}"


def playthrough(
    game: str, preset: str | None = None, *, seed: int = SEED, max_steps: int = MAX_STEPS
) -> str:
    """The whole playthrough of ``game`` and ``preset`` as text (ends with a newline)."""
    return "\n".join(lines(spec_for(game, preset, seed), max_steps)) + "\n"


def render(spec: Spec, max_steps: int = MAX_STEPS) -> str:
    """The whole playthrough of ``spec`` as text (ends with a newline)."""
    return "\n".join(lines(spec, max_steps)) + "\n"


def first_difference(expected: str, got: str) -> tuple[int, str, str] | None:
    """(line number from 1, expected line, got line) of the first difference, or None.

    A missing line reads as ``<end of file>``."""
    a, b = expected.splitlines(), got.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end of file>"
        y = b[i] if i < len(b) else "<end of file>"
        if x != y:
            return i + 1, x, y
    return None


def chosen_actions(text: str) -> list[dict[str, Any]]:
    """The chosen actions' JSON of a stored playthrough, in order."""
    out = []
    for line in text.splitlines():
        if line.startswith("chosen: "):
            out.append(json.loads(line[line.rindex("  {") + 2 :]))
    return out
