"""The contract's `Choice` (legal-action trie). Contract v2 puts it in `shared.families` (main,
4e19928); on a branch without it, an identical local struct keeps this package importable."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.families import AmountRange

try:  # pragma: no cover - depends on which contract the branch has
    from shared.families import Choice
except ImportError:  # pragma: no cover

    class Choice(msgspec.Struct, frozen=True):  # type: ignore[no-redef]
        field: str
        values: list[Any]
        then: list[Any] | None = None
        open: bool = False


def trie(fields: tuple[str, ...], rows: list[tuple[Any, ...]]) -> Choice | None:
    """Build a Choice trie over `fields` from concrete rows (each a tuple of values in field
    order), keeping first-seen order at every level."""
    if not rows:
        return None
    groups: dict[Any, list[tuple[Any, ...]]] = {}
    for row in rows:
        groups.setdefault(row[0], []).append(row[1:])
    values = list(groups)
    if len(fields) == 1:
        return Choice(fields[0], values)
    return Choice(fields[0], values, then=[trie(fields[1:], groups[v]) for v in values])


def flatten(choice: Choice | None) -> list[tuple[Any, ...]]:
    """All concrete rows of a trie (inverse of `trie`; for tests and bots)."""
    if choice is None:
        return [()]
    out: list[tuple[Any, ...]] = []
    for i, v in enumerate(choice.values):
        sub: Choice | AmountRange | None = None
        if choice.then is not None:
            sub = choice.then[i] if len(choice.then) == len(choice.values) else choice.then[0]
        if isinstance(sub, AmountRange):
            raise TypeError("flatten reads tries of choices only (what `trie` builds)")
        for rest in flatten(sub):
            out.append((v,) + rest)
    return out
