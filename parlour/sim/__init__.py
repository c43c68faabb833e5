"""Running matches: one match between bots, many for simulation, tournaments with ratings."""
