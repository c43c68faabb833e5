"""Issue 15: the score sheet's notes reach each seat told for it ("you went out", "your partner
went out", the table's name for the others), with their kind and data alongside, and a stored
result written before notes had data still checks against its replay."""

from __future__ import annotations

import re

from parlour import games
from parlour.games.samba.scoring import VALUE, hand_result
from parlour.server import redact
from parlour.server.deals import _scored

SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)


def _samba_with_hands() -> tuple[object, object]:
    variant = games.get("samba")
    game = variant.game
    state = game.new_game(variant.rules, 11)
    sides = game.sides_of(state)
    empty = [(0,) * len(VALUE)] * 4
    state.history = tuple(
        hand_result(n, variant.rules, sides, [(), ()], [(), ()], empty, out)
        for n, out in enumerate((2, None))
    )
    return game, state


def test_each_seat_reads_the_note_for_itself() -> None:
    game, state = _samba_with_hands()
    said = {}
    for seat in (None, 0, 1, 2, 3):
        payload = redact.seat_payload(game, state, seat, player_names=(None, "Ada", None, None))  # type: ignore[arg-type]
        hands = payload["outcome"]["hands"]
        assert [h["note_kind"] for h in hands] == ["went_out", "stock_out"]
        assert hands[0]["note_data"] == {"seat": 2}
        assert hands[1]["note"] == "the stock ran out"
        assert not any(SEAT_NUMBER.search(h["note"]) for h in hands)
        said[seat] = hands[0]["note"]
    assert said == {
        None: "North went out",
        0: "your partner went out",
        1: "North went out",
        2: "you went out",
        3: "North went out",
    }


def test_a_named_player_is_named_in_the_note() -> None:
    game, state = _samba_with_hands()
    payload = redact.seat_payload(game, state, 1, player_names=(None, None, "Ada", None))  # type: ignore[arg-type]
    assert payload["outcome"]["hands"][0]["note"] == "Ada went out"


def test_old_worded_notes_still_match_the_replayed_result() -> None:
    old = {"finished": True, "hands": [{"number": 0, "scores": [1.0], "note": "seat 2 went out"}]}
    new = {
        "finished": True,
        "hands": [
            {"number": 0, "scores": [1.0], "note": "went_out", "note_data": {"seat": 2}},
        ],
    }
    assert _scored(old) == _scored(new)
    assert _scored(old) != _scored({**new, "hands": [{"number": 0, "scores": [2.0]}]})
