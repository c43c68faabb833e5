"""The research API: every Parlour game as fixed action ids, observation tensors, PettingZoo
AEC environments, OpenSpiel python games, a single-seat Gymnasium environment and batched play.

Needs the optional extra ``rl`` (``uv sync --extra rl``): numpy, pettingzoo, gymnasium and
open-spiel.  See ``docs/research.md``.
"""

from __future__ import annotations
