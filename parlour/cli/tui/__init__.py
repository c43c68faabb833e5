"""Terminal play (``parlour play``): a person plays one seat against bots.

``session`` runs the loop (bots at a readable pace, saving, Ctrl-C); ``commands`` turns what a
card player types into actions; ``render`` draws exactly the seat's view with Rich, with
game-specific layouts for Samba, Hand and Foot, Cheat and Scat and a generic one otherwise."""
