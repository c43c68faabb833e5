"""Bots in processes of their own, so a thinking bot never holds the server's event loop or the
interpreter lock that the loop needs.

The server sends a bot's job (the game, its rules, the state, the seat, the bot's level and seed)
to a :class:`~concurrent.futures.ProcessPoolExecutor`; the worker computes what the seat may see
(``game.observe``), lets the bot choose and answers with the action as JSON and the CPU seconds it
used, which the table charges to its bot budget (``ServerConfig.bot_budget``: a table that used
its thinking time has its moves played by the quick stand-in bot until the budget comes back).

Hints and the reviews of finished hands (``parlour.bots.advice``, the same search) run in these
workers too when there are any (:class:`ThinkJob`).

Bots keep no memory between moves here (each move builds its bot from a seed derived from the
table, the seat and the move number), so any worker can play any move of any table.
"""

from __future__ import annotations

import importlib
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from parlour.core.bot import Bot
from parlour.core.game import Game
from parlour.core.registry import Variant


@dataclass(frozen=True)
class BotJob:
    game: str
    preset: str
    rules: dict[str, Any]
    #: the module defining the game's class (a plug-in game is registered from it in a worker)
    module: str
    bot: str
    seat: int
    seed: int
    state: Any


@dataclass(frozen=True)
class ThinkJob:
    """A hint (``advice.advise``) or a hand's review (``advice.review``) for a worker: the
    search runs there, not in a thread beside the event loop."""

    game: str
    preset: str
    rules: dict[str, Any]
    module: str
    #: "advise" or "review"
    kind: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


_VARIANTS: dict[tuple[str, str, str], Variant] = {}


def _variant(job: BotJob | ThinkJob) -> Variant:
    import json

    from parlour import games
    from parlour.core.errors import ParlourError

    key = (job.game, job.preset, json.dumps(job.rules, sort_keys=True))
    variant = _VARIANTS.get(key)
    if variant is None:
        try:
            entry = games.entry(job.game)
        except ParlourError:
            module = importlib.import_module(job.module)
            if hasattr(module, "ENTRY"):
                games._registry.register(module.ENTRY)
            entry = games.entry(job.game)
        variant = Variant(entry, job.preset, entry.rules_type.from_json(job.rules))
        if len(_VARIANTS) > 256:
            _VARIANTS.clear()
        _VARIANTS[key] = variant
    return variant


def play(job: BotJob) -> tuple[dict[str, Any], float]:
    """In a worker: the bot's move as JSON and the CPU seconds it took."""
    from parlour import bots as bot_registry

    started = time.process_time()
    variant = _variant(job)
    game = variant.game
    bot = bot_registry.make(job.bot, variant, job.seat, job.seed)
    action = bot.act(game.observe(job.state, job.seat), game.legal_actions(job.state))
    return game.action_to_json(action), time.process_time() - started


def think(job: ThinkJob) -> tuple[Any, float]:
    """In a worker: the search's advice (or review) and the CPU seconds it took."""
    from parlour.bots import advice

    started = time.process_time()
    variant = _variant(job)
    if job.kind == "advise":
        result: Any = advice.advise(variant, *job.args, **job.kwargs)
    elif job.kind == "review":
        result = advice.review(variant, *job.args, **job.kwargs)
    else:
        raise ValueError(f"no such thinking job: {job.kind!r}")
    return result, time.process_time() - started


def choose(bot: Bot, game: Game[Any, Any, Any, Any], state: Any, seat: int) -> tuple[Any, bool]:
    """A bot's move, computed from what its seat may see (a bot that reads no view, such as
    ``random``, is not given one: it cannot see more than the legal actions), and whether it is
    one of the legal actions it was offered (the very object: then the table need not check it
    again; a bot that made up its own is checked by the engine as a client's move is)."""
    view = game.observe(state, seat) if bot.needs_view else None
    legal = game.legal_actions(state)
    action = bot.act(view, legal)
    return action, any(a is action for a in legal)


def _warm() -> None:
    from parlour import bots, games

    games.names()
    bots.available  # noqa: B018 - import the bot registry


def new_pool(processes: int) -> ProcessPoolExecutor:
    """Worker processes started fresh (``forkserver`` where there is one, else ``spawn``): never
    a fork of a server that runs threads."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ProcessPoolExecutor(processes, mp_context=ctx, initializer=_warm)
