"""Build hook: compile Parlour's hot modules with mypyc, or fall back to pure Python.

Runs inside hatchling for every wheel, editable ones included (``uv sync``):

- the modules listed under ``[tool.parlour.compiled]`` in ``pyproject.toml`` are compiled by
  mypyc into one shared library plus a small extension per module;
- an editable install builds in place (the ``.so`` files sit beside the ``.py`` files, ignored
  by git); a wheel gets them added under ``parlour/`` and a platform tag;
- ``parlour/_build.json`` records the outcome, the mypyc version and the SHA-256 of every
  compiled source, so ``parlour`` loads the sources instead of a stale ``.so``
  (``parlour/_build.py``);
- no C compiler, no Python headers, a mypyc error: the install still succeeds, interpreted,
  and the record says why (``parlour info``).  ``PARLOUR_PURE=1`` at install skips the compile.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import sys
import sysconfig
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

RECORD = "parlour/_build.json"
#: the shared library of the compiled modules: parlour/_native__mypyc.*.so
GROUP = "parlour._native"


def _log(message: str) -> None:
    print(f"parlour build: {message}", file=sys.stderr, flush=True)


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        modules = list(self.config.get("modules", []))
        editable = version == "editable"
        record = compile_modules(root, modules, in_place=editable)
        record_path = root / RECORD
        if editable:
            record_path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            return
        out = Path(tempfile.mkdtemp(prefix="parlour-record-"))
        (out / "_build.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        build_data["force_include"][str(out / "_build.json")] = RECORD
        if record["compiled"]:
            for built, target in record.pop("_outputs"):
                build_data["force_include"][built] = target
            build_data["pure_python"] = False
            build_data["infer_tag"] = True


def _module_file(root: Path, module: str) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def compile_modules(root: Path, modules: list[str], *, in_place: bool) -> dict[str, Any]:
    """Compile ``modules``; never raises: a failure is recorded and the build goes on."""
    sources = {m: hashlib.sha256(_module_file(root, m).read_bytes()).hexdigest() for m in modules}
    record: dict[str, Any] = {"compiled": False, "reason": "", "mypyc": "", "sources": sources}
    if os.environ.get("PARLOUR_PURE", "") not in ("", "0"):
        record["reason"] = "installed with PARLOUR_PURE=1"
        _log(record["reason"] + ": not compiling")
        return record
    started = time.monotonic()
    try:
        import mypy.version

        record["mypyc"] = mypy.version.__version__
        outputs = _run_mypyc(root, modules, in_place=in_place)
    except BaseException as error:  # any failure means: install the interpreted build
        if isinstance(error, KeyboardInterrupt):
            raise
        reason = _reason(error)
        record["reason"] = reason
        _log(f"compiling failed, installing the interpreted build: {reason}")
        _log("".join(traceback.format_exception(error))[-4000:])
        _remove_stale(root, modules)
        return record
    record["compiled"] = True
    record["seconds"] = round(time.monotonic() - started, 1)
    if not in_place:
        record["_outputs"] = outputs
    _log(f"compiled {len(modules)} modules with mypyc {record['mypyc']} in {record['seconds']} s")
    return record


def _reason(error: BaseException) -> str:
    """One short line for ``parlour info`` (the full traceback is in the install log)."""
    text = str(error).strip()
    if isinstance(error, SystemExit):
        return "mypyc failed (see the install log: uv sync -v)"
    compiler = re.search(r"Command '\['([^']+)'.*exit status (\d+)", text, re.S)
    if compiler:
        return f"the C compiler failed ({compiler[1]}, exit status {compiler[2]})"
    lines = text.splitlines()
    if type(error) is RuntimeError:  # raised here, already in words
        return lines[-1] if lines else "unknown"
    return f"{type(error).__name__}: {lines[-1] if lines else ''}"[:160]


def _remove_stale(root: Path, modules: list[str]) -> None:
    """A failed in-place build must not leave an older build's extensions active."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    for module in [*modules, GROUP + "__mypyc"]:
        path = _module_file(root, module)
        with contextlib.suppress(OSError):
            path.with_name(path.stem + suffix).unlink()


def _run_mypyc(root: Path, modules: list[str], *, in_place: bool) -> list[tuple[str, str]]:
    """mypycify + setuptools' build_ext; returns (built file, path in the wheel) pairs."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    if shutil.which(os.environ.get("CC", "cc").split()[0]) is None and not shutil.which("gcc"):
        raise RuntimeError("no C compiler found (cc/gcc); install gcc and the Python headers")
    build_dir = root / "build" / "mypyc"
    files = [str(_module_file(root, m).relative_to(root)) for m in modules]
    old_cwd = os.getcwd()
    os.chdir(root)
    try:
        # --follow-imports=silent: modules outside the list are read for their types only (the
        # build environment lacks the optional third-party packages some of them import)
        options = ["--cache-dir", str(build_dir / "mypy-cache"), "--follow-imports=silent"]
        extensions = mypycify(
            [*options, *files],
            target_dir=str(build_dir / "c"),
            group_name=GROUP,
            multi_file=True,
            opt_level=os.environ.get("PARLOUR_MYPYC_OPT", "2"),
        )
        for ext in extensions:
            # the headers of a group named inside a package are written under that package
            ext.include_dirs.append(str(build_dir / "c" / GROUP.rpartition(".")[0]))
        dist = Distribution({"name": "parlour", "ext_modules": extensions})
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace = in_place
        cmd.build_temp = str(build_dir / "temp")
        out = Path(tempfile.mkdtemp(prefix="parlour-ext-"))
        if not in_place:
            cmd.build_lib = str(out)
        cmd.parallel = max(1, min(4, os.cpu_count() or 1))
        cmd.ensure_finalized()
        quiet = io.StringIO()
        with contextlib.redirect_stdout(quiet):
            cmd.run()
        built = [(ext.name, cmd.get_ext_filename(ext.name)) for ext in extensions]
    finally:
        os.chdir(old_cwd)
    if in_place:
        return []
    return [(str(out / filename), filename) for _, filename in built]
