"""The HTTP edge both services share: the guard middleware and runner (guard.py), the error
answers (errors.py), per-client limits (limits.py) and reply helpers (replies.py). It knows
no service: the game service and the projection import it, never each other."""
