"""The turn, the stock and going out (RULES.md §1 "Turn", "Going out"; seed 002 "Playing a turn",
"Going out")."""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalAction
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from tests.games.samba.helpers import c, cs, play, pos

CANASTAS = ["A♣ A♣ A♦ A♥ A♠ A♠ A♦", "K♣ K♣ K♦ K♥ K♠ K♠ K♦"]


def test_draw_two_discard_one() -> None:
    """002_91a2786a682fea8f.txt: 'take the top two cards of the stock … Discard one card … Because
    you draw two and discard one, hands grow.'"""
    s = pos(hands={0: "K♠ 5♦"}, to_act=0, stock="9♣ 4♠")
    s = play(s, A.DRAW)
    assert s.sizes[0] == 4 and s.hands[0][c("9♣")] == 1 and s.hands[0][c("4♠")] == 1
    s = play(s, A.Discard(c("9♣")))
    assert s.sizes[0] == 3 and s.pile[-1] == c("9♣") and s.to_act == 1 and s.phase == "draw"


def test_one_card_stock_gives_one_card() -> None:
    """002_91a2786a682fea8f.txt: 'if only one card is left, the next player draws just that one.'"""
    s = pos(hands={0: "K♠ 5♦"}, to_act=0)
    s.stock_len = 1
    s = play(s, A.DRAW)
    assert s.sizes[0] == 3 and s.stock_len == 0


def test_empty_stock_ends_hand_without_going_out_bonus() -> None:
    """002_91a2786a682fea8f.txt: 'Once a player wants to draw from the empty stock, the hand ends and
    is scored – nobody gets the bonus for going out.'"""
    s = pos(hands={0: "K♠ 5♦", 1: "4♦"}, melds={0: CANASTAS}, to_act=0)
    s.stock_len = 0
    end = play(s, A.DRAW)
    res = end.history[0]
    assert all(b["going_out"] == 0 for b in res.breakdown)
    assert res.note == "stock_out"
    assert end.hand_no == 1  # the next hand is dealt


def test_empty_stock_may_still_take_the_pile() -> None:
    """000_0fa2fe02243ab02b.txt: the hand ends when a player 'wishes to draw from the stock but no
    cards are available' — taking the pile instead remains allowed."""
    s = pos(hands={0: "9♥ 9♠ 4♦"}, melds={0: ["J♦ J♣ J♠"]}, pile="9♦", to_act=0)
    s.stock_len = 0
    after = play(s, A.TakePile(cs("9♥ 9♠")))
    assert after.hand_no == 0 and after.phase == "meld"


def test_pass_with_one_card_when_not_allowed_out() -> None:
    """002_91a2786a682fea8f.txt: 'Until then you must always keep at least one card: if you meld all
    but one, you say "pass" instead of discarding.'"""
    s = pos(hands={0: "Q♦ 5♠"}, melds={0: ["Q♣ Q♥ Q♠"]}, to_act=0, phase="meld")
    s = play(s, A.AddToMeld(0, c("Q♦")))
    assert GAME.legal_actions(s) == [A.PASS]
    reason = GAME.explain(s, A.Discard(c("5♠")))
    assert reason is not None and "keep at least one card" in reason
    after = play(s, A.PASS)
    assert after.to_act == 1 and after.sizes[0] == 1 and after.pile == ()


def test_may_not_meld_last_card_without_requirement() -> None:
    """002_91a2786a682fea8f.txt: 'You may only go out if your side has at least two sambas, two
    canastas, or one of each on the table.'"""
    s = pos(hands={0: "Q♦"}, melds={0: ["Q♣ Q♥ Q♠", CANASTAS[0]]}, to_act=0, phase="meld")
    assert A.AddToMeld(0, c("Q♦")) not in GAME.legal_actions(s)
    with pytest.raises(IllegalAction):
        GAME.apply(s, A.AddToMeld(0, c("Q♦")))


def test_going_out_by_melding_everything() -> None:
    """002_91a2786a682fea8f.txt: 'You go out when you have no cards left – either by melding them
    all, or by melding all but one and discarding it.'"""
    s = pos(hands={0: "Q♦"}, melds={0: ["Q♣ Q♥ Q♠", *CANASTAS]}, to_act=0, phase="meld")
    end = play(s, A.AddToMeld(0, c("Q♦")))
    assert end.history[0].breakdown[0]["going_out"] == 200
    assert (end.history[0].note, end.history[0].note_data) == ("went_out", {"seat": 0})


def test_going_out_with_a_samba_and_a_canasta() -> None:
    """002_91a2786a682fea8f.txt: 'two sambas, two canastas, or one of each'."""
    s = pos(
        hands={0: "5♦"},
        melds={0: ["4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", CANASTAS[0]]},
        to_act=0,
        phase="meld",
    )
    assert A.Discard(c("5♦")) in GAME.legal_actions(s)
    end = play(s, A.Discard(c("5♦")))
    assert end.history[0].breakdown[0]["going_out"] == 200


def test_bolivia_going_out_needs_a_sequence() -> None:
    """002_91a2786a682fea8f.txt Variants, Bolivia: 'To go out, your side needs two seven-card melds,
    one of them a sequence.'"""
    kw = {"to_act": 0, "phase": "meld", "going_out": "two_sevens_one_sequence"}
    two_canastas = pos(hands={0: "5♦"}, melds={0: CANASTAS}, **kw)  # type: ignore[arg-type]
    assert GAME.legal_actions(two_canastas)[0] == A.PASS
    with_seq = pos(
        hands={0: "5♦"},
        melds={0: ["4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", "2♣ 2♦ 2♥ 2♠ Jk Jk Jk"]},
        wild_melds=True,
        **kw,  # type: ignore[arg-type]
    )
    assert A.Discard(c("5♦")) in GAME.legal_actions(with_seq)


def test_partner_may_i_go_out_yes_binds() -> None:
    """002_91a2786a682fea8f.txt: 'Before going out, you may ask your partner "Partner, may I go
    out?" – you must obey the answer.'  Yes: the asker must go out."""
    s = pos(hands={0: "5♦", 2: "K♠"}, melds={0: CANASTAS}, to_act=0, phase="meld")
    assert A.ASK in GAME.legal_actions(s)
    s = play(s, A.ASK)
    assert s.to_act == 2 and s.phase == "answer"
    assert GAME.legal_actions(s) == [A.YES, A.NO]
    assert "answer" in (GAME.explain(s, A.Discard(c("K♠"))) or "")
    yes = play(s, A.YES)
    assert yes.to_act == 0 and A.PASS not in GAME.legal_actions(yes)
    assert A.ASK not in GAME.legal_actions(yes)
    assert "must go out" in (GAME.explain(yes, A.PASS) or "")


def test_partner_may_i_go_out_no_binds() -> None:
    """002_91a2786a682fea8f.txt: 'you must obey the answer' — no: the asker keeps a card."""
    s = pos(hands={0: "5♦", 2: "K♠"}, melds={0: CANASTAS}, to_act=0, phase="meld")
    no = play(s, A.ASK, A.NO)
    assert GAME.legal_actions(no) == [A.PASS]
    assert "partner said no" in (GAME.explain(no, A.Discard(c("5♦"))) or "")


def test_going_out_without_asking_and_option_off() -> None:
    """002_91a2786a682fea8f.txt: 'You may also go out without asking.'  Option partner_permission
    off: no question at all; solo games have no partner."""
    s = pos(hands={0: "5♦"}, melds={0: CANASTAS}, to_act=0, phase="meld")
    assert A.Discard(c("5♦")) in GAME.legal_actions(s)
    off = pos(
        hands={0: "5♦"}, melds={0: CANASTAS}, to_act=0, phase="meld", partner_permission=False
    )
    assert A.ASK not in GAME.legal_actions(off)
    assert "not used" in (GAME.explain(off, A.ASK) or "")
    solo = pos(hands={0: "5♦"}, melds={0: CANASTAS}, to_act=0, phase="meld", players=3)
    assert A.ASK not in GAME.legal_actions(solo)
    assert "no partner" in (GAME.explain(solo, A.ASK) or "")


def test_draw_only_at_start() -> None:
    """002_91a2786a682fea8f.txt turn order: '1. Draw … 2. Meld … 3. Discard'."""
    s = pos(hands={0: "K♠ 5♦"}, to_act=0, phase="meld")
    assert "already drawn" in (GAME.explain(s, A.DRAW) or "")
    d = pos(hands={0: "K♠ 5♦"}, to_act=0)
    assert "first draw" in (GAME.explain(d, A.Discard(c("K♠"))) or "")


def test_illegal_action_leaves_state_unchanged() -> None:
    """002_91a2786a682fea8f.txt (any rule): a refused move changes nothing."""
    import copy

    s = pos(hands={0: "K♠ 5♦"}, to_act=0, pile="2♣")
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, A.TakePile(cs("K♠ 5♦")))
    assert "blocks" in err.value.rule
    assert s == before


def test_ask_before_the_last_melds_and_obey_yes() -> None:
    """002_91a2786a682fea8f.txt: 'Before going out, you may ask your partner … you must obey the
    answer.'  Asked with three cards that can all go: after yes, only moves that still lead out
    this turn are allowed (no discard that keeps cards)."""
    melds = ["Q♣ Q♠ Q♣", *CANASTAS]
    s = pos(hands={0: "Q♦ Q♥ 5♠", 2: "K♠"}, melds={0: melds}, to_act=0, phase="meld")
    assert A.ASK in GAME.legal_actions(s)
    yes = play(s, A.ASK, A.YES)
    legal = GAME.legal_actions(yes)
    assert A.Discard(c("5♠")) not in legal and A.AddToMeld(0, c("Q♦")) in legal
    reason = GAME.explain(yes, A.Discard(c("5♠")))
    assert reason is not None and "must go out this turn" in reason
    end = play(yes, A.AddToMeld(0, c("Q♦")), A.AddToMeld(0, c("Q♥")), A.Discard(c("5♠")))
    assert end.history[0].breakdown[0]["going_out"] == 200


def test_ask_then_no_keeps_a_card() -> None:
    """002_91a2786a682fea8f.txt: 'you must obey the answer' — after no, the hand may not be
    emptied this turn."""
    melds = ["Q♣ Q♠ Q♣", *CANASTAS]
    s = pos(hands={0: "Q♦ Q♥ 5♠", 2: "K♠"}, melds={0: melds}, to_act=0, phase="meld")
    no = play(s, A.ASK, A.NO, A.AddToMeld(0, c("Q♦")), A.AddToMeld(0, c("Q♥")))
    assert GAME.legal_actions(no) == [A.PASS]


def test_ask_only_when_going_out_is_possible() -> None:
    """002_91a2786a682fea8f.txt: the question is asked 'before going out' — not offered when the
    cards in hand cannot all go this turn."""
    s = pos(hands={0: "5♠ 9♦ J♣", 2: "K♠"}, melds={0: CANASTAS}, to_act=0, phase="meld")
    assert A.ASK not in GAME.legal_actions(s)
    assert "ask when you can go out" in (GAME.explain(s, A.ASK) or "")


def test_yes_without_a_way_out_is_no_dead_end() -> None:
    """002_91a2786a682fea8f.txt: 'you must obey the answer' binds only while going out is
    possible.  A state re-dealt by ``determinize`` for another seat's search can give the asker
    a hand that cannot go out after "yes": the plain moves stay legal instead of none (docs/architecture.md:
    legal actions are never empty while someone is to act)."""
    s = pos(hands={0: "5♦", 2: "K♠"}, melds={0: CANASTAS}, to_act=0, phase="meld")
    yes = play(s, A.ASK, A.YES)
    stuck = yes.clone()
    hand = [0] * 53
    hand[c("5♦")] = 1
    hand[c("9♣")] = 1
    hand[c("4♥")] = 1
    stuck.hands = [hand if i == 0 else h for i, h in enumerate(stuck.hands)]
    stuck.sizes = [3 if i == 0 else n for i, n in enumerate(stuck.sizes)]
    stuck._legal = None
    stuck._legal_set = None
    legal = GAME.legal_actions(stuck)
    assert legal and A.Discard(c("9♣")) in legal


def test_take_back_guard_keeps_every_meld_and_ends_every_turn() -> None:
    """issue 16 item 6 — 002_91a2786a682fea8f.txt: '2. Meld (optional): lay out new melds and/or
    add cards to your side's melds.'  Taking back a meld half built is the engine's own step (not
    in the seed), so the guard that lets every turn end may not take a meld away: after any
    number of take-backs K K K can still be melded.  The guard: the same take-back is never made
    twice from the same position in a turn (legal.takeback_key)."""
    s = pos(hands={0: "K♠ K♣ K♦ 7♥ 8♥ 9♥ 5♦"}, melds={0: CANASTAS}, to_act=0, phase="meld")
    for k in ("K♠", "K♣", "K♦", "7♥", "8♥"):
        s = play(s, A.Stage(c(k)), A.UNSTAGE)  # five take-backs, each from a new position
    assert s.takebacks == 5
    legal = GAME.legal_actions(s)
    assert A.Stage(c("K♠")) in legal and A.Stage(c("7♥")) in legal
    again = play(s, A.Stage(c("K♠")))
    assert A.UNSTAGE not in GAME.legal_actions(again)  # K♠ was taken back from here already
    assert "already taken this back" in (GAME.explain(again, A.UNSTAGE) or "")
    done = play(again, A.Stage(c("K♣")), A.Stage(c("K♦")))
    assert done.melds[0][-1].cards == cs("K♣ K♦ K♠")
    # a different position (a card melded since) allows the take-back once more
    t = play(done, A.Stage(c("7♥")))
    assert A.UNSTAGE in GAME.legal_actions(t)
    assert play(t, A.UNSTAGE, A.Discard(c("5♦"))).takebacks == 0  # the next turn starts afresh


def test_take_backs_cannot_loop() -> None:
    """issue 16 item 6 — 002_91a2786a682fea8f.txt 'Playing a turn': draw, meld, 'Discard one card'.
    A player who takes back whenever the engine allows still ends the turn: the positions of a
    turn are finite and each take-back from each of them is made once."""
    s = pos(
        hands={0: "K♠ K♣ K♦ 7♥ 8♥ 9♥ 9♣ 9♦ 2♣ Jk 5♦"},
        pile="4♣ 9♠",
        to_act=0,
        opened=(False, False),
    )
    steps = 0
    while s.to_act == 0 and s.hand_no == 0:
        legal = GAME.legal_actions(s)
        back = [a for a in legal if isinstance(a, (A.Unstage, A.UndoOpening))]
        build = [a for a in legal if isinstance(a, (A.Stage, A.TakePile))]
        s = play(s, (back or build or legal)[0])
        steps += 1
        assert steps < 2000
    assert steps > 10


def test_red_three_laid_before_drawing() -> None:
    """issue 16 item 3 — 002_91a2786a682fea8f.txt: 'Red 3s: you may lay a red 3 out on its own at
    any point during your turn', before drawing too.  It matters with an empty stock: 'Once a
    player wants to draw from the empty stock, the hand ends' and 'A player still holding one or
    more red 3s at the end of the hand costs their side 750 points' — laid first, it scores."""
    s = pos(hands={0: "3♥ K♠ 5♦"}, melds={0: ["Q♣ Q♥ Q♠"]}, to_act=0)
    s.stock_len = 0
    legal = GAME.legal_actions(s)
    assert A.LayRedThree(c("3♥")) in legal and A.DRAW in legal
    assert GAME.explain(s, A.LayRedThree(c("3♥"))) is None
    laid = play(s, A.LayRedThree(c("3♥")))
    assert laid.phase == "draw" and laid.red3[0] == cs("3♥") and laid.to_act == 0
    assert A.LayRedThree(c("3♥")) not in GAME.legal_actions(laid)
    end = play(laid, A.DRAW)
    assert end.history[0].breakdown[0]["red_three_penalty"] == 0
    kept = play(s, A.DRAW)  # drawing first would have ended the hand with the 3♥ held
    assert kept.history[0].breakdown[0]["red_three_penalty"] == -750


def test_red_three_as_last_card_before_drawing_only_when_going_out() -> None:
    """002_91a2786a682fea8f.txt: red 3s at 'any point during your turn', but 'Until then you must
    always keep at least one card' — laying the only card out is going out."""
    s = pos(hands={0: "3♦"}, melds={0: ["Q♣ Q♥ Q♠"]}, to_act=0)
    assert A.LayRedThree(c("3♦")) not in GAME.legal_actions(s)
    assert "keep at least one card" in (GAME.explain(s, A.LayRedThree(c("3♦"))) or "")
    out = pos(hands={0: "3♦"}, melds={0: CANASTAS}, to_act=0)
    assert A.LayRedThree(c("3♦")) in GAME.legal_actions(out)
    end = play(out, A.LayRedThree(c("3♦")))
    assert (end.history[0].note, end.history[0].note_data) == ("went_out", {"seat": 0})


def test_ask_whenever_going_out_is_possible() -> None:
    """issue 16 item 5 — 002_91a2786a682fea8f.txt: 'Before going out, you may ask your partner
    "Partner, may I go out?" – you must obey the answer.'  Not only with five cards or fewer:
    eight cards that can all be melded (four onto the side's melds, a new run, the last
    discarded) allow the question; after yes the player goes out."""
    melds = ["Q♣ Q♠ Q♣", *CANASTAS]
    hand = "Q♦ Q♥ K♥ 5♠ 6♠ 7♠ 8♠ 4♦"
    s = pos(hands={0: hand, 2: "K♠"}, melds={0: melds}, to_act=0, phase="meld")
    assert s.sizes[0] == 8 and A.ASK in GAME.legal_actions(s)
    yes = play(s, A.ASK, A.YES)
    legal = GAME.legal_actions(yes)
    assert A.Discard(c("Q♦")) not in legal and A.Stage(c("5♠")) in legal
    end = play(
        yes,
        A.AddToMeld(0, c("Q♦")),
        A.AddToMeld(0, c("Q♥")),
        A.AddToMeld(2, c("K♥")),
        *[A.Stage(c(x)) for x in ("5♠", "6♠", "7♠")],
        A.AddToMeld(3, c("8♠")),
        A.Discard(c("4♦")),
    )
    assert (end.history[0].note, end.history[0].note_data) == ("went_out", {"seat": 0})
    # eight cards that cannot all go: no question
    stuck = pos(
        hands={0: "Q♦ Q♥ K♥ 5♠ 6♠ 9♠ J♦ 4♦", 2: "K♠"}, melds={0: melds}, to_act=0, phase="meld"
    )
    assert A.ASK not in GAME.legal_actions(stuck)


def test_ask_when_this_turn_completes_the_requirement() -> None:
    """issue 16 item 5 — 002_91a2786a682fea8f.txt: 'Before going out, you may ask your partner'
    and 'You may only go out if your side has at least two sambas, two canastas, or one of each
    on the table' — the second canasta made in this very turn counts."""
    s = pos(
        hands={0: "K♦ K♥ 9♣", 2: "4♠"},
        melds={0: [CANASTAS[0], "K♣ K♣ K♠ K♠ K♦"]},
        to_act=0,
        phase="meld",
    )
    assert A.ASK in GAME.legal_actions(s)
    end = play(
        s, A.ASK, A.YES, A.AddToMeld(1, c("K♦")), A.AddToMeld(1, c("K♥")), A.Discard(c("9♣"))
    )
    assert end.history[0].breakdown[0]["going_out"] == 200


def test_ask_when_the_last_card_completes_the_requirement() -> None:
    """issue 16 item 5 — 002_91a2786a682fea8f.txt: 'You go out when you have no cards left –
    either by melding them all, or by melding all but one and discarding it'; 'Before going out,
    you may ask your partner'.  One card left that makes the second canasta: the question is
    offered, and after yes melding it is the only move."""
    s = pos(
        hands={0: "K♦", 2: "4♠"},
        melds={0: [CANASTAS[0], "K♣ K♣ K♠ K♠ K♥ K♥"]},
        to_act=0,
        phase="meld",
    )
    legal = GAME.legal_actions(s)
    assert A.ASK in legal and A.PASS in legal and A.AddToMeld(1, c("K♦")) in legal
    yes = play(s, A.ASK, A.YES)
    assert GAME.legal_actions(yes) == [A.AddToMeld(1, c("K♦"))]
    end = play(yes, A.AddToMeld(1, c("K♦")))
    assert (end.history[0].note, end.history[0].note_data) == ("went_out", {"seat": 0})
