"""Running matches: one match between bots (``match``), tournaments with duplicate deals
(``tournament``), where games run (``executors``: in-process, a local process pool, Ray), confidence
intervals and Bradley–Terry ratings (``stats``), and plots (``plot``)."""
