"""Steps: one decision each, 18xx.games style (see shared/games/core18xx/rounds.py)."""
