"""What every game's encoding provides: fixed action ids with an exact legal mask, and a
fixed-shape observation tensor built from one seat's view.

An :class:`Encoding` is made for one game *with its rules* (a :class:`~parlour.core.registry.
Variant`): the number of action ids and the tensor shape depend on the rules (players, packs),
never on the state.  Ids are decoded against the state they are used in (``id_to_action(state,
i)``): an id may name "add a card to meld 3" or "take the pile with two cards of the top card's
rank", which is a concrete action only given the public table and, for the seat to act, its
own hand.  Decoding reads only what the seat to act may know.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.core.cards import NUM_KINDS, card_str
from parlour.core.registry import Variant

CARD_NAMES = tuple(card_str(k) for k in range(NUM_KINDS))


@dataclass(frozen=True)
class IdRange:
    """A block of action ids: ``start`` … ``start + size - 1``, and what they mean."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class ActionSpace:
    """Builds the id ranges of a game in order (``add`` returns the range's start)."""

    def __init__(self) -> None:
        self.ranges: list[IdRange] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str) -> int:
        start = self.size
        self.ranges.append(IdRange(name, start, size, meaning))
        self.size += size
        return start

    def range_of(self, action_id: int) -> IdRange:
        for r in self.ranges:
            if r.start <= action_id < r.stop:
                return r
        raise ValueError(f"action id {action_id} is out of range 0..{self.size - 1}")


@dataclass(frozen=True)
class Segment:
    """A block of the observation vector.  ``kind``: ``cards`` (a count per card kind, 53
    entries: 52 cards then the joker), ``onehot`` (one entry is 1, or none), ``flags`` (0/1
    each), ``numbers``."""

    name: str
    start: int
    size: int
    kind: str
    meaning: str
    labels: tuple[str, ...] = ()

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """The documented layout of an observation vector (segments in order)."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self._by_name: dict[str, Segment] = {}
        #: each segment's first entry and size, by name (what the writers look up)
        self.start_of: dict[str, int] = {}
        self.size_of: dict[str, int] = {}
        self.size = 0

    def add(
        self, name: str, size: int, kind: str, meaning: str, labels: Sequence[str] = ()
    ) -> Segment:
        if name in self._by_name:
            raise ValueError(f"segment {name!r} twice")
        seg = Segment(name, self.size, size, kind, meaning, tuple(labels))
        self.segments.append(seg)
        self._by_name[name] = seg
        self.start_of[name] = seg.start
        self.size_of[name] = size
        self.size += size
        return seg

    def cards(self, name: str, meaning: str) -> Segment:
        return self.add(name, NUM_KINDS, "cards", meaning, CARD_NAMES)

    def __getitem__(self, name: str) -> Segment:
        return self._by_name[name]

    def __iter__(self) -> Iterator[Segment]:
        return iter(self.segments)


class Writer:
    """Fills one observation vector segment by segment (the vector starts at zero)."""

    __slots__ = ("_size", "_start", "layout", "out")

    def __init__(self, layout: Layout, out: np.ndarray) -> None:
        self.layout = layout
        self.out = out
        self._start = layout.start_of
        self._size = layout.size_of

    def cards(self, name: str, cards: Sequence[int]) -> None:
        if not cards:
            return
        base = self._start[name]
        if len(cards) > 12:
            counts = np.bincount(np.asarray(cards, dtype=np.intp), minlength=NUM_KINDS)
            self.out[base : base + NUM_KINDS] += counts
            return
        o = self.out
        for c in cards:
            o[base + c] += 1.0

    def counts(self, name: str, vector: Sequence[int]) -> None:
        self.values(name, vector)

    def onehot(self, name: str, index: int | None) -> None:
        if index is None or index < 0:
            return
        if index >= self._size[name]:
            raise ValueError(f"{name}: index {index} out of {self._size[name]}")
        self.out[self._start[name] + index] = 1.0

    def set(self, name: str, value: float, offset: int = 0) -> None:
        if not 0 <= offset < self._size[name]:
            raise ValueError(f"{name}: offset {offset} out of {self._size[name]}")
        if value:
            self.out[self._start[name] + offset] = value

    def values(self, name: str, values: Sequence[float]) -> None:
        if len(values) > self._size[name]:
            raise ValueError(f"{name}: {len(values)} values for {self._size[name]} entries")
        base = self._start[name]
        self.out[base : base + len(values)] = values

    def add(self, index: int, value: float) -> None:
        """Add to one entry at an absolute index."""
        self.out[index] += value

    def extend(self, indices: np.ndarray, values: np.ndarray) -> None:
        """Set entries at absolute indices, none written before and none repeated (one numpy
        call: a game's block of entries made once, e.g. a side's melds)."""
        self.out[indices] = values


def rel(seat: int, viewer: int, players: int) -> int:
    """Seat numbered from the viewer: 0 = the viewer, 1 = the seat numbered after it, …"""
    return (seat - viewer) % players


class Encoding(ABC):
    """Fixed action ids and observation tensors for one game with its rules."""

    #: the registry name of the game
    game_name: str = ""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.game = variant.game
        self.rules: Any = variant.rules
        self.players: int = int(variant.rules.players)  # type: ignore[attr-defined]
        self.space = ActionSpace()
        self.layout = Layout()
        self._segment_of: np.ndarray | None = None  # segment index of each entry (strings)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self._build_actions()
        self._build_layout()
        #: the game's compiled filler (``parlour.rl.fill``), or ``None``: ``_write`` then fills
        self.filler: Any = self._make_filler()
        #: the filler's ``fill_state(state, seat, buffer, base)``: the same entries read from
        #: the state without building the seat's view (``None``: the filler has none)
        self.fill_state: Any = getattr(self.filler, "fill_state", None)
        #: the game's compiled ids of legal actions (``parlour.rl.fill``), or ``None``
        self.id_maker: Any = self._make_ids()

    def _make_ids(self) -> Any:
        """The object whose ``ids(state, actions, slow)`` gives the ids :meth:`_action_to_id`
        gives (``slow`` is that method, for the actions it leaves to it); ``None``: none."""
        return None

    def _make_filler(self) -> Any:
        """The object whose ``fill(view, buffer, base)`` writes the same entries as
        :meth:`_write` straight into a float32 buffer (``parlour.rl.fill``); ``None``: none."""
        return None

    # --- actions ------------------------------------------------------------------------------

    @abstractmethod
    def _build_actions(self) -> None: ...

    def action_to_id(self, state: Any, action: Any) -> int:
        """The id of ``action`` (legal in ``state``)."""
        return int(self._action_to_id(state, action))

    @abstractmethod
    def _action_to_id(self, state: Any, action: Any) -> Any:
        """The id of ``action``, as the game's encoding computes it (an int or numpy int)."""

    @abstractmethod
    def id_to_action(self, state: Any, action_id: int) -> Any:
        """The action an id names in ``state`` (raises ``ValueError`` when it names none)."""

    @property
    def num_distinct_actions(self) -> int:
        return self.space.size

    def ids_of(self, state: Any, actions: Sequence[Any]) -> list[int]:
        """The ids of ``actions`` (legal in ``state``), in their order."""
        fast = self.id_maker
        if fast is not None:
            ids: list[int] = fast.ids(state, actions, self._action_to_id)
            return ids
        to_id = self._action_to_id
        return [int(to_id(state, a)) for a in actions]

    def reference_ids(self, state: Any, actions: Sequence[Any]) -> list[int]:
        """:meth:`ids_of` by :meth:`_action_to_id` alone (the compiled ids are tested equal)."""
        return [int(self._action_to_id(state, a)) for a in actions]

    def legal_ids(self, state: Any) -> list[int]:
        """Ids of the legal actions, in the engine's order."""
        return self.ids_of(state, self.game.legal_actions(state))

    def legal_mask(self, state: Any) -> np.ndarray:
        """``int8`` mask: 1 where the id's action is legal now."""
        return self.mask_of(self.legal_ids(state)).copy()

    def mask_of(self, ids: Sequence[int]) -> np.ndarray:
        """The ``int8`` mask of these ids, made once per distinct set of ids and shared
        (read-only: copy it to keep or change it)."""
        key = tuple(ids)
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= 4096:
                self._masks.clear()
            mask = np.zeros(self.space.size, dtype=np.int8)
            if key:
                mask[list(key)] = 1
            mask.flags.writeable = False
            self._masks[key] = mask
        return mask

    def describe_id(self, action_id: int) -> str:
        r = self.space.range_of(action_id)
        return f"{r.name}[{action_id - r.start}]"

    # --- observations -------------------------------------------------------------------------

    @abstractmethod
    def _build_layout(self) -> None: ...

    @abstractmethod
    def _write(self, view: Any, w: Writer) -> None:
        """Fill the vector from ``view`` (the seat's view; never the state)."""

    @property
    def observation_shape(self) -> tuple[int]:
        return (self.layout.size,)

    def observation(self, view: Any, out: np.ndarray | None = None) -> np.ndarray:
        """The ``float32`` observation vector of a seat's view (written into ``out``, a
        contiguous float32 vector, when given)."""
        if getattr(view, "seat", None) is None:
            raise ValueError("observations are made from a seat's view, not a spectator's")
        if out is None:
            out = np.zeros(self.layout.size, dtype=np.float32)
        else:
            out.fill(0.0)
        filler = self.filler
        if filler is not None:
            filler.fill(view, out.data, 0)
        else:
            self._write(view, Writer(self.layout, out))
        return out

    def reference_observation(self, view: Any) -> np.ndarray:
        """The vector as :meth:`_write` makes it (the readable reference the compiled filler
        is tested equal to)."""
        out = np.zeros(self.layout.size, dtype=np.float32)
        self._write(view, Writer(self.layout, out))
        return out

    def observe(self, state: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``observation(game.observe(state, seat), out)``: the state is only read for what the
        seat's view holds (the filler's ``fill_state`` reads those fields of the state without
        building the view, tested byte-identical to the reference from the view)."""
        fill_state = self.fill_state
        if fill_state is None or seat is None:
            return self.observation(self.game.observe(state, seat), out)
        if out is None:
            out = np.zeros(self.layout.size, dtype=np.float32)
        else:
            out.fill(0.0)
        fill_state(state, seat, out.data, 0)
        return out

    def tensor_string(self, vector: np.ndarray) -> str:
        """The vector in words, one line per non-empty segment (for debugging)."""
        lines = []
        segments = self.layout.segments
        if self._segment_of is None or len(self._segment_of) != self.layout.size:
            owner = np.zeros(self.layout.size, dtype=np.intp)
            for k, seg in enumerate(segments):
                owner[seg.start : seg.stop] = k
            self._segment_of = owner
        nonzero = np.flatnonzero(vector[: self.layout.size])
        # the non-zero entries in order, grouped by the segment they fall in
        groups: dict[int, list[tuple[int, float]]] = {}
        for k, i, v in zip(
            self._segment_of[nonzero].tolist(),
            nonzero.tolist(),
            vector[nonzero].tolist(),
            strict=True,
        ):
            groups.setdefault(k, []).append((i - segments[k].start, v))
        for k, entries in groups.items():
            seg = segments[k]
            if seg.kind in ("cards", "onehot", "flags") and seg.labels:
                text = " ".join(seg.labels[i] + ("" if v == 1 else f"×{v:g}") for i, v in entries)
            elif seg.size == 1:
                text = f"{entries[0][1]:g}"
            else:
                text = " ".join(
                    (seg.labels[i] if seg.labels else str(i)) + f"={v:g}" for i, v in entries
                )
            lines.append(f"{seg.name}: {text}")
        return "\n".join(lines)

    def observation_string(self, view: Any) -> str:
        return self.tensor_string(self.observation(view))

    # --- documentation ------------------------------------------------------------------------

    def markdown(self) -> str:
        """The id ranges and the observation layout as Markdown tables (``docs/research.md``
        shows these for each game's default rules; a test keeps them equal)."""
        lines = [
            f"{self.space.size} action ids:",
            "",
            "| ids | name | meaning |",
            "|---|---|---|",
        ]
        for r in self.space.ranges:
            ids = f"{r.start}" if r.size == 1 else f"{r.start}–{r.stop - 1}"
            lines.append(f"| {ids} | `{r.name}` | {r.meaning} |")
        lines += [
            "",
            f"Observation: {self.layout.size} float32 values ({self.players} players):",
            "",
            "| segment | size | meaning |",
            "|---|---|---|",
        ]
        groups: dict[str, list[Segment]] = {}
        for seg in self.layout:
            key = re.sub(r"^(seat|side)\+\d+\.", r"\1+k.", seg.name)
            groups.setdefault(key, []).append(seg)
        for key, segs in groups.items():
            size = str(segs[0].size) if len(segs) == 1 else f"{len(segs)} × {segs[0].size}"
            meaning = segs[0].meaning
            if len(segs) > 1:
                meaning = re.sub(r"viewer\+\d+", "viewer+k", meaning)
                meaning = meaning.replace("the viewer's side", "side viewer+k (0 = own)")
            lines.append(f"| `{key}` | {size} | {meaning} |")
        return "\n".join(lines)
