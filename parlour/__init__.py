"""Parlour: an open-source card room — exact rules engines, bots and the faces that use them."""

from parlour import _build

__version__ = "0.1.0"

#: the compiled (mypyc) or interpreted build, chosen before any engine module is imported
BUILD = _build.activate()
