"""18Ireland's bot kit: the 18xx kit (`shared/bots/kit18xx/`) on 18Ireland's adapter
(`adapter.py`, the one module here that imports the title's rules) with 18Ireland's numbers
(`params.py`)."""

from __future__ import annotations

from shared.bots.kit18xx import Kit18xx

from .adapter import TITLE
from .params import PARAMS

KIT = Kit18xx(TITLE, PARAMS)
