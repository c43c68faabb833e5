"""axe-core (vendored from the npm registry) on every page: no finding of any impact (critical,
serious, moderate or minor) on the lobby, each game's table mid-hand and at the end of a hand
and of the match, an unknown table, the replay viewer, the rules pages and the Chicago pad; and
text on the felt at WCAG AA contrast (axe cannot judge text on a gradient, so
tests/web/contrast.py does). The counts per page go to tests/artifacts/a11y.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.a11y import assert_no_findings
from tests.web.contrast import low_contrast
from tests.web.driver import seat_path, wait_state
from tests.web.test_rules_replay_lobby import finished_table

pytestmark = pytest.mark.browser

RESULTS: dict[str, dict[str, int]] = {}


@pytest.fixture(scope="module", autouse=True)
def write_counts(artifacts: Path) -> Any:
    yield
    (artifacts / "a11y.json").write_text(json.dumps(RESULTS, indent=1, sort_keys=True))


def test_lobby_rules_and_chicago_pad(page: Any, server: Any) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#seats select")
    page.locator("#options-box summary").click()
    page.locator("#bot-levels summary").click()
    RESULTS["lobby"] = assert_no_findings(page, "lobby")
    assert not low_contrast(page)
    for game in ("samba", "handfoot", "cheat", "scat", "chicago"):
        page.goto(f"{server.base}/rules/{game}")
        RESULTS[f"rules/{game}"] = assert_no_findings(page, f"rules page {game}")
        assert not low_contrast(page), game
    page.add_init_script(
        "localStorage.setItem('parlour.chicago', JSON.stringify({entries: "
        "['3S N +1', '3NT E =', '3DX W =', '6S S = honors4', 'pass'], options: {}}))"
    )
    page.goto(server.base + "/chicago")
    page.wait_for_selector("#round-1 tr.total")
    RESULTS["chicago"] = assert_no_findings(page, "Chicago pad")
    assert not low_contrast(page)


@pytest.mark.parametrize("game", ["samba", "handfoot", "cheat", "scat"])
def test_game_tables(page: Any, server: Any, game: str) -> None:
    """Each game's table a few moves in (the bots have played), our cards dealt."""
    t = server.post(
        "/api/tables", {"game": game, "options": {"max_hands": 1} if game != "cheat" else {}}
    )
    page.goto(server.base + seat_path(t))
    wait_state(page)
    page.wait_for_selector("#hand .card")
    page.wait_for_timeout(800)
    for close in ("#hand-end-close", "#match-end-close"):
        if page.locator(close).count():
            page.locator(close).click()
    RESULTS[f"table/{game}"] = assert_no_findings(page, f"{game} table")
    bad = low_contrast(page, ".table-page")
    assert not bad, f"{game}: text below WCAG AA contrast on the table: {bad}"
    page.click('.tabs button[data-tab="score"]')
    assert_no_findings(page, f"{game} table, score tab")


def test_replay_viewer(page: Any, server: Any) -> None:
    t = finished_table(server, "scat")
    page.goto(f"{server.base}/replay/{t['code']}#step=5")
    page.wait_for_selector("#verify-result")
    RESULTS["replay"] = assert_no_findings(page, "replay viewer")
    assert not low_contrast(page)


@pytest.mark.parametrize("game", ["samba", "handfoot", "cheat", "scat"])
def test_match_end(page: Any, server: Any, game: str) -> None:
    """A finished table: the match-end dialog (named by its heading) and the table under it."""
    t = finished_table(server, game)
    page.goto(f"{server.base}/t/{t['code']}")
    page.locator("#match-end").wait_for(timeout=15000)
    assert page.locator("#match-end").get_attribute("aria-labelledby")
    RESULTS[f"match-end/{game}"] = assert_no_findings(page, f"{game} match end")
    page.locator("#match-end-close").click()
    assert_no_findings(page, f"{game} finished table")


def test_hand_end_and_unknown_table(page: Any, server: Any) -> None:
    """The end-of-hand sheet (a Scat knock built with the position builder) and the page of a
    table that does not exist."""
    from parlour.games.scat.position import position as scat_position
    from tests.web.fake_table import open_position

    state = scat_position(hands=["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], pile="5♥", stock="9♣ 8♣", knocker=1)
    open_position(page, server, "scat", state, 0)
    page.locator("#stock").click()
    page.wait_for_function("parlour.version === 2")
    page.locator('#hand .card[data-card="2♣"]').click()
    page.locator('#actions button.action[data-type="Discard"]').click()
    page.locator("#hand-end").wait_for(timeout=5000)
    RESULTS["hand-end/scat"] = assert_no_findings(page, "Scat hand end")
    page.goto(f"{server.base}/t/NOSUCH2")
    page.locator("#closed").wait_for(timeout=10000)
    RESULTS["no-table"] = assert_no_findings(page, "unknown table")
