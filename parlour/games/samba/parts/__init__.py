"""Helpers only this game needs (the game-specific place of the common skeleton, see
docs/skeleton.md): they serve the standard modules one level up and are imported from them."""
