"""Screenshots of each game's table mid-hand, laptop (1280×900) and phone (390×844), for
docs/web.md: positions built with the games' position builders and served to the real page
(``tests/web/fake_table.py``), so the pictures show the same table every time.

    uv run python scripts/table_screenshots.py [--out docs/img]

Writes ``table-GAME-laptop.png`` and ``table-GAME-phone.png`` for samba, handfoot, cheat and
scat (a card selected, our turn), each reduced to a 256-colour palette like
``scripts/screenshots.py``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.screenshots import LAPTOP, PHONE, shrink  # noqa: E402
from tests.web.conftest import CHROMIUM, LAUNCH_ARGS, serve  # noqa: E402
from tests.web.driver import click_card  # noqa: E402
from tests.web.fake_table import open_position  # noqa: E402


def samba() -> tuple[Any, list[str]]:
    from parlour.games.samba.position import position

    state = position(
        hands={
            0: "K♦ Q♦ 9♦ 9♥ 9♠ 6♥ 7♦ 2♥ Jk 3♣ 8♥ 8♣",
            1: "5♦ 6♣ 9♣ 8♦ 4♠ 4♦ J♠ Q♣ 10♦",
            2: "4♣ 4♥ 5♥ 6♦ 7♣ 10♥ J♦ Q♥",
            3: "4♦ 5♠ 6♠ 7♠ 8♠ 10♠ A♣",
        },
        melds={
            0: ["A♣ A♦ A♥ A♠ 2♣", "K♣ K♥ K♠", "5♣ 6♣ 7♣ 8♣ 9♣", "J♣ J♦ J♥"],
            1: ["Q♠ Q♦ Q♥ Q♠", "7♥ 7♥ 7♦ Jk", "10♣ 10♦ 10♥"],
        },
        red_threes={0: "3♥", 1: "3♦"},
        opened=[True, True],
        to_act=0,
        phase="meld",
        pile="4♣ 6♠ 8♦ K♦ 5♦",
        hand_number=1,
        scores=[1240, 860],
    )
    return state, ["9♦", "9♥", "9♠"]


def handfoot() -> tuple[Any, list[str]]:
    from parlour.games.handfoot.position import position

    state = position(
        hands={
            0: "K♠ K♦ Q♦ 9♠ 9♣ 5♠ 6♠ 7♠ 7♦ 4♠ 8♥ 2♥",
            1: "6♣ 6♦ 8♣ 9♦ 10♥",
            2: "8♣ 8♦ J♥ Q♥",
            3: "9♦ 9♥ 5♦ 4♦ K♣ A♠",
        },
        melds={
            0: ["A♣ A♦ A♥ A♠ A♣ A♦ A♥", "K♣ K♥ K♠ Jk", "10♣ 10♦ 10♥", "7♣ 7♦ 7♥ 7♠"],
            1: ["Q♠ Q♦ Q♥ Q♠ Q♣ 2♣ 2♦", "5♣ 5♦ 5♥", "J♠ J♦ J♥ J♣"],
        },
        down=[0, 1, 2, 3],
        to_act=0,
        phase="drawn",
        pile="5♣ 6♠ 8♥ 4♣ 9♥ 10♠ Q♣ 6♥ 9♣",
    )
    return state, ["K♠", "K♦"]


def cheat() -> tuple[Any, list[str]]:
    from parlour.games.cheat.position import position

    state = position(
        hands={
            0: "5♣ 5♦ 9♥ J♠ Q♦ K♣ 2♥ 7♠",
            1: "3♦ 8♣ 10♥ A♠ 6♦ 4♣ J♥",
            2: "2♣ 6♠ 9♣ Q♥ K♦",
            3: "4♥ 7♦ 8♠ 10♣ A♦ 3♠ J♦ Q♣ 6♣",
        },
        rest=3,
        pile=[(1, "2♦", 2), (2, "3♣ 3♥", 3), (3, "4♦", 4)],
        turns=9,
    )
    return state, ["5♣", "5♦"]


def scat() -> tuple[Any, list[str]]:
    from parlour.games.scat.position import position

    state = position(
        hands=["A♥ K♥ 7♣ 9♥", "3♦ 4♦ 5♠", "Q♣ J♣ 2♦", "10♠ 8♠ 6♥"],
        pile="5♥ 2♣ K♦",
        phase="discard",
        taken="9♥",
        lives=[3, 2, 1, 3],
        hand_number=3,
        turn=5,
    )
    return state, ["7♣"]


GAMES: dict[str, Callable[[], tuple[Any, list[str]]]] = {
    "samba": samba,
    "handfoot": handfoot,
    "cheat": cheat,
    "scat": scat,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        serve(Path(tmp), "--no-rate-limit") as server,
        sync_playwright() as pw,
    ):
        browser: Any = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        for game in args.games:
            for kind, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
                phone = kind == "phone"
                ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                page = ctx.new_page()
                state, picks = GAMES[game]()
                open_position(page, server, game, state, 0)
                for card in picks:
                    click_card(page, card)
                page.wait_for_timeout(400)
                path = args.out / f"table-{game}-{kind}.png"
                page.screenshot(path=str(path))
                print(f"{path.name}: {shrink(path) // 1024} KB", flush=True)
                ctx.close()
        browser.close()


if __name__ == "__main__":
    main()
