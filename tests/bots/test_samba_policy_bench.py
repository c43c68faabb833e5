"""bench/samba_policy.py re-writes parts of Samba's ``basic`` with its thresholds as knobs: with
the defaults it must play exactly as ``basic`` (else its screen measures the re-writing, not the
knob), and a knob must change the play."""

from __future__ import annotations

from typing import Any

from tests.support.scripts import load_script

bench = load_script("bench/samba_policy.py", "bench_samba_policy")


def test_default_knobs_play_as_basic() -> None:
    from parlour.games.samba.bot import SambaBasicBot

    same = bench.make_variant("same")
    for seed in (1, 2, 3, 4):
        assert bench.hand(seed, (same, SambaBasicBot, same, SambaBasicBot)) == bench.hand(
            seed, (SambaBasicBot,) * 4
        )


def test_a_knob_changes_the_play() -> None:
    out = bench.duel(bench.make_variant("wild_min=7,big_pile=3,pair_w=0"), deals=6, seed=5)
    assert out["hands"] == 12
    assert out["mean_hand_score_diff"] != 0.0


def test_make_variant_parses_knobs() -> None:
    v = bench.make_variant("wild_min=4,pair_w=80")
    assert v.wild_min == 4 and v.pair_w == 80.0 and isinstance(v.pair_w, float)
    assert bench.make_variant("same").wild_min == bench.Knobs.wild_min


def _may_go_out(opponents: list[str]) -> tuple[Any, Any, list[Any]]:
    """Seat 0 holds Q♠ 5♦ with two canastas down: adding Q♠ leaves one card to go out with."""
    from parlour import games
    from parlour.games.samba.position import make_position
    from parlour.games.samba.state import MELD

    v = games.get("samba", players=4, max_hands=1)
    s = make_position(
        hands={0: "Q♠ 5♦", 1: "4♠ 5♣ 9♦", 2: "4♥ 6♣ 9♣", 3: "4♦ 6♠ J♠"},
        melds={0: ["7♥ 7♣ 7♦ 7♠ 7♥ 7♣ 7♦", "K♣ K♦ K♥ K♠ K♣ K♦ K♥", "Q♣ Q♦ Q♥"], 1: opponents},
        pile="8♦",
        phase=MELD,
        opened=(True, True),
    )
    return v, v.game.observe(s, 0), v.game.legal_actions(s)


def test_hold_out_keeps_the_cards_while_going_out_would_lose_the_hand() -> None:
    """``hold_out``: behind a samba (1,500) with two pure canastas (1,000 + cards + 200 for going
    out), the player does not add Q♠ (leaving one card to go out with) but discards; ahead of a
    group of jacks it goes on as ``basic`` does."""
    for opponents, held in ((["4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥"], True), (["J♣ J♦ J♥"], False)):
        v, view, legal = _may_go_out(opponents)
        assert bench.behind_after_going_out(view, 10.0) is held
        basic = bench.make_variant("same")(v.game, 0, 1, rules=v.rules)
        hold = bench.make_variant("hold_out=1")(v.game, 0, 1, rules=v.rules)
        assert str(basic.act(view, legal)) == "add Q♠ to meld 2"
        assert str(hold.act(view, legal)) == ("discard 5♦" if held else "add Q♠ to meld 2")
