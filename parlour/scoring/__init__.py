"""Score keepers: tools that add up a card game from what was bid and made, not game engines.

- :mod:`parlour.scoring.contract` — bridge contracts, results and honors, and their notation
  (``3NT``, ``4♠X``, ``4SXX``, ``6H by S``, ``=``, ``+1``, ``-2``, ``honors4``).
- :mod:`parlour.scoring.tables` — the score of one bridge deal from the seed's tables
  (trick score, overtricks, bonuses, undertricks).
- :mod:`parlour.scoring.chicago` — Chicago (four-deal) bridge: rounds, vulnerability, partscore
  carry-over, rounded differences, a running session and its JSON score sheet.

The rules are seed ``003_8b94f64b123ab947.txt`` as consolidated in RULES.md §5; the notation and
the JSON sheet are documented in ``docs/chicago.md``.
"""
