"""RFC 6902 JSON Patch between two JSON documents: `diff(old, new)` and `apply(doc, ops)`.

The projection sends each seat the patch from its previous view to its new one instead of
the whole view (docs/protocol.md). Views are big and change little per action, so `diff`
is built for that case: it compares with `==` first (a deep comparison done in C) and only
walks into the parts that differ. It emits only `add`, `remove` and `replace`; `apply`
accepts exactly those, which is what a client of this protocol must handle.

Lists: a list that grew by appending (a game log) becomes one `add` at `/path/-` per new
item; a list of the same length is patched index by index; one that shrank or was rewritten
(an undo takes log lines back) gets per-index patches and removals from the end, or a
single `replace` of the whole list when that is shorter on the wire.

Equality is Python's, so values Python calls equal are not told apart: `1`, `1.0` and
`True` (and `0`, `0.0`, `False`) are "the same". Numbers 1 and 1.0 are the same JSON
number to any reader; a view field must therefore never switch between a bool and a number
(give each field one JSON type, as a schema would).
"""

from __future__ import annotations

from typing import Any

import msgspec

Op = dict[str, Any]  # {"op": "add" | "remove" | "replace", "path": "/a/0", "value": ...}

_encode = msgspec.json.Encoder().encode
_REWRITE_SHARE = 0.5  # equal-length list with more than this share of items changed: maybe replace it whole


class PatchError(ValueError):
    """A patch that does not fit the document (a missing path, a bad index, an unknown op)."""


def escape(token: str) -> str:
    """One reference token of a JSON Pointer (RFC 6901): `~` -> `~0`, `/` -> `~1`."""
    if "~" in token:
        token = token.replace("~", "~0")
    if "/" in token:
        token = token.replace("/", "~1")
    return token


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


# --- diff ------------------------------------------------------------------------------------


def diff(old: Any, new: Any) -> list[Op]:
    """The ops that turn `old` into `new` (empty when they are equal). Reads both, changes neither."""
    ops: list[Op] = []
    if old != new:
        _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """`old != new` is known; append the ops for `path`."""
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dict(old, new, path, ops)
    elif isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)):
        _diff_list(old, new, path, ops)
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(old: dict[Any, Any], new: dict[Any, Any], path: str, ops: list[Op]) -> None:
    for key, value in old.items():
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{escape(str(key))}"})
            continue
        other = new[key]
        if value is not other and value != other:
            _diff(value, other, f"{path}/{escape(str(key))}", ops)
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{escape(str(key))}", "value": value})


def _diff_list(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    n_old, n_new = len(old), len(new)
    if n_new > n_old and _same_prefix(old, new, n_old):
        ops.extend({"op": "add", "path": f"{path}/-", "value": item} for item in new[n_old:])
        return
    candidate: list[Op] = []
    changed = _diff_items(old, new, min(n_old, n_new), path, candidate)
    if n_old == n_new and changed <= _REWRITE_SHARE * n_old:
        ops.extend(candidate)  # the common case (one hex of a map changed): no size check
        return
    candidate.extend({"op": "add", "path": f"{path}/-", "value": item} for item in new[n_old:])
    # Remove from the end so the indexes still to remove stay valid.
    candidate.extend({"op": "remove", "path": f"{path}/{i}"} for i in range(n_old - 1, n_new - 1, -1))
    whole: list[Op] = [{"op": "replace", "path": path, "value": new}]
    ops.extend(candidate if len(_encode(candidate)) <= len(_encode(whole)) else whole)


def _same_prefix(old: Any, new: Any, n: int) -> bool:
    if isinstance(old, list) and isinstance(new, list):
        return new[:n] == old
    return all(a is b or a == b for a, b in zip(old, new))


def _diff_items(old: Any, new: Any, n: int, path: str, ops: list[Op]) -> int:
    """Patch indexes 0..n-1 in place; returns how many differed."""
    changed = 0
    for i in range(n):
        a, b = old[i], new[i]
        if a is not b and a != b:
            changed += 1
            _diff(a, b, f"{path}/{i}", ops)
    return changed


# --- apply -----------------------------------------------------------------------------------


def apply(doc: Any, ops: list[Op]) -> Any:
    """`doc` with `ops` applied, as a new document; `doc` and `ops` are left as they were.

    Containers on the way to each change are copied (once per call: copy on write), the
    rest is shared with `doc`. Raises PatchError when an op does not fit the document.
    """
    root = doc
    owned: dict[int, Any] = {}  # id -> container this call copied (safe to change); keeps it alive
    for op in ops:
        kind, path = _read_op(op)
        tokens = _parse_pointer(path)
        if not tokens:
            if kind == "remove":
                raise PatchError("cannot remove the whole document")
            root = op["value"]
            continue
        root = _owned(root, owned, path)
        parent = root
        for token in tokens[:-1]:
            key = _key(parent, token, path, past_end=False)
            child = _owned(parent[key], owned, path)
            parent[key] = child
            parent = child
        key = _key(parent, tokens[-1], path, past_end=kind == "add")
        if kind == "remove":
            del parent[key]
        elif kind == "add" and isinstance(parent, list):
            parent.insert(key, op["value"])
        else:
            parent[key] = op["value"]
    return root


def _read_op(op: Any) -> tuple[str, str]:
    if not isinstance(op, dict) or not isinstance(op.get("op"), str) or "path" not in op:
        raise PatchError(f"not a patch operation: {op!r}")
    kind = op["op"]
    if kind not in ("add", "remove", "replace"):
        raise PatchError(f"unsupported op {kind!r} (this protocol sends add, remove and replace)")
    if kind != "remove" and "value" not in op:
        raise PatchError(f"{kind} at {op['path']!r} has no value")
    return kind, op["path"]


def _parse_pointer(path: Any) -> list[str]:
    if not isinstance(path, str):
        raise PatchError(f"path must be a string, not {path!r}")
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"path {path!r} must be empty or start with '/'")
    return [unescape(t) for t in path[1:].split("/")]


def _owned(value: Any, owned: dict[int, Any], path: str) -> Any:
    """`value` itself if this call copied it already, else a shallow copy it may change."""
    if id(value) in owned:
        return value
    if isinstance(value, dict):
        value = dict(value)
    elif isinstance(value, (list, tuple)):
        value = list(value)
    else:
        raise PatchError(f"{path!r}: cannot step into {type(value).__name__} {value!r}")
    owned[id(value)] = value
    return value


def _key(container: Any, token: str, path: str, *, past_end: bool) -> Any:
    """The member or index `token` names in `container`; it must exist, except that with
    `past_end` (add) an array index may be its length or `-` and a member may be new."""
    if isinstance(container, dict):
        if not past_end and token not in container:
            raise PatchError(f"{path!r}: no member {token!r}")
        return token
    n = len(container)
    if token == "-" and past_end:
        return n
    if not (token.isascii() and token.isdigit()) or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"{path!r}: {token!r} is not an array index")
    index = int(token)
    if index > n or (index == n and not past_end):
        raise PatchError(f"{path!r}: index {index} is out of range (length {n})")
    return index
