"""Typed terminal commands map to engine actions (issue 10): multi-card melds, 1-based meld
numbers, take with a pair, undo, and the rule in words for an illegal command."""

from __future__ import annotations

import io

from rich.console import Console

from parlour import games
from parlour.cli.tui.session import Session
from parlour.games.samba.position import make_position

CANASTAS = ["A♣ A♣ A♦ A♥ A♠ A♠ A♦", "K♣ K♣ K♦ K♥ K♠ K♠ K♦"]


def _session(state: object) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    session = Session(games.get("samba"), 0, ["random"], 1, console=console, delay=0)
    session.state = state
    return session, out


def _run(session: Session, text: str) -> bool:
    game = session.game
    view = game.observe(session.state, 0)
    actions = session.adapter.parse(text, view, game.legal_actions(session.state))
    return session._apply_all(actions)


def test_meld_four_cards_then_add_by_number() -> None:
    """002_91a2786a682fea8f.txt: sequences of 'three or more natural cards of the same suit'."""
    s = make_position(
        hands={0: "7♥ 8♥ 9♥ 10♥ J♥ 5♣ 5♦"}, melds={0: CANASTAS}, to_act=0, phase="meld"
    )
    session, _ = _session(s)
    assert _run(session, "meld 7h 8h 9h TH")
    melds = session.state.melds[0]
    assert [len(m.cards) for m in melds] == [7, 7, 4]
    assert _run(session, "add J♥ to 3")  # meld 3 as displayed = the new sequence
    assert len(session.state.melds[0][2].cards) == 5


def test_illegal_command_shows_the_rule_and_changes_nothing() -> None:
    """002_91a2786a682fea8f.txt: 'Draw: take the top two cards of the stock' comes first."""
    s = make_position(hands={0: "7♥ 8♥ 5♣"}, melds={0: CANASTAS}, to_act=0, phase="draw")
    session, out = _session(s)
    before = session.state
    assert not _run(session, "discard 5c")
    assert session.state is before and session.record.actions == []
    assert "Not allowed" in out.getvalue() and "draw" in out.getvalue()


def test_take_pile_with_pair_in_any_order() -> None:
    """002_91a2786a682fea8f.txt: 'if you hold two natural cards of the same rank as the top
    card' you may take the pile."""
    s = make_position(
        hands={0: "9♥ 9♦ 5♣ 6♣"}, melds={0: CANASTAS}, pile="4♠ 9♣", to_act=0, phase="draw"
    )
    session, _ = _session(s)
    assert _run(session, "take 9h 9d")
    assert any(m.rank == 9 for m in session.state.melds[0])


def test_an_action_s_own_text_is_read_by_the_game_grammar() -> None:
    """Beyond the shorthand commands, a move's own text (as ``help`` lists it and the logs write
    it) is read by the game's declared grammar — also for a move the rules forbid now, so the
    engine names the rule instead of "I don't know"."""
    s = make_position(hands={0: "7♥ 8♥ 5♣"}, melds={0: CANASTAS}, to_act=0, phase="draw")
    session, out = _session(s)
    assert session.adapter.grammar is games.entry("samba").grammar
    view = session.game.observe(s, 0)
    legal = session.game.legal_actions(s)
    # "partner, may I go out?" has no shorthand: the grammar reads it (not legal while drawing)
    (ask,) = session.adapter.parse("Partner, may I go out?", view, legal)
    assert str(ask) == "partner, may I go out?" and ask not in legal
    assert not _run(session, "partner may i go out?")
    assert "Not allowed" in out.getvalue()
    assert _run(session, "DRAW")
