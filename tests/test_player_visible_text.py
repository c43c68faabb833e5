"""Nothing a player can see cites the project's rule sources: option docs, preset docs, game
titles and descriptions (shown in the lobby and by ``parlour rules``), the explanations of
illegal moves and the events met in random play, and the errors of bad options.  Citations
("seed 002", "004_bae80ddcdedd4514.txt") belong in ``# source:`` comments; a player reads the
rule in words ("Taking the pile: a black 3 on top blocks it")."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from parlour import games
from parlour.core.errors import RulesError
from parlour.core.rules import Rules
from parlour.core.text import Names, hand_note
from parlour.scoring.chicago import ChicagoOptions

#: a source citation: "seed 002", "seeds 000 and 001", a seed file name, "the seed's variation",
#: "not in the seed" — but not a random seed ("the deal seed", "the seed of the deal")
CITATION = re.compile(
    r"\bseeds?\s*:?\s*0\d\d"
    r"|_[0-9a-f]{16}\.txt"
    r"|\bseed(?:'s|\s+variation|\s*:)"
    r"|\b(?:in|as|the)\s+seed\b(?!\s+(?:of|was|is|for)\b)"
    r"|RULES\.md|\bpagat\b",
    re.IGNORECASE,
)


def test_the_pattern_finds_citations_and_spares_random_seeds() -> None:
    for cited in (
        "Samba as in seed 002",
        "(002_91a2786a682fea8f.txt: 'You can never take …')",
        "seed 000",
        "seeds 000 and 001",
        "(seed: 7)",
        "not in the seed",
        "the seed's variation",
        "Cheat as pagat describes it",
    ):
        assert CITATION.search(cited), cited
    for fine in ("drawn from the deal seed", "the seed of the deal is revealed", "seed 12345"):
        assert not CITATION.search(fine), fine


def _rules_texts(rules_type: type[Rules]) -> Iterator[tuple[str, str]]:
    for row in rules_type.describe():
        yield f"option {row['name']}", str(row.get("doc", ""))
        yield f"option {row['name']} (allowed)", str(row.get("allowed", ""))
    for name, prop in rules_type.json_schema()["properties"].items():
        yield f"schema {name}", str(prop.get("description", ""))


def _bad_option_errors(rules_type: type[Rules]) -> Iterator[tuple[str, str]]:
    for f in dataclasses.fields(rules_type):
        for bad in (-999, "nonsense", 10**9):
            try:
                rules_type.from_json({f.name: bad})
            except (RulesError, ValueError, TypeError) as exc:
                yield f"error for {f.name}={bad!r}", str(exc)


def _catalogue() -> Iterator[tuple[str, str]]:
    for name in games.names():
        entry = games.entry(name)
        yield f"{name} title", entry.title
        yield f"{name} engine title", entry.game.title
        yield f"{name} description", entry.description
        for preset, doc in entry.preset_docs.items():
            yield f"{name} preset {preset}", doc
        for where, text in _rules_texts(entry.rules_type):
            yield f"{name} {where}", text
        for where, text in _bad_option_errors(entry.rules_type):
            yield f"{name} {where}", text
    for where, text in _rules_texts(ChicagoOptions):
        yield f"chicago {where}", text


def test_lobby_and_rules_texts_cite_no_source() -> None:
    texts = list(_catalogue())
    assert len(texts) > 200
    bad = [f"{where}: {text}" for where, text in texts if CITATION.search(text)]
    assert not bad, "\n".join(bad)


def _played_texts(variant: games.Variant, seed: int, steps: int = 400) -> Iterator[str]:
    """Explanations of illegal moves (tried from a pool of moves seen elsewhere in the match),
    rejections and the events' texts, in random play."""
    game = variant.game
    rules = variant.rules.replace(**variant.entry.random_play_options)
    rng = random.Random(seed)
    state = game.new_game(rules, seed)
    pool: list[Any] = []
    noted = 0  # hands on the score sheet
    for _ in range(steps):
        if game.to_act(state) is None:
            yield str(game.explain(state, pool[0]) if pool else "")
            return
        legal = list(game.legal_actions(state))
        for bad in rng.sample(pool, min(3, len(pool))):
            reason = game.explain(state, bad)
            if reason is not None:
                yield reason
        action = legal[rng.randrange(len(legal))]
        pool.append(action)
        del pool[:-60]
        state, events = game.apply(state, action)
        names = Names.table(game.num_seats(state), game.sides_of(state))
        for ev in events:  # as every seat and a spectator read them
            for viewer in (None, *range(game.num_seats(state))):
                if ev.visible_to(viewer):
                    yield variant.entry.text.describe(ev, viewer, names)
        hands = game.outcome(state).hands
        if len(hands) > noted:
            noted = len(hands)
            for viewer in (None, *range(game.num_seats(state))):  # the score sheet's note
                yield "note: " + hand_note(hands[-1], viewer, names, game.describe)


#: an internal seat number ("seat 2 went out"): players read "you", "your partner", a name
SEAT_NUMBER = re.compile(r"\bseat \d")


@pytest.mark.parametrize(
    "variant", games.all_variants(), ids=[f"{v.name}-{v.preset}" for v in games.all_variants()]
)
def test_explanations_and_events_in_random_play_cite_no_source(variant: games.Variant) -> None:
    seen = 0
    for seed in range(3):
        for text in _played_texts(variant, seed):
            seen += 1
            assert not CITATION.search(text), f"{variant.name}/{variant.preset}: {text}"
    assert seen > 10


@pytest.mark.parametrize(
    "variant", games.all_variants(), ids=[f"{v.name}-{v.preset}" for v in games.all_variants()]
)
def test_hand_notes_and_explanations_in_random_play_name_no_seat_number(
    variant: games.Variant,
) -> None:
    """Explanations are addressed to the player who acts, hand notes to each viewer: neither
    says "seat 2"."""
    texts = [text for seed in range(2) for text in _played_texts(variant, seed, steps=800)]
    bad = [text for text in texts if SEAT_NUMBER.search(text)]
    assert not bad, f"{variant.name}/{variant.preset}: " + "\n".join(bad[:5])
    if variant.name in ("scat", "cheat"):  # short hands: random play ends some
        assert any(text.startswith("note: ") for text in texts)


def test_explain_names_the_rule_in_words() -> None:
    from parlour.games.samba import actions as A
    from parlour.games.samba.position import make_position

    game = games.entry("samba").game
    s = make_position(hands={0: "3♠ 3♠ 9♥ 9♦ 5♣"}, pile="4♠ 9♣ 3♣", to_act=0, phase="draw")
    reason = game.explain(s, A.TakePile((33, 46)))  # 9♥ 9♦ onto a blocked pile
    assert reason is not None and reason.startswith("Taking the pile: a 3♣ on top blocks it")
