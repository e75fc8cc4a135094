"""Legal-action families: many concrete actions in one compact, enumerable description.

A `LegalAction` is a concrete action of the title (`action`), alone or as the first member
of a family:
- `range`: one numeric field takes any value min..max in steps (a bid);
- `choices`: a trie over several fields (hex -> tile -> rotation; company -> source ->
  count). Each `Choice` names a field and the values it may take; `then` gives what the
  remaining fields may take, one entry per value, or a single entry shared by all values
  (a product). A leaf may be an `AmountRange`. `open=True` marks values that are only
  suggestions (route sets: the engine's best routes), where `apply` decides the rest.

`expand` enumerates a family (bots, contract tests); `admits` says whether a concrete
action belongs to it. Both read fields by name, so any msgspec action struct works.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec


class AmountRange(msgspec.Struct, frozen=True, tag_field="kind", tag="range"):
    """A numeric field that may take any value min..max in steps of `step`."""

    field: str
    min: int
    max: int
    step: int = 1

    def values(self) -> range:
        return range(self.min, self.max + 1, self.step)

    def admits(self, value: Any) -> bool:
        return type(value) is int and self.min <= value <= self.max and (value - self.min) % self.step == 0


class Choice(msgspec.Struct, frozen=True, omit_defaults=True, tag_field="kind", tag="choice"):
    """A field taking one of `values`; `then` describes the fields after it (see module doc)."""

    field: str
    values: list[Any]
    # A Sequence (decoded as a list) so that a list of Choices alone is one too.
    then: Sequence[Choice | AmountRange | None] | None = None
    open: bool = False

    def next_for(self, index: int) -> Choice | AmountRange | None:
        if not self.then:
            return None
        return self.then[0] if len(self.then) == 1 else self.then[index]


Node = Choice | AmountRange | None


class LegalAction(msgspec.Struct, frozen=True):
    """One legal move, or a family of them (see the module doc). With `range` or `choices`,
    `action` holds the family's first member."""

    action: Any
    range: AmountRange | None = None
    choices: Choice | None = None

    @property
    def closed(self) -> bool:
        """True when `expand` lists the whole family (no open suggestions)."""
        return self.choices is None or not _has_open(self.choices)


def _has_open(node: Node) -> bool:
    if node is None or isinstance(node, AmountRange):
        return False
    if node.open:
        return True
    return any(_has_open(node.next_for(i)) for i in range(len(node.values)))


def _assignments(node: Node) -> Iterator[dict[str, Any]]:
    if node is None:
        yield {}
        return
    if isinstance(node, AmountRange):
        for v in node.values():
            yield {node.field: v}
        return
    for i, value in enumerate(node.values):
        for rest in _assignments(node.next_for(i)):
            yield {node.field: value, **rest}


def expand(legal: LegalAction) -> Iterator[Any]:
    """Every concrete action of the family (for an open choice: the suggested ones)."""
    base = legal.action
    if legal.range is None and legal.choices is None:
        yield base
        return
    for fields in _assignments(legal.choices):
        if legal.range is not None:
            for v in legal.range.values():
                yield msgspec.structs.replace(base, **fields, **{legal.range.field: v})
        else:
            yield msgspec.structs.replace(base, **fields) if fields else base


def family_size(legal: LegalAction) -> int:
    """How many concrete actions `expand` yields, without building them."""
    n = _count(legal.choices) if legal.choices is not None else 1
    if legal.range is not None:
        n *= len(legal.range.values())
    return n


def _count(node: Node) -> int:
    if node is None:
        return 1
    if isinstance(node, AmountRange):
        return len(node.values())
    return sum(_count(node.next_for(i)) for i in range(len(node.values)))


def admits(legal: LegalAction, action: Any) -> bool:
    """Whether `action` belongs to the family: same type, the fixed fields equal the
    template's, the varying ones within the family (open choices admit any value there)."""
    base = legal.action
    if type(action) is not type(base):
        return False
    varying: set[str] = set()
    if legal.range is not None:
        varying.add(legal.range.field)
        if not legal.range.admits(getattr(action, legal.range.field, None)):
            return False
    if legal.choices is not None:
        fields = _walk(legal.choices, action)
        if fields is None:
            return False
        varying |= fields
    return all(
        getattr(action, name) == getattr(base, name) for name in base.__struct_fields__ if name not in varying
    )


def _walk(node: Node, action: Any) -> set[str] | None:
    """The fields the trie fixes along `action`'s path, or None if the action leaves it."""
    if node is None:
        return set()
    value = getattr(action, node.field, None)
    if isinstance(node, AmountRange):
        return {node.field} if node.admits(value) else None
    try:
        index = node.values.index(value)
    except ValueError:
        if not node.open:
            return None
        # An open choice: any value, and the rest is the engine's to judge.
        return {node.field} | _all_fields(node)
    rest = _walk(node.next_for(index), action)
    return None if rest is None else {node.field} | rest


def _all_fields(node: Node) -> set[str]:
    if node is None:
        return set()
    if isinstance(node, AmountRange):
        return {node.field}
    out = {node.field}
    for i in range(len(node.values)):
        out |= _all_fields(node.next_for(i))
    return out


def any_admits(legals: list[LegalAction], action: Any) -> bool:
    return any(admits(legal, action) for legal in legals)
