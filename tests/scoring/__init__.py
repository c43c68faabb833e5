"""Tests of the score keepers (parlour.scoring) and `parlour score`."""
