"""Every Parlour game as an OpenSpiel python game.

>>> import pyspiel
>>> from parlour.rl import openspiel
>>> game = pyspiel.load_game("python_parlour_scat", {"players": 3, "options": '{"max_hands": 2}'})
>>> game.num_players(), game.num_distinct_actions()
(3, 112)

``register()`` (run on import) registers ``python_parlour_samba``, ``python_parlour_handfoot``,
``python_parlour_cheat`` and ``python_parlour_scat``.  Parameters: ``preset`` (the registry's
preset name, ``""`` = the default), ``players`` (``0`` = the preset's), ``options`` (rules
options as a JSON object, e.g. ``{"max_hands": 1}``) and ``rng_seed`` (deals of successive
``new_initial_state()`` calls come from ``rng_seed``, ``rng_seed + 1``, …).

Chance is *sampled*: the engine shuffles each hand itself from the match seed, so there are no
chance nodes.  ``resample_from_infostate`` re-deals every card the player cannot see
(``game.determinize`` of its view); ``information_state_string`` is the player's whole view as
JSON (everything it may know now: the claims and exposures of Cheat, the pile and melds of
Samba …), ``observation_tensor`` the tensor of ``docs/research.md``.  Returns are the match-end
rewards of :mod:`parlour.rl.core` (zero-sum).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from parlour import games
from parlour.core.registry import Variant
from parlour.rl.core import match_rewards, utility_bound
from parlour.rl.encoding import Encoding, encoding_for

GAMES = ("samba", "handfoot", "cheat", "scat")
_PLAYERS = {"samba": (2, 6), "handfoot": (4, 4), "cheat": (2, 10), "scat": (2, 16)}
#: an upper bound on decisions per match (OpenSpiel's max_game_length; matches are far shorter)
MAX_GAME_LENGTH = 1_000_000


def short_name(game: str) -> str:
    return f"python_parlour_{game}"


def _game_type(name: str) -> Any:
    lo, hi = _PLAYERS[name]
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Parlour {games.entry(name).description}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"preset": "", "players": 0, "options": "", "rng_seed": 0},
    )


class _Holder:
    """The engine state inside an OpenSpiel state.  Engine states are never changed once made
    (``apply`` returns a new one), so OpenSpiel's deep copy on ``clone`` can share them."""

    __slots__ = ("ids", "legal", "state")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.legal: Any = None  # the engine's legal actions, and their ids, once asked
        self.ids: list[int] = []

    def legal_now(self, game: Any, encoding: Encoding) -> tuple[Any, list[int]]:
        if self.legal is None:
            self.legal = game.legal_actions(self.state)
            self.ids = [encoding.action_to_id(self.state, a) for a in self.legal]
        return self.legal, self.ids

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        new = _Holder(self.state)
        new.legal, new.ids = self.legal, self.ids
        return new

    def __getstate__(self) -> Any:
        return self.state

    def __setstate__(self, state: Any) -> None:
        self.state = state
        self.legal = None
        self.ids = []


class ParlourSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Parlour game with its rules as an OpenSpiel game."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = str(params.get("preset", "")) or None
        players = int(params.get("players", 0)) or None
        options_text = str(params.get("options", ""))
        options = json.loads(options_text) if options_text else {}
        self.rng_seed = int(params.get("rng_seed", 0))
        self._next_seed = self.rng_seed
        self._deals: dict[int, Any] = {}
        self.variant: Variant = games.get(self.game_name, preset, players, **options)
        self.encoding: Encoding = encoding_for(self.variant)
        n = int(self.variant.rules.players)  # type: ignore[attr-defined]
        bound = utility_bound(self.variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(self.game_name), info, params)

    def new_initial_state(self) -> ParlourSpielState:
        """A new match dealt from the next seed.  The seed moves on when a match's first action
        is applied: OpenSpiel makes (and observes) throw-away initial states to learn tensor
        shapes and to clone, and those reuse one cached deal."""
        return ParlourSpielState(self, self._next_seed)

    def deal(self, seed: int) -> Any:
        """The engine's initial state for ``seed`` (the last few are cached)."""
        state = self._deals.get(seed)
        if state is None:
            if len(self._deals) >= 4:
                self._deals.pop(next(iter(self._deals)))
            state = self._deals[seed] = self.variant.game.new_game(self.variant.rules, seed)
        return state

    def started(self, seed: int) -> None:
        if seed >= self._next_seed:
            self._next_seed = seed + 1

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ParlourObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ParlourObserver(self.encoding, perfect_recall)


class ParlourSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: ParlourSpielGame, seed: int = 0) -> None:
        super().__init__(game)
        # dealt on first use: OpenSpiel's clone makes a new initial state and then overwrites
        # its attributes, so an eager deal would be thrown away on every clone
        self._seed = seed
        self._dealt: _Holder | None = None

    @property
    def _h(self) -> _Holder:
        if self._dealt is None:
            self._dealt = _Holder(self.get_game().deal(self._seed))
        return self._dealt

    @_h.setter
    def _h(self, holder: _Holder) -> None:
        self._dealt = holder

    # the variant and encoding are found from the game (not stored: states are pickled)
    @property
    def engine_state(self) -> Any:
        return self._h.state

    def _variant(self) -> Variant:
        return self.get_game().variant  # type: ignore[no-any-return]

    def _encoding(self) -> Encoding:
        return self.get_game().encoding  # type: ignore[no-any-return]

    def current_player(self) -> int:
        seat = self._variant().game.to_act(self._h.state)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        h = self._h
        game = self._variant().game
        if game.to_act(h.state) != player:
            return []
        return sorted(h.legal_now(game, self._encoding())[1])

    def _apply_action(self, action: int) -> None:
        game = self._variant().game
        if self.move_number() == 0:
            self.get_game().started(self._seed)
        h = self._h
        legal, ids = h.legal_now(game, self._encoding())
        i = int(action)
        if i in ids:
            new = game.apply_quiet(h.state, legal[ids.index(i)])
        else:
            new, _ = game.apply(h.state, self._encoding().id_to_action(h.state, i))
        self._h = _Holder(new)

    def _action_to_string(self, player: int, action: int) -> str:
        enc = self._encoding()
        try:
            return str(enc.id_to_action(self._h.state, int(action)))
        except (ValueError, IndexError, KeyError):
            return enc.describe_id(int(action))

    def is_terminal(self) -> bool:
        return self._variant().game.to_act(self._h.state) is None

    def returns(self) -> list[float]:
        variant = self._variant()
        n = int(variant.rules.players)  # type: ignore[attr-defined]
        if not self.is_terminal():
            return [0.0] * n
        return match_rewards(variant.game.outcome(self._h.state), n)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one: every hidden card dealt again."""
        game = self._variant().game
        view = game.observe(self._h.state, player_id)
        seed = int(probability_sampler() * 2**31) if probability_sampler is not None else 0
        new_state = self.clone()
        new_state._h = _Holder(game.determinize(view, random.Random(seed)))
        return new_state

    def __str__(self) -> str:
        variant = self._variant()
        game = variant.game
        state = self._h.state
        seat = game.to_act(state)
        out = game.outcome(state)
        head = f"{variant.name} ({variant.preset}) hand {game.hand_number(state) + 1}"
        if seat is None:
            return f"{head} over: scores {list(out.scores)} winners {list(out.winners)}"
        view = game.observe(state, seat)
        return f"{head}, seat {seat} to act\n" + self._encoding().observation_string(view)


class ParlourObserver:
    """OpenSpiel's observer protocol: ``tensor``/``dict`` and ``string_from``."""

    def __init__(self, encoding: Encoding, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoding.observation_shape, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        view = self.encoding.game.observe(state.engine_state, player)
        self.encoding.observation(view, out=self.tensor)

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        game = self.encoding.game
        view = game.observe(state.engine_state, player)
        if self.perfect_recall:
            return json.dumps(game.view_to_json(view), sort_keys=True, separators=(",", ":"))
        return self.encoding.observation_string(view)


_CLASSES: dict[str, type[ParlourSpielGame]] = {}


def register() -> None:
    """Register the four games with OpenSpiel (once)."""
    for name in GAMES:
        if name in _CLASSES:
            continue
        cls = type(f"Parlour{name.title()}Game", (ParlourSpielGame,), {"game_name": name})
        _CLASSES[name] = cls
        pyspiel.register_game(_game_type(name), cls)


def load(game: str, preset: str | None = None, players: int | None = None, **options: Any) -> Any:
    """``pyspiel.load_game`` of a Parlour game with a preset, players and rules options."""
    register()
    params: dict[str, Any] = {}
    if preset:
        params["preset"] = preset
    if players:
        params["players"] = players
    if options:
        params["options"] = json.dumps(options, sort_keys=True)
    return pyspiel.load_game(short_name(game), params)


register()
