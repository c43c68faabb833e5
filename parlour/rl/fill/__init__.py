"""Compiled observation fillers: each game's observation tensor written straight into a float32
buffer (a ``memoryview`` of the numpy vector, format ``"f"``), one entry at a time.

The modules here are compiled with the rules core by mypyc (``pyproject.toml``); they import no
numpy (the build has none) and read the game's view classes with their declared types, so an
attribute read is a C field read.  Each game's filler writes exactly the entries its
:class:`~parlour.rl.encoding.base.Encoding` ``_write`` (the reference, written with a
:class:`~parlour.rl.encoding.base.Writer`) writes; ``tests/rl/test_fill.py`` keeps the two
byte-identical.  The buffer is zero where the filler writes nothing (the caller zeroes it).

Each module also computes the ids of legal actions (``ids(state, actions, slow)``): the
frequent action types here, the others through the encoding's ``_action_to_id`` (``slow``);
the same test keeps them equal to ``_action_to_id``'s.
"""
