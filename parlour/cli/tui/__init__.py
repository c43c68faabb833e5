"""Terminal play (``parlour play``): a person plays one seat against bots.

- ``session``   runs the loop (bots at a readable pace, saving, Ctrl-C)
- ``commands``  turns what a card player types into actions
- ``adapters``  per game, how a seat's view is drawn with Rich and what typed commands mean, with
  a generic adapter for games without their own
- ``samba``, ``handfoot``, ``cheat``, ``scat``  each game's layout and commands"""
