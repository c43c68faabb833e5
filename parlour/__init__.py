"""Parlour: an open-source card room — exact rules engines, bots and the faces that use them."""

__version__ = "0.1.0"
