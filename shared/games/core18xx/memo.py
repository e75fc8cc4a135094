"""The speed caches' one policy: answers of pure functions over immutable states, kept while
the states they came from are in use.

States are frozen structs that every change copies, so "the same state" is a matter of
identity: a cache is keyed by the ids of the inputs it read (plus plain hashable extras), and
each entry holds those inputs, so an id cannot be handed to a new object while its entry
lives. An entry is a hit when the inputs it holds are the very ones asked about (identity,
never a deep comparison). Callers only read what they get.

- `Memo(size)`: a bounded module-level cache (cleared when full: the working set is the few
  states around the current decision).
- `Last()`: a one-entry cache (the state asked about again and again in one decision). A site
  asked thousands of times a game may keep its inputs inside the answer, read `value` itself,
  comparing those by identity, and set it (no call: the rounds' waiting step, who acts, the
  last `with_board`); `value` is None when empty.
- Answers derived from one frozen struct are kept on it: `functools.cached_property` on a
  struct declared with `dict=True` (a `__dict__` neither encoded nor compared), holding the
  value or a dict of answers (`MoneyState.answers` for the rounds' questions).
Plain values that are part of a key (a phase, a corporation) go in the key (`Memo`) or in
`extra` (`Last`), compared by value. `clear_all()` empties every module-level cache (tests
comparing cold and warm answers).
"""

from __future__ import annotations

from operator import is_
from typing import Any

_ALL: list[Memo | Last] = []


def clear_all() -> None:
    for cache in _ALL:
        cache.clear()


class Memo:
    __slots__ = ("entries", "size")

    def __init__(self, size: int = 1024) -> None:
        self.entries: dict[Any, tuple[tuple, Any]] = {}
        self.size = size
        _ALL.append(self)

    def get(self, key: Any, held: tuple) -> Any:
        """The answer stored under `key` from the inputs `held`, else None."""
        hit = self.entries.get(key)
        if hit is not None and all(map(is_, hit[0], held)):
            return hit[1]
        return None

    def put(self, key: Any, held: tuple, value: Any) -> Any:
        if len(self.entries) >= self.size:
            self.entries.clear()
        self.entries[key] = (held, value)
        return value

    def clear(self) -> None:
        self.entries.clear()


class Last:
    """The last answer, kept with the inputs it came from."""

    __slots__ = ("held", "extra", "value")

    def __init__(self) -> None:
        self.held: tuple | None = None
        self.extra: Any = None
        self.value: Any = None
        _ALL.append(self)

    def get(self, held: tuple, extra: Any = None) -> Any:
        # (each cache site always passes inputs of the same arity; most pass one state, asked
        # again and again: that one is compared without a loop)
        h, ex = self.held, self.extra
        if h is None or (ex is not extra and ex != extra):
            return None
        if len(h) == 1:
            return self.value if h[0] is held[0] else None
        return self.value if all(map(is_, h, held)) else None

    def put(self, held: tuple, value: Any, extra: Any = None) -> Any:
        self.held, self.extra, self.value = held, extra, value
        return value

    def clear(self) -> None:
        self.held = self.extra = self.value = None
