"""The ``strong`` bot: single-observer Information-Set MCTS (SO-ISMCTS).

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
The bot sees only its seat's view.  Each iteration:

1. **determinize** — ``game.determinize(view, rng)`` deals the cards the seat cannot see at random
   (consistent with everything the view shows), or the game's ``determinize`` hint samples them
   from its belief;
2. **select** — walk down one tree shared by all determinizations, choosing among the children
   whose action is legal *in this determinization* by UCB1 with availability counts
   (``mean + c·sqrt(ln(avail) / visits)``);
3. **expand** — add one untried legal action (the rollout policy's choice first);
4. **play out** — with the rollout policy (the game's ``basic`` bot when the game has one, else
   uniform random) until the hand ends, the match ends, or ``rollout_steps`` decisions have been
   made; a truncated playout is scored by the game's heuristic evaluation when it has one;
5. **back-propagate** — each node adds the reward of the seat that chose its action.

Rewards are per side in [0, 1]: a finished match gives 1 to the winners and 0 to the others
(0.5 each for a draw); a finished hand or an evaluated position gives
``0.5 + 0.5·tanh((side score − mean of the other sides) / score_scale)`` — in long games such as
Samba the score difference of the hand is a far denser signal than who wins a 10,000-point match.

Game hints: the game's declared :class:`~parlour.core.registry.SearchHints` (``ENTRY.hints``):
``evaluate_state(game, state) -> per-side scores`` (heuristic estimate of the hand's final score
from here), ``score_scale`` (points), ``rollout_steps`` (decisions before evaluating),
``rollout_view(game, state, seat)`` (a cheap stand-in for ``observe`` in play-outs, showing the
same information), ``rollout_bot`` (a Bot class used for play-outs; default: the game's
``basic`` bot), ``search``/``paired_rollout_steps``/``search_candidates`` (the paired search), ``determinize``
(the game's own sampler of the hidden cards given the view).

The budget is a number of iterations (deterministic for a given seed and view) or seconds per
decision: ``strong:0.5`` = 0.5 s, ``strong:2s`` = 2 s, ``strong:300it`` = 300 iterations.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from parlour.core.bot import Bot
from parlour.core.errors import UnknownGame
from parlour.core.game import Game, Seat
from parlour.core.registry import GameEntry, SearchHints
from parlour.core.rng import derive_seed

DEFAULT_SECONDS = 1.0
#: rounds the paired search plays before it may stop early (``SearchHints.paired_stop_z``)
PAIRED_MIN_ROUNDS = 8


def parse_budget(budget: Any) -> tuple[int | None, float | None]:
    """``(iterations, seconds)`` from a budget argument.

    >>> parse_budget("0.5"), parse_budget("2s"), parse_budget("300it"), parse_budget(200)
    ((None, 0.5), (None, 2.0), (300, None), (200, None))
    """
    if budget is None:
        return None, DEFAULT_SECONDS
    if isinstance(budget, bool):
        raise ValueError(f"bad budget {budget!r}")
    if isinstance(budget, int):
        if budget < 1:
            raise ValueError(f"budget must be at least 1 iteration, got {budget}")
        return budget, None
    if isinstance(budget, float):
        if budget <= 0:
            raise ValueError(f"budget must be a positive number of seconds, got {budget}")
        return None, budget
    text = str(budget).strip().lower()
    try:
        if text.endswith(("it", "i")):
            n = int(text.rstrip("it"))
            if n < 1:
                raise ValueError
            return n, None
        secs = float(text.rstrip("s"))
        if secs <= 0 or math.isnan(secs):
            raise ValueError
        return None, secs
    except ValueError:
        raise ValueError(
            f"bad budget {budget!r}: use seconds (0.5, 2s) or iterations (300it)"
        ) from None


class _Node:
    __slots__ = ("action", "avail", "children", "parent", "player", "total", "visits")

    def __init__(self, action: Any, parent: _Node | None, player: Seat) -> None:
        self.action = action
        self.parent = parent
        self.player = player  # the seat that chose ``action``
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def _game_entry(game: Game[Any, Any, Any, Any]) -> GameEntry | None:
    """The game's registered spec (its basic bot and search hints), if it is registered."""
    from parlour import games

    try:
        return games.entry(game.name)
    except UnknownGame:
        return None


class IsmctsBot(Bot):
    """SO-ISMCTS over ``determinize``; see the module docstring.

    Parameters (all optional): ``budget`` (see :func:`parse_budget`), ``iterations``,
    ``seconds``, ``exploration`` (UCB constant, default 0.7), ``rollout`` (``"auto"``,
    ``"basic"``, ``"random"``), ``rollout_steps`` (decisions before a truncated playout is
    evaluated; 0 = play to the end of the hand), ``score_scale``, ``policy_prior`` (head start,
    as a fraction of the iterations, of the rollout policy's own choice at the root), ``search``
    (``"auto"`` = the game's hint, ``"tree"`` = SO-ISMCTS, ``"paired"`` = the policy's move
    against a few alternatives on shared determinizations), ``candidates`` (moves compared by the
    paired search, the policy's included), ``z`` (standard errors by which an alternative must
    beat the policy's move in the paired search; default the game's ``paired_z``, 2),
    ``race_z`` (racing in the paired search: an alternative that trails the policy's move by
    more than this many standard errors gets no more play-outs; default the game's
    ``paired_race_z``, 0 = off), ``policy`` (a Bot class for play-outs and the favourite,
    instead of the game's ``basic``)."""

    name = "strong"

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        seat: Seat,
        seed: int = 0,
        *,
        budget: Any = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout: str = "auto",
        rollout_steps: int | None = None,
        score_scale: float | None = None,
        policy_prior: float = 0.25,
        search: str = "auto",
        policy: type[Bot] | None = None,
        candidates: int | None = None,
        z: float | None = None,
        stop_z: float | None = None,
        race_z: float | None = None,
        rules: Any = None,
        **params: Any,
    ) -> None:
        super().__init__(game, seat, seed, **params)
        self.rules = rules
        if iterations is not None or seconds is not None:
            self.iterations, self.seconds = iterations, seconds
        else:
            self.iterations, self.seconds = parse_budget(budget)
        self.exploration = float(exploration)
        self.policy_prior = float(policy_prior)
        entry = _game_entry(game) if rollout in ("auto", "basic") else None
        basic = entry.basic_bot if entry is not None else None
        hints = (entry.hints if entry is not None else None) or SearchHints()
        if rollout == "basic" and basic is None:
            raise ValueError(f"{game.name} has no basic bot to use for rollouts")
        if rollout not in ("auto", "basic", "random"):
            raise ValueError(f"rollout must be auto, basic or random, got {rollout!r}")
        self._fast_view: Callable[[Any, Any, Seat], Any] | None = hints.rollout_view
        self._evaluate: Callable[[Any, Any], Sequence[float]] | None = hints.evaluate_state
        self._rollout_cls: type[Bot] | None = hints.rollout_bot or basic
        # the game's belief over hidden cards (a hint), whatever the play-out policy
        own = _game_entry(game) if entry is None else entry
        sampler = own.hints.determinize if own is not None and own.hints is not None else None
        self._deal: Callable[[Any, Any, random.Random], Any] | None = sampler
        if policy is not None:
            self._rollout_cls = policy
        self.score_scale = float(score_scale or hints.score_scale or 0) or None
        if search == "auto":
            search = hints.search if basic is not None else "tree"
        if search not in ("tree", "paired"):
            raise ValueError(f"search must be auto, tree or paired, got {search!r}")
        if search == "paired" and self._rollout_cls is None:
            raise ValueError(
                "search='paired' compares moves against a policy: it needs rollouts by the basic bot"
            )
        self.search = search
        # the tree search evaluates truncated play-outs; the paired search plays to the end of
        # the hand unless told otherwise (its comparisons should not inherit the heuristic's bias)
        hint = hints.rollout_steps if search == "tree" else hints.paired_rollout_steps
        steps = rollout_steps if rollout_steps is not None else hint
        self.rollout_steps = int(steps or 0)
        self.max_candidates = int(candidates or hints.search_candidates_limit or 6)
        if self.max_candidates < 2:
            raise ValueError(f"candidates must be at least 2, got {self.max_candidates}")
        self._candidates: Callable[..., Sequence[Any]] | None = hints.search_candidates
        self.stop_z = float(hints.paired_stop_z if stop_z is None else stop_z)
        self.z = float(hints.paired_z if z is None else z)
        self.race_z = float(hints.paired_race_z if race_z is None else race_z)
        self.stopped_early = 0
        self.last_overruled = False
        self.overruled = 0
        self._rollout_bots: dict[Seat, Bot] = {}
        self._own_policy: Bot | None = None
        self._playouts = 0
        self._sides: tuple[tuple[Seat, ...], ...] | None = None
        self._side_of: dict[Seat, int] = {}
        self._recent: list[Any] = []
        self.last_iterations = 0
        self.decisions = 0
        self.total_iterations = 0
        self.total_seconds = 0.0
        self.max_seconds = 0.0  # the longest search so far (wall clock)
        self.total_cpu_seconds = 0.0
        self.max_cpu_seconds = 0.0  # the longest search so far (CPU time of this process)

    # --- the decision ---------------------------------------------------------------------

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        # Some games let a player undo a step within a turn (Samba: take back an unfinished
        # meld).  Should the same view come back, the search could cycle for ever; then the
        # rollout policy (which has its own rules against it) decides instead.
        if any(view == seen for seen in self._recent):
            if self._rollout_cls is not None:
                return self._favourite(view, legal)
            return legal[rng.randrange(len(legal))]
        self._recent.append(view)
        if len(self._recent) > 12:
            del self._recent[0]
        if self.search == "paired":
            return self._paired_act(view, legal)
        root = _Node(None, None, self.seat)
        started = time.perf_counter()
        cpu_started = time.process_time()
        deadline = started + self.seconds if self.seconds is not None else None
        limit = self.iterations if self.iterations is not None else 1 << 60
        n = 0
        while n < limit:
            # stop when two more iterations at the mean pace so far would pass the deadline (a
            # margin for the slower ones: the budget is a bound, not a target)
            if deadline is not None and n:
                now = time.perf_counter()
                if now + 2 * (now - started) / n > deadline:
                    break
            self._iterate(root, self._determinize(view, rng), rng)
            n += 1
        self._record(n, started, cpu_started)
        # the rollout policy's own choice keeps a head start of ``policy_prior`` × iterations
        # visits: with few iterations per decision the search must show clear evidence before
        # it overrules the policy (noise would otherwise make it play worse than the policy)
        favourite = None
        if self._rollout_cls is not None and self.policy_prior > 0:
            favourite = self._favourite(view, legal)
        best = None
        best_key: tuple[float, float] = (-1.0, -1.0)
        for action in legal:
            child = root.children.get(action)
            if child is None:
                continue
            bonus = self.policy_prior * n if action == favourite else 0.0
            key = (child.visits + bonus, child.total / max(child.visits, 1))
            if key > best_key:
                best, best_key = action, key
        return best if best is not None else legal[0]

    def _iterate(self, root: _Node, state: Any, rng: random.Random) -> None:
        game = self.game
        if self._sides is None:
            self._sides = game.outcome(state).sides
            self._side_of = {s: i for i, seats in enumerate(self._sides) for s in seats}
        hand = game.hand_number(state)
        node = root
        path = [root]
        # selection: descend while every legal action here has a child
        while True:
            seat = game.to_act(state)
            if seat is None or game.hand_number(state) != hand:
                break
            legal = game.legal_actions(state)
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = self._expansion_choice(state, seat, untried, rng)
                child = _Node(action, node, seat)
                node.children[action] = child
                for a in legal:
                    other = node.children.get(a)
                    if other is not None and other is not child:
                        other.avail += 1
                state = game.apply_quiet(state, action)
                node = child
                path.append(node)
                break
            log_c = self.exploration
            best_child = None
            best_u = -1.0
            for a in legal:
                ch = node.children[a]
                ch.avail += 1
                u = ch.total / ch.visits + log_c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best_u, best_child = u, ch
            assert best_child is not None
            state = game.apply_quiet(state, best_child.action)
            node = best_child
            path.append(node)
        rewards = self._playout(state, hand, rng)
        for nd in path[1:]:
            nd.visits += 1
            nd.total += rewards[self._side_of[nd.player]]

    def _record(self, iterations: int, started: float, cpu_started: float) -> None:
        """Statistics of one search (read by benchmarks and tests)."""
        self.last_iterations = iterations
        self.decisions += 1
        self.total_iterations += iterations
        spent = time.perf_counter() - started
        self.total_seconds += spent
        self.max_seconds = max(self.max_seconds, spent)
        cpu = time.process_time() - cpu_started
        self.total_cpu_seconds += cpu
        self.max_cpu_seconds = max(self.max_cpu_seconds, cpu)

    # --- paired root search ---------------------------------------------------------------

    def _paired_act(self, view: Any, legal: Sequence[Any]) -> Any:
        """Root-only search with common random numbers (see docs/bots.md, "paired").

        Every determinization is played out once after *each* candidate move, with the same
        play-out seeds, so the candidates are compared on the same hidden cards and the same
        stock: the difference of two play-outs measures the move, not the luck.  The policy's
        own move is played unless another candidate beats it by more than ``z`` standard errors
        of the paired difference."""
        game = self.game
        rng = self.rng
        favourite = self._favourite(view, legal)
        if self._candidates is not None:
            assert self._own_policy is not None
            cands = list(
                self._candidates(self._own_policy, view, legal, favourite, self.max_candidates)
            )
        else:
            others = [a for a in legal if a != favourite]
            k = min(len(others), self.max_candidates - 1)
            cands = [favourite, *rng.sample(others, k)]
        self.last_overruled = False
        if len(cands) < 2:
            self.last_iterations = 0
            return favourite
        assert cands[0] == favourite
        started = time.perf_counter()
        cpu_started = time.process_time()
        deadline = started + self.seconds if self.seconds is not None else None
        limit = self.iterations if self.iterations is not None else 1 << 60
        side = None
        sums = [0.0] * len(cands)
        squares = [0.0] * len(cands)
        counts = [0] * len(cands)  # rounds each alternative was played in (racing drops some)
        active = list(range(1, len(cands)))
        rounds = 0
        playouts = 0
        while active and playouts + 1 + len(active) <= max(limit, 2 * len(cands)):
            if deadline is not None and rounds >= 2:
                now = time.perf_counter()
                if now + 2 * (now - started) / rounds > deadline:
                    break
            world = self._determinize(view, rng)
            if self._sides is None:
                self._sides = game.outcome(world).sides
                self._side_of = {s: i for i, seats in enumerate(self._sides) for s in seats}
            if side is None:
                side = self._side_of[self.seat]
            seed = rng.getrandbits(63)
            base = self._value_after(world, favourite, seed, side)
            playouts += 1
            for i in active:
                d = self._value_after(world, cands[i], seed, side) - base
                playouts += 1
                sums[i] += d
                squares[i] += d * d
                counts[i] += 1
            rounds += 1
            if self.race_z > 0 and rounds >= PAIRED_MIN_ROUNDS:
                # racing: an alternative clearly behind the policy's move gets no more
                # play-outs; the budget goes to the ones still in contention
                active = [
                    i
                    for i in active
                    if not self._behind(sums[i], squares[i], counts[i], self.race_z)
                ]
            if (
                self.stop_z > 0
                and rounds >= PAIRED_MIN_ROUNDS
                and self._settled(sums, squares, rounds)
            ):
                self.stopped_early += 1
                break
        self._record(playouts, started, cpu_started)
        best, best_mean = favourite, 0.0
        for i in range(1, len(cands)):
            n = counts[i]
            if n < 2:
                continue
            mean = sums[i] / n
            var = max(0.0, squares[i] / n - mean * mean) * n / (n - 1)
            se = math.sqrt(var / n)
            if mean > best_mean and mean > self.z * se:
                best, best_mean = cands[i], mean
        if best != favourite:
            self.last_overruled = True
            self.overruled += 1
        return best

    @staticmethod
    def _behind(total: float, squares: float, n: int, z: float) -> bool:
        """Whether an alternative's mean paired difference from the policy's move is below zero
        by more than ``z`` standard errors (or it has not differed from it in any play-out)."""
        if n < 2:
            return False
        if total == 0.0 and squares == 0.0:
            return True
        mean = total / n
        var = max(0.0, squares / n - mean * mean) * n / (n - 1)
        return mean + z * math.sqrt(var / n) < 0.0

    def _settled(self, sums: Sequence[float], squares: Sequence[float], rounds: int) -> bool:
        """Whether every alternative trails the policy's move by more than ``stop_z`` standard
        errors of the paired difference (more rounds would hardly overrule it), or has not
        differed from it in any play-out so far."""
        for i in range(1, len(sums)):
            if sums[i] == 0.0 and squares[i] == 0.0:
                continue
            mean = sums[i] / rounds
            var = max(0.0, squares[i] / rounds - mean * mean) * rounds / (rounds - 1)
            if mean + self.stop_z * math.sqrt(var / rounds) >= 0.0:
                return False
        return True

    def estimate(
        self, view: Any, legal: Sequence[Any], include: Sequence[Any] = ()
    ) -> tuple[list[tuple[Any, float]], int]:
        """Hints and reviews: ``([(move, mean reward)…], rounds)`` for the moves the paired
        search would compare here (the policy's own, the game's candidates) plus ``include``,
        each played out on the same determinizations of ``view`` within the budget.  Depends
        on nothing but the view, the legal moves, the seed and the budget."""
        moves, samples = self.estimate_samples(view, legal, include)
        rounds = len(samples[0]) if samples else 0
        return [(a, sum(v) / max(rounds, 1)) for a, v in zip(moves, samples, strict=True)], rounds

    def estimate_samples(
        self, view: Any, legal: Sequence[Any], include: Sequence[Any] = ()
    ) -> tuple[list[Any], list[list[float]]]:
        """:meth:`estimate` with every play-out's reward kept: ``(moves, samples)`` where
        ``samples[i][r]`` is move ``i``'s reward on round ``r``'s determinization and play-out
        seed (the same for every move), so that the difference of two moves can be judged
        against its own spread (the paired standard error, :mod:`parlour.bots.advice`)."""
        game = self.game
        rng = self.rng
        if self._rollout_cls is not None:
            favourite = self._favourite(view, legal)
            if self._candidates is not None:
                assert self._own_policy is not None
                cands = list(
                    self._candidates(self._own_policy, view, legal, favourite, self.max_candidates)
                )
            else:
                others = [a for a in legal if a != favourite]
                cands = [favourite, *rng.sample(others, min(len(others), self.max_candidates - 1))]
        else:
            cands = (
                list(legal)
                if len(legal) <= self.max_candidates
                else rng.sample(list(legal), self.max_candidates)
            )
        cands += [a for a in include if a not in cands and a in legal]
        started = time.perf_counter()
        cpu_started = time.process_time()
        deadline = started + self.seconds if self.seconds is not None else None
        limit = self.iterations if self.iterations is not None else 1 << 60
        samples: list[list[float]] = [[] for _ in cands]
        rounds = playouts = 0
        while playouts + len(cands) <= max(limit, 2 * len(cands)):
            if deadline is not None and rounds >= 1:
                # two rounds at least, unless one already took the whole budget (a hint must
                # come in time: long play-outs such as Cheat's to the end of the game)
                now = time.perf_counter()
                if now >= deadline or (
                    rounds >= 2 and now + 2 * (now - started) / rounds > deadline
                ):
                    break
            world = self._determinize(view, rng)
            if self._sides is None:
                self._sides = game.outcome(world).sides
                self._side_of = {s: i for i, seats in enumerate(self._sides) for s in seats}
            side = self._side_of[self.seat]
            seed = rng.getrandbits(63)
            for i, action in enumerate(cands):
                samples[i].append(self._value_after(world, action, seed, side))
                playouts += 1
            rounds += 1
        self._record(playouts, started, cpu_started)
        return cands, samples

    def _determinize(self, view: Any, rng: random.Random) -> Any:
        """A full state consistent with ``view``: the game's hint if it has one, else its own."""
        if self._deal is not None:
            return self._deal(self.game, view, rng)
        return self.game.determinize(view, rng)

    def _value_after(self, world: Any, action: Any, seed: int, side: int) -> float:
        """``side``'s reward from one play-out of ``world`` after ``action``; the same ``seed``
        gives every candidate the same play-out randomness."""
        hand = self.game.hand_number(world)
        after = self.game.apply_quiet(world, action)
        return self._playout(after, hand, random.Random(seed), seed)[side]

    def _expansion_choice(
        self, state: Any, seat: Seat, untried: Sequence[Any], rng: random.Random
    ) -> Any:
        if self._rollout_cls is not None and len(untried) > 1:
            choice = self._policy_action(state, seat, untried)
            if choice in untried:
                return choice
        return untried[rng.randrange(len(untried))]

    # --- play-outs ------------------------------------------------------------------------

    def _favourite(self, view: Any, legal: Sequence[Any]) -> Any:
        """The rollout policy's choice in the real game (a policy bot of its own, so that what
        play-out bots remember never leaks into real decisions)."""
        if self._own_policy is None:
            assert self._rollout_cls is not None
            kwargs = {"rules": self.rules} if self.rules is not None else {}
            self._own_policy = self._rollout_cls(
                self.game, self.seat, derive_seed(self.seed, "policy", self.seat), **kwargs
            )
        return self._own_policy.act(view, legal)

    def _policy(self, seat: Seat) -> Bot:
        bot = self._rollout_bots.get(seat)
        if bot is None:
            assert self._rollout_cls is not None
            kwargs = {"rules": self.rules} if self.rules is not None else {}
            bot = self._rollout_cls(
                self.game, seat, derive_seed(self.seed, "rollout", self.seat, seat), **kwargs
            )
            self._rollout_bots[seat] = bot
        return bot

    def _policy_action(self, state: Any, seat: Seat, legal: Sequence[Any]) -> Any:
        bot = self._policy(seat)
        if not bot.needs_view:
            view = None
        elif self._fast_view is not None:
            view = self._fast_view(self.game, state, seat)
        else:
            view = self.game.observe(state, seat)
        return bot.act(view, legal)

    def _playout(
        self, state: Any, hand: int, rng: random.Random, seed: int | None = None
    ) -> list[float]:
        game = self.game
        steps = 0
        # every play-out starts with policy bots that remember nothing of earlier ones
        self._playouts += 1
        if seed is None:
            seed = derive_seed(self.seed, "playout", self._playouts)
        for bot in self._rollout_bots.values():
            bot.reset(seed)
        limit = self.rollout_steps or 1 << 60
        use_policy = self._rollout_cls is not None
        while True:
            seat = game.to_act(state)
            if seat is None:
                return self._match_rewards(state)
            if game.hand_number(state) != hand:
                return self._hand_rewards(game.outcome(state).hands[-1].scores)
            if steps >= limit and self._evaluate is not None:
                return self._score_rewards(self._evaluate(game, state))
            legal = game.legal_actions(state)
            if not legal:  # an engine dead end: score the position as it stands
                if self._evaluate is not None:
                    return self._score_rewards(self._evaluate(game, state))
                return [0.5] * len(self._sides or ((),))
            if len(legal) == 1:
                action = legal[0]
            elif use_policy:
                action = self._policy_action(state, seat, legal)
            else:
                action = legal[rng.randrange(len(legal))]
            state = game.apply_quiet(state, action)
            steps += 1

    # --- rewards per side -----------------------------------------------------------------

    def _match_rewards(self, state: Any) -> list[float]:
        out = self.game.outcome(state)
        n = len(out.sides)
        if not out.winners:
            return self._hand_rewards(out.hands[-1].scores) if out.hands else [0.5] * n
        return [1.0 if i in out.winners else 0.0 for i in range(n)]

    def _hand_rewards(self, scores: Sequence[float]) -> list[float]:
        return self._score_rewards(scores)

    def _score_rewards(self, scores: Sequence[float]) -> list[float]:
        n = len(scores)
        if n == 1:
            return [0.5 + 0.5 * math.tanh(scores[0] / (self.score_scale or 1.0))]
        total = sum(scores)
        scale = self.score_scale or max(1.0, max(abs(s) for s in scores))
        out = []
        for s in scores:
            others = (total - s) / (n - 1)
            out.append(0.5 + 0.5 * math.tanh((s - others) / scale))
        return out
