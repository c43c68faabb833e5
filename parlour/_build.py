"""Which build of Parlour's rules core runs: the mypyc-compiled modules or the Python source.

The install compiles the hot modules (engines, basic bots, the search's play-out loop) with
mypyc when it can (``hatch_build.py``) and records in ``parlour/_build.json`` what it compiled,
with the SHA-256 of each compiled source.  On import, :func:`activate` decides:

- ``PARLOUR_PURE=1``: every module is loaded from its ``.py`` source (interpreted);
- no record, or the build failed (no C compiler, no Python headers): interpreted;
- a compiled source changed since the build: the whole compiled set is loaded from source, so
  an edit is never silently ignored by an old ``.so`` (rebuild with
  ``uv sync --reinstall-package parlour``);
- otherwise the compiled modules are used.

Compiled modules of one build call each other directly in C, so the set is used whole or not
at all.  This module must stay importable with nothing but the standard library: it runs first.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

#: the record the build writes next to this file
RECORD = Path(__file__).with_name("_build.json")
_PACKAGE_ROOT = Path(__file__).parent
_REBUILD = "uv sync --reinstall-package parlour"


@dataclass(frozen=True)
class BuildStatus:
    """The active build: ``compiled`` or not, why, and what the build recorded."""

    compiled: bool
    reason: str
    modules: tuple[str, ...] = ()
    mypyc: str = ""

    def describe(self) -> str:
        """One line: "compiled (41 modules, mypyc 2.4.1)" or "interpreted (why)"."""
        if self.compiled:
            return f"compiled ({len(self.modules)} modules, mypyc {self.mypyc})"
        return f"interpreted ({self.reason})"


def source_path(module: str, package_root: Path = _PACKAGE_ROOT) -> Path:
    """The ``.py`` file of a ``parlour`` submodule (compiled modules are never packages)."""
    return package_root.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _changed(sources: dict[str, str], package_root: Path) -> list[str]:
    changed = []
    for module, digest in sources.items():
        path = source_path(module, package_root)
        if not path.is_file() or source_hash(path) != digest:
            changed.append(module)
    return changed


def _missing_extensions(modules: Sequence[str], package_root: Path) -> list[str]:
    missing = []
    for module in modules:
        path = source_path(module, package_root)
        if not any(
            path.with_name(path.stem + suffix).is_file()
            for suffix in importlib.machinery.EXTENSION_SUFFIXES
        ):
            missing.append(module)
    return missing


def read_status(
    environ: Mapping[str, str] | None = None, package_root: Path = _PACKAGE_ROOT
) -> BuildStatus:
    """Which build :func:`activate` chooses (reads the record in ``package_root`` and hashes
    the sources there)."""
    env = os.environ if environ is None else environ
    try:
        record = json.loads((package_root / RECORD.name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    sources: dict[str, str] = dict(record.get("sources", {})) if record else {}
    modules = tuple(sources)
    mypyc = str(record.get("mypyc", "")) if record else ""
    if env.get("PARLOUR_PURE", "") not in ("", "0"):
        return BuildStatus(False, "PARLOUR_PURE=1", modules, mypyc)
    if record is None:
        return BuildStatus(False, f"no compiled build: {RECORD.name} not found")
    if not record.get("compiled"):
        why = record.get("reason") or "the build compiled nothing"
        return BuildStatus(False, f"no compiled build: {why}", modules, mypyc)
    missing = _missing_extensions(modules, package_root)
    if missing:
        return BuildStatus(
            False, f"no compiled build: {len(missing)} extension modules missing", modules, mypyc
        )
    changed = _changed(sources, package_root)
    if changed:
        return BuildStatus(
            False,
            f"sources changed since the build ({', '.join(changed[:3])}"
            f"{', …' if len(changed) > 3 else ''}); run `{_REBUILD}`",
            modules,
            mypyc,
        )
    return BuildStatus(True, "", modules, mypyc)


class SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the listed modules from their ``.py`` source even where a compiled ``.so`` sits
    beside it (the import system would otherwise prefer the extension module)."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        source = source_path(fullname)
        if not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _set_frozen_state(self: object, state: dict[str, object]) -> None:
    for name, value in state.items():
        object.__setattr__(self, name, value)


def fix_frozen_pickling(module: ModuleType) -> None:
    """Let the compiled frozen dataclasses of ``module`` unpickle (and ``copy.copy``).

    A compiled class's ``__setstate__`` sets each field with ``setattr``, which a frozen
    dataclass refuses; this one sets them the way ``dataclasses`` does for its own classes."""
    for value in list(vars(module).values()):
        params = getattr(value, "__dataclass_params__", None)
        if (
            isinstance(value, type)
            and value.__module__ == module.__name__
            and "__mypyc_attrs__" in value.__dict__
            and params is not None
            and params.frozen
        ):
            value.__setstate__ = _set_frozen_state  # type: ignore[attr-defined]


class _CompiledLoader(importlib.abc.Loader):
    """The extension loader of a compiled module, then :func:`fix_frozen_pickling` on every
    compiled module it brought in (compiled modules import each other in C, past the finder)."""

    def __init__(self, loader: importlib.abc.Loader, finder: CompiledFinder) -> None:
        self.loader = loader
        self.finder = finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        self.finder.fix_loaded()


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules as usual and fixes them up once loaded."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def fix_loaded(self) -> None:
        # every time, not once per module: a module may still be initialising when a nested
        # import calls this; the outermost load, which ends last, sees them all complete
        for name in self.modules:
            module = sys.modules.get(name)
            if module is not None:
                fix_frozen_pickling(module)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            spec.loader = _CompiledLoader(spec.loader, self)
        return spec


#: the build in use, set once by :func:`activate` when ``parlour`` is imported
STATUS: BuildStatus | None = None


def activate() -> BuildStatus:
    """Choose the build (see the module docstring); install the source finder if interpreted."""
    global STATUS
    if STATUS is not None:
        return STATUS
    STATUS = read_status()
    if STATUS.compiled:
        sys.meta_path.insert(0, CompiledFinder(STATUS.modules))
    elif STATUS.modules:
        sys.meta_path.insert(0, SourceFinder(STATUS.modules))
    return STATUS


def status() -> BuildStatus:
    return activate()


def loaded_compiled() -> list[str]:
    """The ``parlour`` modules now imported from an extension module (a check for tests)."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("parlour.")
        and str(getattr(module, "__file__", "") or "").endswith(
            tuple(importlib.machinery.EXTENSION_SUFFIXES)
        )
    )
