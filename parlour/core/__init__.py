"""The rules core shared by every game: cards, seeded randomness, the Game protocol, actions,
events and outcomes, events told in words (``text``), the state copier (``state``), the
rules-object schema, errors, the registry and replay."""
