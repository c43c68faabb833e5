"""Issue 21: bots in a process pool.  Strong bots think in worker processes (not threads of the
server's interpreter), each table charged the CPU time its bots used; a table over its budget has
its moves played by the quick stand-in, and other tables' bots and pings stay prompt."""

from __future__ import annotations

import statistics
import time

from parlour import games
from parlour.server import botpool
from tests.server.conftest import live_server


def test_a_worker_plays_a_move_from_the_state_and_reports_its_cpu_time() -> None:
    variant = games.get("samba")
    state = variant.game.new_game(variant.rules, 5)
    job = botpool.BotJob(
        game="samba",
        preset=variant.preset,
        rules=variant.rules.to_json(),
        module=type(variant.game).__module__,
        bot="basic",
        seat=variant.game.to_act(state),  # type: ignore[arg-type]
        seed=9,
        state=state,
    )
    with botpool.new_pool(1) as pool:
        action, cpu = pool.submit(botpool.play, job).result(timeout=120)
    legal = [variant.game.action_to_json(a) for a in variant.game.legal_actions(state)]
    assert action in legal
    assert cpu >= 0
    # the same job in this process gives the same move (bots are seeded, keep no memory)
    assert botpool.play(job)[0] == action


def test_strong_bots_in_processes_keep_other_tables_prompt_within_their_budget() -> None:
    with live_server(bot_processes=2, bot_budget=1.5, bot_budget_rate=0.0) as server:
        assert server.app.state.server.bot_procs is not None
        c, st = server.busy_with("strong:1")
        # while the strong bots think, the server answers pings at once
        pings = []
        for i in range(20):
            sent = time.perf_counter()
            c.send({"type": "ping", "t": i})
            c.until("pong", t=i)
            pings.append(time.perf_counter() - sent)
            time.sleep(0.05)
        assert statistics.median(pings) < 0.25, pings
        c.act(st["legal"][0]["action"])
        version = st["version"]
        started = time.monotonic()
        while True:
            st = c.until("state", timeout=60)
            if st["version"] >= version + 2 or st["status"] == "finished":
                break
        assert time.monotonic() - started < 8  # the random bot answered despite the others
        tables = server.app.state.server.tables
        strong = [x for x in tables.values() if x.seats[0].bot == "strong:1"]
        deadline = time.monotonic() + 90
        while any(x.status != "finished" for x in strong) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert all(x.status == "finished" for x in strong)
        # each table was charged the CPU its bots used, then the stand-in played
        assert all(x.bot_budget <= 0.5 for x in strong)
        c.close()
