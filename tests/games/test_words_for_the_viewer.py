"""Hand notes, Scat's last hand and the explanations of illegal moves speak to the player
("you", "your partner", a seat's name), never by internal seat number (issue 15)."""

from __future__ import annotations

import re

from parlour import games
from parlour.core.game import HandResult
from parlour.core.text import Names, hand_note
from parlour.games.cheat import GAME as CHEAT
from parlour.games.cheat.actions import ChooseFirst
from parlour.games.cheat.state import CHOOSE_FIRST
from parlour.games.samba import GAME as SAMBA
from parlour.games.samba import actions as A
from parlour.games.samba.position import make_position
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.scoring import VALUE, hand_result
from parlour.games.scat import GAME as SCAT
from parlour.games.scat.actions import Knock
from tests.games.scat.helpers import position as scat_position

SEAT_NUMBER = re.compile(r"\bseat \d")
EMPTY = (0,) * len(VALUE)  # a hand with no cards (counts per card kind)
NAMES = Names(("South", "West", "North", "East"), sides=((0, 2), (1, 3)))


def test_samba_hand_note_is_data_told_to_each_viewer() -> None:
    result = hand_result(0, SambaRules(), ((0, 2), (1, 3)), [(), ()], [(), ()], [EMPTY] * 4, 2)
    assert (result.note, dict(result.note_data)) == ("went_out", {"seat": 2})
    told = {v: hand_note(result, v, NAMES, SAMBA.describe) for v in (None, 0, 1, 2)}
    assert told == {
        None: "North went out",
        0: "your partner went out",
        1: "North went out",
        2: "you went out",
    }
    stock = hand_result(0, SambaRules(), ((0, 2), (1, 3)), [(), ()], [(), ()], [EMPTY] * 4, None)
    assert hand_note(stock, 0, NAMES, SAMBA.describe) == "the stock ran out"


def test_old_free_text_notes_still_show() -> None:
    old = HandResult(0, (1.0, 2.0), note="the hand as it stands")
    assert hand_note(old, 0, NAMES, SAMBA.describe) == "the hand as it stands"


def test_samba_answer_explanation_speaks_to_the_partner_asked() -> None:
    s = make_position(hands={0: "9♥ 9♦ 5♣", 2: "K♠ K♥"}, to_act=2, phase="answer")
    reason = SAMBA.explain(s, A.Draw())
    assert reason is not None and not SEAT_NUMBER.search(reason)
    assert reason.startswith("you must first answer your partner's")


def test_scat_knock_after_a_knock_names_no_seat() -> None:
    s = scat_position(["A♠ K♠ Q♠", "2♥ 3♥ 4♥", "5♦ 6♦ 7♦"], to_act=2, knocker=1)
    reason = SCAT.explain(s, Knock())
    assert reason is not None and not SEAT_NUMBER.search(reason)
    assert reason.startswith("another player has already knocked")


def test_scat_last_hand_is_data_and_its_note_reads_for_the_viewer() -> None:
    """Play random Scat until a hand ends: the view carries no words, the note is told per
    viewer ("you lose 1", "Player 2 loses 1")."""
    import random

    rng = random.Random(3)
    state = SCAT.new_game(SCAT.rules_type(players=3), 3)
    while not SCAT.outcome(state).hands:
        legal = list(SCAT.legal_actions(state))
        state, _ = SCAT.apply(state, legal[rng.randrange(len(legal))])
    hand = SCAT.outcome(state).hands[0]
    assert hand.note == "hand_over" and "changes" in hand.note_data
    last = SCAT.observe(state, 0).last_hand
    assert last is not None and not hasattr(last, "text")
    json_view = SCAT.view_to_json(SCAT.observe(state, 0))
    assert not SEAT_NUMBER.search(str(json_view["last_hand"]))
    names = Names.table(3)
    loser = next(s for s, c in enumerate(hand.scores) if c < 0)
    mine = hand_note(hand, loser, names, SCAT.describe)
    theirs = hand_note(hand, (loser + 1) % 3, names, SCAT.describe)
    assert "you lose" in mine and not SEAT_NUMBER.search(mine)
    assert f"Player {loser + 1} loses" in theirs and not SEAT_NUMBER.search(theirs)


def test_cheat_choosing_a_missing_player_names_no_seat_number() -> None:
    canada = next(v for v in games.all_variants() if (v.name, v.preset) == ("cheat", "canada"))
    s = CHEAT.new_game(canada.rules, 1)
    assert s.phase == CHOOSE_FIRST
    reason = CHEAT.explain(s, ChooseFirst(7))
    assert reason is not None and not SEAT_NUMBER.search(reason)
    assert "no such player" in reason
