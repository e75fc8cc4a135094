"""18Ireland (18xx.games rules): the title package; see README.md."""

from shared.games.g18ireland.engine import ENGINE
from shared.games.g18ireland.meta import META

__all__ = ["ENGINE", "META"]
