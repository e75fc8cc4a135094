"""1841's bot kit: the 18xx kit (`shared/bots/kit18xx/`) on 1841's adapter (`adapter.py`, the
one module here that imports the title's rules), with what 1841 asks that the kit does not
know (`decisions.py`: the concession auction, founding, train events' questions) and 1841's
numbers (`params.py`).

1841 hides only version_1's sealed bids: the kit is not exact then, and a search
determinizes with the engine's `redact` (the generic kit's way)."""

from __future__ import annotations

from shared.bots.kit18xx import Kit18xx
from shared.games.g1841.meta import META

from .adapter import TITLE
from .params import PARAMS

KIT = Kit18xx(TITLE, PARAMS, exact=META.public_view)
