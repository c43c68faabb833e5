"""Every Parlour game as an OpenSpiel python game.

>>> import pyspiel
>>> from parlour.rl import openspiel
>>> game = pyspiel.load_game("python_parlour_scat", {"players": 3, "options": '{"max_hands": 2}'})
>>> game.num_players(), game.num_distinct_actions()
(3, 112)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 256)

``register()`` (run on import) registers ``python_parlour_samba``, ``python_parlour_handfoot``,
``python_parlour_cheat`` and ``python_parlour_scat``.  Parameters: ``preset`` (the registry's
preset name, ``""`` = the default), ``players`` (``0`` = the preset's) and ``options`` (rules
options as a JSON object, e.g. ``{"max_hands": 1}``, or as ``max_hands:1;hand_size:7``, the
form the game's string keeps).

Chance is *explicit*: a match begins with :data:`SEED_BYTES` chance nodes, each choosing one
byte (256 equally likely outcomes) of the match's 32-bit deal seed; the engine then deals every
hand of the match from that seed, so a state is its history (``serialize`` is the history and
``pyspiel.serialize_game_and_state`` works).  ``resample_from_infostate`` re-deals every card
the player cannot see (``game.determinize`` of its view).

Observations (see ``docs/research.md``): ``observation_tensor`` / ``observation_string`` are the
tensor of the player's view now.  ``information_state_tensor`` is that tensor followed by the
player's recall of its own play (its last action one-hot, its decisions and all decisions so
far); ``information_state_string`` is the observation string followed by a digest of everything
the player has observed since the deal (a BLAKE2b chain over its observation tensor after every
move and its own actions), so two histories the player can tell apart have different strings
(perfect recall).  Returns are the match-end rewards of :mod:`parlour.rl.core` (zero-sum).
"""

from __future__ import annotations

import hashlib
import json
import random
import weakref
from typing import Any

import numpy as np
import pyspiel

from parlour import games
from parlour.core.registry import Variant
from parlour.rl.core import match_rewards, utility_bound
from parlour.rl.encoding import Encoding, encoding_for

GAMES = ("samba", "handfoot", "cheat", "scat")
_PLAYERS = {"samba": (2, 6), "handfoot": (4, 4), "cheat": (2, 10), "scat": (2, 16)}
#: decisions after which a match ends as a draw (parameter ``max_length``, 0 = this default).
#: Random matches are far shorter (the longest of 200 random Scat matches: 176 decisions, of
#: 50 Cheat 6,347, of 5 Bolivia 30,283), but a policy can keep a match going for ever where
#: the rules allow it: in Scat, with the stock empty, "play goes on with players taking the
#: previous discard" -- a policy that always takes it never ends the hand.  OpenSpiel's
#: ``max_game_length`` must bound every match, so a match reaching it is cut there.
MAX_LENGTH = {"samba": 200_000, "handfoot": 100_000, "cheat": 100_000, "scat": 100_000}
#: chance nodes at the start of a match: one byte of the deal seed each
SEED_BYTES = 4
_OUTCOMES = [(b, 1.0 / 256) for b in range(256)]
#: recall entries of the information-state tensor after the last-action one-hot
RECALL_NUMBERS = ("own decisions", "all decisions")


def short_name(game: str) -> str:
    return f"python_parlour_{game}"


def _game_type(name: str) -> Any:
    lo, hi = _PLAYERS[name]
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Parlour {games.entry(name).description}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"preset": "", "players": 0, "options": "", "max_length": 0},
    )


def options_text(options: dict[str, Any]) -> str:
    """Rules options as one game-string parameter: ``key:value`` pairs joined by ``;`` (values
    as JSON), e.g. ``hand_size:7;max_hands:1``."""
    parts = []
    for key, value in sorted(options.items()):
        text = json.dumps(value, separators=(";", ":"))
        if any(c in text for c in ",;()=") or any(c in key for c in ",;:()="):
            raise ValueError(f"option {key}={value!r} cannot be written in a game string")
        parts.append(f"{key}:{text}")
    return ";".join(parts)


def parse_options(text: str) -> dict[str, Any]:
    """Rules options from a JSON object or from :func:`options_text`'s form."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        options = json.loads(text)
        if not isinstance(options, dict):
            raise ValueError("options must be a JSON object")
        return options
    out: dict[str, Any] = {}
    for part in text.split(";"):
        key, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"an option is key:value, not {part!r}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value.strip()
    return out


def _digest(*parts: bytes) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part)
    return h.digest()


class _Holder:
    """One engine state inside OpenSpiel states.  Engine states are never changed once made
    (``apply`` returns a new one), so clones share the holder (``__deepcopy__`` returns it);
    what a holder adds is computed once: the legal actions and their ids, the child made by
    the last action applied (a clone applying the same action shares it), and the players'
    recall.  It holds no reference to its parent, so a long match keeps only the states its
    OpenSpiel states (and their clones) still use."""

    __slots__ = (
        "__weakref__",
        "child",
        "ids",
        "last",
        "legal",
        "moves",
        "recall",
        "sorted_ids",
        "state",
        "total",
    )

    def __init__(self, state: Any, last: tuple[int, ...], moves: tuple[int, ...], total: int):
        self.state = state
        self.legal: Any = None  # the engine's legal actions, and their ids, once asked
        self.ids: list[int] = []
        self.sorted_ids: list[int] = []
        self.child: tuple[int, Any] | None = None  # (action id, weak reference to the holder)
        self.last = last  # each player's last action id (-1 before its first)
        self.moves = moves  # each player's decisions so far
        self.total = total  # decisions so far
        self.recall: tuple[bytes, ...] | None = None  # each player's observation digest

    def legal_now(self, game: Any, encoding: Encoding) -> tuple[Any, list[int]]:
        if self.legal is None:
            self.legal = game.legal_actions(self.state)
            self.ids = encoding.ids_of(self.state, self.legal)
            self.sorted_ids = sorted(self.ids)
        return self.legal, self.ids

    def child_of(self, action: int) -> _Holder | None:
        if self.child is not None and self.child[0] == action:
            holder: _Holder | None = self.child[1]()
            return holder
        return None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return self


class ParlourSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Parlour game with its rules as an OpenSpiel game."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = str(params.get("preset", "")) or None
        players = int(params.get("players", 0)) or None
        options = parse_options(str(params.get("options", "")))
        #: decisions after which the match ends as a draw (returns all 0)
        self.max_length = int(params.get("max_length", 0)) or MAX_LENGTH[self.game_name]
        if self.max_length < 1:
            raise ValueError("max_length must be positive (0: the game's default)")
        # OpenSpiel's game strings separate parameters by commas: the options are kept in a
        # form without any, so that ``serialize_game_and_state`` round trips
        try:
            params["options"] = options_text(options)
        except ValueError:  # a list or a text with commas: kept as JSON
            params["options"] = json.dumps(options, sort_keys=True)
        self._deals: dict[int, _Holder] = {}
        self.variant: Variant = games.get(self.game_name, preset, players, **options)
        self.encoding: Encoding = encoding_for(self.variant)
        self.players = n = int(self.variant.rules.players)  # type: ignore[attr-defined]
        #: set once an information-state string is asked for: from then on every new state
        #: computes its players' observation digests as it is made
        self.recall_on = False
        # the observations (and their strings) of one holder, the one last asked about
        self._slot: _Holder | None = None
        self._slot_obs: dict[int, np.ndarray] = {}
        self._slot_text: dict[Any, str] = {}
        bound = utility_bound(self.variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_distinct_actions,
            max_chance_outcomes=256,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            # the chance nodes of the deal come on top of the decisions
            max_game_length=self.max_length + SEED_BYTES,
        )
        super().__init__(_game_type(self.game_name), info, params)

    def new_initial_state(self) -> ParlourSpielState:
        """A new match: the chance node choosing the first byte of its deal seed."""
        return ParlourSpielState(self)

    def deal(self, seed: int) -> _Holder:
        """The holder of the engine's initial state for ``seed`` (the last few are cached)."""
        n = self.players
        holder = self._deals.get(seed)
        if holder is None:
            if len(self._deals) >= 4:
                self._deals.pop(next(iter(self._deals)))
            state = self.variant.game.new_game(self.variant.rules, seed)
            holder = self._deals[seed] = _Holder(state, (-1,) * n, (0,) * n, 0)
        if self.recall_on and holder.recall is None:
            holder.recall = tuple(_digest(b"deal", self.obs(holder, p).tobytes()) for p in range(n))
        return holder

    def child(self, holder: _Holder, action: int) -> _Holder:
        """The holder after ``action`` (an id) in ``holder``'s state."""
        made = holder.child_of(action)
        if made is None:
            made = self._make_child(holder, action)
        if made.recall is None and holder.recall is not None and self.recall_on:
            player = self.variant.game.to_act(holder.state)
            mine = b"a%d" % action
            made.recall = tuple(
                _digest(d, mine if p == player else b"-", self.obs(made, p).tobytes())
                for p, d in enumerate(holder.recall)
            )
        return made

    def _make_child(self, holder: _Holder, action: int) -> _Holder:
        game = self.variant.game
        legal, ids = holder.legal_now(game, self.encoding)
        if action in ids:
            new = game.apply_quiet(holder.state, legal[ids.index(action)])
        else:
            new, _ = game.apply(holder.state, self.encoding.id_to_action(holder.state, action))
        player = game.to_act(holder.state)
        if player is None:
            raise ValueError("the match is over")
        last = list(holder.last)
        last[player] = action
        moves = list(holder.moves)
        moves[player] += 1
        made = _Holder(new, tuple(last), tuple(moves), holder.total + 1)
        # the legal actions are not needed again (a clone applying the same action finds the
        # child); a state kept at every step (OpenSpiel's random_sim_test keeps a clone of
        # each) then holds only the engine state
        holder.legal, holder.ids, holder.sorted_ids = None, [], []
        holder.child = (action, weakref.ref(made))
        return made

    # --- the observations of one holder, computed once --------------------------------------

    def _use(self, holder: _Holder) -> None:
        if self._slot is not holder:
            self._slot = holder
            self._slot_obs = {}
            self._slot_text = {}

    def obs(self, holder: _Holder, player: int) -> np.ndarray:
        """The observation tensor of ``player`` (shared: do not change it)."""
        self._use(holder)
        out = self._slot_obs.get(player)
        if out is None:
            out = self._slot_obs[player] = self.encoding.observe(holder.state, player)
        return out

    def obs_string(self, holder: _Holder, player: int) -> str:
        self._use(holder)
        text = self._slot_text.get(player)
        if text is None:
            text = self._slot_text[player] = self.encoding.tensor_string(self.obs(holder, player))
        return text

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ParlourObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ParlourObserver(self, perfect_recall)


class ParlourSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: ParlourSpielGame) -> None:
        super().__init__(game)
        self._chance: tuple[int, ...] = ()  # the seed bytes chosen so far
        self._h: _Holder | None = None  # the engine state, once dealt

    # the variant and encoding are found from the game (not stored: states are pickled)
    @property
    def engine_state(self) -> Any:
        """The engine's state (``None`` while the deal's chance nodes are being played)."""
        return None if self._h is None else self._h.state

    def _game(self) -> ParlourSpielGame:
        return self.get_game()  # type: ignore[no-any-return]

    def current_player(self) -> int:
        if self._h is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._h.total >= self._game().max_length:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self._game().variant.game.to_act(self._h.state)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else int(seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_OUTCOMES) if self._h is None else []

    def _legal_actions(self, player: int) -> list[int]:
        h = self._h
        if h is None:
            return []
        g = self._game()
        if g.variant.game.to_act(h.state) != player or h.total >= g.max_length:
            return []
        h.legal_now(g.variant.game, g.encoding)
        return list(h.sorted_ids)

    def _apply_action(self, action: int) -> None:
        g = self._game()
        a = int(action)
        if self._h is None:
            if not 0 <= a < 256:
                raise ValueError(f"a seed byte is 0..255, not {a}")
            self._chance += (a,)
            if len(self._chance) == SEED_BYTES:
                self._h = g.deal(int.from_bytes(bytes(self._chance), "big"))
            return
        if self._h.total >= g.max_length:
            raise ValueError(f"the match was cut at {g.max_length} decisions")
        self._h = g.child(self._h, a)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE) or self._h is None:
            return f"deal seed byte {int(action)}"
        enc = self._game().encoding
        try:
            return str(enc.id_to_action(self._h.state, int(action)))
        except (ValueError, IndexError, KeyError):
            return enc.describe_id(int(action))

    def is_terminal(self) -> bool:
        h = self._h
        if h is None:
            return False
        g = self._game()
        return h.total >= g.max_length or g.variant.game.to_act(h.state) is None

    def truncated(self) -> bool:
        """The match was cut at ``max_length`` decisions (a draw: every return is 0)."""
        h = self._h
        return h is not None and h.total >= self._game().max_length

    def returns(self) -> list[float]:
        g = self._game()
        if not self.is_terminal() or self.truncated():
            return [0.0] * g.players
        assert self._h is not None
        return match_rewards(g.variant.game.outcome(self._h.state), g.players)

    def recall(self, player: int) -> bytes:
        """The digest of everything ``player`` has observed since the deal (turns on the
        game's recall: later states compute theirs as they are made)."""
        g = self._game()
        h = self._h
        if h is None:
            return b""
        if h.recall is None:
            g.recall_on = True
            replay = g.new_initial_state()
            for a in self.history():
                replay.apply_action(a)
            assert replay._h is not None and replay._h.recall is not None
            h.recall = replay._h.recall
        return h.recall[player]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one: every hidden card dealt again."""
        if self._h is None:
            return self.clone()
        g = self._game()
        game = g.variant.game
        own = self.recall(player_id)
        recall = self._h.recall
        assert recall is not None
        view = game.observe(self._h.state, player_id)
        seed = int(probability_sampler() * 2**31) if probability_sampler is not None else 0
        new_state = self.clone()
        h = self._h
        new = _Holder(game.determinize(view, random.Random(seed)), h.last, h.moves, h.total)
        # the others' recall cannot be theirs in a re-dealt state: it is marked as such
        new.recall = tuple(
            own if p == player_id else _digest(b"resampled", d) for p, d in enumerate(recall)
        )
        new_state._h = new
        return new_state

    def __str__(self) -> str:
        g = self._game()
        variant = g.variant
        if self._h is None:
            return f"{variant.name} ({variant.preset}) dealing: seed bytes {list(self._chance)}"
        game = variant.game
        state = self._h.state
        seat = game.to_act(state)
        head = f"{variant.name} ({variant.preset}) hand {game.hand_number(state) + 1}"
        if self.truncated():
            return f"{head}: cut at {g.max_length} decisions (a draw)"
        if seat is None:
            out = game.outcome(state)
            return f"{head} over: scores {list(out.scores)} winners {list(out.winners)}"
        return f"{head}, seat {seat} to act\n" + g.obs_string(self._h, seat)


class ParlourObserver:
    """OpenSpiel's observer protocol: ``tensor``/``dict`` and ``string_from``.  With perfect
    recall the tensor is the observation followed by the player's recall (``last_action``,
    ``recall``)."""

    def __init__(self, game: ParlourSpielGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.encoding.layout.size
        self.size = size
        actions = game.encoding.num_distinct_actions
        extra = actions + len(RECALL_NUMBERS) if perfect_recall else 0
        self.tensor = np.zeros(size + extra, dtype=np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["last_action"] = self.tensor[size : size + actions]
            self.dict["recall"] = self.tensor[size + actions :]

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        h = state._h
        if h is None:
            self.tensor[:] = 0.0
            return
        self.tensor[: self.size] = self.game.obs(h, player)
        if self.perfect_recall:
            last = self.dict["last_action"]
            last[:] = 0.0
            if h.last[player] >= 0:
                last[h.last[player]] = 1.0
            self.dict["recall"][:] = (h.moves[player], h.total)

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        h = state._h
        if h is None:
            return "dealing"
        text = self.game.obs_string(h, player)
        if self.perfect_recall:
            return f"{text}\nrecall {state.recall(player).hex()}"
        return text


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
        params["options"] = options_text(options)
    return pyspiel.load_game(short_name(game), params)


register()
