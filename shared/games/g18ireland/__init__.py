"""18Ireland (18xx.games rules): the title package; see README.md."""

from shared.games import loads_engine_lazily
from shared.games.g18ireland.meta import META

__all__ = ["ENGINE", "META"]  # noqa: F822 (ENGINE: __getattr__)
__getattr__ = loads_engine_lazily(__name__)
