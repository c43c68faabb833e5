"""Load a script of the repository (``bench/``, ``scripts/``, ``examples/``) as a module.

Those folders are not packages: a script is run as a file. A test that checks one loads it by
path, registered in ``sys.modules`` under ``name`` (a dataclass in it looks its module up there).

>>> load_script("scripts/golden.py", "golden_doctest").__name__
'golden_doctest'
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(path: str, name: str) -> ModuleType:
    """The module of ``ROOT / path``, loaded once per ``name``."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
