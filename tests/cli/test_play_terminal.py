"""``parlour play`` driven in a pseudo-terminal (issue 10): whole games by typed commands,
wrong input included, and the state unchanged after each rejected command."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

import parlour
from parlour import games
from parlour.core.cards import card_str, rank_of, rank_str
from parlour.core.replay import MatchRecord

PROMPT = r"\]> "


def _spawn(args: list[str], tmp: Path) -> pexpect.spawn:
    exe = shutil.which("parlour") or str(Path(sys.executable).parent / "parlour")
    child = pexpect.spawn(
        exe,
        args,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
        cwd=str(tmp),
        env={
            "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
            "TERM": "dumb",
            "COLUMNS": "200",
            # the checkout under test, not another installed copy of parlour
            "PYTHONPATH": str(Path(parlour.__file__).resolve().parents[1]),
        },
    )
    return child


def _prompt(child: pexpect.spawn) -> int:
    """Wait for the prompt (or the end), then until the terminal is quiet: readline may draw
    the prompt again, and the state file must be read only while the program waits for input."""
    i = int(child.expect([PROMPT, "Match over"]))
    if i == 1:
        return 1
    while child.expect([PROMPT, "Match over", pexpect.TIMEOUT], timeout=0.3) != 2:
        pass
    return 0


def _state(save: Path) -> tuple[object, object, MatchRecord]:
    record = MatchRecord.load(save)
    state, _ = record.replay(games)

    return games.entry(record.game).game, state, record


def test_samba_hand_by_typed_commands(tmp_path: Path) -> None:
    """A complete Samba hand (max_hands=1) played by typing draw / meld / discard, with wrong
    input that is rejected with the rule in words and changes nothing."""
    from parlour.games.samba import actions as A

    save = tmp_path / "samba.json"
    child = _spawn(
        [
            "play",
            "samba",
            "--seed",
            "11",
            "--fast",
            "--bots",
            "random",
            "-o",
            "max_hands=1",
            "--save",
            str(save),
        ],
        tmp_path,
    )
    wrong_done = set()
    for _ in range(400):
        if _prompt(child) == 1:
            break
        game, state, record = _state(save)
        n_before = len(record.actions)
        legal = game.legal_actions(state)  # type: ignore[attr-defined]
        if "bad-card" not in wrong_done:
            wrong_done.add("bad-card")
            child.sendline("discard ZZ")
            child.expect("not a card")
            continue
        if "nonsense" not in wrong_done:
            wrong_done.add("nonsense")
            child.sendline("fly away")
            child.expect("type help")
            continue
        if any(isinstance(a, A.Draw) for a in legal):
            if "illegal" not in wrong_done:
                wrong_done.add("illegal")
                child.sendline("discard AS")  # must draw first
                child.expect("Not allowed")
                assert len(MatchRecord.load(save).actions) == n_before
                continue
            child.sendline("draw")
            continue
        discards = [a for a in legal if isinstance(a, A.Discard)]
        stage = [a for a in legal if isinstance(a, A.Stage)]
        if discards:
            child.sendline(f"discard {card_str(discards[0].card, ascii=True)}")
        elif any(isinstance(a, A.Pass) for a in legal):
            child.sendline("pass")
        elif any(isinstance(a, A.AnswerGoOut) for a in legal):
            child.sendline("yes")
        elif stage:
            child.sendline("undo")
        else:
            child.sendline("1")
    else:
        pytest.fail("the hand did not end")
    child.expect(pexpect.EOF)
    game, state, record = _state(save)
    outcome = game.outcome(state)  # type: ignore[attr-defined]
    assert outcome.finished and len(outcome.hands) == 1
    assert wrong_done == {"bad-card", "nonsense", "illegal"}


def test_cheat_game_by_typed_commands(tmp_path: Path) -> None:
    """A complete Cheat game typed as play … as R / cheat / pass, with wrong input."""
    save = tmp_path / "cheat.json"
    child = _spawn(
        [
            "play",
            "cheat",
            "--players",
            "3",
            "--seed",
            "5",
            "--fast",
            "--bots",
            "random",
            "--save",
            str(save),
        ],
        tmp_path,
    )
    wrong = 0
    turn = 0
    for _ in range(3000):
        if _prompt(child) == 1:
            break
        game, state, _record = _state(save)
        view = game.observe(state, 0)  # type: ignore[attr-defined]
        turn += 1
        if wrong < 2:
            wrong += 1
            child.sendline("play QX" if wrong == 1 else "play")
            child.expect("not a card" if wrong == 1 else "play which cards")
            continue
        if view.phase in ("window", "late"):
            child.sendline("cheat" if turn % 5 == 0 else "pass")
            continue
        if view.allowed_ranks:
            rank = view.allowed_ranks[0]
            truthful = [c for c in view.hand if rank_of(c) == rank][:4]
            cards = truthful or sorted(view.hand)[:1]
            child.sendline(f"play {' '.join(card_str(c) for c in cards)} as {rank_str(rank)}")
        else:
            child.sendline("1")
    else:
        pytest.fail("the game did not end")
    child.expect(pexpect.EOF)
    game, state, _ = _state(save)
    assert game.outcome(state).finished  # type: ignore[attr-defined]


def test_handfoot_seat_1_names_each_player_the_same_in_the_panel_and_the_log(
    tmp_path: Path,
) -> None:
    """Issue 15: ``parlour play handfoot --seat 1`` called the same player "North" in the table
    panel and "East" in the log (the engine wrote absolute seat names, the panel counts from the
    player's side).  Now both name seats from the player's side: partner (seat 3) North in the
    panel and "your partner" in the log, seat 0 East, seat 2 West — in both."""
    from parlour.games.handfoot.actions import Discard

    save = tmp_path / "handfoot.json"
    # seed 4: seat 2 plays first, so seats 2, 3 and 0 have played when seat 1 is asked
    child = _spawn(
        ["play", "handfoot", "--seat", "1", "--seed", "4", "--fast", "--save", str(save)], tmp_path
    )
    seen = io.StringIO()
    child.logfile_read = seen
    assert _prompt(child) == 0
    screen = seen.getvalue()
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "North & You" in screen and "West & East" in screen  # the panel, from seat 1
    assert "East 24, You 15" in screen  # seat 0 is East in the panel ...
    assert "East discards 7♥" in screen  # ... and in the log (it used to say "South")
    assert "South discards" not in screen and "North discards" not in screen

    # The whole log so far, as the terminal tells it to seat 1 (the resume path of a save):
    # each discard names its player as the panel does.
    from parlour import games
    from parlour.cli.tui.session import Session

    record = MatchRecord.load(save)
    console = Console(file=io.StringIO(), width=120, color_system=None)
    session = Session(games.get("handfoot"), 1, [], record.seed, console=console, record=record)
    names = [session.seat_name(s) for s in range(4)]
    assert names == ["East", "You", "West", "North"]
    game = session.game
    state = game.new_game(games.get("handfoot").rules, record.seed)
    said = {0: "East", 2: "West", 3: "Your partner"}
    discards = []
    for data in record.actions:
        action = game.action_from_json(data)
        seat = game.to_act(state)
        state, _ = game.apply(state, action)
        if isinstance(action, Discard):
            discards.append(f"{said[seat]} discards {card_str(action.card)}")
    assert len(discards) == 3
    assert [line for line in session.log if " discards " in line] == discards


def test_hint_and_review_in_the_terminal(tmp_path: Path) -> None:
    """``hint`` answers with the search's move, the moves it compared with their values and a
    reason; ``review`` after a hand lists the decisions the search would change (or says none
    stands out), from the views the player had."""
    save = tmp_path / "scat.json"
    child = _spawn(
        [
            "play",
            "scat",
            "--players",
            "2",
            "--seed",
            "7",
            "--fast",
            "--bots",
            "basic",
            "-o",
            "max_hands=2",
            "--hint-budget",
            "24it",
            "--review-budget",
            "12it",
            "--save",
            str(save),
        ],
        tmp_path,
    )
    assert _prompt(child) == 0
    child.sendline("review")
    child.expect("no hand is finished yet")
    assert _prompt(child) == 0
    child.sendline("hint")
    child.expect(r"hint: (.+) — ")
    child.expect("compared")
    reviewed = False
    for _ in range(200):
        if _prompt(child) == 1:
            break
        game, state, _record = _state(save)
        if len(game.outcome(state).hands) >= 1:  # type: ignore[attr-defined]
            child.sendline("review")
            child.expect(r"Review of hand 1: (\d+) of your (\d+) decisions checked")
            assert child.match is not None
            checked, made = int(child.match.group(1)), int(child.match.group(2))
            assert 1 <= checked <= made
            child.expect(r"the search prefers .+ \+\d\.\d\d: |no decision stands out")
            reviewed = True
            break
        child.sendline("1")
    assert reviewed, "no hand ended"
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_score_sheet_notes_are_told_from_the_players_seat() -> None:
    """Issue 15: the terminal's score sheet says how each hand ended from the player's side —
    "You went out", "Your partner went out", "East went out" — never "seat 3 went out"."""
    import re

    from parlour.cli.tui.session import Session
    from parlour.games.samba.scoring import VALUE, hand_result

    variant = games.get("samba")
    console = Console(file=io.StringIO(), width=160, color_system=None)
    session = Session(variant, 1, [], 5, console=console)
    sides = session.game.sides_of(session.state)
    empty = [(0,) * len(VALUE)] * 4
    session.state.history = tuple(
        hand_result(n, variant.rules, sides, [(), ()], [(), ()], empty, out)
        for n, out in enumerate((1, 3, 0, None))
    )
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        session.adapter.score_sheet(session.game.outcome(session.state), session)
    )
    sheet = out.getvalue()
    for said in ("You went out", "Your partner went out", "East went out", "The stock ran out"):
        assert said in sheet, sheet
    assert not re.search(r"\bseat \d", sheet, re.IGNORECASE)
