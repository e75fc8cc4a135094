"""Membership of a concrete action in a list of legal-action families (contract `LegalAction`
with an optional `AmountRange`), for engines that check decisions against what they offer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from shared.engine import LegalAction

_BOOKKEEPING = ("id", "user", "created_at", "auto_actions")


def has_bookkeeping(action: Any) -> bool:
    """Whether an export's own fields (`_BOOKKEEPING`) are set: never a decision's."""
    # (asked of every action checked and every offer it is compared with: read directly)
    return (getattr(action, "id", None) is not None or getattr(action, "user", None) is not None
            or getattr(action, "created_at", None) is not None or getattr(action, "auto_actions", None) is not None)


def _plain(action: Any) -> Any:
    # bookkeeping fields never decide legality (an action without any is its own plain form)
    if not has_bookkeeping(action):
        return action
    return msgspec.structs.replace(action, **{k: None for k in _BOOKKEEPING if getattr(action, k, None) is not None})


def covers(legal: Sequence[LegalAction], action: Any,
           same: Callable[[Any, Any], bool] | None = None) -> bool:
    """True if `action` is one of the families in `legal`. `same(offered, action)` may accept
    an action the title treats as identical to the offered one (e.g. another certificate of the
    same company, holder and size)."""
    action = _plain(action)
    for item in legal:
        offered = _plain(item.action)
        if type(offered) is not type(action):
            continue
        if item.range is not None:
            r = item.range
            value = getattr(action, r.field, None)
            if not isinstance(value, int) or not (r.min <= value <= r.max) or (value - r.min) % r.step:
                continue
            offered = msgspec.structs.replace(offered, **{r.field: value})
        if offered == action or (same is not None and same(offered, action)):
            return True
    return False
