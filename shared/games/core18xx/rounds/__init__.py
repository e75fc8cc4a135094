"""Rounds as lists of steps, and the generic steps (README.md)."""
