"""The 18xx bot kit: a heuristic, a value function and search options for any title built on
`shared/games/core18xx/`, from a small adapter (`title.Title18xx`) and the title's numbers
(`params.Params`). 18Ireland's adapter and numbers are in `shared/bots/g18ireland/`."""

from .kit import Kit18xx
from .params import Params
from .title import Title18xx

__all__ = ["Kit18xx", "Params", "Title18xx"]
