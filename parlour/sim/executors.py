"""Where tournament games run: in this process, a local process pool (default: all cores), or Ray.

Every game is fully determined by its :class:`~parlour.sim.tournament.GameSpec` (match seed and
seating; bots are seeded from the match seed), and results are put back in plan order, so the same
plan gives the same results on any executor and any number of workers — as long as the bots are
bounded by iterations rather than by time.

Ray is optional (``uv sync --extra cluster``): ``executor="ray"`` connects to ``address`` (e.g.
``ray://head:10001`` or ``auto``) or starts a private local Ray with ``workers`` CPUs and no
dashboard, and shuts it down afterwards.

A run can be stopped early: at a ``deadline`` (a ``time.monotonic()`` time; the games in
progress are abandoned) or by Ctrl-C (``KeyboardInterrupt``).  Either way :func:`run_specs`
returns the games finished so far and :func:`stopped` tells why.
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from parlour.core.registry import Variant
from parlour.sim.tournament import GameResult, GameSpec, run_game

Progress = Callable[[GameResult, Sequence[GameResult]], None] | None
EXECUTORS = ("local", "ray")


class Stopped(Exception):
    """Raised inside an executor when the deadline passed."""


def stopped(planned: int, finished: int, why: str) -> str:
    """A line saying a run stopped early (``""`` when every game finished)."""
    if finished >= planned:
        return ""
    return f"stopped ({why}) after {finished} of {planned} games"


def _left(deadline: float | None) -> float | None:
    """Seconds to the deadline (``None``: no deadline); raises :class:`Stopped` past it."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise Stopped
    return left


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_specs(
    variant: Variant,
    specs: Sequence[GameSpec],
    *,
    executor: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: Progress = None,
    deadline: float | None = None,
) -> list[GameResult]:
    """Run the games and return their results in plan order: all of them, or the ones finished
    when the ``deadline`` (``time.monotonic()``) passed or Ctrl-C was pressed."""
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if executor != "ray" and address is not None:
        raise ValueError("--address is only used with --executor ray")
    done: list[GameResult] = []
    try:
        if executor == "ray":
            _run_ray(variant, specs, workers, address, progress, done, deadline)
        else:
            n = min(workers or default_workers(), max(len(specs), 1))
            if n == 1:
                _run_inline(variant, specs, progress, done, deadline)
            else:
                _run_pool(variant, specs, n, progress, done, deadline)
    except (Stopped, KeyboardInterrupt):
        pass
    return sorted(done, key=lambda r: r.index)


def _run_inline(
    variant: Variant,
    specs: Sequence[GameSpec],
    progress: Progress,
    done: list[GameResult],
    deadline: float | None,
) -> None:
    for spec in specs:
        _left(deadline)  # in this process a game in progress runs to its end
        done.append(run_game(variant, spec))
        if progress:
            progress(done[-1], done)


def _run_pool(
    variant: Variant,
    specs: Sequence[GameSpec],
    workers: int,
    progress: Progress,
    done: list[GameResult],
    deadline: float | None,
) -> None:
    # the workers are forked: what this process has made so far goes into the collector's
    # permanent generation first, so their full collections do not scan it again (nor touch,
    # and so copy, its pages)
    gc.freeze()
    pool = ProcessPoolExecutor(max_workers=workers)
    finished_all = False
    try:
        pending = {pool.submit(run_game, variant, spec) for spec in specs}
        while pending:
            finished, pending = wait(pending, _left(deadline), FIRST_COMPLETED)
            for fut in finished:
                done.append(fut.result())
                if progress:
                    progress(done[-1], done)
        finished_all = True
    finally:
        if not finished_all:  # stopped: the games in progress are abandoned
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
        else:
            pool.shutdown()
        gc.unfreeze()


def _ray_run_game(variant: Variant, spec: GameSpec) -> GameResult:
    return run_game(variant, spec)


def _run_ray(
    variant: Variant,
    specs: Sequence[GameSpec],
    workers: int | None,
    address: str | None,
    progress: Progress,
    done: list[GameResult],
    deadline: float | None,
) -> None:
    # Ray replicates a `uv run` driver's environment on its workers by re-running uv there, which
    # fails offline and is not needed when the workers share this interpreter; opt back in by
    # setting the variable yourself.
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "the ray executor needs Ray: install the cluster extra (uv sync --extra cluster, "
            "or pip install 'parlour[cluster]')"
        ) from None
    tmp: str | None = None
    started_here = False
    if not ray.is_initialized():
        started_here = True
        if address is not None:
            ray.init(address=address, log_to_driver=False)
        else:
            tmp = tempfile.mkdtemp(
                prefix="parlour-ray-", dir="/tmp" if os.path.isdir("/tmp") else None
            )
            ray.init(
                num_cpus=workers or default_workers(),
                include_dashboard=False,
                _temp_dir=tmp,
                log_to_driver=False,
            )
    try:
        remote: Any = ray.remote(_ray_run_game)
        vref = ray.put(variant)
        pending = [remote.remote(vref, spec) for spec in specs]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1, timeout=_left(deadline))
                for ref in ready:
                    done.append(ray.get(ref))
                    if progress:
                        progress(done[-1], done)
        finally:
            for ref in pending:  # stopped: the games in progress are abandoned
                ray.cancel(ref, force=True)
    finally:
        if started_here:
            ray.shutdown()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
