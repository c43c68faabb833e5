"""Cheat's parts beyond the skeleton: the search's belief over hidden cards and its hints."""
