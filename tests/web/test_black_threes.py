"""The Samba table's "new meld" button with black 3s selected (parlour/web/js/samba.js): black 3s
may be melded only when going out, three or four of them, with wild cards as in any group
(seed 002: "Black 3s: can be laid out as a group (following the normal group rules) only in
the turn in which you go out" — the normal group rules allow wild cards; Samba option
``black_three_wilds``, docs/games/samba.md). The engine takes one ``MeldBlackThrees`` with
its cards in its own order, so the button must send the selection in that order whatever order
the player clicked the cards in.

The positions are real ones: seeded random games are played until the engine lists
``MeldBlackThrees`` actions (some with a joker or a 2), and the browser's button is asked for
each with the cards shuffled."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour import games

pytestmark = pytest.mark.browser

#: the table's click handler and label, called as the table calls them (a fake ctx records what
#: would be sent to the server, or the error shown)
CLICK_JS = """async ([selections, names]) => {
  const m = await import("/static/js/samba.js");
  const out = [];
  for (const sel of selections) {
    const got = {sent: null, error: null};
    const ctx = {
      view: {pending: []}, rules: {wild_melds: true}, seat: 0,
      sendAll: (actions) => { got.sent = actions; },
      showError: (text) => { got.error = text; },
      say: (text) => text,
    };
    // the decks' equal cards (two 3♣) are both selected: the handler only iterates the selection
    ctx.selected = { [Symbol.iterator]: function* () { yield* sel; }, get size() { return sel.length; } };
    m.game.onNewMeld(ctx);
    if (got.sent) got.label = m.game.label(ctx, {action: got.sent[0]});
    out.push(got);
  }
  return out;
}"""


def _black_three_melds(wanted: int = 24) -> list[dict[str, Any]]:
    """Distinct ``MeldBlackThrees`` actions the engine lists in seeded random 4-player games
    (default options: wild cards allowed with black 3s), as JSON."""
    variant = games.get("samba", players=4)
    game = variant.game
    rules = variant.rules.replace(**variant.entry.random_play_options)
    rng = random.Random(2)
    seen: dict[str, dict[str, Any]] = {}
    with_wild = 0
    for seed in range(1, 5000):
        state = game.new_game(rules, seed)
        while game.to_act(state) is not None:
            legal = game.legal_actions(state)
            for a in legal:
                if type(a).__name__ == "MeldBlackThrees":
                    j = game.action_to_json(a)
                    key = " ".join(j["cards"])
                    if key not in seen:
                        seen[key] = j
                        with_wild += any(c == "Jk" or c.startswith("2") for c in j["cards"])
            state = game.apply_quiet(state, legal[rng.randrange(len(legal))])
        if len(seen) >= wanted and with_wild >= 3:
            break
    return list(seen.values())


def test_the_new_meld_button_sends_black_threes_in_the_engines_order(
    page: Any, server: Any
) -> None:
    melds = _black_three_melds()
    assert len(melds) >= 10
    assert any(any(c == "Jk" or c.startswith("2") for c in m["cards"]) for m in melds)
    rng = random.Random(7)
    selections = []
    for m in melds:
        cards = list(m["cards"])
        rng.shuffle(cards)
        selections.append(list(reversed(m["cards"])))  # clicked in the opposite order
        selections.append(cards)  # and in a random one
    page.goto(server.base + "/")
    got = page.evaluate(CLICK_JS, [selections, None])
    for i, m in enumerate(melds):
        for answer in got[2 * i : 2 * i + 2]:
            assert answer["error"] is None
            assert answer["sent"] == [m], (answer["sent"], m)
            # the player reads the meld in words, without the rule's source
            assert answer["label"] == "Meld black 3s " + " ".join(m["cards"])


def test_black_threes_with_a_natural_card_are_not_a_black_three_meld(
    page: Any, server: Any
) -> None:
    """A black 3 is never melded with natural cards of another rank (seed 002: the normal group
    rules, one rank): the button does
    not send ``MeldBlackThrees`` for such a selection, and the player is told what a meld is."""
    page.goto(server.base + "/")
    got = page.evaluate(CLICK_JS, [[["3♣", "3♠", "5♥"], ["3♠", "K♦", "K♥", "Jk"]], None])
    for answer in got:
        assert answer["sent"] is None or all(a["type"] != "MeldBlackThrees" for a in answer["sent"])
    assert got[0]["error"] is not None and "do not make one meld" in got[0]["error"]
