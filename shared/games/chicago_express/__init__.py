"""Chicago Express (Wabash Cannonball): the complete rules engine.

Data: `board.json` (map, companies, set-up numbers) read by `board.py`. Rules: `auction.py`
(opening, auction action, first Wabash share), `build.py`, `develop.py`, `dividends.py`
(dividend phase, Chicago phase, end of game), `turn.py` (dials); `state.py`, `money.py`
(double-entry ledger), `actions.py`, `events.py` (log), `view.py`, `engine.py` (`ENGINE`), `meta.py` (`META`).
"""

from shared.games import loads_engine_lazily

from .meta import META

__all__ = ["ENGINE", "META"]  # noqa: F822 (ENGINE: __getattr__)
__getattr__ = loads_engine_lazily(__name__)
