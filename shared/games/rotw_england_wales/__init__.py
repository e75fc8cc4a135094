"""Railways of England and Wales (a Railways of the World map), standard game, 2-5 players.

Rules: README.md (with a source for each rule). Map: map.json (format MAP_FORMAT.md).
Modules: setup, auction, turn, build (track, urbanize, engine), deliver (with the Railway
Inspector window), cards (operations display), majors, income, end (scoring), view
(view + redact: hidden information removed in one place), engine (`ENGINE`), meta (`META`).
"""

from shared.games import loads_engine_lazily

from .meta import META

__all__ = ["ENGINE", "META"]  # noqa: F822 (ENGINE: __getattr__)
__getattr__ = loads_engine_lazily(__name__)
