"""1841 (18xx.games rules): the title package; see README.md."""

from shared.games.g1841.engine import ENGINE
from shared.games.g1841.meta import META

__all__ = ["ENGINE", "META"]
